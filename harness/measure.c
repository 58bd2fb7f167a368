#include "measure.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "design.h"
#include "metrics.h"
#include "reference.h"

const int verify_grid[3] = {37, 29, 23}; /* odd, and no tile or block shape divides them */

/* The extent one tile or block covers in dimension d; 0 when it is the whole grid. */
static long launch_extent(const struct run_config *c, int d)
{
    long e = c->block[d];
    if (d == 1 && c->rows > 1) e *= c->rows;
    if (d == 2 && c->nodes > 1) e *= c->nodes;
    return e;
}

int check_extent(const struct run_config *c, char *why, size_t n)
{
    const char *what = c->device == DEV_CPU ? "tile" : "block";
    if (c->nodes < 0 || c->nodes > 64 * 1024) {
        snprintf(why, n, "nodes per thread %d is outside 1..%d", c->nodes, 64 * 1024);
        return -1;
    }
    if (c->rows < 0 || c->rows > LAUNCH_MAX_ROWS) {
        snprintf(why, n, "rows per thread %d is outside 1..%d", c->rows, LAUNCH_MAX_ROWS);
        return -1;
    }
    if (c->stages < 0 || c->stages > LAUNCH_MAX_STAGES) {
        snprintf(why, n, "pipeline depth %d is outside 1..%d", c->stages, LAUNCH_MAX_STAGES);
        return -1;
    }
    for (int d = 0; d < 3; d++) {
        /* A CPU tile covers at most the grid (its loops step by it); a GPU block larger than a
         * small grid only idles threads, and the device's own limits bound it (check_block). */
        long e = launch_extent(c, d), most = c->device == DEV_CPU ? c->grid[d] : 64L * 1024;
        if (e < 0 || e > most) {
            snprintf(why, n, "%s %dx%dx%d%s: its %c extent %ld is %s %s %ld (grid %dx%dx%d)", what, c->block[0],
                     c->block[1], c->block[2],
                     d == 2 && c->nodes > 1 ? " with nodes" : d == 1 && c->rows > 1 ? " with rows" : "", "xyz"[d], e,
                     e < 0 ? "negative, not up to" : "more than", c->device == DEV_CPU ? "the grid's" : "the limit",
                     most, c->grid[0], c->grid[1], c->grid[2]);
            return -1;
        }
    }
    return 0;
}

void verify_rows(const struct variant_traits *t, const int timed[3], int grid[3])
{
    if (t && t->strides) grid[0] = timed[0], grid[1] = timed[1];
}

void verify_geometry(const struct run_config *c, int out[3])
{
    const struct kernel_entry *k =
        c->variant ? kernel_find(c->device, c->scheme->name, c->component, c->precision, c->coef, c->variant) : NULL;
    int bases[3] = {verify_grid[0], verify_grid[1], verify_grid[2]};
    if (k && k->traits.strides) bases[2] = STRIDES_PLANES; /* rows of the timed length: few planes */
    verify_rows(k ? &k->traits : NULL, c->grid, bases);    /* (x and y then verified at their own size) */
    for (int d = 0; d < 3; d++) {
        long g = c->grid[d], base = bases[d];
        long m = launch_extent(c, d);
        if (m == 0 && d == 0 && c->device == DEV_CPU) m = 64; /* whole x lines: the SIMD remainder */
        if (m == 0 || g <= base + m) { /* whole-extent tiles look alike on any grid; small grids as they are */
            out[d] = (int)(m == 0 && g > base ? base : g);
            continue;
        }
        long r = g % m, k = (base - r + m - 1) / m; /* at least one whole tile, then g's remainder */
        out[d] = (int)(r + m * (k > 1 ? k : 1));
    }
}

void launch_geometry(struct kernel_args *a, const int g[3], const int block[3], int nodes, int rows, int stages)
{
    memset(a, 0, sizeof *a);
    a->nx = g[0], a->ny = g[1], a->nz = g[2];
    grid_strides(g, &a->sy, &a->sz);
    memcpy(a->block, block, sizeof a->block);
    a->nodes = nodes, a->rows = rows, a->stages = stages;
}

