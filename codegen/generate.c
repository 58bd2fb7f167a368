/* The kernel generator: turns spec files into kernel source by filling backend templates.
 *
 *   generate variant TEMPLATE OUT SPEC...          one variant's kernels, every scheme x component
 *                                                  x precision x storage, in one source file; a
 *                                                  step template's (*.step): scheme x {H, E} x
 *                                                  precision x storage
 *   generate table DEVICE OUT TEMPLATE... SPEC...  DEVICE_kernel_table[] and DEVICE_fused_table[]
 *                                                  (the step templates'): one entry per kernel,
 *                                                  with the variant's traits (plain C)
 *   generate one TEMPLATE SCHEME COMPONENT PRECISION COEF SPEC...
 *                                                  one kernel as a translation unit of its own,
 *                                                  headed by its counts (make kernel)
 *   generate sources OUT SPEC...                   the spec files' text, embedded in the binary
 *
 * A step template (kernels_cpu/fused.c.step, kernels_gpu/fused*.cu.step) is a variant of the
 * step engine's: it updates the three components of a half-step in one kernel given kernel_args
 * a[0..2], and its entries stand at HX and EX. Its kernel section uses $FDECLS (DECL_LEVEL(name,
 * q, l), DECL_OUT(name, q), DECL_COEF_x(name, q, da|db, idx), and DECL_SRC(name, q, plus|minus)
 * for the three source fields S0..S2 by axis, each declared once) and $FBODY (the brackets gG_Q
 * and the new value vQ of each component Q, the node's own level read as LEVEL(Ll_Q), then the
 * three stores STORE(O_Q, Q, vQ)), with $COMPONENT the half-step's first component; a tiled one
 * also $FBOXES (S0_X0 .. S2_Z1, as $BOXES), $FNNODE and $FNODES (as $NNODE and $NODES, over the
 * three components: N_L0_0, N_da0_0, ...).
 *
 * A template (kernels_cpu/NAME.c.in, kernels_gpu/NAME.cu.in) is one variant, self-contained:
 * a "//@@ prologue" section (includes and the macros its kernels spell loads with), then one
 * "//@@ kernel VARIANT TRAIT..." section, emitted once per kernel. The file is named after its
 * variant. The traits say what launches the variant takes, for the harness and the tuner:
 *   marches       each thread (or block) updates kernel_args.nodes consecutive nodes along z
 *   indexed       the variant also takes indexed coefficients (a material byte per node into a
 *                 table per coefficient): DECL_COEF_I(name, da|db, idx) and COEF_I(name)
 *   halo          (fused) the kernel also writes its outputs' whole halo (kernel_args.boundary):
 *                 no refresh after it
 *   halo_x        the kernel refreshes its output's halo along x itself (kernel_args.boundary):
 *                 the caller refreshes y and z
 *   flat          the block's z extent must be 1
 *   accepts       the template defines int $ENTRY_accepts(const struct kernel_args *, char *why,
 *                 size_t n): 0, or -1 saying why this launch cannot run (checked before launch)
 *   max_threads=N at most N threads per block
 *   block=BXxBYxBZ  the launch to use where nothing was tuned;   nodes=N  likewise
 *   rows=A,U      the variant's threads update rows of nodes (kernel_args.rows, adjacent in y):
 *                 where nothing was tuned, A with coefficient arrays, U without (accepts() says
 *                 which row counts a kernel was compiled for)
 *   stages=N      the variant pipelines its loads, kernel_args.stages planes ahead: N where
 *                 nothing was tuned (accepts() says which depths it was compiled for)
 * In a kernel section these words are replaced:
 *   $NAME      the kernel's name; $ENTRY its entry point (kernel_fn, C linkage), $NAME_run
 *   $SCHEME $COMPONENT $PRECISION $COEF $VARIANT  as in the kernel table; $REAL float|double
 *   $ARRAY     1 for array coefficients, 0 for uniform and indexed ones (for #if)
 *   $INDEXED   1 for indexed coefficients, 0 for the others (for #if)
 *   $MAXTHREADS  the max_threads trait (1024 if not given), for __launch_bounds__
 *   $ROWS      the kernel's default rows per thread (rows= for its storage; 0 if not given)
 *   $STAGES    the variant's default pipeline depth (stages=; 0 if not given)
 *   $DECLS     declarations of the inputs, through the template's macros DECL_LEVEL(name, l),
 *              DECL_SRC(name, plus|minus), DECL_COEF_A(name, da|db, idx) for coefficient
 *              arrays and DECL_COEF_U(name, da|db, idx) for uniform ones
 *   $BRACKETS  every source point loaded first, as LD(array, OFF(di, dj, dk)) into a named
 *              constant, one pair per line; then one statement per group:
 *              const REAL gG = (<plus pairs' differences>) - (<minus pairs' differences>);
 *   $NNODE     how many arrays are read at the node itself: its time levels and, with array
 *              coefficients, the coefficient arrays (a variant that streams them, tile25d)
 *   $NODES     those arrays, for such a variant: "enum { N_L0, N_da0, ... };" their ordinals,
 *              and "const REAL *const node_src[$NNODE] = {L0, da0, ...};" their pointers
 *   $BOXES     the bounding box of each source field's points, as constants a tiled variant
 *              sizes its shared memory by: constexpr int P_X0 = .., P_X1, P_Y0, P_Y1, P_Z0,
 *              P_Z1, and M_X0 .. M_Z1 for the minus field (offsets, inclusive)
 *   $UPDATE    the new value: sum_l COEF_x(daL)*LD(LL, OFF(0, 0, 0)) + sum_g COEF_x(dbG)*gG
 *   $ZBODYn    the update of n nodes along z at once, node r at OFF(0, 0, r) (n a number: $ZBODY4),
 *              each distinct source point loaded once, as const VT xN = LD(array, OFF(..)), where
 *              first needed; per group and node the bracket gG_r (a balanced sum of pair
 *              differences); the new values vr = sum_l ZCOEF_x(daL, r)*LD(LL, OFF(0, 0, r)) +
 *              sum_g ZCOEF_x(dbG, r)*gG_r; then every ZSTORE(r, vr), after all loads (in place, a
 *              node's level is read before any node is written). VT is the template's type in
 *              scope (a vector, or a scalar for a remainder)
 * so the backend decides how a load, an offset and a coefficient are spelled. */
