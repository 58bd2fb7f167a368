/* The full-step table of make bench: every scheme's whole step in every coefficient storage the
 * device has kernels for, the Yee/scheme ratio of whole steps, and the bytes each moves. The
 * Markdown is the report's (report_steps), from the CSV written here. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "measure.h"
#include "metrics.h"
#include "pml.h"
#include "report.h"
#include "step_bench.h"

/* The variants whose rows also run with a layer: the device's one-step fused variants (the CPU's
 * fused makes the layer's corrections itself; on a GPU the same passes follow fused and fused25d,
 * and the faster is what a simulation would run, and what cost --pml reads). Not components (each
 * component's own kernel: no user's choice with a layer), nor a temporally blocked variant (which
 * takes no layer). */
static int with_layer_row(enum device d, const char *variant)
{
    return strcmp(variant, STEP_COMPONENTS) && !step_temporal(d, variant);
}

int step_bench(struct session *s, const char *dir, int reps, int quick, const char *fastest[][NCOEF_STORAGES])
{
    double best[MAX_SCHEMES][NCOEF_STORAGES] = {{0}};
    const int grid = s->device == DEV_CPU ? (quick ? 128 : 300) : (quick ? 256 : 512);
    const char *variants[8];
    const int nv = step_variants(s->device, variants, 8);
    int n = 0, failures = 0;
    struct results_file rf;
    char folder[160];
    step_results_folder(s->slug, folder, sizeof folder);
    if (results_open_with(&rf, dir, folder, "step", NULL)) return 1;
    step_csv_header(rf.f);
    session_bandwidth(s, 0);
    const double start = omp_get_wtime();
    /* Every step's kernels compiled first, on every core (the layer's with the fused row that has
     * one, as below). */
#pragma omp parallel for collapse(3) schedule(dynamic) num_threads(omp_get_num_procs()) if (s->b->prepare)
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            for (int coef = 0; coef <= NCOEF_STORAGES; coef++) {
                const int pml = coef == NCOEF_STORAGES ? PML_TARGET_THICKNESS : 0;
                struct step_run c = {.c = {.b = s->b, .s = scheme_at(i), .precision = F32, .coef = pml ? COEF_ARRAY : coef,
                                           .variant = step_kernel_variant(s->device, variants[v]),
                                           .grid = {grid, grid, grid}, .boundary = pml ? BOUNDARY_PEC : 0, .pml = pml},
                                     .variant = variants[v]};
                if (!s->b->prepare || (pml && !with_layer_row(s->device, variants[v])) || !step_supported(&c.c)) continue;
                step_default_launch(s, &c);
                step_prepare(&c.c);
            }
    /* each storage in the closed box, then (with_layer_row) array storage with a layer, what a
     * real simulation pays */
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            for (int coef = 0; coef <= (with_layer_row(s->device, variants[v]) ? NCOEF_STORAGES : NCOEF_STORAGES - 1); coef++) {
                const struct scheme *sc = scheme_at(i);
                const int pml = coef == NCOEF_STORAGES ? PML_TARGET_THICKNESS : 0;
                double w[MAX_GROUPS];
                char why[512];
                struct step_run c = {.c = {.b = s->b, .s = sc, .precision = F32, .coef = pml ? COEF_ARRAY : coef,
                                           .variant = step_kernel_variant(s->device, variants[v]),
                                           .grid = {grid, grid, grid}, .boundary = pml ? BOUNDARY_PEC : 0, .pml = pml,
                                           .pml_order = PML_ORDER_DEFAULT},
                                     .variant = variants[v], .reps = reps}; /* steps: step_measure's */
                if (!step_supported(&c.c)) {
                    if (pml && i == 0) fprintf(stderr, "  step with a layer: no layer kernels on the %s\n", device_names[s->device]);
                    continue;
                }
                step_default_launch(s, &c);
                step_vacuum(&c.c, w, why, sizeof why);
                fprintf(stderr, "  step %-7s %-10s %-8s %d^3%s ... ", sc->name, variants[v], coef_names[c.c.coef], grid,
                        pml ? " pml" : "");
                struct step_result r;
                if (!c.c.w || step_measure(&c, &s->desc, &r, why, sizeof why)) {
                    fprintf(stderr, "FAILED: %s\n", why);
                    failures++;
                    continue;
                }
                const struct step_record m = {"step", &c, &r, &s->desc};
                char bw[96];
                fprintf(stderr, "%.4g MCells/s, %s\n", step_num(STEP_mcells_per_s, &m),
                        bw_text(r.pct_bw, r.pct_bw_spread, r.clock_held_pct, bw, sizeof bw));
                if (fastest && !pml && step_num(STEP_mcells_per_s, &m) > best[i][coef])
                    best[i][coef] = step_num(STEP_mcells_per_s, &m), fastest[i][coef] = variants[v];
                step_row(rf.f, "step", &c, &r, &s->desc);
                results_check(&rf);
                n++;
            }
    if (n == 0) {
        results_abort(&rf);
        return 1;
    }
    fprintf(stderr, "bench: %d whole steps measured in %.0f s (%s)\n", n, omp_get_wtime() - start, rf.path);
    if (results_close(&rf) || report_steps(rf.path)) return 1;
    return failures ? 1 : 0;
}
