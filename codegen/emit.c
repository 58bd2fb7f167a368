/* Kernel source from a template and a spec (emit.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "emit.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *emit_program = "generate";

void emit_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", emit_program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) emit_fail("format error");
        if (b->s && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) emit_fail("out of memory");
    }
}

/* ---- the pieces of one kernel ------------------------------------------------------ */

int default_rows(const struct traits *t, int coef) { return t->rows[coef == COEF_ARRAY ? 0 : 1]; }

/* The coefficient macros of the kernel's storage: COEF_A for arrays, COEF_U for scalars, COEF_I
 * for tables indexed by the node's material. */
static char storage_letter(const struct kernel_desc *k) { return "AUI"[k->coef]; }
const char *const coef_enum[NCOEF_STORAGES] = {"COEF_ARRAY", "COEF_UNIFORM", "COEF_INDEXED"};

/* One field's points of a group as named loads, one pair (+m point, -m point) per line:
 *   const REAL g2_p0 = LD(P, OFF(..)), g2_p1 = LD(P, OFF(..));
 * Every load of an update is written before any arithmetic, so that they can all be in flight
 * before the first is used (a careful hand-written kernel's schedule). */
static void emit_loads(struct buf *b, int g, char field, const struct point *p, int n)
{
    for (int t = 0; t < n; t += 2)
        put(b, "            const REAL g%d_%c%d = LD(%c, OFF(%d, %d, %d)), g%d_%c%d = LD(%c, OFF(%d, %d, %d));\n", g,
            field, t, field, p[t].d[0], p[t].d[1], p[t].d[2], g, field, t + 1, field, p[t + 1].d[0], p[t + 1].d[1],
            p[t + 1].d[2]);
}

/* Their sum: "(g2_P0 - g2_P1) + (g2_P2 - g2_P3) ...". */
static void emit_sum(struct buf *b, int g, char field, int n)
{
    for (int t = 0; t < n; t += 2) put(b, "%s(g%d_%c%d - g%d_%c%d)", t ? " + " : "", g, field, t, g, field, t + 1);
}

static void emit_decls(struct buf *b, const struct kernel_desc *k)
{
    char c = storage_letter(k);
    for (int l = 0; l < k->s->levels; l++) put(b, "    DECL_LEVEL(L%d, %d);\n", l, l);
    put(b, "    DECL_SRC(P, plus);\n    DECL_SRC(M, minus);\n");
    for (int l = 0; l < k->s->levels; l++) put(b, "    DECL_COEF_%c(da%d, da, %d);\n", c, l, l);
    for (int g = 0; g < k->s->ngroups; g++) put(b, "    DECL_COEF_%c(db%d, db, %d);\n", c, g, g);
}

static void emit_brackets(struct buf *b, const struct kernel_desc *k)
{
    struct group_terms t[MAX_GROUPS];
    for (int g = 0; g < k->s->ngroups; g++) {
        expand_group(k->s, g, k->component, &t[g]);
        emit_loads(b, g, 'P', t[g].plus, t[g].npoints);
        emit_loads(b, g, 'M', t[g].minus, t[g].npoints);
    }
    for (int g = 0; g < k->s->ngroups; g++) {
        put(b, "            const REAL g%d = (", g);
        emit_sum(b, g, 'P', t[g].npoints);
        put(b, ")\n                - (");
        emit_sum(b, g, 'M', t[g].npoints);
        put(b, ");\n");
    }
}

/* The arrays read at the node itself: time levels, then (arrays only) da and db coefficients;
 * a fused kernel's (q >= 0) carry their component's number: L0_0, da0_0, ... */
static int node_arrays(const struct kernel_desc *k, int q, char names[][16])
{
    char sfx[8] = ""; /* counts as unsigned char: gcc can then bound every name within 16 bytes */
    int n = 0;
    if (q >= 0) snprintf(sfx, sizeof sfx, "_%hhu", (unsigned char)q);
    for (int l = 0; l < k->s->levels; l++) snprintf(names[n++], 16, "L%hhu%s", (unsigned char)l, sfx);
    if (k->coef == COEF_ARRAY) {
        for (int l = 0; l < k->s->levels; l++) snprintf(names[n++], 16, "da%hhu%s", (unsigned char)l, sfx);
        for (int g = 0; g < k->s->ngroups; g++) snprintf(names[n++], 16, "db%hhu%s", (unsigned char)g, sfx);
    }
    return n;
}

enum { MAX_NODE_ARRAYS = 3 * (2 * MAX_LEVELS + MAX_GROUPS) };

/* The node arrays of the kernel (fused: of its three components), their number. */
static int all_node_arrays(const struct kernel_desc *k, int fused, char names[][16])
{
    int n = 0;
    for (int q = 0; q < (fused ? 3 : 1); q++) n += node_arrays(k, fused ? q : -1, names + n);
    return n;
}

int node_array_count(const struct kernel_desc *k, int fused)
{
    char names[MAX_NODE_ARRAYS][16];
    return all_node_arrays(k, fused, names);
}

static void emit_nodes(struct buf *b, const struct kernel_desc *k, int fused)
{
    char names[MAX_NODE_ARRAYS][16];
    int n = all_node_arrays(k, fused, names);
    put(b, "enum {");
    for (int i = 0; i < n; i++) put(b, "%s N_%s", i ? "," : "", names[i]);
    put(b, " };\n    const REAL *const node_src[%d] = {", n);
    for (int i = 0; i < n; i++) put(b, "%s%s", i ? ", " : "", names[i]);
    put(b, "};");
}

/* Bounding boxes of the points read of each field (the node itself inside), [field][axis]. */
static void widen(int lo[3], int hi[3], const struct point *p)
{
    for (int d = 0; d < 3; d++) {
        if (p->d[d] < lo[d]) lo[d] = p->d[d];
        if (p->d[d] > hi[d]) hi[d] = p->d[d];
    }
}

/* One line of constants per field: NAME_X0 = .., NAME_X1, NAME_Y0, NAME_Y1, NAME_Z0, NAME_Z1. */
static void put_boxes(struct buf *b, int nf, const char *const *names, int lo[][3], int hi[][3])
{
    for (int f = 0; f < nf; f++) {
        const char *c = names[f];
        put(b, "%s[[maybe_unused]] constexpr int %s_X0 = %d, %s_X1 = %d, %s_Y0 = %d, %s_Y1 = %d, %s_Z0 = %d, %s_Z1 = %d;",
            f ? "\n    " : "", c, lo[f][0], c, hi[f][0], c, lo[f][1], c, hi[f][1], c, lo[f][2], c, hi[f][2]);
    }
}

