/* Weights, update coefficients, dispersion and stability (SCHEMES.md sections 3-4).
 * The spatial symbol is summed over the spec's expanded points (expand_group), the very list the
 * generator turns into kernels, and the time symbol over the spec's time coefficients, so the
 * analysis cannot drift from what the kernels compute. */
#include "design.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


/* ---- spatial symbol ------------------------------------------------------------------ */

/* Group g's share per unit weight of (Delta/2) K~_xi. A point at offset r (cells) from the
 * updated value, with sign s, reads s e^{j k.r} of a plane wave; the +m and -m points of one
 * shift sum to 2j sin(m k_xi) e^{j sigma.k}, so the share is half the sum of s sin(k.r). The
 * points are those of the H component whose first curl term is differentiated along xi, where
 * array offset m + 1/2 along xi is half-offset m (SCHEMES.md section 1). */
static double group_symbol(const struct scheme *s, int g, const double k[3], int xi)
{
    struct group_terms t;
    expand_group(s, g, HX + (xi + 1) % 3, &t);
    double sum = 0;
    for (int p = 0; p < t.npoints; p++) {
        const struct point *q = &t.plus[p];
        sum += q->sign * sin(k[0] * q->d[0] + k[1] * q->d[1] + k[2] * q->d[2] - 0.5 * k[xi]);
    }
    return sum / 2;
}

/* Twice the slope of group_symbol at k = 0, i.e. 2 m_g |T_g|: the group's share of the
 * consistency sum, which must be 1 for the operator to tend to d/dxi. */
static double group_consistency(const struct scheme *s, int g)
{
    struct group_terms t;
    expand_group(s, g, HX + 1, &t); /* Hy: first curl term differentiated along x */
    double sum = 0;
    for (int p = 0; p < t.npoints; p++) sum += t.plus[p].sign * (t.plus[p].d[0] - 0.5);
    return sum;
}

double symbol_axis(const struct scheme *s, const double *w, const double k[3], int xi)
{
    double sum = 0;
    for (int g = 0; g < s->ngroups; g++) sum += w[g] * group_symbol(s, g, k, xi);
    return sum;
}

/* |(Delta/2) K~| */
static double symbol_norm(const struct scheme *s, const double *w, const double k[3])
{
    double sum = 0;
    for (int xi = 0; xi < 3; xi++) sum += pow(symbol_axis(s, w, k, xi), 2);
    return sqrt(sum);
}

/* ---- time symbol and its roots --------------------------------------------------------- */

/* tau(z) = sum_l c_l z^{1/2-l} / norm, given h = z^{1/2}: for e^{j(k.r + omega t)}, the time
 * difference becomes tau / dt, and the curl equations give tau = +-j q with q = c dt |K~|. */
static double complex time_symbol(const struct scheme *s, double complex h)
{
    double complex sum = 0;
    for (int l = 0; l <= s->levels; l++) sum += s->time_coef[l] * cpow(h, 1 - 2 * l);
    return sum / time_norm(s);
}

enum { MAX_DEGREE = 2 * MAX_LEVELS };

static double complex poly_eval(int n, const double complex *p, double complex x, double complex *slope)
{
    double complex v = p[n], d = 0;
    for (int i = n - 1; i >= 0; i--) d = d * x + v, v = v * x + p[i];
    if (slope) *slope = d;
    return v;
}

/* Every root of p[0] + p[1] x + ... + p[n] x^n: Durand-Kerner iteration, then Newton steps that
 * are kept only while they shrink the residual (near a double root they could jump). A quadratic
 * (every leapfrog scheme's time rule) in closed form, the larger root first so that neither
 * cancels: the iteration took a third of a `cost` query. */
