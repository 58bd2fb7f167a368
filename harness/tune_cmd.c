/* fdtdbench tune: for each scheme and component, measure every candidate GPU block shape and
 * save the fastest in results/tuned/<gpu-slug>.conf (tuned.h), where run, sweep and bench look
 * first. The file is rewritten (temporary file, then rename) after each kernel is tuned, so an
 * interrupted run keeps what it finished, and a second run tunes only what is missing. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "measure.h"
#include "paper.h"
#include "session.h"
#include "tuned.h"

static const char *const help =
    "usage: fdtdbench tune [OPTIONS]\n"
    "Measures each candidate thread-block shape for each scheme and component on this GPU (every\n"
    "measurement verified first) and saves the fastest in " TUNED_DIR "/<gpu>.conf, which run, sweep\n"
    "and bench then use. Kernels already in that file are reused unless --force is given.\n"
    "Every measurement is also written to results/<gpu>/tune-<date>.csv (table \"blocks\").\n"
    "Shapes: the paper's Table 2 and Table 3 shapes, and Bx in {32,64,128,256} with By, Bz in\n"
    "{1,2,3,4,8}, at most the device's threads per block. Variants that march along z (zmarch)\n"
    "instead try Bx in {32,64,128,256}, By in {1,2,4,8}, Bz = 1, at most 256 threads, with 1 to 64\n"
    "nodes per thread (powers of two).\n"
    "  --scheme LIST|all       (all)\n"
    "  --component LIST|all    (all)\n"
    "  --precision f32|f64     (f32)\n"
    "  --coef array|uniform    (array)\n"
    "  --variant NAME          GPU kernel variant (baseline)\n"
    "  --grid NXxNYxNZ | N     (512, or less where the GPU's memory needs it)\n"
    "  --blocks LIST           only these shapes, e.g. 32x2x3,32x8x4\n"
    "  --reps R                timed samples per shape, the median is compared (5)\n"
    "  --force                 tune again what the file already has\n";

enum { MAX_SHAPES = 128, MAX_LIST = 64, DEFAULT_GRID = 512 };

/* Launch candidates: a block shape and, for variants that march along z, nodes per thread. */
struct shapes {
    int n;
    int b[MAX_SHAPES][3];
    int nodes[MAX_SHAPES];
};

static void add_launch(struct shapes *s, const int b[3], int nodes)
{
    for (int i = 0; i < s->n; i++)
        if (!memcmp(s->b[i], b, sizeof s->b[i]) && s->nodes[i] == nodes) return;
    if (s->n < MAX_SHAPES) memcpy(s->b[s->n], b, sizeof s->b[0]), s->nodes[s->n++] = nodes;
}
static void add_shape(struct shapes *s, const int b[3]) { add_launch(s, b, 1); }

/* A marching variant's candidates: flat blocks (the z extent comes from the nodes per thread)
 * of at most 256 threads, since an unrolled column takes many registers: Bx in {32,64,128,256},
 * By in {1,2,4,8}, 1 to 64 nodes each (70 in all). */
static void marching_shapes(struct shapes *s)
{
    static const int bx[] = {32, 64, 128, 256}, by[] = {1, 2, 4, 8}, nodes[] = {1, 2, 4, 8, 16, 32, 64};
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 4; y++)
            for (int n = 0; n < 7; n++)
                if (bx[x] * by[y] <= 256) add_launch(s, (int[3]){bx[x], by[y], 1}, nodes[n]);
}

/* The candidates: the paper's Table 2 and Table 3 shapes first, then the sweep (70 in all on a
 * GPU of 1024 threads per block). */
static void default_shapes(struct shapes *s, int max_threads)
{
    static const int bx[] = {32, 64, 128, 256}, byz[] = {1, 2, 3, 4, 8};
    for (int i = 0; i < (int)(sizeof paper_table2 / sizeof paper_table2[0]); i++) add_shape(s, paper_table2[i].block);
    for (int i = 0; i < (int)(sizeof paper_schemes / sizeof paper_schemes[0]); i++)
        add_shape(s, paper_schemes[i].best_block);
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 5; y++)
            for (int z = 0; z < 5; z++) {
                int b[3] = {bx[x], byz[y], byz[z]};
                if (b[0] * b[1] * b[2] <= max_threads) add_shape(s, b);
            }
}

/* The entries of the file, as read and as tuned so far. */
struct table {
    int n, cap;
    struct tuned_entry *e;
};

