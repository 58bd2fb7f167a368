/* The generated GPU kernels' launches. Each entry of the GPU tables (build/gen/gpu_table.c) calls
 * gpu_kernel_launch or gpu_kernel_accepts with itself; here its kernel's source is filled from
 * its template and spec (emit.h) once, and each launch shape that the variant's rule makes a
 * compile-time constant (tile, rows, pipeline depth, nodes per thread) is compiled by NVRTC for
 * the GPU in hand (rtc.h), once per process and cached on disk across processes.
 *
 * A variant's rule, one per template: the constants of a launch (the -D options its kernel reads),
 * the block and shared memory it takes, the checks a launch must pass, and the launches
 * themselves (several where a grid exceeds CUDA's 65535 blocks in y or z). The kernels' parts of
 * the same rules (ring sizes, launch bounds) are in gpu_rules.h, which both include. */
#include <cuda.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "gpu_internal.h"
#include "gpu_rules.h"
#include "layer.h"
#include "results.h"

/* The GPU templates (kernels_gpu/NAME.cu.in, NAME.cu.step and the layer's cpml.cu.layer), embedded by
 * the generator. */
extern const int gpu_template_count;
extern const char *const gpu_template_names[], *const gpu_template_texts[];
extern const struct kernel_entry gpu_fused_table[];
extern const int gpu_fused_table_len;

/* gridDim.y and gridDim.z are limited to 65535 blocks; gridDim.x to 2^31 - 1. */
static const long GRID_YZ_MAX = 65535, GRID_X_MAX = 2147483647;
static long blocks_for(long n, long b) { return (n + b - 1) / b; }

/* ---- one launch's shape ------------------------------------------------------------------ */

enum { MAX_CONSTANTS = 6, CONSTANT_LEN = 32 };

/* What a launch compiles and launches: its constants (-DNAME=value), block and shared memory. */
struct shape {
    int nconst;
    char constant[MAX_CONSTANTS][CONSTANT_LEN];
    unsigned block[3];
    size_t smem;
    int written[2];          /* wave25d: the nodes a block writes along x and y (its tile less the reach) */
    struct {                 /* fused25d with tensor copies: what its maps describe (fused25d_maps_of) */
        int on, real, width, rows[3], node_ring, component;
    } tma;
    struct kernel_args args; /* a's launch with its unset parts (0) made the kernel's defaults */
};

/* The facts of a kernel its rule needs, worked out once: its source fields' boxes, node operands. */
struct facts {
    const struct kernel_entry *k;
    int real;            /* bytes per value */
    int lo[3][3], hi[3][3];
    int olo[3][3], ohi[3][3]; /* a fused kernel's other half-step's boxes (wave25d runs both) */
    int nnode;
    const struct traits *traits;
};

static void constant(struct shape *s, const char *name, int value)
{
    if (s->nconst == MAX_CONSTANTS) emit_fail("launch.c: more than %d compile-time constants (%s)", MAX_CONSTANTS, name);
    snprintf(s->constant[s->nconst++], CONSTANT_LEN, "-D%s=%d", name, value);
}

/* The uniform coefficients in single precision as well, which an f32 kernel reads (kernel.h's
 * and layer.h's *_uf, gpu_common.cuh's UNIFORM_COEF): to[i] = from[i], i < n. */
static void single_of(float *to, const double *from, int n)
{
    for (int i = 0; i < n; i++) to[i] = (float)from[i];
}

/* ... of a launch's arguments, as shape_of or launch_args makes them */
static void single_coefs(struct kernel_args *a)
{
    single_of(a->da_uf, a->da_u, MAX_LEVELS);
    single_of(a->db_uf, a->db_u, MAX_GROUPS);
}

/* A run_all's n kernel_args (a fused half-step's three, wave25d's six): a's, ready to launch. */
static void launch_args(struct kernel_args *f, const struct kernel_args *a, int n)
{
    for (int q = 0; q < n; q++) f[q] = a[q], single_coefs(&f[q]);
}

static void plain_shape(const struct kernel_args *a, struct shape *s)
{
    memset(s, 0, sizeof *s);
    s->args = *a;
    for (int i = 0; i < 3; i++) s->block[i] = (unsigned)a->block[i];
}

/* The launch's nodes, rows and depth, its zeros (unset) the kernel's defaults: one plane per
 * block, the rows its header declares for its storage, and its header's depth. */
static void tiled_args(const struct facts *f, const struct kernel_args *a, struct kernel_args *out)
{
    *out = *a;
    out->nodes = a->nodes > 0 ? a->nodes : 1;
    out->rows = a->rows > 0 ? a->rows : f->k->traits.rows > 0 ? f->k->traits.rows : 1;
    out->stages = a->stages > 0 ? a->stages : f->k->traits.stages;
}

/* ---- checks every rule may make ------------------------------------------------------------ */

/* Kernels address a node's neighbours with 32-bit offsets from a per-thread base pointer: 0, or -1
 * if a plane (times the farthest plane offset, HALO + 1) does not fit in an int. */
static int narrow_offsets(const struct kernel_args *a, char *why, size_t n)
{
    if (a->sz <= INT_MAX / (HALO + 1)) return 0;
    snprintf(why, n, "planes of %ld cells are too large for 32-bit neighbour offsets", a->sz);
    return -1;
}