#include "design.h"
#include "embed.h"
#include "spec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("generate: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) die("cannot read %s", path);
    buf[n] = '\0';
    fclose(f);
    const char *nul = memchr(buf, '\0', (size_t)n); /* would silently cut the text short */
    if (nul) {
        int line = 1;
        for (const char *c = buf; c < nul; c++) line += *c == '\n';
        die("%s:%d: NUL byte (a spec file is text)", path, line);
    }
    return buf;
}

/* A growable string. */
struct buf { char *s; size_t len, cap; };

static void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) die("format error");
        if (b->s && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s) die("out of memory");
    }
}

/* ---- the pieces of one kernel ------------------------------------------------------ */

/* What a variant's header line declares (see the top of this file). */
struct traits {
    int marches, flat, accepts, indexed, halo_axes, max_threads, block[3], nodes;
    int rows[2]; /* default rows per thread: with coefficient arrays, without; 0: one, no other */
    int stages;  /* default pipeline depth; 0: no pipeline */
};

/* A kernel's default rows per thread (its variant's rows=A,U for its storage), 0 for none. */
static int default_rows(const struct traits *t, int coef) { return t->rows[coef == COEF_ARRAY ? 0 : 1]; }

struct kernel_desc {
    const struct scheme *s;
    int component, precision, coef;
    const char *variant;
    const struct traits *traits;
    const char *device; /* a step template's kernels carry it in their names ("_cpu", "_gpu"): both
                         * devices have a variant "fused", and its entry points are external */
};

