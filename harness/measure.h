/* Verification against the reference, and timing: the two steps behind every figure. */
#ifndef HARNESS_MEASURE_H
#define HARNESS_MEASURE_H

#include <stddef.h>

#include "results.h"

/* Runs kernel k on the device on random data over `grid` (odd sizes welcome) with the given
 * block/tile (and nodes per thread, for variants that march along z; rows per thread and pipeline
 * depth, for tiled variants, 0 their default), its output poisoned first, and compares every interior cell with
 * the double-precision reference (reference.h); also checks that no halo cell was written.
 * Returns 0 if it matches, or -1 with the first mismatch described in why.
 * *worst gets the largest error as a fraction of its tolerance (<= 1 passes). */
int verify_kernel(const struct backend *b, const struct scheme *s, const struct kernel_entry *k, const int grid[3],
                  const int block[3], int nodes, int rows, int stages, double *worst, char *why, size_t n);

/* 0 if kernel k can run on grid with this block, nodes per thread, rows per thread and pipeline
 * depth (0: the kernel's default; a variant without rows takes 0 or 1, one without a pipeline
 * depth 0): the device's limits, the variant's traits and its own accepts(); else -1 with the
 * reason in why. */
int check_launch(const struct backend *b, const struct kernel_entry *k, const int grid[3], const int block[3],
                 int nodes, int rows, int stages, char *why, size_t n);
/* The same for the launch a describes (launch_geometry's, with whatever else the caller sets: a
 * step with a CPML sets layer, so that a CPU kernel compiled per launch answers from the
 * compilation that will run, not one compiled only to answer). */
int check_launch_args(const struct backend *b, const struct kernel_entry *k, const struct kernel_args *a, char *why,
                      size_t n);

/* A batch of launches of kernel k on grid, to be measured one by one: launch i is block[i] with
 * nodes[i], rows[i] and stages[i] (0: the kernel's defaults). Where the backend compiles kernels
 * at run time (prepare), compiles every one now, in parallel, on every core; launches the kernel
 * does not take are left for check_launch to refuse. Elsewhere nothing. */
void prepare_launches(const struct backend *b, const struct kernel_entry *k, const int grid[3], int n,
                      const int (*block)[3], const int *nodes, const int *rows, const int *stages);
/* The same for runs c[0..n) (their kernels and launches), before anything is probed or timed. */
void prepare_runs(const struct backend *b, const struct run_config *c, int n);

/* The geometry (grid g: sizes and the padded arrays' strides) and launch of a's kernel;
 * everything else zero. */
void launch_geometry(struct kernel_args *a, const int g[3], const int block[3], int nodes, int rows, int stages);

/* The base of the grid on which run and sweep verify a kernel before timing it: small and
 * odd-sized. verify_geometry adjusts it to the timed launch. */
extern const int verify_grid[3];

/* 0 if c's launch is bounded: a CPU tile from 0 (whole) up to the grid in each dimension; a GPU
 * block's extent (y times rows per thread, z times nodes per thread) within int-safe limits, rows
 * within LAUNCH_MAX_ROWS and the pipeline depth within LAUNCH_MAX_STAGES (the device's and the
 * variant's own limits are check_launch's); or -1 saying which is not. */
int check_extent(const struct run_config *c, char *why, size_t n);

/* The grid that verification runs c's launch on: verify_grid, each size moved to the same
 * remainder modulo c's tile or block extent (x: modulo 64 on the CPU, for the SIMD remainder
 * loop) as c's grid, so that the timed run's partial tiles or blocks are the verified ones.
 * A dimension that is small, or whose tile is whole (0), is verified at its own size or the base.
 * A kernel compiled for its launch's strides (verify_rows) is verified on c's nx and ny and
 * STRIDES_PLANES planes (moved likewise), so that verification runs the machine code timed. */
void verify_geometry(const struct run_config *c, int out[3]);
enum { STRIDES_PLANES = 5 };

/* The one rule for kernels compiled for their launch's strides (trait strides, the CPU's regz:
 * kernel_args.sy and sz, which nx and ny set, are constants in its code): a grid that verifies
 * such a kernel has the timed grid's nx and ny, so it runs the same compilation. grid[0..1] set
 * from timed[] for such a kernel (t), else left as they are. */
void verify_rows(const struct variant_traits *t, const int timed[3], int grid[3]);

/* Everything about c that can be checked before measuring: the kernel exists, the launch suits
 * the device and the variant (check_launch) and the grid (check_extent), and the grid fits in
 * memory (run_fits). 0, or -1 with why. measure() checks it too. */