/* 0 if block b has 1..most threads (most 0: the device's limit), else -1 saying why. */
static int block_in_limits(const int b[3], int most, char *why, size_t n)
{
    const int dev = gpu_device()->max_threads;
    const long threads = (long)b[0] * b[1] * b[2];
    if (most <= 0 || most > dev) most = dev;
    if (b[0] >= 1 && b[1] >= 1 && b[2] >= 1 && threads <= most) return 0;
    snprintf(why, n, "block %dx%dx%d: this variant takes 1 to %d threads per block", b[0], b[1], b[2], most);
    return -1;
}

/* Blocks that march `nodes` planes: 0 if the grid needs at most 65535 blocks in y and z. */
static int marching_grid_fits(const struct kernel_args *a, long rows_per_block, int nodes, char *why, size_t n)
{
    if (blocks_for(a->ny, rows_per_block) <= GRID_YZ_MAX && blocks_for(a->nz, nodes) <= GRID_YZ_MAX) return 0;
    snprintf(why, n, "grid %dx%dx%d needs more than %ld blocks in y or z with block %dx%dx%d and %d nodes", a->nx, a->ny,
             a->nz, GRID_YZ_MAX, a->block[0], a->block[1], a->block[2], nodes);
    return -1;
}

/* A tiled launch: flat blocks, rows and depth of at least one, shared memory within the device's. */
static int tiled_fits(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    const struct kernel_args *a = &s->args;
    if (block_in_limits(a->block, tile_max_threads(f->real, f->traits->max_threads), why, n) || narrow_offsets(a, why, n))
        return -1;
    if (a->block[2] != 1) snprintf(why, n, "block %dx%dx%d: a tiled variant takes Bz = 1", a->block[0], a->block[1], a->block[2]);
    else if (a->rows < 1 || a->stages < 1) snprintf(why, n, "%d rows, %d stages: a tiled launch takes at least one of each", a->rows, a->stages);
    else if (s->smem > (size_t)gpu_device()->smem_optin)
        snprintf(why, n, "block %dx%dx%d with %d rows and %d stages needs %zu bytes of shared memory, more than the device's %d",
                 a->block[0], a->block[1], a->block[2], a->rows, a->stages, s->smem, gpu_device()->smem_optin);
    else return marching_grid_fits(a, (long)a->rows * a->block[1], a->nodes, why, n);
    return -1;
}

/* ---- the rules ------------------------------------------------------------------------------ */

/* baseline: one thread per node, 3-D blocks; chunks of at most 65535 blocks in y and z, one
 * launch each (one in all, on any usual grid), from rows j0 and planes k0. */
static int baseline_check(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    (void)f;
    return block_in_limits(s->args.block, 0, why, n) || narrow_offsets(&s->args, why, n);
}

static void baseline_run(const void *fn, const struct shape *s)
{
    struct kernel_args a = s->args;
    const int cy = (int)(GRID_YZ_MAX * a.block[1]), cz = (int)(GRID_YZ_MAX * a.block[2]);
    for (int k0 = 0; k0 < a.nz; k0 += cz)
        for (int j0 = 0; j0 < a.ny; j0 += cy) {
            void *params[] = {&a, &j0, &k0};
            gpu_start(fn, blocks_for(a.nx, a.block[0]), blocks_for(a.ny - j0 < cy ? a.ny - j0 : cy, a.block[1]),
                      blocks_for(a.nz - k0 < cz ? a.nz - k0 : cz, a.block[2]), s->block, 0, params);
        }
}

/* linear: 1-D blocks of Bx*By*Bz threads over the nodes in x-fastest order; whole xy planes per
 * launch, at most 2^32 - 1 nodes (the kernel's index is 32-bit) and 2^31 - 1 blocks. */
static int linear_check(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    const struct kernel_args *a = &s->args;
    const long plane = (long)a->nx * a->ny;
    if (baseline_check(f, s, why, n)) return -1;
    if (plane <= (long)a->block[0] * a->block[1] * a->block[2] * GRID_X_MAX && plane <= 0xffffffffL) return 0;
    snprintf(why, n, "an xy plane of %dx%d nodes exceeds the 32-bit node index", a->nx, a->ny);
    return -1;
}

static void linear_run(const void *fn, const struct shape *s)
{
    struct kernel_args a = s->args;
    const unsigned threads[3] = {s->block[0] * s->block[1] * s->block[2], 1, 1};
    const long plane = (long)a.nx * a.ny, cap = GRID_X_MAX * threads[0];
    const long most = (cap < 0xffffffffL ? cap : 0xffffffffL) / plane, step = most < a.nz ? most : a.nz;
    for (int k0 = 0; k0 < a.nz; k0 += (int)step) {
        unsigned nodes = (unsigned)(plane * (a.nz - k0 < step ? a.nz - k0 : step));
        void *params[] = {&a, &k0, &nodes};
        gpu_start(fn, blocks_for(nodes, threads[0]), 1, 1, threads, 0, params);
    }
}

