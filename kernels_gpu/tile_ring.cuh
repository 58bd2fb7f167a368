/* What the GPU variants that stream xy tiles through shared memory along z share (tile25d and
 * the fused step's fused25d): the pipeline depths, the rings' sizes, the row counts, the copy
 * plans that fill them with cp.async, and the defaults and checks of their launches. */
#ifndef KERNELS_GPU_TILE_RING_CUH
#define KERNELS_GPU_TILE_RING_CUH

#include "gpu_common.cuh"

#include <cuda_pipeline.h>
#include <stdint.h>
#include <type_traits>

/* Pipeline depths compiled: planes in flight ahead of the one being computed, tuned among these
 * (kernel_args.stages; 0: the header's stages=). Which wins depends on the GPU: at tuned launches
 * the H100 preferred 3 (2 lost 2 points at FV24's 128x4x1), the H200 2 (+9 to +17% for FV24,
 * S{2,2} and FV24-WB: less shared memory per block, room for two rows); 4 gained at most a
 * point on the H100 (3 for S44 at one launch) and on the H200 lost to 2 by 7-19 points for
 * FV24, S{2,2} and FV24-WB (docs/performance-notes.md), so it is not compiled. */
#define TILE_STAGES 2, 3

/* Threads per block at most, given a variant's max_threads: f64 blocks hold half as many, since
 * their copy plans and values take twice the registers (at 512 threads, 128 registers each, f64
 * S44 spilled). */
#define TILE_MAX_THREADS(REAL, MAX) (sizeof(REAL) == 4 ? (MAX) : (MAX) / 2)

static constexpr __host__ __device__ int pow2_at_least(int n) { return n <= 1 ? 1 : 2 * pow2_at_least((n + 1) / 2); }

/* Ring slots of a field whose points span planes z0 .. z1 about the node: a node at plane k reads
 * planes k+z0 .. k+z1; `stages` more are in flight, and one more slot lets a thread fetch step
 * k+1's plane while a slower thread of the block still reads step k's. Rounded up to a power of
 * two, so that a slot is one AND. */
static constexpr __host__ __device__ int tile_ring_slots(int z0, int z1, int stages)
{
    return pow2_at_least(z1 - z0 + 1 + stages + 1);
}

/* Rows of nodes per thread and the pipeline depth are compile-time counts (a row's operands live
 * in registers; the depth sizes the rings and is the cp.async wait's constant): a kernel is
 * compiled for the values VALUES... (its template's lists), tuned among them (kernel_args.rows,
 * .stages), and accepts() refuses the others. with_value calls f(std::integral_constant<int, V>())
 * for the V that equals v. */
template <int... VALUES, typename F>
static void with_value(int v, F f)
{
    ((v == VALUES ? f(std::integral_constant<int, VALUES>()) : void()), ...);
}

template <int... VALUES>
static constexpr bool compiled(int v)
{
    return ((v == VALUES) || ...);
}

/* The launch a kernel_args asks for, its zeros (unset) made the defaults: one plane per block,
 * and the kernel's own rows and depth (its header's rows= for its storage, and stages=). */
static inline struct kernel_args tile_launch_args(const struct kernel_args *a, int default_rows, int default_stages)
{
    struct kernel_args args = *a;
    args.nodes = a->nodes > 0 ? a->nodes : 1;
    args.rows = a->rows > 0 ? a->rows : default_rows;
    args.stages = a->stages > 0 ? a->stages : default_stages;
    return args;
}

/* The check of a compiled count of a tiled launch (what, its value; compiled as VALUES...): 0, or
 * -1 saying why. */
template <int... VALUES>
static int tile_value_fits(const char *what, int value, char *why, size_t n)
{
    if (compiled<VALUES...>(value)) return 0;
    int len = snprintf(why, n, "%s %d: this kernel is compiled for %s", what, value, what);
    ((len += snprintf(why + (len < (int)n ? len : n), len < (int)n ? n - len : 0, " %d", VALUES)), ...);
    return -1;
}

/* The pieces one thread copies of a set of tiles, each H rows of W values (PIECES pieces of
 * V values per row), from up to N arrays stacked one after another in shared memory: piece u is
 * the thread's u-th (thread t takes t, t + threads, ...), with its source (array base plus offset
 * within a plane) and its place in the stack, or dst -1 for none. A piece past the last row of
 * the array, or (value by value) past the end of a row, is not copied: only threads past the
 * grid's edge read those, and they store nothing. Every u is a constant in the unrolled loops,
 * so the plan stays in registers (packed by a running count, it went to local memory: a local
 * load before every copy). */