/* The coefficient macros of the kernel's storage: COEF_A for arrays, COEF_U for scalars, COEF_I
 * for tables indexed by the node's material. */
static char storage_letter(const struct kernel_desc *k) { return "AUI"[k->coef]; }
static const char *const coef_enum[NCOEF_STORAGES] = {"COEF_ARRAY", "COEF_UNIFORM", "COEF_INDEXED"};

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

/* $BOXES: the plus field P and the minus field M of one component. */
static void emit_boxes(struct buf *b, const struct kernel_desc *k)
{
    static const char *const names[2] = {"P", "M"};
    int lo[2][3] = {{0}}, hi[2][3] = {{0}};
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms t;
        expand_group(k->s, g, k->component, &t);
        for (int p = 0; p < t.npoints; p++) widen(lo[0], hi[0], &t.plus[p]), widen(lo[1], hi[1], &t.minus[p]);
    }
    put_boxes(b, 2, names, lo, hi);
}

/* $FBOXES: the three source fields S0..S2 (by axis) of a half-step, over both components that
 * read each. */
static void emit_fused_boxes(struct buf *b, const struct kernel_desc *k)
{
    static const char *const names[3] = {"S0", "S1", "S2"};
    int lo[3][3] = {{0}}, hi[3][3] = {{0}};
    for (int q = 0; q < 3; q++) {
        int plus, pa, minus, ma;
        component_sources(k->component + q, &plus, &pa, &minus, &ma);
        for (int g = 0; g < k->s->ngroups; g++) {
            struct group_terms t;
            expand_group(k->s, g, k->component + q, &t);
            for (int p = 0; p < t.npoints; p++)
                widen(lo[plus % 3], hi[plus % 3], &t.plus[p]), widen(lo[minus % 3], hi[minus % 3], &t.minus[p]);
        }
    }
    put_boxes(b, 3, names, lo, hi);
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
    for (int ax = 0; ax < 3; ax++)
        for (int q = 0; q < 3; q++) {
            int plus, pa, minus, ma;
            component_sources(k->component + q, &plus, &pa, &minus, &ma);
            if (plus % 3 == ax || minus % 3 == ax) {
                put(b, "    DECL_SRC(S%d, %d, %s);\n", ax, q, plus % 3 == ax ? "plus" : "minus");
                break;
            }
        }
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

/* ---- several nodes along z at once ($ZBODYn) ------------------------------------------ */

enum { MAX_ZNODES = 8 };

/* The points a $ZBODYn loads: field ('P' or 'M') and offset, each loaded once. */
struct zloads {
    int n;
    char field[2 * MAX_GROUPS * 2 * MAX_SHIFTS * MAX_ZNODES];
    int d[2 * MAX_GROUPS * 2 * MAX_SHIFTS * MAX_ZNODES][3];
};

/* The name (xN) of point d + (0, 0, r) of field f, emitting its load the first time. */
static int zload(struct buf *b, struct zloads *z, char f, const struct point *p, int r)
{
    const int d[3] = {p->d[0], p->d[1], p->d[2] + r};
    for (int i = 0; i < z->n; i++)
        if (z->field[i] == f && !memcmp(z->d[i], d, sizeof d)) return i;
    if (z->n == (int)sizeof z->field) die("too many points for $ZBODY");
    z->field[z->n] = f, memcpy(z->d[z->n], d, sizeof d);
    put(b, "        const VT x%d = LD(%c, OFF(%d, %d, %d));\n", z->n, f, d[0], d[1], d[2]);
    return z->n++;
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

static void emit_zbody(struct buf *b, const struct kernel_desc *k, int nodes)
{
    if (nodes < 1 || nodes > MAX_ZNODES) die("template: $ZBODY%d: 1 to %d nodes", nodes, MAX_ZNODES);
    static struct zloads z; /* large; the generator is single-threaded */
    const char c = storage_letter(k);
    z.n = 0;
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms t;
        expand_group(k->s, g, k->component, &t);
        for (int r = 0; r < nodes; r++) {
            int p[2 * MAX_SHIFTS], m[2 * MAX_SHIFTS];
            for (int i = 0; i < t.npoints; i++) p[i] = zload(b, &z, 'P', &t.plus[i], r);
            for (int i = 0; i < t.npoints; i++) m[i] = zload(b, &z, 'M', &t.minus[i], r);
            put(b, "        const VT g%d_%d = ", g, r);
            zsum(b, p, 0, t.npoints);
            put(b, " - ");
            zsum(b, m, 0, t.npoints);
            put(b, ";\n");
        }
    }
    for (int r = 0; r < nodes; r++) {
        put(b, "        const VT v%d = ", r);
        for (int l = 0; l < k->s->levels; l++)
            put(b, "%sZCOEF_%c(da%d, %d) * LD(L%d, OFF(0, 0, %d))", l ? " + " : "", c, l, r, l, r);
        for (int g = 0; g < k->s->ngroups; g++) put(b, " + ZCOEF_%c(db%d, %d) * g%d_%d", c, g, r, g, r);
        put(b, ";\n");
    }
    for (int r = 0; r < nodes; r++) put(b, "        ZSTORE(%d, v%d);\n", r, r);
}

static void kernel_name(char *out, size_t n, const struct kernel_desc *k)
{
    snprintf(out, n, "k_%s_%s_%s_%s_%s%s", k->s->name, component_names[k->component], precision_names[k->precision],
             coef_names[k->coef], k->variant, k->device ? k->device : "");
}

static const char *const component_enum[] = {"HX", "HY", "HZ", "EX", "EY", "EZ"};

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
            die("template: $%s means nothing in a prologue (only $VARIANT and $MAXTHREADS)", word);
        if (!strcmp(word, "NAME")) put(out, "%s", name);
        else if (!strcmp(word, "ENTRY")) put(out, "%s_run", name);
        else if (!strcmp(word, "SCHEME")) put(out, "%s", k->s->name);
        else if (!strcmp(word, "COMPONENT")) put(out, "%s", component_enum[k->component]);
        else if (!strcmp(word, "PRECISION")) put(out, "%s", k->precision == F32 ? "F32" : "F64");
        else if (!strcmp(word, "COEF")) put(out, "%s", coef_enum[k->coef]);
        else if (!strcmp(word, "VARIANT")) put(out, "%s", k->variant);
        else if (!strcmp(word, "ARRAY")) put(out, "%d", k->coef == COEF_ARRAY);
        else if (!strcmp(word, "INDEXED")) put(out, "%d", k->coef == COEF_INDEXED);
        else if (!strcmp(word, "REAL")) put(out, "%s", k->precision == F32 ? "float" : "double");
        else if (!strcmp(word, "ROWS")) put(out, "%d", default_rows(k->traits, k->coef));
        else if (!strcmp(word, "STAGES")) put(out, "%d", k->traits->stages);
        else if (!strcmp(word, "MAXTHREADS")) put(out, "%d", k->traits->max_threads ? k->traits->max_threads : 1024);
        else if (!strcmp(word, "DECLS")) emit_decls(out, k);
        else if (!strcmp(word, "BRACKETS")) emit_brackets(out, k);
        else if (!strcmp(word, "NODES") || !strcmp(word, "FNODES")) emit_nodes(out, k, word[0] == 'F');
        else if (!strcmp(word, "NNODE") || !strcmp(word, "FNNODE")) {
            char names[MAX_NODE_ARRAYS][16];
            put(out, "%d", all_node_arrays(k, word[0] == 'F', names));
        }
        else if (!strcmp(word, "UPDATE")) emit_update(out, k);
        else if (!strcmp(word, "BOXES")) emit_boxes(out, k);
        else if (!strcmp(word, "FBOXES")) emit_fused_boxes(out, k);
        else if (!strcmp(word, "FDECLS")) emit_fused_decls(out, k);
        else if (!strcmp(word, "FBODY")) emit_fused_body(out, k);
        else if (!strcmp(word, "ZBODY") && j < len && text[j] >= '0' && text[j] <= '9') {
            int nodes = 0;
            while (j < len && text[j] >= '0' && text[j] <= '9') nodes = nodes * 10 + (text[j++] - '0');
            emit_zbody(out, k, nodes);
        } else die("template: unknown placeholder $%s", word);
        i = j;
    }
}

