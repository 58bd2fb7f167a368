/* What the CPU's fused half-step templates share (fused.c.step, wave.c.step) beside vec_row.h:
 * the declarations, loads and stores of the generated sweeps ($FZSWEEPSn, n nodes along z) as
 * explicit vectors, as regz.c.in and for its reason: GCC's `omp simd` vectoriser gave every point
 * of the three components its own pointer (about 40 rows for FV24), about 100 pointer loads
 * spilled per 16 nodes; the pass over a row or two that runs it (FUSED_PASS); the run of a row in
 * vectors then scalars (FUSED_RUN); the material runs of an indexed row (run_end). `a` points to
 * three kernel_args, one per component (Hx, Hy, Hz or Ex, Ey, Ez), as the step engine passes them. */
#ifndef KERNELS_CPU_FUSED_ROW_H
#define KERNELS_CPU_FUSED_ROW_H

#include "aligned_row.h"
#include "halo_row.h"
#include "vec_row.h"

#define LEVEL(name) LD(name, 0)
/* an output may alias its own component's time level, so neither is restrict; sources are */
#define DECL_LEVEL(name, q, l) const REAL *name = (const REAL *)a[q].level[l]
#define DECL_OUT(name, q) REAL *name = (REAL *)a[q].out
#define DECL_SRC(name, q, field) const REAL *restrict name = (const REAL *)a[q].field
#define DECL_COEF_A(name, q, kind, idx) const REAL *restrict name = (const REAL *)a[q].kind[idx]
#define COEF_A(name) LD(name, 0)
#define DECL_COEF_U(name, q, kind, idx) const REAL name = (REAL)a[q].kind##_u[idx]
#define COEF_U(name) name
/* indexed: a table per coefficient, one value per material; one byte per node says which. A
 * row is updated run by run, a run being the nodes of one material m, whose coefficients are
 * then scalars: a lookup per node would be a gather per coefficient, slower than the memory. */
#define DECL_COEF_I(name, q, kind, idx) const REAL *restrict name = (const REAL *)a[q].kind[idx]
#define COEF_I(name) name[m]
#define STORE(out, q, v) (*(VT *)((out) + n) = (v))
/* $FZSWEEPSn: node r along z (the ZCOEF_A and ZCOEF_U of vec_row.h); an indexed pass's row r of
 * material m[r], its coefficients read once a run ($FRUNCOEFS) */
#define ZCOEF_I(name, r) name##_m##r

/* Nodes i0 .. i1-1 of a row (row: the index of its first node), BODY (the generated update of a
 * pass's nodes along z, whose values it declares as VT) in whole vectors, then in scalars. In
 * order: a run's overlapping last vector computed first (as regz does it, at its turn) cost a
 * third body, which the sanitizer build compiled for minutes. */
#define FUSED_RUN(...)                                                                            \
    do {                                                                                          \
        const int whole = i0 + (i1 - i0) / SIMD_LANES * SIMD_LANES;                               \
        for (int i = i0; i < whole; i += SIMD_LANES) {                                            \
            typedef VEC VT;                                                                       \
            const long n = row + i;                                                               \
            __VA_ARGS__                                                                           \
        }                                                                                         \
        for (int i = whole; i < i1; i++) {                                                        \
            typedef REAL VT;                                                                      \
            const long n = row + i;                                                               \
            __VA_ARGS__                                                                           \
        }                                                                                         \
    } while (0)

/* Nodes i0 .. i1-1 of a pass's rows (row: the index of the first one's first node), BODY (a
 * sweep of a $FZSWEEPSn): with AVX-512 or AVX2 in whole vectors from a vector-aligned boundary (VEC_ZRUN,
 * vec_row.h), else FUSED_RUN's vectors and scalars. */
#if defined __AVX512F__ || defined __AVX2__
#define FUSED_ZRUN(out, PRE, ...) VEC_ZRUN(out, row + i0, row + i1, PRE, __VA_ARGS__)
#else
#define FUSED_ZRUN(out, PRE, ...) FUSED_RUN(__VA_ARGS__) /* PRE: empty without AVX-512 */
#define VSTORE(p, v) (*(VT *)(p) = (v))
#define VMERGE VSTORE
#endif
/* A value of the body's nodes stored at p (the node n's place), masked to the run's nodes: node
 * r's new value of out; and (trait layer_fold) a CPML term handed to the layer (fused.c.step). */
