/* fdtdbench tune: for each scheme and component, measure every candidate GPU block shape and
 * save the fastest in results/tuned/<gpu-slug>.conf (tuned.h), where run, sweep and bench look
 * first. The file is rewritten (temporary file, then rename) after each kernel is tuned, so an
 * interrupted run keeps what it finished, and a second run tunes only what is missing. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "measure.h"
#include "metrics.h"
#include "outfile.h"
#include "paper.h"
#include "session.h"
#include "step_measure.h"
#include "tuned.h"
#include "wave.h"

static const char *const help =
    "usage: fdtdbench tune [OPTIONS]\n"
    "Finds the fastest launch (thread-block shape; nodes per thread for the variants that march\n"
    "along z; rows of nodes per thread along y and the pipeline depth for the tiled ones) of each\n"
    "GPU kernel variant, scheme and component on this GPU, the final few launches verified first, and\n"
    "saves the winners in " TUNED_DIR "/<gpu>.conf, which run, sweep and bench then use. Kernels\n"
    "already in that file are reused unless --force is given. Every measurement is also written to\n"
    "results/<gpu>/tune-<date>.csv (table \"blocks\"; \"blocks-f64\", \"blocks-uniform\" and so on\n"
    "for the other precisions and storages).\n"
    "Without --component: Hx in every variant, then the other five components in each scheme's\n"
    "fastest variant (what bench reports); --component all: every component of every variant.\n"
    "Search: for each variant and scheme, the first component tries a coarse set of launches (the\n"
    "paper's Table 3 shapes and a spread of 3-D blocks; for marching variants flat blocks with 1,\n"
    "8 or 32 nodes per thread, 32-256 wide and as wide as tiles that fit the grid's rows (320 and 160\n"
    "at 300^3); tiled variants at their own rows, at their own pipeline depth and\n"
    "one less), then from the best, and from the best of another block shape within 3% of it,\n"
    "to the fastest of the neighbours (each extent, the nodes and the rows halved and doubled,\n"
    "up to 128 nodes and 8 rows, and the depth one less and one more) until none is\n"
    "faster (eight rounds at most); the other components, and another precision or storage (f64,\n"
    "uniform), start from that winner's neighbours (the f32 array one's) and go on around the\n"
    "best. Each launch is timed with one sample while searching; then the launches within 1% of\n"
    "the fastest, at most two, are timed again with --reps samples, and the fastest of those is\n"
    "saved (the CSV's reps column tells the two kinds of row apart).\n"
    "Launches a variant does not take (its traits, shared memory, the row counts and depths it was\n"
    "compiled for) are skipped.\n"
    "--step tunes the fused full step's launch (fdtdbench step --variant fused, and the tiled fused25d)\n"
    "of each scheme and coefficient storage instead, saved as variant step:VARIANT; step and bench use it:\n"
    "its blocks (tiles) at the first node count (tiles also one plane shallower), the three fastest\n"
    "at the second, the best then with its rows halved and doubled and its depth one less and one\n"
    "more; timed with one sample, then the final few with --reps, as above; fused's winner then with\n"
    "its registers capped at 40, 48 and 64 a thread (step --regs), fused25d's in f32 at 80 and 96;\n"
    "the temporally blocked wave25d: its first tile at 1 to 4 steps a pass, then six more tiles at\n"
    "each of those within 15% of the best, then the best tile at a step a pass more and less.\n"
    "With --device cpu, --step tunes the fused step's nodes along z a pass and tile (as a CPU\n"
    "kernel's) and the temporally blocked step (wave): its steps per pass (2, 4, 8, then one more\n"
    "and less than the best) and planes per sweep step (1, then 2 and 4), per scheme and storage,\n"
    "at 300^3.\n";

enum { MAX_SHAPES = 512, MAX_LIST = 64, MAX_VARIANTS = 16, DEFAULT_GRID = 512 };

/* Launch candidates: a block shape and, for variants that march along z, nodes per thread; for
 * tiled variants, rows per thread (0: the kernel's default, which try_launches puts in). */
struct shapes {
    int n;
    int b[MAX_SHAPES][3];
    int nodes[MAX_SHAPES], rows[MAX_SHAPES], stages[MAX_SHAPES];
};

/* The index of a launch in s, or -1. */
static int launch_index(const struct shapes *s, const int b[3], int nodes, int rows, int stages)
{
    for (int i = 0; i < s->n; i++)
        if (!memcmp(s->b[i], b, sizeof s->b[i]) && s->nodes[i] == nodes && s->rows[i] == rows &&
            s->stages[i] == stages)
            return i;
    return -1;
}

static void add_launch(struct shapes *s, const int b[3], int nodes, int rows, int stages)
{
    if (launch_index(s, b, nodes, rows, stages) < 0 && s->n < MAX_SHAPES)
        memcpy(s->b[s->n], b, sizeof s->b[0]), s->nodes[s->n] = nodes, s->rows[s->n] = rows,
                                               s->stages[s->n++] = stages;
}

/* Search in two passes. Screening: every candidate timed with one sample. A measurement cost
 * ~130 ms on the H100, 25-30 ms of it per sample (probe pass, warm-up, 20 ms batch), the rest
 * allocation, fill and verification; one sample was within 0.6% of the three's median in 99% of
 * the 2050 launches of a `make tune` that took 403 s. Then the final few: the launches within
 * FINAL_CLOSE of the fastest screened one, at most FINALS, timed again with --reps samples, the
 * fastest of those saved (bench picks a kernel's variant by the saved figure). Replayed on that
 * run's rows: the same winners (linear's within 0.2%, shapes of equal thread count) in ~260 s;
 * on a lent H100 285 s, where the old search took 430 s. Screening does not verify (verifying took
 * 37 of the 105 s of a new H100's f32 search): only the final few are verified, before they are
 * timed again, and a launch that fails there is not saved. */
enum { FINALS = 2, STEP_SECOND_NODES = 3 };
static const double FINAL_CLOSE = 0.99;

/* The launches measured for one kernel (or step) and their MCells/s; -1 where one failed. */
struct timed {
    struct shapes s;
    double mc[MAX_SHAPES];
};

static void timed_put(struct timed *t, const int b[3], int nodes, int rows, int stages, double mc)
{
    int i = launch_index(&t->s, b, nodes, rows, stages);
    if (i < 0 && t->s.n < MAX_SHAPES) i = t->s.n, add_launch(&t->s, b, nodes, rows, stages);
    if (i >= 0) t->mc[i] = mc;
}

/* Up to k of t's launches, fastest first, each at least `floor` times the fastest's MCells/s. */
static void fastest(const struct timed *t, int k, double floor, struct shapes *out)
{
    char taken[MAX_SHAPES] = {0};
    double best = -1;
    for (int i = 0; i < t->s.n; i++)
        if (t->mc[i] > best) best = t->mc[i];
    while (k-- > 0) {
        int m = -1;
        for (int i = 0; i < t->s.n; i++)
            if (!taken[i] && t->mc[i] >= 0 && t->mc[i] >= floor * best && (m < 0 || t->mc[i] > t->mc[m])) m = i;
        if (m < 0) return;
        taken[m] = 1;
        add_launch(out, t->s.b[m], t->s.nodes[m], t->s.rows[m], t->s.stages[m]);
    }
}

/* Nodes per thread (marching variants) the search goes up to. Longer columns gained under a
 * point at 512^3 on the H100 and left smaller grids too few blocks (FV24 in tile25d tuned to 512
 * nodes: 66% of bandwidth at 384^3 against 82% with 64). Rows per thread (tiled variants)
 * likewise: eight rows spilled registers in every high-order kernel. Depths: those compiled
 * (TILE_STAGES, 2 and 3); a depth of 4, were it compiled, would still be tried. */
enum { MAX_TUNED_NODES = 128, MAX_TUNED_ROWS = 8, MAX_TUNED_STAGES = 4 };

/* ", 2 rows, 3 stages": a launch's rows and depth where they are not the trivial ones (run's rule). */
static const char *tiling_text(int rows, int stages)
{
    static char s[48];
    int n = 0;
    s[0] = '\0';
    if (rows > 1) n = snprintf(s, sizeof s, ", %d rows", rows);
    if (stages > 0) snprintf(s + n, sizeof s - n, ", %d stages", stages);
    return s;
}

enum { MAX_FITTING = 4 };

/* Tile widths that fit a row of nx nodes where powers of two do not: the warp multiples w that
 * cover it in m tiles (m = 1, 2, ...) with at most 1/12 of the lanes idle, other than 32-256.
 * At 300^3, 128-wide tiles leave a fifth of the lanes idle (Table 4 lost 10-25 points there
 * against 512^3); 320 and 160 cover a row in one or two tiles with 20 of 320 idle. */
