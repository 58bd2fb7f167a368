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
#include "step_measure.h"

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
const char *m_dims(const int v[3]);              /* "BXxBYxBZ" */
double m_cells(const int grid[3]);
const char *m_host(void), *m_date(void), *m_omp_bind(void);
const char *m_commit(void), *m_compiler(void), *m_cflags(void);

/* The context columns that end every row of both tables (m->d, the device, and the build). */
#define CONTEXT_COLUMNS(X)                                                                                             \
    X(device_name, "", "%s", NULL, 1, NULL, "CPU model or GPU name", TXT(m->d->name))                                  \
    X(device_detail, "", "%s", NULL, 1, NULL, "cores; or SMs, L2, memory clock and bus", TXT(m->d->detail))            \
    X(driver, "", "%s", NULL, 1, NULL, "GPU driver and CUDA runtime", TXT(m->d->driver))                               \
    X(host, "", "%s", NULL, 1, NULL, "host name", TXT(m_host()))                                                       \
    X(compiler, "", "%s", NULL, 1, NULL, "compiler of the build", TXT(m_compiler()))                                   \
    X(cflags, "", "%s", NULL, 1, NULL, "its flags", TXT(m_cflags()))                                                   \
    X(simd, "", "%s", NULL, 1, NULL, "CPU kernels' vector width (\"avx512: 64 bytes\"); empty on a GPU",               \
      TXT(m->d->simd))                                                                                                 \
    X(omp_bind, "", "%s", NULL, 1, NULL, "OMP_PROC_BIND/OMP_PLACES", TXT(m_omp_bind()))                                \
    X(git_commit, "", "%s", NULL, 1, NULL, "commit of the build (+dirty if the tree differed)", TXT(m_commit()))       \
    X(date, "", "%s", NULL, 1, NULL, "when the row was measured (UTC)", TXT(m_date()))

/* X(name, unit, csv format, Markdown heading, Markdown scale, Markdown format, meaning, value)
 * Markdown format "flag" prints yes/no. The order is the CSV's column order. */