static void table_put(struct table *t, const struct tuned_entry *e)
{
    for (int i = 0; i < t->n; i++)
        if (tuned_same_kernel(&t->e[i], e)) {
            t->e[i] = *e;
            return;
        }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        if (!(t->e = realloc(t->e, (size_t)t->cap * sizeof *t->e))) cli_error("out of memory");
    }
    t->e[t->n++] = *e;
}

static const struct tuned_entry *table_find(const struct table *t, const struct tuned_entry *key)
{
    for (int i = 0; i < t->n; i++)
        if (tuned_same_kernel(&t->e[i], key)) return &t->e[i];
    return NULL;
}

/* Reads the kernel lines of path (none if it does not exist); date gets its "# date" line. */
static void table_read(struct table *t, const char *path, char date[64])
{
    FILE *f = fopen(path, "r");
    char line[512];
    struct tuned_entry e;
    date[0] = '\0';
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (tuned_parse(line, &e) == 0) table_put(t, &e);
        else if (sscanf(line, "# date %63[^\n]", date) != 1 && line[0] != '#' && line[strspn(line, " \t\r\n")])
            fprintf(stderr, "tune: %s: ignoring the line '%.*s'\n", path, (int)strcspn(line, "\n"), line);
    fclose(f);
}

static void mkdir_p(const char *dir)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1;; p++)
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) && errno != EEXIST) cli_error("cannot create folder %s: %s", buf, strerror(errno));
            if (!(*p = c)) return;
        }
}

/* Writes the whole table to path through a temporary file and a rename. */
static void table_write(const struct table *t, const char *path, const struct session *s, const int grid[3])
{
    char tmp[600], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    mkdir_p(TUNED_DIR);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) cli_error("cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "# fdtdbench tune: the fastest thread-block shape of each GPU kernel (median of the timed samples)\n");
    fprintf(f, "# date    %s\n# gpu     %s\n# detail  %s\n# driver  %s\n", date, s->desc.name, s->desc.detail,
            s->desc.driver);
    fprintf(f, "# grid    %dx%dx%d (the latest run; each line gives its own)\n", grid[0], grid[1], grid[2]);
    fprintf(f, "# bandwidth measured: %s %.1f GB/s, %s %.1f GB/s\n", s->bw.copy_name, s->bw.copy_gbs,
            s->bw.second_name, s->bw.second_gbs);
    tuned_print_header(f);
    for (int i = 0; i < t->n; i++) tuned_print(f, &t->e[i]);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        cli_error("cannot write %s: %s", path, strerror(e));
    }
}

