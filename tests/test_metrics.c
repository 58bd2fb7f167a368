/* The figures derived from timed samples (result_metrics): pct_bw is the median of the
 * per-pair ratios, each kernel sample against the probe sample taken just before it. */
#include <math.h>

#include "check.h"
#include "measure.h"

static struct bandwidth probe(double copy, double second)
{
    struct bandwidth bw = {copy, second, "copy", "second", copy > second ? copy : second, 1 << 20};
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
    CHECK(fabs(r.updates_per_s - 5e8) < 1, "updates/s %g", r.updates_per_s);
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

int main(void)
{
    RUN(test_pct_bw_is_median_of_pair_ratios);
    RUN(test_one_sample_has_no_spread);
    return TEST_SUMMARY();
}
