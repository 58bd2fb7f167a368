/* The halo rule of the step engine, in one place for the CPU and GPU refresh and the host
 * reference: where each halo cell of a field takes its value from.
 *
 * Periodic: wrap. PEC walls at node 0 and node n of each axis, by image theory: a component
 * that sits on the integer nodes along the axis (tangential E, normal H; SCHEMES.md section 1)
 * is odd about the wall, so zero on it; one on the half nodes (normal E, tangential H) is even.
 * Both fit in HALO cells for n >= HALO + 1. */
#ifndef HARNESS_HALO_RULE_H
#define HARNESS_HALO_RULE_H

#include "spec.h"

#ifdef __CUDACC__
#define HALO_HD __host__ __device__
#else
#define HALO_HD
#endif

enum boundary { BOUNDARY_PERIODIC, BOUNDARY_PEC, NBOUNDARIES };

/* Positions refreshed along an axis of n cells: the 2 HALO ghost cells, and with PEC the wall
 * node 0 of an odd (integer-node) field, which the update wrote and the wall sets to zero. */
HALO_HD static inline int halo_count(int boundary, int half)
{
    return 2 * HALO + (boundary == BOUNDARY_PEC && !half);
}

HALO_HD static inline int halo_position(int n, int t)
{
    return t < HALO ? t - HALO : t < 2 * HALO ? n + t - HALO : 0;
}

/* 1 if interior cell p is a PEC wall node (an integer-node field's node 0): zero. */
HALO_HD static inline int halo_wall(int boundary, int half, int p)
{
    return boundary == BOUNDARY_PEC && !half && p == 0;
}

/* Cell p takes sign * cell *src (an interior index, 0 <= *src < n); sign 0: it is zero. */
HALO_HD static inline int halo_source(int boundary, int half, int n, int p, int *src)
{
    *src = 0;
    if (boundary == BOUNDARY_PERIODIC) {
        *src = (p + n) % n;
        return 1;
    }
    if (half) { /* even about walls at -1/2 and n - 1/2 in array index */
        *src = p < 0 ? -1 - p : 2 * n - 1 - p;
        return 1;
    }
    if (halo_wall(boundary, half, p) || p == n) return 0; /* odd: zero on the walls */
    *src = p < 0 ? -p : 2 * n - p;
    return -1;
}

/* The inverse of halo_source for interior cell s (0 <= s < n, n >= 2 HALO): the one halo cell
 * *p that takes sign * cell s along the axis, or 0 if none does. Lets a kernel write a node's
 * images itself instead of a refresh after it. */
HALO_HD static inline int halo_image(int boundary, int half, int n, int s, int *p)
{
    const int low = halo_wall(boundary, half, 0); /* odd: sources 1..HALO and n-HALO+1..n-1 */
    *p = s;
    if (s >= low && s < HALO + low) {
        *p = boundary == BOUNDARY_PERIODIC ? s + n : half ? -1 - s : -s;
        return low ? -1 : 1;
    }
    if (s >= n - HALO + low) {
        *p = boundary == BOUNDARY_PERIODIC ? s - n : half ? 2 * n - 1 - s : 2 * n - s;
        return low ? -1 : 1;
    }
    return 0;
}

/* 1 if component comp sits half a cell off the integer nodes along axis ax: E along its own
 * axis, H along the other two (SCHEMES.md section 1). */
HALO_HD static inline int component_half(int comp, int ax)
{
    return (ax == comp % 3) == (comp >= 3);
}

#endif
