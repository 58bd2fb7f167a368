/* step_verify (step.h): the engine against a double-precision reference step walked from the
 * spec (reference_update), with each cell's rounding bound carried along beside its value; with
 * a CPML, its corrections walked from the spec too (reference_term), cell by cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layer.h"
#include "pml.h"
#include "reference.h"
#include "step.h"

struct host {
    double *f[NCOMPONENTS][MAX_LEVELS]; /* values, [0] the newest */
    double *t[NCOMPONENTS][MAX_LEVELS]; /* bound of |engine - value| (sign irrelevant) */
    double *coef[NCOMPONENTS][MAX_COEFS];
    /* with a layer: each component's auxiliary field of its term along each axis (over the
     * padded grid, used in the slab only), its bound, and the profiles [axis][half][kinv1, b, c] */
    double *psi[NCOMPONENTS][3], *psit[NCOMPONENTS][3];
    double *profile[3][2][3];
};

static unsigned long long rng;
static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * 0x1.0p-53;
}
static double rounded(double v, int p) { return p == F32 ? (double)(float)v : v; }

static double *array(size_t cells)
{
    double *a = calloc(cells, sizeof *a);
    if (!a) {
        fprintf(stderr, "fdtdbench: out of host memory\n");
        exit(2);
    }
    return a;
}

static void refresh(const struct step_config *c, long sy, long sz, int comp, double *a)
{
    struct halo_args h = {.sy = sy, .sz = sz, .precision = F64, .boundary = c->boundary};
    char why[128];
    memcpy(h.n, c->grid, sizeof h.n);
    for (int ax = 0; ax < 3; ax++) h.half[ax] = component_half(comp, ax);
    cpu_backend()->refresh_halo(a, &h, why, sizeof why);
}

/* The layer's corrections of cell (i,j,k) of comp, whose update the reference just computed
 * (*value, within *bound): each of its terms differentiated along an axis whose slab holds the
 * cell (codegen/layer.h's rule), with psi and its bound carried like a field. v holds the
 * half-step's inputs, t their bounds. */
static void layer_reference(const struct step_config *c, struct host *r, const struct reference_inputs *v,
                            const struct reference_inputs *t, int comp, const int cell[3], long at, double *value,
                            double *bound)
{
    const double u = c->precision == F32 ? 0x1.0p-24 : 0x1.0p-53;
    const int term_flops = layer_counts(c->s, c->precision, COEF_ARRAY).flops / LAYER_TERMS;
    int plus, plus_axis, minus, minus_axis;
    component_sources(comp, &plus, &plus_axis, &minus, &minus_axis);
    for (int axis = 0; axis < 3; axis++) {
        const int s = layer_slab(cell[axis], c->pml, c->grid[axis]), is_minus = minus_axis == axis;
        if (s < 0 || (plus_axis != axis && !is_minus)) continue;
        const double *const *p = (const double *const *)r->profile[axis][component_half(comp, axis)];
        const double K = p[0][s], B = p[1][s], C = p[2][s];
        double mag, carried, T = reference_term(c->s, comp, is_minus, v, cell[0], cell[1], cell[2], &mag);
        reference_term(c->s, comp, is_minus, t, cell[0], cell[1], cell[2], &carried);
        const double eT = (term_flops + 2) * u * mag + carried, psi = r->psi[comp][axis][at];
        const double y = B * psi + C * T;
        r->psit[comp][axis][at] = fabs(B) * r->psit[comp][axis][at] + fabs(C) * eT + 4 * u * (fabs(B * psi) + fabs(C) * mag);
        r->psi[comp][axis][at] = y;
        *bound += fabs(K) * eT + r->psit[comp][axis][at] + 3 * u * (fabs(*value) + fabs(K) * mag + fabs(y));
        *value += (is_minus ? -1 : 1) * (K * T + y);
    }
}

