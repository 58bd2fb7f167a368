#define _POSIX_C_SOURCE 200809L
#include "step_measure.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "measure.h"
#include "metrics.h"
#include "simulate.h"
#include "wave.h"

/* Small and odd, so that no tile or block divides it; a few steps carry errors through both
 * half-steps and every time level's rotation (S44's four). */
static const int step_verify_grid[3] = {17, 13, 11};
enum { VERIFY_STEPS = 5 };

void step_results_folder(const char *machine, char *out, size_t n) { snprintf(out, n, "%s/" STEP_FOLDER, machine); }

const char *step_kernel_variant(enum device d, const char *name)
{
    if (strcmp(name, STEP_COMPONENTS) == 0) return d == DEV_CPU ? "plain" : "baseline";
    return name;
}

int step_variants(enum device d, const char **out, int max)
{
    if (max < 1) return 0;
    out[0] = STEP_COMPONENTS;
    return 1 + step_fused_variants(d, out + 1, max - 1);
}

int step_slabs(const struct step_run *c) { return c->slabs > 1 ? c->slabs : 1; }

struct decomp_config step_decomp(const struct step_run *c)
{
    struct decomp_config d = {.c = c->c, .slabs = step_slabs(c), .per_gpu = c->per_gpu, .overlap = c->overlap};
    return d;
}

const char *step_transport(const struct step_run *c) { return step_slabs(c) < 2 ? "" : c->per_gpu ? "nccl" : "copy"; }

int step_vacuum(struct step_config *c, double w[MAX_GROUPS], char *why, size_t n)
{
    if (scheme_weights(c->s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, why, n)) return -1;
    c->w = w;
    c->courant = 0.9 * stability_limit(c->s, w);
    return 0;
}

int step_fits(const struct step_run *c, const struct device_desc *d, char *why, size_t n)
{
    const struct step_config *sc = &c->c;
    if (step_slabs(c) > 1) {
        const struct decomp_config dc = step_decomp(c);
        return decomp_check(&dc, d->memory_bytes, why, n);
    }
    /* the arrays, plus one host staging array on the CPU (the same memory) */
    double per_cell = step_memory_bytes(sc) +
                      (sc->b->device == DEV_CPU ? (sc->precision == F32 ? 4 : 8) : 0);
    double need = per_cell * (double)grid_values(sc->grid);
    if (need <= 0.8 * (double)d->memory_bytes) return 0;
    snprintf(why, n, "grid %dx%dx%d: a %s step needs %.1f GB (%.0f bytes per cell), more than 80%% of the %s's %.1f GB",
             sc->grid[0], sc->grid[1], sc->grid[2], sc->s->name, need / 1e9, per_cell, device_names[sc->b->device],
             d->memory_bytes / 1e9);
    return -1;
}

/* The stepper step_measure keeps open while asked (step_measure_keep), and the step it is. */
static struct {
    int on;
    struct decomp *m;
    struct decomp_config d;
} kept;

void step_measure_keep(int keep)
{
    if (!keep && kept.m) decomp_close(kept.m), kept.m = NULL;
    kept.on = keep;
}

/* 1 if x and y are the same step on the same arrays, whatever their launches. */
static int same_step(const struct decomp_config *x, const struct decomp_config *y)
{
    const struct step_config *a = &x->c, *b = &y->c;
    return a->b == b->b && a->s == b->s && a->w == b->w && a->precision == b->precision && a->coef == b->coef &&
           !strcmp(a->variant, b->variant) && !memcmp(a->grid, b->grid, sizeof a->grid) && a->courant == b->courant &&
           a->boundary == b->boundary && a->pml == b->pml && a->pml_order == b->pml_order && a->open_z == b->open_z &&
           x->slabs == y->slabs && x->per_gpu == y->per_gpu && x->overlap == y->overlap;
}

/* As many steps as last `seconds` at ms_per_step, at most max (max where the time is unknown), in
 * whole passes of tsteps. */
static int steps_lasting(double ms_per_step, int tsteps, double seconds, int max)
{
    const int t = tsteps > 1 ? tsteps : 1;
    const int steps = ms_per_step > 0 ? (int)fmin(max, ceil(1e3 * seconds / ms_per_step)) : max;
    return (steps + t - 1) / t * t;
}

int step_sample_steps(double ms_per_step, int tsteps)
{
    return steps_lasting(ms_per_step, tsteps, STEP_SAMPLE_SECONDS, STEP_SAMPLE_MAX);
}

