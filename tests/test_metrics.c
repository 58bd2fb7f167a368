/* The figures derived from timed samples (result_metrics): pct_bw is the median of the
 * per-pair ratios, each kernel sample against the probe sample taken just before it, in the
 * order measure() takes them; the grid the tables add where the paper's is cache-resident
 * (memory_cube); and what a progress line says of a row (bw_text). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "measure.h"
#include "metrics.h"
#include "step_measure.h"

static struct bandwidth probe(double copy, double second)
{
    struct bandwidth bw = {copy, second, "copy", "second", copy > second ? copy : second, 1 << 20, 0};
    return bw;
}

static void test_pct_bw_is_median_of_pair_ratios(void)
{
    /* Yee Hx, f32, array coefficients: 24 compulsory bytes; 10^6 updates, so a 1 ms sample
     * moves 24 GB/s. Samples 4, 1, 2 ms (6, 24, 12 GB/s) after probes of 12, 48, 6 GB/s:
     * ratios 50%, 50%, 200%. The ratio of the medians would say 100%; pairing the sorted
     * times with the probes in their order would give 200%, 25%, 100%, median 100%. */
    struct run_config c = {.scheme = scheme_find("yee"), .component = HX, .precision = F32, .coef = COEF_ARRAY,
                           .device = DEV_CPU, .grid = {100, 100, 100}, .reps = 3};
    double ms[3] = {4, 1, 2};
    struct bandwidth p[3] = {probe(10, 12), probe(48, 30), probe(6, 5)};
    struct run_result r = {0};
    result_metrics(&c, &r, ms, p, 3);
    CHECK(fabs(r.pct_bw - 50) < 1e-9, "pct_bw %g, want 50 (median of the pairs' ratios)", r.pct_bw);
    CHECK(fabs(r.pct_bw_spread - 150) < 1e-9, "spread %g, want 150 (200 - 50)", r.pct_bw_spread);
    CHECK(r.median_ms == 2 && r.min_ms == 1 && r.max_ms == 4, "times %g %g %g", r.min_ms, r.median_ms, r.max_ms);
    const struct record m = {"test", &c, &r, NULL, NAN};
    double ups = metric_num(METRIC_updates_per_s, &m);
    CHECK(fabs(ups - 5e8) < 1, "updates/s %g", ups);
    /* The row's probe columns: the medians of each probe's samples. */
    CHECK(r.bw.copy_gbs == 10 && r.bw.second_gbs == 12 && r.bw.best_gbs == 12, "probe medians %g %g %g",
          r.bw.copy_gbs, r.bw.second_gbs, r.bw.best_gbs);
}

static void test_one_sample_has_no_spread(void)
{
    struct run_config c = {.scheme = scheme_find("yee"), .component = HX, .precision = F32, .coef = COEF_ARRAY,
                           .device = DEV_CPU, .grid = {100, 100, 100}, .reps = 1};
    double ms[1] = {1};
    struct bandwidth p[1] = {probe(30, 24)};
    struct run_result r = {0};
    result_metrics(&c, &r, ms, p, 1);
    CHECK(fabs(r.pct_bw - 80) < 1e-9 && r.pct_bw_spread == 0, "pct_bw %g spread %g", r.pct_bw, r.pct_bw_spread);
}

/* Where the paper's 300^3 fits in the cache (a 1 GiB last-level cache, as AMD's stacked ones), the
 * tables add the smallest cube that exceeds 4x the cache for every scheme; with a smaller cache,
 * none. */
