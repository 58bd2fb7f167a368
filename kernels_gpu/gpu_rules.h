/* Rules that a GPU kernel (as a constant expression, compiled by NVRTC) and its launcher (host C,
 * launch.c) must agree on: launch bounds, ring sizes, shared memory. One place for each, so that
 * the shared memory a launch asks for is the shared memory its kernel lays out. */
#ifndef KERNELS_GPU_RULES_H
#define KERNELS_GPU_RULES_H

#include "halo_rule.h"
#include "spec.h"

#ifdef __CUDACC__
#define GPU_RULE static constexpr __host__ __device__
#else
#define GPU_RULE static inline
#endif

/* Threads per block at most in a tiled variant's launch bounds, given its max_threads trait: f64
 * blocks hold half as many, since their copy plans and values take twice the registers (at 512
 * threads, 128 registers each, f64 S44 spilled). */
GPU_RULE int tile_max_threads(int real_size, int max_threads) { return real_size == 4 ? max_threads : max_threads / 2; }

GPU_RULE int pow2_at_least(int n) { return n <= 1 ? 1 : 2 * pow2_at_least((n + 1) / 2); }

/* Ring slots of a field whose points span planes z0 .. z1 about the node: a node at plane k reads
 * planes k+z0 .. k+z1; `stages` more are in flight, and one more slot lets a thread fetch step
 * k+1's plane while a slower thread of the block still reads step k's. Rounded up to a power of
 * two, so that a slot is one AND. */
GPU_RULE int tile_ring_slots(int z0, int z1, int stages) { return pow2_at_least(z1 - z0 + 1 + stages + 1); }

/* tile25d (and fused25d): slots of the node operands' ring: the `stages` planes in flight, the
 * one being read and one for a slower thread. */
GPU_RULE int tile_node_slots(int stages) { return pow2_at_least(stages + 2); }

/* tile25d: a node's own operands (time levels, coefficient arrays) are read by its thread alone,
 * so they need no shared memory; through it they are one more ring, which for S44's ten arrays
 * was two thirds of a block's shared memory. Read straight into registers two steps ahead
 * instead, they compete with the stencil's shared-memory reads for L1: on the H100 that gained 6
 * points for S44 (10 arrays) and lost 1-14 for the schemes with 1 to 6
 * (docs/performance-notes.md). */
GPU_RULE int node_operands_in_registers(int nnode) { return nnode >= 8; }

/* tile25d's __launch_bounds__ blocks per SM, by rows: four, two (64 registers at 512 threads:
 * left to itself, ptxas aimed at 64 anyway and spilled to reach it, f32 S44 Ex and Hz, f64 Yee),
 * but one two planes deep with four node operands (S44 Hx and Ez uniform spilled at 64); two,
 * one (up to 128: at ptxas's own aim of 64, S{2,2} Ex uniform and FV24-WB f64 spilled); one, 0,
 * ptxas's own choice (one block asked for let FV24 take 83 registers instead of 57: half the warps
 * in 512-thread blocks, 20 points lost). */
GPU_RULE int tile25d_min_blocks(int rows, int stages, int nnode)
{
    return rows >= 4 ? (stages == 2 && nnode >= 4 ? 1 : 2) : rows == 2 ? 1 : 0;
}

/* tile25d and fused25d: a ring row's values, the tile's bx and HALO on each side rounded up to a
 * whole number of 32-byte sectors, so that a row is an even number of 16-byte cp.async pieces.
 * Rows of an odd number (bx + 4 floats, bx a multiple of 8) had L2 serve 1.4-1.5 times the
 * sectors they touch: a copy of such rows read 5.5 M sectors where rows 4 floats wider read 3.9 M
 * (H200), as if a sector whose two pieces fall in two quarter-warps were fetched by each (notes:
 * "a ring row's pieces"). */
GPU_RULE int tile_ring_width(int bx, int real_size)
{
    const int sector = 32 / real_size;
    return (bx + 2 * HALO + sector - 1) / sector * sector;
}

/* tile25d's shared memory for a tile of bx x ht nodes (ht = rows x by), `stages` deep: the rings
 * of the plus field (its points span rows py0..py1 and planes pz0..pz1 about the node), of the
 * minus field, and of the node's operands unless they are in registers. In values of the
 * kernel's precision (real_size bytes); the kernel lays its rings out in this order. */