/* ---- templates ------------------------------------------------------------------- */

struct template {
    const char *path;
    char *text;
    const char *prologue, *kernel; /* section texts and lengths */
    size_t prologue_len, kernel_len;
    char variant[32];
    struct traits traits;
    int step;           /* a step template (*.step): fused half-step kernels, entries at HX and EX */
    const char *device; /* a step template's: "_cpu" (*.c.step) or "_gpu" (*.cu.step), else NULL */
};

static void parse_traits(const char *path, char *words, struct traits *t)
{
    memset(t, 0, sizeof *t);
    for (char *w = strtok(words, " \t\r"); w; w = strtok(NULL, " \t\r")) {
        int *b = t->block;
        if (!strcmp(w, "marches")) t->marches = 1;
        else if (!strcmp(w, "flat")) t->flat = 1;
        else if (!strcmp(w, "accepts")) t->accepts = 1;
        else if (!strcmp(w, "indexed")) t->indexed = 1;
        else if (!strcmp(w, "halo")) t->halo_axes = 3;
        else if (!strcmp(w, "halo_x")) t->halo_axes = 1;
        else if (sscanf(w, "max_threads=%d", &t->max_threads) == 1 && t->max_threads > 0) continue;
        else if (sscanf(w, "nodes=%d", &t->nodes) == 1 && t->nodes > 0) continue;
        else if (sscanf(w, "rows=%d,%d", &t->rows[0], &t->rows[1]) == 2 && t->rows[0] > 0 && t->rows[1] > 0) continue;
        else if (sscanf(w, "stages=%d", &t->stages) == 1 && t->stages > 0) continue;
        else if (sscanf(w, "block=%dx%dx%d", &b[0], &b[1], &b[2]) == 3 && b[0] > 0 && b[1] > 0 && b[2] > 0) continue;
        else die("%s: unknown or malformed trait '%s'", path, w);
    }
    if (!t->nodes) t->nodes = 1;
    if (t->flat && t->block[2] > 1) die("%s: a flat variant's default block needs a z extent of 1", path);
}

