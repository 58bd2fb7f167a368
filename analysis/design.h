/* Weights, update coefficients, dispersion and stability of a scheme (SCHEMES.md sections 3-4),
 * all computed from the parsed spec. */
#ifndef STENCILS_DESIGN_H
#define STENCILS_DESIGN_H

#include <stddef.h>

#include "spec.h"

#define PI 3.14159265358979323846

/* The design point the benchmark and the tables use unless told otherwise. */
#define DEFAULT_DESIGN_PPW 20.0
#define DEFAULT_DESIGN_COURANT 0.5

/* Weights w_g (one per group): the spec's fixed ones, or designed for design_ppw cells per
 * wavelength at Courant number design_courant. 0, or -1 with the reason in err. */
int scheme_weights(const struct scheme *s, double design_ppw, double design_courant, double *w,
                   char *err, size_t errlen);

/* (Delta/2) K~_xi for a wave number k (radians per cell, per axis) along axis xi. */
double symbol_axis(const struct scheme *s, const double *w, const double k[3], int xi);

/* Largest stable Courant number S = c dt / Delta for cubic cells, found over the Brillouin zone. */
double stability_limit(const struct scheme *s, const double *w);

/* Phase-velocity error v_p/c - 1 of the physical mode travelling along unit direction dir, at
 * ppw cells per wavelength and Courant number courant; |z| per step in *amplitude (1 for
 * leapfrog). 0, or -1 with the reason (e.g. unstable) in err. */
int phase_velocity_error(const struct scheme *s, const double *w, const double dir[3], double ppw,
                         double courant, double *vp_error, double *amplitude, char *err, size_t errlen);

/* A medium, relative to vacuum; conductivities in S/m (electric) and ohm/m (magnetic). */
struct medium { double eps_r, mu_r, sigma, sigma_m; };

/* Update coefficients of one field (is_h: magnetic) in the kernel's form (kernel.h):
 * da[l] for the old levels, db[g] for the groups, with cell size delta (m) and time step dt (s).
 * Loss is supported for leapfrog schemes; for others sigma must be 0 (returns -1 otherwise). */
int update_coefficients(const struct scheme *s, const double *w, int is_h, double delta, double dt,
                        const struct medium *m, double *da, double *db, char *err, size_t errlen);

/* ---- additions (issue 4) ---------------------------------------------------------------- */

/* SI vacuum constants (what struct medium is relative to), with mu0 chosen so that
 * 1/sqrt(eps0 mu0) is c0 to rounding. */
#define VACUUM_C 299792458.0
#define VACUUM_EPS 8.8541878128e-12
#define VACUUM_MU (1.0 / (VACUUM_EPS * VACUUM_C * VACUUM_C))

/* update_coefficients takes m = NULL as vacuum. */

/* 0 if 0 < courant < stability_limit(s, w); otherwise -1 with the limit in err. */
int check_courant(const struct scheme *s, const double *w, double courant, char *err, size_t errlen);

/* The time rule alone, for q = c dt |K~| (radians per step): the physical root z of
 * [sum_l c_l z^(1/2-l)] / norm = j q, found among all roots of that polynomial (the general
 * path, used for every rule but leapfrog), as its phase per step and |z|. */
void time_rule_root(const struct scheme *s, double q, double *theta, double *amplitude);
/* The largest q for which no root of the time rule leaves the unit circle (leapfrog 2, S44 1). */
double time_rule_limit(const struct scheme *s);

/* The physical mode of wave vector k (radians per cell) at Courant number courant: phase
 * advance per step omega dt and |z| per step. No stability check (phase_velocity_error has one). */
void physical_root(const struct scheme *s, const double *w, const double k[3], double courant,
                   double *theta, double *amplitude);

/* Unit direction of polar angle theta (from z) and azimuth phi (from x), in degrees. */
void direction_from_angles(double theta_deg, double phi_deg, double d[3]);
/* Its inverse, for a unit direction (issue 12: shared by dispersion and cost). */
void angles_from_direction(const double d[3], double *theta_deg, double *phi_deg);

/* The largest |v_p/c - 1| over all directions at ppw and courant (searched over the directions
 * the cube's symmetry leaves distinct), its unit direction and |z|. 0, or -1 with err. */
int worst_direction_error(const struct scheme *s, const double *w, double ppw, double courant,
                          double dir[3], double *vp_error, double *amplitude, char *err, size_t errlen);

/* ---- additions (issue 12) --------------------------------------------------------------- */

/* The Courant number a scheme runs at unless told otherwise: design_courant where it is stable,
 * else the largest multiple of 0.05 at most 0.85 of the limit (S44: 0.2). */
double default_courant(const struct scheme *s, const double *w, double design_courant);

/* The distance, in wavelengths, over which a phase-velocity error vp_error adds up to phase_deg
 * degrees of phase: the wave's phase runs 360 degrees per wavelength travelled, off by the
 * fraction |v_p/c - 1|. */
double phase_error_distance(double vp_error, double phase_deg);

#endif