template <typename REAL, int MAXU>
struct copies {
    const REAL *src[MAXU];
    int dst[MAXU];
    __device__ void plan(const REAL *const *arrays, int narrays, const struct kernel_args &a, int i0, int j0, int Y0,
                         int H, int W, int V)
    {
        const int pieces = W / V, per_array = H * pieces, rows = min(H, a.ny + HALO - (j0 + Y0));
        const int columns = min(W, (int)a.sy - i0), threads = blockDim.x * blockDim.y;
#pragma unroll
        for (int u = 0; u < MAXU; u++) {
            const int t = threadIdx.y * blockDim.x + threadIdx.x + u * threads;
            const int q = t / per_array, r = (t - q * per_array) / pieces, c = (t - q * per_array - r * pieces) * V;
            const bool copied = t < narrays * per_array && r < rows && c < columns;
            src[u] = copied ? arrays[q] + (long)(j0 + Y0 + r + HALO) * a.sy + i0 + c : nullptr;
            dst[u] = copied ? q * per_array * V + r * W + c : -1;
        }
    }
    /* Starts the copies of plane p into the stack at tile. */
    __device__ __forceinline__ void fetch(REAL *tile, const struct kernel_args &a, int p, int bytes) const
    {
        const long plane = (long)(p + HALO) * a.sz;
#pragma unroll
        for (int u = 0; u < MAXU; u++)
            if (dst[u] >= 0) __pipeline_memcpy_async(tile + dst[u], src[u] + plane, bytes);
    }
};

/* The slow path, for rows that are not 16-byte aligned: the same tiles, value by value, the
 * pieces worked out again at every plane. */
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

/* The same pieces planned at compile time, for a block of BX x BY threads and one tile of H rows
 * of W values (16-byte pieces of V values): thread t copies pieces t, t + BX*BY, ...; for each,
 * its offset within a plane of the array (-1: past the array's edge, not copied) stays in a
 * register and its place in the tile is a constant division away, so a plane costs a thread one
 * add and one cp.async per piece. */
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

/* The launch checks of a tiled variant: blocks of Bx = 32, 64 or 128 and Bz = 1, `bytes` of
 * shared memory per block within the device's, and (blocks marching `nodes` planes) a grid of at
 * most 65535 blocks in y and z. 0, or -1 saying why. */
static inline int tile_launch_fits(const struct kernel_args *a, size_t bytes, int nodes, char *why, size_t n)
{
    const int *b = a->block;
    int smem_max = 0;
    cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    if ((b[0] != 32 && b[0] != 64 && b[0] != 128) || b[2] != 1)
        snprintf(why, n, "block %dx%dx%d: a tiled variant takes Bx of 32, 64 or 128 and Bz = 1", b[0], b[1], b[2]);
    else if (bytes > (size_t)smem_max)
        snprintf(why, n, "block %dx%dx%d needs %zu bytes of shared memory, more than the device's %d", b[0], b[1], b[2],
                 bytes, smem_max);
    else return marching_grid_fits(a, nodes, why, n);
    return -1;
}

/* Launches kernel with `bytes` of dynamic shared memory, opting in above the default 48 KiB. */
template <typename K, typename... Args>
static void tile_launch(K kernel, dim3 grid, dim3 block, size_t bytes, const Args &...args)
{
    if (bytes > 48 * 1024) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    kernel<<<grid, block, bytes>>>(args...);
}

/* Launches k<bx, R, S> (bx = 32, 64 or 128; anything else an empty grid, which CUDA reports as an
 * invalid configuration; R and S constants) through tile_launch. */
#define TILE_LAUNCH(k, R, S, bx, grid, block, bytes, ...)                                                              \
    do {                                                                                                               \
        if ((bx) == 32) tile_launch(k<32, R, S>, grid, block, bytes, __VA_ARGS__);                                     \
        else if ((bx) == 64) tile_launch(k<64, R, S>, grid, block, bytes, __VA_ARGS__);                                \
        else if ((bx) == 128) tile_launch(k<128, R, S>, grid, block, bytes, __VA_ARGS__);                              \
        else k<32, R, S><<<dim3(0), (block), (bytes)>>>(__VA_ARGS__);                                                  \
    } while (0)

#endif
