/* A box stepped with the generated kernels by the step engine (step.h), on any backend: the check that the kernels
 * themselves have the dispersion and the stability of SCHEMES.md section 4. All six components,
 * every scheme (S44 with its four time levels), f32 or f64, vacuum with cell size 1 m. */
#ifndef HARNESS_SIMULATE_H
#define HARNESS_SIMULATE_H

#include <stddef.h>

#include "step.h"

/* Each takes the step engine's own configuration (step.h): a simulation is a stepped box, so it
 * is described the same way; modes need the periodic boundary. */

/* Seeds the discrete eigenmode k = 2 pi (m0/nx, m1/ny, m2/nz): E0 perpendicular to the scheme's
 * own K~, H0 from its own curl half a step earlier, every old level from powers of the physical
 * root z (physical_root); runs `steps` steps; projects E onto the mode after each and returns
 * the mean phase advance per step in *theta and |z| per step. 0, or -1 with the reason. */
int sim_mode(const struct step_config *c, const int mode[3], int steps, double *theta, double *amplitude,
             char *why, size_t n);

/* The same mode for a timed run (fdtdbench cost --run): one step on the unseeded fields first
 * (launches, threads and caches warmed, as a throughput measurement warms them), then the mode
 * seeded and `steps` steps run in one call, timed (*seconds, the device waited for), and E
 * projected at the end only; the total phase is taken nearest the scheme's own prediction
 * (physical_root), so its error from that must stay under half a turn. */
int sim_mode_timed(const struct step_config *c, const int mode[3], int steps, double *theta, double *amplitude,
                   double *seconds, char *why, size_t n);

/* Random fields on every level, stepped `steps` times: *growth is the largest total energy
 * (eps E^2 + mu H^2 over the newest levels) seen, over the initial one. 0, or -1 with why. */
int sim_energy_growth(const struct step_config *c, int steps, double *growth, char *why, size_t n);

/* The CPML's reflection (pml.h), in dB: c's layer (c->pml cells on every face, c->pml_order, PEC
 * walls behind) in a small box around an Ex point source that sends a broadband pulse (a
 * differentiated Gaussian current, its spectrum 10 dB below its peak at 8 cells per wavelength
 * and 40 dB at 5) towards its +z face, REFLECTION_GAP cells away; then the same run on a box made
 * longer along z, so that within the steps run nothing comes back from its +z face. The face's
 * reflected field is the difference of the two runs at a point between the source and the face;
 * it is compared with the incident field the longer run has at the same distance from the source
 * as that point is from the source's image in the face (the path the reflected wave travels),
 * each the largest over the steps: 20 log10(max |reflected| / max |incident|). The other faces,
 * their layers equal in both runs, cancel. c gives the scheme, weights, Courant number, device,
 * precision, storage, variant and launch; its grid and boundary are not used. *steps gets the
 * steps run. 0, or -1 with why. */
int sim_pml_reflection(const struct step_config *c, double *db, int *steps, char *why, size_t n);

#endif
