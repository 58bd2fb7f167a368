/* A grid split into slabs along z (decomp.h). */
#include "decomp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pml.h"
#include "transport.h"

/* Moves of one exchange at most: two per field and face, six fields (decomp_put after a fill). */
enum { MAX_MOVES = 2 * NCOMPONENTS * DECOMP_MAX_SLABS };

struct decomp {
    struct decomp_config d;
    const struct backend *b;
    int z0[DECOMP_MAX_SLABS], planes[DECOMP_MAX_SLABS];
    struct stepper *m[DECOMP_MAX_SLABS];
    int open[DECOMP_MAX_SLABS]; /* each slab's open faces */
    int depth[NCOMPONENTS][2];  /* decomp_depth of each field */
    long sy, sz;                /* every slab's strides: they differ only in planes */
    struct transport *t;        /* NULL with one slab */
    double *stage;              /* one slab's padded array of doubles */
    struct plane_move moves[MAX_MOVES];
};

static void widen(int depth[2], int dk)
{
    if (dk < 0 && -dk > depth[0]) depth[0] = -dk;
    if (dk > depth[1]) depth[1] = dk;
}

void decomp_depth(const struct scheme *s, int field, int depth[2])
{
    depth[0] = depth[1] = 0;
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        int plus, plus_axis, minus, minus_axis;
        component_sources(comp, &plus, &plus_axis, &minus, &minus_axis);
        for (int g = 0; g < s->ngroups; g++) {
            struct group_terms t;
            expand_group(s, g, comp, &t);
            for (int i = 0; i < t.npoints; i++) {
                if (plus == field) widen(depth, t.plus[i].d[2]);
                if (minus == field) widen(depth, t.minus[i].d[2]);
            }
        }
    }
}

void decomp_slab(int nz, int slabs, int s, int *z0, int *planes)
{
    const int base = nz / slabs, extra = nz % slabs;
    *planes = base + (s < extra);
    *z0 = s * base + (s < extra ? s : extra);
}

/* Faces between two slabs: each slab's upper face but the last's, which is the periodic wrap. */
static int faces(const struct decomp_config *d)
{
    return d->slabs < 2 ? 0 : d->c.boundary == BOUNDARY_PERIODIC ? d->slabs : d->slabs - 1;
}

static int open_faces(const struct decomp_config *d, int s)
{
    if (d->slabs < 2) return 0;
    if (d->c.boundary == BOUNDARY_PERIODIC) return OPEN_LOW | OPEN_HIGH;
    return (s > 0 ? OPEN_LOW : 0) | (s < d->slabs - 1 ? OPEN_HIGH : 0);
}

static double padded_plane(const struct step_config *c)
{
    long sy, sz;
    grid_strides(c->grid, &sy, &sz);
    return (double)sz;
}

double decomp_halo_bytes(const struct decomp_config *d)
{
    int planes = 0;
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        int depth[2];
        decomp_depth(d->c.s, comp, depth);
        planes += depth[0] + depth[1];
    }
    return (double)faces(d) * planes * padded_plane(&d->c) * real_size(d->c.precision);
}

