/* The one calling convention of every generated kernel, CPU and GPU alike.
 *
 * Arrays hold (nx+2*HALO) x (ny+2*HALO) x (nz+2*HALO) values, x fastest, rows padded to
 * GRID_ROW_VALUES (grid_strides, grid_values); interior cell (i,j,k), 0-based, lives at
 * grid_index(). A kernel writes out[] on the interior only and reads:
 *   level[l]  the updated field at old time level l (level[0] the newest);
 *   plus      the first curl term's field, minus the second one (spec.h, component_sources);
 *   da[l], db[g]      position-dependent coefficients (COEF_ARRAY), or
 *   da_u[l], db_u[g]  scalars (COEF_UNIFORM), or
 *   index, da[l], db[g]  the material of each cell (one byte) and, per coefficient, a table of
 *                     one value per material (COEF_INDEXED); coefs: the same values material by
 *                     material (COEF_RECORD).
 * out may alias level[0] (leapfrog in place) or the oldest level (S44 overwrites it after
 * reading it); it never aliases plus, minus or a coefficient.
 *   out = sum_l da[l]*level[l] + sum_g db[g]*(bracket of plus points - bracket of minus points)
 */
#ifndef STENCILS_KERNEL_H
#define STENCILS_KERNEL_H

#include "spec.h"

struct kernel_args {
    int nx, ny, nz;    /* interior size */
    long sy, sz;       /* strides in elements between rows (j) and planes (k) */
    void *out;
    const void *level[MAX_LEVELS];
    const void *plus, *minus;
    const void *da[MAX_LEVELS], *db[MAX_GROUPS];
    double da_u[MAX_LEVELS], db_u[MAX_GROUPS];
    float da_uf[MAX_LEVELS], db_uf[MAX_GROUPS]; /* the same in single precision: the GPU's launch fills them (launch.c) */
    const unsigned char *index;
    const void *coefs; /* COEF_INDEXED: each material's record of its half-step's three components'
                        * coefficients (COEF_RECORD), so that a GPU thread reads a node's in a few
                        * 16-byte loads where one load a table took a 64-bit address each */
    int block[3];      /* CPU: tile in (i,j,k), 0 = whole extent; GPU: thread-block shape */
    int nodes;         /* GPU variants that march along z: consecutive nodes per thread (1 otherwise) */
    int rows;          /* GPU tiled variants: adjacent rows of nodes per thread along y (0: the default) */
    int stages;        /* GPU tiled variants: pipeline depth, planes copied ahead (0: the default) */
    int regs;          /* GPU fused variant: registers per thread at most (0: the compiler's choice) */
    int boundary;      /* the step engine's enum boundary (halo_rule.h), for kernels that write their own halo */
    int box[2][2];     /* kernels with trait planes (the CPU's wave step): the rows box[0][0] .. box[0][1]-1
                        * of the planes box[1][0] .. box[1][1]-1 only */
    /* A slab of a grid split along z (engine/decomp.h), for kernels that write their own halo: */
    int open_z;        /* its faces along z that a neighbouring slab fills (OPEN_LOW, OPEN_HIGH): no image or wall */
    int z0, zn;        /* this launch updates planes z0 .. z0 + nz of the slab's zn (every array given from plane
                        * z0 on); zn 0: the whole slab, z0 0 */
    int tsteps;        /* kernels with trait passes: whole steps this launch advances */
    const void *layer; /* kernels with trait layer_fold: the arguments of the CPML's passes along x, y
                        * and z for this half-step (struct layer_args[3], codegen/layer.h), whose
                        * corrections the kernel makes itself; NULL: no layer */
};

/* kernel_args.coefs: material m's coefficients of the half-step's three components (H or E),
 * component q's (0..2 from HX or EX) da[l] at value q * ncoefs + l and db[g] at q * ncoefs + levels
 * + g of its record; a record holds COEF_RECORD(ncoefs, real size) values (whole 16-byte pieces)
 * and material m's starts at m times that. A macro, so that NVRTC's kernels use it as a constant. */
#define COEF_RECORD(ncoefs, real_size) ((3 * (ncoefs) * (real_size) + 15) / 16 * 16 / (real_size))

static inline long grid_index(const struct kernel_args *a, int i, int j, int k)
{
    return (long)(k + HALO) * a->sz + (long)(j + HALO) * a->sy + (i + HALO);
}

