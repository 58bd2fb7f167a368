/* What the GPU variants that stream xy tiles through shared memory along z share (tile25d and
 * the fused step's fused25d): the copy plans that fill their rings with cp.async. The rings'
 * sizes and the launch rules are gpu_rules.h's. */
#ifndef KERNELS_GPU_TILE_RING_CUH
#define KERNELS_GPU_TILE_RING_CUH

#include "gpu_common.cuh"

#include <cuda_pipeline.h>

/* A ring's address in the shared-memory window, for cp.async: __pipeline_memcpy_async takes a
 * generic pointer and converts it at every copy, so fused25d converts its rings' once (its
 * indexed kernels' conversions in SASS: 45 → 11). */
static __device__ __forceinline__ unsigned shared_address(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* cp.async of BYTES (4, 8 or 16) from global src to the shared-window address dst: 16 bytes
 * bypass L1 (.cg), as __pipeline_memcpy_async's do. */
template <int BYTES>
static __device__ __forceinline__ void copy_async(unsigned dst, const void *src)
{
    if constexpr (BYTES == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(BYTES) : "memory");
}

/* Tensor copies (sm_90 on; gpu_rules.h: fused25d_tma): an mbarrier at shared-window address bar
 * counts one arrival and the bytes its step's copies bring; every thread waits on its phase. */
static __device__ __forceinline__ void barrier_init(unsigned bar)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
#endif
}
/* After the inits, before any copy or wait: the copies (the async proxy) see them. */
static __device__ __forceinline__ void barrier_init_fence()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n\tfence.proxy.async.shared::cta;" ::: "memory");
#endif
}
static __device__ __forceinline__ void barrier_expect(unsigned bar, unsigned bytes)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
#endif
}
static __device__ __forceinline__ void barrier_wait(unsigned bar, unsigned parity)
{
#if __CUDA_ARCH__ >= 900
    unsigned done;
    do asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                    : "=r"(done)
                    : "r"(bar), "r"(parity)
                    : "memory");
    while (!done);
#endif
}
/* The box of `map` at element (x, y, z) into shared-window address dst (128-byte aligned); values
 * past the array's edges arrive as zeros. */
static __device__ __forceinline__ void copy_tile(unsigned dst, const struct tile_map *map, int x, int y, int z, unsigned bar)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(z), "r"(bar)
                 : "memory");
#endif
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
    /* Starts the copies of plane p into the stack at tile (its shared-window address). */
    template <int BYTES>
    __device__ __forceinline__ void fetch(unsigned tile, const struct kernel_args &a, int p) const
    {
        const long plane = (long)(p + HALO) * a.sz;
#pragma unroll
        for (int u = 0; u < MAXU; u++)
            if (dst[u] >= 0) copy_async<BYTES>(tile + dst[u] * (unsigned)sizeof(REAL), src[u] + plane);
    }
    template <int BYTES>
    __device__ __forceinline__ void fetch(REAL *tile, const struct kernel_args &a, int p) const
    {
        fetch<BYTES>(shared_address(tile), a, p);
    }
};

/* The slow path, for rows that are not 16-byte aligned: the same tiles, value by value, the
 * pieces worked out again at every plane. Values narrower than 4 bytes (material bytes) by plain
 * loads, since cp.async copies 4 at least: the kernels read a slot after a later __syncthreads. */
template <typename REAL>
static __device__ void fetch_values(REAL *tile, const REAL *const *arrays, int narrays, const struct kernel_args &a,
                                    int i0, int j0, int Y0, int H, int W, int p)
{
    const int rows = min(H, a.ny + HALO - (j0 + Y0)), columns = min(W, (int)a.sy - i0);
    const long base = (long)(p + HALO) * a.sz + (long)(j0 + Y0 + HALO) * a.sy + i0;
    for (int t = threadIdx.y * blockDim.x + threadIdx.x; t < narrays * H * W; t += blockDim.x * blockDim.y) {
        const int q = t / (H * W), r = (t - q * H * W) / W, c = t - q * H * W - r * W;
        if (r >= rows || c >= columns) continue;
        const REAL *const from = arrays[q] + base + (long)r * a.sy + c;
        if constexpr (sizeof(REAL) >= 4) __pipeline_memcpy_async(tile + t, from, sizeof(REAL));
        else tile[t] = __ldg(from);
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
    /* Starts the copies of a plane (the array at its first value of plane p) into tile (its
     * shared-window address). */
    __device__ __forceinline__ void fetch(unsigned tile, const REAL *plane) const
    {
        const int t = threadIdx.y * BX + threadIdx.x;
#pragma unroll
        for (int n = 0; n < N; n++)
            if (off[n] >= 0)
                copy_async<16>(tile + ((t + n * T) / P * W + (t + n * T) % P * V) * (unsigned)sizeof(REAL), plane + off[n]);
    }
};

#endif