/* zmarch: flat blocks, each thread a.nodes consecutive nodes along z, unrolled up to what its
 * registers hold (an f64 column of more than two nodes needed more than 255), beyond that a
 * run-time loop (ZMARCH_NODES 0). */
static void zmarch_shape(const struct facts *f, const struct kernel_args *a, struct shape *s)
{
    plain_shape(a, s);
    s->args.nodes = a->nodes > 0 ? a->nodes : 1;
    constant(s, "ZMARCH_NODES", s->args.nodes <= (f->real == 4 ? 8 : 2) ? s->args.nodes : 0);
}

static int zmarch_check(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    const struct kernel_args *a = &s->args;
    if (block_in_limits(a->block, f->traits->max_threads, why, n) || narrow_offsets(a, why, n)) return -1;
    if (a->block[2] != 1) snprintf(why, n, "block %dx%dx%d: zmarch takes flat blocks (z extent 1)", a->block[0], a->block[1], a->block[2]);
    else if (a->nodes > a->nz) snprintf(why, n, "%d nodes per thread: more than the grid's %d planes", a->nodes, a->nz);
    else return marching_grid_fits(a, a->block[1], a->nodes, why, n);
    return -1;
}

/* One launch over the grid of s's args: x by the block, y by its rows of nodes, z by its planes. */
static void one_launch(const void *fn, const struct shape *s, void **params)
{
    const struct kernel_args *a = &s->args;
    gpu_start(fn, blocks_for(a->nx, a->block[0]), blocks_for(a->ny, (long)a->block[1] * (a->rows > 1 ? a->rows : 1)),
              blocks_for(a->nz, a->nodes), s->block, s->smem, params);
}

/* zmarch's and tile25d's launch: one kernel_args, the shape's. */
static void marching_run(const void *fn, const struct shape *s)
{
    struct kernel_args a = s->args;
    void *params[] = {&a};
    one_launch(fn, s, params);
}

/* tile25d: the launch's block (Bx, By), rows and depth are the kernel's constants; its shared
 * memory the rings gpu_rules.h lays out. */
static void tile25d_shape(const struct facts *f, const struct kernel_args *a, struct shape *s)
{
    plain_shape(a, s);
    tiled_args(f, a, &s->args);
    const struct kernel_args *t = &s->args;
    constant(s, "TILE_BX", t->block[0]), constant(s, "TILE_BY", t->block[1]);
    constant(s, "TILE_ROWS", t->rows), constant(s, "TILE_STAGES", t->stages);
    s->smem = (size_t)f->real * (size_t)tile25d_smem_values(t->block[0], t->rows * t->block[1], t->stages, f->lo[0][1],
                                                            f->hi[0][1], f->lo[0][2], f->hi[0][2], f->lo[1][1], f->hi[1][1],
                                                            f->lo[1][2], f->hi[1][2], f->nnode, f->real);
}

/* The fused step's kernels take the half-step's three components' kernel_args, a[0]'s launch. */

/* fused: one thread per node (a.nodes along z, the kernel's FUSED_NODES, unrolled), 3-D blocks,
 * chunks as the baseline's; no launch bounds, so the block is checked against the compiled
 * kernel's own limit (gpu_kernel_accepts); a.regs, where set, caps its registers per thread
 * (FUSED_MAXNREG: tune --step tries a few caps at its best launch). */
enum { FUSED_MAX_NODES = 8 };

static void fused_shape(const struct facts *f, const struct kernel_args *a, struct shape *s)
{
    (void)f;
    plain_shape(a, s);
    s->args.nodes = a->nodes > 0 ? a->nodes : 1;
    constant(s, "FUSED_NODES", s->args.nodes);
    if (a->regs > 0) constant(s, "FUSED_MAXNREG", a->regs); /* a tuned cap: more loads in flight, or more warps */
}

static int fused_check(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    if (baseline_check(f, s, why, n)) return -1;
    if (s->args.nodes <= FUSED_MAX_NODES) return 0;
    snprintf(why, n, "%d nodes per thread: the fused kernels take 1 to %d", s->args.nodes, FUSED_MAX_NODES);
    return -1;
}

static void fused_run_all(const void *fn, const struct shape *s, const struct kernel_args *a3)
{
    struct kernel_args f[3]; /* struct fused_args: three kernel_args */
    launch_args(f, a3, 3);
    const int zn = s->args.nodes, *b = s->args.block;
    const int cy = (int)(GRID_YZ_MAX * b[1]), cz = (int)(GRID_YZ_MAX * b[2] * zn);
    for (int k0 = 0; k0 < f[0].nz; k0 += cz)
        for (int j0 = 0; j0 < f[0].ny; j0 += cy) {
            void *params[] = {f, &j0, &k0};
            gpu_start(fn, blocks_for(f[0].nx, b[0]), blocks_for(f[0].ny - j0 < cy ? f[0].ny - j0 : cy, b[1]),
                      blocks_for(f[0].nz - k0 < cz ? f[0].nz - k0 : cz, (long)b[2] * zn), s->block, 0, params);
        }
}

/* fused25d's tensor maps need CUDA 12's CUtensorMap and, to find the driver's encoder,
 * cudaGetDriverEntryPointByVersion (12.5); with an older toolkit its rings stay on cp.async. */
