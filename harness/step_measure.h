/* A full-step measurement: verify the engine on a small grid, then time whole steps on the
 * full one; its metrics and its CSV row (the step command, make bench, the peers' table). */
#ifndef HARNESS_STEP_MEASURE_H
#define HARNESS_STEP_MEASURE_H

#include <stdio.h>

#include "decomp.h"
#include "results.h"
#include "step.h"

struct step_run {
    struct step_config c; /* c.variant: the kernel variant of each component update */
    const char *variant;  /* as named on the command line: components, or a kernel variant */
    int steps, reps;      /* each timed sample is `steps` steps (0: step_sample_steps chooses); the median
                           * sample is reported */
    double min_sample_s;  /* with steps given, more where that many would not last this long by the warm-up's
                           * time a step (step_sample_floor); 0: steps as given */
    int threads;          /* CPU threads asked for (0 = all) */
    int slabs;            /* the grid split along z (decomp.h); 0 or 1: undivided */
    int per_gpu, overlap; /* decomp_config's: a GPU per slab (NCCL); the overlap schedule */
    int no_reflection;    /* 1: with a layer, its reflection not measured (cost wants the rate alone) */
};

/* c as decomp.h takes it (one slab when undivided), and what the CSV says of it: slabs, the
 * transport ("" undivided), halo bytes per step. */
struct decomp_config step_decomp(const struct step_run *c);
int step_slabs(const struct step_run *c);
const char *step_transport(const struct step_run *c);

struct step_result {
    double min_ms, median_ms, max_ms; /* per step */
    int steps;                        /* steps per timed sample, as run */
    int threads;                      /* as used (CPU) */
    double pct_bw, pct_bw_spread;     /* interleaved probe (probe_pairs); every other rate: metrics.h */
    double clock_held_pct;            /* the samples' time with the clocks held down (clocks_held_pct) */
    struct bandwidth bw;              /* medians of the probe samples taken between the step's */
    int cache_resident, verified;
    double kernel_ms; /* what compiling the step's kernels cost this run, -1 if every one came from the
                       * kernel cache (backend.h); NAN where not said */
    double occupancy_pct; /* the lowest theoretical occupancy of the step's kernels (backend.h); NAN: not said */
    /* with a layer (c.pml > 0), else NaN: its passes timed alone after each sample's steps, per
     * step, and their share of bandwidth against the same probe samples; its reflection */
    double layer_ms, layer_pct_bw, layer_pct_bw_spread;
    double reflection_db;
};

/* The step variant of the device's own single-component kernels (plain on the CPU, baseline on
 * the GPU), six launches a step. */
#define STEP_COMPONENTS "components"

/* The step variant named `name` on the device: STEP_COMPONENTS, or any other name, a kernel
 * variant. */
const char *step_kernel_variant(enum device d, const char *name);
/* Every step variant of device d as fdtdbench step names them: STEP_COMPONENTS, then the device's
 * fused variants in table order (step_fused_variants); their number, at most max. */
int step_variants(enum device d, const char **out, int max);

/* Vacuum at 0.9 of the scheme's stability limit with its default design weights (stored in w,
 * which c->c.w then points to): fields stay bounded however long a run lasts. 0, or -1 with why. */
int step_vacuum(struct step_config *c, double w[MAX_GROUPS], char *why, size_t n);

/* 0 if a step of c fits in 80% of the device's memory, else -1 saying what it needs. */
int step_fits(const struct step_run *c, const struct device_desc *d, char *why, size_t n);

/* Steps per timed sample where none were asked for: as many as last STEP_SAMPLE_SECONDS by the
 * warm-up's time per step, at most STEP_SAMPLE_MAX, whole passes of a temporally blocked step. On
 * a GPU at 512^3 that is STEP_SAMPLE_MAX (milliseconds a step); at the CPU's 300^3 on this
 * project's 2-core VM, where a step takes a tenth of a second or more, one; on a 16-core host
 * (30-60 ms a step) two to four, where a quarter of a second a sample made bench's CPU step table
 * take 128 s. */
enum { STEP_SAMPLE_MAX = 10 };
#define STEP_SAMPLE_SECONDS 0.1
int step_sample_steps(double ms_per_step, int tsteps);
/* Where steps were given and min_sample_s is above 0: steps, or as many as last min_sample_s by
 * the warm-up's time per step if that is more (at most STEP_SAMPLE_LONGEST, whole passes). On a
 * small grid a sample of a few milliseconds reads low: at 30^3 on this project's 2-core VM, 10
 * steps (3-5 ms) read 57-87 Mcells/s against a run's 135 in one sitting, and 7% under the run in
 * the median of 105 rounds in another (docs/performance-notes.md). */
enum { STEP_SAMPLE_LONGEST = 10000 };
int step_sample_floor(double ms_per_step, int tsteps, int steps, double min_sample_s);

/* Verifies (step_verify on a small odd grid, with a layer as thick as fits it), measures the
 * layer's reflection (sim_pml_reflection) if there is one and no_reflection is 0, then times. 0, or -1 with the reason. */
int step_measure(const struct step_run *c, const struct device_desc *d, struct step_result *r, char *why, size_t n);

/* keep 1: step_measure keeps its stepper open after each measurement, and a measurement of the
 * same step at another launch relaunches it (decomp_relaunch) rather than allocating and filling
 * its arrays again: what tune's candidates cost (on the CPU at 300^3 the allocation and filling of
 * about 2 GB took longer than the samples). keep 0 closes it. */
void step_measure_keep(int keep);

/* Full-step files live in RESULTS/<machine>/STEP_FOLDER/, apart from the single-component CSVs
 * (whose columns the report and the plots expect of every *.csv beside them). */
#define STEP_FOLDER "steps"
void step_results_folder(const char *machine, char *out, size_t n); /* "<machine>/steps" */

/* make bench's scaling table where there are several GPUs (scaling_bench): STEP_FOLDER/
 * SCALING_STEM-<date>.csv, each row's table weak (SCALING_WEAK_GRID^3 cells per GPU) or strong
 * (one grid whatever the count), and the goals its efficiencies are held to at SCALING_GOAL_GPUS. */
#define SCALING_STEM "scaling"
#define SCALING_WEAK "weak"
#define SCALING_STRONG "strong"
enum { SCALING_WEAK_GRID = 512, SCALING_GOAL_GPUS = 8 };
#define SCALING_WEAK_GOAL 95.0
#define SCALING_STRONG_GOAL 85.0

/* The header and one row of the step table's columns (metrics.h, STEP_METRIC_COLUMNS). */
void step_csv_header(FILE *f);
void step_row(FILE *f, const char *table, const struct step_run *c, const struct step_result *r,
              const struct device_desc *d);

#endif
