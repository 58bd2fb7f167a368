/* The step engine (step.h) and its double-precision reference. */
#include "step.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "layer.h"
#include "measure.h"
#include "pml.h"
#include "reference.h"
#include "wave.h"

/* The fused half-step variants' kernels (the step templates, kernels_{cpu,gpu}/NAME.*.step, tabled in
 * build/gen/{cpu,gpu}_table.c): entries at HX and EX, each given kernel_args[3]. The GPU table is
 * empty without CUDA. */
extern const struct kernel_entry cpu_fused_table[], gpu_fused_table[];
extern const int cpu_fused_table_len, gpu_fused_table_len;

static const struct kernel_entry *fused_table(enum device d, int *len)
{
    *len = d == DEV_CPU ? cpu_fused_table_len : gpu_fused_table_len;
    return d == DEV_CPU ? cpu_fused_table : gpu_fused_table;
}

static const struct kernel_entry *fused_find(enum device d, const char *variant, const char *scheme, int first,
                                             int precision, int coef)
{
    int len;
    const struct kernel_entry *t = fused_table(d, &len);
    for (int i = 0; i < len; i++) {
        const struct kernel_entry *e = &t[i];
        if (e->component == first && e->precision == precision && e->coef == coef && !strcmp(e->scheme, scheme) &&
            !strcmp(e->variant, variant))
            return e;
    }
    return NULL;
}

int step_fused_variants(enum device d, const char **out, int max)
{
    int len, n = 0;
    const struct kernel_entry *t = fused_table(d, &len);
    for (int i = 0; i < len; i++) {
        int seen = 0;
        for (int j = 0; j < n && !seen; j++) seen = !strcmp(out[j], t[i].variant);
        if (!seen && n < max) out[n++] = t[i].variant;
    }
    return n;
}

const struct variant_traits *step_fused_traits(enum device d, const char *variant)
{
    int len;
    const struct kernel_entry *t = fused_table(d, &len);
    for (int i = 0; i < len; i++)
        if (!strcmp(t[i].variant, variant)) return &t[i].traits;
    return NULL;
}

int step_temporal(enum device d, const char *variant)
{
    const struct variant_traits *t = step_fused_traits(d, variant);
    return t && (t->planes || t->passes);
}

/* The kernel that updates component comp (a fused variant's: the one of its half-step). */
static const struct kernel_entry *step_kernel(const struct step_config *c, int comp)
{
    if (step_fused_traits(c->b->device, c->variant))
        return fused_find(c->b->device, c->variant, c->s->name, comp < 3 ? HX : EX, c->precision, c->coef);
    return kernel_find(c->b->device, c->s->name, comp, c->precision, c->coef, c->variant);
}

const struct variant_traits *step_traits(const struct step_config *c)
{
    const struct kernel_entry *k = step_kernel(c, HX);
    return k ? &k->traits : NULL;
}

int step_default_tsteps(enum device d, const char *variant)
{
    const struct variant_traits *t = step_fused_traits(d, variant);
    return t && t->passes ? 2 : WAVE_DEFAULT_STEPS;
}

int step_tsteps(const struct step_config *c)
{
    return !step_temporal(c->b->device, c->variant) ? 1 : c->tsteps > 0 ? c->tsteps : step_default_tsteps(c->b->device, c->variant);
}

int step_takes(const struct step_config *c, char *why, size_t n)
{
    const struct variant_traits *t = step_fused_traits(c->b->device, c->variant);
    if (!t || !t->passes || c->s->levels == 1) return 0;
    if (why) snprintf(why, n, "variant %s keeps one time level a field on chip: not %s's %d", c->variant, c->s->name,
                      c->s->levels);
    return -1;
}

/* The layer kernel of c's half-step from first along axis (codegen/layer.h): the launcher of a
 * kernel compiled at run time, the CPU's or the GPU's (none without CUDA). */
static const struct layer_entry *layer_kernel(const struct step_config *c, int first, int axis)
{
    const int cpu = c->b->device == DEV_CPU, len = cpu ? cpu_layer_table_len : gpu_layer_table_len;
    for (int i = 0; i < len; i++) {
        const struct layer_entry *e = cpu ? &cpu_layer_table[i] : &gpu_layer_table[i];
        if (e->first == first && e->axis == axis && e->precision == c->precision && e->coef == c->coef &&
            !strcmp(e->scheme, c->s->name))
            return e;
    }
    return NULL;
}

static int layer_supported(const struct step_config *c)
{
    for (int axis = 0; axis < 3; axis++)
        if (!layer_kernel(c, HX, axis) || !layer_kernel(c, EX, axis)) return 0;
    return 1;
}

int step_supported(const struct step_config *c)
{
    return step_kernel(c, HX) && step_kernel(c, EX) && !step_takes(c, NULL, 0) && (!c->pml || layer_supported(c));
}

