/* The cost model (cost.h): resolution search, memory per cell, and the throughput reader. */
#define _POSIX_C_SOURCE 200809L
#include "cost.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "kernel.h"
#include "simulate.h"


/* ---- the resolution search ------------------------------------------------------------- */

/* One resolution's worst direction, remembered: the error at N does not depend on the problem,
 * so a sweep over budgets (the figure) evaluates each N once. */
struct sample {
    int state; /* 0 not yet evaluated, 1 evaluated, -1 no stable scheme there */
    double w[MAX_GROUPS], courant, dir[3], vp_error, amplitude;
    double band_error; /* the largest |v_p/c - 1| from N to 2N cells per wavelength (BAND) */
};
enum { TENTHS = (int)(10 * COST_MAX_PPW) + 1, MAX_CURVES = 16 };
static struct curve {
    const struct scheme *s;
    enum cost_weights weights;
    struct sample *p; /* indexed by tenths of a cell per wavelength */
} curves[MAX_CURVES];

/* A wave resolved by N cells at its highest frequency meets finer resolutions at its lower ones,
 * and a designed scheme's error can grow away from its design point (fast, near 2 cells per
 * wavelength): the budget must hold over a band, here an octave, N to 2N in 10% steps. */
enum { BAND_POINTS = 8 };
static const double BAND_STEP = 1.1;

static const struct sample *evaluate(const struct scheme *s, enum cost_weights weights, int tenths)
{
    static struct sample scratch; /* when the cache is full */
    struct sample *pt = &scratch;
    for (int i = 0; i < MAX_CURVES; i++) {
        struct curve *c = &curves[i];
        if (!c->s && (c->p = calloc(TENTHS, sizeof *c->p))) c->s = s, c->weights = weights;
        if (c->s == s && c->weights == weights) {
            pt = &c->p[tenths];
            break;
        }
    }
    if (pt->state && pt != &scratch) return pt;
    double ppw = tenths / 10.0, amp, d[3], vp;
    char err[256];
    pt->state = -1;
    if (weights == COST_DESIGN_FOR_N) {
        /* designed for N at the Courant number it runs at (below 0.5 where 0.5 is unstable) */
        if (scheme_weights(s, ppw, DEFAULT_DESIGN_COURANT, pt->w, err, sizeof err)) return pt;
        pt->courant = default_courant(s, pt->w, DEFAULT_DESIGN_COURANT);
        if (pt->courant != DEFAULT_DESIGN_COURANT && scheme_weights(s, ppw, pt->courant, pt->w, err, sizeof err))
            return pt;
    } else {
        if (scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, pt->w, err, sizeof err)) return pt;
        pt->courant = default_courant(s, pt->w, DEFAULT_DESIGN_COURANT);
    }
    if (worst_direction_error(s, pt->w, ppw, pt->courant, pt->dir, &pt->vp_error, &amp, err, sizeof err)) return pt;
    pt->amplitude = amp;
    pt->band_error = fabs(pt->vp_error);
    for (int j = 1; j < BAND_POINTS; j++) {
        if (worst_direction_error(s, pt->w, ppw * pow(BAND_STEP, j), pt->courant, d, &vp, &amp, err, sizeof err))
            return pt;
        pt->band_error = fmax(pt->band_error, fabs(vp));
    }
    pt->state = 1;
    return pt;
}

/* Steps to cover the distance: c dt = S Delta = S lambda / N, so D lambda takes D N / S steps. */
static long long steps_for(double distance, double ppw, double courant)
{
    return (long long)ceil(distance * ppw / courant - 1e-9);
}

/* Within the budget over the distance the steps actually cover, across the band. */
static int passes(const struct sample *pt, const struct cost_problem *p, int tenths)
{
    if (pt->state != 1) return 0;
    double ppw = tenths / 10.0, covered = steps_for(p->distance, ppw, pt->courant) * pt->courant / ppw;
    return phase_error_distance(pt->band_error, p->budget_deg) >= covered;
}