static int fitting_widths(int nx, int *w)
{
    int n = 0;
    for (int m = 1; m <= nx / 32 && n < MAX_FITTING; m++) {
        const int width = ((nx + m - 1) / m + 31) & ~31;
        if (width > 512 || 12 * (m * width - nx) > nx || (width & (width - 1)) == 0) continue;
        if (n == 0 || w[n - 1] != width) w[n++] = width;
    }
    return n;
}

/* The first component's candidates. Marching variants: flat blocks 32-256 wide, and as wide as
 * fitting_widths gives for the grid, with one node per thread (best for Yee in zmarch, which a
 * search from 8 did not reach), a short and a long column (36 without fitting widths);
 * a pipelined one each at its own depth and one less (72): on the H200, FV24's best launch at
 * depth 2 (128x2x1, two rows, 84% of the probe) was not a neighbour of its best at depth 3 (64x2x1,
 * 77%), and a search that started at 3 alone stopped there. The others: the paper's Table 3
 * shapes, then a spread of 3-D shapes (about 22). Every one at the kernel's own rows (the
 * neighbours vary them). */
static void coarse_shapes(const struct variant_traits *t, int nx, struct shapes *s)
{
    static const int by[] = {1, 2, 4, 8}, nodes[] = {1, 8, 32};
    int bx[4 + MAX_FITTING] = {32, 64, 128, 256}, nbx = 4 + fitting_widths(nx, bx + 4);
    if (t->marches) {
        for (int x = 0; x < nbx; x++)
            for (int y = x < 4 ? 1 : 0; y < (x < 4 ? 4 : 3); y++) /* fitting widths: 1 to 4 rows of threads */
                for (int n = 0; n < 3; n++) {
                    add_launch(s, (int[3]){bx[x], by[y], 1}, nodes[n], 0, 0);
                    if (t->stages > 1) add_launch(s, (int[3]){bx[x], by[y], 1}, nodes[n], 0, t->stages - 1);
                }
        return;
    }
    for (int i = 0; i < (int)(sizeof paper_schemes / sizeof paper_schemes[0]); i++)
        add_launch(s, paper_schemes[i].best_block, 1, 0, 0);
    for (int x = 0; x < 4; x += x == 0 ? 2 : 1) /* 32, 128, 256 */
        for (int y = 0; y < 3; y++)
            for (int z = 1; z <= (t->flat ? 1 : 2); z++) add_launch(s, (int[3]){bx[x], by[y], z}, 1, 0, 0);
}

/* A launch with its rows per thread halved and doubled, its pipeline depth one less and one more,
 * and both (more rows, one stage less; fewer, one more), where the variant takes others (rows or a
 * depth the kernel was not compiled for are then refused, by check_launch or step_measure). */
static void other_tiling(const struct variant_traits *t, const int b[3], int nodes, int rows, int stages,
                         struct shapes *s)
{
    if (t->rows) {
        if (rows > 1) add_launch(s, b, nodes, rows / 2, stages);
        if (rows * 2 <= MAX_TUNED_ROWS) add_launch(s, b, nodes, rows * 2, stages);
    }
    if (t->stages) {
        if (stages > 1) add_launch(s, b, nodes, rows, stages - 1);
        if (stages < MAX_TUNED_STAGES) add_launch(s, b, nodes, rows, stages + 1);
    }
    if (t->rows && t->stages) { /* both at once, about the same bytes in flight: tile25d FV24 uniform on
        * the H100 ran at 75% of the probe with 2 rows, 3 stages, 67% and 63% one step away, 84% at 4, 2 */
        if (rows * 2 <= MAX_TUNED_ROWS && stages > 1) add_launch(s, b, nodes, rows * 2, stages - 1);
        if (rows > 1 && stages < MAX_TUNED_STAGES) add_launch(s, b, nodes, rows / 2, stages + 1);
    }
}

/* A launch and its neighbours: each block extent, and the nodes per thread, halved and doubled;
 * for a tiled variant its other rows and depths too. */
static void neighbours(const struct variant_traits *t, const int b[3], int nodes, int rows, int stages,
                       struct shapes *s)
{
    add_launch(s, b, nodes, rows, stages);
    for (int d = 0; d < (t->flat ? 2 : 3); d++)
        for (int f = 0; f < 2; f++) {
            int nb[3] = {b[0], b[1], b[2]};
            nb[d] = f ? nb[d] * 2 : nb[d] / 2;
            if (nb[d] >= 1) add_launch(s, nb, nodes, rows, stages);
        }
    if (t->marches) {
        if (nodes > 1) add_launch(s, b, nodes / 2, rows, stages);
        if (nodes * 2 <= MAX_TUNED_NODES) add_launch(s, b, nodes * 2, rows, stages);
    }
    other_tiling(t, b, nodes, rows, stages, s);
}

/* The entries of the file, as read and as tuned so far. */
struct table {
    int n, cap;
    struct tuned_entry *e;
};

static void table_put(struct table *t, const struct tuned_entry *e)
{
    for (int i = 0; i < t->n; i++)
        if (tuned_same_line(&t->e[i], e)) {
            t->e[i] = *e;
            return;
        }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        if (!(t->e = realloc(t->e, (size_t)t->cap * sizeof *t->e))) cli_fail("out of memory");
    }
    t->e[t->n++] = *e;
}

