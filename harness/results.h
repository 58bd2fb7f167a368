/* Measurements and how they are written: one CSV row per timed kernel, every row carrying its
 * context. Files are complete or absent (outfile.h), and never replace an earlier run. */
#ifndef HARNESS_RESULTS_H
#define HARNESS_RESULTS_H

#include <stdio.h>

#include "backend.h"
#include "outfile.h"

/* What one measurement was. */
struct run_config {
    const struct scheme *scheme;
    int component, precision, coef;
    enum device device;
    const char *variant;  /* "plain" on the CPU; GPU variants from its template */
    int grid[3];
    int block[3];         /* CPU tile (0 = default), GPU block shape */
    int threads;          /* CPU threads (0 = all) */
    int reps;             /* timed samples; the median is reported */
    int nodes;            /* GPU marching variants: nodes per thread along z (0 or 1: one) */
    int rows;             /* GPU tiled variants: rows of nodes per thread along y (0: unset, the kernel's default) */
    int stages;           /* GPU tiled variants: pipeline depth, planes copied ahead (0: unset, the kernel's default) */
    int screening;        /* tune's screening: timed without verifying first (its row says verified 0); a
                           * launch it keeps is verified when it is timed again */
};

/* The most rows per thread and the deepest pipeline any launch may ask for (check_extent, the
 * options' ranges); each kernel's accepts() takes only the values it was compiled for. */
enum { LAUNCH_MAX_ROWS = 16, LAUNCH_MAX_STAGES = 8 };

/* What it measured. */
struct run_result {
    double min_ms, median_ms, max_ms;  /* per kernel launch (one update of the grid) */
    int batch;                         /* launches per timed sample */
    int threads;                       /* as used */
    double pct_bw;                     /* median of the per-sample ratios to the probe sample before each */
    double pct_bw_spread;              /* max - min of those ratios */
    double clock_held_pct;             /* the samples' time with the clocks held down (clocks_held_pct) */
    struct bandwidth bw;               /* medians of the probe samples taken between the kernel's */
    struct counts counts;              /* per update; rates and ratios: metrics.h */
    int cache_resident;                /* arrays fit within a few times the last-level cache */
    int verified;                      /* 1: matched the reference before timing */
    double kernel_ms;                  /* what compiling its kernel cost this run, -1 if it came from
                                        * the kernel cache (backend.h); NAN where not said */
    double occupancy_pct;              /* the launch's theoretical occupancy (backend.h); NAN: not said */
    double cpu_ms;                     /* CPU: per launch, its threads' own CPU time over their number
                                        * (median of the samples); NAN on a GPU */
};

/* How a kernel of device d was obtained, for the kernel_from column: "cc 812 ms" (the CPU's, by
 * the build's C compiler) or "nvrtc 812 ms" (the GPU's), compiled by this run; "cache" (ms < 0:
 * the kernel cache); "" (NAN: not said). A static buffer. */
const char *kernel_origin(enum device d, double ms);

/* The measured figures from n kernel samples (ms per launch) and the n probe samples taken each
 * just before its kernel sample: times, the probe's medians, and pct_bw as the median of the n
 * per-pair ratios with their spread (DESIGN.md, metrics). Sorts ms. The other rates: metrics.h. */
void result_metrics(const struct run_config *c, struct run_result *r, double *ms, const struct bandwidth *probes,
                    int n);

/* An open results file: a temporary file (outfile.h) until results_close names it. */
struct results_file {
    struct outfile out;
    FILE *f;
    const char *path; /* the name it will have (error lines); after results_close, the one it has */
    char stem[128];   /* <stem>-<date> */
};

/* Opens a results file for RESULTS/<machine>/<stem>-<date>.csv and writes the header. Returns 0,
 * or -1 with the reason printed. */
int results_open(struct results_file *rf, const char *dir, const char *machine, const char *stem);
/* The same with another header line (the step command's columns), or none (NULL: the caller writes its own). */
int results_open_with(struct results_file *rf, const char *dir, const char *machine, const char *stem,
                      const char *columns);
/* Flushes and checks the rows written so far; on a write error prints why, removes the file and
 * exits with status 1, so that a run never goes on measuring into a file it cannot keep. */
void results_check(struct results_file *rf);
/* Names the file <stem>-<date>.csv, or -2, -3, ... if that exists (never replacing a run): 0 or -1. */
int results_close(struct results_file *rf);
void results_abort(struct results_file *rf); /* removes the temporary file */

/* One CSV row of the columns of metrics.h; paper_mcells < 0 leaves that column empty. Also
 * usable with stdout. */
void results_row(FILE *f, const char *table, const struct run_config *c, const struct run_result *r,
                 const struct device_desc *d, double paper_mcells);


/* A folder name for a device: "cpu-amd-epyc-7b13", "gpu-nvidia-h100-80gb-hbm3". */
void machine_slug(const struct device_desc *d, enum device dev, char *out, size_t n);

#endif