#if CUDART_VERSION >= 12050
enum { HOST_TENSOR_MAPS = 1 };
#else
enum { HOST_TENSOR_MAPS = 0 };
#endif

/* The compute capability kernels are compiled for (gpu_arch: "sm_90", "compute_80"), as a number. */
static int arch_number(void)
{
    const char *u = strchr(gpu_arch(), '_');
    return u ? atoi(u + 1) : 0;
}

/* fused25d: tile25d's rule over the half-step's three source fields; its rings filled by tensor
 * copies where the GPU has them (gpu_rules.h: fused25d_tma). */
static void fused25d_shape(const struct facts *f, const struct kernel_args *a, struct shape *s)
{
    plain_shape(a, s);
    tiled_args(f, a, &s->args);
    const struct kernel_args *t = &s->args;
    constant(s, "TILE_BX", t->block[0]), constant(s, "TILE_BY", t->block[1]);
    constant(s, "TILE_ROWS", t->rows), constant(s, "TILE_STAGES", t->stages);
    if (a->regs > 0) constant(s, "FUSED_MAXNREG", a->regs); /* a tuned cap, else the rule's */
    const int y0[3] = {f->lo[0][1], f->lo[1][1], f->lo[2][1]}, y1[3] = {f->hi[0][1], f->hi[1][1], f->hi[2][1]};
    const int z0[3] = {f->lo[0][2], f->lo[1][2], f->lo[2][2]}, z1[3] = {f->hi[0][2], f->hi[1][2], f->hi[2][2]};
    const int ht = t->rows * t->block[1], tma = HOST_TENSOR_MAPS && fused25d_tma(arch_number(), t->block[0], ht, f->real, y0, y1);
    if (tma) {
        constant(s, "TILE_TMA", 1);
        s->tma.on = 1, s->tma.real = f->real, s->tma.width = tile_ring_width(t->block[0], f->real);
        for (int q = 0; q < 3; q++) s->tma.rows[q] = ht + y1[q] - y0[q];
        s->tma.node_ring = fused25d_node_ring(f->nnode, f->real), s->tma.component = f->k->component;
    }
    s->smem = (size_t)f->real * (size_t)fused25d_smem_values(t->block[0], ht, t->stages, y0, y1, z0, z1, f->nnode, f->real,
                                                             f->k->coef == COEF_INDEXED, tma);
}

#if CUDART_VERSION >= 12050
_Static_assert(sizeof(struct tile_map) == sizeof(CUtensorMap), "struct tile_map is a CUtensorMap");

/* cuTensorMapEncodeTiled, a driver function, through the runtime (the binary links no libcuda);
 * NULL where the driver has none. */
typedef CUresult (*encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                    const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                    CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static encode_tiled_fn encode_tiled(void)
{
    static encode_tiled_fn fn;
    static int looked;
#pragma omp critical(gpu_encode)
    if (!looked) {
        void *p = NULL;
        enum cudaDriverEntryPointQueryResult found;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found) == cudaSuccess &&
            found == cudaDriverEntryPointSuccess)
            fn = (encode_tiled_fn)p;
        looked = 1;
    }
    return fn;
}

/* The map of a grid array (kernel.h's layout) whose box is `rows` rows of `width` values of one
 * plane; 0, or -1 where the driver refuses it (the kernel then copies value by value). Its copies'
 * L2 misses fetch whole 128-byte lines: against none, Yee's uniform step +5%, the indexed ones
 * up to +2.6%, the rest within 1%; 256 B ran as 128 B or up to 0.8% slower (H200, notes). */