static const struct tuned_entry *table_find(const struct table *t, const struct tuned_entry *key)
{
    for (int i = 0; i < t->n; i++)
        if (tuned_same_line(&t->e[i], key)) return &t->e[i];
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

/* Writes the whole table to path (in TUNED_DIR), complete or not at all (outfile.h). */
static void table_write(const struct table *t, const char *path, const struct session *s, const int grid[3])
{
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    struct outfile o;
    if (outfile_open(&o, TUNED_DIR, path)) exit(1);
    FILE *f = o.f;
    fprintf(f, "# fdtdbench tune: the fastest launch of each %s kernel (median of the timed samples)\n",
            device_names[s->device]);
    fprintf(f, "# date    %s\n# %-7s %s\n# detail  %s\n# driver  %s\n", date, device_names[s->device], s->desc.name,
            s->desc.detail, s->desc.driver);
    fprintf(f, "# grid    %dx%dx%d (the latest run; each line gives its own)\n", grid[0], grid[1], grid[2]);
    fprintf(f, "# bandwidth measured: %s %.1f GB/s, %s %.1f GB/s\n", s->bw.copy_name, s->bw.copy_gbs,
            s->bw.second_name, s->bw.second_gbs);
    tuned_print_header(f);
    for (int i = 0; i < t->n; i++) tuned_print(f, &t->e[i]);
    if (outfile_replace(&o, strrchr(path, '/') + 1)) exit(1);
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

/* The tuned-file key of one kernel at a grid (no launch yet). */
static struct tuned_entry kernel_key(const char *variant, const struct scheme *s, int component, int precision,
                                     int coef, const int grid[3])
{
    struct tuned_entry e = {.component = component, .precision = precision, .coef = coef};
    snprintf(e.scheme, sizeof e.scheme, "%s", s->name);
    snprintf(e.variant, sizeof e.variant, "%s", variant);
    memcpy(e.grid, grid, sizeof e.grid);
    return e;
}

/* The tuned file's key of a step of fused variant v (its line's variant is TUNED_STEP_PREFIX v). */
static struct tuned_entry step_key(const char *v, const struct scheme *s, int precision, int coef, const int grid[3])
{
    char key[sizeof ((struct tuned_entry *)0)->variant];
    snprintf(key, sizeof key, TUNED_STEP_PREFIX "%.26s", v);
    return kernel_key(key, s, HX, precision, coef, grid);
}

/* What one search step needs to measure a launch and keep the best. */
struct search {
    struct session *s;
    struct results_file *rf;
    int grid[3], reps, done, failed, tty, force;
    double start, compiling; /* seconds (wall) compiling candidates in parallel */
    struct timed seen; /* the kernel's launches measured so far: none is measured twice */
};

/* Measures kernel e with `reps` samples at every candidate it takes and has not had yet; keeps
 * the fastest in e. Returns 1 if e improved. */
static int try_launches(struct search *q, struct tuned_entry *e, const struct shapes *c, int reps)
{
    char why[512];
    int improved = 0;
    const struct kernel_entry *k = kernel_find(DEV_GPU, e->scheme, e->component, e->precision, e->coef, e->variant);
    struct shapes todo = *c; /* every candidate compiled first, in parallel */
    for (int i = 0; i < todo.n; i++) declared_tiling(&k->traits, &todo.rows[i], &todo.stages[i]);
    const double t0 = omp_get_wtime();
    prepare_launches(q->s->b, k, q->grid, todo.n, (const int(*)[3])todo.b, todo.nodes, todo.rows, todo.stages);
    q->compiling += omp_get_wtime() - t0;
    for (int i = 0; i < c->n; i++) {
        int rows = c->rows[i], stages = c->stages[i];
        declared_tiling(&k->traits, &rows, &stages); /* 0: the kernel's own, recorded as such */
        if (launch_index(&q->seen.s, c->b[i], c->nodes[i], rows, stages) >= 0) continue;
        if (check_launch(q->s->b, k, q->grid, c->b[i], c->nodes[i], rows, stages, why, sizeof why)) continue;
        struct run_config rc = {.scheme = scheme_find(e->scheme), .component = e->component, .precision = e->precision,
                                .coef = e->coef, .device = DEV_GPU, .variant = e->variant,
                                .grid = {q->grid[0], q->grid[1], q->grid[2]},
                                .block = {c->b[i][0], c->b[i][1], c->b[i][2]}, .reps = reps, .nodes = c->nodes[i],
                                .rows = rows, .stages = stages, .screening = reps < q->reps};
        struct run_result r;
        q->done++;
        if (measure(q->s->b, &rc, &q->s->desc, &r, why, sizeof why)) {
            fprintf(stderr, "%stune: %s %s %s block %dx%dx%d, %d nodes%s FAILED: %s\n", q->tty ? "\r\033[K" : "",
                    e->variant, e->scheme, component_names[e->component], rc.block[0], rc.block[1], rc.block[2], rc.nodes,
                    tiling_text(rc.rows, rc.stages), why);
            q->failed++;
            timed_put(&q->seen, c->b[i], c->nodes[i], rows, stages, -1);
            continue;
        }
        /* "blocks" for f32 array kernels, the block-shape heatmaps' table; other precisions and
         * storages get their own, so that their (newer) file does not stand in for it. */
        char table[32];
        const int f64 = rc.precision != F32, other = rc.coef != COEF_ARRAY;
        snprintf(table, sizeof table, "blocks%s%s%s%s", f64 ? "-" : "", f64 ? precision_names[rc.precision] : "",
                 other ? "-" : "", other ? coef_names[rc.coef] : "");
        results_row(q->rf->f, table, &rc, &r, &q->s->desc, -1);
        results_check(q->rf);
        struct record m = {table, &rc, &r, &q->s->desc, NAN};
        const double mc = r.verified || rc.screening ? metric_num(METRIC_mcells_per_s, &m) : -1;
        timed_put(&q->seen, c->b[i], c->nodes[i], rows, stages, mc);
        if (mc > e->mcells_per_s) {
            memcpy(e->block, rc.block, sizeof e->block);
            e->nodes = rc.nodes, e->rows = rc.rows, e->stages = rc.stages;
            memcpy(e->grid, q->grid, sizeof e->grid);
            e->mcells_per_s = mc;
            e->gbs = metric_num(METRIC_gbs_effective, &m);
            improved = 1;
        }
        if (q->tty)
            fprintf(stderr, "\r\033[K[%d measured] %s %s %s %dx%dx%d x%d%s ...", q->done, e->variant, e->scheme,
                    component_names[e->component], rc.block[0], rc.block[1], rc.block[2], rc.nodes,
                    tiling_text(rc.rows, rc.stages));
    }
    return improved;
}

/* The final few of e's screened launches timed again with the full reps; e becomes the fastest
 * (and takes its figures from that timing, whichever climb found it). */
static void final_few(struct search *q, struct tuned_entry *e)
{
    struct shapes f = {0};
    if (e->mcells_per_s < 0) return;
    fastest(&q->seen, FINALS, FINAL_CLOSE, &f);
    e->mcells_per_s = -1;
    q->seen.s.n = 0;
    try_launches(q, e, &f, q->reps);
}

/* Rounds a climb may take. Four stopped FV24's uniform tile25d on the H100 (a591435) while it was
 * still climbing, at 64x2x1, 32 nodes, 4 rows, 3 stages (84.3% of the probe), three moves short of
 * 128x2x1, 16 nodes, 4 rows, 2 stages (90.4%, alternated); with eight it reached 88.8% on another
 * H100 (0.974x as fast), and the tune took no longer. A climb that stops moving ends earlier. */
enum { CLIMB_ROUNDS = 8 };

/* From launch cur (screened), to the fastest of its neighbours, until none is faster (at most
 * CLIMB_ROUNDS); a neighbour screened before, by another climb, counts with its figure. */
static void climb_from(struct search *q, const struct kernel_entry *k, struct tuned_entry *cur)
{
    for (int round = 0; round < CLIMB_ROUNDS && cur->mcells_per_s >= 0; round++) {
        struct shapes n = {0};
        neighbours(&k->traits, cur->block, cur->nodes, cur->rows, cur->stages, &n);
        int moved = try_launches(q, cur, &n, 1);
        for (int i = 0; i < n.n; i++) {
            int rows = n.rows[i], stages = n.stages[i];
            declared_tiling(&k->traits, &rows, &stages);
            const int at = launch_index(&q->seen.s, n.b[i], n.nodes[i], rows, stages);
            if (at >= 0 && q->seen.mc[at] > cur->mcells_per_s) {
                memcpy(cur->block, n.b[i], sizeof cur->block);
                cur->nodes = n.nodes[i], cur->rows = rows, cur->stages = stages, cur->mcells_per_s = q->seen.mc[at];
                moved = 1;
            }
        }
        if (!moved) break;
    }
}

/* Climbs from the coarse set's fastest launch and from its fastest of another block shape within
 * START_CLOSE of it: at 300^3 on the H100, FV24's best coarse launch (64x4x1, 8 nodes: 80.7% of
 * the probe) led nowhere better, while the second (160x2x1, 32 nodes: 79.7%) was two moves from
 * 83.0% (16 nodes, two rows), which no neighbour of the first reaches. */
enum { STARTS = 2 };
static const double START_CLOSE = 0.97;

/* Tunes e: the coarse set, then around its best starts until no neighbour is faster, then the
 * final few. A kernel with a tuned sibling (sibling_of) starts from the sibling's winner and its
 * neighbours instead, and climbs from the best of those. A component's climb: on the H100
 * (4d5b746) S{2,2}'s Hz, given only Hx's neighbours (256x2x1 with 64 nodes, one row, three stages),
 * ran 89.65% of the probe; climbing, it found 256x1x1 with two rows and three stages, 91.4%
 * (alternated on one H100); the 18 kernels of that tune took 426 launches where 367 before. */
static void tune_kernel(struct search *q, struct tuned_entry *e, const struct tuned_entry *sibling)
{
    const struct kernel_entry *k = kernel_find(DEV_GPU, e->scheme, e->component, e->precision, e->coef, e->variant);
    struct shapes c = {0}, starts = {0};
    e->mcells_per_s = -1;
    q->seen.s.n = 0;
    const int from_sibling = sibling && sibling->mcells_per_s >= 0;
    if (from_sibling) neighbours(&k->traits, sibling->block, sibling->nodes, sibling->rows, sibling->stages, &c);
    else coarse_shapes(&k->traits, q->grid[0], &c);
    try_launches(q, e, &c, 1);
    if (from_sibling) {
        climb_from(q, k, e);
    } else {
        struct shapes close = {0};
        fastest(&q->seen, MAX_SHAPES, START_CLOSE, &close);
        for (int i = 0; i < close.n && starts.n < STARTS; i++) { /* each start a block shape of its own */
            int other = 1;
            for (int j = 0; j < starts.n; j++) other = other && memcmp(starts.b[j], close.b[i], sizeof close.b[i]);
            if (other) add_launch(&starts, close.b[i], close.nodes[i], close.rows[i], close.stages[i]);
        }
    }
    for (int i = 0; i < starts.n; i++) {
        struct tuned_entry cur = *e;
        memcpy(cur.block, starts.b[i], sizeof cur.block);
        cur.nodes = starts.nodes[i], cur.rows = starts.rows[i], cur.stages = starts.stages[i];
        cur.mcells_per_s = q->seen.mc[launch_index(&q->seen.s, starts.b[i], starts.nodes[i], starts.rows[i], starts.stages[i])];
        climb_from(q, k, &cur);
        if (cur.mcells_per_s > e->mcells_per_s) *e = cur;
    }
    final_few(q, e);
}

/* Step c at launch i of l (its block, nodes, tiling). A temporally blocked step's launch gives
 * its steps a pass as nodes (tuned.h); its planes a block: the variant's declared chunk (one
 * where it has none, the CPU's wave). */
static struct step_config step_at(struct step_config c, const struct shapes *l, int i)
{
    memcpy(c.block, l->b[i], sizeof c.block);
    c.nodes = l->nodes[i], c.rows = l->rows[i], c.stages = l->stages[i];
    if (step_temporal(c.b->device, c.variant)) {
        const struct variant_traits *t = step_fused_traits(c.b->device, c.variant);
        c.tsteps = c.nodes, c.nodes = t->passes ? t->nodes : 1;
    }
    return c;
}

/* Measures the step c with `reps` samples at each launch of l, records each in t and keeps the
 * fastest in e; a launch the step refuses (step_measure's why) is skipped. The launches' kernels
 * are compiled beforehand, many at once (prepare_searches; on the CPU one compilation a step
 * serves every launch), else when first launched. */
static void try_steps(struct session *s, struct step_run *c, const struct shapes *l, int reps, struct tuned_entry *e,
                      struct timed *t, const int grid[3], char *why, size_t n)
{
    const int temporal = step_temporal(s->device, c->c.variant); /* a launch's nodes: its steps a pass */
    for (int i = 0; i < l->n; i++) {
        struct step_result r;
        c->c = step_at(c->c, l, i), c->reps = reps;
        double mc = -1;
        if (step_measure(c, &s->desc, &r, why, n) == 0) {
            const struct step_record m = {"tune", c, &r, &s->desc};
            mc = step_num(STEP_mcells_per_s, &m);
            if (mc > e->mcells_per_s) {
                memcpy(e->block, c->c.block, sizeof e->block);
                e->nodes = l->nodes[i], e->rows = c->c.rows, e->stages = c->c.stages;
                e->mcells_per_s = mc, e->gbs = step_num(STEP_gbs_effective, &m);
                memcpy(e->grid, grid, sizeof e->grid);
            }
            if (temporal && s->device == DEV_GPU)
                fprintf(stderr, "  %s %s %s, steps a pass %d, block %dx%d, %d rows: %.1f MCells/s (%.0f%% of bw)\n",
                        c->c.s->name, coef_names[c->c.coef], c->c.variant, c->c.tsteps, c->c.block[0], c->c.block[1],
                        c->c.rows, mc, r.pct_bw);
            else if (temporal)
                fprintf(stderr, "  %s %s %s, steps a pass %d, planes a sweep step %d: %.1f MCells/s (%.0f%% of bw)\n",
                        c->c.s->name, coef_names[c->c.coef], c->c.variant, c->c.tsteps, c->c.block[2], mc, r.pct_bw);
            else if (s->device == DEV_CPU)
                fprintf(stderr, "  %s %s %s, tile %dx%d, %d nodes along z a pass: %.1f MCells/s (%.0f%% of bw)\n",
                        c->c.s->name, coef_names[c->c.coef], c->c.variant, c->c.block[1], c->c.block[2], c->c.nodes, mc,
                        r.pct_bw);
        }
        timed_put(t, l->b[i], l->nodes[i], l->rows[i], l->stages[i], mc);
    }
}

/* One step's search in tune --step. */
struct step_search {
    struct step_run c;
    struct tuned_entry e; /* the fastest launch so far (mcells_per_s -1: none worked) */
    struct shapes next;   /* the phase's launches */
    struct timed seen;    /* every screened launch */
    char why[256];        /* the last refusal */
};

/* The register caps a step's winner is timed with (FUSED_MAXNREG; *caps, their number). fused: no
 * cap of its own, and at 512^3 on the H100 one of 40-64 was worth -3 to +16% (notes). fused25d in
 * f32: the rule's 96-128 (gpu_rules.h) set when its node operands were in registers; since the
 * node ring, 96 fits most of its uniform and indexed kernels without spilling (ptxas), and a
 * block of 128 threads then has five blocks an SM instead of four, 80 six. */
static int register_caps(const struct step_config *c, const int **caps)
{
    static const int fused[] = {40, 48, 64}, tiled[] = {80, 96};
    const struct variant_traits *t = step_traits(c);
    if (!step_takes_regs(t)) return *caps = NULL, 0;
    if (!t->flat) return *caps = fused, (int)(sizeof fused / sizeof fused[0]);
    if (c->precision == F32) return *caps = tiled, (int)(sizeof tiled / sizeof tiled[0]);
    return *caps = NULL, 0;
}

/* Compiles the next launches of n searches, each with its register caps where capped is set
 * (register_caps), all at once; returns the seconds it took. */
static double prepare_searches(const struct step_search *p, int n, int capped)
{
    int count = 0;
    const int *caps;
    for (int i = 0; i < n; i++) count += p[i].next.n * (capped ? register_caps(&p[i].c.c, &caps) : 1);
    struct step_config *l = calloc((size_t)count + 1, sizeof *l);
    if (!l) cli_error("tune --step: out of memory");
    count = 0;
    for (int i = 0; i < n; i++) {
        const int ncaps = capped ? register_caps(&p[i].c.c, &caps) : 0;
        for (int j = 0; j < p[i].next.n; j++)
            for (int r = 0; r < (capped ? ncaps : 1); r++) {
                l[count] = step_at(p[i].c.c, &p[i].next, j);
                if (capped) l[count].regs = caps[r];
                count++;
            }
    }
    const double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < count; i++) step_prepare(&l[i]);
    free(l);
    return omp_get_wtime() - t0;
}

/* --step: the fused full step's launch on this GPU, for each fused variant, scheme and
 * coefficient storage it has, searched over a fixed set (fused: 1-D and flat blocks of one node
 * per thread, then two for the three fastest; a tiled variant (flat): the tiles fused25d compiles,
 * 32x4 to 128x2, marching 16 planes, at its kernels' own rows and depth and one plane less, then 64
 * planes for the three fastest; then the best with its rows halved and doubled and its depth one
 * less and one more, a few launches more rather than a larger set),
 * screened (one sample of two steps at 512^3: milliseconds each) and confirmed (samples of five)
 * as the kernels are (FINALS), and saved as variant "step:VARIANT"
 * (tuned.h), which step and bench then use. On the H100 the second node count won only with one of
 * the three fastest blocks at the first. The fused variant's winner is then timed with its
 * registers capped at 40, 48 and 64 a thread, and keeps the fastest (regs). The GPU wave step is
 * not tuned (slower than fused at every steps per pass tried); wave25d is (pass_tiles). Every
 * measurement is a verified step_measure; the winners also go to stdout. */
static int tune_steps(struct session *s, struct table *table, const char *path, const struct scheme *const *sl,
                      int ns, const char *const *fused, int nf, int precision, int force, int reps,
                      const int given_grid[3])
{
    static const int blocks[][3] = {{128, 1, 1}, {256, 1, 1}, {512, 1, 1}, {1024, 1, 1}, {32, 4, 1},
                                    {32, 8, 1},  {64, 4, 1},  {128, 2, 1}, {128, 4, 1},  {256, 2, 1}};
    static const int tiles[][3] = {{32, 4, 1}, {32, 8, 1}, {64, 2, 1}, {64, 4, 1}, {128, 2, 1}}; /* FUSED25D_TILES */
    static const int block_nodes[] = {1, 2}, tile_nodes[] = {16, 64};
    /* a temporally blocked step that keeps its levels on chip (trait passes): the first tile at 1 to
     * 4 steps a pass, then the others (tiles of 512 and 1024 nodes; rows the fourth number) at those
     * within PASS_CLOSE of the best (a launch whose levels reach past its tile or fill shared memory
     * is refused). On the H100 at 512^3, once a level took its own nodes from registers (fa52fc9),
     * Yee's 32x32 at four steps won with uniform coefficients (82 248 MCells/s against 32x16 at
     * three, 79 049; with indexed and arrays four steps lost 11-12%); the best tile at three was
     * the best at two; 32x16 with two rows is the high-order schemes' best with uniform
     * coefficients (10-16% ahead of 32x8 with four), 32x32 with one row S{2,2}'s and FV24's with
     * arrays (2-5% ahead of 64x16). */
    static const int pass_tiles[][4] = {{32, 8, 1, 2},  {32, 16, 1, 1}, {64, 8, 1, 2}, {64, 16, 1, 1},
                                        {32, 8, 1, 4},  {32, 16, 1, 2}, {32, 32, 1, 1}};
    /* The first tile's best steps a pass need not be the others' best: with arrays on the H100
     * (1b8b51c) Yee's 32x8 ran 17 106, 16 541 and 16 223 MCells/s at 1, 2 and 3 steps, so only
     * one step was tried further (21 093 at best), where 64x16 at three steps ran 31 001; on the
     * H200 (360f932) 23 879, 20 979 and 21 349 (0.89 of the best). And the other way (H100,
     * a591435): 32x8 ran 19 403 at three steps, 0.84 of its 23 130 at four, so 64x16 ran at four
     * only (26 452) where it had run 30 668 at three. So the winner's tile is timed at a step a
     * pass more and less too (the third phase). */
    enum { PASS_MAX_STEPS = 4 };
    static const double PASS_CLOSE = 0.85;
    const int grid[3] = {given_grid[0] ? given_grid[0] : DEFAULT_GRID, given_grid[0] ? given_grid[1] : DEFAULT_GRID,
                         given_grid[0] ? given_grid[2] : DEFAULT_GRID};
    int tuned = 0, npending = 0;
    session_bandwidth(s, 0); /* the tuned file's header names it */
    const double start = omp_get_wtime();
    /* The steps to tune, searched phase by phase over all of them, each phase's launches compiled
     * at once: compiled a step and a phase at a time (ten launches of two kernels, then three,
     * then the three register caps), most of the host's cores idled, and tune --step took 124 s
     * on the H200's 16 cores, mostly compiling. */
    struct step_search *pending = calloc((size_t)(nf * ns * NCOEF_STORAGES), sizeof *pending);
    if (!pending) cli_error("tune --step: out of memory");
    for (int v = 0; v < nf; v++)
        for (int i = 0; i < ns; i++)
            for (int coef = 0; coef < NCOEF_STORAGES; coef++) {
                struct step_search *p = &pending[npending];
                p->e = step_key(fused[v], sl[i], precision, coef, grid);
                p->e.mcells_per_s = -1;
                p->c = (struct step_run){.c = {.b = s->b, .s = sl[i], .precision = precision, .coef = coef,
                                               .variant = fused[v], .grid = {grid[0], grid[1], grid[2]}},
                                         .variant = fused[v], .steps = 2, .reps = reps}; /* screening; then 5 */
                double w[MAX_GROUPS];
                char why[512];
                if (!step_supported(&p->c.c) || (!force && table_find(table, &p->e))) continue;
                const struct variant_traits *t = step_traits(&p->c.c); /* this storage's kernels' */
                if (t->planes) continue; /* the GPU wave: slower than fused at every T tried (notes) */
                if (step_vacuum(&p->c.c, w, why, sizeof why) || step_fits(&p->c, &s->desc, why, sizeof why)) {
                    fprintf(stderr, "tune --step: %s %s: %s\n", sl[i]->name, coef_names[coef], why);
                    continue;
                }
                if (t->passes) {
                    for (int steps = 1; steps <= PASS_MAX_STEPS; steps++)
                        add_launch(&p->next, pass_tiles[0], steps, pass_tiles[0][3], 0);
                    npending++;
                    continue;
                }
                const int(*shapes)[3] = t->flat ? tiles : blocks;
                const int nshapes = t->flat ? (int)(sizeof tiles / sizeof tiles[0]) : (int)(sizeof blocks / sizeof blocks[0]);
                const int zn = t->flat ? tile_nodes[0] : block_nodes[0];
                int rows = 0, stages = 0;
                declared_tiling(t, &rows, &stages);
                for (int b = 0; b < nshapes; b++) { /* a pipelined one at its depth and one less (coarse_shapes) */
                    add_launch(&p->next, shapes[b], zn, rows, stages);
                    if (stages > 1) add_launch(&p->next, shapes[b], zn, rows, stages - 1);
                }
                npending++;
            }
    double compiling = 0;
    step_measure_keep(1); /* a step's arrays allocated and filled once for its launches of a phase */
    for (int phase = 0; phase < 3; phase++) { /* the first launches, the second node count, the tilings */
        if (phase > 0)
            for (struct step_search *p = pending; p < pending + npending; p++) {
                const struct variant_traits *t = step_traits(&p->c.c);
                int rows = 0, stages = 0;
                declared_tiling(t, &rows, &stages);
                struct shapes top = {0};
                memset(&p->next, 0, sizeof p->next);
                if (t->passes) { /* the other tiles at each steps a pass within PASS_CLOSE of the best */
                    struct shapes steps = {0};
                    if (phase == 1 && p->e.mcells_per_s >= 0) fastest(&p->seen, PASS_MAX_STEPS, PASS_CLOSE, &steps);
                    for (int x = 0; x < steps.n; x++)
                        for (size_t b = 1; b < sizeof pass_tiles / sizeof pass_tiles[0]; b++)
                            add_launch(&p->next, pass_tiles[b], steps.nodes[x], pass_tiles[b][3], 0);
                    if (phase == 2 && p->e.mcells_per_s >= 0) /* then the best tile a step a pass either side */
                        for (int n = p->e.nodes - 1; n <= p->e.nodes + 1; n += 2)
                            if (n >= 1 && n <= PASS_MAX_STEPS && launch_index(&p->seen.s, p->e.block, n, p->e.rows, 0) < 0)
                                add_launch(&p->next, p->e.block, n, p->e.rows, 0);
                    continue;
                }
                if (phase == 1) {
                    fastest(&p->seen, STEP_SECOND_NODES, 0, &top);
                    for (int b = 0; b < top.n; b++) add_launch(&p->next, top.b[b], t->flat ? tile_nodes[1] : block_nodes[1], rows, stages);
                } else if (p->e.mcells_per_s >= 0)
                    other_tiling(t, p->e.block, p->e.nodes, p->e.rows, p->e.stages, &p->next);
            }
        compiling += prepare_searches(pending, npending, 0);
        for (struct step_search *p = pending; p < pending + npending; p++)
            try_steps(s, &p->c, &p->next, 1, &p->e, &p->seen, grid, p->why, sizeof p->why);
    }
    /* the final few with longer samples, then the winners with their registers capped (register_caps), every
     * step's caps compiled at once */
    for (struct step_search *p = pending; p < pending + npending; p++) {
        struct shapes final = {0};
        struct timed again = {0};
        p->c.steps = 5;
        memset(&p->next, 0, sizeof p->next);
        if (reps > 1 && p->e.mcells_per_s >= 0) {
            fastest(&p->seen, FINALS, FINAL_CLOSE, &final);
            p->e.mcells_per_s = -1;
            try_steps(s, &p->c, &final, reps, &p->e, &again, grid, p->why, sizeof p->why);
        }
        const int *caps;
        if (p->e.mcells_per_s >= 0 && register_caps(&p->c.c, &caps))
            add_launch(&p->next, p->e.block, p->e.nodes, p->e.rows, p->e.stages);
    }
    compiling += prepare_searches(pending, npending, 1);
    for (struct step_search *p = pending; p < pending + npending; p++) {
        struct tuned_entry *e = &p->e;
        if (e->mcells_per_s < 0) {
            fprintf(stderr, "tune --step: %s %s %s: no launch worked (last: %s)\n", e->scheme, coef_names[p->c.c.coef],
                    p->c.variant, p->why);
            continue;
        }
        if (p->next.n) { /* the register caps at the winner's launch */
            struct timed capped = {0}; /* try_steps' record: one launch, each cap overwriting it */
            const int *caps, ncaps = register_caps(&p->c.c, &caps);
            for (int r = 0; r < ncaps; r++) {
                const double before = e->mcells_per_s;
                p->c.c.regs = caps[r];
                try_steps(s, &p->c, &p->next, reps, e, &capped, grid, p->why, sizeof p->why);
                if (e->mcells_per_s > before) e->regs = caps[r];
            }
            p->c.c.regs = 0;
        }
        char cap[32] = "";
        if (e->regs) snprintf(cap, sizeof cap, ", %d registers at most", e->regs);
        fprintf(stderr, "tune --step: %s %s %s: best %dx%dx%d, %d nodes%s%s, %.1f MCells/s (cells x steps), %.1f GB/s\n",
                e->scheme, coef_names[p->c.c.coef], p->c.variant, e->block[0], e->block[1], e->block[2], e->nodes,
                tiling_text(e->rows, e->stages), cap, e->mcells_per_s, e->gbs);
        table_put(table, e);
        table_write(table, path, s, grid);
        tuned_print(stdout, e);
        tuned++;
    }
    step_measure_keep(0);
    free(pending);
    if (!tuned) fprintf(stderr, "tune --step: nothing to tune (%s has every step; --force tunes again)\n", path);
    else
        fprintf(stderr, "tune --step: %d GPU steps tuned in %.0f s (compiling on %d threads %.0f s of it)\n  (%s)\n",
                tuned, omp_get_wtime() - start, omp_get_max_threads(), compiling, path);
    return 0;
}

/* ---- the CPU (--device cpu) ---------------------------------------------------------- */

/* A CPU launch: a tile (rows by planes, x whole; planes counted in passes of `nodes`) and, for a
 * marching variant, nodes along z per pass. Tiles of a few rows gave nothing on this suite's
 * first CPU (performance notes), so the search is small: whole rows of one plane and 16-row
 * tiles, each at every node count the variant takes (its accepts() refuses the others). */
static const int cpu_tiles[][3] = {{0, 0, 1}, {0, 16, 1}};
enum { CPU_MAX_NODES = 4 };

/* tune --device cpu --step: for each scheme and coefficient storage on `threads` threads, at 300^3
 * unless a grid is given, the fused step's launch (a marching variant: its nodes along z a pass and
 * tile, as a CPU kernel's, cpu_tiles) and the temporally blocked step's (wave.h: steps per pass,
 * planes per sweep step): steps per pass 2, 4 and 8 a plane at a time (one is the fused step; on
 * the lent GPU machines' 16 cores its launches were the search's slowest, and never won), then the
 * best's neighbours (one step more and less), then it with 2 and 4 planes a sweep step; screened
 * with one sample and the final few timed again with --reps (FINALS), as tune --step on a GPU.
 * Saved in the CPU's tuned file as variant step:VARIANT (the wave's steps per pass in the nodes
 * column: tuned.h), which step and bench then use. */
static int tune_cpu_steps(const struct scheme *const *sl, int ns, int precision, const int grid_given[3], int threads,
                          int reps, int force)
{
    static const int first_tsteps[] = {2, 4, 8}; /* one step a pass is the fused step, measured as such */
    const int grid[3] = {grid_given[0] ? grid_given[0] : PAPER_GRID, grid_given[0] ? grid_given[1] : PAPER_GRID,
                         grid_given[0] ? grid_given[2] : PAPER_GRID};
    struct session s;
    session_open(&s, DEV_CPU);
    char path[512], date[64];
    session_tuned_path(&s, threads, path, sizeof path);
    struct table table = {0};
    table_read(&table, path, date);
    const char *fused[8];
    const int nf = step_fused_variants(DEV_CPU, fused, 8);
    int tuned = 0;
#pragma omp parallel for collapse(3) schedule(dynamic) num_threads(omp_get_num_procs()) /* the kernels first */
    for (int v = 0; v < nf; v++)
        for (int i = 0; i < ns; i++)
            for (int coef = 0; coef < NCOEF_STORAGES; coef++) {
                const struct step_config c = {.b = s.b, .s = sl[i], .precision = precision, .coef = coef,
                                              .variant = fused[v], .grid = {grid[0], grid[1], grid[2]}};
                const struct variant_traits *t = step_fused_traits(DEV_CPU, fused[v]);
                const struct tuned_entry e = step_key(fused[v], sl[i], precision, coef, grid);
                /* only those the loop below tunes: a tuned file with every step compiled 60 kernels
                 * for nothing in a new GPU host's make tune (174 s of compiling at 93a3679) */
                if ((t->planes || t->marches) && step_supported(&c) && (force || !table_find(&table, &e))) step_prepare(&c);
            }
    session_bandwidth(&s, threads);
    step_measure_keep(1); /* each step's arrays allocated and filled once for all its launches */
    const double start = omp_get_wtime();
    for (int v = 0; v < nf; v++)
        for (int i = 0; i < ns; i++)
            for (int coef = 0; coef < NCOEF_STORAGES; coef++) {
                const struct variant_traits *t = step_fused_traits(DEV_CPU, fused[v]);
                if (!t->planes && !t->marches) continue;
                char why[512];
                struct tuned_entry e = step_key(fused[v], sl[i], precision, coef, grid);
                double w[MAX_GROUPS];
                struct step_run c = {.c = {.b = s.b, .s = sl[i], .precision = precision, .coef = coef,
                                           .variant = fused[v], .grid = {grid[0], grid[1], grid[2]}},
                                     .variant = fused[v], .reps = reps, .threads = threads}; /* steps: step_measure's */
                if (!step_supported(&c.c) || (!force && table_find(&table, &e))) continue;
                if (step_vacuum(&c.c, w, why, sizeof why) || step_fits(&c, &s.desc, why, sizeof why))
                    cli_error("tune --step: %s", why);
                struct timed seen = {0}, again = {0};
                struct shapes first = {0}, next = {0}, final = {0};
                const int whole[3] = {0, 0, 1};
                e.mcells_per_s = -1;
                for (size_t x = 0; t->marches && x < sizeof cpu_tiles / sizeof cpu_tiles[0]; x++)
                    for (int nodes = 1; nodes <= CPU_MAX_NODES; nodes++) add_launch(&first, cpu_tiles[x], nodes, 0, 0);
                for (size_t x = 0; t->planes && x < sizeof first_tsteps / sizeof first_tsteps[0]; x++)
                    add_launch(&first, whole, first_tsteps[x], 0, 0);
                try_steps(&s, &c, &first, 1, &e, &seen, grid, why, sizeof why);
                /* then one step less and more a plane at a time, and the best with wider tiles */
                const int best = e.nodes, around[4][2] = {{best - 1, 1}, {best + 1, 1}, {best, 2}, {best, 4}};
                for (int x = 0; x < 4 && t->planes && e.mcells_per_s >= 0; x++) {
                    const int tile[3] = {0, 0, around[x][1]};
                    if (around[x][0] >= 1 && around[x][0] <= WAVE_MAX_STEPS &&
                        launch_index(&seen.s, tile, around[x][0], 0, 0) < 0)
                        add_launch(&next, tile, around[x][0], 0, 0);
                }
                try_steps(&s, &c, &next, 1, &e, &seen, grid, why, sizeof why);
                if (reps > 1 && e.mcells_per_s >= 0) {
                    fastest(&seen, FINALS, FINAL_CLOSE, &final);
                    e.mcells_per_s = -1;
                    try_steps(&s, &c, &final, reps, &e, &again, grid, why, sizeof why);
                }
                if (e.mcells_per_s < 0) {
                    fprintf(stderr, "tune --step: %s %s %s: no launch worked (last: %s)\n", e.scheme, coef_names[coef],
                            fused[v], why);
                    continue;
                }
                if (t->planes)
                    fprintf(stderr, "tune --step: %s %s %s: best steps a pass %d, planes a sweep step %d, %.1f MCells/s "
                            "(cells x steps), %.1f GB/s\n", e.scheme, coef_names[coef], fused[v], e.nodes, e.block[2],
                            e.mcells_per_s, e.gbs);
                else
                    fprintf(stderr, "tune --step: %s %s %s: best tile %dx%d, %d nodes along z a pass, %.1f MCells/s "
                            "(cells x steps), %.1f GB/s\n", e.scheme, coef_names[coef], fused[v], e.block[1], e.block[2],
                            e.nodes, e.mcells_per_s, e.gbs);
                table_put(&table, &e);
                table_write(&table, path, &s, grid);
                tuned_print(stdout, &e);
                tuned++;
            }
    step_measure_keep(0);
    fprintf(stderr, "tune --step: %d CPU steps tuned in %.0f s (%s)\n", tuned, omp_get_wtime() - start, path);
    free(table.e);
    return 0;
}

/* Measures every candidate launch of kernel e on grid, `reps` samples each, every row into rf
 * (table "tiles"); keeps the fastest in e. */
static void tune_cpu_kernel(struct session *s, struct results_file *rf, struct tuned_entry *e, const int grid[3],
                            int threads, int reps)
{
    const struct kernel_entry *k = kernel_find(DEV_CPU, e->scheme, e->component, e->precision, e->coef, e->variant);
    e->mcells_per_s = -1;
    for (size_t t = 0; t < sizeof cpu_tiles / sizeof cpu_tiles[0]; t++)
        for (int nodes = 1; nodes <= (k && k->traits.marches ? CPU_MAX_NODES : 1); nodes++) {
            struct run_config c = {.scheme = scheme_find(e->scheme), .component = e->component,
                                   .precision = e->precision, .coef = e->coef, .device = DEV_CPU, .variant = e->variant,
                                   .grid = {grid[0], grid[1], grid[2]}, .threads = threads, .reps = reps,
                                   .nodes = nodes};
            memcpy(c.block, cpu_tiles[t], sizeof c.block);
            struct run_result r;
            char why[512];
            if (measure_check(s->b, &c, &s->desc, why, sizeof why)) continue; /* a launch it does not take */
            if (measure(s->b, &c, &s->desc, &r, why, sizeof why)) {
                fprintf(stderr, "tune: %s %s %s tile %dx%d, %d nodes FAILED: %s\n", e->variant, e->scheme,
                        component_names[e->component], c.block[1], c.block[2], nodes, why);
                continue;
            }
            results_row(rf->f, "tiles", &c, &r, &s->desc, -1);
            results_check(rf);
            struct record m = {"tiles", &c, &r, &s->desc, NAN};
            const double mc = metric_num(METRIC_mcells_per_s, &m);
            fprintf(stderr, "  %s %s %s tile %dx%d, %d nodes: %.1f MCells/s, %.1f%% of bw\n", e->variant, e->scheme,
                    component_names[e->component], c.block[1], c.block[2], nodes, mc, metric_num(METRIC_pct_bw, &m));
            if (mc > e->mcells_per_s) {
                memcpy(e->block, c.block, sizeof e->block);
                e->nodes = nodes, e->rows = 1, e->stages = 0;
                e->mcells_per_s = mc, e->gbs = metric_num(METRIC_gbs_effective, &m);
                memcpy(e->grid, grid, sizeof e->grid);
            }
        }
}

/* The variants of known (what: their kind, for the error) that --variant names (none or "all":
 * every one) into vl, the table's own names; their count. An unknown name ends the command,
 * listing the known ones. */
static int pick_names(const char *what, const char *const *known, int nknown, char **vnames, int nv,
                      const char *vl[MAX_VARIANTS])
{
    if (nv == 0 || (nv == 1 && !strcmp(vnames[0], "all"))) {
        for (int i = 0; i < nknown; i++) vl[i] = known[i];
        return nknown;
    }
    for (int i = 0; i < nv; i++) {
        int j = 0;
        while (j < nknown && strcmp(known[j], vnames[i])) j++;
        if (j == nknown) {
            char list[256] = "";
            for (int m = 0; m < nknown; m++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", m ? ", " : "", known[m]);
            cli_error("tune: unknown %s variant '%s' (known: %s)", what, vnames[i], nknown ? list : "none in this build");
        }
        vl[i] = known[j];
    }
    return nv;
}

/* The device's kernel variants that --variant names (pick_names). */
static int pick_variants(enum device d, char **vnames, int nv, const char *vl[MAX_VARIANTS])
{
    const char *known[MAX_VARIANTS];
    const int nknown = kernel_variants(d, known, MAX_VARIANTS);
    return pick_names(d == DEV_CPU ? "CPU" : "GPU", known, nknown, vnames, nv, vl);
}

/* tune --device cpu: each CPU variant's launch (tile, nodes along z) per scheme and component on
 * `threads` threads (0: all), at the paper's 300^3 unless a grid is given, saved to
 * results/tuned/<cpu>-<simd>-<N>t.conf (session_tuned_slug), where run, sweep and bench look. Components
 * default to hx: the others take its launch (tuned_block), as a GPU kernel takes its sibling's. */
static int tune_cpu(char **vnames, int nv, const struct scheme *const *sl, int ns, const int *cl, int nc, int precision,
                    int coef, const int grid_given[3], int threads, int reps, int force)
{
    const char *vl[MAX_VARIANTS];
    nv = pick_variants(DEV_CPU, vnames, nv, vl);
    const int grid[3] = {grid_given[0] ? grid_given[0] : PAPER_GRID, grid_given[0] ? grid_given[1] : PAPER_GRID,
                         grid_given[0] ? grid_given[2] : PAPER_GRID};
    struct session s;
    session_open(&s, DEV_CPU);
    char path[512], date[64], why[512];
    session_tuned_path(&s, threads, path, sizeof path);
    struct table table = {0};
    table_read(&table, path, date);
    for (int i = 0; i < ns; i++) { /* the grid fits, for the largest storage asked */
        struct run_config c = {.scheme = sl[i], .component = HX, .precision = precision, .coef = coef,
                               .device = DEV_CPU, .variant = vl[0], .grid = {grid[0], grid[1], grid[2]}, .reps = 1};
        if (run_fits(&c, &s.desc, why, sizeof why)) cli_error("tune: %s", why);
    }
    struct run_config *todo = calloc((size_t)(nv * ns * nc), sizeof *todo); /* their kernels compiled first */
    if (!todo) cli_fail("out of memory");
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < ns; i++)
            for (int c = 0; c < nc; c++)
                todo[(v * ns + i) * nc + c] = (struct run_config){.scheme = sl[i], .component = cl[c], .precision = precision,
                                                                  .coef = coef, .device = DEV_CPU, .variant = vl[v],
                                                                  .grid = {grid[0], grid[1], grid[2]}};
    prepare_runs(s.b, todo, nv * ns * nc);
    free(todo);
    struct results_file rf;
    if (results_open(&rf, "results", s.slug, "tune")) return 1;
    session_bandwidth(&s, threads);
    const double start = omp_get_wtime();
    int tuned = 0;
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < ns; i++)
            for (int c = 0; c < nc; c++) {
                struct tuned_entry e = kernel_key(vl[v], sl[i], cl[c], precision, coef, grid);
                if (!force && table_find(&table, &e)) continue;
                tune_cpu_kernel(&s, &rf, &e, grid, threads, reps);
                if (e.mcells_per_s < 0) continue;
                fprintf(stderr, "tune: %s %s %s: best tile %dx%d, %d nodes, %.1f MCells/s\n", e.variant, e.scheme,
                        component_names[e.component], e.block[1], e.block[2], e.nodes, e.mcells_per_s);
                table_put(&table, &e);
                table_write(&table, path, &s, grid);
                tuned++;
            }
    if (results_close(&rf)) return 1;
    fprintf(stderr, "tune: %d CPU kernels tuned in %.0f s (%s); every measurement in %s\n", tuned,
            omp_get_wtime() - start, path, rf.path);
    free(table.e);
    return 0;
}

