/* The step engine: all six components advanced by whole FDTD time steps on a backend's
 * device, with the halo refresh (periodic wrap or PEC walls, halo_rule.h) on the device too.
 * One step is the H half-step (Hx, Hy, Hz from E^n) then the E half-step (Ex, Ey, Ez from
 * H^{n+1/2}); a scheme with more time levels (S44) keeps them all and updates each component
 * into its oldest level. With a CPML (pml.h) each half-step's update is followed by its layer
 * passes, one per axis (codegen/layer.h). Used by the step command (timing), the dispersion,
 * stability and reflection simulations (simulate.c) and the tests. */
#ifndef HARNESS_STEP_H
#define HARNESS_STEP_H

#include <stddef.h>

#include "backend.h"

struct step_config {
    const struct backend *b;
    const struct scheme *s;
    const double *w;      /* weights the vacuum coefficients are made from (scheme_weights) */
    int precision, coef;  /* enum precision, enum coef_storage */
    const char *variant;  /* each component's kernel variant ("plain", "baseline", ...), or STEP_FUSED */
    int block[3], nodes;  /* kernel_args.block and .nodes (0: one node per thread) */
    int rows;             /* kernel_args.rows (0: unset, the kernels' default) */
    int stages;           /* kernel_args.stages (0: unset, the kernels' default) */
    int regs;             /* kernel_args.regs (0: unset, the compiler's choice) */
    int tsteps;           /* a temporally blocked variant (wave.h): steps per pass over memory (0: its
                           * default); the others take 0 or 1. block[2]: its planes per sweep step */
    int grid[3];          /* interior cells, each at least STEP_MIN_GRID */
    double courant;       /* c dt / Delta, cell size 1 m */
    int boundary;         /* enum boundary */
    int pml;              /* CPML (pml.h): cells of layer on every face, 0 for none (then boundary pec) */
    int pml_order;        /* its grading order, PML_ORDER_MIN to PML_ORDER_MAX */
    int open_z;           /* a slab of a grid split along z (decomp.h): its faces along z whose halo a
                           * neighbouring slab fills (OPEN_LOW, OPEN_HIGH): no refresh, wall or layer there */
};

extern const char *const boundary_names[NBOUNDARIES]; /* "periodic", "pec" */

/* Bytes of one value in the working precision. */
static inline size_t real_size(int precision) { return precision == F32 ? sizeof(float) : sizeof(double); }

/* Each side must hold the halo's mirror image (halo_rule.h) and the widest stencil. */
enum { STEP_MIN_GRID = 2 * HALO };

/* Materials: per component, a table of coefficients (da[0..L) then db[0..G)) per material,
 * and the material of each padded cell (NULL: material 0 everywhere). Uniform storage takes
 * one material only. */
struct step_materials {
    int count;
    double coef[NCOMPONENTS][MAX_MATERIALS][MAX_COEFS];
    const unsigned char *index;
};

/* The variant that updates the three components of a half-step in one kernel, on every device;
 * a device may have more such variants (the GPU's fused25d, tiled on chip). */
#define STEP_FUSED "fused"
/* The device's fused variants, in table order (STEP_FUSED first): their number, at most max. */
int step_fused_variants(enum device d, const char **out, int max);
/* 1 if the device's step variant `variant` is temporally blocked (several steps a pass: wave.h). */
int step_temporal(enum device d, const char *variant);
/* A fused variant's traits (its step template's header line), or NULL if variant is not one. */
const struct variant_traits *step_fused_traits(enum device d, const char *variant);
/* 1 if component comp's kernel is launched in a step of a variant whose fused traits are ft (NULL:
 * one kernel a component): a fused variant's are HX's and EX's (a half-step each), one with trait
 * passes HX's alone (both half-steps, a launch a pass). */
int step_launches(const struct variant_traits *ft, int comp);
/* 1 if a step of a variant whose fused traits are ft takes a register cap (--regs, tuned:
 * FUSED_MAXNREG): one half-step a launch (fused, fused25d), not several steps a pass. */
int step_takes_regs(const struct variant_traits *ft);
/* The traits of the kernel of c's H half-step (a fused variant's, else Hx's own: every component
 * of a variant declares the same), or NULL if there is none. Unlike step_fused_traits, these are
 * the traits of c's storage (a tiled variant's default rows differ with and without arrays). */
const struct variant_traits *step_traits(const struct step_config *c);
/* Steps one pass over memory advances: a temporally blocked variant's c->tsteps (its default where 0,
 * step_default_tsteps), 1 for every other variant. */
int step_tsteps(const struct step_config *c);
/* A temporally blocked variant's steps a pass where none were tuned or given: the CPU wave's
 * WAVE_DEFAULT_STEPS; 2 for a variant that keeps the levels on chip (trait passes: wave25d),
 * which every leapfrog scheme's tile of its default launch takes. */
int step_default_tsteps(enum device d, const char *variant);
/* 0 if c's variant takes c's scheme, else -1 saying why (where why is not NULL): a variant with
 * trait passes keeps one time level a field on chip, not S44's four. */
int step_takes(const struct step_config *c, char *why, size_t n);
/* 1 if c's device has the kernels of c's scheme, variant, precision and storage (and, with a
 * layer, its layer kernels: the CPU's only, so far), and they take c's scheme (step_takes). */
int step_supported(const struct step_config *c);

