/* A grid split into slabs along z, one stepper (step.h) per slab: all on one device (the CPU,
 * or one GPU), or slab r on GPU r of this process. Each slab is a grid of its own planes whose
 * faces along z that border another slab are open (halo_rule.h): no refresh, wall, image or
 * layer there. Instead, after each half-step the halo planes of the three fields it wrote travel
 * from the neighbouring slabs (transport.h): as many planes of each field as the other
 * half-step's stencils reach along z, from the spec (decomp_depth: Yee 1 below or above, the
 * wide schemes 1 and 2), never the whole HALO unasked. A periodic grid's last and first slabs
 * are neighbours; PEC walls stay the end slabs' own.
 *
 * Two schedules of a half-step:
 *   whole    every slab's half-step (update, layer, refresh), then the exchange;
 *   overlap  every slab's boundary planes (those its neighbours read) first, then the rest of
 *            its planes, and the exchange started once the boundary planes are written, then the
 *            refresh once it has arrived: on GPUs the planes travel on a stream of their own beside
 *            the interior's update, which is queued before the exchange's host calls.
 *            Not with a layer (its passes are not split by planes).
 * Either gives every cell the value the undivided step gives it (decomp_compare): the same
 * kernels on the same inputs. */
#ifndef ENGINE_DECOMP_H
#define ENGINE_DECOMP_H

#include <stddef.h>

#include "step.h"

enum { DECOMP_MAX_SLABS = 64 };

struct decomp_config {
    struct step_config c; /* the whole grid's step (c.open_z: 0) */
    int slabs;            /* along z, 1 to DECOMP_MAX_SLABS */
    int per_gpu;          /* 1: slab r on GPU r, planes moved by NCCL; 0: every slab on c.b's device, copied */
    int overlap;          /* 1: the overlap schedule (above), 0: whole half-steps */
};

/* The ghost planes that the updates reading field comp need below its slab's plane 0 (depth[0])
 * and above its last plane (depth[1]): the reach along z of its points in every stencil. */
void decomp_depth(const struct scheme *s, int comp, int depth[2]);
/* Slab s's first plane and plane count: nz split as evenly as it goes, the larger slabs first. */
void decomp_slab(int nz, int slabs, int s, int *z0, int *planes);
/* Bytes the halo exchange moves per step: both half-steps, each written field's planes
 * (decomp_depth, whole padded planes) across every face between two slabs, both ways. */
double decomp_halo_bytes(const struct decomp_config *d);

/* 0 if d can be opened here, else -1 with one line saying why: slab counts, slabs thinner than
 * the halo and its mirror (STEP_MIN_GRID) or a third of them thinner than the layer, GPUs asked
 * for beyond those present, a build without NCCL, the overlap with a layer; with memory_bytes
 * (what one device holds, 0: unchecked), the largest slab's arrays beyond 80% of it. Nothing is
 * allocated. */
int decomp_check(const struct decomp_config *d, size_t memory_bytes, char *why, size_t n);

struct decomp;
struct decomp *decomp_open(const struct decomp_config *d, char *why, size_t n);
void decomp_close(struct decomp *d);
/* Every slab's stepper at launch's block, nodes, rows, stages, regs and tsteps (step_relaunch). */
int decomp_relaunch(struct decomp *d, const struct step_config *launch, char *why, size_t n);
const char *decomp_transport(const struct decomp *d); /* "copy", "nccl"; "" with one slab */

/* The whole grid's padded arrays (step.h's layout), as doubles: put gives every slab its planes
 * and their halo (exchanged); get gathers each slab's own planes, the halo along z by the rule. */
void decomp_put(struct decomp *d, int comp, int level, const double *v);
void decomp_get(struct decomp *d, int comp, int level, double *v);
/* As step.h's, over the whole grid (mat->index over its padded cells). */
int decomp_set_materials(struct decomp *d, const struct step_materials *mat, char *why, size_t n);
void decomp_fill_random(struct decomp *d, unsigned seed);
double decomp_compiled_ms(const struct decomp *d);
double decomp_occupancy_pct(const struct decomp *d);

/* `steps` whole steps, as step_run; then waits for every device. 0, or -1 with the reason. */
int decomp_run(struct decomp *d, int steps, char *why, size_t n);
/* The layer's passes alone, `steps` steps' worth (step_layer_run), then waits: what timing the
 * layer alone needs. 0, or -1 with the reason. Not where the update kernels make some of its
 * corrections (decomp_layer_folded): there the layer's time is a step's less a closed box's, the
 * same kernels with the layer off (decomp_layer_on). */
int decomp_layer_run(struct decomp *d, int steps, char *why, size_t n);
int decomp_layer_folded(const struct decomp *d);
void decomp_layer_on(struct decomp *d, int on);

/* Runs `steps` steps of d and of the undivided grid (on the first slab's device) from the same
 * random fields and materials (several, with indexed and array storage), and compares every cell
 * of every level: 0 if each is within the rounding of `steps` updates of the field's largest
 * value, (flops + 2) u steps max|f|; *worst gets the largest difference over that scale (0:
 * identical). */
int decomp_compare(const struct decomp_config *d, int steps, double *worst, char *why, size_t n);

#endif
