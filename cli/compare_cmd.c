/* fdtdbench compare OLD.csv NEW.csv: the rows of two results files matched by configuration,
 * with the ratio of throughput and of pct_bw and a verdict that respects the measured spread. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: fdtdbench compare [--ignore COLUMNS] OLD.csv NEW.csv\n"
    "Matches the rows of two results files (run, sweep, bench, tune, or step; either may be\n"
    "gzipped, .csv.gz) by their\n"
    "configuration (table, scheme, component, device, precision, coef, variant, boundary, pml,\n"
    "grid, block, nodes, rows, stages, tsteps, threads; a step file has no component, the others no\n"
    "boundary, pml or tsteps, a step file from before pml (tsteps) was recorded had none (one step a\n"
    "pass), and a file from before rows or stages\n"
    "were recorded matches any value there) and prints,\n"
    "per row, NEW/OLD for updates/s (a step file's cells/s) and for pct_bw, and a verdict on pct_bw:\n"
    "faster or slower when the two differ by more than the wider of their spreads, else\n"
    "within noise. A row's spread is its pct_bw_spread column (the range of its interleaved\n"
    "probe/kernel pairs) or, in files without it, pct_bw scaled by (max_ms - min_ms) / median_ms.\n"
    "Rows in only one file are listed as such. --ignore table,variant compares two variants\n"
    "(or two sweeps' names) row by row; a row is shown with OLD's values.\n";

/* The columns that name a configuration: rows with equal values here are the same measurement.
 * A file may lack the optional ones: nodes (older files: one node per thread), rows and stages
 * (older files: not recorded, see unknown_key), component (a step file's rows are whole steps),
 * boundary (only step files have one), pml (step files from before the layer: none, "0") and tsteps
 * (step files from before the temporally blocked step: one step a pass, "1"). */
static const char *const key_columns[] = {"table", "scheme", "component", "device", "precision", "coef", "variant",
                                          "boundary", "pml", "nx", "ny", "nz", "block", "nodes", "rows", "stages",
                                          "tsteps", "threads"};
enum { NKEY = sizeof key_columns / sizeof key_columns[0] };

/* Optional columns whose absence says nothing: a file from before rows (or stages) were recorded
 * ran its kernels' defaults of the day, which are not known, so such a row matches whatever the
 * other file has there (the pair is not compared on that column). */
static int unknown_key(const char *name) { return !strcmp(name, "rows") || !strcmp(name, "stages"); }

static int optional_key(const char *name)
{
    return !strcmp(name, "nodes") || unknown_key(name) || !strcmp(name, "component") || !strcmp(name, "boundary") ||
           !strcmp(name, "pml") || !strcmp(name, "tsteps");
}

struct row {
    const char *key[NKEY];
    double updates, pct, spread;
    int used;
};

struct file {
    const char *path;
    char *text;
    struct row *rows;
    int nrows;
};

/* Splits a line at commas in place; returns the count (at most max stored). */
static int fields(char *line, char **out, int max)
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n < max) out[n] = line;
        if (*p != ',' && *p) continue;
        n++;
        if (!*p) return n;
        *p = '\0';
        line = p + 1;
    }
}

static double number(const struct file *f, int line, const char *name, const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end) cli_error("%s:%d: column %s: '%s' is not a number", f->path, line, name, s);
    return v;
}