int source_boxes(const struct kernel_desc *k, int fused, int lo[3][3], int hi[3][3])
{
    memset(lo, 0, 3 * sizeof *lo), memset(hi, 0, 3 * sizeof *hi);
    for (int q = 0; q < (fused ? 3 : 1); q++) {
        int plus, pa, minus, ma; /* fused: fields by axis; one component: plus 0, minus 1 */
        component_sources(k->component + q, &plus, &pa, &minus, &ma);
        const int fp = fused ? plus % 3 : 0, fm = fused ? minus % 3 : 1;
        for (int g = 0; g < k->s->ngroups; g++) {
            struct group_terms t;
            expand_group(k->s, g, k->component + q, &t);
            for (int p = 0; p < t.npoints; p++) widen(lo[fp], hi[fp], &t.plus[p]), widen(lo[fm], hi[fm], &t.minus[p]);
        }
    }
    return fused ? 3 : 2;
}

/* 1 if every point that a fused half-step reads in its sources' highest plane along z (the top
 * of their source_boxes, as the templates take it) lies on the node's own column (x and y
 * offsets 0). */
static int top_plane_on_column(const struct kernel_desc *k)
{
    int lo[3][3], hi[3][3], top = INT_MIN;
    for (int f = source_boxes(k, 1, lo, hi) - 1; f >= 0; f--)
        if (hi[f][2] > top) top = hi[f][2];
    for (int q = 0; q < 3; q++)
        for (int g = 0; g < k->s->ngroups; g++) {
            struct group_terms t;
            expand_group(k->s, g, k->component + q, &t);
            for (int p = 0; p < 2 * t.npoints; p++) {
                const struct point *x = p < t.npoints ? &t.plus[p] : &t.minus[p - t.npoints];
                if (x->d[2] == top && (x->d[0] || x->d[1])) return 0;
            }
        }
    return 1;
}

/* $BOXES (P and M, the plus and minus fields of one component) and $FBOXES (S0..S2 of a fused
 * half-step). */
static void emit_boxes(struct buf *b, const struct kernel_desc *k, int fused)
{
    static const char *const names[2][3] = {{"P", "M"}, {"S0", "S1", "S2"}};
    int lo[3][3], hi[3][3];
    put_boxes(b, source_boxes(k, fused, lo, hi), names[fused], lo, hi);
}

static void emit_update(struct buf *b, const struct kernel_desc *k)
{
    char c = storage_letter(k);
    for (int l = 0; l < k->s->levels; l++) put(b, "%sCOEF_%c(da%d) * LD(L%d, OFF(0, 0, 0))", l ? " + " : "", c, l, l);
    for (int g = 0; g < k->s->ngroups; g++) put(b, " + COEF_%c(db%d) * g%d", c, g, g);
}

/* ---- fused half-steps ---------------------------------------------------------------- */

static void emit_points(struct buf *b, const char *array, const struct point *p, int n)
{
    for (int t = 0; t < n; t += 2) /* pairs: +m point minus -m point */
        put(b, "%s(LD(%s, OFF(%d, %d, %d)) - LD(%s, OFF(%d, %d, %d)))", t ? " + " : "", array, p[t].d[0], p[t].d[1],
            p[t].d[2], array, p[t + 1].d[0], p[t + 1].d[1], p[t + 1].d[2]);
}

static void emit_fused_decls(struct buf *b, const struct kernel_desc *k)
{
    const struct scheme *s = k->s;
    char c = storage_letter(k);
    for (int q = 0; q < 3; q++) {
        for (int l = 0; l < s->levels; l++) put(b, "    DECL_LEVEL(L%d_%d, %d, %d);\n", l, q, q, l);
        put(b, "    DECL_OUT(O_%d, %d);\n", q, q);
        for (int l = 0; l < s->levels; l++) put(b, "    DECL_COEF_%c(da%d_%d, %d, da, %d);\n", c, l, q, q, l);
        for (int g = 0; g < s->ngroups; g++) put(b, "    DECL_COEF_%c(db%d_%d, %d, db, %d);\n", c, g, q, q, g);
    }
    /* each source field once, from the first component that reads it */
    for (int ax = 0; ax < 3; ax++) {
        int q, plus = fused_source(k->component, ax, &q);
        put(b, "    DECL_SRC(S%d, %d, %s);\n", ax, q, plus ? "plus" : "minus");
    }
}

/* $FRUNCOEFS: an indexed fused body's coefficients for the run's materials m[0] and m[1] (one per
 * node along z; ZCOEF_I reads them as name_mR), as scalars declared once a run: read through the
 * tables inside the run's loop, GCC loaded and broadcast each one again every vector, since the
 * loop's stores might have changed them (Yee's wave kernel: 43 instructions a vector against
 * uniform's 30). Other storages: nothing. */
static void emit_run_coefs(struct buf *b, const struct kernel_desc *k)
{
    if (k->coef != COEF_INDEXED) return;
    const char *sep = "const REAL ";
    for (int q = 0; q < 3; q++) {
        for (int l = 0; l < k->s->levels; l++)
            for (int r = 0; r < 2; r++, sep = ", ") put(b, "%sda%d_%d_m%d = da%d_%d[m[%d]]", sep, l, q, r, l, q, r);
        for (int g = 0; g < k->s->ngroups; g++)
            for (int r = 0; r < 2; r++, sep = ", ") put(b, "%sdb%d_%d_m%d = db%d_%d[m[%d]]", sep, g, q, r, g, q, r);
    }
    put(b, ";");
}

static void emit_fused_body(struct buf *b, const struct kernel_desc *k)
{
    const struct scheme *s = k->s;
    const char *ind = "                        ", c = storage_letter(k);
    for (int q = 0; q < 3; q++) {
        int plus, pa, minus, ma;
        char pn[4], mn[4];
        component_sources(k->component + q, &plus, &pa, &minus, &ma);
        snprintf(pn, sizeof pn, "S%d", plus % 3), snprintf(mn, sizeof mn, "S%d", minus % 3);
        for (int g = 0; g < s->ngroups; g++) {
            struct group_terms t;
            expand_group(s, g, k->component + q, &t);
            put(b, "%sconst REAL g%d_%d = (", ind, g, q);
            emit_points(b, pn, t.plus, t.npoints);
            put(b, ")\n%s    - (", ind);
            emit_points(b, mn, t.minus, t.npoints);
            put(b, ");\n");
        }
        put(b, "%sconst REAL v%d = ", ind, q);
        for (int l = 0; l < s->levels; l++)
            put(b, "%sCOEF_%c(da%d_%d) * LEVEL(L%d_%d)", l ? " + " : "", c, l, q, l, q);
        for (int g = 0; g < s->ngroups; g++) put(b, " + COEF_%c(db%d_%d) * g%d_%d", c, g, q, g, q);
        put(b, ";\n");
    }
    for (int q = 0; q < 3; q++) put(b, "%sSTORE(O_%d, %d, v%d);\n", ind, q, q, q);
}

/* ---- layer kernels (CPML) ------------------------------------------------------------ */