static void poly_roots(int n, const double complex *p, double complex *r)
{
    if (n == 2 && p[2] != 0) {
        const double complex d = csqrt(p[1] * p[1] - 4 * p[0] * p[2]);
        const double complex big = -(p[1] + (creal(conj(p[1]) * d) >= 0 ? d : -d)) / 2;
        if (big != 0) {
            r[0] = big / p[2], r[1] = p[0] / big;
            return;
        }
    }
    for (int i = 0; i < n; i++) r[i] = cpow(0.4 + 0.9 * I, i);
    for (int it = 0; it < 2000; it++) {
        double change = 0;
        for (int i = 0; i < n; i++) {
            double complex den = p[n];
            for (int j = 0; j < n; j++)
                if (j != i) den *= r[i] - r[j];
            double complex d = poly_eval(n, p, r[i], NULL) / den;
            r[i] -= d;
            change = fmax(change, cabs(d));
        }
        if (change < 1e-15) break;
    }
    for (int i = 0; i < n; i++)
        for (int it = 0; it < 4; it++) {
            double complex slope, v = poly_eval(n, p, r[i], &slope);
            if (slope == 0) break;
            double complex next = r[i] - v / slope;
            if (!(cabs(poly_eval(n, p, next, NULL)) < cabs(v))) break;
            r[i] = next;
        }
}

/* The 2L roots h = z^{1/2} of tau(z) = j q, i.e. P(h^2) - j q norm h^{2L-1} = 0 with
 * P(z) = sum_l c_l z^{L-l}. (tau = -j q gives the same z from -h, so these are all the z of
 * P(z)^2 + norm^2 q^2 z^{2L-1} = 0; for S44 that is SCHEMES.md's P^2 + 576 q^2 z^7 = 0.)
 * Working with h keeps the physical root simple at small q, where z and its conjugate meet. */
static int time_roots(const struct scheme *s, double q, double complex *h)
{
    int L = s->levels, n = 2 * L;
    double complex p[MAX_DEGREE + 1] = {0};
    for (int l = 0; l <= L; l++) p[2 * (L - l)] += s->time_coef[l];
    p[n - 1] -= I * q * time_norm(s);
    poly_roots(n, p, h);
    return n;
}

void time_rule_root(const struct scheme *s, double q, double *theta, double *amplitude)
{
    double complex h[MAX_DEGREE], want = cexp(I * q / 2);
    int n = time_roots(s, q, h), best = 0;
    for (int i = 1; i < n; i++)
        if (cabs(h[i] - want) < cabs(h[best] - want)) best = i;
    *theta = 2 * carg(h[best]);
    *amplitude = pow(cabs(h[best]), 2);
}

/* The largest |z| over all roots at q, and the angle of the root that has it. */
static double max_root_modulus(const struct scheme *s, double q, double *angle)
{
    double complex h[MAX_DEGREE];
    int n = time_roots(s, q, h);
    double m = 0;
    for (int i = 0; i < n; i++)
        if (pow(cabs(h[i]), 2) > m) m = pow(cabs(h[i]), 2), *angle = 2 * carg(h[i]);
    return m;
}

double time_rule_limit(const struct scheme *s)
{
    /* Roots on the unit circle come out to ~1e-15, a double one (leapfrog at q = 2) to ~1e-8:
     * bisection on |z| <= 1 + tol brackets the limit to about tol. */
    const double tol = 1e-7;
    double lo = 0, hi = 1, phi = 0;
    while (max_root_modulus(s, hi, &phi) <= 1 + tol) {
        lo = hi, hi *= 2;
        if (hi > 1e6) return INFINITY;
    }
    while (hi - lo > 1e-15 * hi) {
        double mid = (lo + hi) / 2;
        if (max_root_modulus(s, mid, &phi) <= 1 + tol) lo = mid;
        else hi = mid;
    }
    max_root_modulus(s, hi, &phi);
    /* At the limit the escaping root is on the unit circle, at e^{j phi} where tau is purely
     * imaginary and q = |tau|: refine phi from that root's angle (secant on Re tau = 0). */
    double f = creal(time_symbol(s, cexp(I * phi / 2)));
    for (int it = 0; it < 50 && fabs(f) > 1e-15; it++) {
        double phi2 = phi + 1e-7, f2 = creal(time_symbol(s, cexp(I * phi2 / 2)));
        if (f2 == f) break;
        phi -= f * (phi2 - phi) / (f2 - f);
        f = creal(time_symbol(s, cexp(I * phi / 2)));
    }
    double q = fabs(cimag(time_symbol(s, cexp(I * phi / 2))));
    return fabs(f) <= 1e-15 && fabs(q - lo) < 1e-5 * lo ? q : lo;
}