static void load(struct file *f, const char *path)
{
    enum { MAXCOL = 128 };
    memset(f, 0, sizeof *f);
    f->path = path;
    f->text = cli_read_text(path); /* a .gz file too */
    int lines = 1;
    for (const char *p = f->text; *p; p++) lines += *p == '\n';
    f->rows = calloc((size_t)lines, sizeof *f->rows);
    if (!f->rows) cli_error("compare: out of memory");
    char *head[MAXCOL], *cell[MAXCOL], *save = NULL;
    int ncol = 0, at[NKEY] = {0}, c_upd = -1, c_pct = -1, c_spread = -1, c_min = -1, c_med = -1, c_max = -1, line = 0;
    for (char *l = strtok_r(f->text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        l[strcspn(l, "\r")] = '\0';
        if (!*l) continue;
        if (!ncol) { /* the header: find the columns by name */
            ncol = fields(l, head, MAXCOL);
            if (ncol > MAXCOL) cli_error("%s: more than %d columns", path, MAXCOL);
            for (int k = 0; k < NKEY; k++) at[k] = -1;
            for (int c = 0; c < ncol; c++) {
                for (int k = 0; k < NKEY; k++)
                    if (!strcmp(head[c], key_columns[k])) at[k] = c;
                if (!strcmp(head[c], "updates_per_s") || !strcmp(head[c], "cells_per_s")) c_upd = c;
                if (!strcmp(head[c], "pct_bw")) c_pct = c;
                if (!strcmp(head[c], "pct_bw_spread")) c_spread = c;
                if (!strcmp(head[c], "min_ms")) c_min = c;
                if (!strcmp(head[c], "median_ms")) c_med = c;
                if (!strcmp(head[c], "max_ms")) c_max = c;
            }
            for (int k = 0; k < NKEY; k++)
                if (at[k] < 0 && !optional_key(key_columns[k]))
                    cli_error("%s: no column '%s' (expected the columns of harness/metrics.h)", path, key_columns[k]);
            if (c_upd < 0 || c_pct < 0 || c_min < 0 || c_med < 0 || c_max < 0)
                cli_error("%s: needs columns updates_per_s (or cells_per_s), pct_bw, min_ms, median_ms, max_ms", path);
            continue;
        }
        int got = fields(l, cell, MAXCOL);
        if (got != ncol) cli_error("%s:%d: %d fields where the header has %d", path, line, got, ncol);
        struct row *r = &f->rows[f->nrows++];
        for (int k = 0; k < NKEY; k++) /* a missing nodes column: one node per thread; other missing ones NULL */
            r->key[k] = at[k] >= 0 ? cell[at[k]] : !strcmp(key_columns[k], "nodes") ? "1" : NULL;
        r->updates = number(f, line, "updates_per_s", cell[c_upd]);
        r->pct = number(f, line, "pct_bw", cell[c_pct]);
        if (c_spread >= 0 && *cell[c_spread]) {
            r->spread = number(f, line, "pct_bw_spread", cell[c_spread]);
        } else {
            double lo = number(f, line, "min_ms", cell[c_min]), mid = number(f, line, "median_ms", cell[c_med]),
                   hi = number(f, line, "max_ms", cell[c_max]);
            r->spread = mid > 0 ? r->pct * (hi - lo) / mid : 0;
        }
    }
    if (!ncol) cli_error("%s: empty file (expected the header line of harness/metrics.h)", path);
}

static int ignored[NKEY]; /* --ignore: key columns left out of the match */

static void parse_ignore(char *list)
{
    for (char *save = NULL, *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < NKEY && strcmp(c, key_columns[k])) k++;
        if (k == NKEY) {
            char known[256] = "";
            for (int j = 0; j < NKEY; j++) strcat(strcat(known, j ? ", " : ""), key_columns[j]);
            cli_error("compare: --ignore: '%s' is not a configuration column (%s)", c, known);
        }
        ignored[k] = 1;
    }
}

static int same_key(const struct row *a, const struct row *b)
{
    for (int k = 0; k < NKEY; k++) {
        if (ignored[k] || ((!a->key[k] || !b->key[k]) && unknown_key(key_columns[k]))) continue;
        const char *x = a->key[k], *y = b->key[k];
        if (!strcmp(key_columns[k], "pml")) x = x ? x : "0", y = y ? y : "0"; /* no column: no layer */
        if (!strcmp(key_columns[k], "tsteps")) x = x ? x : "1", y = y ? y : "1"; /* no column: one step a pass */
        if (!x || !y ? x != y : strcmp(x, y) != 0) return 0;
    }
    return 1;
}

