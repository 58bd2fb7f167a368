/* The GPU halo refresh of the step engine (engine/halo_rule.h): one launch per field, one
 * thread per refreshed cell, each taking its value straight from its interior source. The rule
 * is separable: refreshing x, then y, then z over the others' padded extents (as the CPU does)
 * leaves in each cell sign_x sign_y sign_z times the interior cell (src_x, src_y, src_z), so no
 * cell waits for another and every load is independent. Launches only (the engine waits once
 * per step). */
#include <cuda_runtime.h>

#include <stdio.h>

extern "C" {
#include "backend.h"
}

/* Along one axis of n cells: padded position p takes sign * cell *src (0: zero); the interior
 * is its own source, but for the PEC wall node of an integer-node field (halo_count). */
static __device__ int axis_source(int boundary, int half, int n, int p, int *src)
{
    *src = p;
    if (p >= 0 && p < n && !halo_wall(boundary, half, p)) return 1;
    return halo_source(boundary, half, n, p, src);
}

/* The refreshed cells in three disjoint boxes, threads along x first where the box allows:
 *   Z: the c[2] refreshed planes, whole (padded) planes;
 *   Y: the c[1] refreshed rows of every other plane, whole rows;
 *   X: the c[0] refreshed cells of every other row. */
struct halo_geom {
    int n[3], half[3], boundary;
    int c[3], lo[3], in[3], pad[3]; /* refreshed count; first and number of other positions; padded size */
    long sy, sz;
};

template <typename T, typename I>
static __global__ void __launch_bounds__(256) refresh_cells(T *f, const struct halo_geom g, I nz_box, I ny_box, I total)
{
    const I t = (I)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    int p[3];
    if (t < nz_box) { /* (i, j, plane) */
        I r = t / g.pad[0];
        p[0] = (int)(t - r * g.pad[0]) - HALO, p[1] = (int)(r % g.pad[1]) - HALO;
        p[2] = halo_position(g.n[2], (int)(r / g.pad[1]));
    } else if (t < nz_box + ny_box) { /* (i, row, k) */
        const I u = t - nz_box, r = u / g.pad[0];
        p[0] = (int)(u - r * g.pad[0]) - HALO, p[1] = halo_position(g.n[1], (int)(r % g.c[1]));
        p[2] = g.lo[2] + (int)(r / g.c[1]);
    } else { /* (cell, j, k) */
        const I u = t - nz_box - ny_box, r = u / g.c[0];
        p[0] = halo_position(g.n[0], (int)(u - r * g.c[0])), p[1] = g.lo[1] + (int)(r % g.in[1]);
        p[2] = g.lo[2] + (int)(r / g.in[1]);
    }
    int src[3], sign = 1;
    for (int ax = 0; ax < 3; ax++) sign *= axis_source(g.boundary, g.half[ax], g.n[ax], p[ax], &src[ax]);
    const long at = (p[2] + HALO) * g.sz + (p[1] + HALO) * g.sy + p[0] + HALO;
    const long from = (src[2] + HALO) * g.sz + (src[1] + HALO) * g.sy + src[0] + HALO;
    f[at] = sign ? (T)sign * f[from] : (T)0;
}

template <typename T>
static void refresh(T *f, const struct halo_geom *g, long nz_box, long ny_box, long total)
{
    const long blocks = (total + 255) / 256;
    if (total <= 0xffffffffL) /* 32-bit index arithmetic, the usual case */
        refresh_cells<T, unsigned><<<(unsigned)blocks, 256>>>(f, *g, (unsigned)nz_box, (unsigned)ny_box, (unsigned)total);
    else
        refresh_cells<T, unsigned long><<<(unsigned)blocks, 256>>>(f, *g, nz_box, ny_box, total);
}

int gpu_refresh_halo(void *field, const struct halo_args *h, char *why, size_t n)
{
    if (h->first_axis != 0) { /* the GPU's kernels write all of their halo or none of it */
        snprintf(why, n, "GPU halo refresh: from axis %d: only a whole refresh (axis 0) is supported", h->first_axis);
        return -1;
    }
    struct halo_geom g;
    g.boundary = h->boundary, g.sy = h->sy, g.sz = h->sz;
    for (int ax = 0; ax < 3; ax++) {
        g.n[ax] = h->n[ax], g.half[ax] = h->half[ax];
        g.c[ax] = halo_count(h->boundary, h->half[ax]);
        g.lo[ax] = g.c[ax] - 2 * HALO; /* 1 where the wall node 0 is refreshed too */
        g.in[ax] = h->n[ax] - g.lo[ax];
        g.pad[ax] = h->n[ax] + 2 * HALO;
    }
    const long nz_box = (long)g.c[2] * g.pad[1] * g.pad[0], ny_box = (long)g.c[1] * g.in[2] * g.pad[0];
    const long total = nz_box + ny_box + (long)g.c[0] * g.in[1] * g.in[2];
    if (h->precision == F32) refresh((float *)field, &g, nz_box, ny_box, total);
    else refresh((double *)field, &g, nz_box, ny_box, total);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return 0;
    snprintf(why, n, "halo refresh launch: %s", cudaGetErrorString(e));
    return -1;
}

int gpu_sync(char *why, size_t n)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return 0;
    snprintf(why, n, "GPU run: %s", cudaGetErrorString(e));
    return -1;
}