struct stepper {
    struct step_config c;
    int fused;                            /* k[] from a fused variant: one kernel per half-step */
    int wave;                             /* ... and temporally blocked (wave.h): c.tsteps steps a pass */
    int passes;                           /* ... in one launch a pass (trait passes): into f[comp][levels], swapped */
    int fold;                             /* the update kernels make the layer's corrections (trait layer_fold) */
    int layer_off;                        /* step_layer_run's closed-box steps: the layer skipped */
    struct layer_args largs[2][3];        /* fold: the passes' arguments of the H and E half-steps, by axis */
    const struct kernel_entry *k[NCOMPONENTS];
    void *f[NCOMPONENTS][MAX_LEVELS];     /* f[comp][0] the newest level */
    void *coef[NCOMPONENTS][MAX_COEFS];   /* COEF_ARRAY: da[0..L), db[0..G) of each component;
                                           * COEF_INDEXED: the same as tables, one value per material */
    void *index;                          /* COEF_INDEXED: material of each cell, one byte */
    void *coefs[2];                       /* COEF_INDEXED: the tables by material (kernel.h, COEF_RECORD),
                                           * of the H and of the E half-step */
    double uni[NCOMPONENTS][MAX_COEFS];   /* COEF_UNIFORM */
    long sy, sz;
    size_t cells, bytes;                  /* per array, halos included */
    void *stage;                          /* one array in the working precision, on the host */
    /* with a layer (c.pml > 0) */
    const struct layer_entry *layer[2][3];    /* [H or E half-step][axis] */
    void *psi[2][3][LAYER_TERMS];             /* each term's auxiliary field over its axis' slab */
    void *profile[3][2][3];                   /* [axis][component half off the nodes][kinv1, b, c] */
};

const char *const boundary_names[NBOUNDARIES] = {"periodic", "pec"};

double step_bytes_per_cell(const struct scheme *s, int precision, int coef)
{
    int arrays = NCOMPONENTS * s->levels + (coef == COEF_ARRAY ? NCOMPONENTS * coef_count(s) : 0);
    return (double)arrays * real_size(precision) + (coef == COEF_INDEXED);
}

double step_compulsory_bytes(const struct scheme *s, int precision, int coef)
{
    /* per half-step: 3 updated fields (L levels read, one written), 3 sources read */
    int per_half = 3 * s->levels + 3 + 3 + (coef == COEF_ARRAY ? 3 * coef_count(s) : 0);
    return 2.0 * per_half * real_size(precision) + 2.0 * (coef == COEF_INDEXED); /* the index, once a half-step */
}

/* The layer's auxiliary fields per cell of c's grid, in values. */
static double psi_per_cell(const struct step_config *c)
{
    return c->pml ? pml_psi_cells(c->grid, c->pml) / ((double)c->grid[0] * c->grid[1] * c->grid[2]) : 0;
}

double step_memory_bytes(const struct step_config *c)
{
    return step_bytes_per_cell(c->s, c->precision, c->coef) + psi_per_cell(c) * real_size(c->precision);
}

double step_moved_bytes(const struct step_config *c)
{
    return step_compulsory_bytes(c->s, c->precision, c->coef) + 2 * psi_per_cell(c) * real_size(c->precision);
}

/* What a kernel_args' layer points to where only its presence matters: a CPU kernel with trait
 * layer_fold is compiled with the CPML's corrections for launches that have a layer. */
static const char any_layer;

/* 1 if c's update kernels make the layer's corrections themselves (trait layer_fold). */
static int folds(const struct step_config *c)
{
    const struct kernel_entry *k = step_kernel(c, HX);
    return c->pml && k && k->traits.layer_fold;
}

double step_layer_bytes(const struct step_config *c)
{
    return c->pml ? pml_layer_bytes(c->s, c->precision, c->coef, c->grid, c->pml, folds(c) ? 3 : 0) : 0;
}

size_t step_cells(const struct stepper *m, long *sy, long *sz)
{
    if (sy) *sy = m->sy;
    if (sz) *sz = m->sz;
    return m->cells;
}

static void halo_args_of(const struct stepper *m, int comp, struct halo_args *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->n, m->c.grid, sizeof h->n);
    h->sy = m->sy, h->sz = m->sz;
    h->precision = m->c.precision, h->boundary = m->c.boundary;
    for (int ax = 0; ax < 3; ax++) h->half[ax] = component_half(comp, ax);
    h->open[2] = m->c.open_z;
}

/* ---- host <-> device --------------------------------------------------------------- */

static void upload_doubles(struct stepper *m, void *dev, const double *v)
{
    if (m->c.precision == F32)
        for (size_t i = 0; i < m->cells; i++) ((float *)m->stage)[i] = (float)v[i];
    else memcpy(m->stage, v, m->bytes);
    m->c.b->upload(dev, m->stage, m->bytes);
}

void step_put(struct stepper *m, int comp, int level, const double *v)
{
    char why[256];
    struct halo_args h;
    upload_doubles(m, m->f[comp][level], v);
    halo_args_of(m, comp, &h);
    if (m->c.b->refresh_halo(m->f[comp][level], &h, why, sizeof why) || m->c.b->sync(why, sizeof why)) {
        fprintf(stderr, "fdtdbench: %s\n", why);
        exit(2);
    }
}