/* The launch a kernel's search starts from, where one is tuned (table): for another component,
 * the same variant and scheme's Hx; for Hx in another precision or storage, its f32 array Hx at
 * the same grid. NULL: none, the coarse set. */
static const struct tuned_entry *sibling_of(const struct table *table, const struct tuned_entry *e)
{
    struct tuned_entry key = *e;
    if (e->component != HX) key.component = HX;
    else if (e->precision == F32 && e->coef == COEF_ARRAY) return NULL;
    else key.precision = F32, key.coef = COEF_ARRAY;
    return table_find(table, &key);
}

/* Tunes the kernels of todo not in the table yet (all of them with --force: q's reuse rule is the
 * caller's), each from its sibling where it has one (sibling_of), saving the file after each; counts
 * them into *kernels and the ones reused into *reused. Opens q's results file at the first. 0, or
 * -1 if it cannot be written. */
static int tune_list(struct search *q, struct table *table, const char *path, const struct shapes *given,
                     struct tuned_entry *todo, int ntodo, int *kernels, int *reused)
{
    for (int t = 0; t < ntodo; t++) {
        struct tuned_entry *e = &todo[t];
        if (!q->force && table_find(table, e)) {
            (*reused)++;
            continue;
        }
        if (!q->rf->f) {
            if (results_open(q->rf, "results", q->s->slug, "tune")) return -1;
            session_bandwidth(q->s, 0);
            fprintf(stderr, "tune: kernels on %dx%dx%d, %s %s\n", q->grid[0], q->grid[1], q->grid[2],
                    precision_names[e->precision], coef_names[e->coef]);
        }
        (*kernels)++;
        const struct tuned_entry *sibling = sibling_of(table, e);
        if (given->n) { /* the shapes asked for, each with the full reps */
            e->mcells_per_s = -1;
            q->seen.s.n = 0;
            try_launches(q, e, given, q->reps);
        } else {
            tune_kernel(q, e, sibling);
        }
        fprintf(stderr, "%s[%d] %s %s %s: ", q->tty ? "\r\033[K" : "", *kernels, e->variant, e->scheme,
                component_names[e->component]);
        if (e->mcells_per_s < 0) {
            fprintf(stderr, "no launch worked, nothing saved\n");
            continue;
        }
        fprintf(stderr, "best %dx%dx%d, %d nodes per thread%s, %.1f MCells/s, %.1f GB/s (%.0f s so far)\n", e->block[0],
                e->block[1], e->block[2], e->nodes, tiling_text(e->rows, e->stages), e->mcells_per_s, e->gbs,
                omp_get_wtime() - q->start);
        table_put(table, e);
        table_write(table, path, q->s, q->grid);
    }
    return 0;
}