int step_sample_floor(double ms_per_step, int tsteps, int steps, double min_sample_s)
{
    if (!(min_sample_s > 0)) return steps;
    const int k = steps_lasting(ms_per_step, tsteps, min_sample_s, STEP_SAMPLE_LONGEST);
    return k > steps ? k : steps;
}

/* The layer's time a step where the update kernels make some of its corrections (decomp_layer_folded):
 * `pairs` pairs of one pass with the layer and one of the closed box (the layer off), each timed
 * alone, the pair's first pass with and without the layer in turn (ABBA), and the median of the
 * pairs' differences. Two batches in turn let a shared machine's drift read as the layer: on a
 * 2-core VM their difference put FV24-WB's layer at -63% of its step. Within a pair, the drift
 * falls on both passes alike. 0, or -1 with the reason. */
static int folded_layer_ms(struct decomp *m, int pairs, int tsteps, double *layer_ms, char *why, size_t n)
{
    double *diff = malloc(sizeof(double) * (size_t)pairs);
    int rc = diff ? 0 : -1;
    if (!diff) snprintf(why, n, "out of memory");
    for (int i = 0; i < 2 * pairs && !rc; i++) {
        const int with = (i + i / 2) % 2 == 0; /* with, closed; closed, with; ... */
        decomp_layer_on(m, with);
        const double t0 = 1e3 * omp_get_wtime();
        rc = decomp_run(m, tsteps, why, n);
        const double ms = (1e3 * omp_get_wtime() - t0) / tsteps;
        if (i % 2 == 0) diff[i / 2] = 0;
        diff[i / 2] += with ? ms : -ms;
    }
    decomp_layer_on(m, 1);
    if (!rc) *layer_ms = median(diff, pairs);
    free(diff);
    return rc;
}

