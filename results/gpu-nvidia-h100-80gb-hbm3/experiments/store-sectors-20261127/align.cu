// SCRATCH (issue 24, item 1): do tile25d-shaped stores cost extra DRAM writes when node x = 0 sits
// 8 B past a sector (the suite's layout), and not when it begins one? A copy kernel in tile25d's
// shape: blocks of BX x 2 threads own a BX-wide, 4-row tile (two rows a thread) and march NZ planes
// of a chunk, out[n] = 2 * in[n] (+ in[n + sy] for a read stencil's feel). FRONT: values before the
// array's first, so that node x = 0 is at FRONT + HALO values from a 256-byte boundary.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define HALO 2
__global__ void tiles(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, long sy, long sz,
                      int chunk)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y0 = (blockIdx.y * blockDim.y + threadIdx.y) * 2;
    const int kb = blockIdx.z * chunk, ke = min(nz, kb + chunk);
    if (x >= nx) return;
    for (int k = kb; k < ke; k++)
        for (int r = 0; r < 2; r++) {
            const int y = y0 + r;
            if (y >= ny) continue;
            const long n = (long)(k + HALO) * sz + (long)(y + HALO) * sy + x + HALO;
            out[n] = 2.0f * in[n] + in[n + sy];
        }
}
int main(int argc, char **argv)
{
    const int N = atoi(argv[1]), BX = atoi(argv[2]), FRONT = atoi(argv[3]), PITCH8 = atoi(argv[4]), chunk = 32;
    long sy = N + 2 * HALO;
    if (PITCH8) sy = (sy + 7) / 8 * 8;
    const long sz = sy * (N + 2 * HALO), cells = sz * (N + 2 * HALO) + 64;
    float *a, *b;
    cudaMalloc(&a, cells * 4), cudaMalloc(&b, cells * 4);
    cudaMemset(a, 0, cells * 4), cudaMemset(b, 0, cells * 4);
    dim3 block(BX, 2), grid((N + BX - 1) / BX, (N + 3) / 4, (N + chunk - 1) / chunk);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    float best = 1e9;
    for (int rep = 0; rep < 30; rep++) {
        cudaEventRecord(e0);
        tiles<<<grid, block>>>(a + FRONT, b + FRONT, N, N, N, sy, sz, chunk);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (rep && ms < best) best = ms;
    }
    const double bytes = 8.0 * N * N * (double)N; // one read and one write a cell (in[n + sy] from cache)
    printf("N %d BX %d front %d pitch %ld: %.1f us, %.0f GB/s at 8 B a cell\n", N, BX, FRONT, sy, best * 1e3,
           bytes / (best * 1e-3) / 1e9);
    return cudaGetLastError() != cudaSuccess;
}