static int tile_map_of(struct tile_map *map, const void *array, const struct kernel_args *a, int real, int width, int rows)
{
    const encode_tiled_fn encode = encode_tiled();
    const cuuint64_t dim[3] = {(cuuint64_t)a->sy, (cuuint64_t)a->ny + 2 * HALO, (cuuint64_t)a->nz + 2 * HALO};
    const cuuint64_t stride[2] = {(cuuint64_t)a->sy * (cuuint64_t)real, (cuuint64_t)a->sz * (cuuint64_t)real};
    const cuuint32_t box[3] = {(cuuint32_t)width, (cuuint32_t)rows, 1}, unit[3] = {1, 1, 1};
    return encode && encode((CUtensorMap *)map, real == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
                            3, (void *)array, dim, stride, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS
               ? 0
               : -1;
}
#else
static int tile_map_of(struct tile_map *map, const void *array, const struct kernel_args *a, int real, int width, int rows)
{
    (void)map, (void)array, (void)a, (void)real, (void)width, (void)rows;
    return -1;
}
#endif

/* The maps of a fused25d launch: its source fields S0..S2 (spec.h: fused_source) and, with a
 * node ring (one time level a component), each component's level. */
static void fused25d_maps_of(struct fused25d_maps *m, const struct shape *s, const struct kernel_args *a3)
{
    memset(m, 0, sizeof *m);
    if (!s->tma.on) return;
    int bad = 0;
    for (int ax = 0; ax < 3; ax++) {
        int q, plus = fused_source(s->tma.component, ax, &q);
        bad |= tile_map_of(&m->field[ax], plus ? a3[q].plus : a3[q].minus, &a3[0], s->tma.real, s->tma.width, s->tma.rows[ax]);
    }
    for (int n = 0; n < 3 && s->tma.node_ring; n++)
        bad |= tile_map_of(&m->node[n], a3[n].level[0], &a3[0], s->tma.real, s->tma.width, s->args.rows * s->args.block[1]);
    m->ok = !bad;
}

static void fused25d_run_all(const void *fn, const struct shape *s, const struct kernel_args *a3)
{
    struct kernel_args f[3];
    launch_args(f, a3, 3);
    for (int q = 0; q < 3; q++) f[q].nodes = s->args.nodes, f[q].rows = s->args.rows, f[q].stages = s->args.stages;
    struct fused25d_maps m;
    fused25d_maps_of(&m, s, a3);
    void *params[] = {f, &m};
    one_launch(fn, s, params);
}

/* wave: the temporally blocked step's kernels (engine/wave.h), one thread per node over the
 * launch's box of rows and planes (a[0].box, each level's as the engine sweeps), 3-D blocks. */
static int wave_check(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    const struct kernel_args *a = &s->args;
    if (baseline_check(f, s, why, n)) return -1;
    if (blocks_for(a->ny, a->block[1]) <= GRID_YZ_MAX && blocks_for(a->nz, a->block[2]) <= GRID_YZ_MAX) return 0;
    snprintf(why, n, "grid %dx%dx%d needs more than %ld blocks in y or z with block %dx%dx%d", a->nx, a->ny, a->nz,
             GRID_YZ_MAX, a->block[0], a->block[1], a->block[2]);
    return -1;
}

static void wave_run_all(const void *fn, const struct shape *s, const struct kernel_args *a3)
{
    struct kernel_args f[3]; /* struct fused_args */
    launch_args(f, a3, 3);
    const int *b = s->args.block, (*box)[2] = f[0].box;
    void *params[] = {f};
    gpu_start(fn, blocks_for(f[0].nx, b[0]), blocks_for(box[0][1] - box[0][0], b[1]),
              blocks_for(box[1][1] - box[1][0], b[2]), s->block, 0, params);
}

/* wave25d: T steps a launch (wave25d.cu.step; its ring sizes and reach are gpu_rules.h's), the
 * H half-step's kernel given both half-steps' kernel_args (a[0..5]); flat blocks of tiles of
 * Bx x rows*By nodes, each block a chunk of a.nodes planes. Each axis' reach of a half-step:
 * over its three source fields. */
struct wave25d_geom {
    int t, w, h, pad, below[2], out[2];
    int lo[2][3], hi[2][3]; /* [H, E][axis] */
};

static void wave25d_geom_of(const struct facts *f, const struct kernel_args *a, struct wave25d_geom *g)
{
    const int h_first = f->k->component == HX;
    for (int half = 0; half < 2; half++) /* [0] H's boxes, [1] E's */
        for (int ax = 0; ax < 3; ax++) {
            const int(*lo)[3] = half == !h_first ? f->lo : f->olo, (*hi)[3] = half == !h_first ? f->hi : f->ohi;
            g->lo[half][ax] = g->hi[half][ax] = 0;
            for (int fld = 0; fld < 3; fld++) {
                if (lo[fld][ax] < g->lo[half][ax]) g->lo[half][ax] = lo[fld][ax];
                if (hi[fld][ax] > g->hi[half][ax]) g->hi[half][ax] = hi[fld][ax];
            }
        }
    g->t = a->tsteps > 0 ? a->tsteps : 1, g->w = a->block[0], g->h = a->block[1] * a->rows;
    g->pad = wave25d_pad(g->w, wave25d_reach(g->lo[0][0], g->hi[0][0], g->lo[1][0], g->hi[1][0]),
                         wave25d_reach(g->lo[0][1], g->hi[0][1], g->lo[1][1], g->hi[1][1]));
    for (int ax = 0; ax < 2; ax++) {
        const int n = ax ? g->h : g->w;
        g->below[ax] = wave25d_below(g->t, g->lo[0][ax], g->lo[1][ax]);
        g->out[ax] = n - g->below[ax] - wave25d_above(g->t, g->hi[0][ax], g->hi[1][ax]);
    }
}

static void wave25d_shape(const struct facts *f, const struct kernel_args *a, struct shape *s)
{
    plain_shape(a, s);
    tiled_args(f, a, &s->args);
    s->args.tsteps = a->tsteps > 0 ? a->tsteps : 1;
    const struct kernel_args *t = &s->args;
    struct wave25d_geom g;
    wave25d_geom_of(f, t, &g);
    constant(s, "TILE_BX", t->block[0]), constant(s, "TILE_BY", t->block[1]);
    constant(s, "TILE_ROWS", t->rows), constant(s, "WAVE25D_T", g.t), constant(s, "WAVE25D_BOUNDARY", t->boundary);
    const int index_planes = wave25d_index_planes(f->k->coef == COEF_INDEXED, t->boundary, g.t, g.hi[0][2], g.hi[1][2]);
    s->smem = (size_t)f->real * (size_t)wave25d_smem_values(g.w, g.h, g.t, g.pad, g.lo[0][2], g.hi[0][2], g.lo[1][2],
                                                            g.hi[1][2], wave25d_table_values(f->k->coef == COEF_INDEXED),
                                                            index_planes, f->real);
    s->written[0] = g.out[0], s->written[1] = g.out[1];
}

static int wave25d_check(const struct facts *f, const struct shape *s, char *why, size_t n)
{
    const struct kernel_args *a = &s->args;
    struct wave25d_geom g;
    wave25d_geom_of(f, a, &g);
    if (block_in_limits(a->block, f->traits->max_threads, why, n) || narrow_offsets(a, why, n)) return -1;
    if (a->block[2] != 1) snprintf(why, n, "block %dx%dx%d: wave25d takes Bz = 1", a->block[0], a->block[1], a->block[2]);
    else if (a->rows < 1) snprintf(why, n, "%d rows: wave25d takes at least one", a->rows);
    else if (g.out[0] < 1 || g.out[1] < 1)
        snprintf(why, n, "a tile of %dx%d nodes (block %dx%d, %d rows) is no wider than what %d steps reach (%d, %d): "
                 "larger blocks or fewer steps a pass", g.w, g.h, a->block[0], a->block[1], a->rows, g.t,
                 g.w - g.out[0], g.h - g.out[1]);
    else if (s->smem > (size_t)gpu_device()->smem_optin)
        snprintf(why, n, "block %dx%d with %d rows and %d steps a pass needs %zu bytes of shared memory, more than the "
                 "device's %d", a->block[0], a->block[1], a->rows, g.t, s->smem, gpu_device()->smem_optin);
    else if (blocks_for(a->ny, g.out[1]) > GRID_YZ_MAX || blocks_for(a->nz, a->nodes) > GRID_YZ_MAX)
        snprintf(why, n, "grid %dx%dx%d needs more than %ld blocks in y or z", a->nx, a->ny, a->nz, GRID_YZ_MAX);
    else return 0;
    return -1;
}

static void wave25d_run_all(const void *fn, const struct shape *s, const struct kernel_args *a6)
{
    struct kernel_args f[6]; /* struct wave25d_args */
    launch_args(f, a6, 6);
    for (int q = 0; q < 6; q++) f[q].nodes = s->args.nodes, f[q].rows = s->args.rows, f[q].tsteps = s->args.tsteps;
    void *params[] = {f};
    gpu_start(fn, blocks_for(f[0].nx, s->written[0]), blocks_for(f[0].ny, s->written[1]), blocks_for(f[0].nz, f[0].nodes),
              s->block, s->smem, params);
}

static const struct rule {
    const char *variant;
    void (*shape)(const struct facts *f, const struct kernel_args *a, struct shape *s); /* NULL: plain */
    int (*check)(const struct facts *f, const struct shape *s, char *why, size_t n);
    void (*run)(const void *fn, const struct shape *s);                                 /* one component */
    void (*run_all)(const void *fn, const struct shape *s, const struct kernel_args *a3); /* a fused half-step */
} rules[] = {
    {"baseline", NULL, baseline_check, baseline_run, NULL},
    {"linear", NULL, linear_check, linear_run, NULL},
    {"zmarch", zmarch_shape, zmarch_check, marching_run, NULL},
    {"tile25d", tile25d_shape, tiled_fits, marching_run, NULL},
    {"fused", fused_shape, fused_check, NULL, fused_run_all},
    {"fused25d", fused25d_shape, tiled_fits, NULL, fused25d_run_all},
    {"wave", NULL, wave_check, NULL, wave_run_all},
    {"wave25d", wave25d_shape, wave25d_check, NULL, wave25d_run_all},
};

/* ---- kernels: sources, compiled shapes, loaded functions --------------------------------------- */

/* One compiled launch shape of a kernel. */
struct built {
    char options[MAX_CONSTANTS * CONSTANT_LEN];
    struct kcache_code code;
    const void *fn;       /* loaded on first launch (NULL before) */
    size_t smem_allowed[GPU_MAX_DEVICES]; /* dynamic shared memory opted in for (above the default 48 KiB),
                                           * per GPU: the attribute is each device's own */
};

/* Each table entry's state, made on first use. */
struct kstate {
    const struct rule *rule;
    const struct template *t;
    struct facts f;
    char name[128];
    char *source;
    int n, cap;
    struct built **b;
};

static struct kstate *states;       /* gpu_kernel_table's entries, then gpu_fused_table's */
static struct kstate *layer_states; /* gpu_layer_table's (no rule: one launch shape) */

static const struct template *template_of(const char *variant, int step, int layer)
{
    static struct template *t;
    if (!t && !(t = calloc((size_t)gpu_template_count, sizeof *t))) emit_fail("out of memory");
    return template_find(t, gpu_template_count, gpu_template_names, gpu_template_texts, variant, step, layer);
}

static struct kstate *state_of(const struct kernel_entry *k)
{
    const int fused = k >= gpu_fused_table && k < gpu_fused_table + gpu_fused_table_len;
    const long i = fused ? gpu_kernel_table_len + (k - gpu_fused_table) : k - gpu_kernel_table;
    struct kstate *st;
#pragma omp critical(gpu_kernels)
    {
        emit_program = "fdtdbench: kernel generator";
        if (!states && !(states = calloc((size_t)(gpu_kernel_table_len + gpu_fused_table_len), sizeof *states)))
            emit_fail("out of memory");
        st = &states[i];
        if (!st->source) {
            for (size_t r = 0; r < sizeof rules / sizeof rules[0] && !st->rule; r++)
                if (!strcmp(rules[r].variant, k->variant) && !rules[r].run_all == !fused) st->rule = &rules[r];
            if (!st->rule) emit_fail("no launch rule for GPU variant %s (kernels_gpu/launch.c)", k->variant);
            st->t = template_of(k->variant, fused, 0);
            const struct kernel_desc d = {.s = scheme_find(k->scheme), .component = k->component,
                                          .precision = k->precision, .coef = k->coef, .variant = st->t->variant,
                                          .traits = &st->t->traits, .device = st->t->device};
            if (!d.s) emit_fail("no scheme %s in this build", k->scheme);
            kernel_name(st->name, sizeof st->name, &d);
            struct facts *f = &st->f;
            f->k = k, f->real = k->precision == F32 ? 4 : 8, f->traits = &st->t->traits;
            source_boxes(&d, fused, f->lo, f->hi);
            struct kernel_desc other = d;
            other.component = d.component == HX ? EX : HX;
            if (fused) source_boxes(&other, fused, f->olo, f->ohi);
            f->nnode = node_array_count(&d, fused);
            st->source = kernel_source(&d, st->t);
        }
    }
    return st;
}

static void shape_of(const struct kstate *st, const struct kernel_args *a, struct shape *s)
{
    if (st->rule->shape) st->rule->shape(&st->f, a, s);
    else plain_shape(a, s);
    single_coefs(&s->args);
}

/* The compiled kernel of shape s (compiled now, or read from the disk cache, if this process has
 * not had it yet). Thread-safe; compiles outside the lock. */
static struct built *build(struct kstate *st, const struct shape *s)
{
    char options[MAX_CONSTANTS * CONSTANT_LEN] = "";
    const char *opts[MAX_CONSTANTS];
    for (int i = 0; i < s->nconst; i++) strcat(options, s->constant[i]), strcat(options, " "), opts[i] = s->constant[i];
    struct built *found = NULL;
#pragma omp critical(gpu_kernels)
    for (int i = 0; i < st->n && !found; i++)
        if (!strcmp(st->b[i]->options, options)) found = st->b[i];
    if (found) return found;
    struct built *b = calloc(1, sizeof *b);
    if (!b) emit_fail("out of memory");
    snprintf(b->options, sizeof b->options, "%s", options);
    rtc_build(st->name, st->source, opts, s->nconst, gpu_arch(), &b->code);
#pragma omp critical(gpu_kernels)
    {
        for (int i = 0; i < st->n && !found; i++) /* another thread built it meanwhile */
            if (!strcmp(st->b[i]->options, options)) found = st->b[i];
        if (!found) {
            if (st->n == st->cap && !(st->b = realloc(st->b, (size_t)(st->cap = st->cap ? 2 * st->cap : 8) * sizeof *st->b)))
                emit_fail("out of memory");
            st->b[st->n++] = found = b;
        }
    }
    if (found != b) free(b->code.code), free(b);
    return found;
}

static const void *function_of(struct kstate *st, struct built *b)
{
    if (!b->fn) b->fn = gpu_load(&b->code, st->name);
    return b->fn;
}

/* The launch checks that need no GPU: the rule's, on the shape it makes of a. */
static int static_check(struct kstate *st, const struct shape *s, char *why, size_t n)
{
    const int *b = s->args.block;
    if (b[0] < 1 || b[1] < 1 || b[2] < 1 || s->args.nodes < 0 || s->args.rows < 0 || s->args.stages < 0) {
        snprintf(why, n, "block %dx%dx%d, %d nodes, %d rows, %d stages: not a launch", b[0], b[1], b[2], s->args.nodes,
                 s->args.rows, s->args.stages);
        return -1;
    }
    return st->rule->check(&st->f, s, why, n);
}

int gpu_kernel_accepts(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n)
{
    struct kstate *st = state_of(k);
    struct shape s;
    shape_of(st, a, &s);
    if (static_check(st, &s, why, n)) return -1;
    if (st->rule->shape || st->rule->run_all) { /* compiled for this shape: its own limits too */
        struct cudaFuncAttributes fa;
        const void *fn = function_of(st, build(st, &s));
        const int *b = s.args.block;
        if (cudaFuncGetAttributes(&fa, fn) == cudaSuccess && (long)b[0] * b[1] * b[2] > fa.maxThreadsPerBlock) {
            snprintf(why, n, "block %dx%dx%d: the compiled kernel (%d registers a thread) takes at most %d threads", b[0],
                     b[1], b[2], fa.numRegs, fa.maxThreadsPerBlock);
            return -1;
        }
    }
    return 0;
}

/* Lets kernel fn of b take smem bytes of dynamic shared memory on the current device (beyond
 * 48 KB CUDA asks for it to be said, per device). */
static void allow_smem(const void *fn, struct built *b, size_t smem)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev >= GPU_MAX_DEVICES) dev = 0;
    if (smem > 48 * 1024 && smem > b->smem_allowed[dev] &&
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) == cudaSuccess)
        b->smem_allowed[dev] = smem;
}

