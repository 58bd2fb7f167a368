/* The one writer of the suite's Markdown: results/README.md from every CSV in
 * results/<machine>/ (fdtdbench report), and the page bench writes beside its CSV. Its rules
 * live here only: which tables are shown and how, which reference row a ratio is taken
 * against (ref_row), and which file is newest (newest). Columns are found by their header
 * names; their headings and formats come from the metric table (harness/metrics.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "metrics.h"
#include "paper.h"
#include "report.h"
#include "outfile.h"

/* One CSV file, read whole: header names and cells point into text. */
struct csv {
    char *path, *text;
    const char *name; /* file name within its machine folder */
    int ncol, nrow;
    char **head, **cell; /* cell[r * ncol + c] */
    int *line;           /* line number of each row, for errors */
    int steps;           /* 1: a full-step file (its own columns: cells_per_s) */
};

struct machine {
    char *name;
    struct csv *files;
    int nfiles;
    struct csv *peers; /* steps/peers-*.csv: the suite's full step beside other codes' */
    int npeers;
    struct csv *scaling; /* steps/scaling-*.csv: the step across several GPUs */
    int nscaling;
};

/* Columns the page cannot do without; the numeric ones are checked when read, so that bad
 * input stops before anything is written. Other columns of metrics.h are used where present
 * (files written before a column existed lack it). */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
struct needs {
    const char *const *required, *const *numeric;
    size_t nrequired, nnumeric;
};
static const char *const update_required[] = {
    "table", "scheme", "component", "device", "variant", "precision", "coef", "block", "threads", "nx", "ny", "nz",
    "device_name", "git_commit", "date",
};
static const char *const update_numeric[] = {
    "updates_per_s", "mcells_per_s", "gbs_effective", "bw_copy_gbs", "bw_second_gbs", "pct_bw",
    "gflops", "cache_resident", "verified", "paper_mcells",
};
static const char *const step_required[] = {
    "table", "scheme", "device", "variant", "precision", "coef", "boundary", "block", "threads", "nx", "ny", "nz",
    "device_name", "git_commit", "date",
};
static const char *const step_numeric[] = {
    "cells_per_s", "mcells_per_s", "compulsory_bytes", "gbs_effective", "pct_bw", "cache_resident", "verified",
};
static const char *const scaling_numeric[] = {"cells_per_s", "mcells_per_s", "median_ms", "slabs", "halo_bytes", "verified"};
/* (slabs: empty for one GPU, as the step table writes an undivided grid) */
static const struct needs update_needs = {update_required, update_numeric, COUNT(update_required),
                                          COUNT(update_numeric)};
static const struct needs step_needs = {step_required, step_numeric, COUNT(step_required), COUNT(step_numeric)};
static const struct needs scaling_needs = {step_required, scaling_numeric, COUNT(step_required), COUNT(scaling_numeric)};

/* The tables, in the order shown. A figure_only table is a line on the results page (the
 * figures show it) and a full table on bench's page; any other table gets a line. */
/* A table shows at most this many metric columns. */
#define MAX_COLUMNS 64
_Static_assert(NMETRICS <= MAX_COLUMNS && NSTEP_METRICS <= MAX_COLUMNS, "raise MAX_COLUMNS");

static const struct table_info {
    const char *table, *title, *about;
    int figure_only;
    int paper_block; /* show the paper's best block shape (its Table 3) beside ours */
} shown_tables[] = {
    {"table5-1thread", "Table 5: CPU, one thread", "The paper: one core of a Xeon W5580.", 0, 0},
    {"table5-allthreads", "Table 5 with all threads", "The paper's figures beside these are for one core.", 0, 0},
    {"incache", "CPU in cache: updates per cycle per core (not in the paper)",
     "Hx on 128 x n x n, n as large as fits in three quarters of the used cores' level-2 caches: what each "
     "variant's loop does when memory does not bound it.", 0, 0},
    {"table2", "Table 2: GPU, Yee per block shape", "The paper: Tesla C2050.", 0, 0},
    {"table4", "Tables 3 and 4: GPU, each scheme at its best block",
     "The paper: Tesla C2050, with its best block shape (Table 3).", 0, 1},
    {"uniform", "Uniform (scalar) coefficients (not in the paper)",
     "What a homogeneous region needs: fewer bytes per update.", 0, 0},
    {"components", "All six components, f32, array coefficients (not in the paper)",
     "Each component of each scheme; on a GPU at 300³ and 512³, in the variant that was fastest for the scheme's Hx "
     "at the same grid (Table 4, the sizes table).", 0, 0},
    {"f64", "Double precision (not in the paper)",
     "Twice the bytes per update: on a GPU every component at 300³ and 512³, in the tuned file's fastest f64 variant "
     "for Hx there; on a CPU Hx.", 0, 0},
    {"sizes", "Throughput against grid size", "", 1, 0},
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) cli_fail("report: out of memory");
    return p;
}

static char *xstrdup(const char *s)
{
    return strcpy(xmalloc(strlen(s) + 1), s);
}

