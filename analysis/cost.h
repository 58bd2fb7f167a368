/* What accuracy costs (issue 12): the coarsest resolution at which a scheme keeps its
 * worst-direction phase error within a budget over a propagation distance, and what running it
 * takes: cells, steps, memory, and time from a measured full-step throughput. The dispersion is
 * analysis/design.c's; this file only searches it and does the arithmetic. */
#ifndef HARNESS_COST_H
#define HARNESS_COST_H

#include <stddef.h>

#include "spec.h"
#include "step.h"
#include "step_measure.h" /* STEP_FOLDER */

/* The resolution search goes no finer than this many cells per wavelength. */
#define COST_MAX_PPW 1000.0

/* Which columns of the full-step results (`fdtdbench step`: the .csv files of RESULTS/<machine>/STEP_FOLDER,
 * the columns of STEP_METRIC_COLUMNS in metrics.h) are read; rows of this suite have code
 * "fdtdbench", the peers' rows are table "peers". cells_per_s is cells x steps / s. */
#define STEP_TABLE "step"
#define STEP_CODE "fdtdbench"
#define STEP_COL_CODE "code"
#define STEP_COL_TABLE "table"
#define STEP_COL_SCHEME "scheme"
#define STEP_COL_DEVICE "device"
#define STEP_COL_PRECISION "precision"
#define STEP_COL_COEF "coef"
#define STEP_COL_NX "nx"
#define STEP_COL_NY "ny"
#define STEP_COL_NZ "nz"
#define STEP_COL_CELLS_PER_S "cells_per_s"
#define STEP_COL_DATE "date"
/* optional: the configuration the row was measured in, which cost --run repeats */
#define STEP_COL_VARIANT "variant"
#define STEP_COL_BLOCK "block"
#define STEP_COL_NODES "nodes"
#define STEP_COL_ROWS "rows"     /* older files lack rows: the kernels' defaults */
#define STEP_COL_STAGES "stages" /* and stages, likewise */
#define STEP_COL_REGS "regs"     /* and the register cap: the compiler's choice (0) */
#define STEP_COL_THREADS "threads"
#define STEP_COL_PML "pml"       /* older files lack it: no layer */
#define STEP_COL_TSTEPS "tsteps" /* older files lack it: one step a pass */
#define STEP_COL_SLABS "slabs"   /* older files lack it: undivided */

struct cost_problem {
    double size[3];    /* domain, in wavelengths */
    double distance;   /* how far the wave travels, in wavelengths */
    double budget_deg; /* phase error allowed in the worst direction after that distance */
};

/* Which weights a designed scheme (FV24, FV24-WB, S{2,2}) uses: those of the suite's default
 * design point (DEFAULT_DESIGN_PPW), or weights designed for the resolution being tried. Fixed
 * weights (Yee, S44) ignore this. */
enum cost_weights { COST_DEFAULT_DESIGN, COST_DESIGN_FOR_N };

/* One scheme's answer to one problem. */
struct cost_answer {
    const struct scheme *s;
    enum cost_weights weights;
    double w[MAX_GROUPS];
    double courant;        /* the scheme's Courant number (default_courant) */
    double ppw;            /* N, cells per wavelength, a multiple of 0.1 */
    double dir[3];         /* the worst direction at N */
    double vp_error;       /* v_p/c - 1 there */
    double phase_deg;      /* predicted phase error at N over the steps run (the distance, rounded up) */
    double band_phase_deg; /* the largest from N to 2N: what the budget is held to */
    double amplitude_left; /* |z|^steps along that direction: below 1 only for S44 */
    int grid[3];           /* cells along each side */
    double cells;
    long long steps;       /* to cover the distance at this Courant number */
};

/* Finds the coarsest N (to 0.1) within the budget, at N and at every resolution up to 2N (a
 * wave's lower frequencies, in 10% steps): a scan in 5% steps from 2 cells per wavelength to
 * COST_MAX_PPW, then bisection to 0.1 inside the first step that passes. 0, or -1 with why (no
 * N up to the limit, with the error there). */
int cost_resolution(const struct scheme *s, enum cost_weights weights, const struct cost_problem *p,
                    struct cost_answer *a, char *why, size_t n);

/* Bytes per cell of a full step: step_bytes_per_cell() in step.h, the step engine's own count. */

/* Full-step throughput of one configuration, where it came from, and the configuration it was
 * measured in: what cost --run repeats, so that prediction and run time the same thing. */
struct throughput {
    double cells_per_s;
    char source[320];
    char variant[32];   /* as fdtdbench step names it: "components", "fused", or a kernel variant */
    int have_launch;    /* block and nodes known (else the device's default launch) */
    int block[3], nodes;
    int rows, stages;   /* with the launch, where the file has them (0: the kernels' defaults) */
    int regs;           /* a GPU fused variant's register cap, with the launch (0: the compiler's) */
    int tsteps;         /* steps per pass (1 but for a temporally blocked variant's row) */
    int threads;        /* CPU threads (0: all) */
};