int cmd_tune(int argc, char **argv)
{
    char *schemes[MAX_LIST], *components[MAX_LIST], *blocks[MAX_SHAPES], *vnames[MAX_VARIANTS];
    int ns = 0, nc = 0, nb = 0, nv = 0, precision = F32, coef = COEF_ARRAY, reps = 3, force = 0, grid[3] = {0, 0, 0};
    int step = 0, device = DEV_GPU, threads = 0, print_path = 0;
    char *scheme_list = NULL, *component_list = NULL, *variant_list = NULL, *block_list = NULL;
    const struct cli_option opts[] = {
        {"scheme", CLI_TEXT, "LIST|all", "(all)", &scheme_list, 0, 0, NULL, 0},
        {"component", CLI_TEXT, "LIST|all", "(all)", &component_list, 0, 0, NULL, 0},
        {"variant", CLI_TEXT, "LIST|all", "GPU kernel variants; with --step, fused step variants (all)", &variant_list, 0, 0, NULL, 0},
        CLI_OPT_PRECISION(&precision),
        {"coef", CLI_CHOICE, "array|uniform", "(array)", &coef, 0, 0, coef_names, 2},
        {"grid", CLI_GRID, "NXxNYxNZ | N", "(512, or less where the GPU's memory needs it)", grid, CLI_GRID_MIN, CLI_GRID_MAX, NULL, 0},
        {"blocks", CLI_TEXT, "LIST", "only these shapes, e.g. 32x2x3,32x8x4 (one node per thread)", &block_list, 0, 0, NULL, 0},
        {"reps", CLI_INT, "R", "timed samples per launch of the final few (searching takes one), the median is compared (3)",
         &reps, 1, 1000, NULL, 0},
        {"force", CLI_FLAG, NULL, "tune again what the file already has", &force, 0, 0, NULL, 0},
        {"step", CLI_FLAG, NULL,
         "tune the fused full step's launch instead (every scheme and storage; the CPU: the fused step's and the "
         "wave's)",
         &step, 0, 0, NULL, 0},
        {"device", CLI_CHOICE, "cpu|gpu", "cpu: each CPU variant's tile and nodes along z, hx unless --component (gpu)",
         &device, 0, 0, device_names, 2},
        {"threads", CLI_INT, "T", "CPU threads, 1 to the CPUs online (all)", &threads, 1, omp_get_num_procs(), NULL, 0},
        {"path", CLI_FLAG, NULL, "print the path of this device's tuned file (with --threads for a CPU's) and exit",
         &print_path, 0, 0, NULL, 0},
    };
    cli_parse(help, opts, CLI_NOPTS(opts), argc, argv);
    if (threads && device != DEV_CPU) cli_error("tune: --threads is a CPU option (--device cpu)");
    if (print_path) { /* for scripts: the file's name is the machine's, as this suite spells it */
        struct session s;
        session_open(&s, device);
        char path[512];
        session_tuned_path(&s, threads, path, sizeof path);
        puts(path);
        return 0;
    }
    if (scheme_list) ns = split_list("scheme", scheme_list, schemes, MAX_LIST);
    if (component_list) nc = split_list("component", component_list, components, MAX_LIST);
    if (variant_list) nv = split_list("variant", variant_list, vnames, MAX_VARIANTS);
    if (block_list) nb = split_list("blocks", block_list, blocks, MAX_SHAPES);
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
    if (device == DEV_CPU) {
        if (nb) cli_error("tune: --blocks is a GPU option (a CPU tile is rows x planes)");
        if (step) return tune_cpu_steps(sl, ns, precision, grid, threads, reps, force);
        if (!component_list) cl[0] = HX, nc = 1;
        return tune_cpu(vnames, nv, sl, ns, cl, nc, precision, coef, grid, threads, reps, force);
    }
    const char *vl[MAX_VARIANTS], *fused[MAX_VARIANTS];
    if (step) nv = pick_names("GPU fused step", fused, step_fused_variants(DEV_GPU, fused, MAX_VARIANTS), vnames, nv, vl);
    else nv = pick_variants(DEV_GPU, vnames, nv, vl);
    struct shapes given = {0};
    for (int i = 0; i < nb; i++) {
        int b[3];
        cli_triple("--blocks", blocks[i], 1, 1 << 20, b);
        add_launch(&given, b, 1, 0, 0);
    }
    struct session s;
    session_open(&s, DEV_GPU);
    for (int i = 0; i < given.n; i++) {
        char why[256];
        if (s.b->check_block(given.b[i], why, sizeof why)) cli_error("--blocks: %s", why);
    }

    /* What the file has already, and what is left to tune: variant, then scheme, then component. */
    char path[512], date[64];
    session_tuned_path(&s, 0, path, sizeof path);
    struct table table = {0};
    table_read(&table, path, date);
    if (step) {
        int rc = tune_steps(&s, &table, path, sl, ns, vl, nv, precision, force, reps, grid);
        free(table.e);
        return rc;
    }
    /* What to tune, variant then scheme then component: without --component, Hx in every variant,
     * then the other components in each scheme's fastest variant (bench's components table); the
     * grid is chosen for all of them. */
    const int bench_set = !component_list;
    static struct tuned_entry todo[MAX_VARIANTS * MAX_LIST * NCOMPONENTS];
    int ntodo = 0;
    for (int vi = 0; vi < nv; vi++)
        for (int si = 0; si < ns; si++)
            for (int ci = 0; ci < nc; ci++) todo[ntodo++] = kernel_key(vl[vi], sl[si], cl[ci], precision, coef, grid);

    /* The grid: 512^3 unless given, shrunk until the largest of these kernels fits. */
    char why[512];
    for (int g = DEFAULT_GRID; !grid[0]; g -= 32)
        if (todo_fits(todo, ntodo, (int[3]){g, g, g}, &s.desc, why, sizeof why) == 0 || g <= 64)
            grid[0] = grid[1] = grid[2] = g;
    if (todo_fits(todo, ntodo, grid, &s.desc, why, sizeof why)) cli_error("tune: %s", why);

    /* Every measurement, not only the winners, goes to results/<gpu>/tune-<date>.csv (table
     * "blocks"): the data behind the block-shape heatmaps. */
    struct results_file rf = {0};
    struct search q = {.s = &s, .rf = &rf, .grid = {grid[0], grid[1], grid[2]}, .reps = reps, .tty = isatty(2),
                       .force = force};
    q.start = omp_get_wtime();
    int kernels = 0, reused = 0;
    ntodo = 0;
    for (int vi = 0; vi < nv; vi++)
        for (int si = 0; si < ns; si++)
            for (int ci = 0; ci < (bench_set ? 1 : nc); ci++)
                todo[ntodo++] = kernel_key(vl[vi], sl[si], bench_set ? HX : cl[ci], precision, coef, grid);
    if (tune_list(&q, &table, path, &given, todo, ntodo, &kernels, &reused)) return 1;
    for (int si = 0; bench_set && nc > 1 && si < ns; si++) { /* then the fastest variant's other components */
        const struct tuned_entry *best = NULL;
        for (int vi = 0; vi < nv; vi++) {
            const struct tuned_entry key = kernel_key(vl[vi], sl[si], HX, precision, coef, grid), *e = table_find(&table, &key);
            if (e && (!best || e->mcells_per_s > best->mcells_per_s)) best = e;
        }
        ntodo = 0;
        for (int ci = 0; best && ci < nc; ci++)
            if (cl[ci] != HX) todo[ntodo++] = kernel_key(best->variant, sl[si], cl[ci], precision, coef, grid);
        if (tune_list(&q, &table, path, &given, todo, ntodo, &kernels, &reused)) return 1;
    }
    if (reused)
        fprintf(stderr, "tune: %s already has %d of these kernels at %dx%dx%d (tuned %s): reused%s\n", path, reused,
                grid[0], grid[1], grid[2], date[0] ? date : "at an unknown date", kernels ? "" : "; --force tunes them again");
    if (kernels && results_close(&rf)) return 1;
    if (kernels) {
        double verify, setup, timing;
        measure_times(&verify, &setup, &timing);
        fprintf(stderr, "tune: %d measurements in %.0f s (compiling ahead on %d threads %.0f s; then verifying %.0f s, "
                "allocating and filling %.0f s, probing and timing %.0f s), every one in %s\n", q.done,
                omp_get_wtime() - q.start, omp_get_max_threads(), q.compiling, verify, setup, timing, rf.path);
    }

    /* The winners of this selection, from the file as it now stands. */
    printf("%s: %s (%s), driver %s\n", path, s.desc.name, s.desc.detail, s.desc.driver);
    tuned_print_header(stdout);
    for (int vi = 0; vi < nv; vi++)
        for (int si = 0; si < ns; si++)
            for (int ci = 0; ci < nc; ci++) {
                const struct tuned_entry key = kernel_key(vl[vi], sl[si], cl[ci], precision, coef, grid);
                const struct tuned_entry *e = table_find(&table, &key);
                if (e) tuned_print(stdout, e);
            }
    free(table.e);
    if (q.failed) {
        fprintf(stderr, "tune: %d of %d measurements failed (listed above)\n", q.failed, q.done);
        return 1;
    }
    return 0;
}
