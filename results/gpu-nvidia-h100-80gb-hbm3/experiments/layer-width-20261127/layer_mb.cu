/* Scratch microbenchmark (issue 25): what a CPML y or z pass's access pattern can reach on this GPU,
 * by the width of each thread's accesses and the launch's shape. Yee-like terms (G coefficient
 * arrays per term), two terms, psi in the slab's x-fastest order, grid arrays padded by XOFF
 * cells in x (the suite's HALO is 2). Plain stores, no images. Build: nvcc -O3 -arch=sm_90 */
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

struct args {
    int nx, ny, nz, N, axis;
    long sy, sz;
    int xoff;
    float *O[2], *Y[2];
    const float *S[2], *D[2][4], *B, *C, *K;
};

__device__ __forceinline__ int lcell(int s, int N, int n) { return s < N ? s : n - 2 * N + s; }

template <int G> __device__ __forceinline__ float term(const args &a, int q, long n, long off)
{
    float d = 0;
#pragma unroll
    for (int g = 0; g < G; g++) d += a.D[q][g][n];
    return d * (a.S[q][n + off] - a.S[q][n]);
}

/* current suite style: 1-D launch, slab cell by 32-bit division */
template <int G> __global__ void __launch_bounds__(256) k_div(const args a)
{
    const int dim0 = a.nx, dim1 = a.axis == 1 ? 2 * a.N : a.ny, dim2 = a.axis == 2 ? 2 * a.N : a.nz;
    const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= (unsigned)dim0 * dim1 * dim2) return;
    const unsigned row = p / dim0;
    const int x = p - row * dim0, y = row % dim1, z = row / dim1;
    const int s = a.axis == 1 ? y : z;
    const int gy = a.axis == 1 ? lcell(y, a.N, a.ny) : y, gz = a.axis == 2 ? lcell(z, a.N, a.nz) : z;
    const long n = (gz + 2) * a.sz + (gy + 2) * a.sy + x + a.xoff, off = a.axis == 1 ? a.sy : a.sz;
#pragma unroll
    for (int q = 0; q < 2; q++) {
        const float t = term<G>(a, q, n, off);
        const float y_ = a.B[s] * a.Y[q][p] + a.C[s] * t;
        a.Y[q][p] = y_;
        a.O[q][n] = a.O[q][n] + a.K[s] * t + y_;
    }
}

/* 2-D launch: blockIdx.y a slab row, V cells a thread along x (V = 1, 2, 4), vector accesses where
 * aligned: psi always (nx % V == 0), the grid arrays as float4 only if xoff % 4 == 0, else float2 */
template <typename T> __device__ __forceinline__ T ld(const float *p) { return *(const T *)p; }
template <int G, int V> __global__ void __launch_bounds__(256) k_row(const args a)
{
    const int dim1 = a.axis == 1 ? 2 * a.N : a.ny;
    const int x = (blockIdx.x * blockDim.x + threadIdx.x) * V;
    if (x >= a.nx) return;
    const int row = blockIdx.y, y = row % dim1, z = row / dim1;
    const int s = a.axis == 1 ? y : z;
    const int gy = a.axis == 1 ? lcell(y, a.N, a.ny) : y, gz = a.axis == 2 ? lcell(z, a.N, a.nz) : z;
    const long n = (gz + 2) * a.sz + (gy + 2) * a.sy + x + a.xoff, off = a.axis == 1 ? a.sy : a.sz;
    const long p = (long)row * a.nx + x;
    const float b = a.B[s], c = a.C[s], k = a.K[s];
#pragma unroll
    for (int q = 0; q < 2; q++) {
        float d[V] = {0}, s0[V], s1[V], o[V], y[V];
#define LDV(dst, ptr)                                                                             \
        if (V == 1) dst[0] = (ptr)[0];                                                            \
        else if (V == 2 || a.xoff % 4) {                                                          \
            _Pragma("unroll") for (int v = 0; v < V; v += 2) {                                    \
                float2 w = ld<float2>((ptr) + v); dst[v] = w.x, dst[v + 1] = w.y; }               \
        } else { float4 w = ld<float4>(ptr); dst[0] = w.x, dst[1] = w.y, dst[2] = w.z, dst[3] = w.w; }
#pragma unroll
        for (int g = 0; g < G; g++) {
            float e[V];
            LDV(e, a.D[q][g] + n);
#pragma unroll
            for (int v = 0; v < V; v++) d[v] += e[v];
        }
        LDV(s0, a.S[q] + n);
        LDV(s1, a.S[q] + n + off);
        LDV(o, a.O[q] + n);
        if (V == 4) { float4 w = ld<float4>(a.Y[q] + p); y[0] = w.x, y[1] = w.y, y[2] = w.z, y[3] = w.w; }
        else if (V == 2) { float2 w = ld<float2>(a.Y[q] + p); y[0] = w.x, y[1] = w.y; }
        else y[0] = a.Y[q][p];
#pragma unroll
        for (int v = 0; v < V; v++) {
            const float t = d[v] * (s1[v] - s0[v]);
            y[v] = b * y[v] + c * t;
            o[v] = o[v] + k * t + y[v];
        }
        if (V == 4) *(float4 *)(a.Y[q] + p) = make_float4(y[0], y[1], y[2], y[3]);
        else if (V == 2) *(float2 *)(a.Y[q] + p) = make_float2(y[0], y[1]);
        else a.Y[q][p] = y[0];
        if (V == 1) a.O[q][n] = o[0];
        else if (V == 2 || a.xoff % 4) {
#pragma unroll
            for (int v = 0; v < V; v += 2) *(float2 *)(a.O[q] + n + v) = make_float2(o[v], o[v + 1]);
        } else *(float4 *)(a.O[q] + n) = make_float4(o[0], o[1], o[2], o[3]);
    }
}