/* ---- stability ------------------------------------------------------------------------- */

/* The largest |(Delta/2) K~| over the Brillouin zone: |K~| is even in each component of k, so
 * a grid over [0, pi]^3, then a compass search from its best node. */
static double max_symbol(const struct scheme *s, const double *w)
{
    enum { N = 12 };
    double best = -1, kb[3] = {0};
    for (int i = 0; i <= N; i++)
        for (int j = 0; j <= N; j++)
            for (int l = 0; l <= N; l++) {
                double k[3] = {i * PI / N, j * PI / N, l * PI / N}, v = symbol_norm(s, w, k);
                if (v > best) best = v, memcpy(kb, k, sizeof kb);
            }
    for (double step = PI / N; step > 1e-9; step /= 2)
        for (int moved = 1; moved;) {
            moved = 0;
            for (int a = 0; a < 6; a++) {
                double k[3] = {kb[0], kb[1], kb[2]};
                k[a / 2] = fmin(PI, fmax(0, k[a / 2] + (a % 2 ? step : -step)));
                double v = symbol_norm(s, w, k);
                if (v > best) best = v, memcpy(kb, k, sizeof kb), moved = 1;
            }
        }
    return best;
}

/* The tables ask for one scheme's limit thousands of times: remember the last answer. */
static struct {
    struct scheme s;
    double w[MAX_GROUPS], limit;
    int valid;
} memo;

static int memo_matches(const struct scheme *s, const double *w)
{
    if (!memo.valid || memo.s.levels != s->levels || memo.s.ngroups != s->ngroups) return 0;
    for (int l = 0; l <= s->levels; l++)
        if (memo.s.time_coef[l] != s->time_coef[l]) return 0;
    for (int g = 0; g < s->ngroups; g++)
        if (memo.w[g] != w[g] || memo.s.group[g].half_span2 != s->group[g].half_span2 ||
            memo.s.group[g].shifts != s->group[g].shifts)
            return 0;
    return 1;
}

/* Stable iff c dt max|K~| <= q_max of the time rule, i.e. S <= q_max / (2 max|(Delta/2) K~|). */
double stability_limit(const struct scheme *s, const double *w)
{
    if (memo_matches(s, w)) return memo.limit;
    memo.s = *s;
    memcpy(memo.w, w, sizeof(double) * (size_t)s->ngroups);
    memo.limit = time_rule_limit(s) / (2 * max_symbol(s, w));
    memo.valid = 1;
    return memo.limit;
}

int check_courant(const struct scheme *s, const double *w, double courant, char *err, size_t errlen)
{
    double limit = stability_limit(s, w);
    if (courant > 0 && courant < limit) return 0;
    if (!(courant > 0)) snprintf(err, errlen, "Courant number %g must be positive", courant);
    else
        snprintf(err, errlen, "Courant number %g is at or above %s's stability limit %.10f", courant,
                 s->name, limit);
    return -1;
}

double default_courant(const struct scheme *s, const double *w, double design_courant)
{
    double limit = stability_limit(s, w);
    if (design_courant < limit) return design_courant;
    double c = floor(0.85 * limit / 0.05 + 1e-9) * 0.05;
    return c > 0 ? c : 0.5 * limit;
}

/* ---- dispersion ------------------------------------------------------------------------ */

double phase_error_distance(double vp_error, double phase_deg) { return phase_deg / 360 / fabs(vp_error); }

void physical_root(const struct scheme *s, const double *w, const double k[3], double courant, double *theta,
                   double *amplitude)
{
    double q = 2 * courant * symbol_norm(s, w, k);
    if (s->levels == 1 && q <= 2) { /* leapfrog, closed form: (2/(c dt)) sin(omega dt / 2) = |K~| */
        *theta = 2 * asin(q / 2);
        *amplitude = 1;
    } else {
        time_rule_root(s, q, theta, amplitude);
    }
}

static int check_ppw(double ppw, char *err, size_t errlen)
{
    if (ppw >= 2 && isfinite(ppw)) return 0;
    snprintf(err, errlen, "%g cells per wavelength is below the grid's limit of 2", ppw);
    return -1;
}