static char *join(const char *dir, const char *name)
{
    char *p = xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* Splits s at each sep in place, storing up to max pointers; returns the count of pieces.
 * With out NULL it only counts, leaving s as it was. */
static int split(char *s, char sep, char **out, int max)
{
    int n = 0;
    for (char *p = s;; p++) {
        if (out && n < max) out[n] = s;
        if (*p == sep || !*p) {
            n++;
            if (!*p) return n;
            if (out) *p = '\0';
            s = p + 1;
        }
    }
}

static int col(const struct csv *f, const char *name)
{
    for (int c = 0; c < f->ncol; c++)
        if (!strcmp(f->head[c], name)) return c;
    return -1;
}

static const char *cell(const struct csv *f, int r, const char *name)
{
    int c = col(f, name);
    return c < 0 ? "" : f->cell[r * f->ncol + c];
}

/* A number, NAN when empty; anything else is bad input. */
static double num(const struct csv *f, int r, const char *name)
{
    const char *s = cell(f, r, name);
    if (!*s) return NAN;
    char *end;
    double v = strtod(s, &end);
    if (*end) cli_error("%s:%d: column %s: '%s' is not a number", f->path, f->line[r], name, s);
    return v;
}

/* Reads and checks a results CSV: the columns of needs, or (NULL) those its header's kind needs. */
static void load_csv(struct csv *f, const char *dir, const char *name, const struct needs *needs)
{
    f->path = join(dir, name);
    f->name = strrchr(f->path, '/') + 1;
    f->text = cli_read_text(f->path);
    int lines = 1;
    for (const char *p = f->text; *p; p++) lines += *p == '\n';
    char **line = xmalloc(sizeof *line * lines);
    int n = split(f->text, '\n', line, lines);
    int first = 0;
    while (first < n && !*line[first]) first++;
    if (first == n) {
        free(line); /* freed before each error: the sanitizers' leak check runs at exit */
        cli_error("%s: empty file (expected the header line of harness/metrics.h)", f->path);
    }
    for (int i = 0; i < n; i++) line[i][strcspn(line[i], "\r")] = '\0';

    f->ncol = split(line[first], ',', NULL, 0);
    f->head = xmalloc(sizeof *f->head * f->ncol);
    split(line[first], ',', f->head, f->ncol);
    f->steps = col(f, "cells_per_s") >= 0;
    if (!needs) needs = f->steps ? &step_needs : &update_needs; /* told by the header */
    for (size_t k = 0; k < needs->nrequired + needs->nnumeric; k++) {
        const char *want = k < needs->nrequired ? needs->required[k] : needs->numeric[k - needs->nrequired];
        if (col(f, want) < 0) {
            free(line);
            cli_error("%s: no column '%s' in the header (expected the columns of harness/metrics.h)",
                      f->path, want);
        }
    }
    f->cell = xmalloc(sizeof *f->cell * f->ncol * (n - first));
    f->line = xmalloc(sizeof *f->line * (n - first));
    f->nrow = 0;
    for (int i = first + 1; i < n; i++) {
        if (!*line[i]) continue;
        int got = split(line[i], ',', f->cell + f->nrow * f->ncol, f->ncol);
        if (got != f->ncol) {
            free(line);
            cli_error("%s:%d: %d fields where the header has %d", f->path, i + 1, got, f->ncol);
        }
        f->line[f->nrow++] = i + 1;
    }
    free(line);
    for (int r = 0; r < f->nrow; r++)
        for (size_t k = 0; k < needs->nnumeric; k++) num(f, r, needs->numeric[k]);
}

static void free_csv(struct csv *f)
{
    free(f->path);
    free(f->text);
    free(f->head);
    free(f->cell);
    free(f->line);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in dir for which keep() says yes. */
static char **list_dir(const char *dir, int (*keep)(const char *dir, const char *name), int *count)
{
    DIR *d = opendir(dir);
    if (!d) cli_error("--results: cannot open '%s': %s", dir, strerror(errno));
    int n = 0, cap = 16;
    char **names = xmalloc(sizeof *names * cap);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !keep(dir, e->d_name)) continue;
        if (n == cap && !(names = realloc(names, sizeof *names * (cap *= 2)))) cli_fail("report: out of memory");
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    *count = n;
    return names;
}

static int is_kind(const char *dir, const char *name, int want_dir)
{
    char *p = join(dir, name);
    struct stat st;
    int ok = stat(p, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
    free(p);
    return ok;
}

/* A machine folder: any folder but plots/, which holds the machine-independent figures. */
static int is_machine(const char *dir, const char *name)
{
    return strcmp(name, "plots") && is_kind(dir, name, 1);
}

/* A results CSV: .csv, or .csv.gz (gzipped). */
static int is_csv(const char *dir, const char *name)
{
    size_t n = strlen(name) - (cli_gzipped(name) ? 3 : 0);
    return n > 4 && !strncmp(name + n - 4, ".csv", 4) && is_kind(dir, name, 0);
}

static int is_peers_csv(const char *dir, const char *name)
{
    return !strncmp(name, "peers-", 6) && is_csv(dir, name);
}

static int is_scaling_csv(const char *dir, const char *name)
{
    return !strncmp(name, SCALING_STEM "-", strlen(SCALING_STEM) + 1) && is_csv(dir, name);
}

static int is_png(const char *dir, const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".png") && is_kind(dir, name, 0);
}

/* The latest date among a file's rows of one table (NULL: all tables); "" if none. */
static const char *latest(const struct csv *f, const char *table)
{
    const char *best = NULL;
    for (int r = 0; r < f->nrow; r++)
        if (!table || !strcmp(cell(f, r, "table"), table))
            if (!best || strcmp(cell(f, r, "date"), best) > 0) best = cell(f, r, "date");
    return best ? best : "";
}

static int has_table(const struct csv *f, const char *table)
{
    for (int r = 0; r < f->nrow; r++)
        if (!strcmp(cell(f, r, "table"), table)) return 1;
    return 0;
}

/* The newest file holding the table (or any rows) among those not marked in skip (NULL: all),
 * and how many of them hold it (holders may be NULL). */
static const struct csv *newest_of(const struct machine *m, const char *table, const int *skip, int *holders)
{
    const struct csv *best = NULL;
    int n = 0;
    for (int i = 0; i < m->nfiles; i++) {
        const struct csv *f = &m->files[i];
        if ((skip && skip[i]) || (table ? !has_table(f, table) : f->nrow == 0)) continue;
        n++;
        int d = best ? strcmp(latest(f, table), latest(best, table)) : 1;
        if (d > 0 || (d == 0 && strcmp(f->name, best->name) > 0)) best = f;
    }
    if (holders) *holders = n;
    return best;
}

static const struct csv *newest(const struct machine *m, const char *table, int *holders)
{
    return newest_of(m, table, NULL, holders);
}

/* Markdown-safe text: a '|' would end a table cell. */
static void md(FILE *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputc('\\', o);
        fputc(*s, o);
    }
}

static void put_num(FILE *o, const char *fmt, double v)
{
    if (isnan(v)) fputs(" |", o);
    else {
        fputc(' ', o);
        fprintf(o, fmt, v);
        fputs(" |", o);
    }
}

static int is_default(const struct csv *f, int r)
{
    const char *v = cell(f, r, "variant");
    return (!strcmp(v, "plain") || !strcmp(v, "baseline")) && !strcmp(cell(f, r, "precision"), "f32") &&
           !strcmp(cell(f, r, "coef"), "array");
}

/* The row a row's ratios are taken against: the reference scheme's row of the same table with
 * the same component, variant, steps per pass, precision, coefficients, layer, slabs, grid and
 * threads; -1 if none. */
static int ref_row(const struct csv *f, const char *table, int r)
{
    static const char *const same[] = {"table", "component", "variant", "tsteps", "precision", "coef", "pml",
                                       "slabs", "nx", "ny", "nz", "threads"};
    const struct scheme *ref = scheme_reference();
    if (!ref) return -1;
    for (int y = 0; y < f->nrow; y++) {
        int match = !strcmp(cell(f, y, "table"), table) && !strcmp(cell(f, y, "scheme"), ref->name);
        for (size_t k = 0; k < COUNT(same) && match; k++) match = !strcmp(cell(f, y, same[k]), cell(f, r, same[k]));
        if (match) return y;
    }
    return -1;
}

static double ratio(double a, double b)
{
    return a > 0 && b > 0 ? a / b : NAN;
}

/* The bandwidth probe's names, from the row; files from before those columns existed named
 * them by device. */
static const char *probe_name(const struct csv *f, int r, int second)
{
    const char *v = cell(f, r, second ? "bw_second_name" : "bw_copy_name");
    if (*v) return v;
    int gpu = !strcmp(cell(f, r, "device"), "gpu");
    return second ? (gpu ? "device-to-device copy" : "STREAM triad") : (gpu ? "copy kernel" : "STREAM copy");
}

static void heading_cell(FILE *o, const char *h, int *ncols, int *text)
{
    fprintf(o, " %s |", h);
    ++*ncols;
    if (text) ++*text;
}

/* One table of one file: a caption naming the file and the settings all rows share, then a
 * row per measurement. Columns: the scheme and the settings that vary, then each metric with
 * a Markdown heading (metrics.h) that some row gives, and the ratios to the reference row. */
