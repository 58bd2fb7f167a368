/* The kernel generator: turns spec files into kernel tables and kernel source by filling backend
 * templates.
 *
 *   generate table DEVICE OUT TEMPLATE... SPEC...  DEVICE_kernel_table[] and DEVICE_fused_table[]
 *                                                  (the step templates'): one entry per kernel,
 *                                                  with the variant's traits (plain C); an entry's
 *                                                  launcher hands it to the device's run-time
 *                                                  launcher (kernels_cpu/jit.c, kernels_gpu/
 *                                                  launch.c), which fills and compiles its kernel
 *                                                  when first needed. Every kernel is filled once
 *                                                  here, so that a template's fault fails the build
 *   generate one TEMPLATE SCHEME COMPONENT PRECISION COEF SPEC...
 *                                                  one kernel as a translation unit of its own,
 *                                                  headed by its counts (make kernel)
 *   generate sources OUT SPEC...                   the spec files' text, embedded in the binary
 *   generate embed OUT SYMBOL FILE...              files' text, embedded (the templates and the
 *                                                  headers their kernels include, which are
 *                                                  compiled at run time)
 *   generate layertable TEMPLATE OUT SPEC...       the CPML layer kernels of a layer template
 *                                                  (*.layer: scheme x {H, E} x axis x precision x
 *                                                  storage): their table DEVICE_layer_table[]
 *                                                  (plain C), launchers as the kernel tables'
 *
 * A step template (kernels_cpu/fused.c.step, kernels_gpu/fused*.cu.step) is a variant of the
 * step engine's: it updates the three components of a half-step in one kernel given kernel_args
 * a[0..2], and its entries stand at HX and EX. Its kernel section uses $FDECLS (DECL_LEVEL(name,
 * q, l), DECL_OUT(name, q), DECL_COEF_x(name, q, da|db, idx), and DECL_SRC(name, q, plus|minus)
 * for the three source fields S0..S2 by axis, each declared once) and $FBODY (the brackets gG_Q
 * and the new value vQ of each component Q, the node's own level read as LEVEL(Ll_Q), then the
 * three stores STORE(O_Q, Q, vQ)) or $FZSWEEPSn (n nodes along z: FUSED_SWEEP((PRE), (BODY)), once
 * with BODY as $ZBODYn, below, over the three components, every point of the half-step's source
 * fields loaded once as const VT xN = LD(SA, OFF(..)), the brackets gG_Q_r, values vQ_r = sum_l
 * ZCOEF_x(daL_Q, r)*LD(LL_Q, OFF(0, 0, r)) + ..., then every ZSTORE(O_Q, r, vQ_r); or once per
 * component Q, PRE its carried rows' ZROW_INITs and BODY as $ZXBODYn's over its points, with
 * ZNEXT and ZNEXT_ROW prefetches: codegen/emit.c, emit_zsweeps), with $COMPONENT the half-step's
 * first component; a tiled one
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
 *   planes        (CPU step) a temporally blocked step's kernel (engine/wave.h): on the calling
 *                 thread, the rows and planes of kernel_args.box only (the engine shares them out),
 *                 each row's halo along x and y written by the kernel
 *   passes        (GPU step) a temporally blocked step's kernel that advances kernel_args.tsteps whole
 *                 steps in one launch: given kernel_args[6] (the H half-step's three components, then
 *                 the E half-step's), it reads each field's level[0] and writes out, another array
 *                 (the engine swaps them), halo images included; its kernel section uses both
 *                 half-steps' $HFDECLS, $HFBODY, $HFBOXES (HS0_X0 .., and HTOP_COLUMN: whether
 *                 every point it reads in its highest plane along z lies on the node's column)
 *                 and $EF.. (ES0_X0 .., ETOP_COLUMN)
 *   flat          the block's z extent must be 1
 *   strides       (CPU) each kernel is compiled for its launch's strides (kernels_cpu/jit.c passes
 *                 -DSY=<sy> -DSZ=<sz>, kernel_args.sy and sz: every stencil offset a constant), one
 *                 compilation per row length and plane size, and verified on the timed grid's
 *                 rows and planes (harness/measure.c, verify_rows)
 *   layer_fold    (step) the kernel also makes the CPML's corrections (codegen/layer.h) in the
 *                 rows it updates, given kernel_args.layer (the three passes' struct layer_args),
 *                 from the curl terms its update hands over: $FZSWEEPSn also gives each component
 *                 q's terms tp_q_r and tm_q_r (sum_g ZCOEF_x(dbG_q, r) times its plus or minus
 *                 field's sums pG_q_r, mG_q_r), its value as da L + tp - tm where the template
 *                 defines LTERMS 1 (else the plain sum over gG_q_r), and after the stores each
 *                 term as LTERM(slot, r, term), slot 2 axis + the term's index in layer_terms;
 *                 $XLDECLS and $XLBODY are the x pass's $LDECLS and $LBODY with each term taken
 *                 as LTAKE(slot) (no source field or coefficient declared), $YL... and $ZL...
 *                 the y and z passes'; the step engine then runs no layer pass. Such a kernel is
 *                 compiled apart for launches with a layer, with -DLAYER_FOLD (kernels_cpu/jit.c)
 *   accepts       the template defines int $ENTRY_accepts(const struct kernel_args *, char *why,
 *                 size_t n): 0, or -1 saying why this launch cannot run (checked before launch)
 *   max_threads=N at most N threads per block
 *   block=BXxBYxBZ  the launch to use where nothing was tuned;   nodes=N  likewise
 *   rows=A,U      the variant's threads update rows of nodes (kernel_args.rows, adjacent in y):
 *                 where nothing was tuned, A with coefficient arrays, U without (accepts() says
 *                 which row counts a kernel was compiled for)
 *   stages=N      the variant pipelines its loads, kernel_args.stages planes ahead: N where
 *                 nothing was tuned (accepts() says which depths it was compiled for)
 * A layer template (kernels_cpu/cpml.c.layer) is the CPML correction of one half-step along one
 * axis (codegen/layer.h): its kernel section uses $AXIS (0, 1, 2), $LCOMPS (the two corrected
 * components, "HX, HY"), $LDECLS (per term q: DECL_OUT(O_q, q), DECL_SRC(S_q, q), DECL_PSI(Y_q,
 * q), DECL_PROFILE(K_q, B_q, C_q, q), DECL_COEF_x(dbG_q, q, G)) and $LBODY (per term: the term
 * tq from the spec's points of its field, then CORRECT(q, tq, +) for a plus term or
 * CORRECT(q, tq, -) for a minus one); which terms, from the spec (spec.h, layer_terms).
 * In a kernel section these words are replaced:
 *   $NAME      the kernel's name; $ENTRY its entry point (kernel_fn, C linkage), $NAME_run
 *   $SCHEME $COMPONENT $PRECISION $COEF $VARIANT  as in the kernel table; $REAL float|double
 *   $ARRAY     1 for array coefficients, 0 for uniform and indexed ones (for #if)
 *   $INDEXED   1 for indexed coefficients, 0 for the others (for #if)
 *   $LEVELS $NCOEFS  the scheme's old time levels, and its coefficients a component (levels +
 *              groups): where a component's da and db stand in a material's record (COEF_RECORD)
 *   $MAXTHREADS  the max_threads trait (1024 if not given), for __launch_bounds__
 *   $ROWS      the kernel's default rows per thread (rows= for its storage; 0 if not given)
 *   $STAGES    the variant's default pipeline depth (stages=; 0 if not given)
 *   $BLOCKX $BLOCKY $DEFNODES  its default block's x and y extents and nodes per thread (block=,
 *              nodes=): what a GPU kernel's launch constants default to where no launcher gives
 *              them (make kernel; at run time launch.c gives each launch's)
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
 *   $ZXBODYn   the same update with the pair differences in the order of the rows they read
 *              ((dj, dk) of each pair's first point, then of its second), each added to a sum
 *              per bracket and field (VT pG_r, mG_r; then gG_r = pG_r - mG_r), so that a row's
 *              loads are used together; each point loaded as const VT xN = LDX(array, di, dj,
 *              dk, shared), shared 1 where another point of the body lies on the same row of the
 *              array (same dj and dk), so that a template may build a row's points from the same
 *              aligned loads (regza)
 *   $ZPOINTS   the source points of one node, both fields, as initializers: {di, dj, dk}, ...
 * so the backend decides how a load, an offset and a coefficient are spelled. */