#define METRIC_COLUMNS(X)                                                                                              \
    X(table, "", "%s", NULL, 1, NULL, "the bench table (or sweep name) the row belongs to", TXT(m->table))             \
    X(scheme, "", "%s", NULL, 1, NULL, "the spec file's scheme name", TXT(m->c->scheme->name))                         \
    X(component, "", "%s", NULL, 1, NULL, "the field component updated (hx ... ez)",                                   \
      TXT(component_names[m->c->component]))                                                                           \
    X(device, "", "%s", NULL, 1, NULL, "cpu or gpu", TXT(device_names[m->c->device]))                                  \
    X(precision, "", "%s", NULL, 1, NULL, "f32 or f64", TXT(precision_names[m->c->precision]))                         \
    X(coef, "", "%s", NULL, 1, NULL, "array (position-dependent) or uniform (scalar) coefficients",                    \
      TXT(coef_names[m->c->coef]))                                                                                     \
    X(variant, "", "%s", NULL, 1, NULL, "kernel variant (cpu: plain, regz, regza; gpu: baseline, zmarch, ...)",              \
      TXT(m->c->variant))                                                                                              \
    X(nx, "", "%.0f", NULL, 1, NULL, "interior cells along x", NUM(m->c->grid[0]))                                     \
    X(ny, "", "%.0f", NULL, 1, NULL, "interior cells along y", NUM(m->c->grid[1]))                                     \
    X(nz, "", "%.0f", NULL, 1, NULL, "interior cells along z", NUM(m->c->grid[2]))                                     \
    X(block, "", "%s", NULL, 1, NULL, "GPU thread block, or CPU tile (0: the whole extent)", TXT(m_dims(m->c->block))) \
    X(nodes, "", "%.0f", NULL, 1, NULL, "marching variants: nodes along z per GPU thread, or per pass of CPU regz",     \
      NUM(m->c->nodes > 1 ? m->c->nodes : 1))                                                                          \
    X(rows, "", "%.0f", NULL, 1, NULL, "GPU tiled variants: rows of nodes per thread along y",                         \
      NUM(m->c->rows > 1 ? m->c->rows : 1))                                                                            \
    X(stages, "", "%.0f", NULL, 1, NULL, "GPU tiled variants: pipeline depth, planes copied ahead (0: no pipeline)",   \
      NUM(m->c->stages))                                                                                               \
    X(threads, "", "%.0f", NULL, 1, NULL, "CPU threads used", NUM(m->r->threads))                                      \
    X(reps, "", "%.0f", NULL, 1, NULL, "timed samples", NUM(m->c->reps))                                               \
    X(batch, "", "%.0f", NULL, 1, NULL, "launches per timed sample", NUM(m->r->batch))                                 \
    X(min_ms, "ms", "%.6g", NULL, 1, NULL, "fastest sample, per update of the grid", NUM(m->r->min_ms))                \
    X(median_ms, "ms", "%.6g", NULL, 1, NULL, "median sample, per update of the grid", NUM(m->r->median_ms))           \
    X(max_ms, "ms", "%.6g", NULL, 1, NULL, "slowest sample, per update of the grid", NUM(m->r->max_ms))                \
    X(cpu_ms, "ms", "%.6g", NULL, 1, NULL,                                                                             \
      "CPU: per update of the grid, the time its threads ran by their own CPU clocks (summed, over their number: "    \
      "time a thread spent descheduled by the host does not count), median of the samples; empty on a GPU",           \
      NUM(m->r->cpu_ms))                                                                                               \
    X(updates_per_s, "1/s", "%.6g", "M updates/s", 1e-6, "%.1f",                                                       \
      "single-component node updates per second (median of the timed samples)",                                        \
      NUM((double)m->c->grid[0] * m->c->grid[1] * m->c->grid[2] / (m->r->median_ms * 1e-3)))                           \
    X(mcells_per_s, "MCells/s", "%.6g", "MCells/s (eq. 5)", 1, "%.1f",                                                 \
      "the paper's equation (5): updates/s / 6 / 1e6 (only one of six components is updated)",                         \
      NUM(metric_num(METRIC_updates_per_s, m) / 6 / 1e6))                                                              \
    X(flops, "flop", "%.0f", NULL, 1, NULL, "flops per update, derived from the spec (Table 1 for Hx)",                \
      NUM(m->r->counts.flops))                                                                                         \
    X(compulsory_bytes, "B", "%.0f", NULL, 1, NULL,                                                                    \
      "each distinct array touched once per update (perfect on-chip reuse): the memory floor",                         \
      NUM(m->r->counts.compulsory_bytes))                                                                              \
    X(naive_bytes, "B", "%.0f", NULL, 1, NULL, "every read and write goes to memory: (reads + writes) x size",         \
      NUM(m->r->counts.naive_bytes))                                                                                   \
    X(flops_per_byte, "flop/B", "%.4g", "flops/byte", 1, "%.3f",                                                       \
      "operational intensity: flops per compulsory byte (the roofline's x)",                                           \
      NUM((double)m->r->counts.flops / m->r->counts.compulsory_bytes))                                                 \
    X(gbs_effective, "GB/s", "%.6g", "GB/s effective", 1, "%.1f", "updates/s x compulsory bytes",                      \
      NUM(metric_num(METRIC_updates_per_s, m) * m->r->counts.compulsory_bytes / 1e9))                                  \
    X(bw_copy_gbs, "GB/s", "%.6g", NULL, 1, NULL,                                                                      \
      "this run's first bandwidth probe (bw_copy_name), bytes read + written", NUM(m->r->bw.copy_gbs))                 \
    X(bw_second_gbs, "GB/s", "%.6g", NULL, 1, NULL,                                                                    \
      "this run's second bandwidth probe (bw_second_name), bytes read + written", NUM(m->r->bw.second_gbs))            \
    X(bw_copy_name, "", "%s", NULL, 1, NULL,                                                                           \
      "what the first probe is: STREAM copy on the same pinned threads (CPU), a copy kernel (GPU)",                    \
      TXT(m->r->bw.copy_name))                                                                                         \
    X(bw_second_name, "", "%s", NULL, 1, NULL,                                                                         \
      "what the second probe is: STREAM triad (CPU), cudaMemcpy device to device (GPU)",                               \
      TXT(m->r->bw.second_name))                                                                                       \
    X(pct_bw, "%", "%.4g", "% of measured BW", 1, "%.1f",                                                              \
      "effective GB/s as a percentage of the better probe figure: the median over the samples of each kernel "         \
      "sample against the probe sample taken just before it",                                                          \
      NUM(m->r->pct_bw))                                                                                               \
    X(pct_bw_spread, "points", "%.3g", "spread (points)", 1, "%.1f",                                                   \
      "max - min of those per-sample ratios: how far the machine drifted during the row",                              \
      NUM(m->r->pct_bw_spread))                                                                                        \
    X(clock_held_pct, "%", "%.3g", NULL, 1, NULL,                                                                      \
      "GPU: share of the row's timing (samples and the probe passes between them) that its power or thermal limit "   \
      "held the clocks down (NVML's violation counters); empty where the device cannot say",                           \
      NUM(m->r->clock_held_pct))                                                                                       \
    X(occupancy_pct, "%", "%.3g", NULL, 1, NULL,                                                                       \
      "GPU: the launch's theoretical occupancy, the warps of the blocks that fit on one multiprocessor (CUDA's "      \
      "occupancy calculator: the compiled kernel's registers, the launch's shared memory) as a percentage of the "    \
      "warps it holds; empty on the CPU", NUM(m->r->occupancy_pct))                                                   \
    X(gflops, "GFLOP/s", "%.6g", "GFLOP/s", 1, "%.1f", "achieved GFLOP/s: updates/s x flops per update",               \
      NUM(metric_num(METRIC_updates_per_s, m) * m->r->counts.flops / 1e9))                                             \
    X(clock_ghz, "GHz", "%.4g", NULL, 1, NULL,                                                                         \
      "CPU: the cores' clock beside each probe sample (a chain of dependent adds over each thread's CPU time), "       \
      "median; empty on a GPU",                                                                                        \
      NUM(m->r->bw.clock_ghz > 0 ? m->r->bw.clock_ghz : NAN))                                                          \
    X(updates_per_cycle, "1/cycle", "%.4g", "updates/cycle/core", 1, "%.3f",                                           \
      "CPU: updates per clock cycle per thread, one thread a core, over the cycles the threads ran: the grid's "      \
      "nodes / (threads x cpu_ms x clock_ghz x 1e6), so that time the host took from the threads does not count",     \
      NUM(m->r->bw.clock_ghz > 0 && m->r->threads > 0 && m->r->cpu_ms > 0                                              \
              ? (double)m->c->grid[0] * m->c->grid[1] * m->c->grid[2] /                                                \
                    (m->r->threads * m->r->cpu_ms * m->r->bw.clock_ghz * 1e6)                                          \
              : NAN))                                                                                                  \
    X(cache_resident, "", "%.0f", "cache-resident", 1, "flag",                                                         \
      "1 when the arrays fit in the last-level cache (figures then measure the cache)",                                \
      NUM(m->r->cache_resident))                                                                                       \
    X(verified, "", "%.0f", "verified", 1, "flag",                                                                     \
      "1: the kernel matched the double-precision reference on random data before timing",                             \
      NUM(m->r->verified))                                                                                             \
    X(kernel_from, "", "%s", NULL, 1, NULL,                                                                            \
      "how the kernel was obtained: cc (CPU) or nvrtc (GPU) and its compile time (compiled by this run), or cache "   \
      "(the kernel cache)", TXT(kernel_origin(m->c->device, m->r->kernel_ms)))                                         \
    X(paper_mcells, "MCells/s", "%g", "paper MCells/s", 1, "%.0f",                                                     \
      "the paper's figure for this row (Tables 2-5; Tesla C2050, one core of a Xeon W5580)", NUM(m->paper))            \
    CONTEXT_COLUMNS(X)