/* Whether a fused step's update hands the layer the curl terms it corrects (trait layer_fold;
 * $LHANDS, zlayer_terms), rather than the layer computing them again from their points: where a
 * term reads more than LAYER_TERM_POINTS of them, or with indexed coefficients (which the layer
 * gathers a group at a time, by each cell's material). Callgrind at 100^3 with a 10-cell layer,
 * the instructions of a step with the layer, handed over against computed again: Yee uniform (2
 * points a term) +26%, S44 arrays (4) +10%, Yee indexed -16%; FV24 (20) -13 to -15%, FV24-WB
 * indexed (12) -43%, S{2,2} indexed (20) -48% (notes). */
enum { LAYER_TERM_POINTS = 4 };
/* A handed-over term's slot in a row's scratch (fused.c.step: six a node): its axis' two terms, in
 * layer_terms' order. */
static int term_slot(int axis, int term) { return 2 * axis + term; }
static int layer_hands_terms(const struct kernel_desc *k)
{
    if (!k->traits->layer_fold) return 0;
    int points = 0;
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms gt;
        expand_group(k->s, g, k->component, &gt);
        points += gt.npoints;
    }
    return points > LAYER_TERM_POINTS || k->coef == COEF_INDEXED;
}

/* taken: the terms come from the update (LTAKE), so no source field or coefficient is declared */
static void emit_layer_decls(struct buf *b, const struct kernel_desc *k, int taken)
{
    struct layer_term t[LAYER_TERMS];
    layer_terms(k->component, k->axis, t);
    for (int q = 0; q < LAYER_TERMS; q++) {
        put(b, "    DECL_OUT(O_%d, %d);\n", q, q);
        if (!taken) put(b, "    DECL_SRC(S_%d, %d);\n", q, q);
        put(b, "    DECL_PSI(Y_%d, %d);\n    DECL_PROFILE(K_%d, B_%d, C_%d, %d);\n", q, q, q, q, q, q);
        if (!taken)
            for (int g = 0; g < k->s->ngroups; g++) put(b, "    DECL_COEF_%c(db%d_%d, %d, %d);\n", storage_letter(k), g, q, q, g);
    }
}

/* Each term recomputed from its field's points in every group (as the main update added it), or
 * (taken: in a fused step, whose update hands them over, zlayer_terms) LTAKE(slot); then
 * corrected. */
static void emit_layer_body(struct buf *b, const struct kernel_desc *k, int taken)
{
    const char *ind = "                    ";
    struct layer_term t[LAYER_TERMS];
    layer_terms(k->component, k->axis, t);
    for (int q = 0; q < LAYER_TERMS; q++) {
        char field[8];
        snprintf(field, sizeof field, "S_%hhu", (unsigned char)q);
        if (taken) {
            put(b, "%sconst REAL t%d = LTAKE(%d);\n%sCORRECT(%d, t%d, %c);\n", ind, q, term_slot(k->axis, q), ind, q, q,
                t[q].minus ? '-' : '+');
            continue;
        }
        put(b, "%sconst REAL t%d = ", ind, q);
        for (int g = 0; g < k->s->ngroups; g++) {
            struct group_terms gt;
            expand_group(k->s, g, t[q].component, &gt);
            if (g) put(b, "\n%s    + ", ind);
            put(b, "COEF_%c(db%d_%d) * (", storage_letter(k), g, q);
            emit_points(b, field, t[q].minus ? gt.minus : gt.plus, gt.npoints);
            put(b, ")");
        }
        put(b, ";\n%sCORRECT(%d, t%d, %c);\n", ind, q, q, t[q].minus ? '-' : '+');
    }
}

/* ---- several nodes along z at once ($ZBODYn) ------------------------------------------ */

enum { MAX_ZNODES = 8 };

/* The points a $ZBODYn loads: field ('P' or 'M'; a fused body's '0'..'2', the source fields S0..S2
 * by axis) and offset, each loaded once. */
struct zloads {
    int n;
    char field[2 * MAX_GROUPS * 2 * MAX_SHIFTS * MAX_ZNODES];
    int d[2 * MAX_GROUPS * 2 * MAX_SHIFTS * MAX_ZNODES][3];
};

/* Whether another point of all (a body's loads) lies on the row of field f through d: the same
 * field, dj and dk, another di. */
static int zshared(const struct zloads *all, char f, const int d[3])
{
    for (int i = 0; i < all->n; i++)
        if (all->field[i] == f && all->d[i][1] == d[1] && all->d[i][2] == d[2] && all->d[i][0] != d[0]) return 1;
    return 0;
}

/* The rows of a $ZXBODYn whose vectors are carried from one x-vector to the next (ZROW_* in
 * kernels_cpu/regza.c.in): the first ZROW_MAX rows holding several of its points, each a field,
 * dj, dk and the lowest and highest di on it. A carried row costs one load a vector where it cost
 * one or two a point, and two vector registers for the whole loop. In cache on the AVX-512 EPYC
 * VM (one node along z) FV24-WB's loads fell from 45 to 21 a vector and its time by 39%; twelve
 * rows ran two nodes as fast as sixteen and faster than eight (docs/performance-notes.md). */
enum { ZROW_MAX = 12 };
struct zrows {
    int n;
    int shifted; /* a point on no carried row, of a row holding several: shifted from aligned blocks
                  * (LDX: regza), or its own load (the fused step's sweeps, where LDX's pairs ran
                  * FV24 at 0.6x in cache) */
    char field[ZROW_MAX];
    int dj[ZROW_MAX], dk[ZROW_MAX], lo[ZROW_MAX], hi[ZROW_MAX];
};

/* The carried row of r through point d of field f, or r->n if none. */
static int zrow_of(const struct zrows *r, char f, const int d[3])
{
    int q = 0;
    while (q < r->n && !(r->field[q] == f && r->dj[q] == d[1] && r->dk[q] == d[2])) q++;
    return q;
}

static void zrows_find(const struct zloads *all, int shifted, struct zrows *r)
{
    r->n = 0, r->shifted = shifted;
    for (int i = 0; i < all->n && r->n < ZROW_MAX; i++) {
        const char f = all->field[i];
        const int *d = all->d[i], q = zrow_of(r, f, d);
        if (q < r->n || !zshared(all, f, d)) continue;
        r->field[q] = f, r->dj[q] = d[1], r->dk[q] = d[2], r->lo[q] = r->hi[q] = d[0];
        for (int j = i + 1; j < all->n; j++)
            if (all->field[j] == f && all->d[j][1] == d[1] && all->d[j][2] == d[2]) {
                if (all->d[j][0] < r->lo[q]) r->lo[q] = all->d[j][0];
                if (all->d[j][0] > r->hi[q]) r->hi[q] = all->d[j][0];
            }
        if (r->hi[q] - r->lo[q] <= 8) r->n++; /* at most three vectors of eight doubles */
    }
}

/* The name's prefix of a body's field: S for a fused body's source fields S0..S2. */
static const char *zfield_prefix(char f) { return f >= '0' && f <= '9' ? "S" : ""; }

