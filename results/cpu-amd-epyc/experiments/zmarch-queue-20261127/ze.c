/* Scratch: FV24-WB Hx f32 arrays. A: row order, one node a pass (regz's loop). E: the same row
 * order over a tile of TJ rows, plane by plane, with each plane's recurring sums (DP: Ey's four
 * diagonal neighbours; Q: Ez's rows j+2 less j-1 at x +- 1) kept in ring buffers of the tile's rows
 * instead of recomputed: DP at z+2 computed and stored, DP at z-1 read back; Q at z+1 and z-1 alike.
 * gcc -O3 -march=native -fopenmp -DNX= -DNY= -DNZ= -DTJ= */
#define _GNU_SOURCE
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef float v8 __attribute__((vector_size(32)));
typedef float v8u __attribute__((vector_size(32), aligned(4)));
#define H 2
#define SY (NX + 2 * H)
#define SZ ((long)SY * (NY + 2 * H))
#define N (SZ * (NZ + 2 * H))
#define LDV(p) (*(const v8u *)(p))
static float *P, *M, *L, *DA, *D0, *D1, *D2, *O1, *O2;
#define AT(di, dj, dk) ((di) + (dj) * SY + (dk) * SZ)
#define DP(n) ((LDV(P + (n) + AT(1, 1, 0)) + LDV(P + (n) + AT(1, -1, 0))) + (LDV(P + (n) + AT(-1, 1, 0)) + LDV(P + (n) + AT(-1, -1, 0))))
#define Q(n) ((LDV(M + (n) + AT(1, 2, 0)) - LDV(M + (n) + AT(1, -1, 0))) + (LDV(M + (n) + AT(-1, 2, 0)) - LDV(M + (n) + AT(-1, -1, 0))))
static inline v8 node(long n)
{
    const float *p = P + n, *m = M + n;
    v8 g0 = (LDV(p + AT(0, 0, 1)) - LDV(p)) - (LDV(m + AT(0, 1, 0)) - LDV(m));
    v8 g1 = (LDV(p + AT(0, 0, 2)) - LDV(p + AT(0, 0, -1))) - (LDV(m + AT(0, 2, 0)) - LDV(m + AT(0, -1, 0)));
    v8 g2 = (DP(n + 2 * SZ) - DP(n - SZ)) - (Q(n + SZ) + Q(n - SZ));
    return LDV(DA + n) * LDV(L + n) + LDV(D0 + n) * g0 + LDV(D1 + n) * g1 + LDV(D2 + n) * g2;
}
#define NXV ((NX + 7) / 8 * 8)
__attribute__((noinline)) static void kA(float *restrict out)
{
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++) {
            const long row = (long)(k + H) * SZ + (long)(j + H) * SY + H;
            for (int i = 0; i + 8 <= NX; i += 8) *(v8u *)(out + row + i) = node(row + i);
        }
}
__attribute__((noinline)) static void kE(float *restrict out)
{
#pragma omp parallel
    {
        float *dp = aligned_alloc(64, sizeof(float) * 4 * TJ * NXV), *q = aligned_alloc(64, sizeof(float) * 3 * TJ * NXV);
#pragma omp for schedule(static)
        for (int jj = 0; jj < NY; jj += TJ) {
            const int je = jj + TJ < NY ? jj + TJ : NY;
            /* the rings' first planes: DP at -1, 0, 1; Q at -1, 0 */
            for (int w = -1; w <= 1; w++)
                for (int j = jj; j < je; j++) {
                    const long row = (long)(w + H) * SZ + (long)(j + H) * SY + H;
                    for (int i = 0; i + 8 <= NX; i += 8) {
                        *(v8 *)(dp + (((w + 4) % 4) * TJ + j - jj) * NXV + i) = DP(row + i);
                        if (w < 1) *(v8 *)(q + (((w + 3) % 3) * TJ + j - jj) * NXV + i) = Q(row + i);
                    }
                }
            for (int k = 0; k < NZ; k++)
                for (int j = jj; j < je; j++) {
                    const long row = (long)(k + H) * SZ + (long)(j + H) * SY + H;
                    float *const dpn = dp + (((k + 2) % 4) * TJ + j - jj) * NXV, *const dpo = dp + (((k + 3) % 4) * TJ + j - jj) * NXV;
                    float *const qn = q + (((k + 1) % 3) * TJ + j - jj) * NXV, *const qo = q + (((k + 2) % 3) * TJ + j - jj) * NXV;
                    for (int i = 0; i + 8 <= NX; i += 8) {
                        const long n = row + i;
                        const float *p = P + n, *m = M + n;
                        const v8 d = DP(n + 2 * SZ), e = Q(n + SZ);
                        const v8 g0 = (LDV(p + AT(0, 0, 1)) - LDV(p)) - (LDV(m + AT(0, 1, 0)) - LDV(m));
                        const v8 g1 = (LDV(p + AT(0, 0, 2)) - LDV(p + AT(0, 0, -1))) - (LDV(m + AT(0, 2, 0)) - LDV(m + AT(0, -1, 0)));
                        const v8 g2 = (d - *(v8 *)(dpo + i)) - (e + *(v8 *)(qo + i));
                        *(v8 *)(dpn + i) = d, *(v8 *)(qn + i) = e;
                        *(v8u *)(out + n) = LDV(DA + n) * LDV(L + n) + LDV(D0 + n) * g0 + LDV(D1 + n) * g1 + LDV(D2 + n) * g2;
                    }
                }
        }
        free(dp), free(q);
    }
}
int main(int argc, char **argv)
{
    const int reps = argc > 1 ? atoi(argv[1]) : 100;
    float **a[] = {&P, &M, &L, &DA, &D0, &D1, &D2, &O1, &O2};
    for (int v = 0; v < 9; v++) {
        *a[v] = aligned_alloc(64, ((sizeof(float) * N + 63) / 64) * 64 + 64);
        for (long n = 0; n < N; n++) (*a[v])[n] = (float)((n * 2654435761u) % 1000) / 1000.0f - 0.5f;
    }
    kA(O1), kE(O2);
    double e = 0;
    for (long n = 0; n < N; n++) e = fmax(e, fabs(O2[n] - O1[n]));
    printf("%dx%dx%d TJ %d, %d threads: max |E - A| %.3g\n", NX, NY, NZ, TJ, omp_get_max_threads(), e);
    void (*k[])(float *) = {kA, kE};
    double best[2] = {1e9, 1e9};
    for (int round = 0; round < 9; round++)
        for (int v = 0; v < 2; v++) {
            const double t0 = omp_get_wtime();
            for (int r = 0; r < reps; r++) k[v](O1);
            const double t = (omp_get_wtime() - t0) / reps / ((double)NX * NY * NZ) * 1e9;
            if (t < best[v]) best[v] = t;
        }
    printf("A (row order) %.3f, E (rings) %.3f ns an update; E/A %.3f\n", best[0], best[1], best[1] / best[0]);
    return 0;
}