static void write_table(FILE *o, const char *hashes, const struct table_info *t, const struct metric_table *mt,
                        const struct csv *f, int holders)
{
    const char *table = t->table;
    const struct scheme *ref = scheme_reference();
    char ref_title[80];
    snprintf(ref_title, sizeof ref_title, "%s", ref ? ref->title : "reference");
    static const char *const axes[] = {"nx", "ny", "nz"};
    int first = -1, schemes_differ = 0, extra = 0, grids_differ = 0, gpu = 0, marching = 0, tiled = 0, pipelined = 0,
        components_differ = 0, temporal = 0;
    for (int r = 0; r < f->nrow; r++) {
        if (strcmp(cell(f, r, "table"), table)) continue;
        if (first < 0) first = r;
        schemes_differ |= strcmp(cell(f, r, "scheme"), cell(f, first, "scheme")) != 0;
        components_differ |= strcmp(cell(f, r, "component"), cell(f, first, "component")) != 0;
        extra |= !is_default(f, r);
        for (int d = 0; d < 3; d++) grids_differ |= strcmp(cell(f, r, axes[d]), cell(f, first, axes[d])) != 0;
        gpu |= !strcmp(cell(f, r, "device"), "gpu");
        marching |= atoi(cell(f, r, "nodes")) > 1;
        tiled |= atoi(cell(f, r, "rows")) > 1;
        pipelined |= atoi(cell(f, r, "stages")) > 0; /* "" in files from before stages: atoi 0 */
        temporal |= atoi(cell(f, r, "tsteps")) > 1;  /* a step file's; likewise */
    }
    if (first < 0) return;
    /* Metric columns: those with a heading that the file has and some row gives (not 0). */
    int show[MAX_COLUMNS] = {0}, mcells = metric_find(mt, "mcells_per_s"), paper_k = metric_find(mt, "paper_mcells");
    for (int k = 0; k < mt->n; k++) {
        if (!mt->col[k].md_heading || col(f, mt->col[k].name) < 0) continue;
        for (int r = first; r < f->nrow && !show[k]; r++) {
            if (strcmp(cell(f, r, "table"), table)) continue;
            double v = num(f, r, mt->col[k].name);
            show[k] = !isnan(v) && v != 0;
        }
    }
    int ratios = schemes_differ && ref, papered = paper_k >= 0 && show[paper_k];

    fprintf(o, "%s %s\n\n%s%sFrom `%s` (%s, commit %s", hashes, t->title, t->about, *t->about ? " " : "", f->name,
            latest(f, table), cell(f, first, "git_commit"));
    if (holders > 1) fprintf(o, "; the newest of %d files holding this table", holders);
    fputc(')', o);
    if (*cell(f, first, "component") && !components_differ) fprintf(o, ". Component %s", cell(f, first, "component"));
    if (!grids_differ) fprintf(o, ", grid %s×%s×%s", cell(f, first, "nx"), cell(f, first, "ny"), cell(f, first, "nz"));
    fprintf(o, ". Bandwidth measured in that run: %.1f GB/s (%s), %.1f GB/s (%s).", num(f, first, "bw_copy_gbs"),
            probe_name(f, first, 0), num(f, first, "bw_second_gbs"), probe_name(f, first, 1));
    if (ratios) fprintf(o, " %s/scheme: the %s row's MCells/s over the row's, same settings.", ref_title, ref_title);
    fputs("\n\n|", o);

    int ncols = 0, text = 0;
    heading_cell(o, "scheme", &ncols, &text);
    if (components_differ) heading_cell(o, "component", &ncols, &text);
    if (extra) {
        heading_cell(o, "variant", &ncols, &text);
        heading_cell(o, "precision", &ncols, &text);
        heading_cell(o, "coefficients", &ncols, &text);
    }
    if (grids_differ) heading_cell(o, "grid", &ncols, &text);
    heading_cell(o, gpu ? "block" : "threads", &ncols, &text);
    if (marching) heading_cell(o, "nodes", &ncols, &text);
    if (tiled) heading_cell(o, "rows", &ncols, &text);
    if (pipelined) heading_cell(o, "stages", &ncols, &text);
    if (temporal) heading_cell(o, "steps/pass", &ncols, &text);
    if (t->paper_block && gpu && papered) heading_cell(o, "paper block", &ncols, &text);
    char h[128];
    for (int k = 0; k < mt->n; k++) {
        if (!show[k]) continue;
        heading_cell(o, mt->col[k].md_heading, &ncols, NULL);
        if (k == mcells && ratios) {
            snprintf(h, sizeof h, "%s/scheme", ref_title);
            heading_cell(o, h, &ncols, NULL);
        }
        if (k == paper_k) {
            snprintf(h, sizeof h, "paper %s/scheme", ref_title);
            if (ratios) heading_cell(o, h, &ncols, NULL);
            heading_cell(o, "measured/paper", &ncols, NULL);
        }
    }
    fputs("\n|", o);
    for (int c = 0; c < ncols; c++) fputs(c < text ? "---|" : "---:|", o); /* text left, numbers right */
    fputc('\n', o);

    for (int r = first; r < f->nrow; r++) {
        if (strcmp(cell(f, r, "table"), table)) continue;
        double mc = num(f, r, "mcells_per_s"), paper = num(f, r, "paper_mcells");
        int y = ratios ? ref_row(f, table, r) : -1;
        fputs("| ", o);
        md(o, cell(f, r, "scheme"));
        fputs(" |", o);
        if (components_differ) fprintf(o, " %s |", cell(f, r, "component"));
        static const char *const setting[] = {"variant", "precision", "coef"};
        for (int k = 0; k < 3 * extra; k++) {
            fputc(' ', o);
            md(o, cell(f, r, setting[k]));
            fputs(" |", o);
        }
        if (grids_differ)
            fprintf(o, " %s×%s×%s |", cell(f, r, "nx"), cell(f, r, "ny"), cell(f, r, "nz"));
        fputc(' ', o);
        md(o, cell(f, r, gpu ? "block" : "threads"));
        fputs(" |", o);
        if (marching) fprintf(o, " %s |", cell(f, r, "nodes"));
        if (tiled) fprintf(o, " %s |", cell(f, r, "rows"));
        if (pipelined) fprintf(o, " %s |", cell(f, r, "stages"));
        if (temporal) fprintf(o, " %s |", cell(f, r, "tsteps"));
        if (t->paper_block && gpu && papered) {
            const struct paper_scheme *p = paper_find(cell(f, r, "scheme"));
            if (p) fprintf(o, " %dx%dx%d |", p->best_block[0], p->best_block[1], p->best_block[2]);
            else fputs(" |", o);
        }
        for (int k = 0; k < mt->n; k++) {
            if (!show[k]) continue;
            double v = num(f, r, mt->col[k].name);
            if (!strcmp(mt->col[k].md_format, "flag")) fputs(v == 1 ? " yes |" : " no |", o);
            else put_num(o, mt->col[k].md_format, v * mt->col[k].md_scale);
            if (k == mcells && ratios) put_num(o, "%.2f", y < 0 ? NAN : ratio(num(f, y, "mcells_per_s"), mc));
            if (k == paper_k) {
                if (ratios) put_num(o, "%.1f", y < 0 ? NAN : ratio(num(f, y, "paper_mcells"), paper));
                put_num(o, "%.2f", ratio(mc, paper));
            }
        }
        fputc('\n', o);
    }
    fputc('\n', o);
}

/* Peers files (scripts/peers.sh, scripts/gpu_peers.sh): the suite's full-step rows (code
 * fdtdbench) beside other codes' rows (table peers) on the same grid and device. */
static int is_suite(const struct csv *f, int r)
{
    return !strcmp(cell(f, r, "code"), "fdtdbench");
}

/* The suite row a peer's row is compared with: the fastest of the file's suite rows of the same
 * device, grid and coefficient storage, of the same precision where the file has one; -1 if
 * none. Its ratio (peer_ratio) is the peer's time per step over that row's: above 1 the suite
 * is faster. The one rule for the page, the peers page and the plots' extract. */
static int suite_row(const struct csv *f, int r)
{
    static const char *const same[] = {"device", "coef", "nx", "ny", "nz"};
    int best = -1, best_prec = 0;
    for (int y = 0; y < f->nrow; y++) {
        if (!is_suite(f, y)) continue;
        int match = 1;
        for (size_t k = 0; k < COUNT(same) && match; k++) match = !strcmp(cell(f, y, same[k]), cell(f, r, same[k]));
        if (!match) continue;
        int prec = !strcmp(cell(f, y, "precision"), cell(f, r, "precision"));
        if (best < 0 || prec > best_prec ||
            (prec == best_prec && num(f, y, "mcells_per_s") > num(f, best, "mcells_per_s"))) {
            best = y;
            best_prec = prec;
        }
    }
    return best;
}