/* The carried row q's arguments to the ZROW_* macros after q and the array: dj, dk, lo, hi. */
static void put_zrow(struct buf *b, const struct zrows *r, int q)
{
    put(b, "%d, %d, %d, %d", r->dj[q], r->dk[q], r->lo[q], r->hi[q]);
}

/* The carried rows' first vectors, before the loop of bodies ($ZXPREn, a $FZSWEEPSn's PRE); and
 * their passing on, at a body's end. */
static void zrow_inits(struct buf *b, const struct zrows *r)
{
    for (int q = 0; q < r->n; q++)
        put(b, " ZROW_INIT(%d, %s%c, ", q, zfield_prefix(r->field[q]), r->field[q]), put_zrow(b, r, q), put(b, ")");
}
static void zrow_rotates(struct buf *b, const struct zrows *r)
{
    for (int q = 0; q < r->n; q++) put(b, "        ZROW_ROTATE(%d, ", q), put_zrow(b, r, q), put(b, ");\n");
}

/* The name (xN) of point d + (0, 0, r) of field f, emitting its load into b the first time:
 * LD(field, OFF(di, dj, dk)) ($ZBODYn: all NULL), or ($ZXBODYn, shared from all: the body's
 * loads, found by a first pass, which emits nothing: b NULL) ZROW on a carried row of rows (its
 * next vector, ZROW_NEXT, before its first point), else LDX. */
static int zload(struct buf *b, struct zloads *z, const struct zloads *all, const struct zrows *rows, char f,
                 const struct point *p, int r)
{
    const int d[3] = {p->d[0], p->d[1], p->d[2] + r};
    for (int i = 0; i < z->n; i++)
        if (z->field[i] == f && !memcmp(z->d[i], d, sizeof d)) return i;
    if (z->n == (int)sizeof z->field) emit_fail("too many points for $ZBODY");
    const char *s = zfield_prefix(f);
    const int q = rows ? zrow_of(rows, f, d) : 0;
    int first = 1; /* the row's first point loaded: its next vector first */
    for (int i = 0; i < z->n; i++) first &= !(z->field[i] == f && z->d[i][1] == d[1] && z->d[i][2] == d[2]);
    z->field[z->n] = f, memcpy(z->d[z->n], d, sizeof d);
    if (b && all && rows && q < rows->n) {
        if (first) put(b, "        ZROW_NEXT(%d, ", q), put_zrow(b, rows, q), put(b, ");\n");
        put(b, "        const VT x%d = ZROW(%d, %s%c, %d, ", z->n, q, s, f, d[0]), put_zrow(b, rows, q), put(b, ");\n");
    } else if (b && all)
        put(b, "        const VT x%d = LDX(%s%c, %d, %d, %d, %d);\n", z->n, s, f, d[0], d[1], d[2], rows->shifted && zshared(all, f, d));
    else if (b) put(b, "        const VT x%d = LD(%s%c, OFF(%d, %d, %d));\n", z->n, s, f, d[0], d[1], d[2]);
    return z->n++;
}

/* One pair difference of a $ZBODYn: (a - b) of field ('P' or 'M'), added to bracket g of node r. */
struct zterm {
    char field;
    int minus, g, r, order;
    struct point a, b;
};

/* Terms in the order of the rows they read, (dj, dk) of a then of b: the terms reading a row are
 * together, so that a row's loads are used while they are in registers. */
static int zterm_cmp(const void *x, const void *y)
{
    const struct zterm *s = x, *t = y;
    const int ks[5] = {s->field, s->a.d[2], s->a.d[1], s->b.d[2], s->b.d[1]},
              kt[5] = {t->field, t->a.d[2], t->a.d[1], t->b.d[2], t->b.d[1]};
    for (int i = 0; i < 5; i++)
        if (ks[i] != kt[i]) return ks[i] < kt[i] ? -1 : 1;
    return s->order - t->order;
}

static void zlayer_terms(struct buf *b, const struct kernel_desc *k, int q, int nodes);

/* A body's plus and minus fields and its names' suffix: the kernel's component's (q < 0): P and M,
 * none; a fused body's component q: its source fields by axis, '0'..'2' (declared S0..S2), "_q". */
static void zcomponent(const struct kernel_desc *k, int q, char field[2], char sfx[8])
{
    field[0] = 'P', field[1] = 'M', sfx[0] = '\0';
    if (q < 0) return;
    int plus, pa, minus, ma;
    component_sources(k->component + q, &plus, &pa, &minus, &ma);
    field[0] = (char)('0' + plus % 3), field[1] = (char)('0' + minus % 3);
    snprintf(sfx, 8, "_%hhu", (unsigned char)q);
}

/* The body's terms, in row order, into t; their number: of the kernel's component (q < 0), or of a
 * fused body's component q, from its fields (zcomponent). */
static int zterms(const struct kernel_desc *k, int q, const char field[2], int nodes, struct zterm *t)
{
    int n = 0;
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms gt;
        expand_group(k->s, g, k->component + (q > 0 ? q : 0), &gt);
        for (int r = 0; r < nodes; r++)
            for (int f = 0; f < 2; f++)
                for (int i = 0; i < gt.npoints; i += 2) {
                    const struct point *p = f ? gt.minus : gt.plus;
                    t[n] = (struct zterm){field[f], f, g, r, n, p[i], p[i + 1]};
                    t[n].a.d[2] += r, t[n].b.d[2] += r;
                    n++;
                }
    }
    qsort(t, (size_t)n, sizeof *t, zterm_cmp);
    return n;
}

/* The body: the terms in row order, each point loaded where first needed (into z; with all NULL,
 * a first pass that only finds the loads), each pair difference added to (plus field) or taken
 * from (minus field) its bracket gG_r, one running sum a bracket. With a sum a bracket and field,
 * FV24's four-node body kept 32 sums live, all of AVX-512's registers: 17 spill stores a vector.
 * A fused body's component q (q >= 0): its brackets gG_q_r; where it hands the layer its terms
 * (layer_hands_terms), a sum a field (pG_q_r, mG_q_r), gG_q_r their difference, and the terms
 * (zlayer_terms). */
