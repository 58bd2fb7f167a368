/* fdtdbench cost: for a problem (domain, distance, phase-error budget), the coarsest resolution
 * each scheme may run at, and what that costs here: cells, steps, memory, predicted time, and
 * the ratios to Yee's. The model is cost.c; this file is options, throughput and output. */
#define _POSIX_C_SOURCE 200809L /* dirent */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cost.h"
#include "design.h"
#include "measure.h"
#include "metrics.h"
#include "pml.h"
#include "session.h"
#include "simulate.h"
#include "step_measure.h"

/* A constant's value in the help text (its digits, as the header writes them). */
#define NUMBER_TEXT(x) NUMBER_TEXT_(x)
#define NUMBER_TEXT_(x) #x

static const char usage[] =
    "usage: fdtdbench cost --size LX[xLYxLZ] [--distance D] [--phase-error DEG[,DEG...]]\n"
    "                      [--device cpu|gpu] [--precision f32|f64] [--coef array|uniform]\n"
    "                      [--scheme S[,S...]] [--measure] [--machine NAME] [--results DIR]\n"
    "                      [--memory GB] [--pml N] [--run] [--csv] [--save]\n"
    "\n"
    "What accuracy costs: for a domain of LX x LY x LZ wavelengths and a wave that travels D of\n"
    "them, each scheme's coarsest resolution N (cells per wavelength, to 0.1) whose phase error in\n"
    "its worst direction stays within the budget after D wavelengths, also at every resolution up to\n"
    "2N (a wave's lower frequencies), at the scheme's Courant number\n"
    "(that of fdtdbench dispersion: 0.5, S44 0.2); FV24, FV24-WB and S{2,2} twice: with the default\n"
    "design point's weights (N_d = 20) and with weights designed for N itself. Then the cells,\n"
    "steps, memory of a full step (every field on every time level, and the coefficient arrays)\n"
    "and the run time predicted from this machine's full-step throughput, with ratios to Yee.\n"
    "\n"
    "Throughput: the committed full-step rows (table 'step') of the device's results folder for the\n"
    "same scheme, precision, storage and layer, at the grid nearest the problem's (any within a factor\n"
    "of " NUMBER_TEXT(COST_SAME_GRID) " in cells as near as the grid itself; of each variant its newest row there, then the fastest\n"
    "variant's); else --measure: every one-step variant of the device\n"
    "(components, fused, on a GPU fused25d) measured now on the problem's grid, the fastest kept.\n"
    "Where the device has a temporally blocked step (wave, and on a GPU wave25d for the schemes it takes:\n"
    "several steps per pass over memory), each scheme also gets a row stepped by it (that variant's\n"
    "committed rows alone, at the grid nearest the problem's, or measured with --measure), its time\n"
    "against Yee's such row; not with --pml or --run.\n"
    "With --pml N, each scheme's grid grows by a CPML of N cells on every face, and its time and memory\n"
    "are those of full steps with the layer (fdtdbench step --pml N): the layer charged to each scheme.\n\n";

enum { MAX_BUDGETS = 64, MAX_ANSWERS = MAX_BUDGETS * MAX_SCHEMES * 2 }; /* MAX_SCHEMES: spec.h */

/* make bench's measured steps, kept as step rows (RESULTS/<machine>/steps/cost-steps-<date>.csv)
 * where the cost command reads rows, so that it answers from these and not from older rows at the
 * problems' grids. */
struct saved_steps {
    struct results_file rf;
    int rows;
};

struct opts {
    struct cost_problem p;   /* budget_deg: the first of budgets */
    double budgets[MAX_BUDGETS];
    int nbudgets, distance_given, save, run;
    int pml; /* cells of CPML on every face, around the domain (0: the closed box) */
    int device, precision, coef;
    enum { TEXT, CSV, MARKDOWN } format;
    enum { FROM_RESULTS, MEASURE, RESULTS_ELSE_MEASURE } source;
    const struct scheme *only[MAX_SCHEMES];
    int nonly;
    const char *machine, *results;
    double memory_gb;
    struct saved_steps *saved; /* where measured steps go as step rows (make bench), or NULL */
};

/* ---- input ----------------------------------------------------------------------------- */

/* "L" or "LXxLYxLZ", each a number above 0. */
static void parse_size(const char *v, double out[3])
{
    const char *at = v;
    char *end = NULL;
    int n = 0, ok = 1;
    while (ok && n < 3) {
        out[n] = strtod(at, &end);
        ok = end != at && out[n] > 0 && out[n] <= 1e5; /* 1e5 wavelengths at 1000 cells each: an int */
        n++;
        if (!ok || *end != 'x') break;
        at = end + 1;
    }
    if (!ok || *end || (n != 1 && n != 3))
        cli_error("--size: '%s' is not L or LXxLYxLZ with each size in wavelengths above 0, at most 1e5", v);
    if (n == 1) out[1] = out[2] = out[0];
}

static double parse_budget(const char *v)
{
    char *end;
    double b = strtod(v, &end);
    if (end == v || *end || !(b > 0 && b < 180))
        cli_error("--phase-error: '%s' is not a number of degrees above 0 and below 180", v);
    return b;
}

/* The device asked for is not here and no --machine was given: one line that names the machines
 * of that device whose committed rows --machine could answer from. */
static _Noreturn void no_device(const struct opts *o, const char *why)
{
    char list[512] = "";
    struct dirent **e = NULL;
    const int n = scandir(o->results, &e, NULL, alphasort), len = (int)strlen(device_names[o->device]);
    for (int i = 0; i < n; i++) {
        char steps[1024];
        snprintf(steps, sizeof steps, "%s/%s/" STEP_FOLDER, o->results, e[i]->d_name);
        DIR *d = strncmp(e[i]->d_name, device_names[o->device], len) || e[i]->d_name[len] != '-' ? NULL : opendir(steps);
        if (d) {
            closedir(d);
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "", e[i]->d_name);
        }
        free(e[i]);
    }
    free(e);
    if (list[0])
        cli_error("cost: the %s is not usable here (%s); --machine NAME answers from the committed rows of %s/NAME "
                  "(%s)", device_names[o->device], why, o->results, list);
    cli_error("the %s is not usable: %s", device_names[o->device], why);
}

