/* The analysis of analysis/design.c against SCHEMES.md sections 3-4: the designed weights, the
 * A1/A3 symbol table, the dispersion check values, the stability limits, the update
 * coefficients; and the dispersion command's output and errors. */
#define _DEFAULT_SOURCE
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "design.h"


static const struct scheme *get(const char *name)
{
    const struct scheme *s = scheme_find(name);
    if (!s) {
        printf("  scheme %s is not built in\n", name);
        exit(1);
    }
    return s;
}

static void weights(const struct scheme *s, double *w)
{
    char err[256];
    if (scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err)) {
        printf("  %s\n", err);
        exit(1);
    }
}

/* Fang's (2,4) scheme: S44's spatial terms with the leapfrog time rule (SCHEMES.md section 3). */
static struct scheme fang(void)
{
    struct scheme f = *get("s44");
    f.levels = 1, f.time_coef[0] = 1, f.time_coef[1] = -1;
    return f;
}

/* Equal to ref as printed with 7 significant digits: within half a unit of the 7th digit. */
static int digits7(double v, double ref) { return fabs(v - ref) <= 0.5e-6 * pow(10, floor(log10(fabs(ref)))); }
/* Equal to ref as printed with 7 decimals. */
static int decimals7(double v, double ref) { return fabs(v - ref) <= 0.5e-7; }
static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* SCHEMES.md section 3, N_d = 20, S = 0.5, by group name (FV24-WB has no w3 group). */
static void test_designed_weights_match_section3(void)
{
    static const struct { const char *scheme; double w[4]; } table[] = {
        {"fv24", {1.0947684, -0.0347779, -0.0020137, 0.0028109}},
        {"fv24wb", {1.0947684, -0.0387721, 0, 0.0017957}},
        {"s22", {0.9959175, -0.0125223, 0.0247127, -0.0047668}},
    };
    for (int i = 0; i < 3; i++) {
        const struct scheme *s = get(table[i].scheme);
        double w[MAX_GROUPS], consistency = 0;
        weights(s, w);
        for (int g = 0; g < s->ngroups; g++) {
            int n = s->group[g].name[1] - '1'; /* w1..w4 */
            CHECK(n >= 0 && n < 4 && decimals7(w[g], table[i].w[n]), "%s %s = %.9f, table %.7f", s->name,
                  s->group[g].name, w[g], table[i].w[n]);
            consistency += w[g] * s->group[g].half_span2 * group_shift_count(&s->group[g]);
        }
        CHECK(fabs(consistency - 1) < 1e-14, "%s: sum w 2m |T| = %.16f", s->name, consistency);
        /* Exact phase velocity along each design direction at the design point. */
        static const double dirs[3][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
        for (int d = 0; d < 3; d++) {
            if (!(s->design_dirs & (1u << d))) continue;
            double vp, amp;
            char err[256];
            CHECK(!phase_velocity_error(s, w, dirs[d], 20, 0.5, &vp, &amp, err, sizeof err), "%s", err);
            CHECK(fabs(vp) < 1e-13, "%s: design direction %d has v_p/c - 1 = %.3e", s->name, d, vp);
        }
    }
    double w[MAX_GROUPS];
    weights(get("s44"), w);
    CHECK(w[0] == 9.0 / 8 && w[1] == -1.0 / 24, "s44 fixed weights %.17g %.17g", w[0], w[1]);
    /* Another design point gives other weights (the design is not a table lookup). */
    double w2[MAX_GROUPS];
    char err[256];
    CHECK(!scheme_weights(get("fv24"), 10, 0.5, w2, err, sizeof err), "%s", err);
    weights(get("fv24"), w);
    CHECK(fabs(w2[1] - w[1]) > 1e-4, "fv24 w2 at N_d 10 and 20: %.7f %.7f", w2[1], w[1]);
}

/* The symbol summed from the expanded points equals SCHEMES.md section 4's A1/A3 table. */
static void test_symbol_matches_a1_a3_table(void)
{
    static const char *const names[] = {"yee", "fv24", "fv24wb", "s22", "s44"}; /* the schemes the table covers */
    for (int i = 0; i < 5; i++) {
        const struct scheme *s = get(names[i]);
        double w[MAX_GROUPS] = {0}, x[4] = {0}; /* x: w1..w4 by name */
        weights(s, w);
        for (int g = 0; g < s->ngroups; g++) x[s->group[g].name[1] - '1'] = w[g];
        double worst = 0;
        for (int t = 0; t < 200; t++) {
            double k[3] = {PI * ((t * 37) % 101) / 50.0 - PI, PI * ((t * 53) % 97) / 48.0 - PI,
                           PI * ((t * 71) % 89) / 44.0 - PI};
            for (int xi = 0; xi < 3; xi++) {
                double ce = cos(k[(xi + 1) % 3]), cz = cos(k[(xi + 2) % 3]), a1, a3;
                if (!strcmp(names[i], "s22")) a1 = x[0] + 2 * x[2] * (ce + cz), a3 = x[1] + 2 * x[3] * (ce + cz);
                else a1 = x[0], a3 = x[1] + 2 * x[2] * (ce + cz) + 4 * x[3] * ce * cz;
                double want = a1 * sin(k[xi] / 2) + a3 * sin(3 * k[xi] / 2);
                worst = fmax(worst, fabs(symbol_axis(s, w, k, xi) - want));
            }
        }
        CHECK(worst < 1e-14, "%s: symbol differs from A1/A3 by %.3e", s->name, worst);
    }
}

/* SCHEMES.md section 4's check values, axial / face / body. */
static void test_check_values_section4(void)
{
    static const struct { const char *scheme; double S, N, v[3]; } table[] = {
        {"yee", 0.5, 10, {-1.241202e-2, -4.147993e-3, -1.383850e-3}},
        {"yee", 0.5, 20, {-3.088991e-3, -1.030306e-3, -3.435066e-4}},
        {"fang", 0.4, 20, {+6.136623e-4, +6.477411e-4, +6.540718e-4}},
        {"s44", 0.2, 20, {-4.596751e-5, -1.195616e-5, -5.637989e-6}},
    };
    static const double dirs[3][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
    struct scheme f = fang();
    for (int i = 0; i < 4; i++) {
        const struct scheme *s = strcmp(table[i].scheme, "fang") ? get(table[i].scheme) : &f;
        double w[MAX_GROUPS];
        weights(s, w);
        for (int d = 0; d < 3; d++) {
            double vp, amp;
            char err[256];
            int rc = phase_velocity_error(s, w, dirs[d], table[i].N, table[i].S, &vp, &amp, err, sizeof err);
            CHECK(rc == 0, "%s", err);
            CHECK(digits7(vp, table[i].v[d]), "%s S=%g N=%g dir %d: %.7e, table %.6e", table[i].scheme, table[i].S,
                  table[i].N, d, vp, table[i].v[d]);
            CHECK(s->levels == 1 ? amp == 1 : amp < 1 && amp > 1 - 1e-8, "%s |z| = %.15f", table[i].scheme, amp);
        }
    }
}

static void test_stability_limits_closed_forms(void)
{
    struct scheme f = fang();
    const struct { const struct scheme *s; double limit; } closed[] = {
        {get("yee"), 1 / sqrt(3)}, {&f, 6 / (7 * sqrt(3))}, {get("s44"), sqrt(3) / 7}};
    for (int i = 0; i < 3; i++) {
        double w[MAX_GROUPS];
        weights(closed[i].s, w);
        double l = stability_limit(closed[i].s, w);
        CHECK(fabs(l / closed[i].limit - 1) < 1e-12, "%s limit %.15f, closed form %.15f", closed[i].s->name, l,
              closed[i].limit);
    }
    CHECK(time_rule_limit(get("yee")) == 2, "leapfrog q_max %.17g", time_rule_limit(get("yee")));
    CHECK(fabs(time_rule_limit(get("s44")) - 1) < 1e-14, "S44 q_max %.17g", time_rule_limit(get("s44")));
    /* Designed schemes: the zone's maximum is at the corner, S <= 1/(sqrt(3) |A1 - A3|) there. */
    static const char *const designed[] = {"fv24", "fv24wb", "s22"};
    for (int i = 0; i < 3; i++) {
        const struct scheme *s = get(designed[i]);
        double w[MAX_GROUPS], corner[3] = {PI, PI, PI};
        weights(s, w);
        double want = 1 / (sqrt(3) * fabs(symbol_axis(s, w, corner, 0)));
        CHECK(fabs(stability_limit(s, w) / want - 1) < 1e-12, "%s limit %.15f, corner %.15f", s->name,
              stability_limit(s, w), want);
    }
    /* Refused at and above the limit, with the limit in the message; accepted just below. */
    const struct scheme *y = get("yee");
    double w1 = 1;
    char err[256] = "";
    CHECK(check_courant(y, &w1, 1 / sqrt(3), err, sizeof err) == -1 && strstr(err, "0.5773502692"), "at: '%s'", err);
    CHECK(check_courant(y, &w1, 0.6, err, sizeof err) == -1, "above accepted");
    CHECK(check_courant(y, &w1, 0.5773, err, sizeof err) == 0, "below refused: %s", err);
    CHECK(check_courant(y, &w1, 0, err, sizeof err) == -1, "0 accepted");
    double vp, amp, dir[3] = {1, 0, 0};
    CHECK(phase_velocity_error(y, &w1, dir, 10, 0.6, &vp, &amp, err, sizeof err) == -1, "unstable S accepted");
}

/* The general root-finding path agrees with leapfrog's closed form; S44's roots satisfy the
 * polynomial as SCHEMES.md writes it, and its asymptotic forms. */
static void test_general_time_rule(void)
{
    const struct scheme *y = get("yee");
    double worst = 0;
    for (int i = 1; i <= 199; i++) {
        double q = i / 100.0, t, amp;
        time_rule_root(y, q, &t, &amp);
        worst = fmax(worst, fmax(fabs(t / (2 * asin(q / 2)) - 1), fabs(amp - 1)));
    }
    CHECK(worst < 1e-13, "general path vs 2 asin(q/2): %.3e", worst);
    printf("  general vs closed-form leapfrog: largest relative difference %.1e (q = 0.01 .. 1.99)\n", worst);
    /* Through the whole chain: Fang at S = 0.4 with leapfrog's closed form vs the general path. */
    struct scheme f = fang();
    double w[2] = {9.0 / 8, -1.0 / 24}, k[3] = {0.3, 0.2, 0.1}, t1, a1, t2, a2;
    physical_root(&f, w, k, 0.4, &t1, &a1);
    time_rule_root(&f, 2 * 0.4 * sqrt(pow(symbol_axis(&f, w, k, 0), 2) + pow(symbol_axis(&f, w, k, 1), 2) +
                                      pow(symbol_axis(&f, w, k, 2), 2)), &t2, &a2);
    CHECK(fabs(t1 / t2 - 1) < 1e-14 && fabs(a2 - 1) < 1e-14, "fang %.17g %.17g", t1, t2);

    const struct scheme *s = get("s44");
    for (int i = 1; i <= 20; i++) {
        double q = i / 20.0, t, amp;
        time_rule_root(s, q, &t, &amp);
        double complex z = amp * cexp(I * t);
        double complex P = 22 * cpow(z, 4) - 17 * cpow(z, 3) - 9 * z * z + 5 * z - 1;
        double res = cabs(P * P + 576 * q * q * cpow(z, 7)) / (cabs(P * P) + 576 * q * q);
        CHECK(res < 1e-14, "s44 q=%g: residual %.3e", q, res);
        CHECK(amp < 1, "s44 q=%g: |z| = %.17g", q, amp);
    }
    double q = 0.05, t, amp;
    time_rule_root(s, q, &t, &amp);
    CHECK(fabs(t - q * (1 - 71 * pow(q, 4) / 1920)) < 1e-9 && fabs(amp - (1 - pow(q, 6) / 24)) < 1e-10,
          "s44 q=0.05: theta %.15f |z| %.15f", t, amp);
}

static void test_update_coefficients(void)
{
    const struct scheme *f = get("fv24"), *s = get("s44");
    double w[MAX_GROUPS], da[MAX_LEVELS], db[MAX_GROUPS], dt = 1e-12, delta = 1e-3;
    char err[256];
    weights(f, w);
    struct medium vac = {1, 1, 0, 0}, lossy = {2, 3, 0.1, 50};
    CHECK(!update_coefficients(f, w, 1, delta, dt, &vac, da, db, err, sizeof err), "%s", err);
    CHECK(da[0] == 1 && fabs(db[2] / (w[2] * dt / (VACUUM_MU * delta)) - 1) < 1e-15, "fv24 H %g %g", da[0], db[2]);
    CHECK(!update_coefficients(f, w, 0, delta, dt, &lossy, da, db, err, sizeof err), "%s", err);
    double h = 0.1 * dt / (2 * 2 * VACUUM_EPS);
    CHECK(fabs(da[0] - (1 - h) / (1 + h)) < 1e-15 && fabs(db[0] / (w[0] * dt / (2 * VACUUM_EPS * delta) / (1 + h)) - 1) < 1e-15,
          "fv24 lossy E: %.17g %.17g", da[0], db[0]);
    CHECK(!update_coefficients(f, w, 1, delta, dt, &lossy, da, db, err, sizeof err), "%s", err);
    h = 50 * dt / (2 * 3 * VACUUM_MU);
    CHECK(fabs(da[0] - (1 - h) / (1 + h)) < 1e-15, "fv24 lossy H: %.17g", da[0]);
    weights(s, w);
    CHECK(!update_coefficients(s, w, 1, delta, dt, &vac, da, db, err, sizeof err), "%s", err);
    static const double want[4] = {17.0 / 22, 9.0 / 22, -5.0 / 22, 1.0 / 22};
    for (int l = 0; l < 4; l++) CHECK(fabs(da[l] - want[l]) < 1e-16, "s44 Da%d %.17g", l + 1, da[l]);
    CHECK(fabs(db[0] / (12.0 / 11 * 9.0 / 8 * dt / (VACUUM_MU * delta)) - 1) < 1e-15 &&
              fabs(db[1] / (-12.0 / 11 / 24 * dt / (VACUUM_MU * delta)) - 1) < 1e-15,
          "s44 Db %g %g", db[0], db[1]);
    CHECK(update_coefficients(s, w, 0, delta, dt, &lossy, da, db, err, sizeof err) == -1, "lossy S44 accepted");
    CHECK(fabs(1 / sqrt(VACUUM_EPS * VACUUM_MU) / VACUUM_C - 1) < 1e-15, "c0 inconsistent");
    /* Designed weights need a leapfrog time rule. */
    struct scheme odd = *f;
    odd.levels = s->levels;
    memcpy(odd.time_coef, s->time_coef, sizeof odd.time_coef);
    CHECK(scheme_weights(&odd, 20, 0.5, w, err, sizeof err) == -1 && strstr(err, "leapfrog"), "'%s'", err);
}

static void test_worst_direction(void)
{
    static const double dirs[3][3] = {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}};
    for (int i = 0; i < scheme_count(); i++) {
        const struct scheme *s = scheme_at(i);
        double w[MAX_GROUPS], d[3], worst, amp, S = s->levels == 1 ? 0.5 : 0.2;
        char err[256];
        weights(s, w);
        for (int ppw = 10; ppw <= 20; ppw += 10) {
            CHECK(!worst_direction_error(s, w, ppw, S, d, &worst, &amp, err, sizeof err), "%s", err);
            for (int k = 0; k < 3; k++) {
                double v;
                phase_velocity_error(s, w, dirs[k], ppw, S, &v, &amp, err, sizeof err);
                CHECK(fabs(worst) >= fabs(v), "%s N=%d: worst %.3e below direction %d's %.3e", s->name, ppw, worst, k,
                      v);
            }
            /* No other direction on a fine grid of the sphere's octant is worse. */
            for (int t = 0; t <= 90; t += 2)
                for (int p = 0; p <= 90; p += 2) {
                    double e[3], v;
                    direction_from_angles(t, p, e);
                    phase_velocity_error(s, w, e, ppw, S, &v, &amp, err, sizeof err);
                    CHECK(fabs(v) <= fabs(worst) * (1 + 1e-9), "%s N=%d: (%d,%d) %.6e beats worst %.6e", s->name, ppw,
                          t, p, v, worst);
                }
        }
    }
    const struct scheme *y = get("yee");
    double w = 1, d[3], worst, amp;
    char err[256];
    worst_direction_error(y, &w, 10, 0.5, d, &worst, &amp, err, sizeof err);
    CHECK(digits7(worst, -1.241202e-2), "yee worst at N=10 %.7e (the axis)", worst);
}

/* ---- the command ----------------------------------------------------------------------- */

/* Runs fdtdbench with args; stdout into out, returns the exit status (-1 if it did not run). */
static int run(const char *args, char *out, size_t n, char *err, size_t en)
{
    const char *bin = getenv("FDTDBENCH");
    char cmd[1024], errfile[] = "/tmp/test_dispersion_XXXXXX";
    int fd = mkstemp(errfile);
    if (fd < 0) return -1;
    close(fd);
    snprintf(cmd, sizeof cmd, "%s dispersion %s 2>%s", bin, args, errfile);
    FILE *p = popen(cmd, "r");
    size_t got = p ? fread(out, 1, n - 1, p) : 0;
    out[got] = '\0';
    int rc = p ? pclose(p) : -1;
    FILE *e = fopen(errfile, "r");
    size_t eg = e ? fread(err, 1, en - 1, e) : 0;
    err[eg] = '\0';
    if (e) fclose(e);
    remove(errfile);
    return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_command(void)
{
    const char *bin = getenv("FDTDBENCH");
    if (!bin || access(bin, X_OK) != 0) SKIP("FDTDBENCH (the built fdtdbench) not given or not executable");
    static char out[1 << 20], err[4096];
    int rc = run("--scheme yee --ppw 10 --courant 0.5 --direction axial --csv", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && strstr(out, "scheme,courant,ppw,direction,theta_deg,phi_deg,vp_error,amplitude\n") &&
              strstr(out, "yee,0.5,10,axial,90.0000,0.0000,-1.2412020e-02,1.000000000000"),
          "rc %d out '%s' err '%s'", rc, out, err);
    rc = run("--scheme s44 --ppw 20 --csv", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && strstr(out, "s44,0.2,20,axial,90.0000,0.0000,-4.5967510e-05,0.99999999744"), "'%s'", out);
    rc = run("--table vs-ppw --csv", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && starts(out, "scheme,courant,ppw,direction,theta_deg,phi_deg,vp_error,amplitude\n") &&
              strstr(out, "\ns22,0.5,80,worst,"),
          "vs-ppw: rc %d '%.200s'", rc, out);
    rc = run("--table vs-angle --ppw 10 --csv", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && starts(out, "scheme,courant,ppw,theta_deg,phi_deg,vp_error,amplitude\n") &&
              strstr(out, "\nfv24,0.5,10,90.0000,45.0000,"),
          "vs-angle: rc %d '%.200s'", rc, out);
    rc = run("--table distance --ppw 10 --csv", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 &&
              starts(out, "scheme,courant,ppw,theta_deg,phi_deg,worst_vp_error,phase_error_deg,"
                         "distance_wavelengths,ratio_to_yee\n") &&
              strstr(out, "\nyee,0.5,10,") && strstr(out, ",10,2.23797,1\n"),
          "distance: rc %d '%.300s'", rc, out);
    /* Bad input: exit 2, one "fdtdbench: " line, nothing on stdout. */
    static const struct { const char *args, *says; } bad[] = {
        {"--scheme yee --ppw 10 --courant 0.6", "stability limit 0.5773502692"},
        {"--scheme s44 --ppw 10 --courant 0.25", "stability limit 0.2474358297"},
        {"--scheme yee --ppw 1", "--ppw"},
        {"--scheme yee --ppw 10 --direction sideways", "--direction"},
        {"--scheme nope --ppw 10", "unknown scheme"},
        {"--table sideways", "--table"},
        {"--table distance --courant 0.4", "s44"},
        {"--ppw 10", "--scheme"},
        {"--scheme yee", "--ppw"},
        {"--scheme yee --ppw 10 --frobnicate", "unknown option"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = run(bad[i].args, out, sizeof out, err, sizeof err);
        CHECK(rc == 2 && starts(err, "fdtdbench: ") && strchr(err, '\n') == err + strlen(err) - 1 &&
                  strstr(err, bad[i].says) && out[0] == '\0',
              "'%s': rc %d stderr '%s' stdout '%.80s'", bad[i].args, rc, err, out);
    }
}

int main(void)
{
    RUN(test_designed_weights_match_section3);
    RUN(test_symbol_matches_a1_a3_table);
    RUN(test_check_values_section4);
    RUN(test_stability_limits_closed_forms);
    RUN(test_general_time_rule);
    RUN(test_update_coefficients);
    RUN(test_worst_direction);
    RUN(test_command);
    return TEST_SUMMARY();
}
