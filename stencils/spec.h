/* A scheme as its spec file declares it (SCHEMES.md sections 2-3), and what follows
 * from it: the expanded term list of each component and the operation counts.
 * Everything else in the suite (generator, reference, dispersion, harness) reads a
 * scheme through this header, so a scheme is written down once. */
#ifndef STENCILS_SPEC_H
#define STENCILS_SPEC_H

#include <stddef.h>

enum { MAX_GROUPS = 4, MAX_LEVELS = 4, MAX_SHIFTS = 4, MAX_TIME_COEFS = MAX_LEVELS + 1 };
enum { MAX_SCHEMES = 32 }; /* spec files one build takes (the generator refuses more) */
enum { HALO = 2 }; /* cells of halo on every face: covers a half-span of 3/2 */
/* Materials an indexed grid holds at most: each coefficient's table (kernel.h, COEF_INDEXED) has
 * one value a material, and the step engine allocates them whole. */
enum { MAX_MATERIALS = 16 };
/* A component's coefficients: da[0..MAX_LEVELS) then db[0..MAX_GROUPS), a table of them per material. */
enum { MAX_COEFS = MAX_LEVELS + MAX_GROUPS };

/* The transverse shifts sigma of a term group, in the two axes normal to the derivative. */
enum shift_set { SHIFTS_NONE, SHIFTS_AXES, SHIFTS_DIAGONALS };

/* How the weights w_g are found: typed in, or designed for a resolution and Courant number. */
enum weight_rule { WEIGHTS_FIXED, WEIGHTS_DESIGNED };

/* Directions whose phase velocity a designed scheme makes exact (bit mask). */
enum { DESIGN_AXIAL = 1, DESIGN_FACE = 2, DESIGN_BODY = 4 };

struct term_group {
    char name[16];        /* the weight's name in the spec, e.g. "w3" */
    int half_span2;       /* 2m: 1 for m = 1/2, 3 for m = 3/2 */
    enum shift_set shifts;
    double fixed_weight;  /* with WEIGHTS_FIXED */
};

struct scheme {
    char name[16];   /* yee, fv24, ... */
    char title[64];  /* for tables: "FV24-WB" */
    char file[128];  /* where it was read from, for messages */
    /* Time rule: the staggered difference sum_l c_l f^{n+1/2-l} / (norm dt), l = 0..levels.
     * Leapfrog is (1, -1); S44 is (22, -17, -9, 5, -1). norm = sum_l c_l (1/2 - l). */
    int levels;                       /* old time levels read: 1 (leapfrog) or more */
    double time_coef[MAX_TIME_COEFS]; /* levels + 1 values */
    int ngroups;
    struct term_group group[MAX_GROUPS];
    enum weight_rule weights;
    unsigned design_dirs; /* DESIGN_* mask with WEIGHTS_DESIGNED */
    int reference;        /* 1: the scheme every ratio (e.g. Yee/scheme) is taken against */
};

/* Components, in the suite's order. Axis a of a component: x=0, y=1, z=2. */
enum component { HX, HY, HZ, EX, EY, EZ, NCOMPONENTS };
extern const char *const component_names[NCOMPONENTS];
static inline int component_axis(int c) { return c % 3; }
static inline int component_is_h(int c) { return c < 3; }
/* A component's update coefficients: da for each old time level, then db for each group. */
static inline int coef_count(const struct scheme *s) { return s->levels + s->ngroups; }
int component_from_name(const char *s); /* -1 if unknown */

/* Parse a spec. Returns 0, or -1 with "file:line: what was expected" in err. */
int spec_parse(const char *text, const char *file, struct scheme *out, char *err, size_t errlen);

/* The schemes built into this binary (the spec files, embedded at build time). */
int scheme_count(void);
const struct scheme *scheme_at(int i);
const struct scheme *scheme_find(const char *name); /* NULL if unknown */
const char *scheme_source(const struct scheme *s);  /* the spec file's text */
const char *scheme_names(void);                     /* "yee, fv24, ..." for messages */
/* The spec marked 'reference' (at most one may be), NULL if none. It comes first in scheme_at's order. */
const struct scheme *scheme_reference(void);

/* Number of transverse shifts |T_g| of a group. */
int group_shift_count(const struct term_group *g);

/* One source point of an update: array offset (di, dj, dk) of a source field, with its sign. */
struct point { int d[3]; int sign; };

/* The expanded stencil of one component for one group: the points of the "plus" source field
 * (the first curl term) and of the "minus" one, each with sign +1 or -1 inside its bracket.
 * For Hx: plus = Ey differentiated along z, minus = Ez along y (SCHEMES.md section 1). */
struct group_terms {
    int npoints;                        /* per source field: 2 |T_g| */
    struct point plus[2 * MAX_SHIFTS];  /* +F(+m) -F(-m) for each shift */
    struct point minus[2 * MAX_SHIFTS];
};

/* Source fields of a component: plus and minus, as component indices, and their derivative axes. */
void component_sources(int c, int *plus, int *plus_axis, int *minus, int *minus_axis);
/* A fused half-step's (components c .. c+2) source field along axis ax, as its kernel declares it
 * (S0..S2): the plus (1) or minus (0) field of component c + *q, the first that reads it. */
int fused_source(int c, int ax, int *q);
/* Expand group g of scheme s for component c. */
void expand_group(const struct scheme *s, int g, int c, struct group_terms *out);

/* A convolutional PML (engine/pml.h) stretches the derivatives along the axis normal to each
 * of its layers: in the slab of cells next to the two faces normal to `axis`, every curl term
 * differentiated along axis takes an auxiliary field (psi). Which terms those are follows from the
 * components' sources: in each half-step, for each axis, one term each of two components (the
 * third component is not differentiated along its own axis). A term's points are its field's
 * points of every group (expand_group), so a wide stencil corrects its whole derivative. */
enum { LAYER_TERMS = 2 };
struct layer_term {
    int component; /* the updated component */
    int minus;     /* 0: its plus (first) curl term, added; 1: its minus term, subtracted */
    int source;    /* the field differentiated along the axis */
};
/* The terms the layer normal to axis corrects in the half-step that starts at first (HX or EX). */
void layer_terms(int first, int axis, struct layer_term out[LAYER_TERMS]);

/* Counts for one component update (SCHEMES.md section 5), derived from the spec. */
struct counts {
    int flops, reads, writes, arrays_read;
    int naive_bytes, compulsory_bytes;
};
enum precision { F32, F64 };
/* Coefficients: position-dependent arrays, scalars, or a small table per material indexed by
 * one byte per node (as real codes keep their materials). */
enum coef_storage { COEF_ARRAY, COEF_UNIFORM, COEF_INDEXED, NCOEF_STORAGES };
extern const char *const precision_names[2];
extern const char *const coef_names[NCOEF_STORAGES];
struct counts scheme_counts(const struct scheme *s, enum precision p, enum coef_storage cs);

/* Counts for one cell of a layer pass (both terms of a half-step along one axis, engine/pml.h):
 * each term's brackets recomputed and weighted by its coefficients, the auxiliary field's
 * recursion and the correction of the output. Compulsory bytes: per term the output read and
 * written, its source field, the auxiliary field read and written, with array storage its
 * coefficients; with indexed storage the cell's material byte, once. */
struct counts layer_counts(const struct scheme *s, enum precision p, enum coef_storage cs);

/* Time-rule helpers. norm = sum_l c_l (1/2 - l); the update is
 * f^{n+1/2} = sum_{l>=1} (-c_l/c_0) f^{n+1/2-l} + (norm/c_0) dt * rhs. */
double time_norm(const struct scheme *s);

#endif
