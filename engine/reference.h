/* The plain scalar reference: one component update walked straight from the spec's term list
 * in double precision, independent of the generator and its templates. */
#ifndef HARNESS_REFERENCE_H
#define HARNESS_REFERENCE_H

#include "kernel.h"

/* The inputs of kernel_args, as double arrays (the same layout), with coefficients either
 * arrays (da[l], db[g] non-NULL) or the scalars da_u, db_u. */
struct reference_inputs {
    int nx, ny, nz;
    long sy, sz;
    const double *level[MAX_LEVELS], *plus, *minus;
    const double *da[MAX_LEVELS], *db[MAX_GROUPS];
    double da_u[MAX_LEVELS], db_u[MAX_GROUPS];
};

/* A component's update as points: the spec's groups expanded once (expand_group), for every
 * cell of a grid (expanding them per cell cost the verification of every GPU launch in the tuner
 * 60 ms on a 37x29x23 grid). */
struct reference_stencil {
    const struct scheme *s;
    struct group_terms t[MAX_GROUPS];
};
void reference_stencil(const struct scheme *s, int component, struct reference_stencil *out);

/* New value of interior cell (i,j,k); *magnitude gets the sum of the absolute values of every
 * product and point that went into it, which bounds the rounding error of any evaluation order. */
double reference_update(const struct reference_stencil *st, const struct reference_inputs *in, int i, int j, int k,
                        double *magnitude);

/* One curl term of that update (the plus field's, or with minus the minus field's): sum_g db[g] *
 * (sum of its points, each with its sign), as the update adds or subtracts it; *magnitude as
 * above. What a CPML layer corrects (pml.h). */
double reference_term(const struct scheme *s, int component, int minus, const struct reference_inputs *in, int i,
                      int j, int k, double *magnitude);

#endif