/* v_p/c - 1 along unit direction d, without checks. */
static double vp_error_along(const struct scheme *s, const double *w, const double d[3], double ppw, double courant,
                             double *amplitude)
{
    double kn = 2 * PI / ppw, k[3] = {kn * d[0], kn * d[1], kn * d[2]}, theta;
    physical_root(s, w, k, courant, &theta, amplitude);
    return theta / (courant * kn) - 1;
}

int phase_velocity_error(const struct scheme *s, const double *w, const double dir[3], double ppw, double courant,
                         double *vp_error, double *amplitude, char *err, size_t errlen)
{
    double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(len > 0) || !isfinite(len)) {
        snprintf(err, errlen, "the direction (%g, %g, %g) has no length", dir[0], dir[1], dir[2]);
        return -1;
    }
    if (check_ppw(ppw, err, errlen) || check_courant(s, w, courant, err, errlen)) return -1;
    double d[3] = {dir[0] / len, dir[1] / len, dir[2] / len};
    *vp_error = vp_error_along(s, w, d, ppw, courant, amplitude);
    return 0;
}

void direction_from_angles(double theta_deg, double phi_deg, double d[3])
{
    double t = theta_deg * PI / 180, p = phi_deg * PI / 180;
    d[0] = sin(t) * cos(p), d[1] = sin(t) * sin(p), d[2] = cos(t);
}

void angles_from_direction(const double d[3], double *theta_deg, double *phi_deg)
{
    *theta_deg = acos(fmax(-1, fmin(1, d[2]))) * 180 / PI;
    *phi_deg = atan2(d[1], d[0]) * 180 / PI;
}

int worst_direction_error(const struct scheme *s, const double *w, double ppw, double courant, double dir[3],
                          double *vp_error, double *amplitude, char *err, size_t errlen)
{
    if (check_ppw(ppw, err, errlen) || check_courant(s, w, courant, err, errlen)) return -1;
    /* Every direction is a symmetry image of one with 0 <= theta <= 90, 0 <= phi <= 45
     * (polar angle from z, azimuth from x): a 3-degree grid plus the body diagonal, then a
     * compass search from the worst node. */
    double best = -1, bt = 0, bp = 0, d[3], amp;
    for (int i = 0; i <= 31; i++)
        for (int j = 0; j <= 16; j++) {
            double t = i < 31 ? i * 3.0 : acos(1 / sqrt(3)) * 180 / PI, p = i < 31 ? fmin(45, j * 3.0) : 45;
            direction_from_angles(t, p, d);
            double v = fabs(vp_error_along(s, w, d, ppw, courant, &amp));
            if (v > best) best = v, bt = t, bp = p;
        }
    for (double step = 1.5; step > 1e-7; step /= 2)
        for (int moved = 1; moved;) {
            moved = 0;
            for (int a = 0; a < 4; a++) {
                double t = bt, p = bp;
                if (a < 2) t = fmin(90, fmax(0, t + (a ? step : -step)));
                else p = fmin(45, fmax(0, p + (a == 3 ? step : -step)));
                direction_from_angles(t, p, d);
                double v = fabs(vp_error_along(s, w, d, ppw, courant, &amp));
                if (v > best) best = v, bt = t, bp = p, moved = 1;
            }
        }
    direction_from_angles(bt, bp, dir);
    *vp_error = vp_error_along(s, w, dir, ppw, courant, amplitude);
    return 0;
}

/* ---- weights --------------------------------------------------------------------------- */

/* Solves the n x n system a x = a[.][n] by elimination with partial pivoting; -1 if singular. */
static int solve(int n, double a[MAX_GROUPS][MAX_GROUPS + 1], double *x)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
        if (fabs(a[piv][c]) < 1e-14) return -1;
        for (int j = 0; j <= n; j++) {
            double t = a[c][j];
            a[c][j] = a[piv][j], a[piv][j] = t;
        }
        for (int r = 0; r < n; r++)
            if (r != c) {
                double f = a[r][c] / a[c][c];
                for (int j = c; j <= n; j++) a[r][j] -= f * a[c][j];
            }
    }
    for (int c = 0; c < n; c++) x[c] = a[c][n] / a[c][c];
    return 0;
}