/* One half-step of the reference, as the engine's (step.c half_step). */
static void half_step(const struct step_config *c, struct host *r, long sy, long sz, int first)
{
    const struct scheme *s = c->s;
    const int L = s->levels, G = s->ngroups;
    const double bound = (scheme_counts(s, c->precision, COEF_ARRAY).flops + 2) *
                         (c->precision == F32 ? 0x1.0p-24 : 0x1.0p-53);
    for (int comp = first; comp < first + 3; comp++) {
        int plus, pa, minus, ma;
        component_sources(comp, &plus, &pa, &minus, &ma);
        struct reference_inputs v = {.nx = c->grid[0], .ny = c->grid[1], .nz = c->grid[2], .sy = sy, .sz = sz}, t = v;
        for (int l = 0; l < L; l++) v.level[l] = r->f[comp][l], t.level[l] = r->t[comp][l], v.da[l] = t.da[l] = r->coef[comp][l];
        for (int g = 0; g < G; g++) v.db[g] = t.db[g] = r->coef[comp][L + g];
        v.plus = r->f[plus][0], v.minus = r->f[minus][0], t.plus = r->t[plus][0], t.minus = r->t[minus][0];
        struct reference_stencil st;
        reference_stencil(s, comp, &st);
        /* Cells in parallel: each writes only its own value, bound and psi. A kernel compiled for
         * its grid's strides is verified on whole planes of the timed grid (300x300 at bench's
         * size), where this loop on one thread took most of tune --device cpu --step's time. */
#pragma omp parallel for collapse(2) schedule(static)
        for (int k = 0; k < c->grid[2]; k++)
            for (int j = 0; j < c->grid[1]; j++)
                for (int i = 0; i < c->grid[0]; i++) {
                    long at = (long)(k + HALO) * sz + (long)(j + HALO) * sy + i + HALO;
                    double mag, carried, value = reference_update(&st, &v, i, j, k, &mag);
                    reference_update(&st, &t, i, j, k, &carried); /* sum |coef| |bound of input| */
                    double error = bound * mag + carried;
                    const int cell[3] = {i, j, k};
                    if (c->pml) layer_reference(c, r, &v, &t, comp, cell, at, &value, &error);
                    r->f[comp][L - 1][at] = value;
                    r->t[comp][L - 1][at] = error;
                }
        double *nf = r->f[comp][L - 1], *nt = r->t[comp][L - 1];
        memmove(&r->f[comp][1], &r->f[comp][0], (size_t)(L - 1) * sizeof(double *));
        memmove(&r->t[comp][1], &r->t[comp][0], (size_t)(L - 1) * sizeof(double *));
        r->f[comp][0] = nf, r->t[comp][0] = nt;
        refresh(c, sy, sz, comp, nf);
        refresh(c, sy, sz, comp, nt);
    }
}

static int compare(const struct step_config *c, struct stepper *m, struct host *r, double *got, long sy, long sz,
                   int steps, double *worst, char *why, size_t n)
{
    const int *g = c->grid;
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        for (int l = 0; l < c->s->levels; l++) {
            step_get(m, comp, l, got);
            for (int k = -HALO; k < g[2] + HALO; k++)
                for (int j = -HALO; j < g[1] + HALO; j++)
                    for (int i = -HALO; i < g[0] + HALO; i++) {
                        long at = (long)(k + HALO) * sz + (long)(j + HALO) * sy + i + HALO;
                        double err = fabs(got[at] - r->f[comp][l][at]), tol = fabs(r->t[comp][l][at]);
                        if (!(err <= tol)) {
                            snprintf(why, n, "after %d steps, %s level %d cell (%d,%d,%d) of %dx%dx%d: got %.9g, "
                                     "reference %.9g, error %.3g > bound %.3g", steps, component_names[comp], l, i, j,
                                     k, g[0], g[1], g[2], got[at], r->f[comp][l][at], err, tol);
                            return -1;
                        }
                        if (tol > 0 && err / tol > *worst) *worst = err / tol;
                    }
        }
    return 0;
}

