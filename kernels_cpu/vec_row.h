/* What the CPU templates in explicit vectors share (regz_row.h: regz, regza; fused_row.h: fused,
 * wave): GNU C vector types of the build's width, each stencil point a load at a constant offset
 * from one pointer per array (OFF, LD), the strides (compiled in for a variant of trait strides:
 * kernels_cpu/jit.c passes -DSY=<sy> -DSZ=<sz>; without them, the launch's), the node counts along
 * z the $ZBODYn and $FZSWEEPSn bodies are compiled for, with the checks of a launch that go with
 * both, the tiles of rows and planes that the OpenMP threads share, and with AVX-512 or AVX2 the
 * masked stores of a vector's lanes (regza's sweep, the fused step's row ends). */
#ifndef KERNELS_CPU_VEC_ROW_H
#define KERNELS_CPU_VEC_ROW_H

#include <stdint.h>
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
/* Loads and stores go through VT, the type in scope: a vector, or REAL for scalars. */
#define LD(arr, off) (*(const VT *)((arr) + n + (off)))
/* A $ZBODYn's coefficients of node r along z: an array's at the node, a scalar as it is. */
#define ZCOEF_A(name, r) LD(name, OFF(0, 0, r))
#define ZCOEF_U(name, r) (name)

/* The lanes by which p lies past the vector-aligned boundary at or before it (VEC_ZRUN's runs start
 * there; the fused step's CPML cuts its rows there, fused.c.step). */
#define VEC_BACK(p) ((long)((uintptr_t)(p) / sizeof(*(p)) & (SIMD_LANES - 1)))

/* Unaligned (element-aligned) vectors that may alias the arrays they are read from. */
typedef float vec_F32 __attribute__((vector_size(SIMD_BYTES), aligned(sizeof(float)), may_alias));
typedef double vec_F64 __attribute__((vector_size(SIMD_BYTES), aligned(sizeof(double)), may_alias));

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
/* The lanes lo <= t < hi of a vector, as a mask; v's lanes in mask stored at p. */
static inline unsigned lanes_mask(long lo, long hi, int lanes)
{
    lo = lo < 0 ? 0 : lo > lanes ? lanes : lo, hi = hi < 0 ? 0 : hi > lanes ? lanes : hi;
    return ((1u << hi) - 1) & ~((1u << lo) - 1);
}
#ifdef __AVX512F__
static inline void zstore_F32(float *p, unsigned mask, vec_F32 v) { _mm512_mask_storeu_ps(p, (__mmask16)mask, (__m512)v); }
static inline void zstore_F64(double *p, unsigned mask, vec_F64 v) { _mm512_mask_storeu_pd(p, (__mmask8)mask, (__m512d)v); }
#define zmerge_F32 zstore_F32 /* the masked store is cheap here */
#define zmerge_F64 zstore_F64
#else
/* AVX2 has no mask registers, and its masked store (vmaskmovps) is microcoded on AMD cores (42
 * micro-ops, one per 12 cycles on Zen 3 by llvm-mca's model): a whole vector (mask a constant
 * where the caller's is) is stored plainly, a partial one through the stack, lane by lane. */
static inline void zstore_F32(float *p, unsigned mask, vec_F32 v)
{
    if (mask == 0xffu) {
        *(vec_F32 *)p = v;
        return;
    }
    float t[8];
    *(vec_F32 *)t = v;
    for (; mask; mask &= mask - 1) p[__builtin_ctz(mask)] = t[__builtin_ctz(mask)];
}
static inline void zstore_F64(double *p, unsigned mask, vec_F64 v)
{
    if (mask == 0xfu) {
        *(vec_F64 *)p = v;
        return;
    }
    double t[4];
    *(vec_F64 *)t = v;
    for (; mask; mask &= mask - 1) p[__builtin_ctz(mask)] = t[__builtin_ctz(mask)];
}
/* The same where no other thread writes the vector's other lanes (a thread's own scratch): the
 * vector read, blended and written whole, a few instructions where zstore's lanes take about six
 * each (callgrind: the fused step's CPML hand-over, fused.c.step). */