/* The variant named by the file: kernels_gpu/tile25d.cu.in is variant tile25d. */
static void variant_of_path(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(out, n, "%.*s", (int)strcspn(base, "."), base);
}

static void load_template(const char *path, struct template *t)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->text = read_file(path);
    t->step = strlen(path) > 5 && !strcmp(path + strlen(path) - 5, ".step");
    if (t->step) t->device = strstr(path, ".cu.step") ? "_gpu" : "_cpu";
    const char **cur = NULL;
    size_t *cur_len = NULL;
    for (char *line = t->text; *line;) {
        char *eol = strchr(line, '\n');
        char *next = eol ? eol + 1 : line + strlen(line);
        if (strncmp(line, "//@@ ", 5) == 0) {
            char header[256], kind[32] = "", *rest;
            snprintf(header, sizeof header, "%.*s", (int)(next - line - 5), line + 5); /* this line only */
            header[strcspn(header, "\r\n")] = '\0';
            if (sscanf(header, "%31s", kind) != 1) die("%s: empty //@@ line", path);
            rest = header + strspn(header, " ") + strlen(kind);
            if (!strcmp(kind, "prologue") && !t->prologue) cur = &t->prologue, cur_len = &t->prologue_len;
            else if (!strcmp(kind, "kernel") && !t->kernel) {
                char variant[32] = "", file_variant[32];
                if (sscanf(rest, "%31s", variant) != 1) die("%s: '//@@ kernel' needs a variant name", path);
                variant_of_path(path, file_variant, sizeof file_variant);
                if (strcmp(variant, file_variant))
                    die("%s: a template is named after its variant: '%s' belongs in %s.*.in", path, variant, variant);
                strcpy(t->variant, variant);
                parse_traits(path, rest + strspn(rest, " ") + strlen(variant), &t->traits);
                cur = &t->kernel, cur_len = &t->kernel_len;
            } else die("%s: unexpected section '%s' (one prologue, then one kernel)", path, kind);
            *cur = next;
        } else if (cur) {
            *cur_len = (size_t)(next - *cur);
        }
        line = next;
    }
    if (!t->kernel) die("%s: needs a '//@@ kernel VARIANT' section", path);
}