int decomp_check(const struct decomp_config *d, size_t memory_bytes, char *why, size_t n)
{
    const struct step_config *c = &d->c;
    const char *opt = d->per_gpu ? "--gpus" : "--slabs";
    if (d->slabs < 1 || d->slabs > DECOMP_MAX_SLABS) {
        snprintf(why, n, "%s %d: from 1 to %d slabs", opt, d->slabs, DECOMP_MAX_SLABS);
        return -1;
    }
    if (d->slabs > 1 && c->variant && step_temporal(c->b->device, c->variant)) {
        snprintf(why, n, "%s %d: variant %s is not split into slabs (its time levels cross the slab faces); a step a "
                 "pass, such as fused, is", opt, d->slabs, c->variant);
        return -1;
    }
    int z0, thinnest;
    decomp_slab(c->grid[2], d->slabs, d->slabs - 1, &z0, &thinnest);
    if (thinnest < STEP_MIN_GRID) {
        snprintf(why, n, "%s %d: %d planes along z make slabs of %d, thinner than the %d each needs (its halo, %d, on "
                 "each side)", opt, d->slabs, c->grid[2], thinnest, STEP_MIN_GRID, HALO);
        return -1;
    }
    if (c->pml && d->slabs > 1 && 3 * c->pml > thinnest) {
        snprintf(why, n, "%s %d: slabs of %d planes: a %d-cell layer needs at least %d (a third of a slab at most, as "
                 "of the grid)", opt, d->slabs, thinnest, c->pml, 3 * c->pml);
        return -1;
    }
    if (d->overlap && c->pml && d->slabs > 1) {
        snprintf(why, n, "%s %d: the overlap schedule does not split the layer's passes by planes: not with --pml",
                 opt, d->slabs);
        return -1;
    }
    if (d->per_gpu) {
        if (d->slabs > 1 && !nccl_available(why, n)) return -1;
        const int count = c->b->device == DEV_GPU && c->b->devices ? c->b->devices() : 0;
        if (d->slabs > count) {
            snprintf(why, n, "--gpus %d: this machine has %d GPU%s", d->slabs, count, count == 1 ? "" : "s");
            return -1;
        }
    }
    int largest;
    decomp_slab(c->grid[2], d->slabs, 0, &z0, &largest);
    const double per_device = padded_plane(c) * (d->per_gpu ? largest + 2 * HALO : c->grid[2] + 2 * HALO * d->slabs);
    const double need = per_device * step_memory_bytes(c);
    if (memory_bytes && need > 0.8 * (double)memory_bytes) {
        snprintf(why, n, "grid %dx%dx%d in %d slab%s: %s needs %.1f GB, more than 80%% of its %.1f GB", c->grid[0],
                 c->grid[1], c->grid[2], d->slabs, d->slabs == 1 ? "" : "s", d->per_gpu ? "each GPU" : "the device",
                 need / 1e9, (double)memory_bytes / 1e9);
        return -1;
    }
    return 0;
}

/* Calls after this one go to slab s's device. Each function below leaves the first slab's
 * current, where the caller's own arrays (the bandwidth probe's) are. */
static void on(const struct decomp *d, int s)
{
    char why[256];
    if (d->d.per_gpu && d->b->use_device(s, why, sizeof why)) transport_fail("nccl", s, "cudaSetDevice", why);
}

void decomp_close(struct decomp *d)
{
    if (!d) return;
    if (d->t) d->t->close(d->t);
    for (int s = 0; s < d->d.slabs; s++)
        if (d->m[s]) on(d, s), step_close(d->m[s]);
    on(d, 0);
    free(d->stage);
    free(d);
}

struct decomp *decomp_open(const struct decomp_config *dc, char *why, size_t n)
{
    if (decomp_check(dc, 0, why, n)) return NULL;
    struct decomp *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    d->d = *dc, d->b = dc->c.b;
    for (int comp = 0; comp < NCOMPONENTS; comp++) decomp_depth(dc->c.s, comp, d->depth[comp]);
    for (int s = 0; s < dc->slabs; s++) {
        struct step_config c = dc->c;
        decomp_slab(dc->c.grid[2], dc->slabs, s, &d->z0[s], &c.grid[2]);
        d->planes[s] = c.grid[2];
        c.open_z = d->open[s] = open_faces(dc, s);
        on(d, s);
        if (!(d->m[s] = step_open(&c, why, n))) {
            size_t len = strlen(why);
            snprintf(why + len, n - len, " (slab %d of %d)", s, dc->slabs);
            goto fail;
        }
    }
    step_cells(d->m[0], &d->sy, &d->sz);
    if (!(d->stage = malloc(sizeof(double) * (size_t)d->sz * (size_t)(d->planes[0] + 2 * HALO)))) {
        snprintf(why, n, "out of host memory");
        goto fail;
    }
    if (dc->slabs > 1 && !(d->t = dc->per_gpu ? nccl_transport(dc->slabs, why, n) : copy_transport(d->b))) {
        if (!dc->per_gpu) snprintf(why, n, "out of host memory");
        goto fail;
    }
    on(d, 0);
    return d;
fail:
    decomp_close(d);
    return NULL;
}

int decomp_relaunch(struct decomp *d, const struct step_config *launch, char *why, size_t n)
{
    for (int s = 0; s < d->d.slabs; s++) {
        on(d, s);
        if (step_relaunch(d->m[s], launch, why, n)) return on(d, 0), -1;
    }
    on(d, 0);
    memcpy(d->d.c.block, launch->block, sizeof d->d.c.block);
    d->d.c.nodes = launch->nodes, d->d.c.rows = launch->rows, d->d.c.stages = launch->stages;
    d->d.c.regs = launch->regs, d->d.c.tsteps = launch->tsteps;
    return 0;
}

