/* The one table of output columns. Each CSV column is defined once, in METRIC_COLUMNS below:
 * its name, unit, CSV format, Markdown heading, scale and format, one-line meaning, and how it
 * is computed from a measurement. The CSV header and rows, run's text output, the Markdown
 * tables (report/) and the README's column glossary (fdtdbench list --columns) all come from it.
 *
 * Adding a column is one line in METRIC_COLUMNS: the value is NUM(expression) or TXT(string)
 * over `m`, a const struct record * (the row's table, config, result, device and paper
 * figure). A Markdown heading of NULL keeps the column out of the Markdown tables; a
 * number that is NaN is written as an empty cell. */
#ifndef HARNESS_METRICS_H
#define HARNESS_METRICS_H

#include <stdio.h>

#include "results.h"

/* One measured row, as the columns see it. */
struct record {
    const char *table;           /* bench table or sweep name: "table4", "sizes", "run" */
    const struct run_config *c;
    const struct run_result *r;  /* r->bw: the probe samples taken between the kernel's */
    const struct device_desc *d;
    double paper;                /* the paper's MCells/s for this row, NaN if none */
};

/* A column's value: text, or a number when text is NULL. */
struct cell {
    const char *text;
    double num;
};
#define NUM(e) ((struct cell){NULL, (double)(e)})
#define TXT(e) ((struct cell){(e), 0})

/* Helpers the expressions use (metrics.c). */
const char *m_block(const struct record *m);     /* "BXxBYxBZ" */
const char *m_host(void), *m_date(void), *m_omp_bind(void);
const char *m_commit(void), *m_compiler(void), *m_cflags(void);

/* X(name, unit, csv format, Markdown heading, Markdown scale, Markdown format, meaning, value)
 * Markdown format "flag" prints yes/no. The order is the CSV's column order. */
