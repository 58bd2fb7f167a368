/* The periodic-box simulation (simulate.h), run by the step engine (step.h) on any backend:
 * the fields live in the device's memory and are set and read through the host only between
 * steps, to seed a mode and to measure it. */
#define _POSIX_C_SOURCE 200809L
#include "simulate.h"

#include <complex.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "pml.h"
#include "step.h"


struct sim {
    const struct step_config *c;
    struct stepper *m;
    long sy, sz;
    size_t cells;
    double *host; /* one array as doubles */
    double complex *phase[3]; /* e^{j k_d r_d} along each axis (axis_phases) */
};

static void sim_close(struct sim *m)
{
    if (!m) return;
    step_close(m->m);
    for (int d = 0; d < 3; d++) free(m->phase[d]);
    free(m->host), free(m);
}

static struct sim *sim_open(const struct step_config *c, char *why, size_t n)
{
    struct sim *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    m->c = c;
    if (!(m->m = step_open(c, why, n))) {
        sim_close(m);
        return NULL;
    }
    m->cells = step_cells(m->m, &m->sy, &m->sz);
    m->host = malloc(m->cells * sizeof(double));
    for (int d = 0; d < 3; d++) m->phase[d] = malloc((size_t)c->grid[d] * sizeof(double complex));
    if (!m->host || !m->phase[0] || !m->phase[1] || !m->phase[2]) {
        snprintf(why, n, "out of host memory");
        sim_close(m);
        return NULL;
    }
    return m;
}

static long at(const struct sim *m, int i, int j, int k) { return (k + HALO) * m->sz + (j + HALO) * m->sy + i + HALO; }

/* ---- the eigenmode --------------------------------------------------------------------- */

/* e^{j k_d r_d} at component comp's positions along each axis (SCHEMES.md section 1: half a
 * cell on the axes it is staggered along); e^{j k.r} is the product of the three. */
static void axis_phases(struct sim *m, int comp, const double k[3])
{
    for (int d = 0; d < 3; d++)
        for (int i = 0; i < m->c->grid[d]; i++)
            m->phase[d][i] = cexp(I * k[d] * (i + (component_half(comp, d) ? 0.5 : 0)));
}

/* Level l of component comp := Re[amp e^{j k.r}] (the engine refreshes the halo). */
static void set_wave(struct sim *m, int comp, int l, double complex amp, const double k[3])
{
    const int *g = m->c->grid;
    memset(m->host, 0, m->cells * sizeof(double));
    axis_phases(m, comp, k);
    for (int kk = 0; kk < g[2]; kk++)
        for (int j = 0; j < g[1]; j++) {
            double complex a = amp * m->phase[2][kk] * m->phase[1][j];
            for (int i = 0; i < g[0]; i++) m->host[at(m, i, j, kk)] = creal(a * m->phase[0][i]);
        }
    step_put(m->m, comp, l, m->host);
}

/* sum over the interior of the newest level times e^{-j k.r}: amp N / 2 for Re[amp e^{j k.r}] */
static double complex project(struct sim *m, int comp, const double k[3])
{
    const int *g = m->c->grid;
    double complex sum = 0;
    step_get(m->m, comp, 0, m->host);
    axis_phases(m, comp, k);
    for (int kk = 0; kk < g[2]; kk++)
        for (int j = 0; j < g[1]; j++) {
            double complex row = 0;
            for (int i = 0; i < g[0]; i++) row += m->host[at(m, i, j, kk)] * conj(m->phase[0][i]);
            sum += row * conj(m->phase[2][kk] * m->phase[1][j]);
        }
    return sum;
}

static double complex project_e(struct sim *m, const double k[3], const double e[3])
{
    double complex sum = 0;
    for (int a = 0; a < 3; a++) sum += e[a] * project(m, EX + a, k);
    return sum;
}

/* The mode's wave vector k, E0 (unit) and H0, and the scheme's physical root (phase per step,
 * |z|). 0, or -1 with why. */
struct mode {
    double k[3], e[3], h[3], theta, amplitude;
};