const char *decomp_transport(const struct decomp *d) { return d->t ? d->t->name : ""; }

/* Padded plane p (-HALO .. planes + HALO) of slab s's level of comp. */
static char *plane(const struct decomp *d, int s, int comp, int level, int p)
{
    return (char *)step_field(d->m[s], comp, level) + (size_t)(p + HALO) * (size_t)d->sz * real_size(d->d.c.precision);
}

/* The moves that fill the halo planes of fields first .. first + count - 1 (their level `level`)
 * across every face between two slabs: the upper slab's ghosts below its plane 0 from the lower
 * slab's top planes, the lower slab's ghosts above its top from the upper slab's bottom planes. */
static int halo_moves(struct decomp *d, int first, int count, int level)
{
    const size_t bytes = (size_t)d->sz * real_size(d->d.c.precision);
    int k = 0;
    for (int lo = 0; lo < d->d.slabs; lo++) {
        if (!(d->open[lo] & OPEN_HIGH)) continue;
        const int hi = (lo + 1) % d->d.slabs, top = d->planes[lo];
        for (int comp = first; comp < first + count; comp++) {
            const int below = d->depth[comp][0], above = d->depth[comp][1];
            if (below)
                d->moves[k++] = (struct plane_move){lo, hi, plane(d, lo, comp, level, top - below),
                                                    plane(d, hi, comp, level, -below), below * bytes};
            if (above)
                d->moves[k++] = (struct plane_move){hi, lo, plane(d, hi, comp, level, 0),
                                                    plane(d, lo, comp, level, top), above * bytes};
        }
    }
    return k;
}

static void exchange(struct decomp *d, int first, int count, int level)
{
    if (!d->t) return;
    for (int s = 0; s < d->d.slabs; s++) d->t->mark(d->t, s);
    d->t->start(d->t, d->moves, halo_moves(d, first, count, level));
    d->t->finish(d->t);
}

/* One half-step of every slab, its halo planes exchanged: whole, or overlapped (decomp.h). */
static int half_step(struct decomp *d, int first, char *why, size_t n)
{
    const int S = d->d.slabs;
    if (!d->d.overlap || !d->t) {
        for (int s = 0; s < S; s++) {
            on(d, s);
            if (step_half(d->m[s], first, why, n)) return -1;
        }
        exchange(d, first, 3, 0);
        return 0;
    }
    /* the planes each face sends: as many as the neighbour's readers of any of the three reach */
    int sent[2] = {0, 0}; /* from plane 0 up, from the top down */
    for (int comp = first; comp < first + 3; comp++) {
        if (d->depth[comp][1] > sent[0]) sent[0] = d->depth[comp][1];
        if (d->depth[comp][0] > sent[1]) sent[1] = d->depth[comp][0];
    }
    /* Each slab's interior is queued right behind its boundary planes, ahead of the exchange's
     * host calls; the exchange waits only for the boundary planes (the mark), and NCCL's kernels,
     * on streams of the greatest priority, take SMs as the interior's blocks retire (at default
     * priority they started only once every interior block was handed out: notes, issue 26). */
    for (int s = 0; s < S; s++) {
        const int lo = d->open[s] & OPEN_LOW ? sent[0] : 0, hi = d->planes[s] - (d->open[s] & OPEN_HIGH ? sent[1] : 0);
        on(d, s);
        if (lo > 0) step_half_planes(d->m[s], first, 0, lo);
        if (hi < d->planes[s]) step_half_planes(d->m[s], first, hi, d->planes[s]);
        d->t->mark(d->t, s);
        if (lo < hi) step_half_planes(d->m[s], first, lo, hi);
    }
    /* the levels just written are still each field's oldest */
    d->t->start(d->t, d->moves, halo_moves(d, first, 3, d->d.c.s->levels - 1));
    d->t->finish(d->t);
    for (int s = 0; s < S; s++) {
        on(d, s);
        if (step_half_end(d->m[s], first, why, n)) return -1;
    }
    return 0;
}