#define METRIC_COLUMNS(X)                                                                                        \
    X(table, "", "%s", NULL, 1, NULL, "the bench table (or sweep name) the row belongs to", TXT(m->table))       \
    X(scheme, "", "%s", NULL, 1, NULL, "the spec file's scheme name", TXT(m->c->scheme->name))                   \
    X(component, "", "%s", NULL, 1, NULL, "the field component updated (hx ... ez)",                             \
      TXT(component_names[m->c->component]))                                                                     \
    X(device, "", "%s", NULL, 1, NULL, "cpu or gpu", TXT(device_names[m->c->device]))                            \
    X(precision, "", "%s", NULL, 1, NULL, "f32 or f64", TXT(precision_names[m->c->precision]))                   \
    X(coef, "", "%s", NULL, 1, NULL, "array (position-dependent) or uniform (scalar) coefficients",              \
      TXT(coef_names[m->c->coef]))                                                                               \
    X(variant, "", "%s", NULL, 1, NULL, "kernel variant (cpu: plain; gpu: baseline, zmarch, ...)",               \
      TXT(m->c->variant))                                                                                        \
    X(nx, "", "%.0f", NULL, 1, NULL, "interior cells along x", NUM(m->c->grid[0]))                               \
    X(ny, "", "%.0f", NULL, 1, NULL, "interior cells along y", NUM(m->c->grid[1]))                               \
    X(nz, "", "%.0f", NULL, 1, NULL, "interior cells along z", NUM(m->c->grid[2]))                               \
    X(block, "", "%s", NULL, 1, NULL, "GPU thread block, or CPU tile (0: the whole extent)", TXT(m_block(m)))    \
    X(nodes, "", "%.0f", NULL, 1, NULL, "GPU marching variants: nodes per thread along z",                       \
      NUM(m->c->nodes > 1 ? m->c->nodes : 1))                                                                    \
    X(threads, "", "%.0f", NULL, 1, NULL, "CPU threads used", NUM(m->r->threads))                                \
    X(reps, "", "%.0f", NULL, 1, NULL, "timed samples", NUM(m->c->reps))                                         \
    X(batch, "", "%.0f", NULL, 1, NULL, "launches per timed sample", NUM(m->r->batch))                           \
    X(min_ms, "ms", "%.6g", NULL, 1, NULL, "fastest sample, per update of the grid", NUM(m->r->min_ms))          \
    X(median_ms, "ms", "%.6g", NULL, 1, NULL, "median sample, per update of the grid", NUM(m->r->median_ms))     \
    X(max_ms, "ms", "%.6g", NULL, 1, NULL, "slowest sample, per update of the grid", NUM(m->r->max_ms))          \
    X(updates_per_s, "1/s", "%.6g", "M updates/s", 1e-6, "%.1f",                                                 \
      "single-component node updates per second (median of the timed samples)",                                  \
      NUM((double)m->c->grid[0] * m->c->grid[1] * m->c->grid[2] / (m->r->median_ms * 1e-3)))                     \
    X(mcells_per_s, "MCells/s", "%.6g", "MCells/s (eq. 5)", 1, "%.1f",                                           \
      "the paper's equation (5): updates/s / 6 / 1e6 (only one of six components is updated)",                   \
      NUM(metric_num(METRIC_updates_per_s, m) / 6 / 1e6))                                                        \
    X(flops, "flop", "%.0f", NULL, 1, NULL, "flops per update, derived from the spec (Table 1 for Hx)",          \
      NUM(m->r->counts.flops))                                                                                   \
    X(compulsory_bytes, "B", "%.0f", NULL, 1, NULL,                                                              \
      "each distinct array touched once per update (perfect on-chip reuse): the memory floor",                   \
      NUM(m->r->counts.compulsory_bytes))                                                                        \
    X(naive_bytes, "B", "%.0f", NULL, 1, NULL, "every read and write goes to memory: (reads + writes) x size",   \
      NUM(m->r->counts.naive_bytes))                                                                             \
    X(flops_per_byte, "flop/B", "%.4g", "flops/byte", 1, "%.3f",                                                 \
      "operational intensity: flops per compulsory byte (the roofline's x)",                                     \
      NUM((double)m->r->counts.flops / m->r->counts.compulsory_bytes))                                           \
    X(gbs_effective, "GB/s", "%.6g", "GB/s effective", 1, "%.1f", "updates/s x compulsory bytes",                \
      NUM(metric_num(METRIC_updates_per_s, m) * m->r->counts.compulsory_bytes / 1e9))                            \
    X(bw_copy_gbs, "GB/s", "%.6g", NULL, 1, NULL,                                                                \
      "this run's first bandwidth probe (bw_copy_name), bytes read + written", NUM(m->r->bw.copy_gbs))           \
    X(bw_second_gbs, "GB/s", "%.6g", NULL, 1, NULL,                                                              \
      "this run's second bandwidth probe (bw_second_name), bytes read + written", NUM(m->r->bw.second_gbs))      \
    X(bw_copy_name, "", "%s", NULL, 1, NULL,                                                                     \
      "what the first probe is: STREAM copy on the same pinned threads (CPU), a copy kernel (GPU)",              \
      TXT(m->r->bw.copy_name))                                                                                   \
    X(bw_second_name, "", "%s", NULL, 1, NULL,                                                                   \
      "what the second probe is: STREAM triad (CPU), cudaMemcpy device to device (GPU)",                         \
      TXT(m->r->bw.second_name))                                                                                 \
    X(pct_bw, "%", "%.4g", "% of measured BW", 1, "%.1f",                                                        \
      "effective GB/s as a percentage of the better probe figure: the median over the samples of each kernel "   \
      "sample against the probe sample taken just before it",                                                    \
      NUM(m->r->pct_bw))                                                                                         \
    X(pct_bw_spread, "points", "%.3g", "spread (points)", 1, "%.1f",                                             \
      "max - min of those per-sample ratios: how far the machine drifted during the row",                        \
      NUM(m->r->pct_bw_spread))                                                                                  \
    X(gflops, "GFLOP/s", "%.6g", "GFLOP/s", 1, "%.1f", "achieved GFLOP/s: updates/s x flops per update",         \
      NUM(metric_num(METRIC_updates_per_s, m) * m->r->counts.flops / 1e9))                                       \
    X(cache_resident, "", "%.0f", "cache-resident", 1, "flag",                                                   \
      "1 when the arrays fit in three times the last-level cache (figures then measure the cache)",              \
      NUM(m->r->cache_resident))                                                                                 \
    X(verified, "", "%.0f", "verified", 1, "flag",                                                               \
      "1: the kernel matched the double-precision reference on random data before timing",                       \
      NUM(m->r->verified))                                                                                       \
    X(paper_mcells, "MCells/s", "%g", "paper MCells/s", 1, "%.0f",                                               \
      "the paper's figure for this row (Tables 2-5; Tesla C2050, one core of a Xeon W5580)", NUM(m->paper))      \
    X(device_name, "", "%s", NULL, 1, NULL, "CPU model or GPU name", TXT(m->d->name))                            \
    X(device_detail, "", "%s", NULL, 1, NULL, "cores; or SMs, L2, memory clock and bus", TXT(m->d->detail))      \
    X(driver, "", "%s", NULL, 1, NULL, "GPU driver and CUDA runtime", TXT(m->d->driver))                         \
    X(host, "", "%s", NULL, 1, NULL, "host name", TXT(m_host()))                                                 \
    X(compiler, "", "%s", NULL, 1, NULL, "compiler of the build", TXT(m_compiler()))                             \
    X(cflags, "", "%s", NULL, 1, NULL, "its flags", TXT(m_cflags()))                                             \
    X(simd, "", "%s", NULL, 1, NULL, "CPU kernels' vector width (\"avx512: 64 bytes\"); empty on a GPU",         \
      TXT(m->d->simd))                                                                                           \
    X(omp_bind, "", "%s", NULL, 1, NULL, "OMP_PROC_BIND/OMP_PLACES", TXT(m_omp_bind()))                          \
    X(git_commit, "", "%s", NULL, 1, NULL, "commit of the build (+dirty if the tree differed)", TXT(m_commit())) \
    X(date, "", "%s", NULL, 1, NULL, "when the row was measured (UTC)", TXT(m_date()))

enum metric_id {
#define METRIC_ID(name, ...) METRIC_##name,
    METRIC_COLUMNS(METRIC_ID)
#undef METRIC_ID
    NMETRICS
};

struct metric {
    const char *name, *unit, *csv_format, *md_heading;
    double md_scale;
    const char *md_format, *meaning;
    struct cell (*value)(const struct record *m);
};
extern const struct metric metrics[NMETRICS];

/* One column's value for a row; its number (NaN for a text column). */
struct cell metric_cell(enum metric_id id, const struct record *m);
double metric_num(enum metric_id id, const struct record *m);
/* -1 if no column has that name. */
int metric_find(const char *name);

/* The CSV header line and one CSV row (text fields with commas and newlines made spaces). */
void metrics_csv_header(FILE *f);
void metrics_csv_row(FILE *f, const struct record *m);
/* The context columns alone, device_name to date (the last ones), ending the line: the step
 * command's rows (step_measure.h) end with them. */
void metrics_csv_context(FILE *f, const struct device_desc *d);
/* run's text output: one line per column that has a unit, "name value unit". */
void metrics_text(FILE *f, const struct record *m);
/* The README's column glossary: a Markdown table of name, unit and meaning. */
void metrics_glossary(FILE *f);

#endif
