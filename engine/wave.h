/* The temporally blocked step (variant wave): T whole steps per pass over memory. Its 2T
 * half-steps ("levels" 1 .. 2T) advance together along z, plane by plane, so that the planes a
 * level writes are read by the next level while they are still in the last-level cache: one pass
 * reads and writes each array about once, where T plain steps do so T times.
 *
 * The arrays are updated in place, as the plain step does (a level overwrites its field's oldest
 * time level), so the order must respect both what a level reads (the previous level's planes
 * k + lo .. k + hi, the spec's extent along z, and its own field's older levels at plane k) and
 * what it overwrites (planes the previous level still has to read). A pass has two phases:
 *
 *   sweep: at sweep step p, each level s updates the planes from (p - D_s) x tile: D_s grows
 *       with s by what level s reads ahead (hi) and what level s - 1 reads behind (-lo); within
 *       each level only its trapezoid [a_s, b_s), the planes computable from the level before
 *       without any halo of an intermediate level (which is not written yet, and on a periodic
 *       box comes from the far end);
 *   rims: then level by level, the planes outside the trapezoid near each wall ([0, a_s) and
 *       [b_s, n)), after refreshing the halo along z of the previous level. a_s and b_s are
 *       spaced so that nothing a rim reads was overwritten by a later level's sweep.
 *
 * Each level's kernel writes its rows' halo along x and y (trait planes); the engine refreshes z
 * for the rims, and every field's z halo at the end of the pass. On the CPU the threads share the
 * levels (each waits for the one before, step by step); a GPU's kernels are issued in this order
 * into its stream by one thread. */
#ifndef ENGINE_WAVE_H
#define ENGINE_WAVE_H

#include "backend.h"

/* WAVE_SLACK: sweep steps a thread may run ahead of the thread of the levels after its own, which
 * reads what it wrote: a few, so that a thread the machine descheduled briefly does not stall the
 * other, not many, so that what the first wrote is still in cache when the second reads it. */
enum { WAVE_MAX_STEPS = 16, WAVE_DEFAULT_STEPS = 4, WAVE_SLACK = 8 };

/* One pass's schedule along z, levels 1 .. levels (index 0: the state before the pass). */
struct wave_plan {
    int levels, n, tile;
    int a[2 * WAVE_MAX_STEPS + 1], b[2 * WAVE_MAX_STEPS + 1]; /* each level's trapezoid [a, b) */
    int d[2 * WAVE_MAX_STEPS + 1];                             /* its skew, in planes */
};

/* The plan of `steps` steps (1 .. WAVE_MAX_STEPS) of scheme s on n planes, `tile` planes per
 * sweep step (at least 1). */
void wave_plan(const struct scheme *s, int n, int steps, int tile, struct wave_plan *w);
/* The planes the rims of the last level take (a + n - b): how long along z a grid must be for
 * every level of a pass of `steps` steps to have planes in its sweep. */
int wave_rim_planes(const struct scheme *s, int steps);

/* One level: its kernel (trait planes) and the kernel_args of its three components; the halo of
 * its outputs (first_axis 2: the z refresh). */
struct wave_level {
    kernel_fn fn;
    struct kernel_args a[3];
    struct halo_args h[3];
};

/* Runs one pass of plan w on backend b (the CPU): lv[1 .. w->levels]; the caller then refreshes
 * every field's halo along z. 0, or -1 with why. */
int wave_pass(const struct wave_plan *w, struct wave_level *lv, const struct backend *b, char *why, size_t n);

#endif
