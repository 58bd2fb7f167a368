/* The CPML's grading, profiles, slabs and byte counts (pml.h). */
#include "pml.h"

#include <math.h>
#include <stdio.h>

#include "layer.h"

int pml_check(int thickness, const int grid[3], char *why, size_t n)
{
    int smallest = grid[0] < grid[1] ? grid[0] : grid[1];
    smallest = smallest < grid[2] ? smallest : grid[2];
    if (thickness >= 0 && 3 * thickness <= smallest) return 0;
    snprintf(why, n, "--pml: %d cells on every face of a %dx%dx%d grid: from 0 to a third of its smallest side (%d)",
             thickness, grid[0], grid[1], grid[2], smallest / 3);
    return -1;
}

size_t pml_slab(const int grid[3], int thickness, int axis, int dims[3])
{
    for (int d = 0; d < 3; d++) dims[d] = d == axis ? 2 * thickness : grid[d];
    return (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
}

void pml_profile(int thickness, int order, double courant, int n, int half, double *kinv1, double *b, double *c)
{
    const double N = thickness;
    for (int s = 0; s < 2 * thickness; s++) {
        /* depth into the layer, from its inner face (0) to the wall (N), in cells */
        double x = layer_cell(s, thickness, n) + (half ? 0.5 : 0), rho = s < thickness ? N - x : x - (n - N);
        double r = fmin(fmax(rho / N, 0), 1), g = pow(r, order);
        double sigma = PML_SIGMA_RATIO * 0.8 * (order + 1) * courant * g; /* sigma dt / eps0, Delta = 1 */
        double kappa = 1 + (PML_KAPPA_MAX - 1) * g, alpha = PML_ALPHA_MAX * courant * (1 - r); /* alpha dt / eps0 */
        b[s] = exp(-(sigma / kappa + alpha));
        c[s] = sigma > 0 ? sigma / (kappa * (sigma + kappa * alpha)) * (b[s] - 1) : 0;
        kinv1[s] = 1 / kappa - 1;
    }
}

double pml_psi_cells(const int grid[3], int thickness)
{
    double cells = 0;
    int dims[3];
    for (int axis = 0; axis < 3; axis++) cells += 2.0 * LAYER_TERMS * (double)pml_slab(grid, thickness, axis, dims);
    return cells;
}

double pml_layer_bytes(const struct scheme *s, int precision, int coef, const int grid[3], int thickness, int folded)
{
    const double pass = layer_counts(s, (enum precision)precision, (enum coef_storage)coef).compulsory_bytes,
                 psi = 2.0 * LAYER_TERMS * (precision == F32 ? 4 : 8); /* each term's read and written */
    double bytes = 0;
    int dims[3];
    for (int axis = 0; axis < 3; axis++)
        bytes += 2.0 * (double)pml_slab(grid, thickness, axis, dims) * (axis < folded ? psi : pass);
    return bytes;
}