/* The layout every grid array has, for a grid of n[0] x n[1] x n[2] interior nodes: its row and
 * plane strides (struct kernel_args's sy and sz) and the values it holds. The bench, the step
 * engine and the tools size their arrays and set their strides from here: the layout's one place.
 * A row is padded to GRID_ROW_VALUES values, a whole number of 32-byte GPU sectors in either
 * precision, so that every row starts where the first does: the GPU's tiled kernels copy rows in
 * 16-byte pieces, and L2 served rows that start mid-sector 1.8 times the sectors they touch (at
 * 512^3, rows of 516 floats: tile25d 2-4 points of the probe slower than rows of 520;
 * docs/performance-notes.md, "a ring row's pieces"). */
enum { GRID_ROW_VALUES = 8 };

static inline void grid_strides(const int n[3], long *sy, long *sz)
{
    *sy = (n[0] + 2L * HALO + GRID_ROW_VALUES - 1) / GRID_ROW_VALUES * GRID_ROW_VALUES;
    *sz = *sy * (n[1] + 2L * HALO);
}

static inline size_t grid_values(const int n[3])
{
    long sy, sz;
    grid_strides(n, &sy, &sz);
    return (size_t)sz * (size_t)(n[2] + 2 * HALO);
}

enum device { DEV_CPU, DEV_GPU };
extern const char *const device_names[2];

typedef void (*kernel_fn)(const struct kernel_args *);

/* What a kernel variant declares about the launches it takes (its template's header line,
 * codegen/generate.c): the harness checks a launch against them, the tuner draws its candidates
 * from them, and an untuned GPU uses the default. */
struct variant_traits {
    int marches;     /* 1 if each thread (or block) updates a->nodes consecutive nodes along z */
    int flat;        /* 1 if the block's z extent must be 1 */
    int max_threads; /* most threads per block it takes; 0: the device's limit */
    int block[3];    /* the launch to use where nothing was tuned; all 0: the paper's shape */
    int nodes;       /* likewise, nodes per thread (1 unless it marches) */
    int rows;        /* likewise, rows of nodes per thread along y for this kernel's storage; 0: the
                      * variant updates one row per thread and takes no other */
    int stages;      /* likewise, its pipeline depth (planes copied ahead); 0: it has no pipeline */
    int halo_axes;   /* how many axes, from x, of its output's halo the kernel writes itself
                      * (halo_rule.h): 1, x, row by row while the row is in cache (the CPU's fused
                      * step: the caller refreshes y and z); 3, all (the GPU's: no refresh) */
    int planes;      /* 1: a temporally blocked step's kernel (engine/wave.h): on the calling thread,
                      * it updates the rows and planes of kernel_args.box only, and writes each row's
                      * images along x and y and zeroes it on a PEC wall (halo_rule.h); the engine
                      * shares the work among its threads and refreshes z */
    int passes;      /* 1: (GPU step) a temporally blocked step's kernel that advances kernel_args.tsteps
                      * whole steps in one launch, given kernel_args[6] (H's three components, then
                      * E's): it reads level[0] and writes out, another array, halo included */
    int layer_fold;  /* 1: (CPU step) the kernel makes the CPML's corrections of each row it updates
                      * (kernel_args.layer): along x in the row's two end runs, along y and z where
                      * the row lies in those slabs; the engine runs no layer pass. Compiled apart
                      * for launches with a layer and without (kernels_cpu/jit.c) */
    int strides;     /* 1: (CPU) each kernel is compiled for its launch's strides sy and sz as constants
                      * (kernels_cpu/jit.c), so it is verified on a grid of the timed nx and ny
                      * (verify_rows, harness/measure.h) */
};

/* One generated kernel (GPU entries are host-side launchers). */
struct kernel_entry {
    const char *scheme;
    int component;      /* enum component */
    int precision;      /* enum precision */
    int coef;           /* enum coef_storage */
    const char *variant;
    kernel_fn fn;
    /* NULL, or a check of one launch (grid, block, nodes, rows, stages against the device's limits
     * and the variant's own: the row counts and depths it was compiled for): 0, or -1 with the reason in why. The
     * harness calls it before launching. */
    int (*accepts)(const struct kernel_args *a, char *why, size_t n);
    struct variant_traits traits;
};

/* Tables the generator writes (build/gen/); the GPU one is empty without CUDA. */
extern const struct kernel_entry cpu_kernel_table[];
extern const int cpu_kernel_table_len;
extern const struct kernel_entry gpu_kernel_table[];
extern const int gpu_kernel_table_len;

/* The device's distinct kernel variants, in table order (baseline first): their number, at most max. */
int kernel_variants(enum device d, const char **out, int max);

/* NULL if no such kernel was generated. */
const struct kernel_entry *kernel_find(enum device d, const char *scheme, int component,
                                       int precision, int coef, const char *variant);

#endif