GPU_RULE long tile25d_smem_values(int bx, int ht, int stages, int py0, int py1, int pz0, int pz1, int my0, int my1,
                                  int mz0, int mz1, int nnode, int real_size)
{
    return (long)tile_ring_width(bx, real_size) *
           (tile_ring_slots(pz0, pz1, stages) * (ht + py1 - py0) + tile_ring_slots(mz0, mz1, stages) * (ht + my1 - my0) +
            (node_operands_in_registers(nnode) ? 0 : tile_node_slots(stages)) * nnode * ht);
}

/* fused25d: registers per thread at most (with at most 512 f32 or 256 f64 threads a block always
 * fits), for R rows of nodes per thread and NNODE node operands. On the H100 at 512^3, f32: with
 * array coefficients (FV24: 18 node operands, two planes ahead) 128 beat 96 and 80 by 2 to 22
 * points of bandwidth. Without arrays one row ran best at 96 (more warps hiding the latency;
 * S{2,2} and S44, four time levels, need 104), but two rows spilled at 96 and 104 and gained 5 to
 * 12 points at 128. f64 values take two registers each: 168, and 255 for two rows without arrays
 * (they spilled at 168). docs/performance-notes.md. */
GPU_RULE int fused25d_max_registers(int real_size, int array, int rows, int nnode)
{
    return real_size == 8 ? (!array && rows > 1 ? 255 : 168) : array || rows > 1 ? 128 : nnode > 3 ? 104 : 96;
}

/* fused25d: planes ahead that a node's operands are loaded: two while they are few (at most 96
 * bytes, as FV24's 18 f32 values with array storage), else one (S44's 30, and f64 coefficient
 * arrays). */
GPU_RULE int fused25d_ahead(int nnode, int real_size) { return nnode * real_size <= 96 ? 2 : 1; }

/* fused25d: a node's own operands through a shared-memory ring (cp.async, `stages` planes ahead,
 * as the source fields) rather than registers loaded fused25d_ahead planes ahead, while they are
 * few: one f32 time level a component (uniform or indexed storage), 12 bytes a node. In registers
 * they move down a plane each step, and ptxas put the move of the newest load at the top of the
 * next plane, where the warp then waited for it: 23% of the FV24 uniform step's stall samples.
 * Through the ring, each step tuned again (tune --step, H100, 512^3): FV24, FV24-WB and S{2,2}
 * uniform +7 to +11%, indexed +0.5 to +2%, Yee indexed +3%, uniform -0.5%
 * (docs/performance-notes.md). S44's four levels and f64 values would take more shared memory
 * than their launches have, and coefficient arrays more than fits beside the fields' rings. */
GPU_RULE int fused25d_node_ring(int nnode, int real_size) { return nnode * real_size <= 12; }

/* ... and with them, with indexed storage, the material byte: in registers it moved down a plane
 * each step as they did. Its ring's rows are the tile's (tile_ring_width bytes, copied 4 bytes at
 * a time: bx is a multiple of 4), tile_node_slots deep. Each step tuned again by both builds (H100,
 * 512^3): FV24, FV24-WB and S{2,2} indexed +6 to +7%, Yee indexed -0.4%. */
GPU_RULE int fused25d_index_ring(int nnode, int real_size, int indexed) { return indexed && fused25d_node_ring(nnode, real_size); }

/* fused25d's rings by tensor copies (TMA, sm_90 on): one thread starts a whole tile of a plane
 * (a field's, a node operand's) with one instruction, where 16-byte cp.async pieces cost every
 * thread about 30 instructions a piece, a fifth of FV24's uniform kernel (ncu, H200;
 * docs/performance-notes.md). A tile lands at a 128-byte boundary, so each slot (and each node
 * operand's tile in its slot) is padded to one; the copies complete on one mbarrier a step, the
 * step's group (fused25d_barriers_at says where). A box is at most 256 values each way
 * (cuTensorMapEncodeTiled). */
