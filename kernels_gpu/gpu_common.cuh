/* What every GPU kernel template shares: the kernel_args convention. The kernels are compiled at
 * run time by NVRTC (rtc.c), each for one launch shape whose constants come as -D options (see
 * the variant's rule in launch.c); this header and those it includes are given to NVRTC from
 * the binary, and the toolkit's include folder supplies cuda_pipeline.h. No C library here:
 * NVRTC has none. */
#ifndef KERNELS_GPU_COMMON_CUH
#define KERNELS_GPU_COMMON_CUH

extern "C" {
#include "kernel.h"
}
#include "gpu_rules.h"

/* Uniform coefficient IDX of KIND (da_u, db_u) in ARGS, in the kernel's precision: an f32 kernel
 * reads the launch's single-precision copy (KIND##f), an operand straight from the parameter
 * bank, where converting the double cost an instruction at each use (wave25d: every level). */
#define UNIFORM_COEF(args, kind, idx) (sizeof(REAL) == 4 ? (REAL)(args).kind##f[idx] : (REAL)(args).kind[idx])

/* A pointer's address, for alignment tests (NVRTC has no stdint.h). */
#define ADDRESS(p) ((unsigned long long)(p))

#endif