int step_measure(const struct step_run *c, const struct device_desc *d, struct step_result *r, char *why, size_t n)
{
    const struct backend *b = c->c.b;
    memset(r, 0, sizeof *r);
    r->clock_held_pct = NAN; /* until timed */
    if (b->check_block(c->c.block, why, n) || step_fits(c, d, why, n)) return -1;
    b->set_threads(c->threads);
    r->threads = b->device == DEV_CPU ? b->threads() : 0;
    struct step_config small = c->c;
    memcpy(small.grid, step_verify_grid, sizeof small.grid);
    verify_rows(step_traits(&c->c), c->c.grid, small.grid); /* kernels compiled for the grid's strides */
    if (small.pml > step_verify_grid[2] / 3) small.pml = step_verify_grid[2] / 3; /* its smallest side */
    int steps = VERIFY_STEPS;
    const int tsteps = step_tsteps(&c->c);
    if (tsteps > 1) { /* a whole pass and another, long enough along z for every level to sweep */
        steps = steps > tsteps + 1 ? steps : tsteps + 1;
        small.grid[2] += 2 * (wave_rim_planes(c->c.s, tsteps) / 2); /* still odd */
    }
    double worst;
    if (step_verify(&small, steps, &worst, why, n)) return -1;
    const struct decomp_config whole = step_decomp(c);
    if (whole.slabs > 1) { /* and split as timed, against the undivided step: slabs of 5 planes or 3 layers */
        struct decomp_config split = whole;
        split.c = small;
        split.c.grid[2] = whole.slabs * (small.pml > 1 ? 3 * small.pml : 5) + 2;
        if (decomp_compare(&split, VERIFY_STEPS, &worst, why, n)) return -1;
    }
    r->verified = 1;
    r->layer_ms = r->layer_pct_bw = r->layer_pct_bw_spread = r->reflection_db = NAN;
    int reflection_steps;
    if (c->c.pml && !c->no_reflection && sim_pml_reflection(&c->c, &r->reflection_db, &reflection_steps, why, n))
        return -1;

    struct decomp *m = NULL; /* one slab: the undivided stepper */
    if (kept.m && same_step(&kept.d, &whole)) { /* its arrays as the last measurement left them */
        if (decomp_relaunch(kept.m, &whole.c, why, n)) return -1;
        m = kept.m, kept.m = NULL;
    } else {
        if (kept.m) decomp_close(kept.m), kept.m = NULL; /* another step: the kept one closed first */
        if (!(m = decomp_open(&whole, why, n))) return -1;
        decomp_fill_random(m, 11); /* bounded: the coefficients are vacuum's at a stable Courant number */
    }
    r->kernel_ms = decomp_compiled_ms(m);
    r->occupancy_pct = decomp_occupancy_pct(m);
    /* Each sample is one probe pass then `steps` steps (probe, steps, probe, steps, ...), so each
     * has a bandwidth figure from the same moment (probe_pairs). A grid that fits in the cache is
     * paired with the last figure measured, without a pass (on a machine with a large cache the
     * probe's arrays are gigabytes, and a small step would wait on it), as measure() does. */
    const int devices = c->per_gpu ? whole.slabs : 1; /* rates per device, against one device's probe */
    r->cache_resident = fits_in_cache(step_memory_bytes(&c->c) * (double)grid_values(c->c.grid) / devices, d);
    double *ms = malloc(sizeof(double) * 4 * (size_t)c->reps), *gbs = ms + c->reps, *layer = gbs + c->reps,
           *layer_gbs = layer + c->reps;
    struct bandwidth *probes = calloc((size_t)c->reps, sizeof *probes); /* zeros: what a probe does not set */
    /* Sample -1 warms up and is not kept: right after its arrays were allocated and filled, the
     * H100 ran the probe 14% slower (the step up to 4%) for some milliseconds, one step and even
     * three probe passes long, which alone spread bench's uniform rows by 7 to 13 points. Where
     * it lasts longer, probe_settle waits it out first. */
    int rc = ms && probes ? 0 : -1;
    if (!rc && !r->cache_resident) probe_settle(b);
    r->steps = c->steps ? (c->steps + tsteps - 1) / tsteps * tsteps : tsteps; /* whole passes; the warm-up's, when it
                                                                                 * sizes the samples */
    struct clocks_held held;
    for (int s = -1; s < c->reps && !rc; s++) {
        struct bandwidth warm_up;
        if (s == 0) clocks_held_start(b, &held);
        b->probe_bandwidth(s < 0 ? &warm_up : &probes[s], r->cache_resident ? 0 : 1);
        double t0 = 1e3 * omp_get_wtime();
        rc = decomp_run(m, r->steps, why, n);
        const double per_step = (1e3 * omp_get_wtime() - t0) / r->steps;
        if (s >= 0) ms[s] = per_step;
        else r->steps = c->steps ? step_sample_floor(per_step, tsteps, r->steps, c->min_sample_s)
                                 : step_sample_steps(per_step, tsteps);
        if (rc || !c->c.pml) continue;
        double layer_ms = NAN; /* then the layer's time: its passes alone, as many steps' worth */
        if (decomp_layer_folded(m)) { /* or by pairs: three at least, as many as the sample's passes */
            rc = folded_layer_ms(m, r->steps / tsteps > 3 ? r->steps / tsteps : 3, tsteps, &layer_ms, why, n);
        } else {
            t0 = 1e3 * omp_get_wtime();
            rc = decomp_layer_run(m, r->steps, why, n);
            layer_ms = (1e3 * omp_get_wtime() - t0) / r->steps;
        }
        if (s >= 0) layer[s] = layer_ms;
    }
    if (!rc) {
        for (int s = 0; s < c->reps; s++) {
            struct step_result sample = *r;
            sample.median_ms = ms[s];
            const struct step_record rec = {"sample", c, &sample, d};
            gbs[s] = step_num(STEP_gbs_effective, &rec) / devices;
        }
        probe_pairs(gbs, probes, c->reps, &r->bw, &r->pct_bw, &r->pct_bw_spread);
        for (int s = 0; s < c->reps && c->c.pml; s++) layer_gbs[s] = step_layer_bytes(&c->c) / (layer[s] * 1e6) / devices;
        struct bandwidth same;
        if (c->c.pml) probe_pairs(layer_gbs, probes, c->reps, &same, &r->layer_pct_bw, &r->layer_pct_bw_spread);
    }
    if (!rc) {
        r->clock_held_pct = clocks_held_pct(b, &held);
        r->median_ms = median(ms, c->reps);
        r->min_ms = ms[0], r->max_ms = ms[c->reps - 1];
        if (c->c.pml) r->layer_ms = median(layer, c->reps);
    }
    free(probes);
    free(ms);
    if (kept.on && !rc) kept.m = m, kept.d = whole;
    else decomp_close(m);
    return rc;
}

void step_csv_header(FILE *f) { metrics_csv_header(f, &step_metrics); }

void step_row(FILE *f, const char *table, const struct step_run *c, const struct step_result *r,
              const struct device_desc *d)
{
    const struct step_record m = {table, c, r, d};
    metrics_csv_row(f, &step_metrics, &m);
}
