/* Scratch: FV24-WB Hx f32 arrays in cache, regz-like one/two nodes a pass (A1, A2) against a march
 * along z with each plane's transverse sums in a register queue (C). gcc -O3 -march=native. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef float v8 __attribute__((vector_size(32)));
typedef float v8u __attribute__((vector_size(32), aligned(4)));
#define NX 128
#define NY 16
#define NZ 16
#define H 2
#define SY (NX + 2 * H)
#define SZ (SY * (NY + 2 * H))
#define N (SZ * (NZ + 2 * H))
#define LDV(p) (*(const v8u *)(p))
static float *P, *M, *L, *DA, *D0, *D1, *D2, *O1, *O2, *O3;
#define AT(di, dj, dk) ((di) + (dj) * SY + (dk) * SZ)
static inline v8 node(long n)
{
    const float *p = P + n, *m = M + n;
    v8 g0 = (LDV(p + AT(0, 0, 1)) - LDV(p)) - (LDV(m + AT(0, 1, 0)) - LDV(m));
    v8 g1 = (LDV(p + AT(0, 0, 2)) - LDV(p + AT(0, 0, -1))) - (LDV(m + AT(0, 2, 0)) - LDV(m + AT(0, -1, 0)));
    v8 g2 = (((LDV(p + AT(1, 1, 2)) - LDV(p + AT(1, 1, -1))) + (LDV(p + AT(1, -1, 2)) - LDV(p + AT(1, -1, -1)))) +
             ((LDV(p + AT(-1, 1, 2)) - LDV(p + AT(-1, 1, -1))) + (LDV(p + AT(-1, -1, 2)) - LDV(p + AT(-1, -1, -1))))) -
            (((LDV(m + AT(1, 2, 1)) - LDV(m + AT(1, -1, 1))) + (LDV(m + AT(-1, 2, 1)) - LDV(m + AT(-1, -1, 1)))) +
             ((LDV(m + AT(1, 2, -1)) - LDV(m + AT(1, -1, -1))) + (LDV(m + AT(-1, 2, -1)) - LDV(m + AT(-1, -1, -1)))));
    return LDV(DA + n) * LDV(L + n) + LDV(D0 + n) * g0 + LDV(D1 + n) * g1 + LDV(D2 + n) * g2;
}
__attribute__((noinline)) static void kA(float *restrict out)
{
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++) {
            const long row = (long)(k + H) * SZ + (long)(j + H) * SY + H;
            for (int i = 0; i < NX; i += 8) *(v8u *)(out + row + i) = node(row + i);
        }
}
__attribute__((noinline)) static void kA2(float *restrict out)
{
    for (int k = 0; k < NZ; k += 2)
        for (int j = 0; j < NY; j++) {
            const long row = (long)(k + H) * SZ + (long)(j + H) * SY + H;
            for (int i = 0; i < NX; i += 8) {
                const v8 a = node(row + i), b = node(row + i + SZ);
                *(v8u *)(out + row + i) = a, *(v8u *)(out + row + i + SZ) = b;
            }
        }
}
/* plane w's sums about column n: DP, the four diagonal neighbours of P; Q, M's rows j+2 less j-1 at x +- 1 */
#define DP(n) ((LDV(P + (n) + AT(1, 1, 0)) + LDV(P + (n) + AT(1, -1, 0))) + (LDV(P + (n) + AT(-1, 1, 0)) + LDV(P + (n) + AT(-1, -1, 0))))
#define Q(n) ((LDV(M + (n) + AT(1, 2, 0)) - LDV(M + (n) + AT(1, -1, 0))) + (LDV(M + (n) + AT(-1, 2, 0)) - LDV(M + (n) + AT(-1, -1, 0))))
__attribute__((noinline)) static void kC(float *restrict out)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i += 8) {
            long n = (long)H * SZ + (long)(j + H) * SY + H + i; /* z = 0 */
            /* queues: p at z-1..z+2, DP at z-1..z+2, Q at z-1..z+1 */
            v8 p0 = LDV(P + n - SZ), p1 = LDV(P + n), p2 = LDV(P + n + SZ), p3;
            v8 d0 = DP(n - SZ), d1 = DP(n), d2 = DP(n + SZ), d3;
            v8 q0 = Q(n - SZ), q1 = Q(n), q2;
            for (int k = 0; k < NZ; k++, n += SZ) {
                p3 = LDV(P + n + 2 * SZ);
                d3 = DP(n + 2 * SZ);
                q2 = Q(n + SZ);
                const float *m = M + n;
                const v8 g0 = (p2 - p1) - (LDV(m + AT(0, 1, 0)) - LDV(m));
                const v8 g1 = (p3 - p0) - (LDV(m + AT(0, 2, 0)) - LDV(m + AT(0, -1, 0)));
                const v8 g2 = (d3 - d0) - (q2 + q0);
                *(v8u *)(out + n) = LDV(DA + n) * LDV(L + n) + LDV(D0 + n) * g0 + LDV(D1 + n) * g1 + LDV(D2 + n) * g2;
                p0 = p1, p1 = p2, p2 = p3, d0 = d1, d1 = d2, d2 = d3, q0 = q1, q1 = q2;
            }
        }
}

