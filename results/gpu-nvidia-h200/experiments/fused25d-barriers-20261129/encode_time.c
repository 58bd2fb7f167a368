/* How long cuTensorMapEncodeTiled takes on the host: fused25d encodes six maps a launch (launch.c:
 * fused25d_maps_of). Build: gcc -O2 -I$CUDA/include encode_time.c -L$CUDA/lib64 -lcuda -lcudart */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

int main(void)
{
    float *d;
    const long n = 520L * 516 * 516;
    if (cudaMalloc((void **)&d, n * sizeof(float)) != cudaSuccess) return 1;
    const cuuint64_t dim[3] = {520, 516, 516}, stride[2] = {520 * 4, 520L * 516 * 4};
    const cuuint32_t box[3] = {40, 11, 1}, unit[3] = {1, 1, 1};
    CUtensorMap map;
    enum { N = 100000 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < N; i++)
        if (cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, d + (i & 7) * 8, dim, stride, box, unit,
                                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
            return 2;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("cuTensorMapEncodeTiled: %.3f us a map (%d maps)\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / N / 1e3, N);
    return 0;
}