int check_launch(const struct backend *b, const struct kernel_entry *k, const int grid[3], const int block[3],
                 int nodes, int rows, int stages, char *why, size_t n)
{
    struct kernel_args a;
    launch_geometry(&a, grid, block, nodes, rows, stages);
    return check_launch_args(b, k, &a, why, n);
}

int check_launch_args(const struct backend *b, const struct kernel_entry *k, const struct kernel_args *a, char *why,
                      size_t n)
{
    const struct variant_traits *t = &k->traits;
    const int *block = a->block, nodes = a->nodes, rows = a->rows, stages = a->stages;
    if (b->check_block(block, why, n)) return -1;
    if (nodes > 1 && !t->marches) {
        snprintf(why, n, "variant %s updates one node per thread: nodes must be 1 (marching variants take more)",
                 k->variant);
        return -1;
    }
    if (rows > 1 && !t->rows) {
        snprintf(why, n, "variant %s updates one row of nodes per thread: rows must be 1 (tiled variants take more)",
                 k->variant);
        return -1;
    }
    if (stages > 0 && !t->stages) {
        snprintf(why, n, "variant %s has no pipeline: stages must be 0 (tiled variants take a depth)", k->variant);
        return -1;
    }
    if (t->flat && block[2] != 1) {
        snprintf(why, n, "variant %s takes flat blocks (z extent 1), not %dx%dx%d", k->variant, block[0], block[1], block[2]);
        return -1;
    }
    return k->accepts ? k->accepts(a, why, n) : 0;
}

/* Every core, whatever thread count the CPU's next run is set to: each thread compiles one kernel
 * at a time (runs one compiler process, on the CPU). */
void prepare_launches(const struct backend *b, const struct kernel_entry *k, const int grid[3], int n,
                      const int (*block)[3], const int *nodes, const int *rows, const int *stages)
{
    if (!b->prepare) return;
#pragma omp parallel for schedule(dynamic) num_threads(omp_get_num_procs())
    for (int i = 0; i < n; i++) {
        struct kernel_args a;
        char why[256];
        launch_geometry(&a, grid, block[i], nodes[i], rows[i], stages[i]);
        b->prepare(k, &a, why, sizeof why); /* a refusal is check_launch's to report */
    }
}

void prepare_runs(const struct backend *b, const struct run_config *c, int n)
{
#pragma omp parallel for schedule(dynamic) num_threads(omp_get_num_procs())
    for (int i = 0; i < n; i++) {
        const struct kernel_entry *k =
            kernel_find(c[i].device, c[i].scheme->name, c[i].component, c[i].precision, c[i].coef, c[i].variant);
        if (k) prepare_launches(b, k, c[i].grid, 1, &c[i].block, &c[i].nodes, &c[i].rows, &c[i].stages);
    }
}

/* The level the kernel overwrites when run in place: the only one (leapfrog) or the oldest. */
static int inplace_level(const struct scheme *s) { return s->levels - 1; }

static double rng_uniform(double lo, double hi);

static int array_count(const struct scheme *s, int coef)
{
    return s->levels + 2 + (coef == COEF_ARRAY ? coef_count(s) : 0);
}

/* Materials of the indexed storage in verification and timing: several, so that a kernel that
 * reads the wrong node's index or the wrong table is caught. */
enum { INDEXED_MATERIALS = 5 };

size_t run_bytes(const struct run_config *c)
{
    return grid_values(c->grid) * ((size_t)array_count(c->scheme, c->coef) * (c->precision == F32 ? 4 : 8) +
                                  (c->coef == COEF_INDEXED)); /* one byte of index per cell */
}

/* A material index per cell (random, or with seed 0 a pattern of slabs) uploaded to the device. */
static void *upload_index(const struct backend *b, size_t cells, unsigned seed, unsigned char *host)
{
    void *dev = b->alloc(cells);
    if (!dev) return NULL;
    unsigned char *h = host ? host : malloc(cells);
    if (!h) { fprintf(stderr, "fdtdbench: out of memory\n"); exit(2); }
    for (size_t i = 0; i < cells; i++)
        h[i] = (unsigned char)(seed ? rng_uniform(0, INDEXED_MATERIALS) : i / 4096 % INDEXED_MATERIALS);
    b->upload(dev, h, cells);
    if (!host) free(h);
    return dev;
}