static void zbody_pass(struct buf *b, const struct kernel_desc *k, int q, int nodes, struct zloads *z,
                       const struct zloads *all, const struct zrows *rows)
{
    static struct zterm t[2 * MAX_GROUPS * MAX_ZNODES * 2 * MAX_SHIFTS];
    char field[2], sfx[8];
    zcomponent(k, q, field, sfx);
    const int n = zterms(k, q, field, nodes, t), hands = q >= 0 && layer_hands_terms(k);
    int started[2][MAX_GROUPS][MAX_ZNODES] = {{{0}}};
    z->n = 0;
    for (int i = 0; i < n; i++) {
        struct buf *out = all ? b : NULL; /* the first pass emits nothing */
        const int xa = zload(out, z, all, rows, t[i].field, &t[i].a, 0),
                  xb = zload(out, z, all, rows, t[i].field, &t[i].b, 0);
        if (!all) continue;
        const int minus = t[i].minus, g = t[i].g, r = t[i].r, f = hands && minus;
        const char name = hands ? "pm"[minus] : 'g';
        if (started[f][g][r]) put(b, "        %c%d%s_%d %s (x%d - x%d);\n", name, g, sfx, r, minus && !hands ? "-=" : "+=", xa, xb);
        else if (hands || !minus) put(b, "        VT %c%d%s_%d = (x%d - x%d);\n", name, g, sfx, r, xa, xb);
        else put(b, "        VT g%d%s_%d = (x%d - x%d);\n", g, sfx, r, xb, xa); /* exact negation */
        started[f][g][r] = 1;
    }
    for (int g = 0; hands && all && g < k->s->ngroups; g++)
        for (int r = 0; r < nodes; r++) put(b, "        const VT g%d%s_%d = p%d%s_%d - m%d%s_%d;\n", g, sfx, r, g, sfx, r, g, sfx, r);
    if (hands && all) zlayer_terms(b, k, q, nodes);
}

/* The nodes' updates after the brackets (values), or their stores; a fused body's (q >= 0) of its
 * component q: names with _q (da0_q, L0_q, gG_q_r, vq_r), stored as ZSTORE(O_q, r, v). */
static void emit_znodes(struct buf *b, const struct kernel_desc *k, int q, int nodes, int values)
{
    const char c = storage_letter(k);
    char sfx[8] = "", v[8] = "v";
    if (q >= 0) snprintf(sfx, sizeof sfx, "_%hhu", (unsigned char)q), snprintf(v, sizeof v, "v%hhu_", (unsigned char)q);
    const int terms = q >= 0 && layer_hands_terms(k); /* zlayer_terms */
    for (int r = 0; r < nodes && values; r++) {
        put(b, "        const VT %s%d = ", v, r);
        for (int l = 0; l < k->s->levels; l++)
            put(b, "%sZCOEF_%c(da%d%s, %d) * LD(L%d%s, OFF(0, 0, %d))", l ? " + " : "", c, l, sfx, r, l, sfx, r);
        if (terms) put(b, " + (LTERMS ? tp%s_%d - tm%s_%d : ", sfx, r, sfx, r);
        for (int g = 0; g < k->s->ngroups; g++)
            put(b, "%sZCOEF_%c(db%d%s, %d) * g%d%s_%d", g || !terms ? " + " : "", c, g, sfx, r, g, sfx, r);
        put(b, "%s;\n", terms ? ")" : "");
    }
    for (int r = 0; r < nodes && !values; r++)
        if (q >= 0) put(b, "        ZSTORE(O_%d, %d, %s%d);\n", q, r, v, r);
        else put(b, "        ZSTORE(%d, %s%d);\n", r, v, r);
}

/* $ZXBODYn: the body in row order (zbody_pass), each point as ZROW on a carried row, else LDX,
 * the carried rows passed on (ZROW_ROTATE) at its end; $ZXPREn: their first vectors (ZROW_INIT),
 * before the loop of bodies. */
static void emit_zxbody(struct buf *b, const struct kernel_desc *k, int nodes, int pre)
{
    if (nodes < 1 || nodes > MAX_ZNODES) emit_fail("template: $ZXBODY%d: 1 to %d nodes", nodes, MAX_ZNODES);
    static struct zloads all, z; /* large; the generator is single-threaded */
    struct zrows rows;
    zbody_pass(b, k, -1, nodes, &all, NULL, NULL);
    zrows_find(&all, 1, &rows);
    if (pre) {
        zrow_inits(b, &rows);
        return;
    }
    zbody_pass(b, k, -1, nodes, &z, &all, &rows);
    emit_znodes(b, k, -1, nodes, 1);
    emit_znodes(b, k, -1, nodes, 0);
    zrow_rotates(b, &rows);
}

/* A balanced sum of the pair differences (x[2t] - x[2t+1]) of ids[lo..hi), hi - lo even: fewer
 * dependent adds than a running sum. */
static void zsum(struct buf *b, const int *ids, int lo, int hi)
{
    if (hi - lo == 2) {
        put(b, "(x%d - x%d)", ids[lo], ids[lo + 1]);
        return;
    }
    int mid = lo + (hi - lo) / 4 * 2;
    if (mid == lo) mid += 2;
    put(b, "(");
    zsum(b, ids, lo, mid);
    put(b, " + ");
    zsum(b, ids, mid, hi);
    put(b, ")");
}

/* A fused body's hand-over of the CPML terms (layer_hands_terms), after component q's brackets: per
 * node r its two curl terms, tp_q_r = sum_g ZCOEF_x(dbG_q, r) * pG_q_r (the plus field's sums) and
 * tm_q_r likewise of the minus field's. Where the template sets LTERMS, the update is then da L +
 * tp - tm (emit_znodes): two sums cost what one did, where the terms summed beside the update's
 * own sum had cost it a third more instructions (FV24 at 100^3); elsewhere tp and tm are dead code
 * and the update is the plain one. */
static void zlayer_terms(struct buf *b, const struct kernel_desc *k, int q, int nodes)
{
    for (int r = 0; r < nodes; r++)
        for (int f = 0; f < 2; f++) {
            put(b, "        const VT t%c_%d_%d = ", "pm"[f], q, r);
            for (int g = 0; g < k->s->ngroups; g++)
                put(b, "%sZCOEF_%c(db%d_%d, %d) * %c%d_%d_%d", g ? " + " : "", storage_letter(k), g, q, r, "pm"[f], g, q, r);
            put(b, ";\n");
        }
}

/* ... and, after the body's stores, each as LTERM(slot, r, term) (term_slot: by the axis it is
 * differentiated along). */
static void zlayer_stores(struct buf *b, const struct kernel_desc *k, int q, int nodes)
{
    for (int axis = 0; axis < 3; axis++) {
        struct layer_term t[LAYER_TERMS];
        layer_terms(k->component, axis, t);
        for (int u = 0; u < LAYER_TERMS; u++)
            for (int r = 0; t[u].component == k->component + q && r < nodes; r++)
                put(b, "        LTERM(%d, %d, t%c_%d_%d);\n", term_slot(axis, u), r, t[u].minus ? 'm' : 'p', q, r);
    }
}

/* The brackets of `nodes` nodes along z, group by group, each point as LD where first needed (z:
 * the loads so far, which the brackets share) and each bracket a balanced sum: gG_r of fields P
 * and M ($ZBODYn: q < 0), or a fused body's gG_q_r of component q of its half-step, from its
 * source fields S0..S2 by axis; where the update hands the layer its terms (layer_hands_terms)
 * its halves named (pG_q_r, mG_q_r) and the terms summed from them (zlayer_terms). */