int cost_resolution(const struct scheme *s, enum cost_weights weights, const struct cost_problem *p,
                    struct cost_answer *a, char *why, size_t n)
{
    if (s->weights == WEIGHTS_FIXED) weights = COST_DEFAULT_DESIGN;
    const int lo = 20, hi = TENTHS - 1;
    int fail = 0, pass = 0;
    /* 5% steps; a window of good resolutions narrower than a step may be passed over, which
     * makes the answer finer than it need be, never wrong. */
    for (int t = lo; !pass; t = t >= hi ? hi + 1 : (int)fmin(hi, fmax(t + 1, round(t * 1.05)))) {
        if (t > hi) {
            const struct sample *pt = evaluate(s, weights, hi);
            snprintf(why, n,
                     "%s: no resolution up to %g cells per wavelength keeps the worst-direction phase error within "
                     "%g degrees over %g wavelengths (at %g: %.3g degrees, Courant number %g): the scheme cannot "
                     "reach that accuracy at that Courant number",
                     s->name, COST_MAX_PPW, p->budget_deg, p->distance, COST_MAX_PPW,
                     pt->state == 1 ? 360 * p->distance * pt->band_error : NAN, pt->courant);
            return -1;
        }
        if (passes(evaluate(s, weights, t), p, t)) pass = t;
        else fail = t;
    }
    while (fail && pass - fail > 1) { /* fail < answer <= pass */
        int mid = (fail + pass) / 2;
        if (passes(evaluate(s, weights, mid), p, mid)) pass = mid;
        else fail = mid;
    }
    const struct sample *pt = evaluate(s, weights, pass);
    memset(a, 0, sizeof *a);
    a->s = s, a->weights = weights, a->courant = pt->courant, a->ppw = pass / 10.0;
    memcpy(a->w, pt->w, sizeof a->w);
    memcpy(a->dir, pt->dir, sizeof a->dir);
    a->vp_error = pt->vp_error;
    a->steps = steps_for(p->distance, a->ppw, a->courant);
    a->phase_deg = 360 * (double)a->steps * a->courant / a->ppw * fabs(pt->vp_error);
    a->band_phase_deg = 360 * (double)a->steps * a->courant / a->ppw * pt->band_error;
    a->amplitude_left = pow(pt->amplitude, (double)a->steps);
    a->cells = 1;
    for (int d = 0; d < 3; d++) {
        a->grid[d] = (int)ceil(p->size[d] * a->ppw - 1e-9);
        a->cells *= a->grid[d];
    }
    return 0;
}

/* ---- the throughput reader ------------------------------------------------------------- */

enum { C_CODE, C_TABLE, C_SCHEME, C_DEVICE, C_PRECISION, C_COEF, C_NX, C_NY, C_NZ, C_RATE, C_DATE, NCOLS,
       C_VARIANT = NCOLS, C_BLOCK, C_NODES, C_ROWS, C_STAGES, C_REGS, C_THREADS, C_PML, C_TSTEPS, C_SLABS, NALL }; /* from NCOLS on: optional */
static const char *const col_names[NALL] = {
    STEP_COL_CODE, STEP_COL_TABLE, STEP_COL_SCHEME, STEP_COL_DEVICE, STEP_COL_PRECISION, STEP_COL_COEF,
    STEP_COL_NX,   STEP_COL_NY,    STEP_COL_NZ,     STEP_COL_CELLS_PER_S, STEP_COL_DATE, STEP_COL_VARIANT,
    STEP_COL_BLOCK, STEP_COL_NODES, STEP_COL_ROWS, STEP_COL_STAGES, STEP_COL_REGS, STEP_COL_THREADS, STEP_COL_PML, STEP_COL_TSTEPS,
    STEP_COL_SLABS};

/* Splits a CSV line in place at commas (the suite writes no quoted fields); returns the count. */
static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *c = line; n < max;) {
        f[n++] = c;
        c = strchr(c, ',');
        if (!c) break;
        *c++ = '\0';
    }
    return n;
}

/* 1 if a step row is a temporally blocked variant's: by its variant where this build has that
 * device's kernels, else (a build without CUDA reading a GPU's rows) by its steps a pass. */
static int row_temporal(int device, char **fields, const int *at)
{
    return (at[C_VARIANT] >= 0 && step_temporal(device, fields[at[C_VARIANT]])) ||
           (at[C_TSTEPS] >= 0 && atoi(fields[at[C_TSTEPS]]) > 1);
}

/* What a row of variant `variant` says of its step's throughput and launch (t), read from its fields. */
static void row_throughput(char **fields, const int *at, const char *path, double rate, const char *variant,
                           struct throughput *t)
{
    t->cells_per_s = rate;
    snprintf(t->source, sizeof t->source, "%s table of %.200s: grid %sx%sx%s; %s", STEP_TABLE, path, fields[at[C_NX]],
             fields[at[C_NY]], fields[at[C_NZ]], fields[at[C_DATE]]);
    snprintf(t->variant, sizeof t->variant, "%s", variant);
    t->have_launch = at[C_BLOCK] >= 0 && at[C_NODES] >= 0 &&
                     sscanf(fields[at[C_BLOCK]], "%dx%dx%d", &t->block[0], &t->block[1], &t->block[2]) == 3;
    t->nodes = t->have_launch ? atoi(fields[at[C_NODES]]) : 0;
    t->rows = t->have_launch && at[C_ROWS] >= 0 ? atoi(fields[at[C_ROWS]]) : 0;
    t->stages = t->have_launch && at[C_STAGES] >= 0 ? atoi(fields[at[C_STAGES]]) : 0;
    t->regs = t->have_launch && at[C_REGS] >= 0 ? atoi(fields[at[C_REGS]]) : 0;
    t->threads = at[C_THREADS] >= 0 ? atoi(fields[at[C_THREADS]]) : 0;
    t->tsteps = at[C_TSTEPS] >= 0 ? atoi(fields[at[C_TSTEPS]]) : 1;
}

