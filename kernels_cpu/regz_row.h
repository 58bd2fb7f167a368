/* What the regz and regza templates share (kernels_cpu/regz.c.in, regza.c.in): each kernel is
 * compiled for its launch's strides (trait strides: kernels_cpu/jit.c passes -DSY=<sy> -DSZ=<sz>,
 * STRIDE_Y and STRIDE_Z; without them, make kernel's translation unit, the launch's), the loads,
 * declarations and coefficients of the generated body ($ZBODYn, $ZXBODYn), the node counts along
 * z they are compiled for, the checks of a launch both make, and regz's row loop. Each template
 * defines its own ZSTORE. */
#ifndef KERNELS_CPU_REGZ_ROW_H
#define KERNELS_CPU_REGZ_ROW_H

#include <stdio.h>

#include "kernel.h"
#include "simd.h"

#ifdef SY
#define STRIDE_Y(a) ((long)SY)
#define STRIDE_Z(a) ((long)SZ)
#else
#define STRIDE_Y(a) ((a)->sy)
#define STRIDE_Z(a) ((a)->sz)
#endif
#define OFF(di, dj, dk) ((di) + (dj) * sy + (dk) * sz)
/* Loads and stores go through VT, the type in scope: a vector, or REAL for rows shorter than one. */
#define LD(arr, off) (*(const VT *)((arr) + n + (off)))
/* out may alias a time level, so neither is restrict; sources and coefficients are. */
#define DECL_LEVEL(name, l) const REAL *name = (const REAL *)a->level[l]
#define DECL_SRC(name, field) const REAL *restrict name = (const REAL *)a->field
#define DECL_COEF_A(name, kind, idx) const REAL *restrict name = (const REAL *)a->kind[idx]
#define ZCOEF_A(name, r) LD(name, OFF(0, 0, r))
#define DECL_COEF_U(name, kind, idx) const REAL name = (REAL)a->kind##_u[idx]
#define ZCOEF_U(name, r) (name)

/* Unaligned (element-aligned) vectors that may alias the arrays they are read from. */
typedef float vec_F32 __attribute__((vector_size(SIMD_BYTES), aligned(sizeof(float)), may_alias));
typedef double vec_F64 __attribute__((vector_size(SIMD_BYTES), aligned(sizeof(double)), may_alias));

static inline int min_int(int x, int y) { return x < y ? x : y; }
static inline int tile_or(int t, int whole) { return t > 0 ? t : whole; }

/* The node counts along z each kernel is compiled for (its row function's cases): two cut FV24's
 * loads per update by a sixth; four gained a few percent more (llvm-mca) for three times the
 * code, which the sanitizer build compiles for minutes. */
static inline int regz_compiled(int nodes) { return nodes == 1 || nodes == 2; }

/* The checks of launch a that regz and regza (variant) both make, lanes the vector's of their
 * REAL: the strides it was compiled for, 1 or 2 nodes along z, rows of at least one vector. 0, or
 * -1 saying why. */
static inline int regz_accepts(const struct kernel_args *a, const char *variant, int lanes, char *why, size_t n)
{
    if (a->sy != STRIDE_Y(a) || a->sz != STRIDE_Z(a)) {
        snprintf(why, n, "this %s kernel was compiled for rows of %ld and planes of %ld values (a grid of %ld x %ld "
                 "with its halo), not %ld and %ld", variant, STRIDE_Y(a), STRIDE_Z(a), STRIDE_Y(a),
                 STRIDE_Z(a) / STRIDE_Y(a), a->sy, a->sz);
        return -1;
    }
    if (!regz_compiled(a->nodes > 0 ? a->nodes : 1)) {
        snprintf(why, n, "%s takes 1 or 2 nodes along z, not %d", variant, a->nodes);
        return -1;
    }
    if (a->nx < lanes) {
        snprintf(why, n, "%s needs rows of at least one vector (%d nodes along x), not %d: plain takes any", variant,
                 lanes, a->nx);
        return -1;
    }
    return 0;
}

/* One row (row: the index of its first node) of R nodes along z, BODY (the generated update of R
 * nodes) at each vector of x, in order; where the row does not end on a whole vector, its last
 * vector (overlapping the one before) is computed just before that one, kept in tail, and its
 * spare part stored at the end: in place, no pass may read a level another pass has written.
 * Computing it first instead broke the row's streams: FV24-WB and S44 25% slower at 300^3.
 * Rows shorter than one vector are refused (accepts). */
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