__attribute__((noinline)) static void kCB(float *restrict out, int B)
{
    for (int kb = 0; kb < NZ; kb += B)
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i += 8) {
            long n = (long)(kb + H) * SZ + (long)(j + H) * SY + H + i;
            v8 p0 = LDV(P + n - SZ), p1 = LDV(P + n), p2 = LDV(P + n + SZ), p3;
            v8 d0 = DP(n - SZ), d1 = DP(n), d2 = DP(n + SZ), d3;
            v8 q0 = Q(n - SZ), q1 = Q(n), q2;
            for (int k = 0; k < B; k++, n += SZ) {
                p3 = LDV(P + n + 2 * SZ);
                d3 = DP(n + 2 * SZ);
                q2 = Q(n + SZ);
                const float *m = M + n;
                const v8 g0 = (p2 - p1) - (LDV(m + AT(0, 1, 0)) - LDV(m));
                const v8 g1 = (p3 - p0) - (LDV(m + AT(0, 2, 0)) - LDV(m + AT(0, -1, 0)));
                const v8 g2 = (d3 - d0) - (q2 + q0);
                *(v8u *)(out + n) = LDV(DA + n) * LDV(L + n) + LDV(D0 + n) * g0 + LDV(D1 + n) * g1 + LDV(D2 + n) * g2;
                p0 = p1, p1 = p2, p2 = p3, d0 = d1, d1 = d2, d2 = d3, q0 = q1, q1 = q2;
            }
        }
}
static void kC4(float *o) { kCB(o, 4); }
static void kC8(float *o) { kCB(o, 8); }
static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(void)
{
    float **a[] = {&P, &M, &L, &DA, &D0, &D1, &D2, &O1, &O2, &O3};
    srand(1);
    for (int q = 0; q < 10; q++) {
        *a[q] = aligned_alloc(64, ((sizeof(float) * N + 63) / 64) * 64 + 64);
        for (long n = 0; n < N; n++) (*a[q])[n] = (float)rand() / RAND_MAX - 0.5f;
    }
    kA(O1), kA2(O2), kC4(O3);
    double e2 = 0, e3 = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                const long n = (long)(k + H) * SZ + (long)(j + H) * SY + H + i;
                e2 = fmax(e2, fabs(O2[n] - O1[n])), e3 = fmax(e3, fabs(O3[n] - O1[n]));
            }
    printf("max |A2 - A| %.3g, |C - A| %.3g\n", e2, e3);
    void (*k[])(float *) = {kA, kA2, kC, kC4, kC8};
    const char *name[] = {"A (1 node)", "A2 (2 nodes)", "C (z-march)", "C4 (4 planes)", "C8 (8 planes)"};
    double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
    const int reps = 400;
    for (int round = 0; round < 15; round++)
        for (int v = 0; v < 5; v++) {
            const double t0 = cpu();
            for (int r = 0; r < reps; r++) k[v](O1);
            const double t = (cpu() - t0) / reps / (NX * NY * NZ) * 1e9;
            if (t < best[v]) best[v] = t;
        }
    for (int v = 0; v < 5; v++) printf("%-14s %.3f ns an update (best of 15 rounds)\n", name[v], best[v]);
    return 0;
}
