/* The calling convention of the generated CPML layer kernels (engine/pml.h), CPU and GPU alike.
 *
 * The main update runs unchanged over the whole grid; then one layer kernel per half-step and
 * axis corrects, over the slab of the layer normal to `axis` (both faces' `thickness` cells
 * along axis, the whole interior along the other two), the two curl terms of that half-step
 * differentiated along axis (spec.h, layer_terms). At each slab cell, for each term t[q]:
 *
 *   T   = sum_g db[g] * (the term's bracket of group g)   the term as the main update added it
 *   psi = b[s] * psi + c[s] * T                           the recursive convolution
 *   out = out + sign * (kinv1[s] * T + psi)              sign: + for a plus term, - for a minus one
 *
 * so that the update holds (1/kappa) T + psi in place of T. s is the cell's index along axis
 * within the slab: slab cell s < thickness is grid cell s, slab cell s >= thickness is grid cell
 * n - 2 thickness + s (n the interior cells along axis). T is in the update's own units (the
 * coefficients db carry dt, the material and the scheme's time rule), which is why one
 * recursion serves every scheme and storage.
 *
 * out, src, db, index: the step's padded arrays and coefficients (kernel.h: out the component's
 * newest level, already updated; src the field the term differentiates; db as kernel_args.db,
 * db_u, index). psi: the term's auxiliary field, stored per slab: the grid's interior dims with
 * 2 thickness along axis, x fastest, no halo. kinv1 (1/kappa - 1), b, c: 2 thickness values each,
 * the profile at the term's component's positions along axis (engine/pml.c, pml_profile), in the
 * working precision. A kernel also writes the images of the cells it corrects in its outputs'
 * halo along the axes before halo_axes (halo_rule.h, as kernel_args.boundary says); the step
 * engine refreshes the rest. */
#ifndef CODEGEN_LAYER_H
#define CODEGEN_LAYER_H

#include "halo_rule.h"
#include "kernel.h"

struct layer_term_args {
    void *out;
    const void *src;
    void *psi;
    const void *db[MAX_GROUPS];
    double db_u[MAX_GROUPS];
    float db_uf[MAX_GROUPS]; /* in single precision: the GPU's launch fills them */
    const void *kinv1, *b, *c;
};

struct layer_args {
    int nx, ny, nz;  /* interior size */
    long sy, sz;     /* strides of the padded arrays */
    int thickness;   /* cells of layer on each face */
    int boundary;    /* enum boundary, for the halo images the kernel writes */
    int open_z;      /* faces along z with no images (OPEN_LOW, OPEN_HIGH: halo_rule.h) */
    const unsigned char *index;
    struct layer_term_args t[LAYER_TERMS];
};

/* The grid cell along the axis (of n interior cells) of slab cell s; and the slab cell of grid cell
 * i, -1 if it is not in the layer. */
HALO_HD static inline int layer_cell(int s, int thickness, int n) { return s < thickness ? s : n - 2 * thickness + s; }
HALO_HD static inline int layer_slab(int i, int thickness, int n)
{
    return i < thickness ? i : i >= n - thickness ? i - (n - 2 * thickness) : -1;
}

typedef void (*layer_fn)(const struct layer_args *);

/* One generated layer kernel (a GPU entry is its host-side launcher). */
struct layer_entry {
    const char *scheme;
    int first;     /* the half-step: HX or EX */
    int axis;      /* the layer's normal: 0 x, 1 y, 2 z */
    int precision; /* enum precision */
    int coef;      /* enum coef_storage */
    layer_fn fn;
    int halo_axes; /* the axes, from x, whose halo images of its outputs the kernel writes */
    const char *variant; /* its template's ("cpml") */
};

/* The CPU's, generated from kernels_cpu/cpml.c.layer (codegen/generate layer); the GPU's, from
 * kernels_gpu/cpml.cu.layer (generate layertable: launchers handing each launch to launch.c, which
 * compiles the kernel at run time; empty without CUDA). */
extern const struct layer_entry cpu_layer_table[], gpu_layer_table[];
extern const int cpu_layer_table_len, gpu_layer_table_len;

#endif
