/* A full-step measurement: verify the engine on a small grid, then time whole steps on the
 * full one; its metrics and its CSV row (the step command, make bench, the peers' table). */
#ifndef HARNESS_STEP_MEASURE_H
#define HARNESS_STEP_MEASURE_H

#include <stdio.h>

#include "results.h"
#include "step.h"

struct step_run {
    struct step_config c; /* c.variant: the kernel variant of each component update */
    const char *variant;  /* as named on the command line: components, or a kernel variant */
    int steps, reps;      /* each timed sample is `steps` steps; the median sample is reported */
    int threads;          /* CPU threads asked for (0 = all) */
};

struct step_result {
    double min_ms, median_ms, max_ms; /* per step */
    int threads;                      /* as used (CPU) */
    /* step_metrics: */
    double cells_per_s, mcells_per_s; /* cells x steps / time: the peers' unit, not the paper's eq. 5 */
    double compulsory_bytes;          /* per cell and step (step_compulsory_bytes) */
    double memory_bytes;              /* per cell held (step_bytes_per_cell) */
    double gbs_effective, pct_bw;     /* cells/s x compulsory bytes; as % of the better probe figure */
    int cache_resident, verified;
};

/* The step variant named `name` on the device: "components" is the device's own single-component
 * kernels (plain on the CPU, baseline on the GPU); any other name is a kernel variant. */
const char *step_kernel_variant(enum device d, const char *name);

/* 0 if a step of c fits in 80% of the device's memory, else -1 saying what it needs. */
int step_fits(const struct step_run *c, const struct device_desc *d, char *why, size_t n);

/* Verifies (step_verify on a small odd grid) then times. 0, or -1 with the reason. */
int step_measure(const struct step_run *c, const struct bandwidth *bw, const struct device_desc *d,
                 struct step_result *r, char *why, size_t n);

/* The derived columns, in one place, from the times, the spec's byte counts and the probe. */
void step_metrics(const struct step_run *c, struct step_result *r, const struct bandwidth *bw);

/* Full-step files live in RESULTS/<machine>/STEP_FOLDER/, apart from the single-component CSVs
 * (whose columns the report and the plots expect of every *.csv beside them). */
#define STEP_FOLDER "steps"
void step_results_folder(const char *machine, char *out, size_t n); /* "<machine>/steps" */

/* code and code_version name who stepped: this suite, or a peer (scripts/peers.sh). */
#define STEP_COLUMNS                                                                                  \
    "table,code,code_version,scheme,device,variant,precision,coef,boundary,nx,ny,nz,block,nodes,"     \
    "threads,steps,reps,min_ms,median_ms,max_ms,cells_per_s,mcells_per_s,compulsory_bytes,"          \
    "memory_bytes,gbs_effective,bw_copy_gbs,bw_second_gbs,pct_bw,cache_resident,verified," RESULT_CONTEXT_COLUMNS
void step_row(FILE *f, const char *table, const struct step_run *c, const struct step_result *r,
              const struct bandwidth *bw, const struct device_desc *d);

#endif
