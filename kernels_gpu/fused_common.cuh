/* What the GPU's fused half-step variants share: their arguments (three components' kernel_args,
 * by value) and the store that writes a node's halo images (trait halo; the layer kernels' too). */
#ifndef KERNELS_GPU_FUSED_COMMON_CUH
#define KERNELS_GPU_FUSED_COMMON_CUH

#include "gpu_common.cuh"
extern "C" {
#include "halo_rule.h"
}

struct fused_args { struct kernel_args a[3]; }; /* by value, in the parameter space */

/* 1 if coordinate c of an axis of n nodes lies within HALO + 1 of a side, where a node writes
 * halo images or a PEC wall (store_images); elsewhere a plain store will do. */
static __device__ __forceinline__ bool near_side(int c, int n) { return c <= HALO || c >= n - HALO; }

/* Writes v at node n of component comp and every halo cell that takes its value from n
 * (halo_rule.h; PEC wall nodes are zero), so that no refresh launch follows the half-step: along
 * each axis at most one image, so at most 7 in all (an edge or corner node). No thread reads a
 * halo cell of its own half-step's outputs, so the writes race with nothing. s: the node's
 * interior coordinates on axes of len nodes, open: each axis' open faces (no image), stride: the
 * arrays' along each axis. AXES: the images along the first AXES axes only (the wave step's
 * kernels: x and y; its engine refreshes z). The CPML's layer kernels (cpml.cu.layer) store
 * through it too. */
template <typename REAL, int AXES = 3>
static __device__ __forceinline__ void store_images_at(REAL *o, long n, const int s[3], const int len[3],
                                                       const int open[3], const long stride[3], int boundary, int comp,
                                                       REAL v)
{
    long off[3];
    int sign[3], axes = 0;
    for (int ax = 0; ax < 3; ax++) {
        const int half = component_half(comp, ax);
        int p = s[ax];
        if (halo_wall(boundary, half, open[ax], s[ax])) v = 0;
        sign[ax] = ax < AXES ? halo_image(boundary, half, open[ax], len[ax], s[ax], &p) : 0;
        off[ax] = (p - s[ax]) * stride[ax];
        axes |= (sign[ax] != 0) << ax;
    }
    o[n] = v;
    for (int m = 1; m < 8; m++) /* each non-empty set of the axes with an image */
        if ((m & axes) == m) {
            long d = 0;
            int sg = 1;
            for (int ax = 0; ax < 3; ax++)
                if (m >> ax & 1) d += off[ax], sg *= sign[ax];
            o[n + d] = sg < 0 ? -v : v;
        }
}

/* store_images_at for a fused kernel's node (i, j, k) of launch a: along z, k is the launch's
 * plane, the slab's is k + z0 of zn (kernel.h), and its open faces take no image. store_images_by
 * takes the boundary from its caller: a kernel compiled for one (wave25d) passes a constant, and
 * the other boundary's rule is compiled out. */
template <typename REAL, int AXES = 3>
static __device__ __forceinline__ void store_images_by(int boundary, REAL *o, long n, int i, int j, int k,
                                                      const struct kernel_args *a, int comp, REAL v)
{
    const int s[3] = {i, j, k + a->z0}, len[3] = {a->nx, a->ny, a->zn > 0 ? a->zn : a->nz};
    const int open[3] = {0, 0, a->open_z};
    const long stride[3] = {1, a->sy, a->sz};
    store_images_at<REAL, AXES>(o, n, s, len, open, stride, boundary, comp, v);
}
template <typename REAL, int AXES = 3>
static __device__ void store_images(REAL *o, long n, int i, int j, int k, const struct kernel_args *a, int comp, REAL v)
{
    store_images_by<REAL, AXES>(a->boundary, o, n, i, j, k, a, comp, v);
}

#endif
