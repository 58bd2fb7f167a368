/* The generated kernels stepped in a periodic box (engine/simulate.c) against the analysis of
 * analysis/design.c: phase advance and |z| per step of single eigenmodes, single against double
 * precision, array against uniform coefficients, and the energy just below and just above the
 * stability limit; on the CPU, and on the GPU where there is one. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "design.h"
#include "simulate.h"


enum { STEPS = 40 };
#define NAME(i) (scheme_at(i)->name) /* every scheme built in */

/* Small, unequal sides; modes along x, the xy diagonal, the body diagonal and off them, each at
 * two resolutions (16 and 8 cells per wavelength along x, and so on). */
static const int grid[3] = {16, 12, 10};
static const int modes[][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 0, 0}, {2, 2, 0}, {2, 2, 2}, {3, 1, 2}};
enum { NMODES = sizeof modes / sizeof modes[0] };

/* f64 against the analysis: SCHEMES.md reports about 1e-12; we see ~1e-15. */
static const double TOL64 = 1e-10;
/* f32 against f64. Each update rounds to eps32 = 6e-8 relative, on sums of up to ~10 terms of
 * the updated value's size; over N = 40 steps that noise adds up like a random walk, while the
 * phase it perturbs grows as N theta, so theta is off by about eps32 * 10 * sqrt(N) / (N theta):
 * 1.4e-6 for the smallest theta here (0.078, S44 along x). We allow 5e-6 (seen: 5e-8). */
static const double TOL32 = 5e-6;

static struct step_config config(const struct backend *b, const char *scheme, double *w, int precision, int coef,
                                const char *variant)
{
    const struct scheme *s = scheme_find(scheme);
    char err[256];
    if (!s || scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err)) {
        printf("  scheme %s: %s\n", scheme, s ? err : "not built in");
        exit(1);
    }
    /* The design Courant number, and S44 where it is stable (SCHEMES.md's S44 check point). */
    struct step_config c = {.b = b, .s = s, .w = w, .precision = precision, .coef = coef, .variant = variant,
                            .grid = {grid[0], grid[1], grid[2]}, .courant = s->levels == 1 ? 0.5 : 0.2,
                            .boundary = BOUNDARY_PERIODIC};
    return c;
}

/* Relative error of the simulated phase per step against physical_root for weights wa, and
 * the error of |z|. -1 if the simulation could not run. */
static int mode_error(const struct step_config *c, const double *wa, const int mode[3], double *phase_err,
                      double *amp_err, double *theta)
{
    double k[3], want, want_amp, amp;
    char why[512];
    for (int d = 0; d < 3; d++) k[d] = 2 * PI * mode[d] / c->grid[d];
    physical_root(c->s, wa, k, c->courant, &want, &want_amp);
    if (sim_mode(c, mode, STEPS, theta, &amp, why, sizeof why)) {
        CHECK(0, "%s mode (%d,%d,%d): %s", c->s->name, mode[0], mode[1], mode[2], why);
        return -1;
    }
    *phase_err = fabs(*theta / want - 1);
    *amp_err = fabs(amp - want_amp);
    return 0;
}

/* Every scheme, every mode, f64: phase per step and |z| equal the analysis. */
static void all_modes(const struct backend *b, const char *variant, int coef, const int block[3], double *worst_phase,
                      double *worst_amp)
{
    *worst_phase = *worst_amp = 0;
    for (int i = 0; i < scheme_count(); i++) {
        double w[MAX_GROUPS], pe, ae, th;
        struct step_config c = config(b, NAME(i), w, F64, coef, variant);
        if (block) memcpy(c.block, block, sizeof c.block);
        if (!kernel_find(b->device, NAME(i), HX, F64, coef, variant)) continue; /* no such variant here */
        for (int m = 0; m < NMODES; m++) {
            if (mode_error(&c, w, modes[m], &pe, &ae, &th)) continue;
            CHECK(pe < TOL64 && ae < TOL64, "%s %s mode (%d,%d,%d): phase %.3e relative, |z| %.3e", NAME(i),
                  coef_names[coef], modes[m][0], modes[m][1], modes[m][2], pe, ae);
            *worst_phase = fmax(*worst_phase, pe), *worst_amp = fmax(*worst_amp, ae);
        }
    }
}

static void test_cpu_modes_f64(void)
{
    double p, a;
    all_modes(cpu_backend(), "plain", COEF_UNIFORM, NULL, &p, &a);
    printf("  CPU f64 uniform, 5 schemes x %d modes: phase per step within %.1e relative, |z| within %.1e\n",
           NMODES, p, a);
    all_modes(cpu_backend(), "plain", COEF_ARRAY, NULL, &p, &a);
    printf("  CPU f64 array coefficients: phase within %.1e, |z| within %.1e\n", p, a);
}

/* The check can fail: a kernel whose weight in one group differs from the analysed one by 1e-6
 * is caught, as is a Courant number 1e-6 (relative) off. */
