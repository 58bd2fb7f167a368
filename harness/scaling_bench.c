/* make bench's scaling table (step_bench.h): the full step split over several GPUs, weak and
 * strong. Its page and efficiencies are the report's (report_scaling), from the CSV written here. */
#include <stdio.h>
#include <string.h>

#include "cost.h"
#include "metrics.h"
#include "report.h"
#include "step_bench.h"
#include "transport.h"

/* GPU counts: 1, 2, 4, 8 ... up to all of them, and all of them. */
static int gpu_counts(int gpus, int counts[DECOMP_MAX_SLABS])
{
    int n = 0;
    for (int g = 1; g <= gpus; g *= 2) counts[n++] = g;
    if (counts[n - 1] != gpus) counts[n++] = gpus;
    return n;
}

/* The strong table's grid for c: the largest cube up to `most`, a multiple of 64, whose step one
 * GPU holds (step_fits); 0 if none does. */
static int strong_cube(const struct session *s, struct step_run c, int most)
{
    char why[512];
    c.slabs = 1;
    for (int n = most; n >= 64; n -= 64) {
        c.c.grid[0] = c.c.grid[1] = c.c.grid[2] = n;
        if (!step_fits(&c, &s->desc, why, sizeof why)) return n;
    }
    return 0;
}

/* Row x of table t (0 weak, 1 strong) for scheme i and storage coef: the step on counts GPUs of its
 * grid, launched as tuned for one GPU's slab; 0, or -1 if the device has no such step or one GPU
 * holds no strong grid. */
static int scaling_row(const struct session *s, const char *dir, int quick, const char *fastest[][NCOEF_STORAGES],
                       int t, int i, int coef, int gpus, int reps, double w[MAX_GROUPS], struct step_run *g)
{
    const struct scheme *sc = scheme_at(i);
    struct throughput committed;
    /* the fastest step of one GPU, unless temporally blocked: slabs exchange halos every step */
    const char *variant = STEP_FUSED, *names[8];
    if (fastest && fastest[i][coef] && !step_temporal(DEV_GPU, fastest[i][coef])) variant = fastest[i][coef];
    const int nv = step_fused_variants(DEV_GPU, names, 8);
    if (!(fastest && fastest[i][coef]) &&
        !cost_throughput_from_results(dir, s->slug, sc, DEV_GPU, F32, coef, 0, NULL, 512.0 * 512 * 512, &committed))
        for (int v = 0; v < nv; v++) /* the table's own name: committed's dies with this call */
            if (!strcmp(names[v], committed.variant)) variant = names[v]; /* a step a pass: NULL above */
    char why[512];
    *g = (struct step_run){.c = {.b = s->b, .s = sc, .precision = F32, .coef = coef,
                                 .variant = step_kernel_variant(s->device, variant),
                                 .boundary = BOUNDARY_PERIODIC}, /* every slab two neighbours */
                           .variant = variant, .reps = reps, .per_gpu = 1, .overlap = 1,
                           .slabs = gpus};
    if (!step_supported(&g->c) || step_vacuum(&g->c, w, why, sizeof why)) return -1;
    const int weak = quick ? SCALING_WEAK_GRID / 2 : SCALING_WEAK_GRID, n = t == 0 ? weak : strong_cube(s, *g, quick ? 512 : 1024);
    if (!n) return -1;
    int z0, planes;
    decomp_slab(t == 0 ? weak * gpus : n, gpus, 0, &z0, &planes);
    g->c.grid[0] = g->c.grid[1] = n, g->c.grid[2] = planes;
    step_default_launch(s, g); /* the launch tuned for one GPU's slab */
    g->c.grid[2] = t == 0 ? weak * gpus : n;
    return 0;
}

int scaling_bench(struct session *s, const char *dir, int reps, int quick, const char *fastest[][NCOEF_STORAGES],
                  int want_weak, int want_strong)
{
    char why[512];
    const int gpus = s->device == DEV_GPU && s->b->devices ? s->b->devices() : 1;
    if (gpus < 2) {
        fprintf(stderr, "bench: one GPU here: no scaling table\n");
        return 0;
    }
    if (!nccl_available(why, sizeof why)) {
        fprintf(stderr, "bench: %d GPUs, no scaling table: %s\n", gpus, why);
        return 0;
    }
    fprintf(stderr, "bench: the scaling tables on %d GPUs, halo planes through %s\n", gpus, why);
    int counts[DECOMP_MAX_SLABS];
    const int ncounts = gpu_counts(gpus, counts), wanted[2] = {want_weak, want_strong};
    static const int storages[] = {COEF_ARRAY, COEF_UNIFORM};
    /* every row's kernels compiled first, on every core */
#pragma omp parallel for collapse(4) schedule(dynamic)
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < scheme_count(); i++)
            for (int k = 0; k < 2; k++)
                for (int x = 0; x < ncounts; x++) {
                    double w[MAX_GROUPS];
                    struct step_run g;
                    if (wanted[t] && !scaling_row(s, dir, quick, fastest, t, i, storages[k], counts[x], reps, w, &g))
                        step_prepare(&g.c);
                }
    static const char *const tables[] = {SCALING_WEAK, SCALING_STRONG};
    struct results_file rf;
    char folder[160];
    step_results_folder(s->slug, folder, sizeof folder);
    if (results_open_with(&rf, dir, folder, SCALING_STEM, NULL)) return 1;
    step_csv_header(rf.f);
    session_bandwidth(s, 0);
    int rows = 0, failures = 0;
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < scheme_count() && wanted[t]; i++)
            for (int k = 0; k < 2; k++)
                for (int x = 0; x < ncounts; x++) {
                    double w[MAX_GROUPS];
                    struct step_run g;
                    if (scaling_row(s, dir, quick, fastest, t, i, storages[k], counts[x], reps, w, &g)) continue;
                    fprintf(stderr, "  %-6s %-7s %-8s %-8s %2d GPU%s %dx%dx%d ... ", tables[t], g.c.s->name,
                            coef_names[g.c.coef], g.variant, counts[x], counts[x] == 1 ? " " : "s", g.c.grid[0],
                            g.c.grid[1], g.c.grid[2]);
                    struct step_result r;
                    if (step_measure(&g, &s->desc, &r, why, sizeof why)) {
                        fprintf(stderr, "FAILED: %s\n", why);
                        failures++;
                        continue;
                    }
                    const struct step_record m = {tables[t], &g, &r, &s->desc};
                    fprintf(stderr, "%.4g MCells/s, %.3g ms/step, halo %.3g MB/step\n",
                            step_num(STEP_mcells_per_s, &m), r.median_ms, step_num(STEP_halo_bytes, &m) / 1e6);
                    step_row(rf.f, tables[t], &g, &r, &s->desc);
                    results_check(&rf);
                    rows++;
                }
    if (!rows) {
        results_abort(&rf);
        return 1;
    }
    if (results_close(&rf) || report_scaling(rf.path)) return 1;
    return failures ? 1 : 0;
}