#include "design.h"
#include "embed.h"
#include "emit.h"
#include "spec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define die emit_fail

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

static void load_template(const char *path, struct template *t)
{
    char *text = read_file(path);
    template_parse(t, path, text);
    free(text);
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
                    struct kernel_desc k = {&schemes[s], c, p, cs, t->variant, &t->traits, t->device, 0};
                    fn(&k, t, b);
                }
}

/* Calls fn for every kernel of layer template t over n schemes: scheme x half-step x axis x
 * precision x storage, in table order. */
static void each_layer_kernel(const struct template *t, const struct scheme *schemes, int n,
                              void (*fn)(const struct kernel_desc *, const struct template *, struct buf *),
                              struct buf *b)
{
    if (!t->layer) die("%s: not a layer template (*.layer)", t->path);
    for (int s = 0; s < n; s++)
        for (int first = HX; first <= EX; first += EX - HX)
            for (int axis = 0; axis < 3; axis++)
                for (int p = 0; p < 2; p++)
                    for (int cs = 0; cs < (t->traits.indexed ? NCOEF_STORAGES : 2); cs++) {
                        struct kernel_desc k = {&schemes[s], first, p, cs, t->variant, &t->traits, t->device, axis};
                        fn(&k, t, b);
                    }
}

/* A kernel's entry points in its table: launchers that hand the entry to the device's run-time
 * launcher (DEVICE_kernel_launch), which compiles the kernel when first needed. Entries are
 * counted per table, in table order. */
