/* The GPU halo refresh of the step engine (harness/halo_rule.h): one launch per axis, in
 * order, one thread per line along the axis; launches only (the engine waits once per step). */
#include <cuda_runtime.h>

#include <stdio.h>

extern "C" {
#include "backend.h"
}

template <typename T>
static __global__ void refresh_axis(T *f, int n, long step, long sb, long sc, int nb, int nc, int boundary, int half)
{
    const long lines = (long)nb * nc;
    const int count = halo_count(boundary, half);
    for (long l = (long)blockIdx.x * blockDim.x + threadIdx.x; l < lines; l += (long)gridDim.x * blockDim.x) {
        T *line = f + (l % nb) * sb + (l / nb) * sc + HALO * step; /* interior index 0 */
        for (int t = 0; t < count; t++) {
            int p = halo_position(n, t), src;
            int sign = halo_source(boundary, half, n, p, &src);
            line[p * step] = sign ? (T)sign * line[src * step] : (T)0;
        }
    }
}

template <typename T>
static int refresh(T *f, const struct halo_args *h, char *why, size_t n)
{
    const long st[3] = {1, h->sy, h->sz};
    for (int ax = h->first_axis; ax < 3; ax++) {
        const int b = (ax + 1) % 3, c = (ax + 2) % 3, nb = h->n[b] + 2 * HALO, nc = h->n[c] + 2 * HALO;
        const long lines = (long)nb * nc;
        const unsigned blocks = (unsigned)((lines + 255) / 256);
        refresh_axis<T><<<blocks, 256>>>(f, h->n[ax], st[ax], st[b], st[c], nb, nc, h->boundary, h->half[ax]);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) {
            snprintf(why, n, "halo refresh launch: %s", cudaGetErrorString(e));
            return -1;
        }
    }
    return 0;
}

int gpu_refresh_halo(void *field, const struct halo_args *h, char *why, size_t n)
{
    return h->precision == F32 ? refresh((float *)field, h, why, n) : refresh((double *)field, h, why, n);
}

int gpu_sync(char *why, size_t n)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return 0;
    snprintf(why, n, "GPU run: %s", cudaGetErrorString(e));
    return -1;
}