static int is_spec(const char *path)
{
    size_t n = strlen(path);
    return n > 8 && !strcmp(path + n - 8, ".stencil");
}

static struct scheme *load_specs(int n, char **paths)
{
    if (n > MAX_SCHEMES) die("%d spec files, at most %d schemes (the last: %s)", n, MAX_SCHEMES, paths[n - 1]);
    struct scheme *out = calloc((size_t)n, sizeof *out);
    if (!out) die("out of memory");
    for (int i = 0; i < n; i++) {
        char *text = read_file(paths[i]), err[512];
        if (spec_parse(text, paths[i], &out[i], err, sizeof err)) die("%s", err);
        for (int j = 0; j < i; j++)
            if (!strcmp(out[i].name, out[j].name)) die("%s: scheme '%s' also in %s", paths[i], out[i].name, paths[j]);
        /* The weights every command uses, so that a singular design fails the build, not a run. */
        double w[MAX_GROUPS];
        if (scheme_weights(&out[i], DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err))
            die("%s: %s", paths[i], err);
        double limit = stability_limit(&out[i], w);
        for (int g = 0; g < out[i].ngroups; g++)
            if (!isfinite(w[g])) die("%s: weight w%d is %g: the design is singular", paths[i], g + 1, w[g]);
        if (!(limit > 0 && isfinite(limit))) die("%s: stability limit %g: no stable time step", paths[i], limit);
        free(text);
    }
    return out;
}

static void write_out(const char *path, const struct buf *b)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(b->s, 1, b->len, f) != b->len || fclose(f)) die("cannot write %s", tmp);
    if (rename(tmp, path)) die("cannot rename %s to %s", tmp, path);
}

/* Calls fn for every kernel of variant t over n schemes, in table order (a step template's: the
 * H half-step at HX, the E half-step at EX). */
static void each_kernel(const struct template *t, const struct scheme *schemes, int n,
                        void (*fn)(const struct kernel_desc *, const struct template *, struct buf *), struct buf *b)
{
    for (int s = 0; s < n; s++)
        for (int c = 0; c < NCOMPONENTS; c += t->step ? EX - HX : 1)
            for (int p = 0; p < 2; p++)
                for (int cs = 0; cs < (t->traits.indexed ? NCOEF_STORAGES : 2); cs++) {
                    struct kernel_desc k = {&schemes[s], c, p, cs, t->variant, &t->traits, t->device};
                    fn(&k, t, b);
                }
}

static void put_kernel(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    fill(b, t->kernel, t->kernel_len, k);
}

static void put_prologue(const struct template *t, struct buf *b)
{
    const struct kernel_desc none = {.variant = t->variant, .traits = &t->traits};
    fill(b, t->prologue, t->prologue_len, &none);
}

