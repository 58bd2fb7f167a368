/* The CPU kernels' vector width, chosen at build time from the target (-march): AVX-512's
 * 64 bytes where the machine has it, else AVX's 32, else SSE's 16. Kernel loops ask for it
 * explicitly (simdlen), since compilers tuned for some AVX-512 CPUs prefer 256-bit vectors
 * otherwise; the CPU backend names it in every row (simd column). */
#ifndef KERNELS_CPU_SIMD_H
#define KERNELS_CPU_SIMD_H

#if defined(__AVX512F__)
#define SIMD_BYTES 64
#define SIMD_NAME "avx512"
#elif defined(__AVX__)
#define SIMD_BYTES 32
#define SIMD_NAME "avx2"
#else
#define SIMD_BYTES 16
#define SIMD_NAME "sse"
#endif
/* Lanes of the kernel's element type REAL (defined where this is used). */
#define SIMD_LANES (SIMD_BYTES / (int)sizeof(REAL))

#endif