static int mode_shape(const struct step_config *c, const int mode[3], int steps, struct mode *md, char *why, size_t n)
{
    const struct scheme *s = c->s;
    double *k = md->k, *e = md->e, *h = md->h, K[3];
    int self_conjugate = 1;
    for (int d = 0; d < 3; d++) {
        k[d] = 2 * PI * mode[d] / c->grid[d];
        self_conjugate &= 2 * mode[d] % c->grid[d] == 0;
    }
    for (int d = 0; d < 3; d++) K[d] = symbol_axis(s, c->w, k, d);
    double Kn = sqrt(K[0] * K[0] + K[1] * K[1] + K[2] * K[2]);
    if (self_conjugate || !(Kn > 0) || steps < 1 || c->boundary != BOUNDARY_PERIODIC) {
        snprintf(why, n, "mode (%d,%d,%d) on %dx%dx%d: need a periodic box, K~ != 0, a mode distinct from its "
                 "conjugate, steps >= 1", mode[0], mode[1], mode[2], c->grid[0], c->grid[1], c->grid[2]);
        return -1;
    }
    /* E0 = K~ x (the axis K~ leans on least), normalised; then H0 = -(1/eta0) (K~/|K~|) x E0,
     * which is the discrete curl relation tau(z) H = -(dt/mu) j K~ x E with tau(z) = j c dt |K~|,
     * the relation the physical root satisfies. */
    int least = 0;
    for (int d = 1; d < 3; d++)
        if (fabs(K[d]) < fabs(K[least])) least = d;
    double ax[3] = {0, 0, 0};
    ax[least] = 1;
    e[0] = K[1] * ax[2] - K[2] * ax[1], e[1] = K[2] * ax[0] - K[0] * ax[2], e[2] = K[0] * ax[1] - K[1] * ax[0];
    double en = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    for (int d = 0; d < 3; d++) e[d] /= en;
    const double eta0 = VACUUM_MU * VACUUM_C;
    h[0] = -(K[1] * e[2] - K[2] * e[1]) / (Kn * eta0);
    h[1] = -(K[2] * e[0] - K[0] * e[2]) / (Kn * eta0);
    h[2] = -(K[0] * e[1] - K[1] * e[0]) / (Kn * eta0);
    physical_root(s, c->w, k, c->courant, &md->theta, &md->amplitude);
    return 0;
}

/* Every level of every component from the mode: E^{-l} and H^{-1/2-l}. */
static void seed_mode(struct sim *m, const struct mode *md)
{
    double complex root_half = sqrt(md->amplitude) * cexp(I * md->theta / 2); /* z^{1/2}: H lags E by half a step */
    for (int l = 0; l < m->c->s->levels; l++)
        for (int a = 0; a < 3; a++) {
            set_wave(m, EX + a, l, md->e[a] * cpow(root_half, -2 * l), md->k);
            set_wave(m, HX + a, l, md->h[a] * cpow(root_half, -1 - 2 * l), md->k);
        }
}

int sim_mode(const struct step_config *c, const int mode[3], int steps, double *theta, double *amplitude, char *why,
             size_t n)
{
    struct mode md;
    if (mode_shape(c, mode, steps, &md, why, n)) return -1;
    struct sim *m = sim_open(c, why, n);
    if (!m) return -1;
    seed_mode(m, &md);
    double complex first = project_e(m, md.k, md.e), prev = first, now = first;
    double total = 0;
    for (int t = 0; t < steps; t++) {
        if (step_run(m->m, 1, why, n)) {
            sim_close(m);
            return -1;
        }
        now = project_e(m, md.k, md.e);
        total += carg(now / prev); /* per step, so no unwrapping is needed */
        prev = now;
    }
    sim_close(m);
    *theta = total / steps;
    *amplitude = pow(cabs(now / first), 1.0 / steps);
    return 0;
}

int sim_mode_timed(const struct step_config *c, const int mode[3], int steps, double *theta, double *amplitude,
                   double *seconds, char *why, size_t n)
{
    struct mode md;
    if (mode_shape(c, mode, steps, &md, why, n)) return -1;
    struct sim *m = sim_open(c, why, n);
    if (!m) return -1;
    int rc = step_run(m->m, 1, why, n); /* the warm-up, on fields the seed then replaces */
    double complex first = 0, now = 0;
    if (!rc) {
        seed_mode(m, &md);
        first = project_e(m, md.k, md.e);
        double t0 = omp_get_wtime();
        rc = step_run(m->m, steps, why, n);
        *seconds = omp_get_wtime() - t0;
    }
    if (!rc) now = project_e(m, md.k, md.e);
    sim_close(m);
    if (rc) return -1;
    double expected = md.theta * steps; /* the phase the scheme should advance; the measured within half a turn */
    *theta = (expected + remainder(carg(now / first) - expected, 2 * PI)) / steps;
    *amplitude = pow(cabs(now / first), 1.0 / steps);
    return 0;
}

/* ---- stability ------------------------------------------------------------------------- */

static double energy(struct sim *m)
{
    const int *g = m->c->grid;
    double sum = 0;
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        double part = 0;
        step_get(m->m, comp, 0, m->host);
        for (int kk = 0; kk < g[2]; kk++)
            for (int j = 0; j < g[1]; j++)
                for (int i = 0; i < g[0]; i++) part += pow(m->host[at(m, i, j, kk)], 2);
        sum += part * (component_is_h(comp) ? VACUUM_MU : VACUUM_EPS);
    }
    return sum;
}