static void zbrackets(struct buf *b, const struct kernel_desc *k, int q, int nodes, struct zloads *z)
{
    char field[2], sfx[8];
    zcomponent(k, q, field, sfx);
    const char pf = field[0], mf = field[1];
    const int hands = q >= 0 && layer_hands_terms(k);
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms t;
        expand_group(k->s, g, k->component + (q > 0 ? q : 0), &t);
        for (int r = 0; r < nodes; r++) {
            int p[2 * MAX_SHIFTS], m[2 * MAX_SHIFTS];
            for (int i = 0; i < t.npoints; i++) p[i] = zload(b, z, NULL, NULL, pf, &t.plus[i], r);
            for (int i = 0; i < t.npoints; i++) m[i] = zload(b, z, NULL, NULL, mf, &t.minus[i], r);
            if (hands) {
                put(b, "        const VT p%d%s_%d = ", g, sfx, r);
                zsum(b, p, 0, t.npoints);
                put(b, ", m%d%s_%d = ", g, sfx, r);
                zsum(b, m, 0, t.npoints);
                put(b, ";\n        const VT g%d%s_%d = p%d%s_%d - m%d%s_%d;\n", g, sfx, r, g, sfx, r, g, sfx, r);
                continue;
            }
            put(b, "        const VT g%d%s_%d = ", g, sfx, r);
            zsum(b, p, 0, t.npoints);
            put(b, " - ");
            zsum(b, m, 0, t.npoints);
            put(b, ";\n");
        }
    }
    if (hands) zlayer_terms(b, k, q, nodes);
}

/* $ZBODYn (one component) or a fused one (the three of a half-step, every point of the three loaded
 * once: emit_zsweeps' one sweep): the brackets (zbrackets), then the nodes' updates, then their
 * stores. */
static void emit_zbody(struct buf *b, const struct kernel_desc *k, int nodes, int fused)
{
    if (nodes < 1 || nodes > MAX_ZNODES) emit_fail("template: $%sZBODY%d: 1 to %d nodes", fused ? "F" : "", nodes, MAX_ZNODES);
    static struct zloads z; /* large; the generator is single-threaded */
    z.n = 0;
    for (int q = fused ? 0 : -1; q < (fused ? 3 : 0); q++) zbrackets(b, k, q, nodes, &z);
    for (int values = 1; values >= 0; values--)
        for (int q = fused ? 0 : -1; q < (fused ? 3 : 0); q++) emit_znodes(b, k, q, nodes, values);
    for (int q = 0; fused && layer_hands_terms(k) && q < 3; q++) zlayer_stores(b, k, q, nodes);
}

/* ZNEXT_ROW(field, dj, dk) for each source field that all reads and no earlier sweep prefetched
 * (done), at each dk it reads: the row after its farthest along y, the one the next pass along y
 * reads first. */
static void znext_sources(struct buf *b, const struct zloads *all, int done[3])
{
    for (int f = 0; f < 3; f++) {
        int far = INT_MIN, dk[2 * MAX_SHIFTS * MAX_ZNODES], ndk = 0;
        for (int i = 0; i < all->n; i++) {
            if (all->field[i] != '0' + f) continue;
            if (all->d[i][1] > far) far = all->d[i][1];
            int seen = 0;
            for (int t = 0; t < ndk; t++) seen |= dk[t] == all->d[i][2];
            if (!seen) dk[ndk++] = all->d[i][2];
        }
        if (!ndk || done[f]) continue;
        done[f] = 1;
        for (int t = 0; t < ndk; t++) put(b, "        ZNEXT_ROW(S%d, %d, %d);\n", f, far + 1, dk[t]);
    }
}

/* $FZSWEEPSn: a fused half-step's update of a run of a pass's rows as FUSED_SWEEP((PRE), (BODY))
 * sweeps of its vectors. A sweep per component, so that its rows fit the registers and are carried
 * along x (aligned_row.h) where the three's did not (FV24: 38 source rows, 35 holding several
 * points; with twelve carried, 781 spill instructions): PRE its carried rows' first vectors, BODY
 * its terms in row order (zbody_pass) with each point as ZROW on a carried row, else LD, then its
 * nodes' updates and stores, its CPML terms handed over, the next pass's first lines prefetched
 * (ZNEXT, ZNEXT_ROW: fused_row.h), its rows passed on. On the AVX-512 EPYC VM, 300^3, two threads,
 * uniform / indexed coefficients, medians of three alternated rounds: FV24 1.25x / 1.31x, S{2,2}
 * 1.27x / 1.27x, FV24-WB 1.04x / 0.98x the one sweep. With coefficient arrays, one sweep of the
 * three components (emit_zbody: every point loaded once; the sweeps ran 1.35-1.65x in cache but
 * 0.75-0.85x at 300^3, prefetching or not), and so for a scheme with a component that has no row
 * to carry (Yee, S44: the sweeps would only read the fields three times).
 * docs/performance-notes.md has the measurements. */
static void emit_zsweeps(struct buf *b, const struct kernel_desc *k, int nodes)
{
    if (nodes < 1 || nodes > MAX_ZNODES) emit_fail("template: $FZSWEEPS%d: 1 to %d nodes", nodes, MAX_ZNODES);
    static struct zloads all[3], z; /* large; the generator is single-threaded */
    struct zrows rows[3];
    int apart = k->coef != COEF_ARRAY;
    for (int q = 0; q < 3; q++) {
        zbody_pass(b, k, q, nodes, &all[q], NULL, NULL); /* finds the loads, the rows to carry among them */
        zrows_find(&all[q], 0, &rows[q]);
        apart &= rows[q].n > 0;
    }
    if (!apart) {
        put(b, "FUSED_SWEEP((), (\n");
        emit_zbody(b, k, nodes, 1);
        put(b, "))\n");
        return;
    }
    int prefetched[3] = {0};
    for (int q = 0; q < 3; q++) {
        put(b, "FUSED_SWEEP((");
        zrow_inits(b, &rows[q]);
        put(b, "), (\n");
        zbody_pass(b, k, q, nodes, &z, &all[q], &rows[q]);
        emit_znodes(b, k, q, nodes, 1);
        emit_znodes(b, k, q, nodes, 0);
        if (layer_hands_terms(k)) zlayer_stores(b, k, q, nodes);
        for (int r = 0; r < nodes; r++) {
            put(b, "        ZNEXT(O_%d, %d);\n", q, r);
            for (int l = 0; l < k->s->levels; l++) put(b, "        ZNEXT(L%d_%d, %d);\n", l, q, r);
        }
        znext_sources(b, &all[q], prefetched);
        zrow_rotates(b, &rows[q]);
        put(b, "))\n");
    }
}

/* $ZPOINTS: the source points of one node, both fields, as initializers "{di, dj, dk}, ...". */
static void emit_zpoints(struct buf *b, const struct kernel_desc *k)
{
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms t;
        expand_group(k->s, g, k->component, &t);
        for (int i = 0; i < 2 * t.npoints; i++) {
            const struct point *p = i < t.npoints ? &t.plus[i] : &t.minus[i - t.npoints];
            put(b, "{%d, %d, %d}, ", p->d[0], p->d[1], p->d[2]);
        }
    }
}

