/* The CPU halo refresh of the step engine (engine/halo_rule.h), one axis after another in one
 * OpenMP region per field (a barrier between axes). Along axis ax every halo position is a slab
 * of the padded array: runs of st[ax] consecutive values (1 along x, a row along y, a plane along
 * z), copied whole so that y and z refresh at streaming speed; along x each run is one value per
 * row, which is why a kernel that holds the row may refresh x itself (halo_args.first_axis).
 * Small fields are refreshed by one thread, where waking the others would cost more. */
#include "backend.h"

enum { PARALLEL_CELLS = 1 << 18, CHUNK = 4096 };

#define REFRESH(T)                                                                               \
    static void refresh_##T(T *f, const struct halo_args *h)                                     \
    {                                                                                            \
        const long st[4] = {1, h->sy, h->sz, h->sz * (h->n[2] + 2 * HALO)};                      \
        _Pragma("omp parallel if (st[3] >= PARALLEL_CELLS)")                                     \
        for (int ax = h->first_axis; ax < 3; ax++) {                                             \
            const int n = h->n[ax], count = halo_count(h->boundary, h->half[ax], h->open[ax]); \
            const long run = st[ax], runs = st[3] / st[ax + 1], chunk = run < CHUNK ? run : CHUNK; \
            const long chunks = (run + chunk - 1) / chunk;                                       \
            _Pragma("omp for collapse(3) schedule(static)")                                      \
            for (long r = 0; r < runs; r++)                                                      \
                for (int t = 0; t < count; t++)                                                  \
                    for (long c = 0; c < chunks; c++) {                                          \
                        int src, p = halo_position(n, h->open[ax], t);                           \
                        const int sign = halo_source(h->boundary, h->half[ax], n, p, &src);      \
                        T *d = f + r * st[ax + 1] + (p + HALO) * run + c * chunk;                \
                        const T *s = f + r * st[ax + 1] + (src + HALO) * run + c * chunk;        \
                        const long len = run - c * chunk < chunk ? run - c * chunk : chunk;      \
                        if (sign)                                                                \
                            for (long i = 0; i < len; i++) d[i] = (T)sign * s[i];                \
                        else                                                                     \
                            for (long i = 0; i < len; i++) d[i] = (T)0;                          \
                    }                                                                            \
        }                                                                                        \
    }
REFRESH(float)
REFRESH(double)

int cpu_refresh_halo(void *field, const struct halo_args *h, char *why, size_t n)
{
    (void)why, (void)n;
    if (h->precision == F32) refresh_float(field, h);
    else refresh_double(field, h);
    return 0;
}