/* Launch a of kernel k as it runs: its shape in *s, its function, loaded and allowed the shape's
 * shared memory. */
static const void *ready(const struct kernel_entry *k, const struct kernel_args *a, struct kstate **st, struct shape *s)
{
    *st = state_of(k);
    shape_of(*st, a, s);
    struct built *b = build(*st, s);
    const void *fn = function_of(*st, b);
    allow_smem(fn, b, s->smem);
    return fn;
}

void gpu_kernel_launch(const struct kernel_entry *k, const struct kernel_args *a)
{
    struct kstate *st;
    struct shape s;
    const void *fn = ready(k, a, &st, &s);
    if (st->rule->run_all) st->rule->run_all(fn, &s, a);
    else st->rule->run(fn, &s);
}

/* ---- for the harness: compiling ahead, and how a kernel was obtained ------------------------------ */

int gpu_kernel_prepare(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n)
{
    struct kstate *st = state_of(k);
    struct shape s;
    shape_of(st, a, &s);
    if (static_check(st, &s, why, n)) return -1;
    build(st, &s);
    return 0;
}

double gpu_kernel_compiled_ms(const struct kernel_entry *k, const struct kernel_args *a)
{
    struct kstate *st = state_of(k);
    struct shape s;
    shape_of(st, a, &s);
    const struct built *b = build(st, &s);
    return b->code.from_cache ? -1 : b->code.compile_ms;
}