static void test_memory_cube(void)
{
    struct device_desc d = {.cache_bytes = (size_t)1 << 30};
    struct run_config c = {.component = HX, .precision = F32, .coef = COEF_ARRAY, .device = DEV_CPU,
                           .grid = {300, 300, 300}};
    int n = memory_cube(c, &d);
    /* Yee has the fewest arrays (5): rows of n + 4 values padded to 8, so
     * 600 (n + 4)^2 * 4 B * 5 > 4 * 1 GiB first at n = 595. */
    CHECK(n == 595, "memory cube %d, want 595", n);
    for (int i = 0; i < scheme_count(); i++) {
        c.scheme = scheme_at(i);
        c.grid[0] = c.grid[1] = c.grid[2] = n;
        CHECK(run_bytes(&c) > 4 * d.cache_bytes, "%s at %d^3: %zu bytes", c.scheme->name, n, run_bytes(&c));
        CHECK(!cache_resident(&c, &d), "%s at %d^3 flagged cache-resident", c.scheme->name, n);
    }
    c.grid[0] = c.grid[1] = c.grid[2] = 300;
    d.cache_bytes = (size_t)300 << 20; /* the lent GPU machines' Xeon: 300^3 is beyond it for every scheme */
    CHECK(memory_cube(c, &d) == 0, "a memory cube where 300^3 already measures memory");
    d.cache_bytes = 0; /* unknown cache: nothing to add */
    CHECK(memory_cube(c, &d) == 0, "a memory cube with no cache size");
}

/* measure() through the CPU backend with its probe and timer wrapped to log their calls:
 * one timing to size the batch, then probe, kernel, probe, kernel, ...; a grid that fits in the
 * cache pairs each sample with the last figures (C: passes 0, no copy), none here: pct_bw empty. */
static char calls[64];
static const struct backend *real;
static void logged_probe(struct bandwidth *bw, int passes)
{
    strncat(calls, passes == 1 ? "P" : passes == 0 ? "C" : "?", sizeof calls - strlen(calls) - 1);
    *bw = passes ? probe(20 + strlen(calls), 10) : (struct bandwidth){.clock_ghz = 2};
}
static double cpu_seconds; /* the threads' CPU clock, as logged_time advances it: 3 ms a launch a thread */
static double logged_cpu(void) { return cpu_seconds; }
static int logged_time(kernel_fn fn, const struct kernel_args *a, int warmup, int batch, int samples, double *ms,
                       char *why, size_t n)
{
    strncat(calls, samples == 1 ? "K" : "?", sizeof calls - strlen(calls) - 1);
    cpu_seconds += 3e-3 * (warmup + batch * samples) * real->threads();
    return real->time_kernel(fn, a, warmup, batch, samples, ms, why, n);
}

static void test_measure_interleaves_probe_and_kernel(void)
{
    real = cpu_backend();
    struct backend logged = *real;
    logged.probe_bandwidth = logged_probe, logged.time_kernel = logged_time, logged.threads_cpu_seconds = logged_cpu;
    struct device_desc d;
    real->describe(&d);
    d.cache_bytes = 1; /* 16^3 then measures memory, as far as measure() knows */
    struct run_config c = {.scheme = scheme_find("yee"), .component = HX, .precision = F32, .coef = COEF_ARRAY,
                           .device = DEV_CPU, .variant = "plain", .grid = {16, 16, 16}, .block = {0, 0, 1},
                           .reps = 3};
    struct run_result r;
    char why[512];
    calls[0] = '\0';
    CHECK(measure(&logged, &c, &d, &r, why, sizeof why) == 0, "%s", why);
    CHECK(!strcmp(calls, "KPKPKPK"), "calls %s, want KPKPKPK (one sizing run, then probe before each sample)", calls);
    /* The probe samples gave copy 22, 24, 26 GB/s (then 28...): the row's column is their median. */
    CHECK(r.bw.copy_gbs == 24 && r.bw.second_gbs == 10, "row's probe columns %g %g", r.bw.copy_gbs, r.bw.second_gbs);
    CHECK(!r.cache_resident, "a grid beyond the cache flagged cache-resident");

    d.cache_bytes = (size_t)1 << 30; /* in the cache: no copy, the clock read beside each sample */
    calls[0] = '\0';
    CHECK(measure(&logged, &c, &d, &r, why, sizeof why) == 0, "%s", why);
    CHECK(!strcmp(calls, "KCKCKCK"), "calls %s, want KCKCKCK (a cache-resident grid: no probe pass)", calls);
    CHECK(r.cache_resident && isnan(r.pct_bw) && isnan(r.bw.copy_gbs) && r.bw.clock_ghz == 2,
          "resident %d, pct_bw %g, probe column %g, clock %g", r.cache_resident, r.pct_bw, r.bw.copy_gbs, r.bw.clock_ghz);
    /* Updates a cycle count the cycles the threads ran (their CPU clocks: 3 ms a launch, warm-up not
     * counted) at the clock read beside the samples, not the wall clock's time. */
    const struct record m = {"measure", &c, &r, &d, NAN};
    const double want = 16 * 16 * 16 / (r.threads * 3e-3 * 2e9);
    CHECK(fabs(r.cpu_ms - 3) < 1e-9, "cpu_ms %g, want 3", r.cpu_ms);
    CHECK(fabs(metric_num(METRIC_updates_per_cycle, &m) - want) < 1e-9 * want, "updates a cycle %g, want %g",
          metric_num(METRIC_updates_per_cycle, &m), want);
}

