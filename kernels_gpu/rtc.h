/* Run-time compilation of GPU kernels with NVRTC, for the GPU in hand, cached on disk.
 *
 * A kernel's source (the generator's, filled at run time: launch.c) and its compile-time
 * constants (-D options: the launch's shape) are compiled for one architecture ("sm_90": machine
 * code; "compute_90": PTX, for a GPU newer than this NVRTC knows). The result is kept in the
 * kernel cache (codegen/kcache.h), keyed by a hash of the source, the options, the architecture
 * and the NVRTC version. A failed compilation writes NVRTC's log to a file, prints one line
 * naming the kernel and the log, and ends the program with status 2. Needs no GPU: `fdtdbench
 * cache --warm --arch sm_90` fills the cache on a machine without one. Without the CUDA toolkit,
 * kernels_gpu/without_cuda.c stands in for what the cache command uses. */
#ifndef KERNELS_GPU_RTC_H
#define KERNELS_GPU_RTC_H

#include <stddef.h>

#include "kcache.h"

/* Compile for arch ("sm_90") rather than for the GPU in hand: the cache command fills the cache
 * for another GPU, or on a machine without one. */
void rtc_force_arch(const char *arch);
const char *rtc_forced_arch(void); /* NULL unless forced */

/* "sm_90" for compute capability 9.0 where this NVRTC makes machine code for it, else PTX for
 * the newest architecture it knows below it ("compute_90"); into out. 0, or -1 if it knows none
 * (why). */
int rtc_arch(int major, int minor, char *out, size_t n, char *why, size_t whyn);
/* "NVRTC 13.0" */
const char *rtc_version(void);

/* Compiles source (named name in messages) with options opts[0..nopts) for arch, or takes it
 * from the disk cache. Thread-safe (the tuner compiles in parallel). Exits with status 2 after
 * one line on stderr if NVRTC fails. */
void rtc_build(const char *name, const char *source, const char *const *opts, int nopts, const char *arch,
               struct kcache_code *out);

#endif
