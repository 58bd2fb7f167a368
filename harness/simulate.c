/* The periodic-box simulation (simulate.h). One code path for every backend: the fields live in
 * the backend's memory and only its alloc/upload/download/run_once are used; the periodic halos
 * are filled on the host (download, wrap, upload) after each component update, which is cheap on
 * the small grids this is for. */
#include "simulate.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "design.h"

#define PI 3.14159265358979323846

struct sim {
    const struct sim_config *c;
    const struct kernel_entry *k[NCOMPONENTS];
    void *f[NCOMPONENTS][MAX_LEVELS];      /* device fields, f[c][0] the newest level */
    void *coef[2][MAX_LEVELS + MAX_GROUPS]; /* COEF_ARRAY: [H, E] da..., then db... */
    double da[2][MAX_LEVELS], db[2][MAX_GROUPS];
    long sy, sz;
    size_t cells, bytes;                   /* per array, halos included */
    double *host;                          /* one array as doubles */
    void *stage;                           /* one array in the working precision */
};

/* ---- host <-> device ------------------------------------------------------------------- */

static void put(struct sim *m, void *dev, const double *src)
{
    if (m->c->precision == F32)
        for (size_t i = 0; i < m->cells; i++) ((float *)m->stage)[i] = (float)src[i];
    else memcpy(m->stage, src, m->bytes);
    m->c->b->upload(dev, m->stage, m->bytes);
}

static void get(struct sim *m, double *dst, const void *dev)
{
    m->c->b->download(m->stage, dev, m->bytes);
    if (m->c->precision == F32)
        for (size_t i = 0; i < m->cells; i++) dst[i] = ((const float *)m->stage)[i];
    else memcpy(dst, m->stage, m->bytes);
}

/* Fills the HALO ghost layers of a by periodic wrap, one axis after another over the whole
 * padded extent of the others, so edges and corners come right too. */
static void wrap(const struct sim *m, double *a)
{
    const int *n = m->c->grid;
    const long st[3] = {1, m->sy, m->sz};
    for (int ax = 0; ax < 3; ax++) {
        int b = (ax + 1) % 3, c = (ax + 2) % 3;
        for (int pb = 0; pb < n[b] + 2 * HALO; pb++)
            for (int pc = 0; pc < n[c] + 2 * HALO; pc++) {
                long base = pb * st[b] + pc * st[c] + HALO * st[ax]; /* interior index 0 on ax */
                for (int h = 1; h <= HALO; h++) {
                    a[base - h * st[ax]] = a[base + (n[ax] - h) * st[ax]];
                    a[base + (n[ax] - 1 + h) * st[ax]] = a[base + (h - 1) * st[ax]];
                }
            }
    }
}

static void refresh_halo(struct sim *m, int comp)
{
    get(m, m->host, m->f[comp][0]);
    wrap(m, m->host);
    put(m, m->f[comp][0], m->host);
}

/* ---- setup ----------------------------------------------------------------------------- */

static void sim_close(struct sim *m)
{
    if (!m) return;
    for (int c = 0; c < NCOMPONENTS; c++)
        for (int l = 0; l < MAX_LEVELS; l++)
            if (m->f[c][l]) m->c->b->release(m->f[c][l]);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < MAX_LEVELS + MAX_GROUPS; i++)
            if (m->coef[k][i]) m->c->b->release(m->coef[k][i]);
    free(m->host), free(m->stage), free(m);
}

/* A device array holding `value` everywhere; NULL if the device is full. */
static void *device_array(struct sim *m, double value)
{
    void *p = m->c->b->alloc(m->bytes);
    if (!p) return NULL;
    for (size_t i = 0; i < m->cells; i++) m->host[i] = value;
    put(m, p, m->host);
    return p;
}

