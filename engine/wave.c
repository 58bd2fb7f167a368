/* The temporally blocked step's schedule and pass (wave.h). */
#include "wave.h"

#include <limits.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int max_int(int x, int y) { return x > y ? x : y; }
static int min_int(int x, int y) { return x < y ? x : y; }

/* The planes a half-step reads of the other field, relative to the plane it updates: the spec's
 * points along z over its three components (its own levels it reads at the plane itself). */
static void z_extent(const struct scheme *s, int first, int *lo, int *hi)
{
    *lo = *hi = 0;
    for (int comp = first; comp < first + 3; comp++)
        for (int g = 0; g < s->ngroups; g++) {
            struct group_terms t;
            expand_group(s, g, comp, &t);
            for (int i = 0; i < t.npoints; i++) {
                *lo = min_int(*lo, min_int(t.plus[i].d[2], t.minus[i].d[2]));
                *hi = max_int(*hi, max_int(t.plus[i].d[2], t.minus[i].d[2]));
            }
        }
}

void wave_plan(const struct scheme *s, int n, int steps, int tile, struct wave_plan *w)
{
    int lo[2], hi[2]; /* [0] the H half-step (odd levels), [1] the E half-step (even levels) */
    z_extent(s, HX, &lo[0], &hi[0]);
    z_extent(s, EX, &lo[1], &hi[1]);
    memset(w, 0, sizeof *w);
    w->levels = 2 * steps, w->n = n, w->tile = tile;
    w->a[1] = 0, w->b[1] = n; /* level 1 reads the state before the pass, halo and all */
    for (int s_ = 2; s_ <= w->levels; s_++) {
        const int lo_s = lo[(s_ + 1) % 2], hi_s = hi[(s_ + 1) % 2], lo_p = lo[s_ % 2], hi_p = hi[s_ % 2];
        /* the sweep: level s reads planes up to hi ahead, which level s-1 wrote no later; it
         * overwrites (in place) what level s-1 read up to -lo behind, which it read no later */
        w->d[s_] = w->d[s_ - 1] + max_int(hi_s, -lo_p);
        /* the trapezoid: level s reads only planes of level s-1's (A); level s-1's rim reads
         * nothing level s overwrites in its sweep, neither the planes near its own nor (B) the
         * sources of its halo along z: up to -lo_p planes from the low wall with PEC, up to hi_p
         * from the high one, or the far end's on a periodic box, which the rims of both ends
         * leave alone (level 1 has no rim: the state before the pass is whole) */
        const int rim = s_ - 1 >= 2;
        w->a[s_] = max_int(max_int(w->a[s_ - 1] - lo_s, w->a[s_ - 1] + hi_p), rim ? 1 - lo_p : 0);
        w->b[s_] = min_int(min_int(w->b[s_ - 1] - hi_s, w->b[s_ - 1] + lo_p), rim ? n - hi_p : n);
    }
}

int wave_rim_planes(const struct scheme *s, int steps)
{
    struct wave_plan w;
    const int n = INT_MAX / 4;
    wave_plan(s, n, steps, 1, &w);
    return w.a[w.levels] + n - w.b[w.levels];
}

/* Level l's kernel on rows j0 .. j1-1 of planes k0 .. k1-1, on the calling thread. */
static void run(const struct wave_level *l, int j0, int j1, int k0, int k1)
{
    if (j0 >= j1 || k0 >= k1) return;
    struct kernel_args a[3];
    memcpy(a, l->a, sizeof a);
    a[0].box[0][0] = j0, a[0].box[0][1] = j1, a[0].box[1][0] = k0, a[0].box[1][1] = k1;
    l->fn(a);
}

/* Whether no later level than s writes buffer out: its z halo is then refreshed after the pass. */
static int last_writer(const struct wave_plan *w, const struct wave_level *lv, int s, const void *out)
{
    for (int t = s + 1; t <= w->levels; t++)
        for (int q = 0; q < 3; q++)
            if (lv[t].a[q].out == out) return 0;
    return 1;
}

/* Sweep steps a thread has finished, one cache line each (the threads poll them). */
struct progress {
    _Alignas(64) int done;
};

/* Waits until *done reaches p: it spins, then gives the core away (a busy machine may have
 * descheduled the thread it waits for). */
static void wait_for(const int *done, int p)
{
    for (int spin = 0; __atomic_load_n(done, __ATOMIC_ACQUIRE) < p; spin++)
        if (spin > 1000) sched_yield();
}

int wave_pass(const struct wave_plan *w, struct wave_level *lv, const struct backend *b, char *why, size_t n)
{
    const int P = w->tile, L = w->levels, ny = lv[1].a[0].ny;
    int sweep = 0, rc = 0;
    for (int s = 1; s <= L; s++) sweep = max_int(sweep, (w->b[s] + w->d[s] + P - 1) / P);
    const size_t bytes = (size_t)omp_get_max_threads() * sizeof(struct progress);
    struct progress *prog = aligned_alloc(_Alignof(struct progress), bytes);
    if (prog) memset(prog, 0, bytes);
    if (!prog) {
        snprintf(why, n, "out of host memory");
        return -1;
    }
    /* a GPU's kernels are launches into one stream, in order: one thread issues them all */
#pragma omp parallel num_threads(b->device == DEV_CPU ? omp_get_max_threads() : 1)
    {
        /* the sweep: each thread a run of levels, all of a plane's rows, behind the thread of
         * the levels before (which it waits for, step by step) and at most WAVE_SLACK steps
         * ahead of the one after */
        const int nt = omp_get_num_threads(), t = omp_get_thread_num(), groups = min_int(nt, L);
        const int s0 = 1 + t * L / groups, s1 = 1 + (t + 1) * L / groups;
        for (int p = 0; p < sweep && t < groups; p++) {
            if (t > 0) wait_for(&prog[t - 1].done, p + 1);
            if (t + 1 < groups) wait_for(&prog[t + 1].done, p - WAVE_SLACK); /* what it writes still in cache */
            for (int s = s0; s < s1; s++)
                run(&lv[s], 0, ny, max_int(p * P - w->d[s], w->a[s]), min_int((p + 1) * P - w->d[s], w->b[s]));
            __atomic_store_n(&prog[t].done, p + 1, __ATOMIC_RELEASE);
        }
        /* the rims, level by level, each thread a share of the rows */
        const int j0 = t * ny / nt, j1 = (t + 1) * ny / nt;
        for (int s = 2; s <= L; s++) {
#pragma omp barrier
#pragma omp single
            for (int q = 0; q < 3 && !rc; q++) rc = b->refresh_halo(lv[s - 1].a[q].out, &lv[s - 1].h[q], why, n);
            const int low = min_int(w->a[s], w->n); /* [0, low) and [high, n) */
            run(&lv[s], j0, j1, 0, low);
            run(&lv[s], j0, j1, max_int(w->b[s], low), w->n);
        }
#pragma omp barrier
        /* every buffer the pass wrote, its z halo from its last level (the refresh's own region
         * runs on the calling thread: nested regions are inactive) */
#pragma omp for collapse(2) schedule(dynamic)
        for (int s = 1; s <= L; s++)
            for (int q = 0; q < 3; q++)
                if (last_writer(w, lv, s, lv[s].a[q].out)) {
                    char own[128];
                    if (b->refresh_halo(lv[s].a[q].out, &lv[s].h[q], own, sizeof own)) {
#pragma omp critical(wave_why)
                        if (!rc) rc = -1, snprintf(why, n, "%s", own);
                    }
                }
    }
    free(prog);
    return rc;
}