void step_get(struct stepper *m, int comp, int level, double *v)
{
    m->c.b->download(m->stage, m->f[comp][level], m->bytes);
    if (m->c.precision == F32)
        for (size_t i = 0; i < m->cells; i++) v[i] = ((const float *)m->stage)[i];
    else memcpy(v, m->stage, m->bytes);
}

void step_fill_random(struct stepper *m, unsigned seed)
{
    const double eta0 = VACUUM_MU * VACUUM_C;
    char why[256];
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        for (int l = 0; l < m->c.s->levels; l++) {
            double span = component_is_h(comp) ? 1 / eta0 : 1; /* equal energy in E and H */
            struct halo_args h;
            m->c.b->fill_random(m->f[comp][l], m->cells, m->c.precision, seed + (unsigned)(comp * MAX_LEVELS + l),
                                -span, span);
            halo_args_of(m, comp, &h);
            if (m->c.b->refresh_halo(m->f[comp][l], &h, why, sizeof why)) {
                fprintf(stderr, "fdtdbench: %s\n", why);
                exit(2);
            }
        }
    if (m->c.b->sync(why, sizeof why)) {
        fprintf(stderr, "fdtdbench: %s\n", why);
        exit(2);
    }
}

int step_set_materials(struct stepper *m, const struct step_materials *mat, char *why, size_t n)
{
    const int K = coef_count(m->c.s);
    if (mat->count < 1 || mat->count > MAX_MATERIALS || (m->c.coef == COEF_UNIFORM && (mat->count != 1 || mat->index))) {
        snprintf(why, n, "%d materials: %s storage takes 1 to %d%s", mat->count, coef_names[m->c.coef],
                 m->c.coef == COEF_UNIFORM ? 1 : MAX_MATERIALS, m->c.coef == COEF_UNIFORM ? ", everywhere" : "");
        return -1;
    }
    if (m->c.coef == COEF_INDEXED) {
        unsigned char *h = m->stage; /* at least one byte per cell */
        for (size_t c = 0; c < m->cells; c++) h[c] = mat->index ? mat->index[c] : 0;
        m->c.b->upload(m->index, h, m->cells);
        const int record = COEF_RECORD(K, real_size(m->c.precision));
        for (int half = 0; half < 2; half++) {
            enum { MOST = MAX_MATERIALS * COEF_RECORD(MAX_COEFS, sizeof(float)) };
            float rf[MOST] = {0};
            double rd[MOST] = {0};
            for (int x = 0; x < mat->count; x++)
                for (int q = 0; q < 3; q++)
                    for (int i = 0; i < K; i++) {
                        const int at = x * record + q * K + i;
                        rd[at] = mat->coef[3 * half + q][x][i], rf[at] = (float)rd[at];
                    }
            m->c.b->upload(m->coefs[half], m->c.precision == F32 ? (void *)rf : (void *)rd,
                           (size_t)mat->count * record * real_size(m->c.precision));
        }
    }
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        for (int i = 0; i < K; i++) {
            m->uni[comp][i] = mat->coef[comp][0][i];
            if (m->c.coef == COEF_INDEXED) {
                for (int x = 0; x < mat->count; x++)
                    if (m->c.precision == F32) ((float *)m->stage)[x] = (float)mat->coef[comp][x][i];
                    else ((double *)m->stage)[x] = mat->coef[comp][x][i];
                m->c.b->upload(m->coef[comp][i], m->stage, (size_t)mat->count * real_size(m->c.precision));
            }
            if (m->c.coef != COEF_ARRAY) continue;
            if (!mat->index) { /* one value everywhere: filled on the device (lo = hi) */
                m->c.b->fill_random(m->coef[comp][i], m->cells, m->c.precision, 1, mat->coef[comp][0][i],
                                    mat->coef[comp][0][i]);
                continue;
            }
            for (size_t c = 0; c < m->cells; c++) {
                double v = mat->coef[comp][mat->index ? mat->index[c] : 0][i];
                if (m->c.precision == F32) ((float *)m->stage)[c] = (float)v;
                else ((double *)m->stage)[c] = v;
            }
            m->c.b->upload(m->coef[comp][i], m->stage, m->bytes);
        }
    return 0;
}

/* ---- setup ------------------------------------------------------------------------- */

void step_close(struct stepper *m)
{
    if (!m) return;
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        for (int l = 0; l < MAX_LEVELS; l++)
            if (m->f[comp][l]) m->c.b->release(m->f[comp][l]);
        for (int i = 0; i < MAX_COEFS; i++)
            if (m->coef[comp][i]) m->c.b->release(m->coef[comp][i]);
    }
    if (m->index) m->c.b->release(m->index);
    for (int half = 0; half < 2; half++)
        if (m->coefs[half]) m->c.b->release(m->coefs[half]);
    for (int h = 0; h < 2; h++)
        for (int axis = 0; axis < 3; axis++)
            for (int q = 0; q < LAYER_TERMS; q++)
                if (m->psi[h][axis][q]) m->c.b->release(m->psi[h][axis][q]);
    for (int axis = 0; axis < 3; axis++)
        for (int half = 0; half < 2; half++)
            for (int i = 0; i < 3; i++)
                if (m->profile[axis][half][i]) m->c.b->release(m->profile[axis][half][i]);
    free(m->stage);
    free(m);
}