int scheme_weights(const struct scheme *s, double design_ppw, double design_courant, double *w, char *err,
                   size_t errlen)
{
    int n = s->ngroups;
    if (s->weights == WEIGHTS_FIXED) {
        for (int g = 0; g < n; g++) w[g] = s->group[g].fixed_weight;
        return 0;
    }
    /* An exact phase velocity needs an undamped discrete mode, which only leapfrog has. */
    if (s->levels != 1) {
        snprintf(err, errlen, "%s: designed weights need a leapfrog time rule (2 coefficients), not %d", s->name,
                 s->levels + 1);
        return -1;
    }
    if (check_ppw(design_ppw, err, errlen)) return -1;
    if (!(design_courant > 0) || !isfinite(design_courant)) {
        snprintf(err, errlen, "design Courant number %g must be positive", design_courant);
        return -1;
    }
    /* Exact phase velocity at a = 2 pi / N_d along unit d: (Delta/2)|K~| = T with
     * tau(e^{j a S}) = j 2 S T (for leapfrog T = sin(aS/2)/S), and K~ parallel to d, so
     * (Delta/2) K~_x = T d_x. Row 0 is consistency. */
    static const unsigned bits[3] = {DESIGN_AXIAL, DESIGN_FACE, DESIGN_BODY};
    const double r2 = 1 / sqrt(2), r3 = 1 / sqrt(3);
    const double dirs[3][3] = {{1, 0, 0}, {r2, r2, 0}, {r3, r3, r3}};
    double a = 2 * PI / design_ppw, m[MAX_GROUPS][MAX_GROUPS + 1];
    double T = cimag(time_symbol(s, cexp(I * a * design_courant / 2))) / (2 * design_courant);
    int row = 0;
    for (int g = 0; g < n; g++) m[row][g] = group_consistency(s, g);
    m[row++][n] = 1;
    for (int d = 0; d < 3; d++) {
        if (!(s->design_dirs & bits[d])) continue;
        double k[3] = {a * dirs[d][0], a * dirs[d][1], a * dirs[d][2]};
        for (int g = 0; g < n; g++) m[row][g] = group_symbol(s, g, k, 0);
        m[row++][n] = T * dirs[d][0];
    }
    if (row != n || solve(n, m, w)) {
        snprintf(err, errlen, "%s: the design conditions do not fix the %d weights at %g cells per wavelength", s->name,
                 n, design_ppw);
        return -1;
    }
    return 0;
}

/* ---- update coefficients --------------------------------------------------------------- */

int update_coefficients(const struct scheme *s, const double *w, int is_h, double delta, double dt,
                        const struct medium *m, double *da, double *db, char *err, size_t errlen)
{
    static const struct medium vacuum = {1, 1, 0, 0};
    if (!m) m = &vacuum;
    double perm = is_h ? m->mu_r * VACUUM_MU : m->eps_r * VACUUM_EPS, loss = is_h ? m->sigma_m : m->sigma;
    if (!(delta > 0) || !(dt > 0) || !(perm > 0) || !(loss >= 0) || !isfinite(delta * dt * perm * loss)) {
        snprintf(err, errlen, "cell size %g, time step %g, relative %s %g and loss %g: each must be positive "
                 "(loss may be 0)", delta, dt, is_h ? "permeability" : "permittivity", is_h ? m->mu_r : m->eps_r, loss);
        return -1;
    }
    /* Loss as sigma times the average of the new and the old value: leapfrog only. */
    double h = loss * dt / (2 * perm);
    if (h != 0 && s->levels != 1) {
        snprintf(err, errlen, "%s: lossy media need a leapfrog time rule; this one has %d old levels", s->name,
                 s->levels);
        return -1;
    }
    /* sum_l c_l f^{n+1/2-l} = norm dt rhs, solved for the new level (spec.h, time_norm). */
    double c0 = s->time_coef[0];
    for (int l = 1; l <= s->levels; l++) da[l - 1] = -s->time_coef[l] / c0;
    if (s->levels == 1) da[0] = (1 - h) / (1 + h);
    for (int g = 0; g < s->ngroups; g++) db[g] = time_norm(s) / c0 * w[g] * dt / (perm * delta) / (1 + h);
    return 0;
}