static const char *stub_device; /* "cpu" or "gpu" */
static int stub_entries[2];

static void put_stub(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    char name[128];
    kernel_name(name, sizeof name, k);
    const char *d = stub_device, *table = t->step ? "fused" : "kernel";
    const int i = stub_entries[t->step]++;
    put(b, "static void %s_run(const struct kernel_args *a) { %s_kernel_launch(&%s_%s_table[%d], a); }\n", name, d, d,
        table, i);
    if (t->traits.accepts)
        put(b, "static int %s_run_accepts(const struct kernel_args *a, char *why, size_t n) "
               "{ return %s_kernel_accepts(&%s_%s_table[%d], a, why, n); }\n", name, d, d, table, i);
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
           ".stages = %d, .halo_axes = %d, .planes = %d, .passes = %d, .strides = %d, .layer_fold = %d}},\n",
        r->marches, r->flat, r->max_threads, r->block[0], r->block[1], r->block[2], r->nodes, default_rows(r, k->coef),
        r->stages, r->halo_axes, r->planes, r->passes, r->strides, r->layer_fold);
}

/* Fills every kernel of template t once, so that a template's faults fail the build, not a run. */
static void check_fills(const struct template *t, const struct scheme *schemes, int n)
{
    struct buf check = {0};
    put_prologue(t, &check);
    if (t->layer) each_layer_kernel(t, schemes, n, put_kernel, &check);
    else each_kernel(t, schemes, n, put_kernel, &check);
    free(check.s);
}

/* The device's kernel tables, in plain C: every variant's launchers, listed in
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
    put(&out, "void %s_kernel_launch(const struct kernel_entry *k, const struct kernel_args *a);\n"
              "int %s_kernel_accepts(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n);\n"
              "extern const struct kernel_entry %s_kernel_table[], %s_fused_table[];\n\n",
        device, device, device, device);
    stub_device = device;
    for (int i = 0; i < nt; i++) {
        load_template(tpaths[i], &t[i]);
        if (t[i].layer) die("%s: a layer template's table is made by 'generate layertable'", tpaths[i]);
        for (int j = 0; j < i; j++)
            if (!strcmp(t[i].variant, t[j].variant))
                die("%s: variant '%s' also in %s", tpaths[i], t[i].variant, tpaths[j]);
        each_kernel(&t[i], schemes, n, put_stub, &out);
        check_fills(&t[i], schemes, n);
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
    for (int i = 0; i < nt; i++) template_free(&t[i]);
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
    if (t.layer) die("%s: a layer template's kernels are not one component's; one kernel takes a variant's", tpath);
    int s = 0;
    while (s < n && strcmp(schemes[s].name, key[0])) s++;
    if (s == n) die("no scheme '%s' among the spec files given", key[0]);
    struct kernel_desc k = {&schemes[s], index_of(component_names, NCOMPONENTS, key[1], "component"),
                            index_of(precision_names, 2, key[2], "precision"),
                            index_of(coef_names, NCOEF_STORAGES, key[3], "coefficient storage"), t.variant, &t.traits,
                            t.device, 0};
    if (t.step && k.component != HX && k.component != EX)
        die("%s: a step template's kernel is a half-step's, named by its first component (hx or ex), not %s", tpath,
            key[1]);
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
    free(out.s), template_free(&t), free(schemes);
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

/* Files as C string literals, so the binary needs none at run time: the templates, the headers
 * their kernels include and the GPU backend's own kernels, compiled when a command first needs
 * them. SYMBOL_count, SYMBOL_names[] (each file's name, without its folder for a header (*.h,
 * *.cuh): how kernels include it) and SYMBOL_texts[]. */