static double peer_ratio(const struct csv *f, int r)
{
    int y = is_suite(f, r) ? -1 : suite_row(f, r);
    return y < 0 ? NAN : ratio(num(f, r, "median_ms"), num(f, y, "median_ms"));
}

static int is_peers_file(const struct csv *f)
{
    return has_table(f, "peers") || !strncmp(f->name, "peers-", 6);
}

/* The suite's own rows' material model, in the words the peers' rows use. */
static const char *suite_model(const char *coef)
{
    if (!strcmp(coef, "indexed")) return "one material byte per node into a coefficient table";
    if (!strcmp(coef, "uniform")) return "scalar coefficients";
    if (!strcmp(coef, "array")) return "Da and Db arrays per component";
    return "";
}

/* The peers table of one file: a row per code and variant, the ratio column for the peers. */
static void write_peers(FILE *o, const char *hashes, const struct csv *f, int holders)
{
    if (!f->nrow) return;
    static const char *const axes[] = {"nx", "ny", "nz"};
    int grids_differ = 0, steps_differ = 0;
    for (int r = 1; r < f->nrow; r++) {
        for (int d = 0; d < 3; d++) grids_differ |= strcmp(cell(f, r, axes[d]), cell(f, 0, axes[d])) != 0;
        steps_differ |= strcmp(cell(f, r, "steps"), cell(f, 0, "steps")) != 0;
    }
    int gpu = !strcmp(cell(f, 0, "device"), "gpu");
    fprintf(o, "%s Full step beside other FDTD codes (peers), %s\n\n", hashes, gpu ? "GPU" : "CPU");
    fprintf(o, "From `%s` (%s, commit %s", f->name, latest(f, NULL), cell(f, 0, "git_commit"));
    if (holders > 1) fprintf(o, "; the newest of %d peers files", holders);
    fputs("). ", o);
    md(o, cell(f, 0, "device_name"));
    if (!grids_differ) fprintf(o, ", grid %s×%s×%s", cell(f, 0, "nx"), cell(f, 0, "ny"), cell(f, 0, "nz"));
    if (!steps_differ) fprintf(o, ", %s steps per run", cell(f, 0, "steps"));
    fputs(", PEC walls (or the nearest each code has). MCells/s = cells × steps / s: a peer's from its own "
          "figure or its own timer, the step only (set-up, compile and JIT in their own column). "
          "**peer ÷ suite**: the peer's time per step over the suite's fastest step of the same "
          "coefficient storage and grid (the same precision where measured): above 1 the suite is "
          "faster. check: a field value each peer printed after its run, so that a run that did "
          "nothing is caught (the suite's rows are verified against the reference instead).\n\n",
          o);
    fputs("| code | version | variant | precision | coefficients | material model | grid | threads | steps | ms/step "
          "| MCells/s | set-up s | check | peer ÷ suite |\n|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---|---:|\n",
          o);
    /* Grid by grid in the order of the file, the suite's rows first, then the peers'. */
    for (int g = 0; g < f->nrow; g++) {
        int first_of_grid = 1;
        for (int y = 0; y < g && first_of_grid; y++) {
            int same = 1;
            for (int d = 0; d < 3 && same; d++) same = !strcmp(cell(f, y, axes[d]), cell(f, g, axes[d]));
            first_of_grid = !same;
        }
        if (!first_of_grid) continue;
        for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < f->nrow; r++) {
            int same = 1;
            for (int d = 0; d < 3 && same; d++) same = !strcmp(cell(f, r, axes[d]), cell(f, g, axes[d]));
            if (!same || is_suite(f, r) != !pass) continue;
            static const char *const text[] = {"code", "code_version", "variant", "precision", "coef"};
            fputc('|', o);
            for (size_t k = 0; k < COUNT(text); k++) {
                fputc(' ', o);
                md(o, cell(f, r, text[k]));
                fputs(" |", o);
            }
            fputc(' ', o);
            md(o, is_suite(f, r) ? suite_model(cell(f, r, "coef")) : cell(f, r, "model"));
            fprintf(o, " | %s×%s×%s | %s | %s |", cell(f, r, "nx"), cell(f, r, "ny"), cell(f, r, "nz"),
                    !strcmp(cell(f, r, "device"), "gpu") ? "GPU" : cell(f, r, "threads"), cell(f, r, "steps"));
            put_num(o, "%.4g", num(f, r, "median_ms"));
            double mc = num(f, r, "mcells_per_s");
            put_num(o, mc >= 100 ? "%.1f" : "%.4g", mc);
            put_num(o, "%.3g", col(f, "setup_s") < 0 ? NAN : num(f, r, "setup_s"));
            fputc(' ', o);
            md(o, is_suite(f, r) && num(f, r, "verified") == 1 ? "verified" : cell(f, r, "check"));
            fputs(" |", o);
            put_num(o, "%.2f", peer_ratio(f, r));
            fputc('\n', o);
        }
    }
    fputc('\n', o);
}

/* ---- several GPUs: the scaling table (make bench, steps/scaling-*.csv) ---------------------- */

static int is_scaling_file(const struct csv *f) { return has_table(f, SCALING_WEAK) || has_table(f, SCALING_STRONG); }

/* GPUs of a scaling row: its slabs (empty: one, undivided). */
static double gpus_of(const struct csv *f, int r) { return num(f, r, "slabs") > 1 ? num(f, r, "slabs") : 1; }

/* Row r's one-GPU row: the same table, scheme, storage, precision and variant undivided; -1 if none. */
static int one_gpu_row(const struct csv *f, int r)
{
    static const char *const same[] = {"table", "scheme", "coef", "precision", "variant"};
    for (int y = 0; y < f->nrow; y++) {
        int match = gpus_of(f, y) == 1;
        for (size_t k = 0; k < COUNT(same) && match; k++) match = !strcmp(cell(f, y, same[k]), cell(f, r, same[k]));
        if (match) return y;
    }
    return -1;
}

/* Parallel efficiency: the row's MCells/s over N times its one-GPU row's, N its GPUs (slabs):
 * T1 / (N TN) on one grid (strong), T1 / TN with N times the cells (weak). The one rule for the
 * page, the plots' extract and so the figure. */
static double scaling_efficiency(const struct csv *f, int r)
{
    const int y = one_gpu_row(f, r);
    return y < 0 ? NAN : num(f, r, "mcells_per_s") / (gpus_of(f, r) * num(f, y, "mcells_per_s"));
}

/* The efficiency a scaling table is held to at SCALING_GOAL_GPUS, in percent. */
static double scaling_goal(const char *table)
{
    return !strcmp(table, SCALING_WEAK) ? SCALING_WEAK_GOAL : SCALING_STRONG_GOAL;
}

static const struct {
    const char *table, *title;
} scaling_kinds[2] = {{SCALING_WEAK, "Weak scaling: the same cells per GPU"},
                      {SCALING_STRONG, "Strong scaling: one grid over more GPUs"}};

/* The scaling tables, each from its file f[k] (scaling_kinds' order; NULL: none), the newest of
 * `holders` scaling files holding it: weak and strong may be measured apart (bench --tables). */
