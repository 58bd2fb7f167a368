#include "reference.h"

#include <math.h>

void reference_stencil(const struct scheme *s, int component, struct reference_stencil *out)
{
    out->s = s;
    for (int g = 0; g < s->ngroups; g++) expand_group(s, g, component, &out->t[g]);
}

double reference_update(const struct reference_stencil *st, const struct reference_inputs *in, int i, int j, int k,
                        double *magnitude)
{
    const struct scheme *s = st->s;
    long n = (long)(k + HALO) * in->sz + (long)(j + HALO) * in->sy + (i + HALO);
    double value = 0, mag = 0;
    for (int l = 0; l < s->levels; l++) {
        double da = in->da[l] ? in->da[l][n] : in->da_u[l];
        value += da * in->level[l][n];
        mag += fabs(da * in->level[l][n]);
    }
    for (int g = 0; g < s->ngroups; g++) {
        const struct group_terms *t = &st->t[g];
        double bracket = 0, points = 0;
        for (int p = 0; p < t->npoints; p++) {
            const struct point *a = &t->plus[p], *b = &t->minus[p];
            double fa = in->plus[n + a->d[0] + a->d[1] * in->sy + a->d[2] * in->sz];
            double fb = in->minus[n + b->d[0] + b->d[1] * in->sy + b->d[2] * in->sz];
            bracket += a->sign * fa - b->sign * fb;
            points += fabs(fa) + fabs(fb);
        }
        double db = in->db[g] ? in->db[g][n] : in->db_u[g];
        value += db * bracket;
        mag += fabs(db) * points;
    }
    *magnitude = mag;
    return value;
}

double reference_term(const struct scheme *s, int component, int minus, const struct reference_inputs *in, int i,
                      int j, int k, double *magnitude)
{
    long n = (long)(k + HALO) * in->sz + (long)(j + HALO) * in->sy + (i + HALO);
    const double *f = minus ? in->minus : in->plus;
    double value = 0, mag = 0;
    for (int g = 0; g < s->ngroups; g++) {
        struct group_terms t;
        expand_group(s, g, component, &t);
        double bracket = 0, points = 0;
        for (int p = 0; p < t.npoints; p++) {
            const struct point *a = minus ? &t.minus[p] : &t.plus[p];
            double v = f[n + a->d[0] + a->d[1] * in->sy + a->d[2] * in->sz];
            bracket += a->sign * v;
            points += fabs(v);
        }
        double db = in->db[g] ? in->db[g][n] : in->db_u[g];
        value += db * bracket;
        mag += fabs(db) * points;
    }
    *magnitude = mag;
    return value;
}