/* Vacuum everywhere: the coefficients of c's weights and Courant number, cell size 1 m. */
static int vacuum(const struct step_config *c, struct step_materials *mat, char *why, size_t n)
{
    memset(mat, 0, sizeof *mat);
    mat->count = 1;
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        double da[MAX_LEVELS], db[MAX_GROUPS];
        if (update_coefficients(c->s, c->w, component_is_h(comp), 1.0, c->courant / VACUUM_C, NULL, da, db, why, n))
            return -1;
        for (int l = 0; l < c->s->levels; l++) mat->coef[comp][0][l] = da[l];
        for (int g = 0; g < c->s->ngroups; g++) mat->coef[comp][0][c->s->levels + g] = db[g];
    }
    return 0;
}

/* The layer's kernels, its auxiliary fields (zero) and profiles, on the device. -1 if it is full. */
static int open_layer(struct stepper *m)
{
    const struct step_config *c = &m->c;
    const size_t size = real_size(c->precision);
    for (int h = 0; h < 2; h++)
        for (int axis = 0; axis < 3; axis++) {
            int dims[3];
            size_t cells = pml_slab(c->grid, c->pml, axis, dims);
            m->layer[h][axis] = layer_kernel(c, h ? EX : HX, axis);
            for (int q = 0; q < LAYER_TERMS; q++) {
                if (!(m->psi[h][axis][q] = c->b->alloc(cells * size))) return -1;
                c->b->fill_random(m->psi[h][axis][q], cells, c->precision, 1, 0, 0);
            }
        }
    const int N2 = 2 * c->pml;
    double *v = malloc(3 * (size_t)N2 * sizeof *v); /* kinv1, b, c */
    if (!v) return -1;
    for (int axis = 0; axis < 3; axis++)
        for (int half = 0; half < 2; half++) {
            pml_profile(c->pml, c->pml_order, c->courant, c->grid[axis], half, v, v + N2, v + 2 * N2);
            for (int x = 0; axis == 2 && x < N2; x++) /* an open face is no wall: 0s make its passes no-ops */
                if (c->open_z & (x < c->pml ? OPEN_LOW : OPEN_HIGH)) v[x] = v[N2 + x] = v[2 * N2 + x] = 0;
            for (int i = 0; i < 3; i++) {
                if (!(m->profile[axis][half][i] = c->b->alloc((size_t)N2 * size))) {
                    free(v);
                    return -1;
                }
                for (int x = 0; x < N2; x++)
                    if (c->precision == F32) ((float *)m->stage)[x] = (float)v[i * N2 + x];
                    else ((double *)m->stage)[x] = v[i * N2 + x];
                c->b->upload(m->profile[axis][half][i], m->stage, (size_t)N2 * size);
            }
        }
    free(v);
    return 0;
}

/* The checks of a launch (c's block, nodes, rows, stages, steps per pass) against m's kernels:
 * step_open's and step_relaunch's. 0, or -1 with why. */
static int check_step_launch(const struct stepper *m, const struct step_config *c, char *why, size_t n)
{
    if (m->wave && c->b->device == DEV_CPU && c->block[1]) { /* a GPU's block is its threads' (block[2]: planes) */
        snprintf(why, n, "variant %s updates whole planes: a tile of 0xK (K planes per sweep step), not %dx%d",
                 c->variant, c->block[1], c->block[2]);
        return -1;
    }
    if (m->wave ? c->tsteps < 0 || c->tsteps > WAVE_MAX_STEPS : c->tsteps > 1) {
        if (m->wave) snprintf(why, n, "variant %s: 1 to %d steps per pass, not %d", c->variant, WAVE_MAX_STEPS, c->tsteps);
        else snprintf(why, n, "variant %s advances one step per pass, not %d", c->variant, c->tsteps);
        return -1;
    }
    if (m->passes) { /* one kernel, whose launch depends on the steps a pass too: its own checks */
        struct kernel_args a;
        launch_geometry(&a, c->grid, c->block, c->nodes > 0 ? c->nodes : 1, c->rows, c->stages);
        a.tsteps = step_tsteps(c);
        return m->k[HX]->accepts(&a, why, n);
    }
    /* the device's and the variant's checks of this launch, as every measurement makes them; with
     * a layer the updates' own compilation answers (folds: a CPU kernel compiled with its
     * corrections), not a closed box's compiled only for the check (test_pml compiled 80 of them) */
    struct kernel_args a;
    launch_geometry(&a, c->grid, c->block, c->nodes > 0 ? c->nodes : 1, c->rows, c->stages);
    a.layer = folds(c) ? &any_layer : NULL;
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        if (check_launch_args(c->b, m->k[comp], &a, why, n)) return -1;
    return 0;
}

