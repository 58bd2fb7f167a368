/* How the CPU's CPML layer bodies ($LDECLS and $LBODY, codegen/layer.h) read and write, given
 * `a` (const struct layer_args *), the strides sy and sz, the material bytes mat, and per cell its
 * grid cell n, slab cell s (the profile's index) and psi cell p: the layer kernels'
 * (cpml.c.layer) and the fused step's own corrections (fused.c.step, trait layer_fold), which
 * include it after their update's code, so the names are taken over. */
#undef OFF
#undef LD
#undef DECL_OUT
#undef DECL_SRC
#undef DECL_PSI
#undef DECL_PROFILE
#undef DECL_COEF_A
#undef COEF_A
#undef DECL_COEF_U
#undef COEF_U
#undef DECL_COEF_I
#undef COEF_I
#undef CORRECT
#define OFF(di, dj, dk) ((di) + (dj) * sy + (dk) * sz)
#define LD(arr, off) arr[n + (off)]
/* the outputs are two components, the sources two fields of the other half-step: nothing aliases */
#define DECL_OUT(name, q) REAL *restrict name = (REAL *)a->t[q].out
#define DECL_SRC(name, q) const REAL *restrict name = (const REAL *)a->t[q].src
#define DECL_PSI(name, q) REAL *restrict name = (REAL *)a->t[q].psi
#define DECL_PROFILE(kname, bname, cname, q)                                                            \
    const REAL *restrict kname = (const REAL *)a->t[q].kinv1, *restrict bname = (const REAL *)a->t[q].b, \
               *restrict cname = (const REAL *)a->t[q].c
#define DECL_COEF_A(name, q, g) const REAL *restrict name = (const REAL *)a->t[q].db[g]
#define COEF_A(name) name[n]
#define DECL_COEF_U(name, q, g) const REAL name = (REAL)a->t[q].db_u[g]
#define COEF_U(name) name
#define DECL_COEF_I(name, q, g) const REAL *restrict name = (const REAL *)a->t[q].db[g]
#define COEF_I(name) name[mat[n]]
/* term q's psi := b psi + c t, then its output +- (kinv1 t + psi): at slab cell s (the profile's
 * index), psi cell p and grid cell n */
#define CORRECT(q, t, sign)                                                       \
    do {                                                                          \
        const REAL y_ = B_##q[s] * Y_##q[p] + C_##q[s] * (t);                     \
        Y_##q[p] = y_;                                                            \
        O_##q[n] = O_##q[n] sign(K_##q[s] * (t) + y_);                            \
    } while (0)
