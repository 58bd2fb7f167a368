/* The kernel generator: turns spec files into kernel source by filling a backend template.
 *
 *   generate kernels TEMPLATE OUT SPEC...   every scheme x component x precision x storage x variant
 *   generate sources OUT SPEC...            the spec files' text, embedded in the binary
 *
 * A template (kernels_cpu/kernels.c.in, kernels_gpu/kernels.cu.in) is plain source cut into
 * sections by lines "//@@ prologue", "//@@ kernel VARIANT" (one or more), "//@@ table",
 * "//@@ entry" and "//@@ epilogue", emitted in that order: each kernel section once per kernel,
 * the entry section once per kernel after the table's head. In them these words are replaced:
 *   $NAME $SCHEME $COMPONENT $PRECISION $COEF $VARIANT $REAL
 *   $ARRAY     1 for array coefficients, 0 for uniform ones (for #if)
 *   $MARCHES   1 if the kernel section's header line ends in "marches" (each thread updates
 *              kernel_args.nodes consecutive nodes along z), else 0
 *   $DECLS     declarations of the inputs, through the template's macros
 *              DECL_LEVEL(name, l)  DECL_SRC(name, plus|minus)  DECL_COEF(name, da|db, idx)
 *   $BRACKETS  one statement per group: const REAL gG = <plus points> - (<minus points>);
 *              each point read as LD(array, OFF(di, dj, dk)); coefficients read as COEF(name)
 *   $BOXES     the bounding box of each source field's points, as constants a tiled variant
 *              sizes its shared memory by: constexpr int P_X0 = .., P_X1, P_Y0, P_Y1, P_Z0,
 *              P_Z1, and M_X0 .. M_Z1 for the minus field (offsets, inclusive)
 *   $UPDATE    the new value: sum_l COEF(daL)*LD(LL, OFF(0, 0, 0)) + sum_g COEF(dbG)*gG
 * so the backend decides how a load, an offset and a coefficient are spelled. */
#include "spec.h"

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

struct kernel_desc {
    const struct scheme *s;
    int component, precision, coef;
    const char *variant;
    int marches;
};

static void emit_points(struct buf *b, const char *array, const struct point *p, int n)
{
    for (int t = 0; t < n; t += 2) /* pairs: +m point minus -m point */
        put(b, "%s(LD(%s, OFF(%d, %d, %d)) - LD(%s, OFF(%d, %d, %d)))", t ? " + " : "", array,
            p[t].d[0], p[t].d[1], p[t].d[2], array, p[t + 1].d[0], p[t + 1].d[1], p[t + 1].d[2]);
}

static void emit_decls(struct buf *b, const struct kernel_desc *k)
{
    for (int l = 0; l < k->s->levels; l++) put(b, "    DECL_LEVEL(L%d, %d);\n", l, l);
    put(b, "    DECL_SRC(P, plus);\n    DECL_SRC(M, minus);\n");
    for (int l = 0; l < k->s->levels; l++) put(b, "    DECL_COEF(da%d, da, %d);\n", l, l);
    for (int g = 0; g < k->s->ngroups; g++) put(b, "    DECL_COEF(db%d, db, %d);\n", g, g);
}

static void emit_brackets(struct buf *b, const struct kernel_desc *k)
{
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms t;
        expand_group(k->s, g, k->component, &t);
        put(b, "%sconst REAL g%d = ", g ? "            " : "", g);
        emit_points(b, "P", t.plus, t.npoints);
        put(b, " - (");
        emit_points(b, "M", t.minus, t.npoints);
        put(b, ");%s", g + 1 < k->s->ngroups ? "\n" : "");
    }
}

static void emit_boxes(struct buf *b, const struct kernel_desc *k)
{
    int lo[2][3] = {{0}}, hi[2][3] = {{0}}; /* [plus, minus][axis]; the node itself is inside */
    for (int g = 0; g < k->s->ngroups; g++) {
        struct group_terms t;
        expand_group(k->s, g, k->component, &t);
        for (int p = 0; p < t.npoints; p++)
            for (int d = 0; d < 3; d++) {
                const int v[2] = {t.plus[p].d[d], t.minus[p].d[d]};
                for (int f = 0; f < 2; f++) {
                    if (v[f] < lo[f][d]) lo[f][d] = v[f];
                    if (v[f] > hi[f][d]) hi[f][d] = v[f];
                }
            }
    }
    for (int f = 0; f < 2; f++)
        put(b, "%sconstexpr int %c_X0 = %d, %c_X1 = %d, %c_Y0 = %d, %c_Y1 = %d, %c_Z0 = %d, %c_Z1 = %d;", f ? " " : "",
            "PM"[f], lo[f][0], "PM"[f], hi[f][0], "PM"[f], lo[f][1], "PM"[f], hi[f][1], "PM"[f], lo[f][2], "PM"[f],
            hi[f][2]);
}

