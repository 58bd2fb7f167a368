/* Run-time compilation of GPU kernels with NVRTC, for the GPU in hand, cached on disk.
 *
 * A kernel's source (the generator's, filled at run time: launch.c) and its compile-time
 * constants (-D options: the launch's shape) are compiled for one architecture ("sm_90": machine
 * code; "compute_90": PTX, for a GPU newer than this NVRTC knows). The result is kept in the
 * cache folder, one file per kernel named by a hash of the source, the options, the architecture
 * and the NVRTC version:
 *   $FDTDBENCH_CACHE, else $XDG_CACHE_HOME/fdtd-bench, else ~/.cache/fdtd-bench.
 * An entry is written to a temporary file and renamed, so concurrent runs and a kill at any moment
 * leave a whole entry or none; one that is truncated or damaged (its size and hash are checked)
 * is compiled again and rewritten, never loaded. A failed compilation writes NVRTC's log to a
 * file, prints one line naming the kernel and the log, and ends the program with status 2.
 * Needs no GPU: `fdtdbench cache --warm --arch sm_90` fills the cache on a machine without one.
 * Without the CUDA toolkit, kernels_gpu/without_cuda.c stands in for what the cache command uses. */
#ifndef KERNELS_GPU_RTC_H
#define KERNELS_GPU_RTC_H

#include <stddef.h>
#include <stdio.h>

/* One compiled kernel: machine code (or PTX) and how it was obtained. */
struct rtc_code {
    char *code;        /* malloc'd; the caller frees it */
    size_t size;
    int from_cache;    /* 1: read from the disk cache; 0: compiled by this call */
    double compile_ms; /* what compiling it took, now or when it was cached */
};

/* The cache folder, NULL with the cache off (FDTDBENCH_CACHE=off, which every command's
 * --no-cache sets: every kernel is compiled, nothing is written) or no folder can be named (no
 * HOME). */
const char *rtc_cache_dir(void);

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
               struct rtc_code *out);

/* What this process has built so far: kernels compiled (and the milliseconds that took) and
 * taken from the disk cache. */
void rtc_counts(int *compiled, double *compile_ms, int *cached);

/* The cache folder's entries: a line each with its size, when it was compiled and what ("name
 * options"), when list is set; then the count and total size. Returns 0 (also when there is no
 * folder yet), -1 if it cannot be read. */
int rtc_cache_show(FILE *f, int list);
/* Removes every entry (and stale temporary files); the count into *removed. 0, or -1 saying why. */
int rtc_cache_clear(int *removed);

#endif