int step_relaunch(struct stepper *m, const struct step_config *launch, char *why, size_t n)
{
    struct step_config c = m->c;
    memcpy(c.block, launch->block, sizeof c.block);
    c.nodes = launch->nodes, c.rows = launch->rows, c.stages = launch->stages, c.regs = launch->regs;
    c.tsteps = launch->tsteps;
    if (check_step_launch(m, &c, why, n)) return -1;
    c.tsteps = step_tsteps(&c);
    m->c = c;
    return 0;
}

const struct step_config *step_launch(const struct stepper *m) { return &m->c; }

struct stepper *step_open(const struct step_config *c, char *why, size_t n)
{
    const struct scheme *s = c->s;
    for (int d = 0; d < 3; d++)
        if (c->grid[d] < STEP_MIN_GRID) {
            snprintf(why, n, "grid %dx%dx%d: each size must be at least %d for the %s halo", c->grid[0], c->grid[1],
                     c->grid[2], STEP_MIN_GRID, s->name);
            return NULL;
        }
    if (c->boundary < 0 || c->boundary >= NBOUNDARIES) {
        snprintf(why, n, "unknown boundary %d", c->boundary);
        return NULL;
    }
    if (c->pml && pml_check(c->pml, c->grid, why, n)) return NULL;
    if (c->pml && c->boundary != BOUNDARY_PEC) {
        snprintf(why, n, "a CPML layer ends on PEC walls: boundary pec, not %s", boundary_names[c->boundary]);
        return NULL;
    }
    if (c->pml && (c->pml_order < PML_ORDER_MIN || c->pml_order > PML_ORDER_MAX)) {
        snprintf(why, n, "CPML grading order %d: from %d to %d", c->pml_order, PML_ORDER_MIN, PML_ORDER_MAX);
        return NULL;
    }
    if (c->pml && !layer_supported(c)) {
        snprintf(why, n, "no %s layer kernels for %s %s %s", device_names[c->b->device], s->name,
                 precision_names[c->precision], coef_names[c->coef]);
        return NULL;
    }
    struct stepper *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    m->c = *c;
    const struct variant_traits *ft = step_fused_traits(c->b->device, c->variant);
    m->fused = ft != NULL;
    m->wave = step_temporal(c->b->device, c->variant);
    m->passes = ft && ft->passes;
    if (step_takes(c, why, n)) goto fail;
    if (m->wave && c->pml) {
        snprintf(why, n, "variant %s has no layer passes: not with a CPML", c->variant);
        goto fail;
    }
    grid_strides(c->grid, &m->sy, &m->sz);
    m->cells = grid_values(c->grid);
    m->bytes = m->cells * real_size(c->precision);
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        if (!(m->k[comp] = step_kernel(c, comp))) {
            snprintf(why, n, "no %s kernel '%s' for %s %s %s %s", device_names[c->b->device], c->variant, s->name,
                     component_names[comp], precision_names[c->precision], coef_names[c->coef]);
            goto fail;
        }
    if (check_step_launch(m, c, why, n)) goto fail;
    m->c.tsteps = step_tsteps(c);
    m->fold = folds(c);
    struct step_materials mat;
    if (vacuum(c, &mat, why, n)) goto fail;
    if (!(m->stage = malloc(m->bytes))) {
        snprintf(why, n, "out of host memory");
        goto fail;
    }
    /* Each array first touched (zeroed) on the device, by its computing threads on a CPU. */
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        for (int l = 0; l < s->levels + m->passes; l++) { /* passes: one more, written while the others are read */
            if (!(m->f[comp][l] = c->b->alloc(m->bytes))) goto full;
            c->b->fill_random(m->f[comp][l], m->cells, c->precision, 1, 0, 0);
        }
        for (int i = 0; c->coef == COEF_ARRAY && i < coef_count(s); i++) {
            if (!(m->coef[comp][i] = c->b->alloc(m->bytes))) goto full;
            c->b->fill_random(m->coef[comp][i], m->cells, c->precision, 1, 0, 0);
        }
        for (int i = 0; c->coef == COEF_INDEXED && i < coef_count(s); i++)
            if (!(m->coef[comp][i] = c->b->alloc(MAX_MATERIALS * sizeof(double)))) goto full;
    }
    if (c->coef == COEF_INDEXED && !(m->index = c->b->alloc(m->cells))) goto full;
    for (int half = 0; c->coef == COEF_INDEXED && half < 2; half++)
        if (!(m->coefs[half] = c->b->alloc((size_t)MAX_MATERIALS * COEF_RECORD(coef_count(s), real_size(c->precision)) *
                                           real_size(c->precision))))
            goto full;
    if (c->pml && open_layer(m)) goto full;
    if (step_set_materials(m, &mat, why, n)) goto fail;
    return m;
