/* fdtdbench dispersion: phase-velocity error and stability of the schemes,
 * for one scheme, or as tables for plotting. Everything is computed by analysis/design.c from
 * the parsed specs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "design.h"


static const char usage[] =
    "usage: fdtdbench dispersion --scheme S --ppw N [--courant X] [--direction D] [--csv]\n"
    "       fdtdbench dispersion --table vs-ppw|vs-angle|distance [--scheme S] [--ppw N]\n"
    "                            [--courant X] [--phase-error DEG] [--csv]\n"
    "\n"
    "Phase-velocity error v_p/c - 1 of a scheme's physical mode at N cells per wavelength and\n"
    "Courant number X = c dt / Delta (cubic cells), with |z| per step (1 for leapfrog schemes;\n"
    "below 1 for S44, whose time rule damps). The stability limit is found over the Brillouin zone;\n"
    "a Courant number at or above it is refused.\n"
    "\n";

struct opts {
    const struct scheme *scheme; /* NULL: every scheme (tables) */
    double ppw, courant;         /* 0: unset */
    const char *direction, *table;
    double design_ppw, design_courant, phase_deg;
    int csv;
};

/* A scheme ready to evaluate: its weights and the Courant number it runs at. */
struct setup {
    const struct scheme *s;
    double w[MAX_GROUPS], courant, limit;
};

static void prepare(const struct opts *o, const struct scheme *s, struct setup *u)
{
    char err[256];
    u->s = s;
    if (scheme_weights(s, o->design_ppw, o->design_courant, u->w, err, sizeof err)) cli_error("%s", err);
    u->limit = stability_limit(s, u->w);
    if (s->weights == WEIGHTS_DESIGNED && !(o->design_courant < u->limit))
        cli_error("--design-courant: %g is not below the stability limit %.4f of the %s it designs", o->design_courant,
                  u->limit, s->name);
    if (o->courant > 0) {
        if (check_courant(s, u->w, o->courant, err, sizeof err)) cli_error("--courant: %s", err);
        u->courant = o->courant;
    } else {
        u->courant = default_courant(s, u->w, o->design_courant);
    }
}

/* ---- output: the same rows as CSV or as aligned text ----------------------------------- */

enum { MAX_COLS = 10 };
static int csv;

static void row(int n, const char *const *cells)
{
    for (int i = 0; i < n; i++) {
        if (csv) printf("%s%s", i ? "," : "", cells[i]);
        else printf(i ? " %14s" : "%-8s", cells[i]);
    }
    putchar('\n');
}

/* One direction's row: scheme, courant, ppw, [direction,] theta, phi, vp_error, amplitude. */
static void direction_row(const struct setup *u, double ppw, const char *name, const double d[3])
{
    double vp, amp, t, p;
    char err[256], c[MAX_COLS][32];
    if (phase_velocity_error(u->s, u->w, d, ppw, u->courant, &vp, &amp, err, sizeof err)) cli_error("%s", err);
    angles_from_direction(d, &t, &p);
    snprintf(c[0], 32, "%s", u->s->name), snprintf(c[1], 32, "%g", u->courant), snprintf(c[2], 32, "%g", ppw);
    snprintf(c[3], 32, "%s", name ? name : ""), snprintf(c[4], 32, "%.4f", t), snprintf(c[5], 32, "%.4f", p);
    snprintf(c[6], 32, "%.7e", vp), snprintf(c[7], 32, "%.12f", amp);
    if (name) row(8, (const char *const[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]});
    else row(7, (const char *const[]){c[0], c[1], c[2], c[4], c[5], c[6], c[7]});
}

static void named_direction(const char *name, double d[3])
{
    if (!strcmp(name, "axial")) direction_from_angles(90, 0, d);
    else if (!strcmp(name, "face")) direction_from_angles(90, 45, d);
    else if (!strcmp(name, "body")) direction_from_angles(acos(1 / sqrt(3)) * 180 / PI, 45, d);
    else {
        char theta[64];
        const char *comma = strchr(name, ',');
        if (!comma || (size_t)(comma - name) >= sizeof theta)
            cli_error("--direction: '%s' is not axial, face, body or THETA,PHI in degrees", name);
        snprintf(theta, sizeof theta, "%.*s", (int)(comma - name), name);
        direction_from_angles(cli_double("--direction (polar angle THETA)", theta, 0, 180),
                              cli_double("--direction (azimuth PHI)", comma + 1, -360, 360), d);
    }
}