static inline void zmerge_F32(float *p, unsigned mask, vec_F32 v)
{
    if (mask == 0xffu) {
        *(vec_F32 *)p = v;
        return;
    }
    const __m256i bit = _mm256_srlv_epi32(_mm256_set1_epi32((int)mask), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256 keep = _mm256_castsi256_ps(_mm256_slli_epi32(bit, 31)); /* blendv reads each lane's top bit */
    *(vec_F32 *)p = (vec_F32)_mm256_blendv_ps(_mm256_loadu_ps(p), (__m256)v, keep);
}
static inline void zmerge_F64(double *p, unsigned mask, vec_F64 v)
{
    if (mask == 0xfu) {
        *(vec_F64 *)p = v;
        return;
    }
    const __m256i bit = _mm256_srlv_epi64(_mm256_set1_epi64x(mask), _mm256_setr_epi64x(0, 1, 2, 3));
    const __m256d keep = _mm256_castsi256_pd(_mm256_slli_epi64(bit, 63));
    *(vec_F64 *)p = (vec_F64)_mm256_blendv_pd(_mm256_loadu_pd(p), (__m256d)v, keep);
}
#endif

/* Nodes first .. end-1 (indices into out; the body's n is a vector's first) in whole vectors,
 * BODY's stores masked to the nodes (VSTORE), none in scalars: from the one of out's
 * vector-aligned boundaries at or before node `first` (each point on a node's own column, di = 0,
 * then an aligned load) unless that takes a vector more than starting at `first` (128 nodes at
 * other offsets: 9 vectors of 16, not 8). At 300^3 every row starts 8 bytes past a boundary:
 * with AVX2 half the loads of a node's own column crossed a cache line (one thread's CPU time a
 * component update of the fused step at 300^3, FV24 arrays 3.9-5.0 -> 2.9-3.4 ns, S{2,2} uniform
 * 1.6-2.1 -> 1.35-1.6); AVX-512 took 18 vectors and 12 scalar passes of the body a row, now 19
 * vectors. Lanes outside the nodes are read (in place, some already updated) and computed, never
 * stored. The mask is computed in the first and last vectors only; the other vectors' stores
 * still test it (AVX2's masked store is slow: zstore stores a whole vector plainly). PRE: what
 * the body needs declared before its first vector, n that vector (the fused step's carried rows,
 * aligned_row.h). */
#define VEC_ZRUN(out, first_, end_, PRE, ...)                                                     \
    do {                                                                                          \
        typedef VEC VT;                                                                           \
        const long first = (first_), end = (end_), L = SIMD_LANES, len = end - first;            \
        const long back = VEC_BACK((out) + first);                                                \
        long n = first - ((len + back + L - 1) / L > (len + L - 1) / L ? 0 : back);              \
        PRE                                                                                       \
        for (; n < end; n += L) {                                                                 \
            const unsigned mask = n < first || n + L > end ? lanes_mask(first - n, end - n, L) : (1u << L) - 1; \
            __VA_ARGS__                                                                           \
        }                                                                                         \
    } while (0)
#define VSTORE(p, v) _Generic(*(p), float: zstore_F32, double: zstore_F64)((p), mask, (v))
#define VMERGE(p, v) _Generic(*(p), float: zmerge_F32, double: zmerge_F64)((p), mask, (v)) /* p: the thread's own */
#endif

static inline int min_int(int x, int y) { return x < y ? x : y; }
static inline int tile_or(int t, int whole) { return t > 0 ? t : whole; }

/* The checks of launch a that every variant compiled for strides and node counts makes: the
 * strides it was compiled for, and 1 or 2 nodes along z, or `most` (its row function's cases:
 * 2 for the fused step and the wave, 4 for regz and regza). 0, or -1 saying why. */
static inline int strides_accepts(const struct kernel_args *a, const char *variant, int most, char *why, size_t n)
{
    if (a->sy != STRIDE_Y(a) || a->sz != STRIDE_Z(a)) {
        snprintf(why, n, "this %s kernel was compiled for rows of %ld and planes of %ld values (a grid of %ld x %ld "
                 "with its halo), not %ld and %ld", variant, STRIDE_Y(a), STRIDE_Z(a), STRIDE_Y(a),
                 STRIDE_Z(a) / STRIDE_Y(a), a->sy, a->sz);
        return -1;
    }
    const int nodes = a->nodes > 0 ? a->nodes : 1;
    if (nodes != 1 && nodes != 2 && nodes != most) {
        if (most > 2) snprintf(why, n, "%s takes 1, 2 or %d nodes along z, not %d", variant, most, a->nodes);
        else snprintf(why, n, "%s takes 1 or 2 nodes along z, not %d", variant, a->nodes);
        return -1;
    }
    return 0;
}

/* A marching kernel's passes: tiles of tj rows by tk planes (a->block; tk a whole number of
 * passes of `nodes` planes) shared among the threads, each tile's passes of r planes from plane k
 * (r = nodes, a tile's last plane alone where they do not divide it) in order, BODY (with jj, tj,
 * k, r in scope) for each. */
#define ZPASSES(a, nodes, ...)                                                                   \
    do {                                                                                          \
        const int ny_ = (a)->ny, nz_ = (a)->nz;                                                   \
        const int tj = tile_or((a)->block[1], ny_), tk = tile_or((a)->block[2], 1) * (nodes);     \
        _Pragma("omp parallel for collapse(2) schedule(static)")                                  \
        for (int kk = 0; kk < nz_; kk += tk)                                                      \
            for (int jj = 0; jj < ny_; jj += tj)                                                  \
                for (int k = kk, r; k < min_int(kk + tk, nz_); k += r) {                          \
                    r = min_int((nodes), min_int(kk + tk, nz_) - k);                              \
                    __VA_ARGS__                                                                   \
                }                                                                                 \
    } while (0)

#endif
