// When does a small kernel on a second stream start beside a large memory-bound kernel that fills
// every SM for many waves? The overlapped half-step's exchange is such a kernel (NCCL's), the
// interior's update the large one. Each launch records %globaltimer at its first block's start;
// the small one is launched right after the large one (the interior queued first, 71c8911), on a
// stream of default or of the greatest priority. Prints the small kernel's start as a fraction of
// the large one's run.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned long long t_big0, t_big1, t_small;
static __device__ unsigned long long now() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

__global__ void big(const float4 *in, float4 *out, size_t n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) t_big0 = now();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += n) out[i] = in[i];
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&t_big1, now());
}
__global__ void small(const float4 *in, float4 *out, size_t n)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) t_small = now();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) out[i] = in[i];
}

int main()
{
    const size_t n = (size_t)1 << 26; // 1 GiB of float4 each way: one element a thread, many waves
    float4 *a, *b, *c, *d;
    cudaMalloc(&a, n * 16), cudaMalloc(&b, n * 16), cudaMalloc(&c, 1 << 24), cudaMalloc(&d, 1 << 24);
    int least, greatest;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    for (int prio = 0; prio < 2; prio++)
        for (int rep = 0; rep < 4; rep++) {
            cudaStream_t s1, s2;
            cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
            cudaStreamCreateWithPriority(&s2, cudaStreamNonBlocking, prio ? greatest : least);
            unsigned long long zero = 0;
            cudaMemcpyToSymbol(t_big1, &zero, 8);
            big<<<(unsigned)(n / 256), 256, 0, s1>>>(a, b, n);
            small<<<16, 512, 0, s2>>>(c, d, (1 << 24) / 16); // 16 MB, about an exchange's
            cudaDeviceSynchronize();
            unsigned long long b0, b1, s0;
            cudaMemcpyFromSymbol(&b0, t_big0, 8), cudaMemcpyFromSymbol(&b1, t_big1, 8), cudaMemcpyFromSymbol(&s0, t_small, 8);
            printf("%s priority: big %.3f ms, small starts at %.3f ms (%.0f%% of big)\n", prio ? "greatest" : "default ",
                   (b1 - b0) * 1e-6, ((long long)s0 - (long long)b0) * 1e-6, 100.0 * ((long long)s0 - (long long)b0) / (b1 - b0));
            cudaStreamDestroy(s1), cudaStreamDestroy(s2);
        }
    return 0;
}