static int sync_all(struct decomp *d, char *why, size_t n)
{
    for (int s = 0; s < d->d.slabs; s++) {
        on(d, s);
        if (d->b->sync(why, n)) {
            size_t len = strlen(why);
            snprintf(why + len, n - len, " (slab %d)", s);
            return -1;
        }
    }
    on(d, 0);
    return 0;
}

int decomp_run(struct decomp *d, int steps, char *why, size_t n)
{
    if (d->d.slabs == 1) return step_run(d->m[0], steps, why, n); /* undivided: its own schedule (a wave's passes) */
    for (int t = 0; t < steps; t++)
        if (half_step(d, HX, why, n) || half_step(d, EX, why, n)) return -1;
    return sync_all(d, why, n);
}

int decomp_layer_run(struct decomp *d, int steps, char *why, size_t n)
{
    for (int s = 0; s < d->d.slabs; s++) {
        on(d, s);
        if (step_layer_run(d->m[s], steps, why, n)) return -1;
    }
    on(d, 0);
    return 0;
}

int decomp_layer_folded(const struct decomp *d) { return step_layer_folded(d->m[0]); }

void decomp_layer_on(struct decomp *d, int on)
{
    for (int s = 0; s < d->d.slabs; s++) step_layer_on(d->m[s], on);
}

/* Slab s's padded array is planes z0 - HALO .. z0 + planes + HALO of the whole grid's: a
 * contiguous run of it. */
static size_t slab_from(const struct decomp *d, int s) { return (size_t)d->z0[s] * (size_t)d->sz; }

void decomp_put(struct decomp *d, int comp, int level, const double *v)
{
    for (int s = 0; s < d->d.slabs; s++) {
        on(d, s);
        step_put(d->m[s], comp, level, v + slab_from(d, s));
    }
    exchange(d, comp, 1, level);
    on(d, 0);
}

void decomp_get(struct decomp *d, int comp, int level, double *v)
{
    const size_t plane = (size_t)d->sz;
    for (int s = 0; s < d->d.slabs; s++) {
        on(d, s);
        step_get(d->m[s], comp, level, d->stage);
        memcpy(v + slab_from(d, s) + HALO * plane, d->stage + HALO * plane, sizeof(double) * plane * d->planes[s]);
    }
    on(d, 0);
    struct halo_args h = {.sy = d->sy, .sz = d->sz, .precision = F64, .boundary = d->d.c.boundary, .first_axis = 2};
    char why[128];
    memcpy(h.n, d->d.c.grid, sizeof h.n);
    for (int ax = 0; ax < 3; ax++) h.half[ax] = component_half(comp, ax);
    cpu_backend()->refresh_halo(v, &h, why, sizeof why);
}

int decomp_set_materials(struct decomp *d, const struct step_materials *mat, char *why, size_t n)
{
    for (int s = 0; s < d->d.slabs; s++) {
        struct step_materials slab = *mat;
        if (mat->index) slab.index = mat->index + slab_from(d, s);
        on(d, s);
        if (step_set_materials(d->m[s], &slab, why, n)) return -1;
    }
    on(d, 0);
    return 0;
}

void decomp_fill_random(struct decomp *d, unsigned seed)
{
    for (int s = 0; s < d->d.slabs; s++) {
        on(d, s);
        step_fill_random(d->m[s], seed + 7919u * (unsigned)s);
    }
    exchange(d, 0, NCOMPONENTS, 0); /* the halo planes each slab's neighbours hold */
    on(d, 0);
}

double decomp_compiled_ms(const struct decomp *d)
{
    on(d, 0);
    return step_compiled_ms(d->m[0]);
}

double decomp_occupancy_pct(const struct decomp *d)
{
    on(d, 0);
    return step_occupancy_pct(d->m[0]);
}

/* ---- against the undivided step ------------------------------------------------------ */

static unsigned long long rng;
static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * 0x1.0p-53;
}
static double rounded(double v, int p) { return p == F32 ? (double)(float)v : v; }