/* One full-step row (fdtdbench step, make bench's step table; scripts/peers.sh adds the peers'
 * rows under the same header): a whole time step of all six components, halo refresh included. */
struct step_record {
    const char *table;
    const struct step_run *c;
    const struct step_result *r; /* r->bw: the probe samples taken between the step's */
    const struct device_desc *d;
};

#define STEP_METRIC_COLUMNS(X)                                                                                         \
    X(table, "", "%s", NULL, 1, NULL, "the table the row belongs to (step, or peers)", TXT(m->table))                  \
    X(code, "", "%s", NULL, 1, NULL, "who stepped: fdtdbench, or a peer (openems, meep)", TXT("fdtdbench"))            \
    X(code_version, "", "%s", NULL, 1, NULL, "its version (this suite: the build's commit)", TXT(m_commit()))          \
    X(scheme, "", "%s", NULL, 1, NULL, "the spec file's scheme name", TXT(m->c->c.s->name))                            \
    X(device, "", "%s", NULL, 1, NULL, "cpu or gpu", TXT(device_names[m->c->c.b->device]))                             \
    X(variant, "", "%s", NULL, 1, NULL,                                                                                \
      "components (six single-component kernels), fused, fused25d (one per half-step), or wave, wave25d (several "     \
      "steps per pass over memory)",                                                                                   \
      TXT(m->c->variant))                                                                                              \
    X(precision, "", "%s", NULL, 1, NULL, "f32 or f64", TXT(precision_names[m->c->c.precision]))                       \
    X(coef, "", "%s", NULL, 1, NULL, "array, uniform or indexed (a material byte per node) coefficients",              \
      TXT(coef_names[m->c->c.coef]))                                                                                   \
    X(boundary, "", "%s", NULL, 1, NULL, "periodic or pec", TXT(boundary_names[m->c->c.boundary]))                     \
    X(pml, "", "%.0f", "layer (cells)", 1, "%.0f",                                                                     \
      "cells of CPML on every face, inside the grid (0: the closed box)", NUM(m->c->c.pml))                            \
    X(pml_order, "", "%.0f", NULL, 1, NULL, "the layer's grading order (empty without a layer)",                       \
      NUM(m->c->c.pml ? m->c->c.pml_order : NAN))                                                                     \
    X(slabs, "", "%.0f", "slabs", 1, "%.0f", "slabs along z the grid is split into, a stepper each (empty: undivided)", \
      NUM(step_slabs(m->c) > 1 ? step_slabs(m->c) : NAN))                                                             \
    X(transport, "", "%s", NULL, 1, NULL,                                                                              \
      "how the slabs' halo planes travel: copy (every slab on one device), nccl (a GPU each); empty undivided",        \
      TXT(step_transport(m->c)))                                                                                       \
    X(overlap, "", "%.0f", NULL, 1, NULL,                                                                              \
      "1: each half-step's boundary planes first, exchanged while the other planes update; 0: whole half-steps, then " \
      "the exchange (empty undivided)", NUM(step_slabs(m->c) > 1 ? m->c->overlap : NAN))                              \
    X(nx, "", "%.0f", NULL, 1, NULL, "interior cells along x", NUM(m->c->c.grid[0]))                                   \
    X(ny, "", "%.0f", NULL, 1, NULL, "interior cells along y", NUM(m->c->c.grid[1]))                                   \
    X(nz, "", "%.0f", NULL, 1, NULL, "interior cells along z", NUM(m->c->c.grid[2]))                                   \
    X(block, "", "%s", NULL, 1, NULL, "GPU thread block, or CPU tile (0: the whole extent)",                           \
      TXT(m_dims(m->c->c.block)))                                                                                      \
    X(nodes, "", "%.0f", NULL, 1, NULL, "GPU marching variants: nodes per thread along z",                             \
      NUM(m->c->c.nodes > 1 ? m->c->c.nodes : 1))                                                                      \
    X(rows, "", "%.0f", NULL, 1, NULL, "GPU tiled variants: rows of nodes per thread along y",                         \
      NUM(m->c->c.rows > 1 ? m->c->c.rows : 1))                                                                        \
    X(stages, "", "%.0f", NULL, 1, NULL, "GPU tiled variants: pipeline depth, planes copied ahead (0: no pipeline)",   \
      NUM(m->c->c.stages))                                                                                             \
    X(regs, "", "%.0f", "regs", 1, "%.0f",                                                                            \
      "GPU fused variant: registers per thread at most (empty: the compiler's choice)",                                \
      NUM(m->c->c.regs > 0 ? m->c->c.regs : NAN))                                                                      \
    X(tsteps, "", "%.0f", NULL, 1, NULL,                                                                               \
      "steps advanced per pass over memory: the temporally blocked variants' (wave, wave25d), 1 for the others",       \
      NUM(step_tsteps(&m->c->c)))                                                                                      \
    X(threads, "", "%.0f", NULL, 1, NULL, "CPU threads used", NUM(m->r->threads))                                      \
    X(steps, "", "%.0f", NULL, 1, NULL, "steps per timed sample", NUM(m->r->steps))                                    \
    X(reps, "", "%.0f", NULL, 1, NULL, "timed samples", NUM(m->c->reps))                                               \
    X(min_ms, "ms", "%.6g", NULL, 1, NULL, "fastest sample, per step", NUM(m->r->min_ms))                              \
    X(median_ms, "ms", "%.6g", NULL, 1, NULL, "median sample, per step", NUM(m->r->median_ms))                         \
    X(max_ms, "ms", "%.6g", NULL, 1, NULL, "slowest sample, per step", NUM(m->r->max_ms))                              \
    X(cells_per_s, "1/s", "%.6g", NULL, 1, NULL,                                                                       \
      "cells x steps / time (median sample): the unit openEMS, Meep and gprMax report, not the paper's eq. 5",         \
      NUM(m_cells(m->c->c.grid) / (m->r->median_ms * 1e-3)))                                                           \
    X(mcells_per_s, "MCells/s", "%.6g", "MCells/s", 1e-0, "%.1f", "cells_per_s / 1e6",                                 \
      NUM(step_num(STEP_cells_per_s, m) / 1e6))                                                                        \
    X(compulsory_bytes, "B", "%g", "bytes/cell/step", 1, "%.0f",                                                       \
      "per cell and step, from the spec: every field and coefficient array once per half-step (with a layer, its "     \
      "auxiliary fields read and written once, spread over the grid's cells)",                                         \
      NUM(step_moved_bytes(&m->c->c)))                                                                                 \
    X(memory_bytes, "B", "%g", "bytes/cell held", 1, "%.0f",                                                           \
      "memory held per cell: every field (all time levels) and coefficient array, and the layer's auxiliary fields",   \
      NUM(step_memory_bytes(&m->c->c)))                                                                                \
    X(halo_bytes, "B", "%g", "halo bytes/step", 1, "%.0f",                                                            \
      "bytes the slabs exchange per step: each field's halo planes, as deep as the spec's stencils reach along z, "   \
      "both ways across every face between two slabs, both half-steps (0 undivided)",                                 \
      NUM(decomp_halo_bytes(&(const struct decomp_config){.c = m->c->c, .slabs = step_slabs(m->c)})))                 \
    X(gbs_effective, "GB/s", "%.6g", "GB/s effective", 1, "%.1f", "cells_per_s x compulsory bytes",                    \
      NUM(step_num(STEP_cells_per_s, m) * step_num(STEP_compulsory_bytes, m) / 1e9))                                   \
    X(bw_copy_gbs, "GB/s", "%.6g", NULL, 1, NULL, "this run's first bandwidth probe (median of its samples)",          \
      NUM(m->r->bw.copy_gbs))                                                                                          \
    X(bw_second_gbs, "GB/s", "%.6g", NULL, 1, NULL, "this run's second bandwidth probe (median of its samples)",       \
      NUM(m->r->bw.second_gbs))                                                                                        \
    X(pct_bw, "%", "%.4g", "% of measured BW", 1, "%.1f",                                                              \
      "effective GB/s as a percentage of the better probe: median over the samples, each against the probe "           \
      "sample just before it (a GPU a slab: per GPU, against the first GPU's probe)", NUM(m->r->pct_bw))              \
    X(pct_bw_spread, "points", "%.3g", "spread (points)", 1, "%.1f", "max - min of those per-sample ratios",           \
      NUM(m->r->pct_bw_spread))                                                                                        \
    X(clock_held_pct, "%", "%.3g", "clocks held (%)", 1, "%.0f",                                                       \
      "GPU: share of the row's timing (samples and the probe passes between them) that its power or thermal limit "   \
      "held the clocks down (NVML's violation counters); a row that reads high ran below its full clock, and where "  \
      "its kernels are not memory-bound its samples may spread; empty where the device cannot say",                   \
      NUM(m->r->clock_held_pct))                                                                                       \
    X(occupancy_pct, "%", "%.3g", NULL, 1, NULL,                                                                       \
      "GPU: the lowest theoretical occupancy of the step's kernels (the layer's passes not counted), as the update "  \
      "rows' occupancy_pct; empty on the CPU", NUM(m->r->occupancy_pct))                                               \
    X(layer_ms, "ms", "%.6g", NULL, 1, NULL,                                                                           \
      "the layer's time per step (median of samples timed after each step sample): its passes alone, or where the "   \
      "update kernels make the corrections (CPU fused), the median difference of paired passes of the same kernels " \
      "with and without the layer, each pair's order alternated", NUM(m->r->layer_ms))                                \
    X(layer_share, "%", "%.4g", "layer % of step", 1, "%.1f", "layer_ms as a percentage of median_ms",                 \
      NUM(100 * m->r->layer_ms / m->r->median_ms))                                                                     \
    X(layer_bytes, "B", "%g", NULL, 1, NULL,                                                                           \
      "compulsory bytes of one step's layer passes, from the spec: per corrected term and cell its output read and "  \
      "written, its source field, its auxiliary field read and written, its coefficient arrays (the auxiliary field " \
      "alone where the update kernels make the correction)",                                                           \
      NUM(m->c->c.pml ? step_layer_bytes(&m->c->c) : NAN))                                                            \
    X(layer_pct_bw, "%", "%.4g", "layer % of BW", 1, "%.1f",                                                           \
      "the layer's GB/s (layer_bytes / layer_ms) as a percentage of the better probe, per sample as pct_bw; empty "   \
      "where layer_ms is not above zero (no rate to give)", NUM(m->r->layer_ms > 0 ? m->r->layer_pct_bw : NAN))        \
    X(layer_pct_bw_spread, "points", "%.3g", NULL, 1, NULL, "max - min of those per-sample ratios",                    \
      NUM(m->r->layer_ms > 0 ? m->r->layer_pct_bw_spread : NAN))                                                       \
    X(pml_reflection_db, "dB", "%.4g", "reflection (dB)", 1, "%.1f",                                                   \
      "the layer's reflection of a broadband pulse from a point source, 20 log10 of reflected over incident field "   \
      "(sim_pml_reflection), measured before timing",                                                                  \
      NUM(m->r->reflection_db))                                                                                        \
    X(cache_resident, "", "%.0f", "cache-resident", 1, "flag",                                                         \
      "1 when the step's arrays fit in the last-level cache (no probe pass: pct_bw against the last figure)",          \
      NUM(m->r->cache_resident))                                                                                       \
    X(verified, "", "%.0f", "verified", 1, "flag",                                                                     \
      "1: a few steps on a small odd grid matched the double-precision reference step before timing",                  \
      NUM(m->r->verified))                                                                                             \
    X(kernel_from, "", "%s", NULL, 1, NULL,                                                                            \
      "how the step's kernels were obtained: cc (CPU) or nvrtc (GPU) and the time compiling them took this run, or "  \
      "cache (every one from the kernel cache)", TXT(kernel_origin(m->c->c.b->device, m->r->kernel_ms)))               \
    CONTEXT_COLUMNS(X)

