#define _POSIX_C_SOURCE 200809L
#include "step_measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build_info.h"

/* Small and odd, so that no tile or block divides it; a few steps carry errors through both
 * half-steps and every time level's rotation (S44's four). */
static const int verify_grid[3] = {17, 13, 11};
enum { VERIFY_STEPS = 5 };

void step_results_folder(const char *machine, char *out, size_t n) { snprintf(out, n, "%s/" STEP_FOLDER, machine); }

const char *step_kernel_variant(enum device d, const char *name)
{
    if (strcmp(name, "components") == 0) return d == DEV_CPU ? "plain" : "baseline";
    return name;
}

static double cells(const int g[3]) { return (double)g[0] * g[1] * g[2]; }
static double padded(const int g[3]) { return (double)(g[0] + 2 * HALO) * (g[1] + 2 * HALO) * (g[2] + 2 * HALO); }

int step_fits(const struct step_run *c, const struct device_desc *d, char *why, size_t n)
{
    const struct step_config *sc = &c->c;
    /* the arrays, plus one host staging array on the CPU (the same memory) */
    double per_cell = step_bytes_per_cell(sc->s, sc->precision, sc->coef) +
                      (sc->b->device == DEV_CPU ? (sc->precision == F32 ? 4 : 8) : 0);
    double need = per_cell * padded(sc->grid);
    if (need <= 0.8 * (double)d->memory_bytes) return 0;
    snprintf(why, n, "grid %dx%dx%d: a %s step needs %.1f GB (%.0f bytes per cell), more than 80%% of the %s's %.1f GB",
             sc->grid[0], sc->grid[1], sc->grid[2], sc->s->name, need / 1e9, per_cell, device_names[sc->b->device],
             d->memory_bytes / 1e9);
    return -1;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int step_measure(const struct step_run *c, const struct bandwidth *bw, const struct device_desc *d,
                 struct step_result *r, char *why, size_t n)
{
    const struct backend *b = c->c.b;
    memset(r, 0, sizeof *r);
    if (b->check_block(c->c.block, why, n) || step_fits(c, d, why, n)) return -1;
    b->set_threads(c->threads);
    r->threads = b->device == DEV_CPU ? b->threads() : 0;
    struct step_config small = c->c;
    memcpy(small.grid, verify_grid, sizeof small.grid);
    double worst;
    if (step_verify(&small, VERIFY_STEPS, &worst, why, n)) return -1;
    r->verified = 1;

    struct stepper *m = step_open(&c->c, why, n);
    if (!m) return -1;
    step_fill_random(m, 11); /* bounded: the coefficients are vacuum's at a stable Courant number */
    double *ms = malloc(sizeof(double) * (size_t)c->reps);
    int rc = ms ? step_run(m, 1, why, n) : -1; /* warm-up */
    for (int s = 0; s < c->reps && !rc; s++) {
        double t0 = now_ms();
        rc = step_run(m, c->steps, why, n);
        ms[s] = (now_ms() - t0) / c->steps;
    }
    if (!rc) {
        qsort(ms, (size_t)c->reps, sizeof *ms, cmp_double);
        r->min_ms = ms[0], r->max_ms = ms[c->reps - 1];
        r->median_ms = c->reps % 2 ? ms[c->reps / 2] : 0.5 * (ms[c->reps / 2 - 1] + ms[c->reps / 2]);
        step_metrics(c, r, bw);
        r->cache_resident = d->cache_bytes && r->memory_bytes * padded(c->c.grid) < 3.0 * d->cache_bytes;
    }
    free(ms);
    step_close(m);
    return rc;
}

void step_metrics(const struct step_run *c, struct step_result *r, const struct bandwidth *bw)
{
    const struct step_config *sc = &c->c;
    r->cells_per_s = cells(sc->grid) / (r->median_ms * 1e-3);
    r->mcells_per_s = r->cells_per_s / 1e6;
    r->compulsory_bytes = step_compulsory_bytes(sc->s, sc->precision, sc->coef);
    r->memory_bytes = step_bytes_per_cell(sc->s, sc->precision, sc->coef);
    r->gbs_effective = r->cells_per_s * r->compulsory_bytes / 1e9;
    r->pct_bw = bw && bw->best_gbs > 0 ? 100 * r->gbs_effective / bw->best_gbs : 0;
}

void step_row(FILE *f, const char *table, const struct step_run *c, const struct step_result *r,
              const struct bandwidth *bw, const struct device_desc *d)
{
    const struct step_config *sc = &c->c;
    fprintf(f, "%s,fdtdbench,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%dx%dx%d,%d,%d,%d,%d,", table, BUILD_COMMIT, sc->s->name,
            device_names[sc->b->device], c->variant, precision_names[sc->precision], coef_names[sc->coef],
            boundary_names[sc->boundary], sc->grid[0], sc->grid[1], sc->grid[2], sc->block[0], sc->block[1],
            sc->block[2], sc->nodes > 1 ? sc->nodes : 1, r->threads, c->steps, c->reps);
    fprintf(f, "%.6g,%.6g,%.6g,%.6g,%.6g,%g,%g,%.6g,%.6g,%.6g,%.4g,%d,%d,", r->min_ms, r->median_ms, r->max_ms,
            r->cells_per_s, r->mcells_per_s, r->compulsory_bytes, r->memory_bytes, r->gbs_effective,
            bw ? bw->copy_gbs : 0, bw ? bw->second_gbs : 0, r->pct_bw, r->cache_resident, r->verified);
    results_context(f, d);
}