int step_verify(const struct step_config *c, int steps, double *worst, char *why, size_t n)
{
    static unsigned long long calls;
    rng = (unsigned long long)time(NULL) * 2654435761ull + ++calls * 0x9E3779B97F4A7C15ull;
    const unsigned long long seed = rng;
    const int p = c->precision, L = c->s->levels, K = L + c->s->ngroups;
    struct stepper *m = step_open(c, why, n);
    if (!m) return -1;
    long sy, sz;
    size_t cells = step_cells(m, &sy, &sz);
    struct host r;
    memset(&r, 0, sizeof r);
    double *got = array(cells);
    unsigned char *index = NULL;
    /* Several materials unless the storage has one; random coefficients and fields. */
    struct step_materials *mat = calloc(1, sizeof *mat);
    if (!mat) {
        fprintf(stderr, "fdtdbench: out of host memory\n");
        exit(2);
    }
    mat->count = c->coef == COEF_UNIFORM ? 1 : 5;
    if (mat->count > 1) {
        if (!(index = malloc(cells))) {
            fprintf(stderr, "fdtdbench: out of host memory\n");
            exit(2);
        }
        /* runs of one material, mostly short, some longer than a row: a kernel may go run by run */
        for (size_t i = 0, end = 0; i < cells; i++) {
            unsigned char x = i ? index[i - 1] : 0;
            if (i == end) x = (unsigned char)uniform(0, mat->count), end = i + 1 + (size_t)(200 * pow(uniform(0, 1), 4));
            index[i] = x;
        }
        mat->index = index;
    }
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        for (int x = 0; x < mat->count; x++)
            for (int i = 0; i < K; i++) mat->coef[comp][x][i] = rounded(uniform(-1, 1), p);
    int rc = step_set_materials(m, mat, why, n);
    for (int comp = 0; c->pml && comp < NCOMPONENTS; comp++)
        for (int axis = 0; axis < 3; axis++) r.psi[comp][axis] = array(cells), r.psit[comp][axis] = array(cells);
    for (int axis = 0; c->pml && axis < 3; axis++) /* the profiles the device holds, in its precision */
        for (int half = 0; half < 2; half++) {
            double **q = r.profile[axis][half];
            for (int x = 0; x < 3; x++) q[x] = array((size_t)(2 * c->pml));
            pml_profile(c->pml, c->pml_order, c->courant, c->grid[axis], half, q[0], q[1], q[2]);
            for (int x = 0; x < 3; x++)
                for (int i = 0; i < 2 * c->pml; i++) q[x][i] = rounded(q[x][i], p);
        }
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        for (int i = 0; i < K; i++) {
            r.coef[comp][i] = array(cells);
            for (size_t x = 0; x < cells; x++) r.coef[comp][i][x] = mat->coef[comp][index ? index[x] : 0][i];
        }
        for (int l = 0; l < L; l++) {
            r.f[comp][l] = array(cells), r.t[comp][l] = array(cells);
            for (size_t x = 0; x < cells; x++) r.f[comp][l][x] = rounded(uniform(-1, 1), p);
            refresh(c, sy, sz, comp, r.f[comp][l]);
            if (!rc) step_put(m, comp, l, r.f[comp][l]);
        }
    }
    *worst = 0;
    if (!rc) rc = step_run(m, steps, why, n); /* at once: a temporally blocked variant's passes */
    for (int t = 0; t < steps && !rc; t++) {
        half_step(c, &r, sy, sz, HX);
        half_step(c, &r, sy, sz, EX);
    }
    if (!rc) rc = compare(c, m, &r, got, sy, sz, steps, worst, why, n);
    if (rc) {
        size_t len = strlen(why);
        snprintf(why + len, n - len, " [step %s %s %s %s %s, pml %d, seed %llu]", c->s->name, c->variant,
                 precision_names[p], coef_names[c->coef], boundary_names[c->boundary], c->pml, seed);
    }
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        for (int l = 0; l < L; l++) free(r.f[comp][l]), free(r.t[comp][l]);
        for (int i = 0; i < K; i++) free(r.coef[comp][i]);
        for (int axis = 0; axis < 3; axis++) free(r.psi[comp][axis]), free(r.psit[comp][axis]);
    }
    for (int axis = 0; axis < 3; axis++)
        for (int half = 0; half < 2; half++)
            for (int x = 0; x < 3; x++) free(r.profile[axis][half][x]);
    free(got), free(index), free(mat);
    step_close(m);
    return rc;
}
