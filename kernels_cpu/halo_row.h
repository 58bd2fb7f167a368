/* A CPU kernel that holds a row writes its output's x halo itself, right after the row, while the
 * row is in cache (trait halo_x): a separate pass would fetch two cache lines of every row again.
 * The rule is halo_rule.h's, worked out once per output (halo_x_of); HALO_ROW(out, q) then writes
 * output q's images of the row at `row` (the padded index of its interior cell 0), in the kernel's
 * REAL. Used by the fused step (fused.c.step) and the layer kernels (cpml.c.layer). */
#ifndef KERNELS_CPU_HALO_ROW_H
#define KERNELS_CPU_HALO_ROW_H

#include "halo_rule.h"

struct halo_x {
    int count, p[2 * HALO + 1], src[2 * HALO + 1], sign[2 * HALO + 1];
    int wrap_n; /* periodic: the row's nodes (its images two runs of HALO values, unsigned); else 0 */
};

static inline void halo_x_of(struct halo_x *h, int boundary, int comp, int nx)
{
    const int half = component_half(comp, 0);
    h->wrap_n = boundary == BOUNDARY_PERIODIC ? nx : 0;
    h->count = halo_count(boundary, half, 0); /* x is never split */
    for (int t = 0; t < h->count; t++) {
        h->p[t] = halo_position(nx, 0, t);
        h->sign[t] = halo_source(boundary, half, nx, h->p[t], &h->src[t]);
    }
}

/* Periodic: the row's last HALO values before it, its first HALO after it, copied (a few moves,
 * where the general rule's loop tests, converts and multiplies each image's sign). */
#define HALO_ROW(out, q)                                                                          \
    do {                                                                                          \
        const int wrap_ = hx[q].wrap_n;                                                           \
        if (wrap_)                                                                                \
            for (int t = 0; t < HALO; t++)                                                        \
                out[row - HALO + t] = out[row + wrap_ - HALO + t], out[row + wrap_ + t] = out[row + t]; \
        else                                                                                      \
            for (int t = 0; t < hx[q].count; t++)                                                 \
                out[row + hx[q].p[t]] = hx[q].sign[t] ? (REAL)hx[q].sign[t] * out[row + hx[q].src[t]] : (REAL)0; \
    } while (0)

/* A temporally blocked step's kernel (trait planes, wave.c.step) goes on along y and z, after the
 * row's x halo: HALO_ROW_YZ(out, q) zeroes the whole padded row of interior row j of plane k where
 * it lies on a PEC wall (an odd field's node 0 along y or z), then writes its image along y, the
 * padded row times its sign; the engine refreshes z (engine/wave.h). Each thread so writes the
 * images of its own rows, and the next half-step reads them after the kernel's barrier. */
struct halo_yz {
    int boundary, half_y, half_z, ny;
};

static inline void halo_yz_of(struct halo_yz *h, int boundary, int comp, int ny)
{
    h->boundary = boundary, h->ny = ny;
    h->half_y = component_half(comp, 1), h->half_z = component_half(comp, 2);
}

#define HALO_ROW_YZ(out, q)                                                                        \
    do {                                                                                           \
        REAL *r_ = (out) + row - HALO; /* the padded row */                                        \
        int p_, s_ = halo_image(hyz[q].boundary, hyz[q].half_y, 0, hyz[q].ny, j, &p_);            \
        if (halo_wall(hyz[q].boundary, hyz[q].half_y, 0, j) || halo_wall(hyz[q].boundary, hyz[q].half_z, 0, k)) \
            for (long i_ = 0; i_ < sy; i_++) r_[i_] = (REAL)0;                                     \
        if (s_)                                                                                    \
            for (long i_ = 0; i_ < sy; i_++) r_[(p_ - j) * sy + i_] = (REAL)s_ * r_[i_];           \
    } while (0)

#endif
