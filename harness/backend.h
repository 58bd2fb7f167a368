/* What the harness needs of a device: memory, data, timed launches, a bandwidth probe and a
 * description for the CSV context. kernels_cpu/ and kernels_gpu/ each provide one. */
#ifndef HARNESS_BACKEND_H
#define HARNESS_BACKEND_H

#include <stddef.h>

#include "halo_rule.h"
#include "kernel.h"

/* The device's own bandwidth, measured in the same run (bytes read plus bytes written). */
struct bandwidth {
    double copy_gbs;   /* CPU: STREAM copy; GPU: copy kernel */
    double second_gbs; /* CPU: STREAM triad; GPU: cudaMemcpy device to device */
    const char *copy_name, *second_name;
    double best_gbs;   /* the better of the two: what pct_bw is against */
    size_t bytes;      /* size of each array the probe used */
    double clock_ghz;  /* CPU: the cores' clock measured with the probe (cycles per second of a chain of
                        * dependent adds, over each thread's CPU time, averaged); 0 where not measured */
};

/* Context for every CSV row. Empty strings where a field does not apply. */
struct device_desc {
    char name[128];      /* CPU model or GPU name */
    char detail[256];    /* GPU: "132 SMs, L2 50 MiB, mem clock 2619 MHz, bus 5120 bit"; CPU: cores */
    char driver[64];     /* GPU driver / CUDA runtime; CPU: empty */
    size_t memory_bytes; /* what the device can hold */
    size_t cache_bytes;  /* last-level cache: rows whose arrays fit in a few times this are flagged */
    size_t core_cache_bytes; /* CPU: the level-2 cache of one core (bench's in-cache table); 0 if unknown */
    int max_threads;     /* CPU: OpenMP threads available; GPU: threads per block */
    int max_block[3];    /* GPU: per-dimension block limits; CPU: 0 */
    char simd[32];       /* CPU: the kernels' vector width ("avx512: 64 bytes"); GPU: empty */
};

/* One field's halo refresh (engine/halo_rule.h): its interior size, strides, precision,
 * boundary, per axis whether the component sits on the half nodes and its open faces (OPEN_LOW,
 * OPEN_HIGH: a neighbouring slab fills them, not the refresh), and the first axis to refresh
 * (where the kernel that wrote the field refreshed the axes before it: halo_axes). */
struct halo_args {
    int n[3];
    long sy, sz;
    int precision, boundary;
    int half[3], open[3];
    int first_axis;
};

struct layer_entry; /* codegen/layer.h */

struct backend {
    enum device device;
    /* 1 if usable; otherwise 0 with the reason in why ("no CUDA device: ..."). */
    int (*available)(char *why, size_t n);
    void (*describe)(struct device_desc *d);
    /* Allocate and release device memory. alloc returns NULL when the device cannot hold it. */
    void *(*alloc)(size_t bytes);
    void (*release)(void *p);
    void (*upload)(void *dst, const void *src, size_t bytes);
    void (*download)(void *dst, const void *src, size_t bytes);
    /* Device memory to device memory (between a decomposed grid's slabs), in order with the launches. */
    void (*copy)(void *dst, const void *src, size_t bytes);
    /* Fill n reals (precision p) with reproducible pseudo-random values in [lo, hi), in
     * parallel on the device, so that CPU pages are first touched by the computing threads. */
    void (*fill_random)(void *p, size_t n, int precision, unsigned seed, double lo, double hi);
    /* Set the thread count (CPU; 0 = all); ignored on the GPU. */
    void (*set_threads)(int threads);
    int (*threads)(void);
    /* Check a launch configuration; 0, or -1 with a one-line reason. */
    int (*check_block)(const int block[3], char *why, size_t n);
    /* Run fn(a) `batch` times per sample after `warmup` untimed launches and store each
     * sample's time per launch in ms[0..samples). Returns 0, or -1 with the reason in why. */
    int (*time_kernel)(kernel_fn fn, const struct kernel_args *a, int warmup, int batch, int samples,
                       double *ms, char *why, size_t n);
    /* The CPU time the threads in use have run so far, summed over them (each one's own clock:
     * time a thread spent descheduled does not count), in seconds; NULL on a GPU. Read before
     * and after a sample, it gives the cycles the kernel had (cpu_ms). */
    double (*threads_cpu_seconds)(void);
    /* Launch once and wait; 0, or -1 with the reason (a failed launch). */
    int (*run_once)(kernel_fn fn, const struct kernel_args *a, char *why, size_t n);
    /* The better of `passes` timed runs of each of the probe's two copies. Its arrays are
     * allocated (and warmed) on first use and kept, so that one-pass samples are short enough
     * to interleave with a kernel's own samples (measure.c). passes 0 copies nothing: the figures
     * of the last probe that did (zeros if none) and a fresh clock, what a cache-resident row is
     * paired with. */
    void (*probe_bandwidth)(struct bandwidth *bw, int passes);
    /* Refreshes the halo of one field on the device, axis after axis over the whole padded
     * extent of the others (so edges and corners come right). 0, or -1 with the reason. */
    int (*refresh_halo)(void *field, const struct halo_args *h, char *why, size_t n);
    /* Waits for everything launched (the step engine calls kernels directly, without a wait
     * after each); 0, or -1 with the reason of a failed launch or run. */
    int (*sync)(char *why, size_t n);
    /* Nanoseconds so far that the device in use ran below its clocks because its power or thermal
     * limit held them down (a GPU's: NVML's violation counters), and in *at_ns when the counter
     * last moved (its own clock, ns); NAN where it cannot say; NULL on a device without such
     * counters. Read twice: held over elapsed, both by the counter's clock, is the share
     * throttled between (clock_held_pct). */
    double (*clocks_held_ns)(double *at_ns);
    /* Kernels are compiled at run time, on both devices (NULL in a build without CUDA's GPU
     * stand-in). prepare compiles kernel k for launch a (its shape: a GPU kernel is compiled per
     * shape, a CPU kernel once) without running it, so that a batch of launches can be compiled in
     * parallel before they are measured (thread-safe): 0, or -1 with why if the launch is not one
     * the kernel takes. compiled_ms says how the kernel of that launch was obtained: the
     * milliseconds this process spent compiling it, or -1 if it came from the disk cache
     * (kernel_origin in results.h words it for the CSV). */
    int (*prepare)(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n);
    /* The same for a CPML layer kernel (codegen/layer.h), which has one launch shape. */
    int (*prepare_layer)(const struct layer_entry *e, char *why, size_t n);
    double (*compiled_ms)(const struct kernel_entry *k, const struct kernel_args *a);
    /* The theoretical occupancy of launch a of kernel k: the warps of the blocks that fit on one
     * multiprocessor (CUDA's occupancy calculator, from the compiled kernel's registers and the
     * launch's shared memory) as a percentage of the warps it holds; NAN where it cannot say;
     * NULL on a device without such a limit (the CPU). */
    double (*occupancy_pct)(const struct kernel_entry *k, const struct kernel_args *a);
    /* Several devices of the kind in one process (the GPU; NULL on the CPU): how many there are,
     * and which one the calls after use_device go to (a decomposed grid's slab each). use_device:
     * 0, or -1 with the reason. */
    int (*devices)(void);
    int (*use_device)(int index, char *why, size_t n);
};

const struct backend *cpu_backend(void);
const struct backend *gpu_backend(void); /* always present; available() says no without CUDA */
/* Device d's backend. */
static inline const struct backend *device_backend(enum device d) { return d == DEV_CPU ? cpu_backend() : gpu_backend(); }

#endif