enum { TILE_BARRIER_BYTES = 128, TILE_BOX_MAX = 256 };
GPU_RULE int fused25d_tma(int arch, int bx, int ht, int real_size, const int y0[3], const int y1[3])
{
    int fits = arch >= 90 && ht <= TILE_BOX_MAX && tile_ring_width(bx, real_size) <= TILE_BOX_MAX;
    for (int s = 0; s < 3; s++) fits = fits && ht + y1[s] - y0[s] <= TILE_BOX_MAX;
    return fits;
}
/* A slot of `values` values, padded to the 128 bytes a tensor copy's destination needs. */
GPU_RULE long tile_slot_values(long values, int real_size, int tma)
{
    const long align = tma ? 128 / real_size : 1;
    return (values + align - 1) / align * align;
}
/* The mbarriers of tensor copies in flight: `stages` steps ahead and the step being read. */
GPU_RULE int tile_barriers(int stages) { return pow2_at_least(stages + 1); }
/* fused25d with tensor copies: where its mbarriers lie, in bytes from the start of its shared
 * memory: in the padding of a source ring's first slot (the first of the three where they fit),
 * else -1: the first TILE_BARRIER_BYTES, before the rings. Before the rings, they took FV24's 32x4
 * tiles of two rows at two stages to 57 472 B a block, 128 B over the four-blocks-an-SM line
 * (docs/performance-notes.md). */
GPU_RULE long fused25d_barriers_at(int bx, int ht, int stages, const int y0[3], const int y1[3], const int z0[3],
                                   const int z1[3], int real_size)
{
    const long w = tile_ring_width(bx, real_size), need = 8L * tile_barriers(stages);
    long at = 0;
    for (int s = 0; s < 3; s++) {
        const long values = (ht + y1[s] - y0[s]) * w, slot = tile_slot_values(values, real_size, 1) * real_size;
        if (slot - values * real_size >= need) return at + values * real_size;
        at += tile_ring_slots(z0[s], z1[s], stages) * slot;
    }
    return -1;
}

/* A tensor map (CUtensorMap: 128 bytes at a 64-byte boundary) as a kernel and its launcher both
 * see it, and fused25d's: its three source fields' and, with fused25d_node_ring, its three node
 * operands'; ok 0: none encoded (the kernel copies value by value). */
#ifdef __cplusplus
#define GPU_ALIGNAS(n) alignas(n)
#else
#define GPU_ALIGNAS(n) _Alignas(n)
#endif
struct tile_map {
    GPU_ALIGNAS(64) unsigned long long opaque[16];
};
struct fused25d_maps {
    struct tile_map field[3], node[3];
    int ok;
};

/* fused25d's shared memory: with tensor copies, their barriers where no slot's padding holds them
 * (fused25d_barriers_at); the three source fields' rings,
 * each field's tile ht + (y1 - y0) rows of tile_ring_width values, tile_ring_slots(z0, z1) deep;
 * then, with fused25d_node_ring, the node operands' ring: nnode tiles of ht such rows,
 * tile_node_slots deep; then, with fused25d_index_ring, the material bytes' (ht rows, as deep).
 * In values; the kernel's layout. */
GPU_RULE long fused25d_smem_values(int bx, int ht, int stages, const int y0[3], const int y1[3], const int z0[3],
                                   const int z1[3], int nnode, int real_size, int indexed, int tma)
{
    const long w = tile_ring_width(bx, real_size);
    long v = tma && fused25d_barriers_at(bx, ht, stages, y0, y1, z0, z1, real_size) < 0 ? TILE_BARRIER_BYTES / real_size : 0;
    for (int s = 0; s < 3; s++)
        v += (long)tile_ring_slots(z0[s], z1[s], stages) * tile_slot_values((ht + y1[s] - y0[s]) * w, real_size, tma);
    if (fused25d_node_ring(nnode, real_size))
        v += (long)tile_node_slots(stages) * nnode * tile_slot_values(ht * w, real_size, tma);
    if (fused25d_index_ring(nnode, real_size, indexed)) v += (tile_node_slots(stages) * ht * w + real_size - 1) / real_size;
    return v;
}

/* wave25d, the GPU's temporally blocked step (wave25d.cu.step): T steps a launch, its 2T
 * half-steps ("levels" 1 .. 2T, H odd, E even) kept in shared memory. Along each axis, H's
 * half-step reads its sources at offsets hlo .. hhi about the node, E's at elo .. ehi (over the
 * three source fields). A block's tile of nodes reaches past the nodes it writes by each level's
 * reach: below by wave25d_below, above by wave25d_above. Reads past the tile's edge land in the
 * neighbouring row or plane, and only nodes the block does not write depend on them; wave25d_pad
 * values before and after the rings keep the first and last rows' reads inside them. */