#define ZSTORE(out, r, v) VSTORE((out) + n + (r) * sz, v)

/* A pass's rows: `nodes` rows along z (1 or 2; row, the first one's first node), each updated from
 * node 0 to nx - 1 by SWEEPS1 or SWEEPS2 (a $FZSWEEPSn in parentheses: a FUSED_SWEEP per
 * component), in vectors (FUSED_ZRUN). Indexed
 * (INDEXED 1) they go run by run, a run being where each row keeps its material m[r], whose
 * coefficients COEFS ($FRUNCOEFS in parentheses) declares (ZCOEF_I). In scope: nx, row, sz, mat,
 * O_0. FUSED_PASS_PART: nodes lo .. hi - 1 only. */
#define FUSED_UNPAREN(...) __VA_ARGS__
#define FUSED_PASS(INDEXED, nodes, COEFS, SWEEPS1, SWEEPS2) FUSED_PASS_PART(INDEXED, nodes, 0, nx, COEFS, SWEEPS1, SWEEPS2)
#define FUSED_PASS_PART(INDEXED, nodes, lo, hi, COEFS, SWEEPS1, SWEEPS2)                           \
    do {                                                                                          \
        for (int i0 = (lo), i1; i0 < (hi); i0 = i1) {                                             \
            unsigned char m[2] = {0, 0};                                                          \
            i1 = (hi);                                                                            \
            for (int r_ = 0; (INDEXED) && r_ < (nodes); r_++)                                     \
                m[r_] = mat[row + r_ * sz + i0], i1 = min_int(i1, run_end(mat + row + r_ * sz, m[r_], i0, i1)); \
            (void)m;                                                                              \
            FUSED_UNPAREN COEFS                                                                   \
            if ((nodes) == 2) {                                                                   \
                FUSED_UNPAREN SWEEPS2                                                             \
            } else {                                                                              \
                FUSED_UNPAREN SWEEPS1                                                             \
            }                                                                                     \
        }                                                                                         \
    } while (0)
/* A sweep of the run's vectors ($FZSWEEPSn): PRE before the first (its carried rows' first vectors,
 * aligned_row.h), then BODY a vector. A sweep of one component prefetches what the next pass
 * along y reads first: its own arrays' lines one row on (ZNEXT, node r's) and each source field's
 * row after the farthest it reads (ZNEXT_ROW). Without them the sweeps were no faster at 300^3
 * than the one sweep of the three, whose loads are more in flight at once (docs/performance-notes.md). */
#define FUSED_SWEEP(PRE, BODY) FUSED_ZRUN(O_0, FUSED_UNPAREN PRE, FUSED_UNPAREN BODY);
#define ZNEXT(arr, r) __builtin_prefetch((arr) + n + (r) * sz + sy)
#define ZNEXT_ROW(arr, dj, dk) __builtin_prefetch((arr) + n + OFF(0, dj, dk))

/* The end of the run of material m that starts at i of a row of n bytes: the first index whose
 * byte differs, or n. Blocks of 64 bytes are compared at once (a vector compare each), then words
 * of 8, then bytes, so a row of one material costs a few instructions, and every byte is read (a
 * byte at a time after the blocks, a 300-node row's last 44 took two instructions a node of
 * Yee's wave step, callgrind). */
static inline int run_end(const unsigned char *r, unsigned char m, int i, int n)
{
    enum { B = 64 };
    for (; i + B <= n; i += B) {
        unsigned char diff = 0;
        for (int t = 0; t < B; t++) diff |= r[i + t] ^ m;
        if (diff) break;
    }
    const unsigned long long ms = 0x0101010101010101ull * m;
    for (; i + 8 <= n; i += 8) {
        unsigned long long w;
        __builtin_memcpy(&w, r + i, 8);
        if (w != ms) break;
    }
    while (i < n && r[i] == m) i++;
    return i;
}

#endif