static void write_scaling(FILE *o, const char *hashes, const struct csv *const f[2], int holders)
{
    const struct csv *first = f[0] ? f[0] : f[1];
    if (!first) return;
    fprintf(o, "%s Several GPUs: the full step split along z, halo planes through NCCL\n\n", hashes);
    for (int k = 0; k < 2; k++) {
        if (!f[k] || (k == 1 && f[1] == f[0])) continue;
        fprintf(o, "%s `%s` (%s, commit %s)", k && f[0] ? "; the strong table from" : "From", f[k]->name, latest(f[k], NULL),
                cell(f[k], 0, "git_commit"));
    }
    if (holders > 1) fprintf(o, "; the newest of %d scaling files holding each table", holders);
    fputs(". ", o);
    md(o, cell(first, 0, "device_name"));
    fprintf(o, ". One slab of the grid per GPU, each field's halo planes exchanged every half-step (as deep as its "
               "stencils reach along z), boundary planes first where `overlap` is 1. MCells/s = cells × steps / s of "
               "all GPUs together; **efficiency** = MCells/s ÷ (N × the one-GPU row's): T1 / TN for weak scaling "
               "(%d³ cells per GPU), T1 / (N × TN) for strong. Goals at %d GPUs: weak %.0f%%, strong %.0f%%. Every "
               "row was verified against the undivided step first.\n\n",
            SCALING_WEAK_GRID, SCALING_GOAL_GPUS, SCALING_WEAK_GOAL, SCALING_STRONG_GOAL);
    for (int k = 0; k < 2; k++) {
        const struct csv *g = f[k];
        if (!g || !has_table(g, scaling_kinds[k].table)) continue;
        fprintf(o, "%s# %s\n\n| scheme | coefficients | variant | GPUs | grid | ms/step | MCells/s | efficiency | halo "
                   "MB/step | goal (%.0f%% at %d) |\n|---|---|---|---:|---|---:|---:|---:|---:|---|\n",
                hashes, scaling_kinds[k].title, scaling_goal(scaling_kinds[k].table), SCALING_GOAL_GPUS);
        for (int r = 0; r < g->nrow; r++) {
            if (strcmp(cell(g, r, "table"), scaling_kinds[k].table)) continue;
            const double eff = 100 * scaling_efficiency(g, r);
            fputs("| ", o);
            md(o, cell(g, r, "scheme"));
            fputs(" | ", o);
            md(o, cell(g, r, "coef"));
            fputs(" | ", o);
            md(o, cell(g, r, "variant"));
            fprintf(o, " | %.0f | %s×%s×%s |", gpus_of(g, r), cell(g, r, "nx"), cell(g, r, "ny"), cell(g, r, "nz"));
            put_num(o, "%.4g", num(g, r, "median_ms"));
            put_num(o, "%.1f", num(g, r, "mcells_per_s"));
            put_num(o, "%.1f%%", eff);
            put_num(o, "%.2f", num(g, r, "halo_bytes") / 1e6);
            if (gpus_of(g, r) == SCALING_GOAL_GPUS && !isnan(eff))
                fprintf(o, " %s |\n", eff >= scaling_goal(scaling_kinds[k].table) ? "met" : "missed");
            else
                fputs(" |\n", o);
        }
        fputc('\n', o);
    }
}

/* Figures in a sensible reading order: the paper's comparison first. */
static int figure_rank(const char *name)
{
    char ref_blocks[40]; /* the reference scheme's heatmap before the others */
    snprintf(ref_blocks, sizeof ref_blocks, "blocks-%s", scheme_reference() ? scheme_reference()->name : "");
    const char *const order[] = {"throughput", "roofline", "sizes", "peers", "scaling", ref_blocks, "blocks", "dispersion-vs-ppw"};
    for (int i = 0; i < 8; i++)
        if (!strncmp(name, order[i], strlen(order[i]))) return i;
    return 8;
}

static int by_rank(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    int d = figure_rank(x) - figure_rank(y);
    return d ? d : strcmp(x, y);
}

static void write_figures(FILE *o, const char *results, const char *sub)
{
    char *dir = join(results, sub);
    int n = 0;
    char **png = is_kind(results, sub, 1) ? list_dir(dir, is_png, &n) : NULL;
    if (n) qsort(png, n, sizeof *png, by_rank);
    fputs("### Figures\n\n", o);
    if (!n) fputs("None rendered yet: run `make plots` (needs gnuplot).\n\n", o);
    for (int i = 0; i < n; i++) {
        size_t stem = strlen(png[i]) - 4;
        fprintf(o, "[%.*s](%s/%s) ([svg](%s/%.*s.svg))\n\n![%.*s](%s/%s)\n\n", (int)stem, png[i], sub, png[i], sub,
                (int)stem, png[i], (int)stem, png[i], sub, png[i]);
        free(png[i]);
    }
    free(png);
    free(dir);
}

/* The newest of a machine's peers or scaling files (date, then name) that holds a row of table
 * (NULL: any), and how many hold one. */
static const struct csv *newest_in(const struct csv *files, int n, const char *table, int *holders)
{
    const struct csv *best = NULL;
    int held = 0;
    for (int i = 0; i < n; i++) {
        const struct csv *f = &files[i];
        if (!f->nrow || (table && !has_table(f, table))) continue;
        held++;
        int d = best ? strcmp(latest(f, NULL), latest(best, NULL)) : 1;
        if (d > 0 || (d == 0 && strcmp(f->name, best->name) > 0)) best = f;
    }
    if (holders) *holders = held;
    return best;
}

/* A machine's newest weak and strong scaling tables (scaling_kinds' order); 1 if it has either. */
static int newest_scaling(const struct machine *m, const struct csv *f[2], int *holders)
{
    int held[2];
    for (int k = 0; k < 2; k++) f[k] = newest_in(m->scaling, m->nscaling, scaling_kinds[k].table, &held[k]);
    if (holders) *holders = held[0] > held[1] ? held[0] : held[1];
    return f[0] || f[1];
}

/* A machine's notes (RESULTS/<machine>/NOTES.md), written by hand from its committed logs: what
 * no CSV column holds, such as how long a new GPU took to build, tune and bench. Verbatim. */
static void write_notes(FILE *o, const char *results, const char *machine)
{
    char *dir = join(results, machine), *path = join(dir, "NOTES.md"), *text = access(path, R_OK) ? NULL : cli_read_text(path);
    if (text) fprintf(o, "%s%s", text, text[0] && text[strlen(text) - 1] == '\n' ? "\n" : "\n\n");
    free(text), free(path), free(dir);
}

static const struct csv *newest_peers(const struct machine *m, int *holders)
{
    return newest_in(m->peers, m->npeers, NULL, holders);
}