full:
    snprintf(why, n, "the %s cannot hold a %dx%dx%d %s step (%.1f GB)", device_names[c->b->device], c->grid[0],
             c->grid[1], c->grid[2], s->name, step_memory_bytes(c) * (double)m->cells / 1e9);
fail:
    step_close(m);
    return NULL;
}

/* ---- stepping ---------------------------------------------------------------------- */

/* The arguments of component comp's update: into its oldest level (in place for leapfrog). */
static void component_args(const struct stepper *m, int comp, struct kernel_args *a)
{
    const struct step_config *c = &m->c;
    const int L = c->s->levels, G = c->s->ngroups;
    int plus, plus_axis, minus, minus_axis;
    component_sources(comp, &plus, &plus_axis, &minus, &minus_axis);
    memset(a, 0, sizeof *a);
    a->nx = c->grid[0], a->ny = c->grid[1], a->nz = c->grid[2];
    a->sy = m->sy, a->sz = m->sz;
    a->out = m->f[comp][L - 1];
    for (int l = 0; l < L; l++) a->level[l] = m->f[comp][l], a->da[l] = m->coef[comp][l], a->da_u[l] = m->uni[comp][l];
    for (int g = 0; g < G; g++) a->db[g] = m->coef[comp][L + g], a->db_u[g] = m->uni[comp][L + g];
    a->plus = m->f[plus][0], a->minus = m->f[minus][0];
    a->index = m->index, a->coefs = m->coefs[!component_is_h(comp)];
    memcpy(a->block, c->block, sizeof a->block);
    a->nodes = c->nodes > 0 ? c->nodes : 1;
    a->rows = c->rows, a->stages = c->stages, a->regs = c->regs; /* 0: the kernel's default */
    a->tsteps = c->tsteps;
    a->boundary = c->boundary, a->open_z = c->open_z;
    if (m->fold && !m->layer_off) a->layer = m->largs[!component_is_h(comp)];
}

/* Narrows a's launch to planes k0 .. k1 of the grid: every per-cell array from plane k0 on (the
 * indexed storage's tables stay whole). */
static void planes_args(const struct stepper *m, struct kernel_args *a, int k0, int k1)
{
    if (k0 == 0 && k1 == a->nz) return;
    const long cells = (long)k0 * m->sz, bytes = cells * (long)real_size(m->c.precision);
#define FROM_K0(p) ((p) ? (void *)((char *)(p) + bytes) : NULL)
    a->out = FROM_K0(a->out);
    for (int l = 0; l < MAX_LEVELS; l++) a->level[l] = FROM_K0(a->level[l]);
    a->plus = FROM_K0(a->plus), a->minus = FROM_K0(a->minus);
    for (int l = 0; m->c.coef == COEF_ARRAY && l < MAX_LEVELS; l++) a->da[l] = FROM_K0(a->da[l]);
    for (int g = 0; m->c.coef == COEF_ARRAY && g < MAX_GROUPS; g++) a->db[g] = FROM_K0(a->db[g]);
#undef FROM_K0
    if (a->index) a->index += cells;
    a->zn = a->nz, a->z0 = k0, a->nz = k1 - k0;
}

/* The arguments of the layer pass of the half-step from first along axis (codegen/layer.h), on
 * each corrected component's level `level` (the one its update just wrote). */
static void layer_args_of(const struct stepper *m, int first, int axis, int level, struct layer_args *a)
{
    const struct step_config *c = &m->c;
    const int L = c->s->levels, G = c->s->ngroups, h = first == EX;
    struct layer_term t[LAYER_TERMS];
    layer_terms(first, axis, t);
    memset(a, 0, sizeof *a);
    a->nx = c->grid[0], a->ny = c->grid[1], a->nz = c->grid[2];
    a->sy = m->sy, a->sz = m->sz;
    a->thickness = c->pml, a->boundary = c->boundary, a->open_z = c->open_z;
    a->index = m->index;
    for (int q = 0; q < LAYER_TERMS; q++) {
        const int comp = t[q].component, half = component_half(comp, axis);
        struct layer_term_args *x = &a->t[q];
        x->out = m->f[comp][level];
        x->src = m->f[t[q].source][0];
        x->psi = m->psi[h][axis][q];
        for (int g = 0; g < G; g++) x->db[g] = m->coef[comp][L + g], x->db_u[g] = m->uni[comp][L + g];
        x->kinv1 = m->profile[axis][half][0], x->b = m->profile[axis][half][1], x->c = m->profile[axis][half][2];
    }
}

static void layer_pass(struct stepper *m, int first, int axis, int level)
{
    struct layer_args a;
    layer_args_of(m, first, axis, level, &a);
    m->layer[first == EX][axis]->fn(&a); /* a launch on the GPU: checked at the step's end */
}

/* After a half-step from first: each component's oldest level, just written, becomes its newest. */
static void rotate(struct stepper *m, int first)
{
    const int L = m->c.s->levels;
    for (int comp = first; comp < first + 3; comp++) {
        void *newest = m->f[comp][L - 1];
        memmove(&m->f[comp][1], &m->f[comp][0], (size_t)(L - 1) * sizeof(void *));
        m->f[comp][0] = newest;
    }
}