static int wanted(const struct opts *o, const struct scheme *s)
{
    if (!o->nonly) return 1;
    for (int i = 0; i < o->nonly; i++)
        if (o->only[i] == s) return 1;
    return 0;
}

/* ---- throughput ------------------------------------------------------------------------ */

/* A full step measured now with the step engine (fdtdbench step's path): `variant` on the
 * problem's grid, or where that is over cap cells a cube of the cap (256^3 on the CPU, 512^3 on a
 * GPU) or what fits; vacuum at 0.9 of the stability limit; its row into o->saved where there is
 * one. The configuration goes into t, for --run to repeat. */
static int measure_full_step(const struct opts *o, struct session *se, const struct scheme *s, const char *variant,
                             const int grid[3], int steps, struct throughput *t, char *why, size_t n)
{
    const int precision = o->precision, coef = o->coef, pml = o->pml;
    int cap = se->device == DEV_CPU ? 256 : 512, side = cap;
    double w[MAX_GROUPS];
    struct step_run c = {.variant = variant, .steps = steps, .reps = 3, .no_reflection = 1}; /* the step table's rows have it */
    if (o->run) c.min_sample_s = STEP_SAMPLE_SECONDS; /* the run's samples: see run_sample_steps */
    c.c = (struct step_config){.b = se->b, .s = s, .precision = precision, .coef = coef,
                               .variant = step_kernel_variant(se->device, variant), .grid = {side, side, side},
                               .boundary = pml ? BOUNDARY_PEC : BOUNDARY_PERIODIC, .pml = pml,
                               .pml_order = PML_ORDER_DEFAULT};
    if (step_vacuum(&c.c, w, why, n)) return -1;
    if ((double)grid[0] * grid[1] * grid[2] <= (double)cap * cap * cap) memcpy(c.c.grid, grid, sizeof c.c.grid);
    step_default_launch(se, &c);
    while (side > 16 && side * 3 / 4 >= 3 * pml && step_fits(&c, &se->desc, why, n))
        side = side * 3 / 4, c.c.grid[0] = c.c.grid[1] = c.c.grid[2] = side;
    step_prepare(&c.c); /* its kernels compiled in parallel, as fdtdbench step does */
    struct step_result r;
    fprintf(stderr, "cost: measuring %s %s (full steps, %dx%dx%d, layer %d) ... ", s->name, variant, c.c.grid[0],
            c.c.grid[1], c.c.grid[2], pml);
    if (step_measure(&c, &se->desc, &r, why, n)) {
        fprintf(stderr, "FAILED: %s\n", why);
        return -1;
    }
    if (o->saved) {
        step_row(o->saved->rf.f, STEP_TABLE, &c, &r, &se->desc);
        results_check(&o->saved->rf);
        o->saved->rows++;
    }
    const struct step_record m = {"cost", &c, &r, &se->desc};
    memset(t, 0, sizeof *t);
    t->cells_per_s = step_num(STEP_cells_per_s, &m);
    fprintf(stderr, "samples of %d steps, %.3g s: %.6g Mcells/s\n", r.steps, r.steps * r.median_ms / 1e3,
            t->cells_per_s / 1e6);
    snprintf(t->source, sizeof t->source, "measured now: %dx%d steps of %s on %dx%dx%d%s (median)", c.reps, r.steps,
             c.variant, c.c.grid[0], c.c.grid[1], c.c.grid[2], pml ? " with the layer" : "");
    snprintf(t->variant, sizeof t->variant, "%s", c.variant);
    t->have_launch = 1, t->nodes = c.c.nodes, t->rows = c.c.rows, t->stages = c.c.stages, t->regs = c.c.regs;
    t->threads = c.threads;
    t->tsteps = step_tsteps(&c.c);
    memcpy(t->block, c.c.block, sizeof t->block);
    return 0;
}

/* The step of one pass that a measurement gives a problem: every one-step variant of the device
 * that takes it (components, then the fused ones) measured, the fastest kept, as the results'
 * rule keeps the fastest variant's row. On this project's CPU at 300^3 the fused step ran up to
 * 1.8x components (FV24 uniform 336 against 189 MCells/s), and the GPU's fused25d up to 1.3x
 * fused, so a measurement of components alone ranked the schemes by the slower kernels. */
static int measure_fastest(const struct opts *o, struct session *se, const struct scheme *s, const int grid[3],
                           int steps, struct throughput *t, char *why, size_t n)
{
    const char *v[8];
    const int nv = step_variants(o->device, v, 8);
    int measured = 0, tried = 0;
    for (int i = 0; i < nv; i++) {
        const struct step_config c = {.b = se->b, .s = s, .variant = step_kernel_variant(o->device, v[i]),
                                      .precision = o->precision, .coef = o->coef, .pml = o->pml};
        struct throughput one;
        if (step_temporal(o->device, v[i]) || !step_supported(&c)) continue;
        tried++;
        /* one variant that fails (its line says why) leaves the others' answer */
        if (measure_full_step(o, se, s, v[i], grid, steps, &one, why, n)) continue;
        if (!measured++ || one.cells_per_s > t->cells_per_s) *t = one;
    }
    if (!tried) snprintf(why, n, "no one-step variant on the %s takes it", device_names[o->device]);
    return measured ? 0 : -1;
}

/* Each scheme's measured throughput: once per scheme, at its first answer's size; with --run,
 * once per grid, at that grid. */
enum { MAX_RATES = MAX_SCHEMES * 4 };
struct rates {
    const struct scheme *s[MAX_RATES];
    double cells[MAX_RATES];
    int temporal[MAX_RATES];
    struct throughput t[MAX_RATES];
    int n;
};

/* The device's temporally blocked step variant for scheme s on backend b (s NULL: any), NULL if
 * it has none: the last in table order that takes s (a GPU's wave25d, whose levels stay on chip,
 * before its wave). */