int memory_fits(double bytes, size_t memory_bytes) { return bytes <= (double)(memory_bytes / 10 * 8); }

int fits_in_cache(double bytes, const struct device_desc *d)
{
    return d->cache_bytes && bytes <= (double)d->cache_bytes;
}

int cache_resident(const struct run_config *c, const struct device_desc *d)
{
    return fits_in_cache((double)run_bytes(c), d);
}

int memory_cube(struct run_config c, const struct device_desc *d)
{
    int resident = 0;
    for (int i = 0; i < scheme_count(); i++) {
        c.scheme = scheme_at(i);
        resident |= cache_resident(&c, d);
    }
    for (int n = c.grid[0]; resident; n++) {
        int beyond = 1;
        c.grid[0] = c.grid[1] = c.grid[2] = n;
        for (int i = 0; i < scheme_count(); i++) {
            c.scheme = scheme_at(i);
            beyond &= run_bytes(&c) > 4 * d->cache_bytes; /* STREAM's rule */
        }
        if (beyond) return n;
    }
    return 0;
}

int run_fits(const struct run_config *c, const struct device_desc *d, char *why, size_t n)
{
    size_t need = run_bytes(c);
    if (memory_fits((double)need, d->memory_bytes)) return 0;
    snprintf(why, n, "grid %dx%dx%d needs %.1f GB, more than 80%% of the %.1f GB the %s may use%s", c->grid[0],
             c->grid[1], c->grid[2], need / 1e9, d->memory_bytes / 1e9, device_names[c->device],
             c->device == DEV_CPU ? " (the least of memory, cgroup limit and ulimit -v/-d)" : "");
    return -1;
}

/* ---- verification ---------------------------------------------------------------- */

static unsigned long long rng_state;
static double rng_uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) * 0x1.0p-53;
}

/* A value as the kernel will see it: rounded to its precision. */
static double as_precision(double v, int p) { return p == F32 ? (double)(float)v : v; }