/* A CPU fused step's layer time is a difference of two timings, and where the layer costs less than
 * their noise it comes out at or below zero: the table then gives no bandwidth for it, rather
 * than a negative one. */
static void test_layer_rate_only_for_a_positive_time(void)
{
    struct step_run c = {0};
    c.c.pml = 10;
    struct step_result r = {.median_ms = 10, .layer_ms = -0.5, .layer_pct_bw = -16, .layer_pct_bw_spread = 40};
    const struct step_record m = {"step", &c, &r, NULL};
    CHECK(isnan(step_num(STEP_layer_pct_bw, &m)) && isnan(step_num(STEP_layer_pct_bw_spread, &m)),
          "a layer time of %g ms gave %g%% of the bandwidth", r.layer_ms, step_num(STEP_layer_pct_bw, &m));
    CHECK(step_num(STEP_layer_share, &m) == -5, "layer share %g, want -5 (the measured difference)",
          step_num(STEP_layer_share, &m));
    r.layer_ms = 0.5, r.layer_pct_bw = 16;
    CHECK(step_num(STEP_layer_pct_bw, &m) == 16 && step_num(STEP_layer_pct_bw_spread, &m) == 40, "%g%%, spread %g",
          step_num(STEP_layer_pct_bw, &m), step_num(STEP_layer_pct_bw_spread, &m));
}

/* A progress line says when the clocks were held down (clock_held_pct), and only then. */
static void test_bw_text_says_clocks_held(void)
{
    char buf[96];
    CHECK(!strcmp(bw_text(83.4, 4.2, NAN, buf, sizeof buf), "83% of bw (spread 4)"), "no counter: '%s'", buf);
    CHECK(!strcmp(bw_text(83.4, 4.2, 0.4, buf, sizeof buf), "83% of bw (spread 4)"), "under a percent: '%s'", buf);
    CHECK(!strcmp(bw_text(83.4, 4.2, 80.3, buf, sizeof buf), "83% of bw (spread 4), clocks held 80%"), "'%s'", buf);
    CHECK(!strcmp(bw_text(NAN, NAN, 100, buf, sizeof buf), "no memory figure (in cache), clocks held 100%"), "'%s'",
          buf);
    CHECK(!strcmp(bw_text(83.4, 4.2, 80.3, buf, 21), "83% of bw (spread 4)"), "a short buffer: '%s'", buf);
}

int main(void)
{
    RUN(test_pct_bw_is_median_of_pair_ratios);
    RUN(test_one_sample_has_no_spread);
    RUN(test_memory_cube);
    RUN(test_measure_interleaves_probe_and_kernel);
    RUN(test_bw_text_says_clocks_held);
    RUN(test_layer_rate_only_for_a_positive_time);
    return TEST_SUMMARY();
}