static const char *temporal_variant(int device, const struct backend *b, const struct scheme *s, int precision, int coef)
{
    const char *v[8], *found = NULL;
    const int n = step_fused_variants(device, v, 8);
    for (int i = 0; i < n; i++) {
        const struct step_config c = {.b = b, .s = s, .variant = v[i], .precision = precision, .coef = coef};
        if (step_temporal(device, v[i]) && (!s || step_supported(&c))) found = v[i];
    }
    return found;
}

/* The grid a problem steps: the answer's domain with the layer (o->pml cells) on every face; its
 * cells. */
static double stepped_grid(const struct opts *o, const struct cost_answer *a, int grid[3])
{
    double cells = 1;
    for (int d = 0; d < 3; d++) grid[d] = a->grid[d] + 2 * o->pml, cells *= grid[d];
    return cells;
}

/* With --run, a tenth of the run's steps a sample: prediction and run are then independent
 * samples of the same steps on the same grid; and at least STEP_SAMPLE_SECONDS a sample
 * (measure_full_step's min_sample_s): on the 30^3 and 39^3 grids a tenth is the floor of 10 steps,
 * 3-5 ms, which read 57-87 Mcells/s against the run's 135 in one call of 102 steps. */
static int run_sample_steps(const struct cost_answer *a) { return (int)fmax(10, fmin(1000, (double)a->steps / 10)); }

/* The throughput of a's step: of one step a pass, or (temporal) the temporally blocked step's,
 * which is 0, with *out, or -1 where only committed results serve and they have none. */
static int throughput_of(const struct opts *o, struct session *se, const char *machine, struct rates *r,
                         const struct cost_answer *a, int temporal, struct throughput *out)
{
    char why[512];
    int grid[3];
    double cells = stepped_grid(o, a, grid);
    /* the temporally blocked variant that would be measured: its rows alone serve (NULL: any
     * variant's of one step a pass) */
    const char *variant = temporal ? temporal_variant(o->device, device_backend(o->device), a->s, o->precision, o->coef)
                                    : NULL;
    if (o->source != MEASURE && !cost_throughput_from_results(o->results, machine, a->s, o->device, o->precision,
                                                              o->coef, o->pml, variant, cells, out))
        return 0;
    char layer[48] = "";
    if (o->pml) snprintf(layer, sizeof layer, ", a %d-cell layer", o->pml);
    if (o->source == FROM_RESULTS && temporal) return -1; /* a row the results may not have */
    if (o->source == FROM_RESULTS)
        cli_error("cost: no full-step throughput for %s on the %s (%s, %s%s) under %s/%s/" STEP_FOLDER
                  ": run fdtdbench step%s, or give --measure",
                  a->s->name, device_names[o->device], precision_names[o->precision], coef_names[o->coef], layer,
                  o->results, machine, o->pml ? " --pml" : "");
    int i = 0;
    while (i < r->n && !(r->s[i] == a->s && r->temporal[i] == temporal && (!o->run || r->cells[i] == a->cells))) i++;
    if (i == r->n) {
        if (r->n == MAX_RATES) cli_error("cost: more than %d measurements", MAX_RATES);
        const int steps = o->run ? run_sample_steps(a) : 0; /* 0: step_measure's */
        if (temporal ? measure_full_step(o, se, a->s, variant, grid, steps, &r->t[i], why, sizeof why)
                     : measure_fastest(o, se, a->s, grid, steps, &r->t[i], why, sizeof why))
            cli_error("cost: measuring %s: %s", a->s->name, why);
        r->s[i] = a->s, r->cells[i] = a->cells, r->temporal[i] = temporal, r->n++;
    }
    *out = r->t[i];
    return 0;
}

/* ---- output ---------------------------------------------------------------------------- */

static FILE *out; /* stdout, or the file --save writes */

struct row {
    const struct cost_answer *a, *yee;
    double budget, bytes_per_cell, memory, time_s, yee_time, yee_memory;
    int grid[3];  /* stepped: the domain, and the layer around it */
    double cells;
    struct throughput t;
    int fits; /* 1, 0, or -1 unknown */
    int ran;  /* --run: run holds the run */
    struct cost_run run;
    int temporal; /* the temporally blocked step's row (wave.h), beside the one-step row */
};

/* What stepped a row: its throughput's variant, with its steps per pass if more than one. */
static const char *step_label(const struct row *w)
{
    static char s[64];
    if (w->t.tsteps > 1) snprintf(s, sizeof s, "%s, %d/pass", w->t.variant, w->t.tsteps);
    else snprintf(s, sizeof s, "%s", w->t.variant);
    return s;
}

static const char *weights_label(const struct cost_answer *a)
{
    if (a->s->weights == WEIGHTS_FIXED) return "spec";
    return a->weights == COST_DESIGN_FOR_N ? "N_d=N" : "N_d=20";
}

/* The bench's rule for a run: its wall time within COST_TIME_TOLERANCE of the prediction. */
static int time_agrees(const struct row *w)
{
    return fabs(w->run.seconds / w->time_s - 1) <= COST_TIME_TOLERANCE;
}

static const char csv_header[] =
    "phase_budget_deg,distance_wavelengths,size_wavelengths,scheme,weights,courant,ppw,theta_deg,phi_deg,"
    "worst_vp_error,phase_error_deg,band_phase_error_deg,amplitude_left,nx,ny,nz,cells,steps,bytes_per_cell,"
    "memory_bytes,fits,device,precision,coef,pml,step_variant,tsteps,cells_per_s,time_s,time_vs_yee,memory_vs_yee,run_variant,run_mode,"
    "run_mode_ppw,run_phase_predicted_deg,run_phase_deg,run_phase_ok,run_s,run_vs_predicted,run_time_ok,"
    "throughput_source";