int cost_throughput_from_results(const char *results_dir, const char *machine, const struct scheme *s, int device,
                                 int precision, int coef, int pml, const char *temporal, double cells,
                                 struct throughput *t)
{
    enum { MAXF = 128, MAXV = 16 };
    /* per variant, its row nearest the problem's grid (any within COST_SAME_GRID as near as the
     * grid itself), the newest of those, the fastest of those (a newer row of a variant supersedes
     * its older ones; rows of two variants are alternatives) */
    struct { double score, rate; char date[64]; struct throughput t; } best[MAXV];
    int nv = 0;
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/%s/%s", results_dir, machine, STEP_FOLDER);
    DIR *d = opendir(dir);
    if (!d) return -1;
    char *line = NULL;
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        int at[NALL], nf, ok = getline(&line, &cap, f) > 0;
        char *fields[MAXF];
        nf = ok ? split_csv(line, fields, MAXF) : 0;
        for (int c = 0; c < NALL && ok; c++) {
            at[c] = -1;
            for (int i = 0; i < nf; i++)
                if (!strcmp(fields[i], col_names[c])) at[c] = i;
            ok = at[c] >= 0 || c >= NCOLS; /* not a table with these columns: not a step table */
        }
        while (ok && getline(&line, &cap, f) > 0) {
            nf = split_csv(line, fields, MAXF);
            int usable = 1;
            for (int c = 0; c < NALL; c++) usable &= at[c] < nf;
            if (!usable || strcmp(fields[at[C_TABLE]], STEP_TABLE) || strcmp(fields[at[C_CODE]], STEP_CODE) ||
                strcmp(fields[at[C_SCHEME]], s->name) ||
                strcmp(fields[at[C_DEVICE]], device_names[device]) ||
                strcmp(fields[at[C_PRECISION]], precision_names[precision]) ||
                strcmp(fields[at[C_COEF]], coef_names[coef]) || (at[C_PML] >= 0 ? atoi(fields[at[C_PML]]) : 0) != pml ||
                (temporal ? at[C_VARIANT] < 0 || strcmp(fields[at[C_VARIANT]], temporal) : row_temporal(device, fields, at)) ||
                (at[C_SLABS] >= 0 && atoi(fields[at[C_SLABS]]) > 1))
                continue;
            double g = atof(fields[at[C_NX]]) * atof(fields[at[C_NY]]) * atof(fields[at[C_NZ]]);
            double rate = atof(fields[at[C_RATE]]), score = fabs(log(g / cells));
            if (score <= log(COST_SAME_GRID)) score = 0;
            const char *date = fields[at[C_DATE]], *variant = at[C_VARIANT] >= 0 ? fields[at[C_VARIANT]] : STEP_COMPONENTS;
            if (!(rate > 0) || !(g > 0)) continue;
            int v = 0;
            while (v < nv && strcmp(best[v].t.variant, variant)) v++;
            if (v == nv) {
                if (nv == MAXV) continue;
                best[nv].score = INFINITY, best[nv].rate = 0, best[nv].date[0] = '\0';
                snprintf(best[nv++].t.variant, sizeof best[0].t.variant, "%s", variant);
            }
            int nearer = score < best[v].score - 1e-9, same = fabs(score - best[v].score) <= 1e-9;
            int newer = same && strcmp(date, best[v].date) > 0;
            int faster = same && !strcmp(date, best[v].date) && rate > best[v].rate;
            if (nearer || newer || faster) {
                best[v].score = score, best[v].rate = rate;
                snprintf(best[v].date, sizeof best[v].date, "%s", date);
                row_throughput(fields, at, path, rate, variant, &best[v].t);
            }
        }
        fclose(f);
    }
    free(line);
    closedir(d);
    int pick = -1; /* the nearest variant's row, the fastest of those as near */
    for (int v = 0; v < nv; v++)
        if (pick < 0 || best[v].score < best[pick].score - 1e-9 ||
            (fabs(best[v].score - best[pick].score) <= 1e-9 && best[v].rate > best[pick].rate))
            pick = v;
    if (pick < 0) return -1;
    *t = best[pick].t;
    return 0;
}

/* ---- validation by simulation ---------------------------------------------------------- */