static void write_machine(FILE *o, const char *results, const struct machine *m)
{
    int holders;
    const struct csv *f = newest(m, NULL, &holders);
    fprintf(o, "## %s\n\n", m->name);
    write_notes(o, results, m->name);
    if (!f) {
        const struct csv *p = newest_peers(m, &holders);
        if (p) write_peers(o, "###", p, holders);
        const struct csv *sc[2];
        const int scaling = newest_scaling(m, sc, &holders);
        if (scaling) write_scaling(o, "###", sc, holders);
        if (!p && !scaling) fputs("No rows yet.\n\n", o);
        char *sub = join(m->name, "plots");
        if (p || scaling) write_figures(o, results, sub);
        free(sub);
        return;
    }
    static const char *const context[][2] = {
        {"device", "device_name"}, {"detail", "device_detail"}, {"driver", "driver"}, {"host", "host"},
        {"compiler", "compiler"}, {"flags", "cflags"}, {"OpenMP binding", "omp_bind"},
        {"newest run", "date"}, {"commit", "git_commit"},
    };
    fprintf(o, "| newest file `%s` | |\n|---|---|\n", f->name);
    for (size_t k = 0; k < COUNT(context); k++) {
        const char *v = strcmp(context[k][1], "date") ? cell(f, 0, context[k][1]) : latest(f, NULL);
        if (!*v) continue;
        fprintf(o, "| %s | ", context[k][0]);
        md(o, v);
        fputs(" |\n", o);
    }
    fputs("| files |", o);
    for (int i = 0; i < m->nfiles; i++)
        fprintf(o, "%s `%s` (%d rows)", i ? "," : "", m->files[i].name, m->files[i].nrow);
    fputs(" |\n\n", o);

    for (size_t t = 0; t < COUNT(shown_tables); t++) {
        const struct csv *g = newest(m, shown_tables[t].table, &holders);
        if (g && !shown_tables[t].figure_only) write_table(o, "###", &shown_tables[t], &update_metrics, g, holders);
    }

    /* Tables shown only as figures (sizes, blocks, ...): where their rows are. */
    int listed = 0;
    for (int i = 0; i < m->nfiles; i++)
        for (int r = 0; r < m->files[i].nrow; r++) {
            const char *table = cell(&m->files[i], r, "table");
            int skip = 0;
            for (size_t t = 0; t < COUNT(shown_tables); t++)
                skip |= !shown_tables[t].figure_only && !strcmp(table, shown_tables[t].table);
            for (int j = 0; j <= i && !skip; j++) /* listed already at an earlier row? */
                for (int s = 0; s < (j < i ? m->files[j].nrow : r) && !skip; s++)
                    skip = !strcmp(cell(&m->files[j], s, "table"), table);
            if (skip) continue;
            const struct csv *g = newest(m, table, &holders);
            int rows = 0;
            for (int s = 0; s < g->nrow; s++) rows += !strcmp(cell(g, s, "table"), table);
            if (!listed++) fputs("Other measurements, shown in the figures:\n\n", o);
            fputs("- `", o);
            md(o, table);
            fprintf(o, "`: %d rows from `%s` (%s)\n", rows, g->name, latest(g, table));
        }
    if (listed) fputc('\n', o);
    const struct csv *p = newest_peers(m, &holders);
    if (p) write_peers(o, "###", p, holders);
    const struct csv *sc[2];
    if (newest_scaling(m, sc, &holders)) write_scaling(o, "###", sc, holders);
    char *sub = join(m->name, "plots");
    write_figures(o, results, sub);
    free(sub);
}

/* What the tables' columns mean: from the metric table, plus the ratios this module adds. */
static void write_legend(FILE *o, const struct metric_table *mt)
{
    const struct scheme *ref = scheme_reference();
    for (int k = 0; k < mt->n; k++)
        if (mt->col[k].md_heading)
            fprintf(o, "- %s (`%s`): %s.\n", mt->col[k].md_heading, mt->col[k].name, mt->col[k].meaning);
    if (ref) {
        fprintf(o, "- %s/scheme: the %s row's MCells/s divided by the scheme's (same table, variant, precision,\n"
                   "  coefficients, grid and threads)", ref->title, ref->title);
        if (mt == &update_metrics) fprintf(o, ", as in the paper's Tables 4 and 5; paper %s/scheme likewise", ref->title);
        fputs(".\n", o);
    }
    if (mt == &update_metrics) fputs("- Paper figures: M. F. Hadi, Int. J. Antennas Propag. 2012, article 280359.\n", o);
    fputc('\n', o);
}

/* bench's page: every table of one file, under the device's name. */
/* A page for one measurement file: bench's tables, or the step table. */
struct page_kind {
    const char *what; /* "benchmark", "full time step" */
    const char *command;
    const struct metric_table *mt;
    const struct needs *needs;
    const struct table_info *tables;
    size_t ntables;
};

static const struct table_info step_tables[] = {
    {"step", "Full time step: all six components, H then E half-step, halo refresh included",
     "MCells/s here is cells x steps / s, the unit openEMS, Meep and gprMax report (not the paper's equation 5); "
     "bytes/cell/step are the compulsory bytes of one whole step.", 0, 0},
};
static const struct page_kind bench_page = {"benchmark", "fdtdbench bench", &update_metrics, &update_needs,
                                            shown_tables, COUNT(shown_tables)};
static const struct page_kind step_page = {"full time step", "fdtdbench bench (or step)", &step_metrics, &step_needs,
                                           step_tables, COUNT(step_tables)};

static void write_page(FILE *o, const struct page_kind *k, const struct csv *f)
{
    if (!f->nrow) return;
    fprintf(o, "# %s %s: ", cell(f, 0, "device"), k->what);
    md(o, cell(f, 0, "device_name"));
    fputs("\n\n", o);
    md(o, cell(f, 0, "device_detail"));
    if (*cell(f, 0, "driver")) fprintf(o, "; driver %s", cell(f, 0, "driver"));
    if (*cell(f, 0, "simd")) fprintf(o, "; kernels %s", cell(f, 0, "simd"));
    fprintf(o, ". Command: `%s`. Every row was verified against the double-precision reference before timing.\n\n",
            k->command);
    write_legend(o, k->mt);
    for (size_t t = 0; t < k->ntables; t++) write_table(o, "##", &k->tables[t], k->mt, f, 1);
}

/* A peers file's page (scripts/peers.sh, scripts/gpu_peers.sh): its device, the peers table and
 * what the columns a peers file adds mean. */
static void write_peers_page(FILE *o, const struct csv *f)
{
    if (!f->nrow) return;
    fprintf(o, "# %s peers: ", cell(f, 0, "device"));
    md(o, cell(f, 0, "device_name"));
    fputs("\n\n", o);
    md(o, cell(f, 0, "device_detail"));
    if (*cell(f, 0, "driver")) fprintf(o, "; driver %s", cell(f, 0, "driver"));
    fputs(". Command: `scripts/peers.sh` (CPU) or `scripts/gpu_peers.sh` (GPU). The suite's rows were verified "
          "against the double-precision reference before timing.\n\n"
          "- set-up s (`setup_s`): the peer's wall time outside its timed steps (building the model, compiling "
          "kernels, JIT, writing output); fdtdx: jax.jit's lower and compile.\n"
          "- check (`check`): a field value the peer printed or wrote after its run.\n"
          "- material model (`model`): how the peer keeps its materials; coefficients names the suite's storage it "
          "is compared with.\n\n",
          o);
    write_peers(o, "##", f, 1);
}

/* A scaling file's page (make bench with several GPUs): its device and the scaling tables. */
static void write_scaling_page(FILE *o, const struct csv *f)
{
    if (!f->nrow) return;
    fputs("# gpu scaling: ", o);
    md(o, cell(f, 0, "device_name"));
    fputs("\n\n", o);
    md(o, cell(f, 0, "device_detail"));
    if (*cell(f, 0, "driver")) fprintf(o, "; driver %s", cell(f, 0, "driver"));
    fputs(". Command: `fdtdbench bench` (where there are several GPUs), or `fdtdbench step --gpus N`.\n\n", o);
    const struct csv *const both[2] = {f, f};
    write_scaling(o, "##", both, 1);
}

/* The page of one CSV beside it; k NULL: the bench's, the step's, the peers' or the scaling
 * table's, as it says. */