enum metric_id {
#define METRIC_ID(name, ...) METRIC_##name,
    METRIC_COLUMNS(METRIC_ID)
#undef METRIC_ID
    NMETRICS
};
enum step_metric_id {
#define STEP_ID(name, ...) STEP_##name,
    STEP_METRIC_COLUMNS(STEP_ID)
#undef STEP_ID
    NSTEP_METRICS
};

/* A column: its value is computed from a record of its table (struct record or step_record). */
struct metric {
    const char *name, *unit, *csv_format, *md_heading;
    double md_scale;
    const char *md_format, *meaning;
    struct cell (*value)(const void *m);
};
struct metric_table {
    const struct metric *col;
    int n;
};
extern const struct metric_table update_metrics, step_metrics;
extern const struct metric metrics[NMETRICS]; /* update_metrics' columns */

/* One column's number for a row (NaN for a text column). */
double metric_num(enum metric_id id, const struct record *m);
double step_num(enum step_metric_id id, const struct step_record *m);
/* -1 if no column of t has that name. */
int metric_find(const struct metric_table *t, const char *name);

/* The CSV header line and one CSV row of a table (text fields with commas and newlines made
 * spaces); m points to a record of that table. */
void metrics_csv_header(FILE *f, const struct metric_table *t);
void metrics_csv_row(FILE *f, const struct metric_table *t, const void *m);
/* run's and step's text output: one line per column that has a unit, "name value unit". */
void metrics_text(FILE *f, const struct metric_table *t, const void *m);
/* The README's column glossary: a Markdown table of name, unit and meaning. */
void metrics_glossary(FILE *f, const struct metric_table *t);

#endif
