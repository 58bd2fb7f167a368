/* The convolutional PML (CPML; J. A. Roden and S. D. Gedney, Microwave Opt. Technol. Lett. 27,
 * 2000) of the step engine: what every backend shares. A layer of `thickness` cells on every
 * face of the grid, backed by the PEC walls of the closed box. In the layer normal to axis a,
 * each curl term differentiated along a, dF/da, becomes
 *
 *     (1/kappa_a) dF/da + psi_a,   psi_a^n = b_a psi_a^{n-1} + c_a (dF/da)^n
 *
 * (the recursive convolution of the stretched coordinate s_a = kappa_a + sigma_a / (alpha_a +
 * j omega eps0)), with b_a = exp(-(sigma_a/kappa_a + alpha_a) dt/eps0) and c_a = sigma_a /
 * (sigma_a kappa_a + kappa_a^2 alpha_a) (b_a - 1). sigma and kappa grow with the depth rho into
 * the layer as (rho/N)^m, alpha falls linearly from the inner face to the wall:
 *
 *     sigma = PML_SIGMA_RATIO * 0.8 (m + 1) / (eta0 Delta) * (rho/N)^m
 *     kappa = 1 + (PML_KAPPA_MAX - 1) (rho/N)^m
 *     alpha = PML_ALPHA_MAX eps0 c / Delta * (1 - rho/N)
 *
 * The same profile serves E and H (a matched layer), each evaluated at the component's own
 * positions along a (half a cell off the integer nodes for some, SCHEMES.md section 1).
 *
 * The device-independent rest: which terms need psi (spec.h, layer_terms), the profiles a layer
 * kernel reads, the slabs psi is stored in, and the bytes a layer pass moves (codegen/layer.h
 * says how a kernel uses them). */
#ifndef ENGINE_PML_H
#define ENGINE_PML_H

#include <stddef.h>

#include "spec.h"

/* The grading order m: what --pml-order takes, and its default. */
enum { PML_ORDER_MIN = 1, PML_ORDER_MAX = 6, PML_ORDER_DEFAULT = 3 };

/* sigma_max as a multiple of the usual optimum 0.8 (m + 1) / (eta0 Delta); kappa at the wall;
 * alpha at the inner face in units of eps0 c / Delta (alpha / eps0 there is this fraction of
 * the rate at which light crosses a cell). */
#define PML_SIGMA_RATIO 1.0
#define PML_KAPPA_MAX 2.0
#define PML_ALPHA_MAX 0.2

/* The requirement for a 10-cell layer, for every scheme: the reflected field at most this
 * many dB below the incident one (sim_pml_reflection measures it). */
#define PML_REFLECTION_TARGET_DB (-60.0)
#define PML_TARGET_THICKNESS 10

/* 0 if a layer of `thickness` cells on every face fits `grid`: at most a third of its smallest
 * side (so that the interior keeps at least a third of each side); else -1 saying why. */
int pml_check(int thickness, const int grid[3], char *why, size_t n);

/* The slab of the layer normal to axis: both faces' cells along axis (2 thickness), the whole
 * interior along the other two. dims gets its shape (x fastest, as psi is stored); returns its
 * cell count. */
size_t pml_slab(const int grid[3], int thickness, int axis, int dims[3]);

/* The profile along an axis of n interior cells at a component's positions (half: half a cell
 * off the integer nodes along it), at Courant number courant (c dt / Delta): for each slab cell
 * s (codegen/layer.h, layer_cell) kinv1[s] = 1/kappa - 1, b[s] and c[s]. */
void pml_profile(int thickness, int order, double courant, int n, int half, double *kinv1, double *b, double *c);

/* Auxiliary fields a step holds: two terms per half-step and axis, each over its axis' slab
 * (cells, all twelve together). */
double pml_psi_cells(const int grid[3], int thickness);
/* Bytes one step's layer moves beyond the closed box's: as separate passes, layer_counts for every
 * slab cell of each half-step and axis (the layer kernels' own compulsory bytes); along the first
 * `folded` axes, whose corrections the update kernels make, where the fields' points are loaded
 * anyway, its auxiliary fields' alone, read and written. */
double pml_layer_bytes(const struct scheme *s, int precision, int coef, const int grid[3], int thickness, int folded);

#endif
