/* Scratch (issue 25): one generated CPML layer kernel (KSRC, named KNAME, from codegen's
 * kernel_source) timed alone on a 512^3 f32 grid, N = 10, array coefficients with G groups, in
 * the launch shape its template expects (ROWS 0: 1-D blocks of 256; 1: rows, x fastest). Prints
 * the median of 30 launches (argv[2]: each array i starts i x that many floats into its allocation; argv[3]: a row launch's
 * block width, its rows 256 / that) and its GB/s at the layer's compulsory bytes (spec.c, layer_counts). */
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include KSRC
#define STR0(x) #x
#define STR(x) STR0(x)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
int main(int argc, char **argv)
{
    const int n = 512, N = 10, reps = 30, G = atoi(argv[1]);
    const long stagger = argc > 2 ? atol(argv[2]) : 0; /* floats: array i starts i x stagger past its allocation */
    int made = 0;
    struct layer_args a;
    memset(&a, 0, sizeof a);
    a.nx = a.ny = a.nz = n, a.sy = n + 2 * HALO, a.sz = a.sy * (n + 2 * HALO), a.thickness = N, a.boundary = BOUNDARY_PEC;
    const long cells = a.sz * (n + 2 * HALO);
    int dim[3];
    for (int ax = 0; ax < 3; ax++) dim[ax] = ax == AXIS_OF ? 2 * N : n;
    const long slab = (long)dim[0] * dim[1] * dim[2];
    auto mk = [&](long m) { float *p; const long off = made++ * stagger; CK(cudaMalloc(&p, (m + off) * 4)); CK(cudaMemset(p, 0, (m + off) * 4)); return p + off; };
    for (int q = 0; q < LAYER_TERMS; q++) {
        a.t[q].out = mk(cells), a.t[q].src = mk(cells), a.t[q].psi = mk(slab);
        for (int g = 0; g < G; g++) a.t[q].db[g] = mk(cells);
        a.t[q].kinv1 = mk(2 * N), a.t[q].b = mk(2 * N), a.t[q].c = mk(2 * N);
    }
    dim3 grid, block;
    if (ROWS) {
        const unsigned want = argc > 3 ? atoi(argv[3]) : 256, bx = dim[0] < (int)want ? dim[0] : want, by = 256 / bx;
        const long rb = ((long)dim[1] * dim[2] + by - 1) / by, gy = rb < 65535 ? rb : 65535;
        block = dim3(bx, by), grid = dim3((dim[0] + bx - 1) / bx, gy, (rb + gy - 1) / gy);
    } else block = dim3(256), grid = dim3((slab + 255) / 256);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> t(reps);
    KNAME<<<grid, block>>>(a);
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(e0)); KNAME<<<grid, block>>>(a); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[r], e0, e1));
    }
    std::sort(t.begin(), t.end());
    const double bytes = (double)slab * (LAYER_TERMS * (3 + G) + LAYER_TERMS * 2) * 4, ms = t[reps / 2];
    printf("%-34s stagger %5ld rows %d block %3ux%-3u  %7.1f us  %6.0f GB/s\n", STR(KNAME), stagger, ROWS, block.x, block.y, ms * 1e3, bytes / ms / 1e6);
    return 0;
}
