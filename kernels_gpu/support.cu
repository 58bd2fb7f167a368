/* The GPU backend's own kernels, compiled at run time like the generated ones (gpu_backend.c,
 * launch.c): reproducible random fills, the bandwidth probe's copy, and the step engine's halo
 * refresh (engine/halo_rule.h). Entry points are extern "C" and named by type. */
#include "gpu_common.cuh"
extern "C" {
#include "halo_rule.h"
}

/* A counter-based hash (splitmix64's finaliser), so a value depends only on (seed, index):
 * reproducible whatever the launch shape. Uniform in [0, 1) with 53 bits. */
static __device__ double hash_unit(unsigned seed, size_t i)
{
    unsigned long long x = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 27, x *= 0x94D049BB133111EBull, x ^= x >> 31;
    return (double)(x >> 11) * 0x1.0p-53;
}

/* n values in [lo, hi), each thread striding over the array (a grid-stride loop). */
template <typename T>
static __device__ void fill(T *p, size_t n, unsigned seed, double lo, double hi)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (T)(lo + (hi - lo) * hash_unit(seed, i));
}
extern "C" __global__ void fill_f32(float *p, size_t n, unsigned seed, double lo, double hi) { fill(p, n, seed, lo, hi); }
extern "C" __global__ void fill_f64(double *p, size_t n, unsigned seed, double lo, double hi) { fill(p, n, seed, lo, hi); }

/* The bandwidth probe's copy: 16-byte loads and stores. */
extern "C" __global__ void copy16(float4 *__restrict__ dst, const float4 *__restrict__ src, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

/* ---- the halo refresh ---------------------------------------------------------------
 * One thread per refreshed cell, each taking its value straight from its interior source. The
 * rule is separable: refreshing x, then y, then z over the others' padded extents (as the CPU
 * does) leaves in each cell sign_x sign_y sign_z times the interior cell (src_x, src_y, src_z),
 * so no cell waits for another and every load is independent. */

/* Along one axis of n cells: padded position p takes sign * cell *src (0: zero); the interior
 * and an open face's ghosts are their own source, but for the PEC wall node of an integer-node
 * field (halo_count). */
static __device__ int axis_source(int boundary, int half, int open, int n, int p, int *src)
{
    *src = p;
    if ((p >= 0 || open & OPEN_LOW) && (p < n || open & OPEN_HIGH) && !halo_wall(boundary, half, open, p)) return 1;
    return halo_source(boundary, half, n, p, src);
}

template <typename T, typename I>
static __device__ void refresh(T *f, const struct halo_geom &g, I nz_box, I ny_box, I total)
{
    const I t = (I)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    int p[3];
    if (t < nz_box) { /* (i, j, plane) */
        I r = t / g.pad[0];
        p[0] = (int)(t - r * g.pad[0]) - HALO, p[1] = (int)(r % g.pad[1]) - HALO;
        p[2] = halo_position(g.n[2], g.open[2], (int)(r / g.pad[1]));
    } else if (t < nz_box + ny_box) { /* (i, row, k) */
        const I u = t - nz_box, r = u / g.pad[0];
        p[0] = (int)(u - r * g.pad[0]) - HALO, p[1] = halo_position(g.n[1], g.open[1], (int)(r % g.c[1]));
        p[2] = g.lo[2] + (int)(r / g.c[1]);
    } else { /* (cell, j, k) */
        const I u = t - nz_box - ny_box, r = u / g.c[0];
        p[0] = halo_position(g.n[0], g.open[0], (int)(u - r * g.c[0])), p[1] = g.lo[1] + (int)(r % g.in[1]);
        p[2] = g.lo[2] + (int)(r / g.in[1]);
    }
    int src[3], sign = 1;
    for (int ax = 0; ax < 3; ax++) sign *= axis_source(g.boundary, g.half[ax], g.open[ax], g.n[ax], p[ax], &src[ax]);
    const long at = (p[2] + HALO) * g.sz + (p[1] + HALO) * g.sy + p[0] + HALO;
    const long from = (src[2] + HALO) * g.sz + (src[1] + HALO) * g.sy + src[0] + HALO;
    f[at] = sign ? (T)sign * f[from] : (T)0;
}

/* 32-bit index arithmetic, the usual case, and 64-bit for more than 2^32 - 1 cells. */
#define REFRESH(name, T, I)                                                                                            \
    extern "C" __global__ void __launch_bounds__(256) name(T *f, const struct halo_geom g, I nz_box, I ny_box, I total) \
    {                                                                                                                  \
        refresh<T, I>(f, g, nz_box, ny_box, total);                                                                    \
    }
REFRESH(refresh_f32_u32, float, unsigned)
REFRESH(refresh_f32_u64, float, unsigned long)
REFRESH(refresh_f64_u32, double, unsigned)
REFRESH(refresh_f64_u64, double, unsigned long)