static int report_page(const char *csv_path, const struct page_kind *k)
{
    struct csv f;
    char *dir = xstrdup(csv_path), *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : csv_path;
    if (slash) *slash = '\0';
    const char *folder = slash ? dir : ".";
    load_csv(&f, folder, name, k ? k->needs : NULL);
    int peers = !k && f.steps && is_peers_file(&f), scaling = !k && f.steps && is_scaling_file(&f);
    if (!k) k = f.steps ? &step_page : &bench_page;
    /* The Markdown beside the CSV, of the same name (.md for .csv), complete or absent (outfile.h). */
    char stem[OUTFILE_PATH_MAX], path[OUTFILE_PATH_MAX];
    size_t n = strlen(name);
    snprintf(stem, sizeof stem, "%.*s", (int)(n > 4 ? n - 4 : n), name);
    struct outfile o;
    int rc = -1;
    if (!outfile_path(path, sizeof path, "--results", "%s/%s.md", folder, stem) && !outfile_open(&o, folder, path)) {
        if (peers) write_peers_page(o.f, &f);
        else if (scaling) write_scaling_page(o.f, &f);
        else write_page(o.f, k, &f);
        rc = outfile_link(&o, stem, ".md", 0);
    }
    if (!rc) {
        if (peers) write_peers_page(stdout, &f);
        else if (scaling) write_scaling_page(stdout, &f);
        else write_page(stdout, k, &f);
        fflush(stdout); /* the page whole before the line on stderr, where both go to one log */
        fprintf(stderr, "wrote %s and %s\n", csv_path, o.path);
    }
    free_csv(&f);
    free(dir);
    return rc;
}

int report_bench(const char *csv_path) { return report_page(csv_path, &bench_page); }
int report_steps(const char *csv_path) { return report_page(csv_path, &step_page); }
int report_scaling(const char *csv_path) { return report_page(csv_path, NULL); }

/* Whether a file already used (newer) holds a row of table for the kernel of row q of f: the
 * same scheme, component, precision, coefficients and variant. */
static int kernel_in(const struct machine *m, const int *used, const char *table, const struct csv *f, int q)
{
    static const char *const key[] = {"scheme", "component", "precision", "coef", "variant"};
    for (int i = 0; i < m->nfiles; i++) {
        const struct csv *g = &m->files[i];
        if (!used[i] || g == f) continue;
        for (int r = 0; r < g->nrow; r++) {
            if (strcmp(cell(g, r, "table"), table)) continue;
            int same = 1;
            for (int k = 0; k < 5 && same; k++) same = !strcmp(cell(g, r, key[k]), cell(f, q, key[k]));
            if (same) return 1;
        }
    }
    return 0;
}

/* What a plot reads of a table the page derives figures for: FILE in mdir, the rows of f[0 .. n)
 * whole (of f[i] only those of table only[i], where that is not NULL) with their source file and
 * the columns `extra` names (",a,b"), which tail writes for row r (each value after a comma; an
 * empty one where the page has none). f[0]'s columns. Written whole or not at all. */
static void write_extract(const char *mdir, const char *file, const struct csv *const f[], const char *const only[],
                          int n, const char *extra, void (*tail)(FILE *o, const struct csv *f, int r))
{
    char *path = join(mdir, file);
    struct outfile out;
    if (outfile_open(&out, mdir, path)) exit(1);
    const struct csv *head = f[0];
    for (int c = 0; c < head->ncol; c++) fprintf(out.f, "%s%s", c ? "," : "", head->head[c]);
    fprintf(out.f, ",source%s\n", extra);
    for (int i = 0; i < n; i++)
        for (int q = 0; q < f[i]->nrow; q++) {
            if (only[i] && strcmp(cell(f[i], q, "table"), only[i])) continue;
            for (int c = 0; c < head->ncol; c++) fprintf(out.f, "%s%s", c ? "," : "", cell(f[i], q, head->head[c]));
            fprintf(out.f, ",%s", f[i]->name);
            tail(out.f, f[i], q);
            fputc('\n', out.f);
        }
    if (outfile_replace(&out, file)) exit(1);
    free(path);
}

/* scaling.csv's extra columns: the page's efficiency and the goal of the row's table. */
static void scaling_tail(FILE *o, const struct csv *f, int r)
{
    const double e = scaling_efficiency(f, r);
    fputc(',', o);
    if (!isnan(e)) fprintf(o, "%.6g", e);
    fprintf(o, ",%g", scaling_goal(cell(f, r, "table")));
}

/* peers.csv's: the page's peer ÷ suite ratio (peer_ratio). */
static void peers_tail(FILE *o, const struct csv *f, int r)
{
    const double rs = peer_ratio(f, r);
    fputc(',', o);
    if (!isnan(rs)) fprintf(o, "%.6g", rs);
}

/* For the plots: DIR/<machine>/<table>.csv, the rows of the newest file holding each table
 * (newest), then older files' rows of kernels it lacks, with three columns added: source (the
 * row's file), ratio_to_ref and paper_ratio_to_ref
 * (ref_row). The plots take these instead of choosing files and pairing rows themselves. */
static void write_extracts(const char *dir, const struct machine *ms, int nm)
{
    if (mkdir(dir, 0777) && errno != EEXIST) cli_error("--extract: cannot create '%s': %s", dir, strerror(errno));
    for (int i = 0; i < nm; i++) {
        char *mdir = join(dir, ms[i].name);
        if (mkdir(mdir, 0777) && errno != EEXIST) cli_error("--extract: cannot create '%s': %s", mdir, strerror(errno));
        enum { MAX_TABLES = 256 };
        const char *done[MAX_TABLES];
        int ndone = 0;
        for (int k = 0; k < ms[i].nfiles; k++)
            for (int r = 0; r < ms[i].files[k].nrow; r++) {
                const char *table = cell(&ms[i].files[k], r, "table");
                int seen = 0;
                for (int d = 0; d < ndone && !seen; d++) seen = !strcmp(done[d], table);
                if (seen) continue;
                if (ndone == MAX_TABLES) cli_error("--extract: more than %d tables in %s", MAX_TABLES, ms[i].name);
                done[ndone++] = table;
                int holders;
                const struct csv *f = newest(&ms[i], table, &holders);
                char name[80];
                snprintf(name, sizeof name, "%.70s.csv", table);
                for (char *c = name; *c; c++)
                    if (*c == '/' || *c == '\\') *c = '_';
                char *path = join(mdir, name);
                struct outfile out;
                if (outfile_open(&out, mdir, path)) exit(1);
                FILE *o = out.f;
                const struct csv *head = f;
                for (int c = 0; c < head->ncol; c++) fprintf(o, "%s%s", c ? "," : "", head->head[c]);
                fputs(",source,ratio_to_ref,paper_ratio_to_ref\n", o);
                /* The newest file's rows, then older files' rows of kernels it lacks (a tune of
                 * some variants only must not hide the others' block shapes), newest first. */
                int *used = calloc((size_t)ms[i].nfiles, sizeof *used);
                if (!used) cli_error("--extract: out of memory");
                for (; f; f = newest_of(&ms[i], table, used, NULL)) {
                    used[f - ms[i].files] = 1;
                    for (int q = 0; q < f->nrow; q++) {
                        if (strcmp(cell(f, q, "table"), table) || (f != head && kernel_in(&ms[i], used, table, f, q)))
                            continue;
                        for (int c = 0; c < head->ncol; c++) fprintf(o, "%s%s", c ? "," : "", cell(f, q, head->head[c]));
                        int y = ref_row(f, table, q);
                        fprintf(o, ",%s,", f->name);
                        double rm = y < 0 ? NAN : ratio(num(f, y, "mcells_per_s"), num(f, q, "mcells_per_s"));
                        double rp = y < 0 ? NAN : ratio(num(f, y, "paper_mcells"), num(f, q, "paper_mcells"));
                        if (!isnan(rm)) fprintf(o, "%.6g", rm);
                        fputc(',', o);
                        if (!isnan(rp)) fprintf(o, "%.6g", rp);
                        fputc('\n', o);
                    }
                }
                free(used);
                if (outfile_replace(&out, name)) exit(1);
                free(path);
            }
        /* scaling.csv: the newest weak and strong tables' rows, with the efficiency of the page. */
        const struct csv *sc[2], *from[2];
        const char *tables[2];
        int nsc = 0;
        newest_scaling(&ms[i], sc, NULL);
        for (int k = 0; k < 2; k++)
            if (sc[k]) from[nsc] = sc[k], tables[nsc++] = scaling_kinds[k].table;
        if (nsc) write_extract(mdir, "scaling.csv", from, tables, nsc, ",efficiency,goal", scaling_tail);
        /* peers.csv: the newest peers file's rows, with the ratio of the page (peer_ratio). */
        const struct csv *const p[1] = {newest_peers(&ms[i], NULL)};
        const char *const any[1] = {NULL};
        if (p[0]) write_extract(mdir, "peers.csv", p, any, 1, ",ratio_to_suite", peers_tail);
        free(mdir);
    }
}