int measure_check(const struct backend *b, const struct run_config *c, const struct device_desc *d, char *why,
                  size_t n);

/* Throughput no memory system gives: more than this many times the probe's bandwidth for a grid
 * that does not fit in cache (and CACHE_LIMIT times for one that does) is a measurement error. */
#define DRAM_LIMIT 3
#define CACHE_LIMIT 30

/* Verifies on verify_geometry(c), then times c on the full grid: c->reps samples, each a one-pass
 * bandwidth probe followed by a warm-up launch and a batch of launches sized to last at least
 * ~20 ms (a cache-resident grid: one probe sample, paired with every sample); medians reported
 * (result_metrics). 0, or -1 with why (a row over the limits above,
 * against the probe samples' medians, is refused as a measurement error). */
int measure(const struct backend *b, const struct run_config *c, const struct device_desc *d,
            struct run_result *r, char *why, size_t n);

/* Seconds this process's measure() calls spent verifying (and compiling the kernel, where the
 * device compiles at run time: kcache_counts says how much of it), allocating and filling the arrays,
 * and probing and timing: where a long run's time went. */
void measure_times(double *verify, double *setup, double *timing);

/* Interleaved probe samples (probe, kernel, probe, kernel, ...): gbs[i], what kernel sample i
 * moved, against probes[i], the probe sample taken just before it. Sets bw to the probes'
 * medians, pct_bw to the median of the n ratios (drift in the machine cancels) and spread to
 * their max - min, in points. */
void probe_pairs(const double *gbs, const struct bandwidth *probes, int n, struct bandwidth *bw, double *pct_bw,
                 double *spread);
/* Before a GPU row's samples: probe passes until one reads at least PROBE_SETTLED of the best
 * figure this process has measured, for at most PROBE_SETTLE_SECONDS (one pass where the GPU is
 * already there; none on the CPU). measure.c says why. */
void probe_settle(const struct backend *b);
/* How much of a row's timing (its samples and the probe passes between them, from
 * clocks_held_start to clocks_held_pct) the device ran with its clocks held down by its power or
 * thermal limit (backend clocks_held_ns), in percent, elapsed time by the counter's own clock.
 * Over the whole span, not per sample: an H200's counter moves every 3 ms or so, and read around
 * each 45 ms sample the shares summed to 104-111% where the cap held throughout. NAN where the
 * device cannot say. */
struct clocks_held { double ns, at_ns; };
void clocks_held_start(const struct backend *b, struct clocks_held *h);
double clocks_held_pct(const struct backend *b, const struct clocks_held *h);
/* "83% of bw (spread 4)" for a progress line, or "no memory figure (in cache)" where pct_bw is
 * empty, and ", clocks held 80%" where the power or thermal limit held the clocks down for at
 * least a percent of the row (clock_held_pct; NAN: nothing); into buf, which it returns. */
const char *bw_text(double pct_bw, double spread, double clock_held_pct, char *buf, size_t n);
/* The median of v[0..n-1] (sorts v). */
double median(double *v, int n);

/* Bytes of device memory a run of c needs (fields and coefficients with halos). */
size_t run_bytes(const struct run_config *c);
/* 1 if `bytes` fit in 80% of a device's memory (the rest is the runtime's and the system's). */
int memory_fits(double bytes, size_t memory_bytes);
/* 1 when `bytes` fit in the device's last-level cache (a GPU's L2): a sweep over them then
 * measures the cache, not memory. Beyond it, a sweep's lines are evicted before they come round
 * again: on the 2-core VM (260 MB L3) every scheme's 300^3 Hx row (551-770 MB) ran within 2% of
 * its 474^3 one. */
int fits_in_cache(double bytes, const struct device_desc *d);
/* fits_in_cache for a run of c's arrays. */
int cache_resident(const struct run_config *c, const struct device_desc *d);
/* When c's grid is cache-resident for some scheme (at c's precision and storage), the smallest
 * cube whose arrays exceed 4x the last-level cache (STREAM's rule) for every scheme: where the
 * tables measure memory on this machine. 0 when c's grid is beyond the cache for every scheme
 * already. */
int memory_cube(struct run_config c, const struct device_desc *d);
/* 0 if a run of c fits in 80% of the device's memory, or -1 saying how much it needs. */
int run_fits(const struct run_config *c, const struct device_desc *d, char *why, size_t n);

#endif