/* The wave of mode m on grid g: its cells per wavelength and unit direction. */
static double mode_wave(const int m[3], const int g[3], double dir[3])
{
    double k[3], k2 = 0;
    for (int d = 0; d < 3; d++) k[d] = 2 * PI * m[d] / g[d], k2 += k[d] * k[d];
    for (int d = 0; d < 3; d++) dir[d] = k2 > 0 ? k[d] / sqrt(k2) : 0;
    return k2 > 0 ? 2 * PI / sqrt(k2) : INFINITY;
}

int cost_mode(const struct cost_answer *a, int mode[3], char *why, size_t n)
{
    double best = -1;
    for (int c = 0; c < 8; c++) {
        int m[3], self_conjugate = 1;
        for (int d = 0; d < 3; d++) {
            double x = a->grid[d] * fabs(a->dir[d]) / a->ppw;
            m[d] = (int)(c >> d & 1 ? ceil(x - 1e-9) : floor(x + 1e-9));
            self_conjugate &= 2 * m[d] % a->grid[d] == 0;
        }
        double dir[3], vp, amp, ppw = mode_wave(m, a->grid, dir);
        char err[256];
        if (self_conjugate || !isfinite(ppw) || ppw < a->ppw * (1 - 1e-9) ||
            phase_velocity_error(a->s, a->w, dir, ppw, a->courant, &vp, &amp, err, sizeof err))
            continue;
        if (fabs(vp) > best) best = fabs(vp), memcpy(mode, m, sizeof m);
    }
    if (best >= 0) return 0;
    snprintf(why, n, "%s: the %dx%dx%d grid holds no wave of at least N = %.1f cells per wavelength near the worst "
             "direction (%.2f, %.2f, %.2f): a larger domain", a->s->name, a->grid[0], a->grid[1], a->grid[2], a->ppw,
             a->dir[0], a->dir[1], a->dir[2]);
    return -1;
}

int cost_simulate(const struct cost_answer *a, const struct step_config *c, const int mode[3], struct cost_run *r,
                  char *why, size_t n)
{
    struct step_config sc = *c;
    sc.s = a->s, sc.w = a->w, sc.courant = a->courant, sc.boundary = BOUNDARY_PERIODIC;
    memset(r, 0, sizeof *r);
    memcpy(r->grid, sc.grid, sizeof r->grid);
    memcpy(r->mode, mode, sizeof r->mode);
    double dir[3], vp, amp, theta, measured_amp;
    r->mode_ppw = mode_wave(mode, sc.grid, dir);
    if (phase_velocity_error(a->s, a->w, dir, r->mode_ppw, a->courant, &vp, &amp, why, n)) return -1;
    if (a->steps > 0x7fffffff) {
        snprintf(why, n, "%s: %lld steps, more than one run takes", a->s->name, a->steps);
        return -1;
    }
    if (sim_mode_timed(&sc, mode, (int)a->steps, &theta, &measured_amp, &r->seconds, why, n)) return -1;
    double steps = (double)a->steps, exact = 2 * PI / r->mode_ppw * a->courant; /* |k| c dt / Delta per step */
    r->predicted_deg = 360 * steps * a->courant / r->mode_ppw * fabs(vp);
    r->measured_deg = fabs(exact - theta) * steps * 180 / PI;
    r->predicted_loss = 1 - pow(amp, steps);
    r->measured_loss = 1 - pow(measured_amp, steps);
    return 0;
}

int cost_phase_agrees(const struct cost_run *r, double budget_deg)
{
    return r->measured_deg <= budget_deg &&
           fabs(r->measured_deg - r->predicted_deg) <= COST_PHASE_TOLERANCE * r->predicted_deg;
}

_Static_assert(COST_RUN_ROUNDS % 2 == 1, "COST_RUN_ROUNDS odd: the median is one round's");

static int by_ratio(const void *x, const void *y)
{
    const double a = ((const struct cost_round *)x)->ratio, b = ((const struct cost_round *)y)->ratio;
    return (a > b) - (a < b);
}

struct cost_round cost_run_rounds(double work, const double rates[COST_RUN_ROUNDS + 1],
                                  const double seconds[COST_RUN_ROUNDS])
{
    struct cost_round r[COST_RUN_ROUNDS];
    for (int k = 0; k < COST_RUN_ROUNDS; k++) {
        const double before = seconds[k] * rates[k] / work, after = seconds[k] * rates[k + 1] / work;
        const int b = fabs(before - 1) <= fabs(after - 1);
        r[k] = (struct cost_round){k, work / rates[k + !b], rates[k + !b], b ? before : after};
    }
    qsort(r, COST_RUN_ROUNDS, sizeof *r, by_ratio);
    return r[COST_RUN_ROUNDS / 2];
}
