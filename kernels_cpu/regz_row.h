/* What the regz and regza templates share (kernels_cpu/regz.c.in, regza.c.in) beside vec_row.h
 * (the vectors, loads, strides, node counts and tiles): the declarations of the generated body's
 * inputs ($ZBODYn, $ZXBODYn), the checks of a launch both make, regz's row loop and the bodies'
 * store (ZSTORE: at dst, node r dz further; with AVX-512 or AVX2 masked to the row's nodes, the
 * mask in scope, as regz's row loop and regza's sweep both give it). */
#ifndef KERNELS_CPU_REGZ_ROW_H
#define KERNELS_CPU_REGZ_ROW_H

#include "vec_row.h"

/* out may alias a time level, so neither is restrict; sources and coefficients are. */
#define DECL_LEVEL(name, l) const REAL *name = (const REAL *)a->level[l]
#define DECL_SRC(name, field) const REAL *restrict name = (const REAL *)a->field
#define DECL_COEF_A(name, kind, idx) const REAL *restrict name = (const REAL *)a->kind[idx]
#define DECL_COEF_U(name, kind, idx) const REAL name = (REAL)a->kind##_u[idx]

/* The checks of launch a that regz and regza (variant) both make, lanes the vector's of their
 * REAL: the strides it was compiled for, 1, 2 or 4 nodes along z, rows of at least one vector. 0,
 * or -1 saying why. */
static inline int regz_accepts(const struct kernel_args *a, const char *variant, int lanes, char *why, size_t n)
{
    if (strides_accepts(a, variant, 4, why, n)) return -1;
    if (a->nx < lanes) {
        snprintf(why, n, "%s needs rows of at least one vector (%d nodes along x), not %d: plain takes any", variant,
                 lanes, a->nx);
        return -1;
    }
    return 0;
}

/* A pass of `nodes` planes (the launch's 1, 2 or 4, fewer at a tile's end) from `first` (both
 * variables, advanced here) as bodies of four, two and one node along z: FOUR, TWO and ONE, each
 * at `first`. Four cut the loads per update again where neighbouring nodes share points (FV24's
 * share 15 of 40): in cache on an AVX-512 Xeon regz ran 4-7% and regza 9-27% faster than with two
 * (S44's regza excepted; docs/performance-notes.md), for a quarter more compile time of the two. */
#define REGZ_PASS(nodes, first, FOUR, TWO, ONE)                                                   \
    do {                                                                                          \
        for (; (nodes) >= 4; (nodes) -= 4, (first) += 4 * sz) FOUR;                              \
        if ((nodes) >= 2) {                                                                       \
            TWO;                                                                                  \
            (nodes) -= 2, (first) += 2 * sz;                                                      \
        }                                                                                         \
        if (nodes) ONE;                                                                           \
    } while (0)

/* One row (row: the index of its first node) of R nodes along z, BODY (the generated update of R
 * nodes) at each vector of x, in order. With AVX-512 or AVX2 from out's vector-aligned boundary,
 * the stores masked to the row (VEC_ZRUN): a node's own column then loads aligned, where from
 * the row's first node half those loads crossed a cache line. Without, where the row does not end
 * on a whole vector, its last vector (overlapping the one before) is computed just before that
 * one, kept in tail, and its spare part stored at the end: in place, no pass may read a level
 * another pass has written. Computing it first instead broke the row's streams: FV24-WB and S44
 * 25% slower at 300^3. Rows shorter than one vector are refused (accepts). */
#if defined __AVX512F__ || defined __AVX2__
#define REGZ_ROW(R, ...) VEC_ZRUN(out, row, row + a->nx, , REAL *const dst = out + n; const long dz = sz; __VA_ARGS__)
#define ZSTORE(r, v) VSTORE(dst + (r) * dz, v)
#else
#define ZSTORE(r, v) (*(VT *)(dst + (r) * dz) = (v))
#define REGZ_ROW(R, ...)                                                                          \
    do {                                                                                          \
        const int nx = a->nx, lanes = SIMD_LANES, spare = nx % lanes;                             \
        typedef VEC VT;                                                                           \
        REAL tail[(R) * SIMD_LANES];                                                              \
        for (int i = 0; i + lanes <= nx; i += lanes) {                                            \
            if (spare && i + 2 * lanes > nx) { /* the last whole vector's turn: the tail first */ \
                const long n = row + nx - lanes, dz = lanes;                                      \
                REAL *const dst = tail;                                                           \
                __VA_ARGS__                                                                       \
            }                                                                                     \
            const long n = row + i, dz = sz;                                                      \
            REAL *const dst = out + n;                                                            \
            __VA_ARGS__                                                                           \
        }                                                                                         \
        for (int r = 0; r < (R) && spare; r++)                                                    \
            for (int i = nx - spare; i < nx; i++)                                                 \
                out[row + r * sz + i] = tail[r * lanes + i - (nx - lanes)];                       \
    } while (0)
#endif

#endif