double gpu_kernel_occupancy_pct(const struct kernel_entry *k, const struct kernel_args *a)
{
    struct kstate *st;
    struct shape s;
    const void *fn = ready(k, a, &st, &s);
    const int threads = (int)(s.block[0] * s.block[1] * s.block[2]), per_sm = gpu_device()->threads_per_sm;
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, threads, s.smem) != cudaSuccess || per_sm <= 0) {
        cudaGetLastError();
        return NAN;
    }
    return 100.0 * blocks * ((threads + 31) / 32) / (per_sm / 32);
}

static void forget(struct kstate *st, int count)
{
    for (int i = 0; st && i < count; i++) {
        for (int j = 0; j < st[i].n; j++) free(st[i].b[j]->code.code), free(st[i].b[j]);
        st[i].n = 0; /* the modules stay loaded: a kernel launched before may still run */
    }
}

void gpu_kernels_forget(void)
{
#pragma omp critical(gpu_kernels)
    {
        forget(states, gpu_kernel_table_len + gpu_fused_table_len);
        forget(layer_states, gpu_layer_table_len);
    }
}

/* ---- the CPML's layer kernels (codegen/layer.h; gpu_layer_table's launchers call these) ----------- */

/* One thread per slab cell, in 1-D blocks (cpml.cu.layer): one launch, the only constant the block. */
enum { LAYER_BLOCK = 256 };