static void emit_update(struct buf *b, const struct kernel_desc *k)
{
    for (int l = 0; l < k->s->levels; l++) put(b, "%sCOEF(da%d) * LD(L%d, OFF(0, 0, 0))", l ? " + " : "", l, l);
    for (int g = 0; g < k->s->ngroups; g++) put(b, " + COEF(db%d) * g%d", g, g);
}

static void kernel_name(char *out, size_t n, const struct kernel_desc *k)
{
    snprintf(out, n, "k_%s_%s_%s_%s_%s", k->s->name, component_names[k->component],
             precision_names[k->precision], coef_names[k->coef], k->variant);
}

static const char *const component_enum[] = {"HX", "HY", "HZ", "EX", "EY", "EZ"};

/* Copies text to out, replacing each $WORD it knows. */
static void fill(struct buf *out, const char *text, size_t len, const struct kernel_desc *k)
{
    char name[128];
    kernel_name(name, sizeof name, k);
    for (size_t i = 0; i < len;) {
        if (text[i] != '$') { put(out, "%c", text[i++]); continue; }
        size_t j = i + 1;
        while (j < len && (text[j] >= 'A' && text[j] <= 'Z')) j++;
        char word[32];
        size_t wl = j - i - 1;
        if (wl == 0 || wl >= sizeof word) { put(out, "$"); i++; continue; }
        memcpy(word, text + i + 1, wl);
        word[wl] = '\0';
        if (!strcmp(word, "NAME")) put(out, "%s", name);
        else if (!strcmp(word, "SCHEME")) put(out, "%s", k->s->name);
        else if (!strcmp(word, "COMPONENT")) put(out, "%s", component_enum[k->component]);
        else if (!strcmp(word, "PRECISION")) put(out, "%s", k->precision == F32 ? "F32" : "F64");
        else if (!strcmp(word, "COEF")) put(out, "%s", k->coef == COEF_ARRAY ? "COEF_ARRAY" : "COEF_UNIFORM");
        else if (!strcmp(word, "VARIANT")) put(out, "%s", k->variant);
        else if (!strcmp(word, "ARRAY")) put(out, "%d", k->coef == COEF_ARRAY);
        else if (!strcmp(word, "MARCHES")) put(out, "%d", k->marches);
        else if (!strcmp(word, "REAL")) put(out, "%s", k->precision == F32 ? "float" : "double");
        else if (!strcmp(word, "DECLS")) emit_decls(out, k);
        else if (!strcmp(word, "BRACKETS")) emit_brackets(out, k);
        else if (!strcmp(word, "UPDATE")) emit_update(out, k);
        else if (!strcmp(word, "BOXES")) emit_boxes(out, k);
        else die("template: unknown placeholder $%s", word);
        i = j;
    }
}

/* ---- templates ------------------------------------------------------------------- */

enum { MAX_VARIANTS = 8 };
struct section { const char *text; size_t len; char variant[32]; int marches; };
struct template {
    struct section prologue, table, entry, epilogue;
    struct section kernel[MAX_VARIANTS];
    int nkernels;
};

static void parse_template(const char *path, char *text, struct template *t)
{
    memset(t, 0, sizeof *t);
    struct section *cur = NULL;
    for (char *line = text; *line;) {
        char *eol = strchr(line, '\n');
        char *next = eol ? eol + 1 : line + strlen(line);
        if (strncmp(line, "//@@ ", 5) == 0) {
            char kind[32] = "", variant[32] = "", flag[32] = "", header[128];
            snprintf(header, sizeof header, "%.*s", (int)(next - line - 5), line + 5); /* this line only */
            if (sscanf(header, "%31s %31s %31s", kind, variant, flag) < 1) die("%s: empty //@@ line", path);
            if (!strcmp(kind, "prologue")) cur = &t->prologue;
            else if (!strcmp(kind, "table")) cur = &t->table;
            else if (!strcmp(kind, "entry")) cur = &t->entry;
            else if (!strcmp(kind, "epilogue")) cur = &t->epilogue;
            else if (!strcmp(kind, "kernel")) {
                if (t->nkernels == MAX_VARIANTS) die("%s: more than %d kernel sections", path, MAX_VARIANTS);
                if (!variant[0]) die("%s: '//@@ kernel' needs a variant name", path);
                cur = &t->kernel[t->nkernels++];
                strcpy(cur->variant, variant);
                if (flag[0] && strcmp(flag, "marches")) die("%s: unknown kernel flag '%s'", path, flag);
                cur->marches = flag[0] != 0;
            } else die("%s: unknown section '%s'", path, kind);
            cur->text = next;
        } else if (cur) {
            cur->len = (size_t)(next - cur->text);
        }
        line = next;
    }
    if (!t->nkernels || !t->entry.text) die("%s: needs '//@@ kernel' and '//@@ entry' sections", path);
}

