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
};

static inline void halo_x_of(struct halo_x *h, int boundary, int comp, int nx)
{
    const int half = component_half(comp, 0);
    h->count = halo_count(boundary, half, 0); /* x is never split */
    for (int t = 0; t < h->count; t++) {
        h->p[t] = halo_position(nx, 0, t);
        h->sign[t] = halo_source(boundary, half, nx, h->p[t], &h->src[t]);
    }
}

#define HALO_ROW(out, q)                                                                          \
    for (int t = 0; t < hx[q].count; t++)                                                         \
        out[row + hx[q].p[t]] = hx[q].sign[t] ? (REAL)hx[q].sign[t] * out[row + hx[q].src[t]] : (REAL)0

#endif