int sim_energy_growth(const struct step_config *c, int steps, double *growth, char *why, size_t n)
{
    struct sim *m = sim_open(c, why, n);
    if (!m) return -1;
    step_fill_random(m->m, 17);
    double e0 = energy(m);
    *growth = 1;
    for (int t = 0; t < steps; t++) {
        if (step_run(m->m, 1, why, n)) {
            sim_close(m);
            return -1;
        }
        double r = energy(m) / e0;
        if (!(r <= 1e30)) { /* overflowing, or already infinite */
            *growth = INFINITY;
            break;
        }
        *growth = fmax(*growth, r);
    }
    sim_close(m);
    return 0;
}

/* ---- the layer's reflection ------------------------------------------------------------ */

/* Cells from the source to the layer's inner faces (every face), the pulse's length in cells
 * (its Gaussian's 1/e half-width as light travels it: the differentiated Gaussian's spectrum
 * peaks at 18 cells per wavelength, is 10 dB down at 8 and 40 dB at 5), and the slowest and
 * fastest group velocity over c the runs' lengths allow for. */
enum { REFLECTION_GAP = 4 };
#define PML_PULSE_CELLS 4.0
#define SLOWEST_WAVE 0.8
#define FASTEST_WAVE 1.1

/* The source's current at step t: a differentiated Gaussian of peak 1, centred at t0. */
static double pulse(double t, double t0, double tau)
{
    double x = (t - t0) / tau;
    return -x * exp(0.5 - x * x) * sqrt(2.0);
}

/* Runs c (its grid and layer) with the source at `source` for `steps` steps; records Ex at a
 * and, if b is not NULL, at b after each step. */
static int reflection_run(const struct step_config *c, const int source[3], int steps, double t0, double tau,
                          const int a[3], const int b[3], double *at_a, double *at_b, char *why, size_t n)
{
    struct stepper *m = step_open(c, why, n);
    if (!m) return -1;
    for (int t = 0; t < steps; t++) {
        if (step_run(m, 1, why, n)) {
            step_close(m);
            return -1;
        }
        step_add(m, EX, source, pulse(t + 1, t0, tau));
        at_a[t] = step_peek(m, EX, a);
        if (b) at_b[t] = step_peek(m, EX, b);
    }
    step_close(m);
    return 0;
}

int sim_pml_reflection(const struct step_config *c, double *db, int *steps, char *why, size_t n)
{
    /* at least a third of each side is the layer's (pml_check): a thick layer widens the gap */
    const int N = c->pml, w = REFLECTION_GAP > (N + 1) / 2 ? REFLECTION_GAP : (N + 1) / 2, side = 2 * N + 2 * w;
    if (N < 1) {
        snprintf(why, n, "no layer to measure the reflection of");
        return -1;
    }
    const double S = c->courant, tau = PML_PULSE_CELLS / S, t0 = 4.5 * tau;
    /* the source w cells from every layer; the observation point half way to the +z layer, so the
     * reflection's path to it is 1.5 w cells (2N more through the layer to the wall and back) */
    const int source[3] = {side / 2, side / 2, N + w}, obs[3] = {side / 2, side / 2, N + w + w / 2},
              far[3] = {side / 2, side / 2, N + w + w / 2 + w};
    const int T = (int)ceil(t0 + 4.5 * tau + (1.5 * w + 2 * N) / (SLOWEST_WAVE * S));
    /* the longer box: its +z layer D cells from the source, farther than anything travels and
     * comes back to obs within T steps */
    const int D = (int)ceil((FASTEST_WAVE * S * T + w / 2) / 2);
    struct step_config test = *c, ref = *c;
    test.boundary = ref.boundary = BOUNDARY_PEC;
    test.grid[0] = test.grid[1] = test.grid[2] = side;
    ref.grid[0] = ref.grid[1] = side, ref.grid[2] = N + w + D + N;
    double *v = malloc(3 * (size_t)T * sizeof *v), *reflected = v, *longer = v + T, *incident = v + 2 * T;
    if (!v) {
        snprintf(why, n, "out of host memory");
        return -1;
    }
    /* one thread: a step of these small boxes is too short to share (on a busy machine, waking
     * the others costs more than the step); the result is the same on any number */
    const int threads = c->b->threads();
    c->b->set_threads(1);
    int rc = reflection_run(&test, source, T, t0, tau, obs, NULL, reflected, NULL, why, n);
    if (!rc) rc = reflection_run(&ref, source, T, t0, tau, obs, far, longer, incident, why, n);
    c->b->set_threads(threads);
    double r = 0, i = 0;
    for (int t = 0; t < T && !rc; t++) r = fmax(r, fabs(reflected[t] - longer[t])), i = fmax(i, fabs(incident[t]));
    free(v);
    if (rc) return -1;
    *db = 20 * log10(r / i);
    *steps = T;
    return 0;
}