/* The committed full-step row (table STEP_TABLE, code STEP_CODE, an undivided grid: a split one
 * may span several devices) in the .csv files of
 * results_dir/machine/STEP_FOLDER for this scheme, device, precision, storage and layer (pml
 * cells on every face, 0 for none), of the temporally blocked variant named (temporal: the one
 * cost measures, so that a row read and a row measured mean the same step) or, temporal NULL, of
 * one that advances a step a pass, whose grid is nearest the problem's cells (by ratio), any within
 * COST_SAME_GRID of them counting as at it: of each variant its newest row at that grid (the
 * fastest of the newest), then the fastest variant's. 0, or -1 if there is none. */
#define COST_SAME_GRID 1.5 /* a grid within this factor of the problem's cells (1.14 a side) runs its
                            * step at nearly its rate: a row there from today's build beats one at
                            * the very grid from an older build */
int cost_throughput_from_results(const char *results_dir, const char *machine, const struct scheme *s, int device,
                                 int precision, int coef, int pml, const char *temporal, double cells,
                                 struct throughput *t);

/* ---- validation by simulation (issue 12) ---------------------------------------------- */

/* The simulation check's rule: the phase error the kernels accumulate is within the budget and
 * within this fraction of the dispersion's prediction for the wave run. */
#define COST_PHASE_TOLERANCE 0.10
/* The bench's rule for a run of the problem itself: measured time within this fraction of the
 * predicted one (a benchmark figure, never a test's). */
#define COST_TIME_TOLERANCE 0.15
/* --run: this many runs, each between two measurements of its throughput (one before, one
 * after: COST_RUN_ROUNDS + 1 in all); the verdict is the median round's (cost_run_rounds). On
 * this project's 2-vCPU VM one measurement and one run of the same steps disagreed by 0.64-1.59x
 * in 10 of 35 pairs (the host's bandwidth moves within seconds), and the medians of five runs and
 * five measurements taken in turn still by 0.71-1.46x where it flipped 1.8x from sample to sample.
 * Odd: the median is one round's. */
#define COST_RUN_ROUNDS 5

/* One run of an answer: an eigenmode stepped for the answer's steps, timed. */
struct cost_run {
    int grid[3], mode[3];  /* the periodic box and the mode's numbers (k_d = 2 pi mode_d / grid_d) */
    double mode_ppw;       /* the mode's cells per wavelength */
    double predicted_deg;  /* the dispersion's phase error for that mode over the steps */
    double measured_deg;   /* the kernels' */
    double predicted_loss, measured_loss; /* amplitude lost over the steps (S44 damps) */
    double seconds;        /* wall time of the steps (the device waited for) */
};

/* The mode a's own grid (the problem's domain, periodic) holds nearest the worst direction at N
 * without being finer than N: of the modes whose every m_d is the floor or the ceiling of
 * grid_d |dir_d| / N, the one no finer than N with the largest predicted error. 0, or -1 with
 * why (the domain holds no such wave). */
int cost_mode(const struct cost_answer *a, int mode[3], char *why, size_t n);

/* Steps the eigenmode `mode` of the periodic box c->grid for a->steps steps with the step engine
 * (sim_mode_timed: one warm-up step, then the steps timed in one call) at a's weights and Courant
 * number; c gives the backend, precision, storage, variant and launch (block, nodes, rows, stages). 0, or
 * -1 with why. */
int cost_simulate(const struct cost_answer *a, const struct step_config *c, const int mode[3], struct cost_run *r,
                  char *why, size_t n);

/* 1 if r's measured phase error is within the budget and within COST_PHASE_TOLERANCE of its
 * prediction. */
int cost_phase_agrees(const struct cost_run *r, double budget_deg);

/* --run's rounds, the time verdict's: round k's run took seconds[k], the throughput measured just
 * before it was rates[k] and just after it rates[k + 1] (cells/s). Each round's predicted time is
 * work / rate (work: cells x steps) of whichever of its two measurements puts its run nearer
 * (|run / predicted - 1|): a host that flips between two speeds from one sample to the next ran
 * the run at one of them, and a mean of the two would match neither. The median round by that
 * ratio is the row's: its index, predicted time, that throughput and ratio. */
struct cost_round {
    int round;
    double predicted_s, cells_per_s, ratio;
};
struct cost_round cost_run_rounds(double work, const double rates[COST_RUN_ROUNDS + 1],
                                  const double seconds[COST_RUN_ROUNDS]);

/* For fdtdbench bench (cost_cmd.c): Markdown tables on stdout of the two standard problems, a
 * 10-wavelength cube at 10 degrees and a 50-wavelength cube at 1 degree, on the session's device
 * (f32, array coefficients), with throughput from its committed full-step rows, else measured;
 * then the validation problem (cost_cmd.c's run_problem) run with the step engine, its time against the
 * time predicted from throughput measured at its own grid. */
struct session;
void cost_bench(struct session *s, const char *results_dir);

#endif
