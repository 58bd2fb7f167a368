/* The CPU halo refresh of the step engine (engine/halo_rule.h): the lines along each axis,
 * one axis after another, in one OpenMP region per field (a barrier between axes); small fields
 * are refreshed by one thread, where waking the others would cost more than the work. */
#include "backend.h"

enum { PARALLEL_LINES = 16384 };

#define REFRESH(T)                                                                               \
    static void refresh_##T(T *f, const struct halo_args *h)                                     \
    {                                                                                            \
        const long st[3] = {1, h->sy, h->sz};                                                    \
        const long lines = (long)(h->n[0] + 2 * HALO) * (h->n[1] + 2 * HALO);                    \
        _Pragma("omp parallel if (lines >= PARALLEL_LINES)")                                     \
        for (int ax = 0; ax < 3; ax++) {                                                         \
            const int b = (ax + 1) % 3, c = (ax + 2) % 3, n = h->n[ax];                          \
            const int count = halo_count(h->boundary, h->half[ax]);                              \
            const int nb = h->n[b] + 2 * HALO, nc = h->n[c] + 2 * HALO;                          \
            _Pragma("omp for collapse(2) schedule(static)")                                      \
            for (int pc = 0; pc < nc; pc++)                                                      \
                for (int pb = 0; pb < nb; pb++) {                                                \
                    T *line = f + pb * st[b] + pc * st[c] + HALO * st[ax]; /* interior 0 */      \
                    for (int t = 0; t < count; t++) {                                            \
                        int p = halo_position(n, t), src;                                        \
                        int sign = halo_source(h->boundary, h->half[ax], n, p, &src);            \
                        line[p * st[ax]] = sign ? (T)sign * line[src * st[ax]] : (T)0;           \
                    }                                                                            \
                }                                                                                \
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