static void csv_row(const struct opts *o, const struct row *w)
{
    const struct cost_answer *a = w->a;
    double t, ph;
    angles_from_direction(a->dir, &t, &ph);
    fprintf(out, "%g,%.6g,%gx%gx%g,%s,%s,%g,%.1f,%.2f,%.2f,%.6e,%.6g,%.6g,%.9f,", w->budget, o->p.distance,
            o->p.size[0], o->p.size[1], o->p.size[2], a->s->name, weights_label(a), a->courant, a->ppw, t, ph,
            a->vp_error, a->phase_deg, a->band_phase_deg, a->amplitude_left);
    fprintf(out, "%d,%d,%d,%.0f,%lld,%g,%.6g,%s,%s,%s,%s,%d,%s,%d,%.6g,%.6g,%.4g,%.4g,", w->grid[0], w->grid[1],
            w->grid[2], w->cells, a->steps, w->bytes_per_cell, w->memory, w->fits < 0 ? "" : w->fits ? "1" : "0",
            device_names[o->device], precision_names[o->precision], coef_names[o->coef], o->pml, w->t.variant,
            w->t.tsteps > 0 ? w->t.tsteps : 1, w->t.cells_per_s, w->time_s, w->time_s / w->yee_time,
            w->memory / w->yee_memory);
    const struct cost_run *r = &w->run;
    if (w->ran)
        fprintf(out, "%s,%dx%dx%d,%.4f,%.6g,%.6g,%d,%.6g,%.4f,%d,", w->t.variant, r->mode[0], r->mode[1], r->mode[2],
                r->mode_ppw, r->predicted_deg, r->measured_deg, cost_phase_agrees(r, w->budget), r->seconds,
                r->seconds / w->time_s, time_agrees(w));
    else
        fprintf(out, ",,,,,,,,,");
    fprintf(out, "%s\n", w->t.source);
}

/* 1.23 s, 4.5 min, 2.1 h, 3.4 d */
static const char *human_time(double s, char *buf, size_t n)
{
    if (s < 120) snprintf(buf, n, "%.3g s", s);
    else if (s < 7200) snprintf(buf, n, "%.3g min", s / 60);
    else if (s < 172800) snprintf(buf, n, "%.3g h", s / 3600);
    else snprintf(buf, n, "%.3g d", s / 86400);
    return buf;
}

static void text_header(const struct opts *o, double budget, const char *memory_note)
{
    char layer[96] = "";
    if (o->pml) snprintf(layer, sizeof layer, "; a %d-cell CPML on every face charged (cells include it)", o->pml);
    fprintf(out, "\nProblem: %gx%gx%g wavelengths, distance %.4g wavelengths%s, worst-direction phase-error budget %g "
           "degrees; %s, %s, %s coefficients%s%s\n",
           o->p.size[0], o->p.size[1], o->p.size[2], o->p.distance, o->distance_given ? "" : " (the diagonal)", budget,
           device_names[o->device], precision_names[o->precision], coef_names[o->coef], layer, memory_note);
    fprintf(out, "%-8s %-7s %-16s %5s %7s %13s %9s %10s %9s %8s %6s %10s %10s %9s %8s  %s\n", "scheme", "weights",
            "step", "S", "N", "worst th,ph", "phase", "amplitude", "cells", "steps", "B/cell", "memory", "time",
            "time/Yee", "mem/Yee", "fits");
}

static void text_row(const struct opts *o, const struct row *w, double memory_bytes)
{
    const struct cost_answer *a = w->a;
    double t, ph;
    char dir[32], tb[32], fits[96];
    angles_from_direction(a->dir, &t, &ph);
    snprintf(dir, sizeof dir, "%.0f,%.0f", t, ph);
    if (w->fits < 0) snprintf(fits, sizeof fits, "?");
    else if (w->fits) snprintf(fits, sizeof fits, "yes");
    else
        snprintf(fits, sizeof fits, "NO: needs %.3g GB, over 80%% of the %s's %.3g GB", w->memory / 1e9,
                 device_names[o->device], memory_bytes / 1e9);
    fprintf(out, "%-8s %-7s %-16s %5g %7.1f %13s %8.3g° %10.6g %9.3g %8lld %6.4g %7.3g GB %10s %9.3g %8.3g  %s\n",
           a->s->title, weights_label(a), step_label(w), a->courant, a->ppw, dir, a->phase_deg, a->amplitude_left, w->cells, a->steps,
           w->bytes_per_cell, w->memory / 1e9, human_time(w->time_s, tb, sizeof tb), w->time_s / w->yee_time,
           w->memory / w->yee_memory, fits);
}