struct stepper;

/* Allocates every field level and coefficient array once (zero fields, vacuum coefficients).
 * NULL with the reason in why (no kernel, grid too small, device full). */
struct stepper *step_open(const struct step_config *c, char *why, size_t n);
void step_close(struct stepper *m);
/* The same step at another launch: launch's block, nodes, rows, stages, regs and tsteps, checked
 * as step_open checks them; the arrays and their values stay (a tuner's candidates). 0, or -1
 * with why (m unchanged). */
int step_relaunch(struct stepper *m, const struct step_config *launch, char *why, size_t n);
/* The step as m runs it: its launch as opened (steps per pass resolved) or last relaunched. */
const struct step_config *step_launch(const struct stepper *m);

/* Geometry of the padded arrays: cells per array (halos included) and strides. */
size_t step_cells(const struct stepper *m, long *sy, long *sz);

/* Level l (0 the newest) of component comp from or to host doubles over the padded array;
 * step_put refreshes that field's halo. */
void step_put(struct stepper *m, int comp, int level, const double *v);
void step_get(struct stepper *m, int comp, int level, double *v);
/* Every level of every field random (E in [-1, 1), H scaled by 1/eta0), halos refreshed. */
void step_fill_random(struct stepper *m, unsigned seed);
int step_set_materials(struct stepper *m, const struct step_materials *mat, char *why, size_t n);

/* Compiles c's kernels for its launch where the device compiles them at run time (backend.h's
 * prepare), in parallel, so that a step's kernels (and a batch of step launches) compile before
 * any is measured; thread-safe. A launch the kernels do not take is left for step_open to refuse. */
void step_prepare(const struct step_config *c);

/* What compiling the step's kernels cost this process, in ms (backend.h's compiled_ms summed over
 * them), -1 if every one came from the kernel cache, NAN on a device that does not say. */
double step_compiled_ms(const struct stepper *m);
/* The lowest theoretical occupancy of the step's kernels (backend.h's occupancy_pct; the layer's
 * passes not counted) among those the backend can say it for, NAN where it can for none. */
double step_occupancy_pct(const struct stepper *m);

/* Advances `steps` whole steps and waits for the device. 0, or -1 with the reason. */
int step_run(struct stepper *m, int steps, char *why, size_t n);
/* Only the layer passes of `steps` steps (both half-steps, every axis), each correcting the
 * newest levels again, and waits: what timing the layer alone needs (the fields' values then
 * mean nothing). 0, or -1 with the reason. Not where the update kernels make the layer's
 * corrections (step_layer_folded: trait layer_fold); there the layer's time is the step's less the
 * closed box's, the same kernels with the layer off (step_layer_on). */
int step_layer_run(struct stepper *m, int steps, char *why, size_t n);
int step_layer_folded(const struct stepper *m);
void step_layer_on(struct stepper *m, int on);

/* A slab of a grid split along z (decomp.h): its arrays, and its half-steps in parts. */
void *step_field(const struct stepper *m, int comp, int level); /* level l (0 the newest) on the device */
/* One half-step from first (HX or EX), the layer and the halo refresh included: step_run's half. */
int step_half(struct stepper *m, int first, char *why, size_t n);
/* The update alone of planes k0 .. k1 of the half-step from first into each component's oldest
 * level (launches only), without a layer; step_half_end then makes those levels the newest and
 * refreshes their halo, once every plane is updated. */
void step_half_planes(struct stepper *m, int first, int k0, int k1);
int step_half_end(struct stepper *m, int first, char *why, size_t n);

/* The newest level of component comp at interior cell (i,j,k), read, or with v added (a source).
 * The halo is left alone: for cells more than HALO from every wall. */
double step_peek(struct stepper *m, int comp, const int cell[3]);
void step_add(struct stepper *m, int comp, const int cell[3], double v);

/* Runs `steps` steps from random fields and random materials (several, with indexed and array
 * storage) on c's device and in the double-precision reference (reference.h, the same halo
 * rule), and compares every cell of every level. The tolerance is the rounding bound of each
 * update (measure.c's (flops + 2) u sum|terms|) carried through the later steps: each cell's
 * bound is propagated like its value, with every coefficient and point taken by magnitude.
 * 0 if every cell is within it; *worst gets the largest error over its bound. */
int step_verify(const struct step_config *c, int steps, double *worst, char *why, size_t n);

/* Bytes of device memory a stepper holds per cell (fields with every time level, coefficient
 * arrays or the material index) and the compulsory bytes one whole step moves per cell: each
 * half-step reads every array it touches once (the updated fields' levels, the three source
 * fields, their coefficients) and writes three fields. */
double step_bytes_per_cell(const struct scheme *s, int precision, int coef);
double step_compulsory_bytes(const struct scheme *s, int precision, int coef);
/* The same for c's step with its layer: the auxiliary fields held, and read and written once a
 * step (the least any CPML step moves beyond the closed box's), spread over c's cells. */
double step_memory_bytes(const struct step_config *c);
double step_moved_bytes(const struct step_config *c);
/* The bytes one step's layer moves beyond the closed box's (pml_layer_bytes; 0 without a layer):
 * its passes' compulsory bytes, and psi's alone along x where the update kernels make those
 * corrections; what the layer's share of bandwidth is counted against. */
double step_layer_bytes(const struct step_config *c);

#endif