void step_half_planes(struct stepper *m, int first, int k0, int k1)
{
    struct kernel_args args[3];
    for (int axis = 0; m->fold && axis < 3; axis++)
        layer_args_of(m, first, axis, m->c.s->levels - 1, &m->largs[first == EX][axis]);
    for (int comp = first; comp < first + 3; comp++) {
        component_args(m, comp, &args[comp - first]);
        planes_args(m, &args[comp - first], k0, k1);
        if (!m->fused) m->k[comp]->fn(&args[comp - first]); /* a launch on the GPU: checked at the step's end */
    }
    if (m->fused) m->k[first]->fn(args); /* all three at once */
}

/* The updated levels become the newest; their halo is refreshed for the other half-step on the
 * axes from x that not every kernel of the half-step (`written` by the layer's) wrote itself. */
static int end_half(struct stepper *m, int first, int written, char *why, size_t n)
{
    const struct step_config *c = &m->c;
    rotate(m, first);
    for (int comp = first; comp < first + 3; comp++) {
        void *newest = m->f[comp][0];
        struct halo_args h;
        halo_args_of(m, comp, &h);
        h.first_axis = m->k[comp]->traits.halo_axes < written ? m->k[comp]->traits.halo_axes : written;
        if (h.first_axis < 3 && c->b->refresh_halo(newest, &h, why, n)) return -1;
    }
    return 0;
}

int step_half_end(struct stepper *m, int first, char *why, size_t n) { return end_half(m, first, 3, why, n); }

/* The three components from `first` (HX or EX), each into its oldest level (in place for
 * leapfrog), which then becomes the newest, corrected in the layer if there is one; its halo is
 * refreshed for the other half-step. */
int step_half(struct stepper *m, int first, char *why, size_t n)
{
    const struct step_config *c = &m->c;
    step_half_planes(m, first, 0, c->grid[2]);
    int written = 3; /* the halo axes, from x, that every kernel of this half-step wrote itself */
    for (int axis = 0; c->pml && !m->layer_off && !m->fold && axis < 3; axis++) {
        layer_pass(m, first, axis, c->s->levels - 1);
        if (m->layer[first == EX][axis]->halo_axes < written) written = m->layer[first == EX][axis]->halo_axes;
    }
    return end_half(m, first, written, why, n);
}

void *step_field(const struct stepper *m, int comp, int level) { return m->f[comp][level]; }

int step_launches(const struct variant_traits *ft, int comp) { return !ft || (comp % 3 == 0 && !(ft->passes && comp == EX)); }

int step_takes_regs(const struct variant_traits *ft) { return ft && !ft->passes && !ft->planes; }

void step_prepare(const struct step_config *c)
{
    const struct variant_traits *ft = step_fused_traits(c->b->device, c->variant);
    if (!c->b->prepare) return;
    /* the update kernels (a fused variant's two), then the layer's six, each on a core of its own */
#pragma omp parallel for schedule(dynamic) num_threads(omp_get_num_procs())
    for (int j = 0; j < NCOMPONENTS + 6; j++) {
        char why[256];
        if (j < NCOMPONENTS && step_launches(ft, j)) {
            const struct kernel_entry *k = step_kernel(c, j);
            struct kernel_args a[3];
            memset(a, 0, sizeof a);
            a[0].nx = c->grid[0], a[0].ny = c->grid[1], a[0].nz = c->grid[2];
            grid_strides(c->grid, &a[0].sy, &a[0].sz);
            memcpy(a[0].block, c->block, sizeof a[0].block);
            a[0].nodes = c->nodes > 0 ? c->nodes : 1, a[0].rows = c->rows, a[0].stages = c->stages;
            a[0].regs = c->regs, a[0].tsteps = step_tsteps(c);
            a[1] = a[2] = a[0];
            if (k) c->b->prepare(k, a, why, sizeof why);
            if (k && c->pml && k->traits.layer_fold) { /* its compilation with the layer's corrections too */
                a[0].layer = a[1].layer = a[2].layer = &any_layer;
                c->b->prepare(k, a, why, sizeof why);
            }
        } else if (j >= NCOMPONENTS && c->pml && c->b->prepare_layer) {
            const struct layer_entry *e = layer_kernel(c, j - NCOMPONENTS < 3 ? HX : EX, (j - NCOMPONENTS) % 3);
            if (e) c->b->prepare_layer(e, why, sizeof why);
        }
    }
}

/* The arguments of the step's kernel for component comp, as it launches it (a fused kernel's
 * three components'); 0 if no kernel launches for comp (another one updates it). */
static int launched_args(const struct stepper *m, const struct variant_traits *ft, int comp, struct kernel_args a[3])
{
    if (!step_launches(ft, comp)) return 0;
    for (int q = 0; q < (m->fused ? 3 : 1); q++) component_args(m, comp + q, &a[q]);
    return 1;
}