void kernel_name(char *out, size_t n, const struct kernel_desc *k)
{
    if (k->traits->layer)
        snprintf(out, n, "l_%s_%s_%c_%s_%s_%s%s", k->s->name, k->component == HX ? "h" : "e", "xyz"[k->axis],
                 precision_names[k->precision], coef_names[k->coef], k->variant, k->device ? k->device : "");
    else
        snprintf(out, n, "k_%s_%s_%s_%s_%s%s", k->s->name, component_names[k->component], precision_names[k->precision],
                 coef_names[k->coef], k->variant, k->device ? k->device : "");
}

const char *const component_enum[NCOMPONENTS] = {"HX", "HY", "HZ", "EX", "EY", "EZ"};

/* Copies text to out, replacing each $WORD it knows. In a prologue (k->s NULL) only the
 * variant's own words, $VARIANT and $MAXTHREADS, mean anything. */
static void fill(struct buf *out, const char *text, size_t len, const struct kernel_desc *k)
{
    char name[128] = "";
    if (k->s) kernel_name(name, sizeof name, k);
    for (size_t i = 0; i < len;) {
        if (text[i] != '$') { put(out, "%c", text[i++]); continue; }
        size_t j = i + 1;
        while (j < len && (text[j] >= 'A' && text[j] <= 'Z')) j++;
        char word[32];
        size_t wl = j - i - 1;
        if (wl == 0 || wl >= sizeof word) { put(out, "$"); i++; continue; }
        memcpy(word, text + i + 1, wl);
        word[wl] = '\0';
        if (!k->s && strcmp(word, "VARIANT") && strcmp(word, "MAXTHREADS"))
            emit_fail("template: $%s means nothing in a prologue (only $VARIANT and $MAXTHREADS)", word);
        if (!strcmp(word, "NAME")) put(out, "%s", name);
        else if (!strcmp(word, "ENTRY")) put(out, "%s_run", name);
        else if (!strcmp(word, "SCHEME")) put(out, "%s", k->s->name);
        else if (!strcmp(word, "COMPONENT")) put(out, "%s", component_enum[k->component]);
        else if (!strcmp(word, "PRECISION")) put(out, "%s", k->precision == F32 ? "F32" : "F64");
        else if (!strcmp(word, "COEF")) put(out, "%s", coef_enum[k->coef]);
        else if (!strcmp(word, "VARIANT")) put(out, "%s", k->variant);
        else if (!strcmp(word, "ARRAY")) put(out, "%d", k->coef == COEF_ARRAY);
        else if (!strcmp(word, "INDEXED")) put(out, "%d", k->coef == COEF_INDEXED);
        else if (!strcmp(word, "LEVELS")) put(out, "%d", k->s->levels);
        else if (!strcmp(word, "NCOEFS")) put(out, "%d", coef_count(k->s));
        else if (!strcmp(word, "REAL")) put(out, "%s", k->precision == F32 ? "float" : "double");
        else if (!strcmp(word, "ROWS")) put(out, "%d", default_rows(k->traits, k->coef));
        else if (!strcmp(word, "STAGES")) put(out, "%d", k->traits->stages);
        else if (!strcmp(word, "BLOCKX")) put(out, "%d", k->traits->block[0] ? k->traits->block[0] : 32);
        else if (!strcmp(word, "BLOCKY")) put(out, "%d", k->traits->block[1] ? k->traits->block[1] : 1);
        else if (!strcmp(word, "DEFNODES")) put(out, "%d", k->traits->nodes);
        else if (!strcmp(word, "MAXTHREADS")) put(out, "%d", k->traits->max_threads ? k->traits->max_threads : 1024);
        else if (!strcmp(word, "DECLS")) emit_decls(out, k);
        else if (!strcmp(word, "BRACKETS")) emit_brackets(out, k);
        else if (!strcmp(word, "NODES") || !strcmp(word, "FNODES")) emit_nodes(out, k, word[0] == 'F');
        else if (!strcmp(word, "NNODE") || !strcmp(word, "FNNODE")) put(out, "%d", node_array_count(k, word[0] == 'F'));
        else if (!strcmp(word, "UPDATE")) emit_update(out, k);
        else if (!strcmp(word, "BOXES") || !strcmp(word, "FBOXES")) emit_boxes(out, k, word[0] == 'F');
        else if (!strcmp(word, "FDECLS")) emit_fused_decls(out, k);
        else if (!strcmp(word, "FRUNCOEFS")) emit_run_coefs(out, k);
        else if (!strcmp(word, "FBODY")) emit_fused_body(out, k);
        else if ((word[0] == 'H' || word[0] == 'E') &&
                 (!strcmp(word + 1, "FDECLS") || !strcmp(word + 1, "FBODY") || !strcmp(word + 1, "FBOXES"))) {
            struct kernel_desc x = *k; /* that half-step's, whichever this kernel's entry is */
            x.component = word[0] == 'H' ? HX : EX;
            if (!strcmp(word + 1, "FDECLS")) emit_fused_decls(out, &x);
            else if (!strcmp(word + 1, "FBODY")) emit_fused_body(out, &x);
            else {
                static const char *const names[2][3] = {{"HS0", "HS1", "HS2"}, {"ES0", "ES1", "ES2"}};
                int lo[3][3], hi[3][3];
                put_boxes(out, source_boxes(&x, 1, lo, hi), names[word[0] == 'E'], lo, hi);
                put(out, "\n    [[maybe_unused]] constexpr bool %cTOP_COLUMN = %s;", word[0],
                    top_plane_on_column(&x) ? "true" : "false");
            }
        }
        else if (!strcmp(word, "AXIS") && k->traits->layer) put(out, "%d", k->axis);
        else if (!strcmp(word, "LCOMPS") && k->traits->layer) {
            struct layer_term t[LAYER_TERMS];
            layer_terms(k->component, k->axis, t);
            for (int q = 0; q < LAYER_TERMS; q++) put(out, "%s%s", q ? ", " : "", component_enum[t[q].component]);
        }
        else if (!strcmp(word, "LDECLS") && k->traits->layer) emit_layer_decls(out, k, 0);
        else if (!strcmp(word, "LBODY") && k->traits->layer) emit_layer_body(out, k, 0);
        else if ((!strcmp(word + 1, "LDECLS") || !strcmp(word + 1, "LBODY")) && strchr("XYZ", word[0]) &&
                 k->traits->layer_fold) {
            struct kernel_desc x = *k; /* the layer's pass along that axis, of this half-step */
            x.axis = word[0] - 'X';
            (word[2] == 'D' ? emit_layer_decls : emit_layer_body)(out, &x, layer_hands_terms(k));
        }
        else if (!strcmp(word, "LHANDS") && k->traits->layer_fold) put(out, "%d", layer_hands_terms(k));
        else if ((!strcmp(word, "ZBODY") || !strcmp(word, "ZXBODY") || !strcmp(word, "ZXPRE") ||
                  !strcmp(word, "FZSWEEPS")) && j < len && text[j] >= '0' && text[j] <= '9') {
            int nodes = 0;
            while (j < len && text[j] >= '0' && text[j] <= '9') nodes = nodes * 10 + (text[j++] - '0');
            if (word[1] == 'X') emit_zxbody(out, k, nodes, word[2] == 'P');
            else if (word[0] == 'F') emit_zsweeps(out, k, nodes);
            else emit_zbody(out, k, nodes, 0);
        } else if (!strcmp(word, "ZPOINTS")) emit_zpoints(out, k);
        else emit_fail("template: unknown placeholder $%s", word);
        i = j;
    }
}

