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

/* A face of an axis is open where a neighbouring slab of a grid split along z (engine/decomp.h)
 * fills its halo: nothing is refreshed or imaged there, and its node 0 is no wall. Bits: */
enum { OPEN_LOW = 1, OPEN_HIGH = 2 };

/* Positions refreshed along an axis of n cells: the HALO ghost cells of each face that is not
 * open, and with PEC the wall node 0 of an odd (integer-node) field, which the update wrote and
 * the wall sets to zero. */
HALO_HD static inline int halo_count(int boundary, int half, int open)
{
    return (open & OPEN_LOW ? 0 : HALO + (boundary == BOUNDARY_PEC && !half)) + (open & OPEN_HIGH ? 0 : HALO);
}

/* The t-th of them (t < halo_count): the low face's ghosts, the high face's, then the wall node. */
HALO_HD static inline int halo_position(int n, int open, int t)
{
    if (!(open & OPEN_LOW) && t < HALO) return t - HALO;
    if (!(open & OPEN_LOW)) t -= HALO;
    if (!(open & OPEN_HIGH) && t < HALO) return n + t;
    return 0;
}

/* 1 if interior cell p is a PEC wall node (an integer-node field's node 0): zero. */
HALO_HD static inline int halo_wall(int boundary, int half, int open, int p)
{
    return boundary == BOUNDARY_PEC && !half && p == 0 && !(open & OPEN_LOW);
}

/* Cell p (a position halo_position gives) takes sign * cell *src (an interior index, 0 <= *src <
 * n); sign 0: it is zero. */
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
    if (p == 0 || p == n) return 0; /* odd: zero on the walls */
    *src = p < 0 ? -p : 2 * n - p;
    return -1;
}

/* The inverse of halo_source for interior cell s (0 <= s < n, n >= 2 HALO): the one halo cell
 * *p of a face that is not open that takes sign * cell s along the axis, or 0 if none does. Lets
 * a kernel write a node's images itself instead of a refresh after it. */
HALO_HD static inline int halo_image(int boundary, int half, int open, int n, int s, int *p)
{
    const int odd = boundary == BOUNDARY_PEC && !half; /* odd: sources 1..HALO and n-HALO+1..n-1 */
    int image = s;
    if (s >= odd && s < HALO + odd) image = boundary == BOUNDARY_PERIODIC ? s + n : half ? -1 - s : -s;
    else if (s >= n - HALO + odd) image = boundary == BOUNDARY_PERIODIC ? s - n : half ? 2 * n - 1 - s : 2 * n - s;
    *p = s;
    if (image == s || open & (image < 0 ? OPEN_LOW : OPEN_HIGH)) return 0; /* none, or on an open face */
    *p = image;
    return odd ? -1 : 1;
}

/* 1 if component comp sits half a cell off the integer nodes along axis ax: E along its own
 * axis, H along the other two (SCHEMES.md section 1). */
HALO_HD static inline int component_half(int comp, int ax)
{
    return (ax == comp % 3) == (comp >= 3);
}

#endif
