/* Aligned loads for the CPU templates in explicit vectors whose vectors sweep a row from one of
 * out's 64-byte boundaries to the next (regza.c.in, fused.c.step; issue 28): with AVX-512 and the
 * strides known (compiled in: trait strides), every point of a source row that holds several of
 * a body's points (LDX's shared) is built from aligned loads, the blocks at the (constant) offset
 * rounded down to a vector and the one after it, one valignd/valignq of the two per point; and
 * the rows the generator picks (codegen/emit.c, zrows_find) are carried from one x-vector to the
 * next (ZROW_*), one load a vector each. Unaligned 64-byte loads each cross a cache line (two L1
 * accesses): in cache they bound regz at 1.2-1.3x plain, and loads bound these loops on Zen 4
 * (docs/performance-notes.md). A point alone on its row is one load as before. Aligned where the
 * arrays share out's offset from 64 bytes (the backends' arrays are 64-byte aligned); correct
 * wherever they are. The blocks reach up to two vectors past a body's farthest point (the CPU
 * backend's arrays have three vectors' slack at each end, cpu_backend.c). Without AVX-512 or the
 * strides, each point is its own load (LD). */
#ifndef KERNELS_CPU_ALIGNED_ROW_H
#define KERNELS_CPU_ALIGNED_ROW_H

#include "vec_row.h"

#if defined(__AVX512F__) && defined(SY)
#define ALIGNED_ROWS 1

/* The vector r lanes into the pair (lo, hi) of consecutive vectors, r a constant after inlining
 * (one valignd/valignq; lo itself at 0). */
#define ALIGNR_CASE(w, k) case k: v = _mm512_alignr_epi##w(hi, lo, k); break;
static inline __attribute__((always_inline)) vec_F32 lanes_from_F32(__m512i lo, __m512i hi, long r)
{
    __m512i v = lo;
    switch (r) {
        ALIGNR_CASE(32, 1) ALIGNR_CASE(32, 2) ALIGNR_CASE(32, 3) ALIGNR_CASE(32, 4) ALIGNR_CASE(32, 5)
        ALIGNR_CASE(32, 6) ALIGNR_CASE(32, 7) ALIGNR_CASE(32, 8) ALIGNR_CASE(32, 9) ALIGNR_CASE(32, 10)
        ALIGNR_CASE(32, 11) ALIGNR_CASE(32, 12) ALIGNR_CASE(32, 13) ALIGNR_CASE(32, 14) ALIGNR_CASE(32, 15)
    }
    return (vec_F32)v;
}
static inline __attribute__((always_inline)) vec_F64 lanes_from_F64(__m512i lo, __m512i hi, long r)
{
    __m512i v = lo;
    switch (r) {
        ALIGNR_CASE(64, 1) ALIGNR_CASE(64, 2) ALIGNR_CASE(64, 3) ALIGNR_CASE(64, 4) ALIGNR_CASE(64, 5)
        ALIGNR_CASE(64, 6) ALIGNR_CASE(64, 7)
    }
    return (vec_F64)v;
}

/* The vector of 16 floats or 8 doubles at p + s, s a constant after inlining: from the aligned
 * block(s) around it. */
static inline __attribute__((always_inline)) vec_F32 shifted_F32(const float *p, long s)
{
    const long r = s & 15;
    const __m512i lo = _mm512_loadu_si512(p + s - r);
    if (!r) return (vec_F32)lo;
    return lanes_from_F32(lo, _mm512_loadu_si512(p + s - r + 16), r);
}
static inline __attribute__((always_inline)) vec_F64 shifted_F64(const double *p, long s)
{
    const long r = s & 7;
    const __m512i lo = _mm512_loadu_si512(p + s - r);
    if (!r) return (vec_F64)lo;
    return lanes_from_F64(lo, _mm512_loadu_si512(p + s - r + 8), r);
}

#define LDX(arr, di, dj, dk, shared)                                                                   \
    ((shared) ? _Generic((REAL)0, float: shifted_F32, double: shifted_F64)((arr) + n, OFF(di, dj, dk)) \
              : LD(arr, OFF(di, dj, dk)))

/* A carried row (the generator's: its ZXPRE word or a fused sweep's PRE declares it, ZROW_NEXT
 * loads its next vector, ZROW takes a point from it, ZROW_ROTATE passes it on): the aligned
 * vectors from its lowest point's (lo) to its highest's (hi), ZROW_NB of them (2 or 3). The next
 * x-vector needs the same blocks one vector on, so each x-vector loads only the last and takes the
 * others from the one before: one load a row where LDX loads two or three, what binds these loops
 * in cache on Zen 4 (about one 64-byte load a cycle; docs/performance-notes.md). */
#define ZROW_BASE(dj, dk, lo) ((long)OFF(lo, dj, dk) & ~(long)(SIMD_LANES - 1))
#define ZROW_NB(dj, dk, lo, hi) \
    (((long)OFF(hi, dj, dk) - ZROW_BASE(dj, dk, lo)) / SIMD_LANES + 1 + (((long)OFF(hi, dj, dk) & (SIMD_LANES - 1)) != 0))
#define ZROW_INIT(q, arr, dj, dk, lo, hi)                                                                \
    const REAL *const zr##q##_p = (arr) + ZROW_BASE(dj, dk, lo);                                         \
    __m512i zr##q##_0 = _mm512_loadu_si512(zr##q##_p + n);                                               \
    __m512i zr##q##_1 = ZROW_NB(dj, dk, lo, hi) == 3 ? _mm512_loadu_si512(zr##q##_p + n + SIMD_LANES) : zr##q##_0; \
    __m512i zr##q##_2 = zr##q##_1;
#define ZROW_NEXT(q, dj, dk, lo, hi)                                                     \
    (ZROW_NB(dj, dk, lo, hi) == 3 ? (zr##q##_2 = _mm512_loadu_si512(zr##q##_p + n + 2 * SIMD_LANES)) \
                                  : (zr##q##_1 = _mm512_loadu_si512(zr##q##_p + n + SIMD_LANES)))
#define ZROW_ROTATE(q, dj, dk, lo, hi) \
    (ZROW_NB(dj, dk, lo, hi) == 3 ? (zr##q##_0 = zr##q##_1, zr##q##_1 = zr##q##_2) : (zr##q##_0 = zr##q##_1))
/* Point di of the row: from block j (0 or 1) and the one after it, r lanes on. */
#define ZROW_J(di, dj, dk, lo) (((long)OFF(di, dj, dk) - ZROW_BASE(dj, dk, lo)) / SIMD_LANES)
#define ZROW(q, arr, di, dj, dk, lo, hi)                                                        \
    _Generic((REAL)0, float: lanes_from_F32, double: lanes_from_F64)(                           \
        ZROW_J(di, dj, dk, lo) ? zr##q##_1 : zr##q##_0, ZROW_J(di, dj, dk, lo) ? zr##q##_2 : zr##q##_1, \
        (long)OFF(di, dj, dk) & (SIMD_LANES - 1))
#else
#define LDX(arr, di, dj, dk, shared) LD(arr, OFF(di, dj, dk))
#define ZROW_INIT(q, arr, dj, dk, lo, hi)
#define ZROW_NEXT(q, dj, dk, lo, hi) ((void)0)
#define ZROW(q, arr, di, dj, dk, lo, hi) LD(arr, OFF(di, dj, dk))
#define ZROW_ROTATE(q, dj, dk, lo, hi) ((void)0)
#endif

#endif
