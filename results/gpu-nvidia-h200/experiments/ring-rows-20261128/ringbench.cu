// SCRATCH (issue 24, item 1): what a ring's rows cost at L2, by where they start, how wide they are
// and the row pitch. Each block copies, plane after plane, HT rows of COLS floats from column
// tile * TILEX + OFF of a PLANES x ROWS x PITCH array into shared memory with 16-byte cp.async
// pieces, as tile25d's rings do (two slots, one commit group a plane), and computes nothing.
// One launch per configuration; ncu reads its L2 sectors and requests.
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstdlib>

__global__ void ring(const float *__restrict__ a, int pitch, int ny, int nz, int nx, int cols, int tilex, int off,
                     int ht, int zn)
{
    extern __shared__ __align__(16) float s[];
    const int i0 = blockIdx.x * tilex + off, j0 = blockIdx.y * ht, k0 = blockIdx.z * zn;
    const int pieces = cols / 4, n = ht * pieces;
    for (int k = k0; k < min(nz, k0 + zn); k++) {
        const float *plane = a + (size_t)k * pitch * ny;
        for (int t = threadIdx.x; t < n; t += blockDim.x) {
            const int r = t / pieces, c = t % pieces * 4, j = j0 + r;
            if (j >= ny || i0 + c + 4 > nx + 8) continue; // the row's nodes and a halo's worth
            __pipeline_memcpy_async(s + (k & 1) * n * 4 + r * cols + c, plane + (size_t)j * pitch + i0 + c, 16);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
    }
    __pipeline_wait_prior(0);
}

int main()
{
    // pitch, cols, tilex, off (floats; off a multiple of 4: 16-byte pieces), nx
    static const int cfg[][5] = {
        {304, 68, 64, 0, 300},  {304, 68, 64, 4, 300},  {304, 68, 64, 8, 300},  {304, 68, 64, 12, 300},
        {304, 68, 64, 16, 300}, {304, 68, 64, 24, 300}, {304, 64, 64, 0, 300},  {304, 64, 64, 16, 300},
        {304, 72, 64, 0, 300},  {304, 72, 64, 12, 300}, {304, 132, 128, 0, 300}, {304, 164, 160, 0, 300},
        {516, 132, 128, 0, 512}, {520, 132, 128, 0, 512}, {528, 132, 128, 0, 512}, {544, 132, 128, 0, 512},
        {516, 68, 64, 0, 512},  {528, 68, 64, 0, 512},  {528, 64, 64, 16, 512}, {544, 68, 64, 0, 512},
    };
    const int n = sizeof cfg / sizeof cfg[0], ny = 300, nz = 300, ht = 19, zn = 32;
    float *a;
    cudaMalloc(&a, (size_t)544 * ny * nz * 4 + 4096);
    cudaMemset(a, 0, (size_t)544 * ny * nz * 4 + 4096);
    for (int i = 0; i < n; i++) {
        const int pitch = cfg[i][0], cols = cfg[i][1], tilex = cfg[i][2], off = cfg[i][3], nx = cfg[i][4];
        dim3 grid((nx + tilex - 1) / tilex, (ny + ht - 1) / ht, (nz + zn - 1) / zn);
        const size_t smem = 2 * (size_t)ht * cols * 4;
        for (int rep = 0; rep < 2; rep++) ring<<<grid, 512, smem>>>(a, pitch, ny, nz, nx, cols, tilex, off, ht, zn);
        cudaDeviceSynchronize();
        printf("cfg %d pitch %d cols %d tilex %d off %d nx %d: %s\n", i, pitch, cols, tilex, off, nx,
               cudaGetErrorString(cudaGetLastError()));
    }
    return 0;
}
