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
 * through it too. In two parts: where the images of component comp's node lie (node_images_of),
 * then the stores (store_node_images). */
struct node_images {
    long off[3]; /* along each axis, the image's offset from the node */
    int sign[3]; /* its sign; 0: no image along the axis */
    int axes;    /* bit ax: an image along axis ax */
    bool wall;   /* the node is on a PEC wall: zero */
};

template <int AXES>
static __device__ __forceinline__ struct node_images node_images_of(const int s[3], const int len[3], const int open[3],
                                                                    const long stride[3], int boundary, int comp)
{
    struct node_images m = {{0, 0, 0}, {0, 0, 0}, 0, false};
    for (int ax = 0; ax < 3; ax++) {
        const int half = component_half(comp, ax);
        int p = s[ax];
        m.wall |= halo_wall(boundary, half, open[ax], s[ax]);
        m.sign[ax] = ax < AXES ? halo_image(boundary, half, open[ax], len[ax], s[ax], &p) : 0;
        m.off[ax] = (p - s[ax]) * stride[ax];
        m.axes |= (m.sign[ax] != 0) << ax;
    }
    return m;
}

template <typename REAL>
static __device__ __forceinline__ void store_node_images(REAL *o, long n, const struct node_images &m, REAL v)
{
    if (m.wall) v = 0;
    o[n] = v;
    for (int k = 1; k < 8; k++) /* each non-empty set of the axes with an image */
        if ((k & m.axes) == k) {
            long d = 0;
            int sg = 1;
            for (int ax = 0; ax < 3; ax++)
                if (k >> ax & 1) d += m.off[ax], sg *= m.sign[ax];
            o[n + d] = sg < 0 ? -v : v;
        }
}

template <typename REAL, int AXES = 3>
static __device__ __forceinline__ void store_images_at(REAL *o, long n, const int s[3], const int len[3],
                                                       const int open[3], const long stride[3], int boundary, int comp,
                                                       REAL v)
{
    store_node_images(o, n, node_images_of<AXES>(s, len, open, stride, boundary, comp), v);
}

/* A fused kernel's node (i, j, k) of launch a as store_images_at takes it: along z, k is the
 * launch's plane, the slab's is k + z0 of zn (kernel.h), and its open faces take no image. */
struct node_at {
    int s[3], len[3], open[3];
    long stride[3];
};
static __device__ __forceinline__ struct node_at node_at_in(int i, int j, int k, const struct kernel_args *a)
{
    return {{i, j, k + a->z0}, {a->nx, a->ny, a->zn > 0 ? a->zn : a->nz}, {0, 0, a->open_z}, {1, a->sy, a->sz}};
}

/* store_images_at for a fused kernel's node (i, j, k) of launch a. */
template <typename REAL, int AXES = 3>
static __device__ void store_images(REAL *o, long n, int i, int j, int k, const struct kernel_args *a, int comp, REAL v)
{
    const struct node_at g = node_at_in(i, j, k, a);
    store_images_at<REAL, AXES>(o, n, g.s, g.len, g.open, g.stride, a->boundary, comp, v);
}

/* store_images for the three components from comp of one node (o[q], v[q]), on a grid of a's,
 * with the boundary a constant of the kernel (wave25d): under the periodic one a component's
 * images do not depend on it, so they are found once for the three. */
template <typename REAL>
static __device__ __forceinline__ void store_images3(int boundary, REAL *const o[3], long n, int i, int j, int k,
                                                     const struct kernel_args *a, int comp, const REAL v[3])
{
    const struct node_at g = node_at_in(i, j, k, a);
    struct node_images m;
    for (int q = 0; q < 3; q++) {
        if (q == 0 || boundary != BOUNDARY_PERIODIC) m = node_images_of<3>(g.s, g.len, g.open, g.stride, boundary, comp + q);
        store_node_images(o[q], n, m, v[q]);
    }
}

#endif