static void gen_embed(const char *out_path, const char *symbol, int n, char **paths)
{
    struct buf out = {0};
    put(&out, "/* Generated by codegen/generate; do not edit. */\n");
    put(&out, "const int %s_count = %d;\nconst char *const %s_names[] = {\n", symbol, n, symbol);
    for (int i = 0; i < 2 * n; i++) { /* the names, then the texts */
        if (i == n) put(&out, "};\nconst char *const %s_texts[] = {\n", symbol);
        const char *path = paths[i % n], *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        const char *ext = strrchr(base, '.');
        const int header = ext && (!strcmp(ext, ".h") || !strcmp(ext, ".cuh"));
        char *text = i < n ? NULL : read_file(path), *lit = c_literal(i < n ? (header ? base : path) : text);
        if (!lit) die("out of memory");
        put(&out, "%s", lit);
        free(lit), free(text);
    }
    put(&out, "};\n");
    write_out(out_path, &out);
    free(out.s);
}

static void put_layer_entry(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    char name[128];
    kernel_name(name, sizeof name, k);
    put(b, "    {\"%s\", %s, %d, %s, %s, %s_run, %d, \"%s\"},\n", k->s->name, component_enum[k->component], k->axis,
        k->precision == F32 ? "F32" : "F64", coef_enum[k->coef], name, t->traits.halo_axes, k->variant);
}

/* A layer kernel's entry point: its table entry handed to the device's launcher (as put_stub's). */
static int layer_entries;

static void put_layer_stub(const struct kernel_desc *k, const struct template *t, struct buf *b)
{
    char name[128];
    const char *d = t->device + 1; /* "cpu" or "gpu" */
    kernel_name(name, sizeof name, k);
    put(b, "static void %s_run(const struct layer_args *a) { %s_layer_launch(&%s_layer_table[%d], a); }\n", name, d, d,
        layer_entries++);
}

/* A layer template's kernels (codegen/layer.h) for the schemes given: their launchers and
 * DEVICE_layer_table[] (the step engine looks them up apart from the update kernels). */
static void gen_layertable(const char *tpath, const char *out_path, int n, char **spec_paths)
{
    struct scheme *schemes = load_specs(n, spec_paths);
    struct template t;
    load_template(tpath, &t);
    if (!t.layer) die("%s: not a layer template (*.layer)", tpath);
    const char *device = t.device + 1;
    struct buf out = {0};
    put(&out, "/* Generated by codegen/generate from %s and the spec files; do not edit. */\n", tpath);
    put(&out, "#include <stddef.h>\n\n#include \"layer.h\"\n\n");
    put(&out, "void %s_layer_launch(const struct layer_entry *e, const struct layer_args *a);\n\n", device);
    each_layer_kernel(&t, schemes, n, put_layer_stub, &out);
    check_fills(&t, schemes, n);
    put(&out, "\nconst struct layer_entry %s_layer_table[] = {\n", device);
    each_layer_kernel(&t, schemes, n, put_layer_entry, &out);
    put(&out, "};\nconst int %s_layer_table_len = (int)(sizeof %s_layer_table / sizeof %s_layer_table[0]);\n", device,
        device, device);
    write_out(out_path, &out);
    free(out.s), template_free(&t), free(schemes);
}

int main(int argc, char **argv)
{
    const char *usage = "usage: generate table cpu|gpu OUT TEMPLATE... SPEC... |\n"
                        "       generate one TEMPLATE SCHEME COMPONENT PRECISION COEF SPEC... | generate sources OUT SPEC... |\n"
                        "       generate embed OUT SYMBOL FILE... | generate layertable TEMPLATE OUT SPEC...";
    if (argc >= 5 && !strcmp(argv[1], "table")) {
        int nt = 0;
        while (4 + nt < argc && !is_spec(argv[4 + nt])) nt++;
        gen_table(argv[2], argv[3], nt, argv + 4, argc - 4 - nt, argv + 4 + nt);
    } else if (argc >= 8 && !strcmp(argv[1], "one")) gen_one(argv[2], argv + 3, argc - 7, argv + 7);
    else if (argc >= 4 && !strcmp(argv[1], "sources")) gen_sources(argv[2], argc - 3, argv + 3);
    else if (argc >= 4 && !strcmp(argv[1], "embed")) gen_embed(argv[2], argv[3], argc - 4, argv + 4);
    else if (argc >= 5 && !strcmp(argv[1], "layertable")) gen_layertable(argv[2], argv[3], argc - 4, argv + 4);
    else die("%s", usage);
    return 0;
}