static void gen_variant(const char *tpath, const char *out_path, int n, char **spec_paths)
{
    struct scheme *schemes = load_specs(n, spec_paths);
    struct template t;
    load_template(tpath, &t);
    struct buf out = {0};
    put(&out, "/* Generated by codegen/generate from %s and the spec files; do not edit. */\n", tpath);
    put_prologue(&t, &out);
    each_kernel(&t, schemes, n, put_kernel, &out);
    write_out(out_path, &out);
    free(out.s), free(t.text), free(schemes);
}

static void put_declaration(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    char name[128];
    kernel_name(name, sizeof name, k);
    put(b, "void %s_run(const struct kernel_args *a);\n", name);
    if (t->traits.accepts) put(b, "int %s_run_accepts(const struct kernel_args *a, char *why, size_t n);\n", name);
}

static void put_entry(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    char name[128];
    kernel_name(name, sizeof name, k);
    const struct traits *r = &t->traits;
    put(b, "    {\"%s\", %s, %s, %s, \"%s\", %s_run, ", k->s->name, component_enum[k->component],
        k->precision == F32 ? "F32" : "F64", coef_enum[k->coef], k->variant, name);
    if (r->accepts) put(b, "%s_run_accepts, ", name);
    else put(b, "NULL, ");
    put(b, "{.marches = %d, .flat = %d, .max_threads = %d, .block = {%d, %d, %d}, .nodes = %d, .rows = %d, "
           ".stages = %d, .halo_axes = %d}},\n",
        r->marches, r->flat, r->max_threads, r->block[0], r->block[1], r->block[2], r->nodes, default_rows(r, k->coef),
        r->stages, r->halo_axes);
}

/* The device's kernel tables, in plain C: every variant's entry points, declared, and listed in
 * DEVICE_kernel_table[], the step templates' in DEVICE_fused_table[]. */
static void gen_table(const char *device, const char *out_path, int nt, char **tpaths, int n, char **spec_paths)
{
    struct scheme *schemes = load_specs(n, spec_paths);
    struct template *t = calloc((size_t)nt, sizeof *t);
    struct buf out = {0};
    if (!t) die("out of memory");
    if (strcmp(device, "cpu") && strcmp(device, "gpu")) die("table: device '%s' is not cpu or gpu", device);
    put(&out, "/* Generated by codegen/generate from the %s templates and the spec files; do not edit. */\n", device);
    put(&out, "#include <stddef.h>\n\n#include \"kernel.h\"\n\n");
    for (int i = 0; i < nt; i++) {
        load_template(tpaths[i], &t[i]);
        for (int j = 0; j < i; j++)
            if (!strcmp(t[i].variant, t[j].variant)) die("%s: variant '%s' also in %s", tpaths[i], t[i].variant, tpaths[j]);
        each_kernel(&t[i], schemes, n, put_declaration, &out);
    }
    for (int step = 0; step < 2; step++) {
        const char *table = step ? "fused" : "kernel";
        put(&out, "\nconst struct kernel_entry %s_%s_table[] = {\n", device, table);
        int entries = 0;
        for (int i = 0; i < nt; i++)
            if (t[i].step == step) each_kernel(&t[i], schemes, n, put_entry, &out), entries++;
        if (!entries) put(&out, "    {NULL, 0, 0, 0, NULL, NULL, NULL, {0, 0, 0, {0, 0, 0}, 0, 0}}, /* C has no empty arrays */\n");
        if (entries)
            put(&out, "};\nconst int %s_%s_table_len = (int)(sizeof %s_%s_table / sizeof %s_%s_table[0]);\n", device,
                table, device, table, device, table);
        else put(&out, "};\nconst int %s_%s_table_len = 0;\n", device, table);
    }
    write_out(out_path, &out);
    for (int i = 0; i < nt; i++) free(t[i].text);
    free(out.s), free(t), free(schemes);
}