double step_compiled_ms(const struct stepper *m)
{
    if (!m->c.b->compiled_ms) return NAN;
    double sum = 0;
    int compiled = 0;
    const struct variant_traits *ft = step_fused_traits(m->c.b->device, m->c.variant);
    struct kernel_args a[3];
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        if (!launched_args(m, ft, comp, a)) continue;
        const double ms = m->c.b->compiled_ms(m->k[comp], a);
        if (ms >= 0) sum += ms, compiled = 1;
    }
    return compiled ? sum : -1;
}

double step_occupancy_pct(const struct stepper *m)
{
    if (!m->c.b->occupancy_pct) return NAN;
    double lowest = NAN; /* fmin passes over a kernel that cannot say (NAN) */
    const struct variant_traits *ft = step_fused_traits(m->c.b->device, m->c.variant);
    struct kernel_args a[3];
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        if (launched_args(m, ft, comp, a)) lowest = fmin(lowest, m->c.b->occupancy_pct(m->k[comp], a));
    return lowest;
}

/* A temporally blocked variant's steps (wave.h): passes of c.tsteps steps (the last one what is
 * left), each level's arguments those its half-step would have, in turn. */
static int wave_steps(struct stepper *m, int steps, char *why, size_t n)
{
    struct wave_level lv[2 * WAVE_MAX_STEPS + 1];
    for (int t, done = 0; done < steps; done += t) {
        struct wave_plan w;
        t = steps - done < m->c.tsteps ? steps - done : m->c.tsteps;
        wave_plan(m->c.s, m->c.grid[2], t, m->c.block[2] > 0 ? m->c.block[2] : 1, &w);
        for (int s = 1; s <= w.levels; s++) {
            const int first = s % 2 ? HX : EX;
            lv[s].fn = m->k[first]->fn;
            for (int q = 0; q < 3; q++) {
                component_args(m, first + q, &lv[s].a[q]);
                halo_args_of(m, first + q, &lv[s].h[q]);
                lv[s].h[q].first_axis = 2;
            }
            rotate(m, first);
        }
        if (wave_pass(&w, lv, m->c.b, why, n)) return -1;
    }
    return 0;
}

/* A variant with trait passes: one launch a pass of c.tsteps steps (the last one what is left),
 * from each field's newest level into its spare (f[comp][levels]), which then becomes the newest. */
static void pass_steps(struct stepper *m, int steps)
{
    const int L = m->c.s->levels;
    for (int t, done = 0; done < steps; done += t) {
        struct kernel_args a[NCOMPONENTS];
        t = steps - done < m->c.tsteps ? steps - done : m->c.tsteps;
        for (int comp = 0; comp < NCOMPONENTS; comp++) {
            component_args(m, comp, &a[comp]);
            a[comp].out = m->f[comp][L], a[comp].tsteps = t;
        }
        m->k[HX]->fn(a); /* a launch: checked at the step's end */
        for (int comp = 0; comp < NCOMPONENTS; comp++) {
            void *newest = m->f[comp][L];
            m->f[comp][L] = m->f[comp][0], m->f[comp][0] = newest;
        }
    }
}

int step_run(struct stepper *m, int steps, char *why, size_t n)
{
    if (m->passes) pass_steps(m, steps);
    else if (m->wave && wave_steps(m, steps, why, n)) return -1;
    for (int t = 0; t < steps && !m->wave; t++)
        if (step_half(m, HX, why, n) || step_half(m, EX, why, n)) return -1;
    return m->c.b->sync(why, n);
}

int step_layer_folded(const struct stepper *m) { return m->fold; }
void step_layer_on(struct stepper *m, int on) { m->layer_off = !on; }

int step_layer_run(struct stepper *m, int steps, char *why, size_t n)
{
    for (int t = 0; t < steps && m->c.pml; t++)
        for (int first = HX; first <= EX; first += EX - HX)
            for (int axis = 0; axis < 3; axis++) layer_pass(m, first, axis, 0);
    return m->c.b->sync(why, n);
}

static char *cell_of(const struct stepper *m, int comp, const int cell[3])
{
    long at = (long)(cell[2] + HALO) * m->sz + (long)(cell[1] + HALO) * m->sy + cell[0] + HALO;
    return (char *)m->f[comp][0] + (size_t)at * real_size(m->c.precision);
}

double step_peek(struct stepper *m, int comp, const int cell[3])
{
    union { float f; double d; } v;
    m->c.b->download(&v, cell_of(m, comp, cell), real_size(m->c.precision));
    return m->c.precision == F32 ? v.f : v.d;
}

void step_add(struct stepper *m, int comp, const int cell[3], double add)
{
    union { float f; double d; } v;
    double now = step_peek(m, comp, cell) + add;
    if (m->c.precision == F32) v.f = (float)now;
    else v.d = now;
    m->c.b->upload(cell_of(m, comp, cell), &v, real_size(m->c.precision));
}