/* Host values (already rounded) uploaded to a new device buffer of the kernel's precision. */
static void *upload_values(const struct backend *b, const double *v, size_t n, int p)
{
    size_t size = p == F32 ? 4 : 8;
    void *typed = malloc(n * size), *dev = b->alloc(n * size);
    if (!typed || !dev) {
        fprintf(stderr, "fdtdbench: out of memory for verification arrays\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        if (p == F32) ((float *)typed)[i] = (float)v[i];
        else ((double *)typed)[i] = v[i];
    b->upload(dev, typed, n * size);
    free(typed);
    return dev;
}

static double *random_values(size_t n, int p, double lo, double hi)
{
    double *v = malloc(n * sizeof *v);
    if (!v) { fprintf(stderr, "fdtdbench: out of memory for verification arrays\n"); exit(1); }
    for (size_t i = 0; i < n; i++) v[i] = as_precision(rng_uniform(lo, hi), p);
    return v;
}

/* Compares the downloaded output with the reference; 0 or -1 with the first mismatch in why. */
static int compare(const struct scheme *s, int component, int p, const struct reference_inputs *in,
                   const void *out_typed, const char *mode, double *worst, char *why, size_t n)
{
    /* Each of the update's `flops` operations rounds once, by at most u relative to the
     * magnitudes it combines, so |kernel - exact| <= flops * u * (sum of |terms|); the
     * reference in double is exact to far below that. FMA contraction only rounds less. */
    double u = p == F32 ? 0x1.0p-24 : 0x1.0p-53;
    int flops = scheme_counts(s, p, COEF_ARRAY).flops;
    struct reference_stencil st;
    reference_stencil(s, component, &st);
    for (int k = -HALO; k < in->nz + HALO; k++)
        for (int j = -HALO; j < in->ny + HALO; j++)
            for (int i = -HALO; i < in->nx + HALO; i++) {
                long idx = (long)(k + HALO) * in->sz + (long)(j + HALO) * in->sy + (i + HALO);
                double got = p == F32 ? ((const float *)out_typed)[idx] : ((const double *)out_typed)[idx];
                int interior = i >= 0 && j >= 0 && k >= 0 && i < in->nx && j < in->ny && k < in->nz;
                if (!interior) {
                    if (!isnan(got) && strcmp(mode, "out of place") == 0) {
                        snprintf(why, n, "%s: halo cell (%d,%d,%d) was written (%g)", mode, i, j, k, got);
                        return -1;
                    }
                    continue;
                }
                double mag, want = reference_update(&st, in, i, j, k, &mag);
                double tol = (flops + 2) * u * mag, err = fabs(got - want);
                if (!(err <= tol)) { /* NaN (an unwritten, poisoned cell) fails too */
                    snprintf(why, n, "%s: cell (%d,%d,%d) of %dx%dx%d: got %.9g, reference %.9g, error %.3g > tolerance %.3g",
                             mode, i, j, k, in->nx, in->ny, in->nz, got, want, err, tol);
                    return -1;
                }
                if (tol > 0 && err / tol > *worst) *worst = err / tol;
            }
    return 0;
}

int verify_kernel(const struct backend *b, const struct scheme *s, const struct kernel_entry *k, const int grid[3],
                  const int block[3], int nodes, int rows, int stages, double *worst, char *why, size_t n)
{
    static unsigned long long calls;
    rng_state = (unsigned long long)time(NULL) * 2654435761ull + ++calls * 0x9E3779B97F4A7C15ull;
    unsigned long long seed = rng_state;
    int p = k->precision, L = s->levels, G = s->ngroups;
    size_t cells = grid_values(grid), size = p == F32 ? 4 : 8;
    struct kernel_args a;
    struct reference_inputs in = {0};
    launch_geometry(&a, grid, block, nodes, rows, stages);
    in.nx = a.nx, in.ny = a.ny, in.nz = a.nz, in.sy = a.sy, in.sz = a.sz;

    if (check_launch(b, k, grid, block, nodes, rows, stages, why, n)) return -1;
    double *host[2 * MAX_LEVELS + MAX_GROUPS + 2];
    void *dev[2 * MAX_LEVELS + MAX_GROUPS + 2], *index_dev = NULL;
    unsigned char *index = NULL;
    int nh = 0;
    if (k->coef == COEF_INDEXED) {
        if (!(index = malloc(cells))) { fprintf(stderr, "fdtdbench: out of memory\n"); exit(2); }
        a.index = index_dev = upload_index(b, cells, 1, index);
    }
#define INPUT(ref_slot, arg_slot, lo, hi)                                 \
    do {                                                                  \
        host[nh] = random_values(cells, p, lo, hi);                       \
        dev[nh] = upload_values(b, host[nh], cells, p);                   \
        ref_slot = host[nh];                                              \
        arg_slot = dev[nh];                                               \
        nh++;                                                             \
    } while (0)
    for (int l = 0; l < L; l++) INPUT(in.level[l], a.level[l], -1, 1);
    INPUT(in.plus, a.plus, -1, 1);
    INPUT(in.minus, a.minus, -1, 1);
    /* Indexed: the device gets a table of one value per material, the reference its expansion. */
#define TABLE(ref_slot, arg_slot)                                                      \
    do {                                                                               \
        double *table = random_values(INDEXED_MATERIALS, p, -1, 1);                   \
        host[nh] = malloc(cells * sizeof(double));                                     \
        if (!host[nh]) { fprintf(stderr, "fdtdbench: out of memory\n"); exit(2); }     \
        for (size_t i = 0; i < cells; i++) host[nh][i] = table[index[i]];              \
        dev[nh] = upload_values(b, table, INDEXED_MATERIALS, p);                       \
        ref_slot = host[nh];                                                           \
        arg_slot = dev[nh];                                                            \
        nh++;                                                                          \
        free(table);                                                                   \
    } while (0)
    for (int l = 0; l < L; l++) {
        if (k->coef == COEF_ARRAY) INPUT(in.da[l], a.da[l], -1, 1);
        else if (k->coef == COEF_INDEXED) TABLE(in.da[l], a.da[l]);
        else in.da_u[l] = a.da_u[l] = as_precision(rng_uniform(-1, 1), p);
    }
    for (int g = 0; g < G; g++) {
        if (k->coef == COEF_ARRAY) INPUT(in.db[g], a.db[g], -1, 1);
        else if (k->coef == COEF_INDEXED) TABLE(in.db[g], a.db[g]);
        else in.db_u[g] = a.db_u[g] = as_precision(rng_uniform(-1, 1), p);
    }
#undef TABLE
#undef INPUT

    /* Out of place, into a poisoned buffer: an unwritten cell stays NaN and fails. */
    double *poison = malloc(cells * sizeof *poison);
    void *out_typed = malloc(cells * size);
    if (!poison || !out_typed) { fprintf(stderr, "fdtdbench: out of memory for verification arrays\n"); exit(1); }
    for (size_t i = 0; i < cells; i++) poison[i] = NAN;
    void *out = upload_values(b, poison, cells, p);
    a.out = out;
    *worst = 0;
    int rc = b->run_once(k->fn, &a, why, n);
    if (rc == 0) {
        b->download(out_typed, out, cells * size);
        rc = compare(s, k->component, p, &in, out_typed, "out of place", worst, why, n);
    }
    /* In place, as the timed runs go: out aliases the level it overwrites. */
    if (rc == 0) {
        int lv = inplace_level(s);
        void *alias = upload_values(b, in.level[lv], cells, p);
        a.out = alias;
        a.level[lv] = alias;
        rc = b->run_once(k->fn, &a, why, n);
        if (rc == 0) {
            b->download(out_typed, alias, cells * size);
            rc = compare(s, k->component, p, &in, out_typed, "in place", worst, why, n);
        }
        b->release(alias);
    }
    if (rc) {
        size_t len = strlen(why);
        snprintf(why + len, n - len, " [%s %s %s %s %s, seed %llu]", k->scheme, component_names[k->component],
                 precision_names[p], coef_names[k->coef], k->variant, seed);
    }
    b->release(out);
    if (index_dev) b->release(index_dev);
    free(index);
    for (int i = 0; i < nh; i++) b->release(dev[i]), free(host[i]);
    free(poison), free(out_typed);
    return rc;
}

/* ---- timing ---------------------------------------------------------------------- */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Coefficients near the scheme's real values at a stable Courant number, so that repeated
 * in-place updates stay bounded (no overflow or denormals to distort the timing). */
static void timing_coefficients(const struct scheme *s, double *da, double *db)
{
    double w[MAX_GROUPS], courant;
    char err[256];
    if (scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err))
        for (int g = 0; g < s->ngroups; g++) w[g] = s->group[g].fixed_weight;
    courant = 0.9 * stability_limit(s, w);
    struct medium vacuum = {1, 1, 0, 0};
    const double c0 = 299792458.0, delta = 1e-3;
    if (update_coefficients(s, w, 1, delta, courant * delta / c0, &vacuum, da, db, err, sizeof err)) {
        fprintf(stderr, "fdtdbench: %s\n", err);
        exit(2);
    }
}

static void *table_alloc(const struct backend *b)
{
    void *p = b->alloc(INDEXED_MATERIALS * sizeof(double));
    if (!p) { fprintf(stderr, "fdtdbench: cannot allocate a coefficient table\n"); exit(2); }
    return p;
}

int measure_check(const struct backend *b, const struct run_config *c, const struct device_desc *d, char *why,
                  size_t n)
{
    const struct scheme *s = c->scheme;
    const struct kernel_entry *k = kernel_find(c->device, s->name, c->component, c->precision, c->coef, c->variant);
    if (!k) {
        snprintf(why, n, "no %s kernel '%s' for %s %s %s %s", device_names[c->device], c->variant, s->name,
                 component_names[c->component], precision_names[c->precision], coef_names[c->coef]);
        return -1;
    }
    /* The timed launch first: verification then runs the same launch on its own grid. */
    if (check_launch(b, k, c->grid, c->block, c->nodes, c->rows, c->stages, why, n) || check_extent(c, why, n)) return -1;
    return run_fits(c, d, why, n);
}

/* Where measure()'s time goes, over the process (measure_times). */
static double spent_verify, spent_setup, spent_timing;

void measure_times(double *verify, double *setup, double *timing)
{
    *verify = spent_verify, *setup = spent_setup, *timing = spent_timing;
}

int measure(const struct backend *b, const struct run_config *c, const struct device_desc *d,
            struct run_result *r, char *why, size_t n)
{
    const struct scheme *s = c->scheme;
    memset(r, 0, sizeof *r);
    r->clock_held_pct = NAN; /* until timed */
    double t0 = omp_get_wtime();
    if (measure_check(b, c, d, why, n)) return -1;
    const struct kernel_entry *k = kernel_find(c->device, s->name, c->component, c->precision, c->coef, c->variant);
    size_t need = run_bytes(c);
    b->set_threads(c->threads);
    r->threads = c->device == DEV_CPU ? b->threads() : 0;
    double worst;
    int vgrid[3];
    verify_geometry(c, vgrid);
    const int failed =
        !c->screening && verify_kernel(b, s, k, vgrid, c->block, c->nodes, c->rows, c->stages, &worst, why, n);
    const double t1 = omp_get_wtime();
    spent_verify += t1 - t0;
    if (failed) return -1;
    r->verified = !c->screening;

    int L = s->levels, G = s->ngroups, narrays = array_count(s, c->coef);
    size_t cells = grid_values(c->grid);
    void *arrays[2 * MAX_LEVELS + MAX_GROUPS + 2] = {0};
    for (int i = 0; i < narrays; i++)
        if (!(arrays[i] = b->alloc(cells * (c->precision == F32 ? 4 : 8)))) {
            for (int j = 0; j < i; j++) b->release(arrays[j]);
            snprintf(why, n, "cannot allocate %.1f GB on the %s", need / 1e9, device_names[c->device]);
            return -1;
        }
    double da[MAX_LEVELS], db[MAX_GROUPS];
    timing_coefficients(s, da, db);
    struct kernel_args a;
    launch_geometry(&a, c->grid, c->block, c->nodes, c->rows, c->stages);
    r->kernel_ms = b->compiled_ms ? b->compiled_ms(k, &a) : NAN;
    r->occupancy_pct = b->occupancy_pct ? b->occupancy_pct(k, &a) : NAN;
    int at = 0;
    for (int l = 0; l < L; l++) {
        a.level[l] = arrays[at];
        b->fill_random(arrays[at++], cells, c->precision, 11 + l, -1, 1);
    }
    a.out = (void *)a.level[inplace_level(s)];
    a.plus = arrays[at], b->fill_random(arrays[at++], cells, c->precision, 21, -1, 1);
    a.minus = arrays[at], b->fill_random(arrays[at++], cells, c->precision, 22, -1, 1);
    /* Indexed: slabs of materials, each table entry up to 2% below the real value. */
    void *tables[MAX_COEFS] = {0}, *index_dev = NULL;
    int ntables = 0;
    if (c->coef == COEF_INDEXED && !(a.index = index_dev = upload_index(b, cells, 0, NULL))) {
        for (int i = 0; i < narrays; i++) b->release(arrays[i]);
        snprintf(why, n, "cannot allocate %.1f GB on the %s", need / 1e9, device_names[c->device]);
        return -1;
    }
    for (int l = 0; l < L; l++) {
        a.da_u[l] = da[l];
        if (c->coef == COEF_ARRAY) /* position-dependent, up to 2% below the real value: |da| <= 1 */
            a.da[l] = arrays[at], b->fill_random(arrays[at++], cells, c->precision, 31 + l, 0.98 * da[l], da[l]);
        else if (c->coef == COEF_INDEXED)
            a.da[l] = tables[ntables] = table_alloc(b),
            b->fill_random(tables[ntables++], INDEXED_MATERIALS, c->precision, 31 + l, 0.98 * da[l], da[l]);
    }
    for (int g = 0; g < G; g++) {
        a.db_u[g] = db[g];
        if (c->coef == COEF_ARRAY)
            a.db[g] = arrays[at], b->fill_random(arrays[at++], cells, c->precision, 41 + g, 0.98 * db[g], db[g]);
        else if (c->coef == COEF_INDEXED)
            a.db[g] = tables[ntables] = table_alloc(b),
            b->fill_random(tables[ntables++], INDEXED_MATERIALS, c->precision, 41 + g, 0.98 * db[g], db[g]);
    }

    /* Batches long enough (>= ~20 ms) that timer and launch overheads vanish. Each sample is
     * one probe pass then one warm-up launch and a batch of the kernel (probe, kernel, probe,
     * kernel, ...), so each kernel sample has a bandwidth figure from the same moment. */
    const double t2 = omp_get_wtime();
    spent_setup += t2 - t1;
    double once, *ms = malloc(sizeof(double) * 2 * (size_t)c->reps), *cpu_ms = ms + c->reps;
    struct bandwidth *probes = calloc((size_t)c->reps, sizeof *probes); /* zeros: what a probe does not set */
    int rc = ms && probes ? b->time_kernel(k->fn, &a, 1, 1, 1, &once, why, n) : -1;
    if (rc == 0) r->batch = once >= 20 ? 1 : (int)ceil(20 / (once > 1e-4 ? once : 1e-4));
    /* A grid in the cache is paired with the last memory figure this run measured (none: pct_bw
     * empty) and a fresh clock: a memory figure is only its reference, and a probe pass (gigabytes
     * on a CPU with a large cache) would take twenty times the row's own samples. */
    r->cache_resident = cache_resident(c, d);
    if (rc == 0 && !r->cache_resident) probe_settle(b);
    struct clocks_held held;
    clocks_held_start(b, &held);
    for (int i = 0; rc == 0 && i < c->reps; i++) {
        b->probe_bandwidth(&probes[i], r->cache_resident ? 0 : 1);
        if (!b->threads_cpu_seconds) {
            rc = b->time_kernel(k->fn, &a, 1, r->batch, 1, &ms[i], why, n);
            continue;
        }
        rc = b->run_once(k->fn, &a, why, n); /* the warm-up apart: its CPU time is not the sample's */
        const double cpu0 = b->threads_cpu_seconds();
        if (rc == 0) rc = b->time_kernel(k->fn, &a, 0, r->batch, 1, &ms[i], why, n);
        cpu_ms[i] = (b->threads_cpu_seconds() - cpu0) * 1e3 / r->batch / (r->threads > 0 ? r->threads : 1);
    }
    if (rc == 0) {
        result_metrics(c, r, ms, probes, c->reps);
        r->cpu_ms = b->threads_cpu_seconds ? median(cpu_ms, c->reps) : NAN;
        r->clock_held_pct = clocks_held_pct(b, &held);
        const struct bandwidth *bw = &r->bw; /* the probe samples' medians */
        int limit = r->cache_resident ? CACHE_LIMIT : DRAM_LIMIT;
        const struct record m = {"measure", c, r, d, NAN};
        double gbs = metric_num(METRIC_gbs_effective, &m);
        if (bw->best_gbs > 0 && !(gbs <= limit * bw->best_gbs)) {
            snprintf(why, n, "measurement error: %.4g GB/s effective is more than %d times the %.4g GB/s this "
                     "device's probe measured%s; row refused", gbs, limit, bw->best_gbs,
                     r->cache_resident ? " (cache-resident grid)" : "");
            rc = -1;
        }
    }
    free(probes);
    free(ms);
    const double t3 = omp_get_wtime();
    spent_timing += t3 - t2;
    for (int i = 0; i < narrays; i++) b->release(arrays[i]);
    for (int i = 0; i < ntables; i++) b->release(tables[i]);
    if (index_dev) b->release(index_dev);
    spent_setup += omp_get_wtime() - t3;
    return rc;
}

/* On a freshly started H100, bench's step table ran both the probe and the kernels 13-16% slower
 * for the first 1 to 4 samples (0.1-0.5 s) of every uniform row after its scheme's array row,
 * the longer the more memory the array row had held; the same bench a minute later on that
 * machine, not at all (per-sample traces, 2026-11-26). It spread those rows by 12-16 points and
 * moved a median 6-8% where three samples fell in it; the warm-up sample alone did not outlast
 * it. The CPU's probe swings with the VM's neighbours, which no wait cures: not probed again. */
enum { PROBE_SETTLE_SECONDS = 2 };
#define PROBE_SETTLED 0.95
void probe_settle(const struct backend *b)
{
    static double best; /* the best figure this process has measured */
    if (b->device != DEV_GPU) return;
    struct bandwidth bw;
    const double t0 = omp_get_wtime();
    do b->probe_bandwidth(&bw, 1);
    while (bw.best_gbs < PROBE_SETTLED * best && omp_get_wtime() - t0 < PROBE_SETTLE_SECONDS);
    if (bw.best_gbs > best) best = bw.best_gbs;
}

void clocks_held_start(const struct backend *b, struct clocks_held *h)
{
    h->at_ns = NAN;
    h->ns = b->clocks_held_ns ? b->clocks_held_ns(&h->at_ns) : NAN;
}

double clocks_held_pct(const struct backend *b, const struct clocks_held *h)
{
    struct clocks_held now;
    clocks_held_start(b, &now);
    if (!(now.at_ns > h->at_ns)) return NAN; /* no counter, or it did not move */
    const double pct = 100 * (now.ns - h->ns) / (now.at_ns - h->at_ns);
    return pct > 100 ? 100 : pct;
}

double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const char *bw_text(double pct_bw, double spread, double clock_held_pct, char *buf, size_t n)
{
    int used = isnan(pct_bw) ? snprintf(buf, n, "no memory figure (in cache)")
                             : snprintf(buf, n, "%.0f%% of bw (spread %.0f)", pct_bw, spread);
    if (clock_held_pct >= 1 && used >= 0 && (size_t)used < n)
        snprintf(buf + used, n - (size_t)used, ", clocks held %.0f%%", clock_held_pct);
    return buf;
}

void probe_pairs(const double *gbs, const struct bandwidth *probes, int n, struct bandwidth *bw, double *pct_bw,
                 double *spread)
{
    double *pct = malloc(sizeof *pct * 4 * (size_t)n), *copy = pct + n, *second = pct + 2 * n, *clock = pct + 3 * n;
    if (!pct) { fprintf(stderr, "fdtdbench: out of memory\n"); exit(2); }
    for (int i = 0; i < n; i++) {
        pct[i] = probes[i].best_gbs > 0 ? 100 * gbs[i] / probes[i].best_gbs : 0;
        copy[i] = probes[i].copy_gbs, second[i] = probes[i].second_gbs, clock[i] = probes[i].clock_ghz;
    }
    *bw = probes[0];
    bw->copy_gbs = median(copy, n), bw->second_gbs = median(second, n), bw->clock_ghz = median(clock, n);
    bw->best_gbs = bw->copy_gbs > bw->second_gbs ? bw->copy_gbs : bw->second_gbs;
    *pct_bw = *spread = NAN; /* no memory figure: cache-resident samples before any probe */
    if (bw->best_gbs > 0) *pct_bw = median(pct, n), *spread = pct[n - 1] - pct[0];
    else bw->copy_gbs = bw->second_gbs = bw->best_gbs = NAN;
    free(pct);
}

void result_metrics(const struct run_config *c, struct run_result *r, double *ms, const struct bandwidth *probes,
                    int n)
{
    r->counts = scheme_counts(c->scheme, c->precision, c->coef);
    /* The pairs first, before ms is sorted: sample i's effective GB/s, as the metric table
     * computes it, against probe sample i. */
    double *gbs = malloc(sizeof *gbs * (size_t)n);
    if (!gbs) { fprintf(stderr, "fdtdbench: out of memory\n"); exit(2); }
    for (int i = 0; i < n; i++) {
        struct run_result sample = *r;
        sample.median_ms = ms[i];
        const struct record m = {"sample", c, &sample, NULL, NAN};
        gbs[i] = metric_num(METRIC_gbs_effective, &m);
    }
    probe_pairs(gbs, probes, n, &r->bw, &r->pct_bw, &r->pct_bw_spread);
    free(gbs);
    r->median_ms = median(ms, n);
    r->min_ms = ms[0], r->max_ms = ms[n - 1];
}
