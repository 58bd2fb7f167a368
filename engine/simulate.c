/* The periodic-box simulation (simulate.h), run by the step engine (step.h) on any backend:
 * the fields live in the device's memory and are set and read through the host only between
 * steps, to seed a mode and to measure it. */
#include "simulate.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"
#include "step.h"

#define PI 3.14159265358979323846

struct sim {
    const struct sim_config *c;
    struct stepper *m;
    long sy, sz;
    size_t cells;
    double *host; /* one array as doubles */
};

static void sim_close(struct sim *m)
{
    if (!m) return;
    step_close(m->m);
    free(m->host), free(m);
}

static struct sim *sim_open(const struct sim_config *c, char *why, size_t n)
{
    struct step_config sc = {.b = c->b, .s = c->s, .w = c->w, .precision = c->precision, .coef = c->coef,
                             .variant = c->variant, .grid = {c->grid[0], c->grid[1], c->grid[2]},
                             .courant = c->courant, .boundary = c->boundary};
    memcpy(sc.block, c->block, sizeof sc.block);
    struct sim *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    m->c = c;
    if (!(m->m = step_open(&sc, why, n))) {
        sim_close(m);
        return NULL;
    }
    m->cells = step_cells(m->m, &m->sy, &m->sz);
    if (!(m->host = malloc(m->cells * sizeof(double)))) {
        snprintf(why, n, "out of host memory");
        sim_close(m);
        return NULL;
    }
    return m;
}

static long at(const struct sim *m, int i, int j, int k) { return (k + HALO) * m->sz + (j + HALO) * m->sy + i + HALO; }

/* ---- the eigenmode --------------------------------------------------------------------- */

/* Where component comp's value at array index (i,j,k) sits, in cells (SCHEMES.md section 1). */
static void position(int comp, int i, int j, int k, double r[3])
{
    int idx[3] = {i, j, k};
    for (int d = 0; d < 3; d++) r[d] = idx[d] + (component_half(comp, d) ? 0.5 : 0);
}

/* Level l of component comp := Re[amp e^{j k.r}] (the engine refreshes the halo). */
static void set_wave(struct sim *m, int comp, int l, double complex amp, const double k[3])
{
    const int *g = m->c->grid;
    memset(m->host, 0, m->cells * sizeof(double));
    for (int kk = 0; kk < g[2]; kk++)
        for (int j = 0; j < g[1]; j++)
            for (int i = 0; i < g[0]; i++) {
                double r[3];
                position(comp, i, j, kk, r);
                m->host[at(m, i, j, kk)] = creal(amp * cexp(I * (k[0] * r[0] + k[1] * r[1] + k[2] * r[2])));
            }
    step_put(m->m, comp, l, m->host);
}

/* sum over the interior of the newest level times e^{-j k.r}: amp N / 2 for Re[amp e^{j k.r}] */
static double complex project(struct sim *m, int comp, const double k[3])
{
    const int *g = m->c->grid;
    double complex sum = 0;
    step_get(m->m, comp, 0, m->host);
    for (int kk = 0; kk < g[2]; kk++)
        for (int j = 0; j < g[1]; j++)
            for (int i = 0; i < g[0]; i++) {
                double r[3];
                position(comp, i, j, kk, r);
                sum += m->host[at(m, i, j, kk)] * cexp(-I * (k[0] * r[0] + k[1] * r[1] + k[2] * r[2]));
            }
    return sum;
}

static double complex project_e(struct sim *m, const double k[3], const double e[3])
{
    double complex sum = 0;
    for (int a = 0; a < 3; a++) sum += e[a] * project(m, EX + a, k);
    return sum;
}

int sim_mode(const struct sim_config *c, const int mode[3], int steps, double *theta, double *amplitude, char *why,
             size_t n)
{
    const struct scheme *s = c->s;
    double k[3], K[3], e[3], h[3];
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
    double th, amp;
    physical_root(s, c->w, k, c->courant, &th, &amp);
    double complex root_half = sqrt(amp) * cexp(I * th / 2); /* z^{1/2}: H lags E by half a step */

    struct sim *m = sim_open(c, why, n);
    if (!m) return -1;
    for (int l = 0; l < s->levels; l++)
        for (int a = 0; a < 3; a++) {
            set_wave(m, EX + a, l, e[a] * cpow(root_half, -2 * l), k);     /* E^{-l} */
            set_wave(m, HX + a, l, h[a] * cpow(root_half, -1 - 2 * l), k); /* H^{-1/2-l} */
        }
    double complex first = project_e(m, k, e), prev = first, now = first;
    double total = 0;
    for (int t = 0; t < steps; t++) {
        if (step_run(m->m, 1, why, n)) {
            sim_close(m);
            return -1;
        }
        now = project_e(m, k, e);
        total += carg(now / prev); /* per step, so no unwrapping is needed */
        prev = now;
    }
    sim_close(m);
    *theta = total / steps;
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

int sim_energy_growth(const struct sim_config *c, int steps, double *growth, char *why, size_t n)
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