/* axial, face, body and the worst direction */
static void directions(const struct setup *u, double ppw)
{
    static const char *const names[] = {"axial", "face", "body"};
    double d[3], vp, amp;
    char err[256];
    for (int i = 0; i < 3; i++) named_direction(names[i], d), direction_row(u, ppw, names[i], d);
    if (worst_direction_error(u->s, u->w, ppw, u->courant, d, &vp, &amp, err, sizeof err)) cli_error("%s", err);
    direction_row(u, ppw, "worst", d);
}

static const char *const direction_cols[] = {"scheme", "courant", "ppw", "direction", "theta_deg", "phi_deg",
                                             "vp_error", "amplitude"};

static void describe(const struct setup *u)
{
    if (csv) return;
    printf("%s (%s): weights", u->s->name, u->s->title);
    for (int g = 0; g < u->s->ngroups; g++) printf(" %s = %.10g", u->s->group[g].name, u->w[g]);
    printf("; stable for S < %.10f; S = %g\n", u->limit, u->courant);
}

/* ---- tables ---------------------------------------------------------------------------- */

/* Every scheme the table covers (--scheme: just that one), set up before anything is printed so
 * that bad input leaves no half-written table. */
static int prepare_all(const struct opts *o, struct setup *u)
{
    int n = 0;
    for (int i = 0; i < scheme_count() && n < MAX_SCHEMES; i++)
        if (!o->scheme || o->scheme == scheme_at(i)) prepare(o, scheme_at(i), &u[n++]);
    return n;
}

static void table_vs_ppw(const struct opts *o)
{
    static const double ppws[] = {5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 25, 30, 35, 40, 50, 60, 70, 80};
    struct setup u[MAX_SCHEMES];
    int n = prepare_all(o, u);
    row(8, direction_cols);
    for (int i = 0; i < n; i++)
        for (size_t p = 0; p < sizeof ppws / sizeof ppws[0]; p++) directions(&u[i], ppws[p]);
}

static void table_vs_angle(const struct opts *o)
{
    double ppw = o->ppw > 0 ? o->ppw : 10, d[3];
    struct setup u[MAX_SCHEMES];
    int n = prepare_all(o, u);
    row(7, (const char *const[]){"scheme", "courant", "ppw", "theta_deg", "phi_deg", "vp_error", "amplitude"});
    for (int i = 0; i < n; i++)
        for (int t = 0; t <= 90; t += 5)
            for (int p = 0; p <= 90; p += 5) direction_from_angles(t, p, d), direction_row(&u[i], ppw, NULL, d);
}

/* The distance, in wavelengths, over which a phase error of phase_deg builds up. */
static double distance_of(const struct setup *u, double ppw, double phase_deg, double *vp, double d[3])
{
    double amp;
    char err[256];
    if (worst_direction_error(u->s, u->w, ppw, u->courant, d, vp, &amp, err, sizeof err)) cli_error("%s", err);
    return phase_error_distance(*vp, phase_deg);
}