/* ---- templates ------------------------------------------------------------------- */

static void parse_traits(const char *path, const char *words, struct traits *t)
{
    memset(t, 0, sizeof *t);
    char w[64];
    for (int used = 0; sscanf(words, "%63s%n", w, &used) == 1; words += used) {
        int *b = t->block;
        if (!strcmp(w, "marches")) t->marches = 1;
        else if (!strcmp(w, "flat")) t->flat = 1;
        else if (!strcmp(w, "accepts")) t->accepts = 1;
        else if (!strcmp(w, "indexed")) t->indexed = 1;
        else if (!strcmp(w, "halo")) t->halo_axes = 3;
        else if (!strcmp(w, "halo_x")) t->halo_axes = 1;
        else if (!strcmp(w, "planes")) t->planes = 1, t->halo_axes = 2;
        else if (!strcmp(w, "passes")) t->passes = 1, t->halo_axes = 3;
        else if (!strcmp(w, "strides")) t->strides = 1;
        else if (!strcmp(w, "layer_fold")) t->layer_fold = 1;
        else if (sscanf(w, "max_threads=%d", &t->max_threads) == 1 && t->max_threads > 0) continue;
        else if (sscanf(w, "nodes=%d", &t->nodes) == 1 && t->nodes > 0) continue;
        else if (sscanf(w, "rows=%d,%d", &t->rows[0], &t->rows[1]) == 2 && t->rows[0] > 0 && t->rows[1] > 0) continue;
        else if (sscanf(w, "stages=%d", &t->stages) == 1 && t->stages > 0) continue;
        else if (sscanf(w, "block=%dx%dx%d", &b[0], &b[1], &b[2]) == 3 && b[0] > 0 && b[1] > 0 && b[2] > 0) continue;
        else emit_fail("%s: unknown or malformed trait '%s'", path, w);
    }
    if (!t->nodes) t->nodes = 1;
    if (t->flat && t->block[2] > 1) emit_fail("%s: a flat variant's default block needs a z extent of 1", path);
}

/* The variant named by the file: kernels_gpu/tile25d.cu.in is variant tile25d. */
static void variant_of_path(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(out, n, "%.*s", (int)strcspn(base, "."), base);
}

void template_parse(struct template *t, const char *path, const char *text)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    if (!(t->text = strdup(text))) emit_fail("out of memory");
    t->step = strlen(path) > 5 && !strcmp(path + strlen(path) - 5, ".step");
    t->layer = strlen(path) > 6 && !strcmp(path + strlen(path) - 6, ".layer");
    if (t->step) t->device = strstr(path, ".cu.step") ? "_gpu" : "_cpu";
    if (t->layer) t->device = strstr(path, ".cu.layer") ? "_gpu" : "_cpu";
    const char **cur = NULL;
    size_t *cur_len = NULL;
    for (char *line = t->text; *line;) {
        char *eol = strchr(line, '\n');
        char *next = eol ? eol + 1 : line + strlen(line);
        if (strncmp(line, "//@@ ", 5) == 0) {
            char header[256], kind[32] = "", *rest;
            snprintf(header, sizeof header, "%.*s", (int)(next - line - 5), line + 5); /* this line only */
            header[strcspn(header, "\r\n")] = '\0';
            if (sscanf(header, "%31s", kind) != 1) emit_fail("%s: empty //@@ line", path);
            rest = header + strspn(header, " ") + strlen(kind);
            if (!strcmp(kind, "prologue") && !t->prologue) cur = &t->prologue, cur_len = &t->prologue_len;
            else if (!strcmp(kind, "kernel") && !t->kernel) {
                char variant[32] = "", file_variant[32];
                if (sscanf(rest, "%31s", variant) != 1) emit_fail("%s: '//@@ kernel' needs a variant name", path);
                variant_of_path(path, file_variant, sizeof file_variant);
                if (strcmp(variant, file_variant))
                    emit_fail("%s: a template is named after its variant: '%s' belongs in %s.*.in", path, variant, variant);
                strcpy(t->variant, variant);
                parse_traits(path, rest + strspn(rest, " ") + strlen(variant), &t->traits);
                cur = &t->kernel, cur_len = &t->kernel_len;
            } else emit_fail("%s: unexpected section '%s' (one prologue, then one kernel)", path, kind);
            *cur = next;
        } else if (cur) {
            *cur_len = (size_t)(next - *cur);
        }
        line = next;
    }
    if (!t->kernel) emit_fail("%s: needs a '//@@ kernel VARIANT' section", path);
    t->traits.layer = t->layer;
}

void template_free(struct template *t)
{
    free(t->text);
    t->text = NULL;
}

void put_prologue(const struct template *t, struct buf *b)
{
    const struct kernel_desc none = {.variant = t->variant, .traits = &t->traits};
    fill(b, t->prologue, t->prologue_len, &none);
}

void put_kernel(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    fill(b, t->kernel, t->kernel_len, k);
}

const struct template *template_find(struct template *parsed, int n, const char *const *names,
                                     const char *const *texts, const char *variant, int step, int layer)
{
    for (int i = 0; i < n; i++) {
        if (!parsed[i].text) template_parse(&parsed[i], names[i], texts[i]);
        if (!strcmp(parsed[i].variant, variant) && parsed[i].step == step && parsed[i].layer == layer) return &parsed[i];
    }
    emit_fail("no template for variant %s in this build", variant);
}

char *kernel_source(const struct kernel_desc *k, const struct template *t)
{
    char name[128];
    struct buf b = {0};
    kernel_name(name, sizeof name, k);
    put(&b, "/* %s, generated from %s and %s; compiled at run time by fdtdbench. */\n", name, t->path, k->s->file);
    put_prologue(t, &b);
    put_kernel(k, t, &b);
    const char *bad = getenv("FDTDBENCH_TEST_BAD_KERNEL");
    if (bad && bad[0] && strstr(name, bad)) put(&b, "\nthis line is a syntax error planted by FDTDBENCH_TEST_BAD_KERNEL\n");
    return b.s;
}