static void duration(char *out, size_t n, double s)
{
    if (s >= 3600) snprintf(out, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
    else if (s >= 60) snprintf(out, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else snprintf(out, n, "%ds", (int)s);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 0 if every kernel to tune fits on the GPU with this grid, or -1 saying what does not. */
static int todo_fits(const struct tuned_entry *todo, int ntodo, const int grid[3], const struct device_desc *d,
                     char *why, size_t n)
{
    for (int i = 0; i < ntodo; i++) {
        struct run_config c = {.scheme = scheme_find(todo[i].scheme), .component = todo[i].component,
                               .precision = todo[i].precision, .coef = todo[i].coef, .device = DEV_GPU,
                               .variant = todo[i].variant, .grid = {grid[0], grid[1], grid[2]}, .reps = 1};
        if (run_fits(&c, d, why, n)) return -1;
    }
    return 0;
}

/* The known GPU variants, for the error message. */
static void variant_names(char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < gpu_kernel_table_len; i++) {
        const char *v = gpu_kernel_table[i].variant;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(gpu_kernel_table[j].variant, v);
        if (!seen) snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? ", " : "", v);
    }
}

int cmd_tune(int argc, char **argv)
{
    char *schemes[MAX_LIST], *components[MAX_LIST], *blocks[MAX_SHAPES];
    int ns = 0, nc = 0, nb = 0, precision = F32, coef = COEF_ARRAY, reps = 5, force = 0, grid[3] = {0, 0, 0};
    const char *variant = "baseline";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(help, stdout); return 0; }
        else if (!strcmp(a, "--scheme")) ns = split_list((char *)cli_value(argc, argv, &i), schemes, MAX_LIST);
        else if (!strcmp(a, "--component")) nc = split_list((char *)cli_value(argc, argv, &i), components, MAX_LIST);
        else if (!strcmp(a, "--precision")) precision = cli_precision(cli_value(argc, argv, &i));
        else if (!strcmp(a, "--coef")) coef = cli_coef(cli_value(argc, argv, &i));
        else if (!strcmp(a, "--variant")) variant = cli_value(argc, argv, &i);
        else if (!strcmp(a, "--grid")) cli_triple(a, cli_value(argc, argv, &i), 2 * HALO, 100000, grid);
        else if (!strcmp(a, "--blocks")) nb = split_list((char *)cli_value(argc, argv, &i), blocks, MAX_SHAPES);
        else if (!strcmp(a, "--reps")) reps = cli_int(a, cli_value(argc, argv, &i), 1, 1000);
        else if (!strcmp(a, "--force")) force = 1;
        else cli_error("tune: unknown option '%s' (see fdtdbench tune --help)", a);
    }
    /* Every value checked before anything is measured. */
    const struct scheme *sl[MAX_LIST];
    int cl[MAX_LIST];
    if (ns == 0 || (ns == 1 && !strcmp(schemes[0], "all")))
        for (ns = 0; ns < scheme_count(); ns++) sl[ns] = scheme_at(ns);
    else
        for (int i = 0; i < ns; i++) sl[i] = cli_scheme(schemes[i]);
    if (nc == 0 || (nc == 1 && !strcmp(components[0], "all")))
        for (nc = 0; nc < NCOMPONENTS; nc++) cl[nc] = nc;
    else
        for (int i = 0; i < nc; i++) cl[i] = cli_component(components[i]);
    struct session s;
    session_open(&s, DEV_GPU);
    if (!kernel_find(DEV_GPU, sl[0]->name, HX, precision, coef, variant)) {
        char known[128];
        variant_names(known, sizeof known);
        cli_error("tune: unknown GPU variant '%s' (known: %s)", variant, known);
    }
    struct shapes shapes = {0};
    for (int i = 0; i < nb; i++) {
        int b[3];
        cli_triple("--blocks", blocks[i], 1, 1 << 20, b);
        add_shape(&shapes, b);
    }
    const struct kernel_entry *any = kernel_find(DEV_GPU, sl[0]->name, HX, precision, coef, variant);
    if (!nb && any->marches) marching_shapes(&shapes);
    else if (!nb) default_shapes(&shapes, s.desc.max_threads);
    for (int i = 0; i < shapes.n; i++) {
        char why[256];
        if (s.b->check_block(shapes.b[i], why, sizeof why)) {
            if (nb) cli_error("--blocks: %s", why);
            memmove(shapes.b[i], shapes.b[i + 1], sizeof shapes.b[0] * (size_t)(shapes.n - i - 1));
            memmove(&shapes.nodes[i], &shapes.nodes[i + 1], sizeof shapes.nodes[0] * (size_t)(shapes.n - i - 1));
            shapes.n--, i--;
        }
    }

    /* What the file has already, and what is left to tune. */
    char path[512], date[64];
    tuned_path(s.slug, path, sizeof path);
    struct table table = {0};
    table_read(&table, path, date);
    struct tuned_entry todo[MAX_LIST * NCOMPONENTS];
    int ntodo = 0, nreused = 0;
    for (int si = 0; si < ns; si++)
        for (int ci = 0; ci < nc; ci++) {
            struct tuned_entry e = {.component = cl[ci], .precision = precision, .coef = coef};
            snprintf(e.scheme, sizeof e.scheme, "%s", sl[si]->name);
            snprintf(e.variant, sizeof e.variant, "%s", variant);
            if (!force && table_find(&table, &e)) nreused++;
            else todo[ntodo++] = e;
        }
    if (nreused)
        fprintf(stderr, "tune: %s already has %d of these kernels (tuned %s): reusing them%s\n", path, nreused,
                date[0] ? date : "at an unknown date", ntodo ? "" : "; --force tunes them again");

    /* The grid: 512^3 unless given, shrunk until the largest of these kernels fits. */
    char why[512];
    for (int g = DEFAULT_GRID; ntodo && !grid[0]; g -= 32)
        if (todo_fits(todo, ntodo, (int[3]){g, g, g}, &s.desc, why, sizeof why) == 0 || g <= 64)
            grid[0] = grid[1] = grid[2] = g;
    if (ntodo && todo_fits(todo, ntodo, grid, &s.desc, why, sizeof why)) cli_error("tune: %s", why);

    int total = ntodo * shapes.n, done = 0, failed = 0;
    /* Every measurement, not only the winners, goes to results/<gpu>/tune-<date>.csv (table
     * "blocks"): the data behind the block-shape heatmaps. */
    struct results_file rf = {0};
    if (ntodo) {
        if (results_open(&rf, "results", s.slug, "tune")) return 1;
        session_bandwidth(&s, 0);
        fprintf(stderr, "tune: %d kernels x %d block shapes = %d measurements on %dx%dx%d, %s %s %s\n", ntodo,
                shapes.n, total, grid[0], grid[1], grid[2], precision_names[precision], coef_names[coef], variant);
    }
    double start = now_s();
    int tty = isatty(2);
    for (int t = 0; t < ntodo; t++) {
        struct tuned_entry *e = &todo[t];
        e->mcells_per_s = -1;
        for (int b = 0; b < shapes.n; b++) {
            struct run_config c = {.scheme = scheme_find(e->scheme), .component = e->component,
                                   .precision = precision, .coef = coef, .device = DEV_GPU, .variant = variant,
                                   .grid = {grid[0], grid[1], grid[2]},
                                   .block = {shapes.b[b][0], shapes.b[b][1], shapes.b[b][2]}, .reps = reps,
                                   .nodes = shapes.nodes[b]};
            struct run_result r;
            done++;
            if (measure(s.b, &c, &s.bw, &s.desc, &r, why, sizeof why)) {
                fprintf(stderr, "%stune: %s %s block %dx%dx%d FAILED: %s\n", tty ? "\r\033[K" : "", e->scheme,
                        component_names[e->component], c.block[0], c.block[1], c.block[2], why);
                failed++;
            } else {
                results_row(rf.f, "blocks", &c, &r, &s.bw, &s.desc, -1);
                fflush(rf.f);
            }
            if (r.verified && r.mcells_per_s > e->mcells_per_s) {
                memcpy(e->block, c.block, sizeof e->block);
                e->nodes = c.nodes;
                memcpy(e->grid, grid, sizeof e->grid);
                e->mcells_per_s = r.mcells_per_s;
                e->gbs = r.gbs_effective;
            }
            if (tty) {
                char eta[32];
                duration(eta, sizeof eta, (now_s() - start) / done * (total - done));
                fprintf(stderr, "\r\033[K[%d/%d] %s %s %dx%dx%d ... ETA %s", done, total, e->scheme,
                        component_names[e->component], c.block[0], c.block[1], c.block[2], eta);
            }
        }
        char eta[32];
        duration(eta, sizeof eta, (now_s() - start) / done * (total - done));
        fprintf(stderr, "%s[%d/%d] %s %s: ", tty ? "\r\033[K" : "", done, total, e->scheme, component_names[e->component]);
        if (e->mcells_per_s < 0) {
            fprintf(stderr, "no block shape worked, nothing saved (ETA %s)\n", eta);
            continue;
        }
        fprintf(stderr, "best %dx%dx%d, %d nodes per thread, %.1f MCells/s, %.1f GB/s (ETA %s)\n", e->block[0],
                e->block[1], e->block[2], e->nodes, e->mcells_per_s, e->gbs, eta);
        table_put(&table, e);
        table_write(&table, path, &s, grid);
    }

    if (ntodo && results_close(&rf)) return 1;
    if (ntodo) fprintf(stderr, "tune: every measurement in %s\n", rf.path);

    /* The winners of this selection, from the file as it now stands. */
    printf("%s: %s (%s), driver %s\n", path, s.desc.name, s.desc.detail, s.desc.driver);
    tuned_print_header(stdout);
    for (int si = 0; si < ns; si++)
        for (int ci = 0; ci < nc; ci++) {
            struct tuned_entry key = {.component = cl[ci], .precision = precision, .coef = coef};
            snprintf(key.scheme, sizeof key.scheme, "%s", sl[si]->name);
            snprintf(key.variant, sizeof key.variant, "%s", variant);
            const struct tuned_entry *e = table_find(&table, &key);
            if (e) tuned_print(stdout, e);
        }
    free(table.e);
    if (failed) {
        fprintf(stderr, "tune: %d of %d measurements failed (listed above)\n", failed, total);
        return 1;
    }
    return 0;
}