static void markdown_header(const struct opts *o, double budget, const char *memory_note)
{
    char layer[96] = "";
    if (o->pml) snprintf(layer, sizeof layer, ", a %d-cell CPML on every face charged (cells include it)", o->pml);
    fprintf(out, "\n#### %gx%gx%g wavelengths, %g degrees over %.4g wavelengths%s (%s, %s, %s coefficients%s%s)\n\n",
           o->p.size[0], o->p.size[1], o->p.size[2], budget, o->p.distance, o->distance_given ? "" : ", the diagonal",
           device_names[o->device], precision_names[o->precision], coef_names[o->coef], layer, memory_note);
    fprintf(out, "| scheme | weights | step | S | N | phase error (up to 2N) | cells | steps | bytes/cell | memory "
                 "| predicted time | time / Yee | memory / Yee | fits |\n"
                 "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

static void markdown_row(const struct row *w)
{
    const struct cost_answer *a = w->a;
    char tb[32];
    fprintf(out, "| %s | %s | %s | %g | %.1f | %.3g° (%.3g°) | %.3g | %lld | %.4g | %.3g GB | %s | %.3g | %.3g | %s |\n",
           a->s->title, weights_label(a), step_label(w), a->courant, a->ppw, a->phase_deg, a->band_phase_deg, w->cells, a->steps,
           w->bytes_per_cell, w->memory / 1e9, human_time(w->time_s, tb, sizeof tb), w->time_s / w->yee_time,
           w->memory / w->yee_memory, w->fits < 0 ? "?" : w->fits ? "yes" : "**no**");
}

/* The paper's kind of claim, "FV24 goes k times farther than Yee for the same error": at Yee's
 * N for this problem and S = 0.5, the ratio of the distances over which each accumulates the
 * same phase error in its worst direction (FV24 at the default design point). */
static void farther(const struct cost_answer *yee)
{
    const struct scheme *fv24 = scheme_find("fv24");
    double w[MAX_GROUPS], d[3], vp, amp;
    char err[256];
    if (!fv24 || scheme_weights(fv24, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err) ||
        worst_direction_error(fv24, w, yee->ppw, yee->courant, d, &vp, &amp, err, sizeof err))
        return;
    fprintf(out, "\nSame error, same grid: at Yee's N = %.1f and S = %g, FV24 (N_d = 20) accumulates a given "
           "phase error in its worst direction over %.3g times Yee's distance (|v_p/c - 1| %.3g against %.3g).\n",
           yee->ppw, yee->courant, fabs(yee->vp_error / vp), fabs(vp), fabs(yee->vp_error));
}

/* --run's table: each answer run, its phase error against the budget and the prediction for the
 * wave run, its wall time against the predicted one. */
static void run_table(const struct opts *o, const struct row *rows, int n)
{
    const int md = o->format == MARKDOWN;
    fprintf(out, "\nRun (--run): each answer stepped by the step engine on its own grid, periodic, for its steps, "
            "an eigenmode near its worst direction (mode m: k = 2 pi m / grid, no finer than N); phase: measured, "
            "and predicted for that mode (agrees: within the budget and within %.0f%% of the prediction); time: "
            "the steps' wall time against cells x steps / throughput, the median round's of %d runs each between "
            "two measurements, a round's prediction from whichever of its two puts its run nearer (%s: outside "
            "%.0f%%)\n\n",
            100 * COST_PHASE_TOLERANCE, COST_RUN_ROUNDS, md ? "**off**" : "OFF", 100 * COST_TIME_TOLERANCE);
    if (md)
        fprintf(out, "| scheme | weights | N | grid | steps | variant | mode (its N) | phase predicted | phase measured "
                     "| budget | agrees | predicted time | measured time | measured / predicted |\n"
                     "|---|---|---:|---|---:|---|---|---:|---:|---:|---|---:|---:|---:|\n");
    else
        fprintf(out, "%-8s %-7s %7s %12s %6s %-10s %18s %10s %10s %7s %6s %10s %10s %9s\n", "scheme", "weights", "N",
                "grid", "steps", "variant", "mode (its N)", "predicted", "measured", "budget", "agrees", "predicted",
                "measured", "meas/pred");
    for (int i = 0; i < n; i++) {
        const struct row *w = &rows[i];
        const struct cost_answer *a = w->a;
        const struct cost_run *r = &w->run;
        char grid[40], mode[48], tp[32], tm[32], ratio[32];
        snprintf(grid, sizeof grid, "%dx%dx%d", a->grid[0], a->grid[1], a->grid[2]);
        snprintf(mode, sizeof mode, "%d,%d,%d (%.2f)", r->mode[0], r->mode[1], r->mode[2], r->mode_ppw);
        snprintf(ratio, sizeof ratio, "%.3f%s", r->seconds / w->time_s,
                 time_agrees(w) ? "" : md ? " **off**" : " OFF");
        human_time(w->time_s, tp, sizeof tp), human_time(r->seconds, tm, sizeof tm);
        if (md)
            fprintf(out, "| %s | %s | %.1f | %s | %lld | %s | %s | %.4g° | %.4g° | %g° | %s | %s | %s | %s |\n",
                    a->s->title, weights_label(a), a->ppw, grid, a->steps, w->t.variant, mode, r->predicted_deg,
                    r->measured_deg, w->budget, cost_phase_agrees(r, w->budget) ? "yes" : "**no**", tp, tm, ratio);
        else
            fprintf(out, "%-8s %-7s %7.1f %12s %6lld %-10s %18s %9.4g° %9.4g° %6g° %6s %10s %10s %9s\n", a->s->title,
                    weights_label(a), a->ppw, grid, a->steps, w->t.variant, mode, r->predicted_deg, r->measured_deg,
                    w->budget, cost_phase_agrees(r, w->budget) ? "yes" : "NO", tp, tm, ratio);
    }
}

/* --run, before anything is measured or written: every answer's grid fits the device and the
 * engine's halo, and holds a wave near the worst direction no finer than N (cost_mode). */
static void run_check(const struct opts *o, struct session *se, struct row *rows, int n)
{
    char why[512];
    for (int i = 0; i < n; i++) {
        const struct cost_answer *a = rows[i].a;
        struct step_run sr = {.c = {.b = se->b, .s = a->s, .precision = o->precision, .coef = o->coef}};
        memcpy(sr.c.grid, a->grid, sizeof sr.c.grid);
        for (int d = 0; d < 3; d++)
            if (a->grid[d] < STEP_MIN_GRID)
                cli_error("cost: --run: %s's grid %dx%dx%d is under the step engine's %d cells a side: a larger "
                          "domain", a->s->name, a->grid[0], a->grid[1], a->grid[2], STEP_MIN_GRID);
        if (step_fits(&sr, &se->desc, why, sizeof why)) cli_error("cost: --run: %s", why);
        if (cost_mode(a, rows[i].run.mode, why, sizeof why)) cli_error("cost: --run: %s", why);
    }
}

/* --run: one answer run on the session's device in its throughput's configuration (variant,
 * launch, threads): the prediction's. COST_RUN_ROUNDS runs, each between two measurements of that
 * variant's throughput (the first the table's), and the row keeps the median round's
 * (cost_run_rounds): its run, and the throughput next to it that predicts it more nearly. */
static void run_one(const struct opts *o, struct session *se, struct row *row)
{
    char why[512];
    const struct cost_answer *a = row->a;
    const struct throughput *t = &row->t;
    struct step_config c = {.b = se->b, .precision = o->precision, .coef = o->coef,
                            .variant = step_kernel_variant(o->device, t->variant)};
    memcpy(c.grid, a->grid, sizeof c.grid);
    if (t->have_launch) {
        memcpy(c.block, t->block, sizeof c.block);
        c.nodes = t->nodes, c.rows = t->rows, c.stages = t->stages, c.regs = t->regs;
    } else {
        struct run_config rc = {.scheme = a->s, .component = HX, .precision = o->precision, .coef = o->coef,
                                .device = o->device, .variant = c.variant};
        default_launch(se, &rc);
        memcpy(c.block, rc.block, sizeof c.block);
        c.nodes = rc.nodes; /* rows and stages 0: the step's own kernels' default */
    }
    struct opts again = *o;
    again.saved = NULL; /* the cost-steps file keeps the first measurement, as without --run */
    double rates[COST_RUN_ROUNDS + 1] = {t->cells_per_s}, seconds[COST_RUN_ROUNDS];
    const double work = row->cells * (double)a->steps;
    int grid[3];
    stepped_grid(o, a, grid);
    for (int round = 0; round < COST_RUN_ROUNDS; round++) {
        se->b->set_threads(t->threads);
        fprintf(stderr, "cost: running %s (%s, %s) on %dx%dx%d for %lld steps (round %d of %d) ... ", a->s->name,
                weights_label(a), t->variant, a->grid[0], a->grid[1], a->grid[2], a->steps, round + 1,
                COST_RUN_ROUNDS);
        int mode[3];
        memcpy(mode, row->run.mode, sizeof mode);
        if (cost_simulate(a, &c, mode, &row->run, why, sizeof why)) cli_error("cost: --run: %s", why);
        seconds[round] = row->run.seconds;
        fprintf(stderr, "%.4g s (%.3f of the time the throughput before it predicts)\n", seconds[round],
                seconds[round] * rates[round] / work);
        struct throughput now = *t;
        if (measure_full_step(&again, se, a->s, t->variant, grid, run_sample_steps(a), &now, why, sizeof why))
            cli_error("cost: --run: measuring %s: %s", a->s->name, why);
        rates[round + 1] = now.cells_per_s;
    }
    const struct cost_round m = cost_run_rounds(work, rates, seconds);
    row->t.cells_per_s = m.cells_per_s;
    row->time_s = m.predicted_s;
    row->run.seconds = seconds[m.round];
    row->ran = 1;
    char first[sizeof row->t.source];
    snprintf(first, sizeof first, "%s", row->t.source);
    snprintf(row->t.source, sizeof row->t.source,
             "of %d such (one before and after each of %d runs), nearer the median round's run (round %d); "
             "the first: %.200s",
             COST_RUN_ROUNDS + 1, COST_RUN_ROUNDS, m.round + 1, first);
}

/* ---- the command ----------------------------------------------------------------------- */

/* Every row of o's problem, budget by budget: the answers first (bad input and unreachable
 * budgets end before anything is measured), then throughput, memory and time, then the runs.
 * se may be NULL where no device is open (then only committed results serve). Returns the
 * count; nothing is written, so that a refusal leaves no partial file. */
static int compute(const struct opts *o, struct session *se, const char *machine, double memory, struct row **out_rows)
{
    static struct cost_answer ans[MAX_ANSWERS];
    static struct row rows[MAX_ANSWERS];
    int n = 0;
    const struct scheme *yee = scheme_find("yee");
    if (!yee) cli_error("cost: no Yee scheme built in (the reference)");
    /* the temporally blocked step's rows too, where the device has one (not with a layer, which it
     * has no passes for; not run by --run) */
    const int kinds = temporal_variant(o->device, NULL, NULL, 0, 0) && !o->run && !o->pml ? 2 : 1;
    for (int b = 0; b < o->nbudgets; b++) {
        struct cost_problem p = o->p;
        p.budget_deg = o->budgets[b];
        const int yee_at = n, answers = n;
        char why[512];
        for (int i = -1; i < scheme_count(); i++) {
            const struct scheme *s = i < 0 ? yee : scheme_at(i);
            if (i >= 0 && (s == yee || !wanted(o, s))) continue;
            for (int wgt = 0; wgt < (s->weights == WEIGHTS_DESIGNED ? 2 : 1); wgt++) {
                if (n == MAX_ANSWERS) cli_error("cost: too many rows");
                if (cost_resolution(s, (enum cost_weights)wgt, &p, &ans[n], why, sizeof why)) cli_error("%s", why);
                rows[n].a = &ans[n], rows[n].yee = &ans[yee_at], rows[n].budget = p.budget_deg;
                n++;
            }
        }
        for (int i = answers, m = n; kinds > 1 && i < m; i++) { /* the same answers, stepped by it */
            if (n == MAX_ANSWERS) cli_error("cost: too many rows");
            rows[n] = rows[i], rows[n].temporal = 1, rows[n].yee = &ans[yee_at];
            n++;
        }
    }

    if (o->run) run_check(o, se, rows, n);
    struct rates rates = {.n = 0};
    int kept = 0; /* a temporally blocked row whose throughput only committed results give, and they do not: left out */
    for (int i = 0; i < n; i++) {
        if (throughput_of(o, se, machine, &rates, rows[i].a, rows[i].temporal, &rows[i].t)) continue;
        struct row *w = &rows[kept++];
        if (w != &rows[i]) *w = rows[i];
        w->cells = stepped_grid(o, w->a, w->grid);
        struct step_config sc = {.s = w->a->s, .precision = o->precision, .coef = o->coef, .pml = o->pml};
        memcpy(sc.grid, w->grid, sizeof sc.grid);
        w->bytes_per_cell = step_memory_bytes(&sc);
        w->memory = w->cells * w->bytes_per_cell;
        w->time_s = w->cells * (double)w->a->steps / w->t.cells_per_s;
        w->fits = memory > 0 ? memory_fits(w->memory, (size_t)memory) : -1;
        /* right after its own measurement: the same minute of a machine whose speed drifts (on
         * this project's 2-vCPU VM, two-thread runs differ by up to 1.8x from minute to minute) */
        if (o->run) run_one(o, se, w);
    }
    n = kept;
    for (int i = 0; i < n; i++) { /* Yee's row of the same budget and step is the reference */
        const struct row *y = NULL;
        for (int j = 0; j < n && !y; j++)
            if (rows[j].a == rows[i].yee && rows[j].temporal == rows[i].temporal) y = &rows[j];
        rows[i].yee_time = y ? y->time_s : NAN, rows[i].yee_memory = y ? y->memory : NAN;
    }
    *out_rows = rows;
    return n;
}

/* compute()'s rows as the table of o->format, to f. */
static void write_report(const struct opts *o, const struct row *rows, int n, double memory, FILE *f)
{
    out = f;
    char note[160] = "";
    if (!(memory > 0)) snprintf(note, sizeof note, "; device memory unknown (give --memory GB)");
    if (o->format == CSV) fprintf(out, "%s\n", csv_header);
    for (int i = 0; i < n; i++) {
        int first = i == 0 || rows[i].budget != rows[i - 1].budget;
        if (o->format == CSV) {
            csv_row(o, &rows[i]);
            continue;
        }
        if (first && o->format == MARKDOWN) markdown_header(o, rows[i].budget, note);
        if (first && o->format == TEXT) text_header(o, rows[i].budget, note);
        if (o->format == MARKDOWN) markdown_row(&rows[i]);
        else text_row(o, &rows[i], memory);
        if ((i + 1 == n || rows[i + 1].budget != rows[i].budget)) farther(rows[i].yee);
    }
    if (o->format == CSV) return;
    if (o->run) run_table(o, rows, n);
    fprintf(out, "\nN: coarsest cells per wavelength (to 0.1) whose worst-direction phase error stays within the "
           "budget after the distance (phase: at N), and at every resolution up to 2N, at the Courant number S. "
           "Weights N_d=20: the default design point; N_d=N: designed for N. amplitude: |z|^steps (S44 damps). Step: the "
           "variant the throughput was measured with (wave: temporally blocked, its steps per pass; its rows are "
           "against Yee's wave row). Memory: the step's arrays, halos not counted. Time: cells x steps / full-step "
           "throughput:\n\n");
    for (int i = 0; i < n; i++)
        if ((i == 0 || rows[i].a->s != rows[i - 1].a->s) && rows[i].a->weights == COST_DEFAULT_DESIGN &&
            rows[i].budget == rows[0].budget)
            fprintf(out, "%s%-8s %-16s %.4g Mcells/s: %s\n", o->format == MARKDOWN ? "- " : "  ", rows[i].a->s->title,
                    step_label(&rows[i]), rows[i].t.cells_per_s / 1e6, rows[i].t.source);
}

static void report(const struct opts *o, struct session *se, const char *machine, double memory, FILE *f)
{
    struct row *rows;
    int n = compute(o, se, machine, memory, &rows);
    write_report(o, rows, n, memory, f);
}

int cmd_cost(int argc, char **argv)
{
    struct opts o = {.p = {{0, 0, 0}, 0, 10}, .results = "results"};
    const char *size = NULL, *distance = NULL, *schemes = NULL;
    char *list = NULL;
    int csv = 0, measure = 0;
    const struct cli_option opts[] = {
        {"size", CLI_TEXT, "L", "domain in wavelengths, LX or LXxLYxLZ (required)", &size, 0, 0, NULL, 0},
        {"distance", CLI_TEXT, "D", "propagation distance in wavelengths (default: the domain's diagonal)", &distance,
         0, 0, NULL, 0},
        {"phase-error", CLI_TEXT, "DEG[,DEG...]",
         "budget in degrees, above 0 and below 180 (10); a list gives a row set per budget (the figure)", &list, 0, 0,
         NULL, 0},
        CLI_OPT_DEVICE(&o.device),
        CLI_OPT_PRECISION(&o.precision),
        CLI_OPT_COEF(&o.coef),
        {"scheme", CLI_TEXT, "S[,S...]", "only these schemes (the reference is computed anyway: the ratios')",
         &schemes, 0, 0, NULL, 0},
        {"measure", CLI_FLAG, NULL, "measure the full-step throughput now, at the problem's grid (at most 256^3 on "
         "a CPU, 512^3 on a GPU), of every one-step variant: the fastest", &measure, 0, 0, NULL, 0},
        {"machine", CLI_TEXT, "NAME", "read committed results of RESULTS/NAME (this device's folder; --run runs here)",
         &o.machine, 0, 0, NULL, 0},
        CLI_OPT_RESULTS(&o.results),
        {"memory", CLI_DOUBLE, "GB", "the device's memory (as the device reports it)", &o.memory_gb, 1e-6, 1e9, NULL,
         0},
        {"pml", CLI_INT, "N", "charge a CPML of N cells on every face around the domain (0)", &o.pml, 0, 1000, NULL,
         0},
        {"run", CLI_FLAG, NULL, "validate by simulation: run each answer with the step engine on the problem's grid "
         "(an eigenmode near the worst direction) and report its phase error and wall time against the prediction "
         "(" NUMBER_TEXT(COST_RUN_ROUNDS) " runs, each between two measurements of its throughput: the median "
         "round's ratio, a round's prediction from the measurement nearer its run); "
         "one budget", &o.run, 0, 0, NULL, 0},
        CLI_OPT_CSV(&csv),
        {"save", CLI_FLAG, NULL, "the CSV into RESULTS/<machine>/cost/cost-<date>.csv (with --run: run-<date>.csv), "
         "never over an earlier file", &o.save, 0, 0, NULL, 0},
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    if (csv || o.save) o.format = CSV;
    if (measure) o.source = MEASURE;
    if (size) parse_size(size, o.p.size);
    if (distance) {
        char *end;
        o.p.distance = strtod(distance, &end), o.distance_given = 1;
        if (end == distance || *end || !(o.p.distance > 0) || !isfinite(o.p.distance))
            cli_error("--distance: '%s' is not a number of wavelengths above 0", distance);
    }
    if (schemes) {
        char *items[MAX_SCHEMES];
        int n = split_list("scheme", (char *)schemes, items, MAX_SCHEMES);
        for (int k = 0; k < n && o.nonly < MAX_SCHEMES; k++) o.only[o.nonly++] = cli_scheme(items[k]);
    }
    if (!(o.p.size[0] > 0)) cli_error("cost: give --size, the domain in wavelengths (see --help)");
    if (list) {
        char *items[MAX_BUDGETS];
        o.nbudgets = split_list("phase-error", list, items, MAX_BUDGETS);
        for (int k = 0; k < o.nbudgets; k++) o.budgets[k] = parse_budget(items[k]);
    } else {
        o.budgets[o.nbudgets++] = 10;
    }
    if (o.run && o.nbudgets > 1) cli_error("cost: --run takes one --phase-error budget, not %d", o.nbudgets);
    if (o.run && o.pml) cli_error("cost: --run steps a periodic eigenmode: not with --pml");
    if (!o.distance_given)
        o.p.distance = sqrt(o.p.size[0] * o.p.size[0] + o.p.size[1] * o.p.size[1] + o.p.size[2] * o.p.size[2]);

    /* The device: its memory, and its results folder. */
    struct session se;
    int have_device = 0;
    double memory = o.memory_gb * 1e9;
    char dev_why[256];
    const int usable = device_backend(o.device)->available(dev_why, sizeof dev_why);
    if (!usable && !o.machine && o.source != MEASURE && !o.run)
        no_device(&o, dev_why); /* where committed rows could answer */
    if (usable || o.source == MEASURE || o.run || !o.machine) /* session_open ends if it is not usable */
        session_open(&se, o.device), have_device = 1;
    if (!(memory > 0) && have_device) memory = (double)se.desc.memory_bytes;

    const char *machine = o.machine ? o.machine : se.slug;
    if (!o.save) {
        report(&o, have_device ? &se : NULL, machine, memory, stdout);
        return 0;
    }
    /* under the machine's folder but apart from its measurement tables, which the plots and the
     * report read */
    struct results_file rf;
    struct row *rows;
    char folder[256];
    int n = compute(&o, have_device ? &se : NULL, machine, memory, &rows); /* refusals end here, before the file */
    snprintf(folder, sizeof folder, "%s/cost", machine);
    if (results_open_with(&rf, o.results, folder, o.run ? "run" : "cost", NULL)) return 1; /* the report writes its header */
    write_report(&o, rows, n, memory, rf.f);
    if (results_close(&rf)) return 1;
    fprintf(stderr, "cost: wrote %s\n", rf.path);
    return 0;
}

/* The bench's validation problem, per device: sized so that Yee's run (the finest grid) takes a
 * few seconds (about 3 s at 300 Mcells/s on a CPU, at 17 Gcells/s on a GPU), every scheme's in
 * well under a minute with its measurement. */
static const struct { double size, budget; } run_problem[] = {[DEV_CPU] = {6, 10}, [DEV_GPU] = {12, 10}};

/* 1 if the session's device has the layer's kernels (the GPU's are to come). */
static int layer_on(struct session *se)
{
    struct step_config c = {.b = se->b, .s = scheme_reference() ? scheme_reference() : scheme_at(0), .precision = F32,
                            .coef = COEF_ARRAY, .variant = step_kernel_variant(se->device, STEP_COMPONENTS),
                            .pml = PML_TARGET_THICKNESS};
    return step_supported(&c);
}

void cost_bench(struct session *se, const char *results_dir)
{
    /* the first problem's grids (55-278 cells a side on this project's machines) measured now, every
     * one-step variant, as the rest of the bench is; the second's (up to 1390 a side, beyond what a
     * measurement takes) from the rows nearest them, the step table's of this bench among them */
    static const struct { double size, budget; int source; } problems[] = {{10, 10, MEASURE}, {50, 1, RESULTS_ELSE_MEASURE}};
    static struct saved_steps saved; /* static: reachable if a write error exits (LeakSanitizer) */
    char folder[160];
    step_results_folder(se->slug, folder, sizeof folder);
    if (results_open_with(&saved.rf, results_dir, folder, "cost-steps", NULL)) return;
    step_csv_header(saved.rf.f);
    saved.rows = 0;
    printf("\n## What accuracy costs on the %s (fdtdbench cost)\n", device_names[se->device]);
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        double l = problems[i].size;
        struct opts o = {.p = {{l, l, l}, sqrt(3) * l, problems[i].budget}, .budgets = {problems[i].budget},
                         .nbudgets = 1, .device = se->device, .format = MARKDOWN, .source = problems[i].source,
                         .results = results_dir, .saved = &saved};
        report(&o, se, se->slug, (double)se->desc.memory_bytes, stdout);
        if (i == 0 && layer_on(se)) { /* and with the layer a real simulation has */
            o.pml = PML_TARGET_THICKNESS;
            report(&o, se, se->slug, (double)se->desc.memory_bytes, stdout);
        }
    }
    /* validated by running it: the prediction from throughput measured now at each answer's own grid */
    double l = run_problem[se->device].size;
    struct opts o = {.p = {{l, l, l}, sqrt(3) * l, run_problem[se->device].budget},
                     .budgets = {run_problem[se->device].budget}, .nbudgets = 1, .device = se->device,
                     .format = MARKDOWN, .source = MEASURE, .run = 1, .results = results_dir, .saved = &saved};
    printf("\n### Validation: the problem run (fdtdbench cost --device %s --size %g --phase-error %g --measure --run)\n",
           device_names[se->device], l, o.budgets[0]);
    report(&o, se, se->slug, (double)se->desc.memory_bytes, stdout);
    fflush(stdout); /* the tables before the line that names their file */
    if (!saved.rows) results_abort(&saved.rf);
    else if (!results_close(&saved.rf)) fprintf(stderr, "cost: %d measured steps in %s\n", saved.rows, saved.rf.path);
}