/* the probe's pattern: contiguous streams of the same count, float4 */
__global__ void k_triad(float4 *a, const float4 *b, const float4 *c, long n4)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
        float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + 3 * y.x, x.y + 3 * y.y, x.z + 3 * y.z, x.w + 3 * y.w);
    }
}

template <class F> static double time_ms(F launch, int reps)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    launch(); CK(cudaDeviceSynchronize());
    std::vector<float> t(reps);
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[r], e0, e1));
    }
    std::sort(t.begin(), t.end());
    return t[reps / 2];
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 512, N = 10, reps = 30;
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0));
    printf("# %s, grid %d^3, N %d, median of %d launches\n", pr.name, n, N, reps);
    /* probe */
    const long pn = 1L << 28;
    float *pa, *pb, *pc;
    CK(cudaMalloc(&pa, pn * 4)); CK(cudaMalloc(&pb, pn * 4)); CK(cudaMalloc(&pc, pn * 4));
    CK(cudaMemset(pb, 0, pn * 4)); CK(cudaMemset(pc, 0, pn * 4));
    const double tt = time_ms([&] { k_triad<<<pr.multiProcessorCount * 8, 256>>>((float4 *)pa, (const float4 *)pb, (const float4 *)pc, pn / 4); }, reps);
    const double probe = 12.0 * pn / tt / 1e6;
    printf("probe triad %.0f GB/s\n", probe);
    CK(cudaFree(pa)); CK(cudaFree(pb)); CK(cudaFree(pc));
    for (int xoff = 2; xoff <= 4; xoff += 2) {
        args a = {};
        a.nx = a.ny = a.nz = n, a.N = N, a.xoff = xoff;
        a.sy = n + 2 * xoff, a.sz = a.sy * (n + 4);
        const long cells = a.sz * (n + 4) + 64;
        const long slab = 2L * N * n * n;
        std::vector<float *> all;
        auto mk = [&](long m) { float *p; CK(cudaMalloc(&p, m * 4)); CK(cudaMemset(p, 0, m * 4)); all.push_back(p); return p; };
        for (int q = 0; q < 2; q++) {
            a.O[q] = mk(cells), a.S[q] = mk(cells), a.Y[q] = mk(slab);
            for (int g = 0; g < 4; g++) a.D[q][g] = mk(cells);
        }
        a.B = mk(2 * N), a.C = mk(2 * N), a.K = mk(2 * N);
        for (int axis = 1; axis <= 2; axis++) {
            a.axis = axis;
            const int rows = (axis == 1 ? 2 * N * n : 2 * N * n);
            auto report = [&](const char *what, int G, double ms) {
                const double bytes = (double)slab * (2 * (3 + G) + 4) * 4;
                printf("xoff %d axis %c G %d %-22s %8.1f us %7.0f GB/s %5.1f%% of probe\n", xoff, "xyz"[axis], G, what,
                       ms * 1e3, bytes / ms / 1e6, 100 * bytes / ms / 1e6 / probe);
            };
#define RUN(G)                                                                                                    \
            if (xoff == 2) report("1-D, 1 cell, division", G, time_ms([&] { k_div<G><<<(slab + 255) / 256, 256>>>(a); }, reps)); \
            if (xoff == 2) report("rows, 1 cell", G, time_ms([&] { k_row<G, 1><<<dim3((n + 255) / 256, rows), 256>>>(a); }, reps)); \
            report("rows, 2 cells (8 B)", G, time_ms([&] { k_row<G, 2><<<dim3((n / 2 + 255) / 256, rows), 256>>>(a); }, reps)); \
            report(xoff == 4 ? "rows, 4 cells (16 B)" : "rows, 4 cells (16/8 B)", G, time_ms([&] { k_row<G, 4><<<dim3((n / 4 + 127) / 128, rows), 128>>>(a); }, reps));
            RUN(1)
            RUN(4)
        }
        for (float *p : all) CK(cudaFree(p));
    }
    CK(cudaGetLastError());
    return 0;
}