GPU_RULE int wave25d_below(int t, int hlo, int elo) { return -t * (hlo + elo); }
GPU_RULE int wave25d_above(int t, int hhi, int ehi) { return t * (hhi + ehi); }
GPU_RULE int wave25d_reach(int hlo, int hhi, int elo, int ehi)
{
    const int l = -hlo > -elo ? -hlo : -elo, h = hhi > ehi ? hhi : ehi;
    return l > h ? l : h;
}
GPU_RULE int wave25d_pad(int w, int reach_x, int reach_y) { return reach_y * w + reach_x; }

/* Planes of a level's ring: the next level (the other field) reads z0_next .. z1_next about its
 * plane, which lies z1_next behind; the level after it (this field) reads its own node,
 * z1_next + z1_after behind. Each level is stored, then the block synchronizes, then the next
 * reads: the plane written must not be one still to be read. */
GPU_RULE int wave25d_slots(int z0_next, int z1_next, int z1_after)
{
    return (z1_next - z0_next > z1_next + z1_after ? z1_next - z0_next : z1_next + z1_after) + 1;
}

/* wave25d with indexed storage and a periodic boundary, where every component's image of a node
 * is the same node: the tile's material bytes, read once a pass (plane by plane, as level 0's
 * values) into a ring of planes that every level reads, instead of each level reading its own
 * from memory. Planes: from the last level's, behind(2T), to the one level 0 stores next. Each
 * step tuned again by both builds (H100, 512^3): Yee indexed +8.3% (at T = 3: 41 657 MCells/s),
 * FV24 +4.4%, FV24-WB +2.7%, S{2,2} +2.2%. */
GPU_RULE int wave25d_index_planes(int indexed, int boundary, int t, int hz1, int ez1)
{
    return indexed && boundary == BOUNDARY_PERIODIC ? t * (hz1 + ez1) + 2 : 0;
}

/* wave25d with indexed storage: every coefficient's table (MAX_MATERIALS values, one a material),
 * copied into shared memory at the start of a launch, so that a level's coefficients are shared
 * loads rather than global ones (H100, 512^3, tuned launches: Yee indexed +16.5%, FV24-WB +15%,
 * FV24 +7%, S{2,2} +4%; in fused and fused25d, where a node reads each coefficient once, mostly
 * slower: notes). Values: six components, MAX_LEVELS da then MAX_GROUPS db each. */
GPU_RULE int wave25d_table_values(int indexed) { return indexed ? 6 * MAX_COEFS * MAX_MATERIALS : 0; }

/* Shared memory, in values: the rings of levels 0 .. 2T-1 (E's at even levels, H's at odd), three
 * components each, planes of w x h, between two pads; then table_values values (the coefficient
 * tables); then index_planes planes of w x h bytes. The kernel's layout, in that order. */
GPU_RULE long wave25d_smem_values(int w, int h, int t, int pad, int hz0, int hz1, int ez0, int ez1, int table_values,
                                  int index_planes, int real_size)
{
    return 3L * w * h * t * (wave25d_slots(hz0, hz1, ez1) + wave25d_slots(ez0, ez1, hz1)) + 2L * pad + table_values +
           ((long)index_planes * w * h + real_size - 1) / real_size;
}

/* wave25d's launch bounds: as many blocks of `threads` a multiprocessor as its shared memory
 * holds (228 KiB on the H100 and H200, 1 KiB of it the system's per block), but not so many that a
 * thread gets fewer than 64 registers (its levels' addresses and values; fewer spilled). */
GPU_RULE int wave25d_min_blocks(int threads, long smem_bytes)
{
    const long by_smem = 233472L / (smem_bytes + 1024), by_regs = 1024 / threads;
    const long b = by_smem < by_regs ? by_smem : by_regs;
    return b < 1 ? 1 : (int)b;
}

/* The halo refresh's geometry (support.cu's kernels, gpu_backend.c's launch): the refreshed
 * cells of one field in three disjoint boxes, threads along x first where the box allows:
 *   Z: the c[2] refreshed planes, whole (padded) planes;
 *   Y: the c[1] refreshed rows of every other plane, whole rows;
 *   X: the c[0] refreshed cells of every other row.
 * The other positions along an axis are lo .. lo + in: the interior but a refreshed wall node,
 * and the ghosts of an open face (halo_rule.h: a neighbour's planes, refreshed along x and y as
 * the interior's). A box is empty for an axis before the refresh's first axis (c 0 there). */
struct halo_geom {
    int n[3], half[3], open[3], boundary;
    int c[3], lo[3], in[3], pad[3]; /* refreshed count; first and number of other positions; padded size */
    long sy, sz;
};

#endif