static struct sim *sim_open(const struct sim_config *c, char *why, size_t n)
{
    const struct scheme *s = c->s;
    const int L = s->levels, G = s->ngroups;
    for (int d = 0; d < 3; d++)
        if (c->grid[d] < HALO) {
            snprintf(why, n, "grid %dx%dx%d: each size must be at least %d", c->grid[0], c->grid[1], c->grid[2], HALO);
            return NULL;
        }
    struct sim *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    m->c = c;
    m->sy = c->grid[0] + 2 * HALO;
    m->sz = m->sy * (c->grid[1] + 2 * HALO);
    m->cells = (size_t)m->sz * (size_t)(c->grid[2] + 2 * HALO);
    m->bytes = m->cells * (c->precision == F32 ? sizeof(float) : sizeof(double));
    m->host = malloc(m->cells * sizeof(double));
    m->stage = malloc(m->bytes);
    if (!m->host || !m->stage) {
        snprintf(why, n, "out of host memory");
        goto fail;
    }
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        m->k[comp] = kernel_find(c->b->device, s->name, comp, c->precision, c->coef, c->variant);
        if (!m->k[comp]) {
            snprintf(why, n, "no %s kernel '%s' for %s %s %s %s", device_names[c->b->device], c->variant, s->name,
                     component_names[comp], precision_names[c->precision], coef_names[c->coef]);
            goto fail;
        }
    }
    /* Vacuum, Delta = 1 m, dt from the Courant number. */
    for (int kind = 0; kind < 2; kind++)
        if (update_coefficients(s, c->w, kind == 0, 1.0, c->courant / VACUUM_C, NULL, m->da[kind], m->db[kind], why,
                                n))
            goto fail;
    for (int comp = 0; comp < NCOMPONENTS; comp++)
        for (int l = 0; l < L; l++)
            if (!(m->f[comp][l] = device_array(m, 0))) goto full;
    if (c->coef == COEF_ARRAY)
        for (int kind = 0; kind < 2; kind++)
            for (int i = 0; i < L + G; i++)
                if (!(m->coef[kind][i] = device_array(m, i < L ? m->da[kind][i] : m->db[kind][i - L]))) goto full;
    return m;
full:
    snprintf(why, n, "the %s cannot hold the fields of a %dx%dx%d grid", device_names[c->b->device], c->grid[0],
             c->grid[1], c->grid[2]);
fail:
    sim_close(m);
    return NULL;
}

/* ---- stepping -------------------------------------------------------------------------- */

/* Updates the three components from `first` (HX or EX), each into its oldest level (in place for
 * leapfrog), which then becomes the newest; its halo is refreshed for the other half step. */
static int half_step(struct sim *m, int first, char *why, size_t n)
{
    const struct sim_config *c = m->c;
    const int L = c->s->levels, kind = first == HX ? 0 : 1;
    for (int comp = first; comp < first + 3; comp++) {
        int plus, plus_axis, minus, minus_axis;
        component_sources(comp, &plus, &plus_axis, &minus, &minus_axis);
        struct kernel_args a;
        memset(&a, 0, sizeof a);
        a.nx = c->grid[0], a.ny = c->grid[1], a.nz = c->grid[2];
        a.sy = m->sy, a.sz = m->sz;
        a.out = m->f[comp][L - 1];
        for (int l = 0; l < L; l++) a.level[l] = m->f[comp][l], a.da[l] = m->coef[kind][l], a.da_u[l] = m->da[kind][l];
        for (int g = 0; g < c->s->ngroups; g++) a.db[g] = m->coef[kind][L + g], a.db_u[g] = m->db[kind][g];
        a.plus = m->f[plus][0], a.minus = m->f[minus][0];
        memcpy(a.block, c->block, sizeof a.block);
        if (c->b->run_once(m->k[comp]->fn, &a, why, n)) return -1;
        void *newest = m->f[comp][L - 1];
        memmove(&m->f[comp][1], &m->f[comp][0], (size_t)(L - 1) * sizeof(void *));
        m->f[comp][0] = newest;
        refresh_halo(m, comp);
    }
    return 0;
}