static const char usage[] =
    "usage: fdtdbench report [OPTIONS]\n"
    "Writes a Markdown page of the measurements in DIR/<machine>/*.csv (and *.csv.gz, older files\n"
    "kept compressed; default DIR: results) to FILE (default DIR/README.md): per machine its\n"
    "context, the paper's Tables 2-5 beside its figures (MCells/s by the paper's equation 5,\n"
    "ratios to the reference scheme, updates/s, effective GB/s, percent of the bandwidth measured\n"
    "in the same run, GFLOP/s) and links to the figures that make plots renders. Where several\n"
    "files hold one table the newest (date column, then file name) is used, and named.\n"
    "--extract DIR2 writes, instead of the page, what the plots draw: DIR2/<machine>/<table>.csv,\n"
    "the rows of the newest file holding each table, then older files' rows of kernels it lacks\n"
    "(a tune of some variants keeps the others' rows), with columns source (the row's file),\n"
    "ratio_to_ref and paper_ratio_to_ref (against the reference scheme's row, as on the page).\n"
    "--columns prints the CSV columns (name, unit, meaning) as a Markdown table instead:\n"
    "the README's glossary.\n";

int cmd_report(int argc, char **argv)
{
    const char *results = "results", *out = NULL, *extract = NULL, *one = NULL;
    int columns = 0;
    const struct cli_option opts[] = {
        CLI_OPT_RESULTS(&results),
        {"out", CLI_PATH, "FILE", "the page (DIR/README.md)", &out, 0, 0, NULL, 0},
        {"extract", CLI_PATH, "DIR2", "write the plots' CSV extracts there instead of the page", &extract, 0, 0, NULL, 0},
        {"columns", CLI_FLAG, NULL, "print the column glossary (Markdown) and nothing else", &columns, 0, 0, NULL, 0},
        {"page", CLI_PATH, "FILE.csv", "write the page of one bench or step CSV beside it (FILE.md) instead", &one, 0, 0,
         NULL, 0},
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    if (one) return report_page(one, NULL) ? 1 : 0; /* its kind told by its header */
    if (columns) {
        metrics_glossary(stdout, &update_metrics);
        printf("\nFull-step rows (`fdtdbench step`, make bench's step table, `RESULTS/<machine>/steps/*.csv`):\n\n");
        metrics_glossary(stdout, &step_metrics);
        return 0;
    }
    /* Static, so that what they hold stays reachable when a write error exits (LeakSanitizer). */
    static char *outpath, **names, *folder;
    static struct machine *ms;
    outpath = out ? xstrdup(out) : join(results, "README.md");

    /* Read and check everything first: bad input leaves no page half-written. */
    int nm;
    names = list_dir(results, is_machine, &nm);
    ms = xmalloc(sizeof *ms * nm);
    int nfiles = 0;
    for (int i = 0; i < nm; i++) {
        char *dir = join(results, names[i]);
        char **csvs = list_dir(dir, is_csv, &ms[i].nfiles);
        ms[i].name = names[i];
        ms[i].files = xmalloc(sizeof *ms[i].files * ms[i].nfiles);
        for (int k = 0; k < ms[i].nfiles; k++) {
            load_csv(&ms[i].files[k], dir, csvs[k], &update_needs);
            free(csvs[k]);
        }
        nfiles += ms[i].nfiles;
        free(csvs);
        /* steps/peers-*.csv: the full-step files that hold peers' rows. */
        ms[i].peers = ms[i].scaling = NULL;
        ms[i].npeers = ms[i].nscaling = 0;
        if (is_kind(dir, "steps", 1)) {
            char *steps = join(dir, "steps");
            char **pcsvs = list_dir(steps, is_peers_csv, &ms[i].npeers);
            ms[i].peers = xmalloc(sizeof *ms[i].peers * ms[i].npeers);
            for (int k = 0; k < ms[i].npeers; k++) {
                load_csv(&ms[i].peers[k], steps, pcsvs[k], &step_needs);
                free(pcsvs[k]);
            }
            free(pcsvs);
            /* steps/scaling-*.csv: the step across several GPUs */
            char **scsvs = list_dir(steps, is_scaling_csv, &ms[i].nscaling);
            ms[i].scaling = xmalloc(sizeof *ms[i].scaling * ms[i].nscaling);
            for (int k = 0; k < ms[i].nscaling; k++) {
                load_csv(&ms[i].scaling[k], steps, scsvs[k], &scaling_needs);
                free(scsvs[k]);
            }
            free(scsvs);
            nfiles += ms[i].npeers + ms[i].nscaling;
            free(steps);
        }
        free(dir);
    }

    if (extract) {
        write_extracts(extract, ms, nm);
        printf("wrote extracts of %d machines to %s\n", nm, extract);
        goto done;
    }
    /* Complete or absent (outfile.h): a temporary file in the page's folder, renamed over it. */
    struct outfile page;
    char *slash = strrchr(outpath, '/');
    folder = slash ? xstrdup(outpath) : xstrdup(".");
    if (slash) folder[slash - outpath] = '\0';
    if (outfile_open(&page, folder, outpath)) return 2;
    FILE *o = page.f;
    fputs("# Results\n\n"
          "Written by `fdtdbench report` (and `make bench`) from the CSV files in the folders below;\n"
          "the CSVs are the record, this page is regenerated from them.\n\n",
          o);
    write_legend(o, &update_metrics);
    if (!nfiles) fputs("No results yet: `make bench` measures them.\n\n", o);
    for (int i = 0; i < nm; i++)
        if (ms[i].nfiles || ms[i].npeers || ms[i].nscaling) fprintf(o, "- [%s](#%s)\n", ms[i].name, ms[i].name);
    fputc('\n', o);
    for (int i = 0; i < nm; i++)
        if (ms[i].nfiles || ms[i].npeers || ms[i].nscaling) write_machine(o, results, &ms[i]);
    fputs("## Dispersion (analysis, not measurement)\n\n", o);
    write_figures(o, results, "plots");

    if (outfile_replace(&page, slash ? slash + 1 : outpath)) return 1;
    printf("wrote %s (%d machines, %d files)\n", outpath, nm, nfiles);
done:

    for (int i = 0; i < nm; i++) {
        for (int k = 0; k < ms[i].nfiles; k++) free_csv(&ms[i].files[k]);
        free(ms[i].files);
        for (int k = 0; k < ms[i].npeers; k++) free_csv(&ms[i].peers[k]);
        free(ms[i].peers);
        for (int k = 0; k < ms[i].nscaling; k++) free_csv(&ms[i].scaling[k]);
        free(ms[i].scaling);
        free(names[i]);
    }
    free(ms);
    free(names);
    free(folder);
    free(outpath);
    return 0;
}