static struct kstate *layer_state_of(const struct layer_entry *e)
{
    struct kstate *st;
#pragma omp critical(gpu_kernels)
    {
        emit_program = "fdtdbench: kernel generator";
        if (!layer_states && !(layer_states = calloc((size_t)gpu_layer_table_len, sizeof *layer_states)))
            emit_fail("out of memory");
        st = &layer_states[e - gpu_layer_table];
        if (!st->source) {
            st->t = template_of(e->variant, 0, 1);
            const struct kernel_desc d = {.s = scheme_find(e->scheme), .component = e->first, .precision = e->precision,
                                          .coef = e->coef, .variant = st->t->variant, .traits = &st->t->traits,
                                          .device = st->t->device, .axis = e->axis};
            if (!d.s) emit_fail("no scheme %s in this build", e->scheme);
            kernel_name(st->name, sizeof st->name, &d);
            st->source = kernel_source(&d, st->t);
        }
    }
    return st;
}

static struct built *layer_built(struct kstate *st)
{
    struct shape s;
    memset(&s, 0, sizeof s);
    constant(&s, "LAYER_BLOCK", LAYER_BLOCK);
    return build(st, &s);
}

void gpu_layer_launch(const struct layer_entry *e, const struct layer_args *a)
{
    struct kstate *st = layer_state_of(e);
    const void *fn = function_of(st, layer_built(st));
    const int n[3] = {a->nx, a->ny, a->nz};
    long cells = 1;
    for (int ax = 0; ax < 3; ax++) cells *= ax == e->axis ? 2 * a->thickness : n[ax];
    struct layer_args args = *a;
    for (int q = 0; q < LAYER_TERMS; q++) single_of(args.t[q].db_uf, a->t[q].db_u, MAX_GROUPS);
    void *params[] = {&args};
    static const unsigned block[3] = {LAYER_BLOCK, 1, 1};
    gpu_start(fn, blocks_for(cells, LAYER_BLOCK), 1, 1, block, 0, params);
}

int gpu_layer_prepare(const struct layer_entry *e, char *why, size_t n)
{
    (void)why, (void)n;
    layer_built(layer_state_of(e));
    return 0;
}
