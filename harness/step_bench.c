/* The full-step table of make bench: every scheme's whole step in every coefficient storage the
 * device has kernels for, the Yee/scheme ratio of whole steps, and the bytes each moves. */
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "step_bench.h"

struct step_row {
    struct step_run c;
    struct step_result r;
    double w[MAX_GROUPS];
};

static void markdown(FILE *f, const struct session *s, const struct step_row *rows, int n)
{
    fprintf(f, "## Full time step: all six components, H then E half-step, halo refresh included\n\n");
    fprintf(f, "MCells/s here is cells x steps / s, the unit openEMS, Meep and gprMax report (not the paper's "
               "equation 5). Bytes: the compulsory bytes of one step per cell (every field and coefficient array "
               "once per half-step). %% bw is against %s %.1f GB/s / %s %.1f GB/s measured in the same run.\n\n",
            s->bw.copy_name, s->bw.copy_gbs, s->bw.second_name, s->bw.second_gbs);
    fprintf(f, "| scheme | storage | variant | grid | MCells/s | Yee/scheme | bytes/cell/step | GB/s | %% bw |\n");
    fprintf(f, "|---|---|---|---|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < n; i++) {
        const struct step_row *w = &rows[i];
        char ratio[16] = "";
        for (int j = 0; j < n; j++) /* the reference scheme in the same storage and variant */
            if (rows[j].c.c.s == scheme_reference() && rows[j].c.c.coef == w->c.c.coef &&
                !strcmp(rows[j].c.variant, w->c.variant))
                snprintf(ratio, sizeof ratio, "%.2f", rows[j].r.mcells_per_s / w->r.mcells_per_s);
        fprintf(f, "| %s | %s | %s | %d³ | %.1f | %s | %.0f | %.1f | %.0f%% |\n", w->c.c.s->title,
                coef_names[w->c.c.coef], w->c.variant, w->c.c.grid[0], w->r.mcells_per_s, ratio,
                w->r.compulsory_bytes, w->r.gbs_effective, w->r.pct_bw);
    }
    fprintf(f, "\n");
}

int step_bench(struct session *s, const char *dir, int reps, int quick)
{
    const int grid = s->device == DEV_CPU ? (quick ? 128 : 300) : (quick ? 256 : 512);
    static const char *const variants[] = {"components", STEP_FUSED};
    int n = 0, failures = 0, max = scheme_count() * NCOEF_STORAGES * 2;
    struct step_row *rows = calloc((size_t)max, sizeof *rows);
    struct results_file rf;
    char folder[160];
    step_results_folder(s->slug, folder, sizeof folder);
    if (!rows || results_open_with(&rf, dir, folder, "step", STEP_COLUMNS)) {
        free(rows);
        return 1;
    }
    session_bandwidth(s, 0);
    for (int v = 0; v < 2; v++)
    for (int i = 0; i < scheme_count(); i++)
        for (int coef = 0; coef < NCOEF_STORAGES; coef++) {
            struct step_row *w = &rows[n];
            const struct scheme *sc = scheme_at(i);
            char why[512];
            w->c = (struct step_run){.c = {.b = s->b, .s = sc, .precision = F32, .coef = coef,
                                           .variant = step_kernel_variant(s->device, variants[v]),
                                           .grid = {grid, grid, grid}},
                                     .variant = variants[v], .steps = quick ? 3 : 10, .reps = reps};
            if (!step_supported(&w->c.c)) continue;
            struct run_config rc = {.scheme = sc, .component = HX, .precision = F32, .coef = coef,
                                    .device = s->device, .variant = step_kernel_variant(s->device, "components")};
            default_launch(s, &rc);
            memcpy(w->c.c.block, rc.block, sizeof rc.block);
            w->c.c.nodes = rc.nodes;
            if (scheme_weights(sc, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w->w, why, sizeof why) == 0) {
                w->c.c.w = w->w;
                w->c.c.courant = 0.9 * stability_limit(sc, w->w);
            }
            fprintf(stderr, "  step %-7s %-10s %-8s %d^3 ... ", sc->name, variants[v], coef_names[coef], grid);
            if (!w->c.c.w || step_measure(&w->c, &s->bw, &s->desc, &w->r, why, sizeof why)) {
                fprintf(stderr, "FAILED: %s\n", why);
                failures++;
                continue;
            }
            fprintf(stderr, "%.4g MCells/s, %.0f%% of bw\n", w->r.mcells_per_s, w->r.pct_bw);
            step_row(rf.f, "step", &w->c, &w->r, &s->bw, &s->desc);
            n++;
        }
    int rc = 1;
    if (n == 0) results_abort(&rf);
    else if (results_close(&rf) == 0) {
        char path[512], tmp[520];
        snprintf(path, sizeof path, "%.*s.md", (int)(strlen(rf.path) - 4), rf.path);
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (f) markdown(f, s, rows, n);
        if (f && !fclose(f) && !rename(tmp, path)) rc = failures ? 1 : 0;
        markdown(stdout, s, rows, n);
        fprintf(stderr, "wrote %s and %s\n", rf.path, path);
    }
    free(rows);
    return rc;
}