static void table_distance(const struct opts *o)
{
    static const double ppws[] = {5, 10, 15, 20, 30, 40, 60, 80};
    int nppw = o->ppw > 0 ? 1 : (int)(sizeof ppws / sizeof ppws[0]);
    const struct scheme *ref = scheme_reference(); /* the spec with a 'reference' line */
    struct setup y, u[MAX_SCHEMES];
    if (ref) prepare(o, ref, &y);
    int n = prepare_all(o, u);
    char ratio_col[40];
    snprintf(ratio_col, sizeof ratio_col, "ratio_to_%s", ref ? ref->name : "reference");
    row(9, (const char *const[]){"scheme", "courant", "ppw", "theta_deg", "phi_deg", "worst_vp_error",
                                 "phase_error_deg", "distance_wavelengths", ratio_col});
    for (int i = 0; i < n; i++)
        for (int p = 0; p < nppw; p++) {
            double ppw = o->ppw > 0 ? o->ppw : ppws[p], vp, d[3], yvp, yd[3], t, ph;
            double dist = distance_of(&u[i], ppw, o->phase_deg, &vp, d);
            double ratio = ref ? dist / distance_of(&y, ppw, o->phase_deg, &yvp, yd) : NAN;
            char c[9][32];
            angles_from_direction(d, &t, &ph);
            snprintf(c[0], 32, "%s", u[i].s->name), snprintf(c[1], 32, "%g", u[i].courant);
            snprintf(c[2], 32, "%g", ppw), snprintf(c[3], 32, "%.4f", t), snprintf(c[4], 32, "%.4f", ph);
            snprintf(c[5], 32, "%.7e", vp), snprintf(c[6], 32, "%g", o->phase_deg);
            snprintf(c[7], 32, "%.6g", dist), snprintf(c[8], 32, "%.6g", ratio);
            row(9, (const char *const[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]});
        }
}

int cmd_dispersion(int argc, char **argv)
{
    struct opts o = {NULL, 0, 0, NULL, NULL, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, 10, 0};
    char scheme_help[200];
    snprintf(scheme_help, sizeof scheme_help, "%s (tables: only this one, plus the reference's ratio)", scheme_names());
    const char *scheme = NULL;
    const struct cli_option opts[] = {
        {"scheme", CLI_TEXT, "S", scheme_help, &scheme, 0, 0, NULL, 0},
        {"ppw", CLI_DOUBLE, "N", "cells per wavelength, 2 to 1e6 (vs-angle: default 10; distance: 5 to 80)", &o.ppw, 2, 1e6, NULL, 0},
        {"courant", CLI_DOUBLE, "X", "default: the design Courant number where stable, else at most 0.85 of the limit", &o.courant, 1e-6, 10, NULL, 0},
        {"direction", CLI_TEXT, "D", "axial, face, body, or THETA,PHI in degrees (0..180, -360..360)", &o.direction, 0, 0, NULL, 0},
        {"design-ppw", CLI_DOUBLE, "N", "design resolution of the designed schemes, 2 to 1e6 (20)", &o.design_ppw, 2, 1e6, NULL, 0},
        {"design-courant", CLI_DOUBLE, "X", "design Courant number, up to 1 and below the limit (0.5)", &o.design_courant, 1e-6, 1, NULL, 0},
        {"phase-error", CLI_DOUBLE, "DEG", "distance table: the phase error it adds up to (10)", &o.phase_deg, 1e-6, 360, NULL, 0},
        {"table", CLI_TEXT, "T", "vs-ppw (N = 5 to 80), vs-angle (theta, phi every 5 degrees), distance", &o.table, 0, 0, NULL, 0},
        CLI_OPT_CSV(&o.csv),
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    if (scheme) o.scheme = cli_scheme(scheme);
    csv = o.csv;
    if (o.table) {
        if (o.direction) cli_error("--direction: not with --table (vs-angle covers the directions)");
        if (!strcmp(o.table, "vs-ppw")) table_vs_ppw(&o);
        else if (!strcmp(o.table, "vs-angle")) table_vs_angle(&o);
        else if (!strcmp(o.table, "distance")) table_distance(&o);
        else cli_error("--table: unknown table '%s' (known: vs-ppw, vs-angle, distance)", o.table);
        return 0;
    }
    if (!o.scheme) cli_error("dispersion: give --scheme (or --table; see --help)");
    if (!(o.ppw > 0)) cli_error("dispersion: give --ppw, the cells per wavelength");
    double d[3];
    if (o.direction) named_direction(o.direction, d); /* bad input ends before any output */
    struct setup u;
    prepare(&o, o.scheme, &u);
    describe(&u);
    row(8, direction_cols);
    if (o.direction) direction_row(&u, o.ppw, strchr(o.direction, ',') ? "given" : o.direction, d);
    else directions(&u, o.ppw);
    return 0;
}
