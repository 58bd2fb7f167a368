/* Verification against the reference, and timing: the two steps behind every figure. */
#ifndef HARNESS_MEASURE_H
#define HARNESS_MEASURE_H

#include <stddef.h>

#include "results.h"

/* Runs kernel k on the device on random data over `grid` (odd sizes welcome) with the given
 * block/tile (and nodes per thread, for variants that march along z), its output poisoned first, and compares every interior cell with
 * the double-precision reference (reference.h); also checks that no halo cell was written.
 * Returns 0 if it matches, or -1 with the first mismatch described in why.
 * *worst gets the largest error as a fraction of its tolerance (<= 1 passes). */
int verify_kernel(const struct backend *b, const struct scheme *s, const struct kernel_entry *k,
                  const int grid[3], const int block[3], int nodes, double *worst, char *why, size_t n);

/* 0 if kernel k can run on grid with this block and nodes per thread: the device's limits, the
 * variant's traits and its own accepts(); else -1 with the reason in why. */
int check_launch(const struct backend *b, const struct kernel_entry *k, const int grid[3], const int block[3],
                 int nodes, char *why, size_t n);

/* The grid on which run and sweep verify a kernel before timing it: small, odd-sized, so that
 * no tile or block shape divides it. */
extern const int verify_grid[3];

/* Verifies on verify_grid, then times c on the full grid: warm-up, batches of launches sized
 * to last at least ~20 ms each, c->reps samples, median reported. 0, or -1 with why. */
int measure(const struct backend *b, const struct run_config *c, const struct device_desc *d,
            struct run_result *r, char *why, size_t n);

/* Bytes of device memory a run of c needs (fields and coefficients with halos). */
size_t run_bytes(const struct run_config *c);
/* 1 if `bytes` fit in 80% of a device's memory (the rest is the runtime's and the system's). */
int memory_fits(double bytes, size_t memory_bytes);
/* 0 if a run of c fits in 80% of the device's memory, or -1 saying how much it needs. */
int run_fits(const struct run_config *c, const struct device_desc *d, char *why, size_t n);

#endif