static void test_perturbation_is_detected(void)
{
    static const int mode[3] = {1, 1, 1};
    double least_w = INFINITY, least_s = INFINITY;
    for (int i = 0; i < scheme_count(); i++) {
        double w[MAX_GROUPS], bent[MAX_GROUPS], pe, ae, th;
        struct step_config c = config(cpu_backend(), NAME(i), w, F64, COEF_UNIFORM, "plain");
        memcpy(bent, w, sizeof bent);
        int g = c.s->ngroups - 1; /* the last group: for the designed schemes a transverse one */
        bent[g] += 1e-6;
        c.w = bent;
        if (mode_error(&c, w, mode, &pe, &ae, &th)) continue;
        CHECK(pe > 100 * TOL64, "%s: weight %s off by 1e-6 gives a phase error of only %.3e", NAME(i),
              c.s->group[g].name, pe);
        least_w = fmin(least_w, pe);
        c.w = w;
        c.courant *= 1 + 1e-6;
        double k[3] = {2 * PI / grid[0], 2 * PI / grid[1], 2 * PI / grid[2]}, want, amp;
        physical_root(c.s, w, k, c.courant / (1 + 1e-6), &want, &amp);
        if (mode_error(&c, w, mode, &pe, &ae, &th)) continue;
        CHECK(fabs(th / want - 1) > 100 * TOL64, "%s: Courant number off by 1e-6 goes unnoticed (%.3e)", NAME(i),
              fabs(th / want - 1));
        least_s = fmin(least_s, fabs(th / want - 1));
    }
    printf("  caught: a weight 1e-6 off moves the phase by >= %.1e, the Courant number by >= %.1e\n", least_w,
           least_s);
}

static void test_f32_matches_f64(void)
{
    double worst = 0, worst_amp = 0;
    for (int i = 0; i < scheme_count(); i++) {
        double w[MAX_GROUPS], p64, a64, t64, p32, a32, t32;
        struct step_config c64 = config(cpu_backend(), NAME(i), w, F64, COEF_UNIFORM, "plain");
        struct step_config c32 = c64;
        c32.precision = F32;
        for (int m = 0; m < NMODES; m++) {
            if (mode_error(&c64, w, modes[m], &p64, &a64, &t64) || mode_error(&c32, w, modes[m], &p32, &a32, &t32))
                continue;
            double d = fabs(t32 / t64 - 1);
            CHECK(d < TOL32 && fabs(a32 - a64) < TOL32, "%s mode (%d,%d,%d): f32 phase %.3e off f64, |z| %.3e",
                  NAME(i), modes[m][0], modes[m][1], modes[m][2], d, fabs(a32 - a64));
            worst = fmax(worst, d), worst_amp = fmax(worst_amp, fabs(a32 - a64));
        }
    }
    printf("  f32 vs f64: phase per step within %.1e relative, |z| within %.1e (allowed %.0e)\n", worst, worst_amp,
           TOL32);
}

/* Random fields: bounded just below the limit, growing just above it. Under the sanitizers (make
 * test SAN=...) the reference scheme's only: the simulation is the same code for every scheme, whose
 * plain kernels the tests above run under them too, and the plain build checks every scheme's limit
 * (the five schemes' 3000 steps each were 11 s of this test's 20 under the sanitizers). */
static void test_stability_limit_in_simulation(void)
{
    const char *san = getenv("SAN");
    for (int i = 0; i < scheme_count(); i++) {
        double w[MAX_GROUPS], below = 0, above = 0;
        char why[512];
        if (san && *san && scheme_at(i) != scheme_reference()) continue;
        struct step_config c = config(cpu_backend(), NAME(i), w, F64, COEF_UNIFORM, "plain");
        double limit = stability_limit(c.s, w);
        c.courant = 0.98 * limit;
        int rc = sim_energy_growth(&c, 1500, &below, why, sizeof why);
        c.courant = 1.02 * limit;
        rc = rc || sim_energy_growth(&c, 1500, &above, why, sizeof why);
        CHECK(rc == 0, "%s: %s", NAME(i), why);
        CHECK(below < 10 && above > 1e6, "%s: energy grew %.3g times at 0.98 of the limit, %.3g times at 1.02",
              NAME(i), below, above);
        printf("  %-6s energy over 1500 steps: x%.3g at 0.98 of S = %.6f, x%.3g at 1.02\n", NAME(i), below, limit,
               above);
    }
}

/* The same checks through the GPU backend, every generated variant. */
static void test_gpu_modes(void)
{
    const struct backend *b = gpu_backend();
    char why[512];
    if (!b->available(why, sizeof why)) SKIP("%s", why);
    static const int block[3] = {32, 4, 1}; /* one every variant takes (tile25d: flat, Bx of 32, 64 or 128) */
    const char *variants[16];
    int tried = kernel_variants(DEV_GPU, variants, 16);
    for (int v = 0; v < tried; v++) {
        for (int coef = 0; coef < 2; coef++) {
            double p, a;
            all_modes(b, variants[v], coef, block, &p, &a);
            printf("  GPU %s f64 %s: phase within %.1e, |z| within %.1e\n", variants[v], coef_names[coef], p, a);
        }
        double w[MAX_GROUPS], p64, a64, t64, p32, a32, t32;
        struct step_config c = config(b, "fv24", w, F32, COEF_UNIFORM, variants[v]);
        memcpy(c.block, block, sizeof c.block);
        if (!mode_error(&c, w, modes[6], &p32, &a32, &t32)) {
            c.precision = F64;
            if (!mode_error(&c, w, modes[6], &p64, &a64, &t64))
                CHECK(fabs(t32 / t64 - 1) < TOL32, "GPU %s f32: %.3e", variants[v], fabs(t32 / t64 - 1));
        }
    }
    CHECK(tried > 0, "no GPU kernels generated");
}

int main(void)
{
    RUN(test_cpu_modes_f64);
    RUN(test_perturbation_is_detected);
    RUN(test_f32_matches_f64);
    RUN(test_stability_limit_in_simulation);
    RUN(test_gpu_modes);
    return TEST_SUMMARY();
}
