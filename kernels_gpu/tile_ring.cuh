/* What the GPU variants that stream xy tiles through shared memory along z share (tile25d and
 * the fused step's fused25d): the pipeline depth, the rings' sizes, the copy plans that fill
 * them with cp.async, the tiles they compile, and the checks and dispatch of their launches. */
#ifndef KERNELS_GPU_TILE_RING_CUH
#define KERNELS_GPU_TILE_RING_CUH

#include "gpu_common.cuh"

#include <cuda_pipeline.h>
#include <stdint.h>

/* Planes in flight ahead of the one being computed (on the H100, 3 beat 2 by 3 to 5 points
 * of bandwidth for the high-order schemes; see docs/performance-notes.md). */
#ifndef TILE25D_STAGES
#define TILE25D_STAGES 3
#endif

/* Threads per block at most, given a variant's max_threads: f64 blocks hold half as many, since
 * their copy plans and values take twice the registers (at 512 threads, 128 registers each, f64
 * S44 spilled). */
#define TILE_MAX_THREADS(REAL, MAX) (sizeof(REAL) == 4 ? (MAX) : (MAX) / 2)

static constexpr __host__ __device__ int pow2_at_least(int n) { return n <= 1 ? 1 : 2 * pow2_at_least((n + 1) / 2); }

/* Ring slots of a field whose points span planes z0 .. z1 about the node: a node at plane k reads
 * planes k+z0 .. k+z1; TILE25D_STAGES more are in flight, and one more slot lets a thread fetch
 * step k+1's plane while a slower thread of the block still reads step k's. Rounded up to a power
 * of two, so that a slot is one AND. */
static constexpr __host__ __device__ int tile_ring_slots(int z0, int z1)
{
    return pow2_at_least(z1 - z0 + 1 + TILE25D_STAGES + 1);
}

/* The slow path, for rows that are not 16-byte aligned: the tiles of tile_pieces (below), value
 * by value, the pieces worked out again at every plane. */
template <typename REAL>
static __device__ void fetch_values(REAL *tile, const REAL *const *arrays, int narrays, const struct kernel_args &a,
                                    int i0, int j0, int Y0, int H, int W, int p)
{
    const int rows = min(H, a.ny + HALO - (j0 + Y0)), columns = min(W, (int)a.sy - i0);
    const long base = (long)(p + HALO) * a.sz + (long)(j0 + Y0 + HALO) * a.sy + i0;
    for (int t = threadIdx.y * blockDim.x + threadIdx.x; t < narrays * H * W; t += blockDim.x * blockDim.y) {
        const int q = t / (H * W), r = (t - q * H * W) / W, c = t - q * H * W - r * W;
        if (r < rows && c < columns) __pipeline_memcpy_async(tile + t, arrays[q] + base + (long)r * a.sy + c, sizeof(REAL));
    }
}

/* The 16-byte pieces one thread copies of one tile of H rows of W values (V values a piece), for a
 * block of BX x BY threads: thread t copies pieces t, t + BX*BY, ...; for each, its offset within
 * a plane of the array (-1: past the array's last row or column, not copied; only threads past
 * the grid's edge read those, and they store nothing) stays in a register and its place in the
 * tile is a constant division away, so a plane costs a thread one add and one cp.async per
 * piece. (Packed by a running count, the plan was indexed at run time and went to local memory:
 * a local load before every copy.) */
template <typename REAL, int BX, int BY, int H, int W>
struct tile_pieces {
    static constexpr int V = 16 / sizeof(REAL), P = W / V, T = BX * BY, N = (H * P + T - 1) / T;
    int off[N];
    /* origin: the tile's first value in a plane (its row times sy plus its column); rows and
     * columns: how much of the tile lies inside the array */
    __device__ void plan(long origin, long sy, int rows, int columns)
    {
        const int t = threadIdx.y * BX + threadIdx.x;
#pragma unroll
        for (int n = 0; n < N; n++) {
            const int u = t + n * T, r = u / P, c = u % P * V;
            off[n] = u < H * P && r < rows && c < columns ? (int)(origin + r * sy + c) : -1;
        }
    }
    /* Starts the copies of a plane (the array at its first value of plane p) into tile. */
    __device__ __forceinline__ void fetch(REAL *tile, const REAL *plane) const
    {
        const int t = threadIdx.y * BX + threadIdx.x;
#pragma unroll
        for (int n = 0; n < N; n++)
            if (off[n] >= 0) __pipeline_memcpy_async(tile + (t + n * T) / P * W + (t + n * T) % P * V, plane + off[n], 16);
    }
};

/* The tiles (BX x BY threads, Bz = 1) a tiled variant compiles: both sizes are template
 * parameters, so every piece's place and ring offset is a constant (tile_pieces). Among them
 * every winner of the tuner on the H100 (tile25d: 128x4, 128x2, 32x8; fused25d: 64x2, 32x4, 128x2). */
#define TILE_SHAPES(X, ...) \
    X(32, 4, __VA_ARGS__) X(32, 8, __VA_ARGS__) X(64, 2, __VA_ARGS__) X(64, 4, __VA_ARGS__) X(128, 2, __VA_ARGS__) X(128, 4, __VA_ARGS__)

/* The launch checks of a tiled variant: one of TILE_SHAPES, `bytes` of shared memory per block
 * within the device's, and (blocks marching `nodes` planes) a grid of at most 65535 blocks in y
 * and z. 0, or -1 saying why. */
static inline int tile_launch_fits(const struct kernel_args *a, size_t bytes, int nodes, char *why, size_t n)
{
    const int *b = a->block;
    int smem_max = 0;
    cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
#define TILE_IS(x, y, ...) || (b[0] == x && b[1] == y && b[2] == 1)
#define TILE_NAME(x, y, ...) " " #x "x" #y "x1"
    if (!(0 TILE_SHAPES(TILE_IS, )))
        snprintf(why, n, "block %dx%dx%d: a tiled variant takes the tiles" TILE_SHAPES(TILE_NAME, ), b[0], b[1], b[2]);
#undef TILE_IS
#undef TILE_NAME
    else if (bytes > (size_t)smem_max)
        snprintf(why, n, "block %dx%dx%d needs %zu bytes of shared memory, more than the device's %d", b[0], b[1], b[2],
                 bytes, smem_max);
    else return marching_grid_fits(a, nodes, why, n);
    return -1;
}

/* Launches kernel k<bx, by> (one of TILE_SHAPES; anything else an empty grid, which CUDA reports
 * as an invalid configuration) with `bytes` of dynamic shared memory, opting in above 48 KiB. */
#define TILE_LAUNCH(k, bx, by, grid, block, bytes, ...)                                                                \
    do {                                                                                                               \
        const int bx_ = (bx), by_ = (by);                                                                              \
        auto launch_ = [&](auto kern) {                                                                                \
            if ((bytes) > 48 * 1024) cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(bytes)); \
            kern<<<(grid), (block), (bytes)>>>(__VA_ARGS__);                                                           \
        };                                                                                                             \
        if (0) {                                                                                                       \
        }                                                                                                              \
        TILE_SHAPES(TILE_LAUNCH_ONE, k)                                                                                \
        else k<32, 4><<<dim3(0), (block), (bytes)>>>(__VA_ARGS__);                                                     \
    } while (0)
#define TILE_LAUNCH_ONE(x, y, k) else if (bx_ == x && by_ == y) launch_(k<x, y>);

#endif