/* H^{n+1/2} from E^n, then E^{n+1} from H^{n+1/2}. */
static int step(struct sim *m, char *why, size_t n) { return half_step(m, HX, why, n) || half_step(m, EX, why, n); }

/* ---- the eigenmode --------------------------------------------------------------------- */

/* Where component comp's value at array index (i,j,k) sits, in cells (SCHEMES.md section 1):
 * E half a cell along its own axis, H half a cell along the other two. */
static void position(int comp, int i, int j, int k, double r[3])
{
    int a = component_axis(comp), idx[3] = {i, j, k};
    for (int d = 0; d < 3; d++) r[d] = idx[d] + ((d == a) != component_is_h(comp) ? 0.5 : 0);
}

/* Level l of component comp := Re[amp e^{j k.r}], halos wrapped. */
static void set_wave(struct sim *m, int comp, int l, double complex amp, const double k[3])
{
    const int *g = m->c->grid;
    memset(m->host, 0, m->cells * sizeof(double));
    for (int kk = 0; kk < g[2]; kk++)
        for (int j = 0; j < g[1]; j++)
            for (int i = 0; i < g[0]; i++) {
                double r[3];
                position(comp, i, j, kk, r);
                long at = (kk + HALO) * m->sz + (j + HALO) * m->sy + i + HALO;
                m->host[at] = creal(amp * cexp(I * (k[0] * r[0] + k[1] * r[1] + k[2] * r[2])));
            }
    wrap(m, m->host);
    put(m, m->f[comp][l], m->host);
}

/* sum over the interior of the newest level times e^{-j k.r}: amp N / 2 for Re[amp e^{j k.r}] */
static double complex project(struct sim *m, int comp, const double k[3])
{
    const int *g = m->c->grid;
    double complex sum = 0;
    get(m, m->host, m->f[comp][0]);
    for (int kk = 0; kk < g[2]; kk++)
        for (int j = 0; j < g[1]; j++)
            for (int i = 0; i < g[0]; i++) {
                double r[3];
                position(comp, i, j, kk, r);
                sum += m->host[(kk + HALO) * m->sz + (j + HALO) * m->sy + i + HALO] *
                       cexp(-I * (k[0] * r[0] + k[1] * r[1] + k[2] * r[2]));
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
    if (self_conjugate || !(Kn > 0) || steps < 1) {
        snprintf(why, n, "mode (%d,%d,%d) on %dx%dx%d: need K~ != 0, a mode distinct from its conjugate, steps >= 1",
                 mode[0], mode[1], mode[2], c->grid[0], c->grid[1], c->grid[2]);
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
        if (step(m, why, n)) {
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
        get(m, m->host, m->f[comp][0]);
        for (int kk = 0; kk < g[2]; kk++)
            for (int j = 0; j < g[1]; j++)
                for (int i = 0; i < g[0]; i++) part += pow(m->host[(kk + HALO) * m->sz + (j + HALO) * m->sy + i + HALO], 2);
        sum += part * (component_is_h(comp) ? VACUUM_MU : VACUUM_EPS);
    }
    return sum;
}

int sim_energy_growth(const struct sim_config *c, int steps, double *growth, char *why, size_t n)
{
    struct sim *m = sim_open(c, why, n);
    if (!m) return -1;
    const double eta0 = VACUUM_MU * VACUUM_C;
    for (int comp = 0; comp < NCOMPONENTS; comp++) {
        double span = component_is_h(comp) ? 1 / eta0 : 1; /* equal energy in E and H */
        for (int l = 0; l < c->s->levels; l++)
            c->b->fill_random(m->f[comp][l], m->cells, c->precision, 17u + (unsigned)(comp * MAX_LEVELS + l), -span,
                              span);
        refresh_halo(m, comp);
    }
    double e0 = energy(m);
    *growth = 1;
    for (int t = 0; t < steps; t++) {
        if (step(m, why, n)) {
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
