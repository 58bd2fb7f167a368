/* One CPU kernel on one thread, timed by the thread's own CPU time, so that time the thread
 * spends preempted by other processes does not count: a figure that holds on a busy machine
 * where wall-clock samples do not (caches shared with others still disturb it a little).
 *   make cputime && build/cputime SCHEME_COMPONENT_PRECISION_COEF_VARIANT NX NY NZ LAUNCHES [J K [NODES [PML]]]
 *   e.g. build/cputime fv24_hx_f32_array_plain 300 4 4 400     (arrays in L2)
 *        build/cputime fv24_hx_f32_array_regz 128 15 15 200 0 1 2   (whole-row tiles, two nodes a pass)
 *        build/cputime fv24_hx_f32_uniform_fusedz 300 300 300 3 0 1 2   (a fused step's half-step from Hx)
 *        build/cputime fv24_hx_f32_array_fused 300 300 300 3 0 1 1 10   (the same with a 10-cell CPML
 *        folded in: its corrections along x, y and z, trait layer_fold)
 * Prints ns per update (a fused kernel's: per component and node), the best of 7 samples of
 * LAUNCHES launches. Data are zeros (written, 64-byte aligned arrays as the backend's): no check. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel.h"
#include "layer.h"
#include "pml.h"
#include "spec.h"

extern const struct kernel_entry cpu_fused_table[]; /* the step's fused kernels (engine/step.c) */
extern const int cpu_fused_table_len;

static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* A 64-byte aligned array of `bytes`, written (as the CPU backend's: cpu_alloc, with three vectors
 * more before and after it); untouched calloc'd pages all read as the one zero page, which no
 * kernel reads at run time. */
static void *array(size_t bytes)
{
    enum { SLACK = 192 };
    char *p = aligned_alloc(64, SLACK + (bytes + 63) / 64 * 64 + SLACK);
    if (!p) {
        fprintf(stderr, "cputime: out of memory\n");
        exit(2);
    }
    return memset(p + SLACK, 0, bytes);
}

/* The kernel named SCHEME_COMPONENT_PRECISION_COEF_VARIANT in table t of n entries, or NULL. */
static const struct kernel_entry *find(const struct kernel_entry *t, int n, const char *want)
{
    for (int i = 0; i < n; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s_%s_%s_%s_%s", t[i].scheme, component_names[t[i].component],
                 precision_names[t[i].precision], coef_names[t[i].coef], t[i].variant);
        if (!strcmp(name, want)) return &t[i];
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 8 && argc != 9 && argc != 10) {
        fprintf(stderr, "usage: cputime SCHEME_COMPONENT_PRECISION_COEF_VARIANT NX NY NZ LAUNCHES [J K [NODES [PML]]]\n");
        return 2;
    }
    const struct kernel_entry *k = find(cpu_kernel_table, cpu_kernel_table_len, argv[1]);
    const int comps = k ? 1 : 3; /* a fused step's kernel (its table's) updates three components */
    if (!k) k = find(cpu_fused_table, cpu_fused_table_len, argv[1]);
    if (!k) {
        fprintf(stderr, "cputime: no CPU kernel %s\n", argv[1]);
        return 2;
    }
    omp_set_num_threads(1);
    struct kernel_args a[3] = {{.nx = atoi(argv[2]), .ny = atoi(argv[3]), .nz = atoi(argv[4])}};
    int launches = atoi(argv[5]);
    if (a->nx < 1 || a->ny < 1 || a->nz < 1 || launches < 1) {
        fprintf(stderr, "cputime: sizes and launches must be positive\n");
        return 2;
    }
    a->block[1] = argc >= 8 ? atoi(argv[6]) : 0, a->block[2] = argc >= 8 ? atoi(argv[7]) : 1;
    a->nodes = argc >= 9 ? atoi(argv[8]) : 1;
    const int pml = argc == 10 ? atoi(argv[9]) : 0;
    const int n[3] = {a->nx, a->ny, a->nz};
    char why[256];
    if (pml && (comps != 3 || pml_check(pml, n, why, sizeof why))) {
        fprintf(stderr, "cputime: %s\n", comps != 3 ? "a CPML folds into a fused kernel only" : why);
        return 2;
    }
    grid_strides(n, &a->sy, &a->sz);
    const size_t real = k->precision == F32 ? 4 : 8, cells = grid_values(n), bytes = cells * real;
    /* each component's levels and coefficients (arrays; indexed: tables; uniform: unused), the
     * source fields (a fused kernel's three, by axis, as the step engine passes them), a material
     * byte per cell */
    const struct scheme *sc = scheme_find(k->scheme);
    const void *src[3] = {array(bytes), array(bytes), comps == 3 ? array(bytes) : NULL}, *index = array(cells);
    for (int q = 0; q < comps; q++) {
        int p, pa, m, ma;
        component_sources(k->component + q, &p, &pa, &m, &ma);
        a[q] = a[0];
        for (int l = 0; l < sc->levels; l++) a[q].level[l] = array(bytes), a[q].da[l] = array(bytes);
        for (int g = 0; g < sc->ngroups; g++) a[q].db[g] = array(bytes);
        a[q].out = (void *)a[q].level[sc->levels - 1], a[q].index = index;
        a[q].plus = src[comps == 3 ? p % 3 : 0], a[q].minus = src[comps == 3 ? m % 3 : 1];
    }
    /* a fused kernel's CPML (trait layer_fold): per axis the two terms it corrects (layer_terms), on
     * the outputs and sources of the step engine's (engine/step.c, layer_args_of), psi per slab */
    struct layer_args layer[3];
    for (int axis = 0; pml > 0 && axis < 3; axis++) {
        struct layer_term t[LAYER_TERMS];
        int dims[3];
        layer_terms(k->component, axis, t);
        layer[axis] = (struct layer_args){.nx = a->nx, .ny = a->ny, .nz = a->nz, .sy = a->sy, .sz = a->sz,
                                          .thickness = pml, .index = index};
        for (int q = 0; q < LAYER_TERMS; q++) {
            const struct kernel_args *c = &a[t[q].component - k->component];
            struct layer_term_args *x = &layer[axis].t[q];
            x->out = c->out, x->src = src[t[q].source % 3], x->psi = array(pml_slab(n, pml, axis, dims) * real);
            for (int g = 0; g < sc->ngroups; g++) x->db[g] = c->db[g], x->db_u[g] = 1;
            x->kinv1 = array(2 * pml * real), x->b = array(2 * pml * real), x->c = array(2 * pml * real);
        }
    }
    if (pml > 0) a[0].layer = a[1].layer = a[2].layer = layer;
    if (k->accepts && k->accepts(a, why, sizeof why)) {
        fprintf(stderr, "cputime: %s: %s\n", argv[1], why);
        return 2;
    }
    for (int w = 0; w < 3; w++) k->fn(a);
    double best = 1e30;
    for (int s = 0; s < 7; s++) {
        double t0 = thread_seconds();
        for (int i = 0; i < launches; i++) k->fn(a);
        double t = (thread_seconds() - t0) / launches;
        best = t < best ? t : best;
    }
    printf("%s %dx%dx%d nodes %d: %.3f ns/update (one thread, its CPU time, best of 7)\n", argv[1], a->nx, a->ny, a->nz,
           a->nodes, best / ((double)a->nx * a->ny * a->nz * comps) * 1e9);
    return 0;
}