/* "table5-allthreads fv24 hx cpu f32 array plain 300x300x300 block 0x0x1 nodes 1 rows 1 threads 2";
 * a step file's: "step fv24 gpu f32 array fused25d periodic 512x512x512 block 64x2x1 ..." */
static void describe(const struct row *r, char *out, size_t n)
{
    size_t m = 0;
    out[0] = '\0';
    for (int k = 0; k < NKEY && m < n; k++) {
        const char *name = key_columns[k];
        if (!r->key[k]) continue;
        const char *sep = !m ? "" : !strcmp(name, "ny") || !strcmp(name, "nz") ? "x" : " ";
        const int labelled = !strcmp(name, "block") || !strcmp(name, "nodes") || !strcmp(name, "rows") ||
                             !strcmp(name, "stages") || !strcmp(name, "threads") || !strcmp(name, "pml") ||
                             !strcmp(name, "tsteps");
        m += (size_t)snprintf(out + m, n - m, "%s%s%s%s", sep, labelled ? name : "", labelled ? " " : "", r->key[k]);
    }
}

/* faster / slower when pct_bw moved by more than the wider of the two spreads. */
static const char *verdict(double old_pct, double old_spread, double new_pct, double new_spread)
{
    double noise = old_spread > new_spread ? old_spread : new_spread, d = new_pct - old_pct;
    return d > noise ? "faster" : d < -noise ? "slower" : "within noise";
}

int cmd_compare(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL};
    int np = 0;
    char *ignore = NULL;
    const struct cli_option opts[] = {
        {"ignore", CLI_TEXT, "COLUMNS", "configuration columns not to match on, comma-separated", &ignore, 0, 0, NULL, 0},
    };
    for (int i = cli_parse_args(usage, opts, CLI_NOPTS(opts), argc, argv); i < argc; i++) {
        if (argv[i][0] == '-') cli_error("compare: unknown option '%s' (see fdtdbench compare --help)", argv[i]);
        if (np == 2) cli_error("compare: more than two files (see fdtdbench compare --help)");
        paths[np++] = argv[i];
    }
    if (np != 2) cli_error("compare: needs OLD.csv and NEW.csv (see fdtdbench compare --help)");
    if (ignore) parse_ignore(ignore);
    struct file old, new;
    load(&old, paths[0]);
    load(&new, paths[1]);
    int counts[3] = {0, 0, 0}, only_old = 0, only_new = 0;
    printf("| configuration | updates (cells) /s old | new | new/old | %% bw old (spread) | new (spread) | new/old | verdict |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < old.nrows; i++) {
        struct row *o = &old.rows[i], *w = NULL;
        for (int j = 0; j < new.nrows && !w; j++)
            if (!new.rows[j].used && same_key(o, &new.rows[j])) w = &new.rows[j];
        if (!w) continue;
        o->used = w->used = 1;
        char what[256];
        describe(o, what, sizeof what);
        const char *v = verdict(o->pct, o->spread, w->pct, w->spread);
        counts[v[0] == 'f' ? 0 : v[0] == 's' ? 1 : 2]++;
        printf("| %s | %.4g | %.4g | %.3f | %.1f (%.1f) | %.1f (%.1f) | %.3f | %s |\n", what, o->updates, w->updates,
               o->updates > 0 ? w->updates / o->updates : NAN, o->pct, o->spread, w->pct, w->spread,
               o->pct > 0 ? w->pct / o->pct : NAN, v);
    }
    for (int f = 0; f < 2; f++) {
        const struct file *src = f ? &new : &old;
        for (int i = 0; i < src->nrows; i++) {
            if (src->rows[i].used) continue;
            char what[256];
            describe(&src->rows[i], what, sizeof what);
            printf("only in %s: %s\n", f ? "NEW" : "OLD", what);
            if (f) only_new++;
            else only_old++;
        }
    }
    printf("%d faster, %d slower, %d within noise; %d only in OLD, %d only in NEW\n", counts[0], counts[1], counts[2],
           only_old, only_new);
    free(old.text), free(old.rows), free(new.text), free(new.rows);
    return 0;
}