static int index_of(const char *const *names, int n, const char *name, const char *what)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name)) return i;
    die("no %s '%s'", what, name);
    return -1;
}

/* One kernel as a translation unit that compiles on its own, headed by its counts. */
static void gen_one(const char *tpath, char **key, int n, char **spec_paths)
{
    struct scheme *schemes = load_specs(n, spec_paths);
    struct template t;
    load_template(tpath, &t);
    if (t.step) die("%s: a step template's kernels update three components; one kernel takes a variant's", tpath);
    int s = 0;
    while (s < n && strcmp(schemes[s].name, key[0])) s++;
    if (s == n) die("no scheme '%s' among the spec files given", key[0]);
    struct kernel_desc k = {&schemes[s], index_of(component_names, NCOMPONENTS, key[1], "component"),
                            index_of(precision_names, 2, key[2], "precision"),
                            index_of(coef_names, NCOEF_STORAGES, key[3], "coefficient storage"), t.variant, &t.traits,
                            t.device};
    struct counts c = scheme_counts(k.s, k.precision, k.coef);
    struct buf out = {0};
    put(&out, "/* %s %s, %s, %s coefficients, variant %s (%s): one update is %d flops, %d reads and %d write;\n"
              " * %d bytes if every read and write goes to memory, %d compulsory bytes (each array once).\n"
              " * Generated by codegen/generate; compiles on its own (include paths: stencils, codegen and the\n"
              " * template's folder). */\n",
        k.s->title, component_names[k.component], precision_names[k.precision], coef_names[k.coef], t.variant, tpath,
        c.flops, c.reads, c.writes, c.naive_bytes, c.compulsory_bytes);
    put_prologue(&t, &out);
    put_kernel(&k, &t, &out);
    fwrite(out.s, 1, out.len, stdout);
    free(out.s), free(t.text), free(schemes);
}

/* The spec files as C string literals, so the binary needs no files at run time. */
static void gen_sources(const char *out_path, int n, char **spec_paths)
{
    struct scheme *schemes = load_specs(n, spec_paths);
    struct buf out = {0};
    put(&out, "/* Generated by codegen/generate from the spec files; do not edit. */\n");
    put(&out, "const int builtin_spec_count = %d;\n", n);
    put(&out, "const char *const builtin_spec_files[] = {\n");
    for (int i = 0; i < 2 * n; i++) { /* the file names, then their texts */
        if (i == n) put(&out, "};\nconst char *const builtin_spec_texts[] = {\n");
        char *text = i < n ? NULL : read_file(spec_paths[i - n]), *lit = c_literal(i < n ? spec_paths[i] : text);
        if (!lit) die("out of memory");
        put(&out, "%s", lit);
        free(lit), free(text);
    }
    put(&out, "};\n");
    write_out(out_path, &out);
    free(out.s), free(schemes);
}

int main(int argc, char **argv)
{
    const char *usage = "usage: generate variant TEMPLATE OUT SPEC... | generate table cpu|gpu OUT TEMPLATE... SPEC... |\n"
                        "       generate one TEMPLATE SCHEME COMPONENT PRECISION COEF SPEC... | generate sources OUT SPEC...";
    if (argc >= 5 && !strcmp(argv[1], "variant")) gen_variant(argv[2], argv[3], argc - 4, argv + 4);
    else if (argc >= 5 && !strcmp(argv[1], "table")) {
        int nt = 0;
        while (4 + nt < argc && !is_spec(argv[4 + nt])) nt++;
        gen_table(argv[2], argv[3], nt, argv + 4, argc - 4 - nt, argv + 4 + nt);
    } else if (argc >= 8 && !strcmp(argv[1], "one")) gen_one(argv[2], argv + 3, argc - 7, argv + 7);
    else if (argc >= 4 && !strcmp(argv[1], "sources")) gen_sources(argv[2], argc - 3, argv + 3);
    else die("%s", usage);
    return 0;
}