static void load_specs(int n, char **paths, struct scheme *out)
{
    for (int i = 0; i < n; i++) {
        char *text = read_file(paths[i]), err[512];
        if (spec_parse(text, paths[i], &out[i], err, sizeof err)) die("%s", err);
        for (int j = 0; j < i; j++)
            if (!strcmp(out[i].name, out[j].name)) die("%s: scheme '%s' also in %s", paths[i], out[i].name, paths[j]);
        free(text);
    }
}

static void write_out(const char *path, const struct buf *b)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(b->s, 1, b->len, f) != b->len || fclose(f)) die("cannot write %s", tmp);
    if (rename(tmp, path)) die("cannot rename %s to %s", tmp, path);
}

static void gen_kernels(const char *tpath, const char *out_path, int n, char **spec_paths)
{
    struct scheme *schemes = calloc((size_t)n, sizeof *schemes);
    load_specs(n, spec_paths, schemes);
    char *ttext = read_file(tpath);
    struct template t;
    parse_template(tpath, ttext, &t);
    struct buf out = {0}, table = {0};
    put(&out, "/* Generated by stencils/generate from %s and the spec files; do not edit. */\n", tpath);
    put(&out, "%.*s", (int)t.prologue.len, t.prologue.text);
    for (int s = 0; s < n; s++)
        for (int v = 0; v < t.nkernels; v++)
            for (int c = 0; c < NCOMPONENTS; c++)
                for (int p = 0; p < 2; p++)
                    for (int cs = 0; cs < 2; cs++) {
                        struct kernel_desc k = {&schemes[s], c, p, cs, t.kernel[v].variant, t.kernel[v].marches};
                        fill(&out, t.kernel[v].text, t.kernel[v].len, &k);
                        fill(&table, t.entry.text, t.entry.len, &k);
                    }
    put(&out, "%.*s", (int)t.table.len, t.table.text);
    put(&out, "%.*s", (int)table.len, table.s);
    put(&out, "%.*s", (int)t.epilogue.len, t.epilogue.text);
    write_out(out_path, &out);
    free(out.s), free(table.s), free(ttext), free(schemes);
}

/* The spec files as C string literals, so the binary needs no files at run time. */
static void gen_sources(const char *out_path, int n, char **spec_paths)
{
    struct scheme *schemes = calloc((size_t)n, sizeof *schemes);
    load_specs(n, spec_paths, schemes);
    struct buf out = {0};
    put(&out, "/* Generated by stencils/generate from the spec files; do not edit. */\n");
    put(&out, "const int builtin_spec_count = %d;\n", n);
    put(&out, "const char *const builtin_spec_files[] = {\n");
    for (int i = 0; i < n; i++) put(&out, "    \"%s\",\n", spec_paths[i]);
    put(&out, "};\nconst char *const builtin_spec_texts[] = {\n");
    for (int i = 0; i < n; i++) {
        char *text = read_file(spec_paths[i]);
        put(&out, "    \"");
        for (const char *c = text; *c; c++) {
            if (*c == '\n') put(&out, "\\n\"\n    \"");
            else if (*c == '"' || *c == '\\') put(&out, "\\%c", *c);
            else put(&out, "%c", *c);
        }
        put(&out, "\",\n");
        free(text);
    }
    put(&out, "};\n");
    write_out(out_path, &out);
    free(out.s), free(schemes);
}

int main(int argc, char **argv)
{
    if (argc >= 5 && !strcmp(argv[1], "kernels")) gen_kernels(argv[2], argv[3], argc - 4, argv + 4);
    else if (argc >= 4 && !strcmp(argv[1], "sources")) gen_sources(argv[2], argc - 3, argv + 3);
    else die("usage: generate kernels TEMPLATE OUT SPEC... | generate sources OUT SPEC...");
    return 0;
}