int decomp_compare(const struct decomp_config *dc, int steps, double *worst, char *why, size_t n)
{
    static unsigned long long calls;
    rng = (unsigned long long)time(NULL) * 2654435761ull + ++calls * 0x9E3779B97F4A7C15ull;
    const unsigned long long seed = rng;
    const struct step_config *c = &dc->c;
    const int p = c->precision, L = c->s->levels, K = L + c->s->ngroups;
    struct decomp *d = decomp_open(dc, why, n);
    if (!d) return -1;
    on(d, 0);
    struct stepper *whole = step_open(c, why, n);
    if (!whole) {
        decomp_close(d);
        return -1;
    }
    long sy, sz;
    const size_t cells = step_cells(whole, &sy, &sz);
    double *v = calloc(cells, sizeof *v), *got = calloc(cells, sizeof *got);
    unsigned char *index = malloc(cells);
    struct step_materials *mat = calloc(1, sizeof *mat);
    int rc = v && got && index && mat ? 0 : -1;
    if (rc) snprintf(why, n, "out of host memory");
    if (!rc) { /* several materials in runs, unless the storage has one; random coefficients */
        mat->count = c->coef == COEF_UNIFORM ? 1 : 5;
        for (size_t i = 0, end = 0; i < cells && mat->count > 1; i++) {
            unsigned char x = i ? index[i - 1] : 0;
            if (i == end) x = (unsigned char)uniform(0, mat->count), end = i + 1 + (size_t)(200 * pow(uniform(0, 1), 4));
            index[i] = x;
        }
        mat->index = mat->count > 1 ? index : NULL;
        for (int comp = 0; comp < NCOMPONENTS; comp++)
            for (int x = 0; x < mat->count; x++)
                for (int i = 0; i < K; i++) mat->coef[comp][x][i] = rounded(uniform(-1, 1), p);
        on(d, 0);
        rc = step_set_materials(whole, mat, why, n);
        if (!rc) rc = decomp_set_materials(d, mat, why, n);
    }
    for (int comp = 0; comp < NCOMPONENTS && !rc; comp++)
        for (int l = 0; l < L; l++) {
            for (size_t x = 0; x < cells; x++) v[x] = rounded(uniform(-1, 1), p);
            on(d, 0);
            step_put(whole, comp, l, v); /* refreshes the halo, which decomp_put's slabs then take */
            step_get(whole, comp, l, v);
            decomp_put(d, comp, l, v);
        }
    on(d, 0);
    if (!rc) rc = step_run(whole, steps, why, n);
    if (!rc) rc = decomp_run(d, steps, why, n);
    const double bound = (scheme_counts(c->s, p, COEF_ARRAY).flops + 2) * (p == F32 ? 0x1.0p-24 : 0x1.0p-53) * steps;
    /* a row's cells and images, not its padding (kernel.h's GRID_ROW_VALUES): no step writes that,
     * and a slab's halo planes take their padding from a neighbour where the whole grid keeps its own */
    const long row = c->grid[0] + 2L * HALO;
    *worst = 0;
    for (int comp = 0; comp < NCOMPONENTS && !rc; comp++)
        for (int l = 0; l < L && !rc; l++) {
            on(d, 0);
            step_get(whole, comp, l, v);
            decomp_get(d, comp, l, got);
            double scale = 0, diff = 0;
            size_t at = 0;
            for (size_t x = 0; x < cells; x++) {
                if ((long)(x % (size_t)sy) >= row) continue;
                scale = fmax(scale, fabs(v[x]));
                if (!(fabs(got[x] - v[x]) <= diff)) diff = fabs(got[x] - v[x]), at = x; /* NaN too */
            }
            if (scale > 0 && diff / scale > *worst) *worst = diff / scale;
            if (!(diff <= bound * scale)) {
                const long k = (long)(at / (size_t)sz) - HALO, j = (long)(at % (size_t)sz / (size_t)sy) - HALO,
                           i = (long)(at % (size_t)sy) - HALO;
                snprintf(why, n, "after %d steps in %d slabs, %s level %d cell (%ld,%ld,%ld) of %dx%dx%d: %.9g, "
                         "undivided %.9g [%s %s %s %s %s, pml %d, %s, seed %llu]", steps, dc->slabs,
                         component_names[comp], l, i, j, k, c->grid[0], c->grid[1], c->grid[2], got[at], v[at],
                         c->s->name, c->variant, precision_names[p], coef_names[c->coef], boundary_names[c->boundary],
                         c->pml, dc->overlap ? "overlap" : "whole", seed);
                rc = -1;
            }
        }
    free(v), free(got), free(index), free(mat);
    on(d, 0);
    step_close(whole);
    decomp_close(d);
    return rc;
}
