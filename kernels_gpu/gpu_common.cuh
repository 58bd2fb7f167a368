/* What every GPU kernel template shares: the kernel_args convention, launch-geometry helpers and
 * the checks a launcher's accepts() makes. Included by each kernels_gpu/<variant>.cu.in. */
#ifndef KERNELS_GPU_COMMON_CUH
#define KERNELS_GPU_COMMON_CUH

#include <cuda_runtime.h>
#include <limits.h>
#include <stdio.h>

extern "C" {
#include "kernel.h"
}

/* gridDim.y and gridDim.z are limited to 65535 blocks; gridDim.x to 2^31 - 1. */
static const long GRID_YZ_MAX = 65535, GRID_X_MAX = 2147483647;

/* Blocks of b threads needed to cover n nodes (b >= 1). */
static inline long blocks_for(long n, int b) { return (n + b - 1) / b; }

/* Kernels address a node's neighbours with 32-bit offsets from a per-thread base pointer:
 * 0, or -1 if a plane (times the farthest plane offset, HALO + 1) does not fit in an int. */
static inline int narrow_offsets(const struct kernel_args *a, char *why, size_t n)
{
    if (a->sz <= INT_MAX / (HALO + 1)) return 0;
    snprintf(why, n, "planes of %ld cells are too large for 32-bit neighbour offsets", a->sz);
    return -1;
}

/* 0 if block b has 1..max_threads threads (0: the device's limit), else -1 saying why. */
static inline int block_in_limits(const int b[3], int max_threads, char *why, size_t n)
{
    int dev_max = 1024;
    cudaDeviceGetAttribute(&dev_max, cudaDevAttrMaxThreadsPerBlock, 0);
    const long threads = (long)b[0] * b[1] * b[2];
    const int most = max_threads > 0 && max_threads < dev_max ? max_threads : dev_max;
    if (b[0] >= 1 && b[1] >= 1 && b[2] >= 1 && threads <= most) return 0;
    snprintf(why, n, "block %dx%dx%d: this variant takes 1 to %d threads per block", b[0], b[1], b[2], most);
    return -1;
}

/* Variants whose blocks march `nodes` planes: 0 if the grid needs at most 65535 blocks in y
 * and in z, else -1 saying why. */
static inline int marching_grid_fits(const struct kernel_args *a, int nodes, char *why, size_t n)
{
    const int *b = a->block;
    if (blocks_for(a->ny, b[1]) <= GRID_YZ_MAX && blocks_for(a->nz, nodes) <= GRID_YZ_MAX) return 0;
    snprintf(why, n, "grid %dx%dx%d needs more than %ld blocks in y or z with block %dx%dx%d and %d nodes", a->nx, a->ny,
             a->nz, GRID_YZ_MAX, b[0], b[1], b[2], nodes);
    return -1;
}

#endif
