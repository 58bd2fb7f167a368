/* fdtdbench report: results/README.md from every CSV in results/<machine>/. Columns are found
 * by their header names; when several files of a machine hold one table, the newest (date
 * column, then file name) is shown, and each table says which file it came from. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "outfile.h"

/* One CSV file, read whole: header names and cells point into text. */
struct csv {
    char *path, *text;
    const char *name; /* file name within its machine folder */
    int ncol, nrow;
    char **head, **cell; /* cell[r * ncol + c] */
    int *line;           /* line number of each row, for errors */
};

struct machine {
    char *name;
    struct csv *files;
    int nfiles;
};

/* Columns the page uses (the rest of harness/results.h's are not needed); the numeric ones
 * are checked when read, so that bad input stops before anything is written. */
static const char *const required[] = {
    "table", "scheme", "component", "device", "variant", "precision", "coef", "block", "threads", "nx", "ny", "nz",
    "device_name", "git_commit", "date",
};
static const char *const numeric[] = {
    "updates_per_s", "mcells_per_s", "gbs_effective", "bw_copy_gbs", "bw_second_gbs", "pct_bw",
    "gflops", "cache_resident", "verified", "paper_mcells",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The tables shown in full, in this order; any other table gets a one-line summary. */
static const struct {
    const char *table, *title, *about;
} shown_tables[] = {
    {"table5-1thread", "Table 5: CPU, one thread",
     "The paper: one core of a Xeon W5580."},
    {"table5-allthreads", "Table 5 with all threads",
     "The paper's figures beside these are for one core."},
    {"table2", "Table 2: GPU, Yee per block shape", "The paper: Tesla C2050."},
    {"table3", "Table 3: GPU, best block per scheme", "The paper: Tesla C2050."},
    {"table4", "Table 4: GPU, each scheme at its best block", "The paper: Tesla C2050."},
    {"uniform", "Uniform (scalar) coefficients (not in the paper)",
     "What a homogeneous region needs: fewer bytes per update."},
    {"optimised", "Optimised variants (not in the paper)",
     "Kernels beyond the paper's: other variants or coefficient storage."},
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

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) cli_error("cannot read '%s': %s", path, strerror(errno));
    size_t n = 0, cap = 1 << 16;
    char *t = xmalloc(cap);
    for (size_t got; (got = fread(t + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap && !(t = realloc(t, cap *= 2))) cli_fail("report: out of memory");
    }
    if (ferror(f)) cli_error("cannot read '%s': %s", path, strerror(errno));
    fclose(f);
    t[n] = '\0';
    if (strlen(t) != n) cli_error("%s: not a text file (holds a NUL byte)", path);
    return t;
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

static void load_csv(struct csv *f, const char *dir, const char *name)
{
    f->path = join(dir, name);
    f->name = strrchr(f->path, '/') + 1;
    f->text = slurp(f->path);
    int lines = 1;
    for (const char *p = f->text; *p; p++) lines += *p == '\n';
    char **line = xmalloc(sizeof *line * lines);
    int n = split(f->text, '\n', line, lines);
    int first = 0;
    while (first < n && !*line[first]) first++;
    if (first == n) cli_error("%s: empty file (expected the header line of harness/results.h)", f->path);
    for (int i = 0; i < n; i++) line[i][strcspn(line[i], "\r")] = '\0';

    f->ncol = split(line[first], ',', NULL, 0);
    f->head = xmalloc(sizeof *f->head * f->ncol);
    split(line[first], ',', f->head, f->ncol);
    for (size_t k = 0; k < COUNT(required) + COUNT(numeric); k++) {
        const char *want = k < COUNT(required) ? required[k] : numeric[k - COUNT(required)];
        if (col(f, want) < 0)
            cli_error("%s: no column '%s' in the header (expected the columns of harness/results.h)",
                      f->path, want);
    }
    f->cell = xmalloc(sizeof *f->cell * f->ncol * (n - first));
    f->line = xmalloc(sizeof *f->line * (n - first));
    f->nrow = 0;
    for (int i = first + 1; i < n; i++) {
        if (!*line[i]) continue;
        int got = split(line[i], ',', f->cell + f->nrow * f->ncol, f->ncol);
        if (got != f->ncol)
            cli_error("%s:%d: %d fields where the header has %d", f->path, i + 1, got, f->ncol);
        f->line[f->nrow++] = i + 1;
    }
    free(line);
    for (int r = 0; r < f->nrow; r++)
        for (size_t k = 0; k < COUNT(numeric); k++) num(f, r, numeric[k]);
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

static int is_csv(const char *dir, const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcmp(name + n - 4, ".csv") && is_kind(dir, name, 0);
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

/* The newest file holding the table (or any rows), and how many hold it. */
static const struct csv *newest(const struct machine *m, const char *table, int *holders)
{
    const struct csv *best = NULL;
    *holders = 0;
    for (int i = 0; i < m->nfiles; i++) {
        const struct csv *f = &m->files[i];
        if (table ? !has_table(f, table) : f->nrow == 0) continue;
        ++*holders;
        int d = best ? strcmp(latest(f, table), latest(best, table)) : 1;
        if (d > 0 || (d == 0 && strcmp(f->name, best->name) > 0)) best = f;
    }
    return best;
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

/* The Yee row a row's ratio is taken against: same variant, precision and coefficients if
 * there is one, else the table's first Yee row; -1 if none. */
static int yee_row(const struct csv *f, const char *table, int r)
{
    int any = -1;
    for (int y = 0; y < f->nrow; y++) {
        if (strcmp(cell(f, y, "table"), table) || strcmp(cell(f, y, "scheme"), "yee")) continue;
        if (!strcmp(cell(f, y, "variant"), cell(f, r, "variant")) &&
            !strcmp(cell(f, y, "precision"), cell(f, r, "precision")) &&
            !strcmp(cell(f, y, "coef"), cell(f, r, "coef")))
            return y;
        if (any < 0) any = y;
    }
    return any;
}

static double ratio(double a, double b)
{
    return a > 0 && b > 0 ? a / b : NAN;
}

static void write_table(FILE *o, const struct machine *m, int t)
{
    const char *table = shown_tables[t].table;
    int holders;
    const struct csv *f = newest(m, table, &holders);
    if (!f) return;
    int first = -1, schemes_differ = 0, extra = 0, cached = 0, gpu = 0, papered = 0;
    for (int r = 0; r < f->nrow; r++) {
        if (strcmp(cell(f, r, "table"), table)) continue;
        if (first < 0) first = r;
        schemes_differ |= strcmp(cell(f, r, "scheme"), cell(f, first, "scheme")) != 0;
        extra |= !is_default(f, r);
        cached |= num(f, r, "cache_resident") == 1;
        papered |= !isnan(num(f, r, "paper_mcells"));
        gpu |= !strcmp(cell(f, r, "device"), "gpu");
    }
    fprintf(o, "### %s\n\n%s From `%s` (%s, commit %s", shown_tables[t].title, shown_tables[t].about, f->name,
            latest(f, table), cell(f, first, "git_commit"));
    if (holders > 1) fprintf(o, "; the newest of %d files holding this table", holders);
    fprintf(o, "). Component %s, grid %s×%s×%s. Bandwidth measured in that run: %.1f GB/s (%s), %.1f GB/s (%s).\n\n",
            cell(f, first, "component"), cell(f, first, "nx"), cell(f, first, "ny"), cell(f, first, "nz"), num(f, first, "bw_copy_gbs"),
            gpu ? "copy kernel" : "STREAM copy", num(f, first, "bw_second_gbs"),
            gpu ? "device-to-device copy" : "STREAM triad");

    fputs("| scheme |", o);
    if (extra) fputs(" variant | precision | coefficients |", o);
    fputs(gpu ? " block |" : " threads |", o);
    fputs(" MCells/s (eq. 5) |", o);
    if (schemes_differ) fputs(" Yee/scheme |", o);
    if (papered) fputs(schemes_differ ? " paper MCells/s | paper Yee/scheme | measured/paper |"
                                      : " paper MCells/s | measured/paper |", o);
    fputs(" Gupdates/s | GB/s effective | % of measured BW | GFLOP/s | verified |", o);
    if (cached) fputs(" cache-resident |", o);
    fputs("\n|", o);
    int text = 2 + 3 * extra, ncols = text + 6 + schemes_differ + papered * (2 + schemes_differ) + cached;
    for (int c = 0; c < ncols; c++) fputs(c < text ? "---|" : "---:|", o); /* text left, numbers right */
    fputc('\n', o);

    for (int r = first; r < f->nrow; r++) {
        if (strcmp(cell(f, r, "table"), table)) continue;
        double mc = num(f, r, "mcells_per_s"), paper = num(f, r, "paper_mcells");
        int y = yee_row(f, table, r);
        fputs("| ", o);
        md(o, cell(f, r, "scheme"));
        fputs(" |", o);
        static const char *const setting[] = {"variant", "precision", "coef"};
        for (int k = 0; k < 3 * extra; k++) {
            fputc(' ', o);
            md(o, cell(f, r, setting[k]));
            fputs(" |", o);
        }
        fputc(' ', o);
        md(o, cell(f, r, gpu ? "block" : "threads"));
        fputs(" |", o);
        put_num(o, "%.1f", mc);
        if (schemes_differ) put_num(o, "%.1f", y < 0 ? NAN : ratio(num(f, y, "mcells_per_s"), mc));
        if (papered) {
            put_num(o, "%.0f", paper);
            if (schemes_differ) put_num(o, "%.1f", y < 0 ? NAN : ratio(num(f, y, "paper_mcells"), paper));
            put_num(o, "%.2f", ratio(mc, paper));
        }
        put_num(o, "%.3f", num(f, r, "updates_per_s") / 1e9);
        put_num(o, "%.1f", num(f, r, "gbs_effective"));
        put_num(o, "%.1f", num(f, r, "pct_bw"));
        put_num(o, "%.1f", num(f, r, "gflops"));
        fputs(num(f, r, "verified") == 1 ? " yes |" : " **NO** |", o);
        if (cached) fputs(num(f, r, "cache_resident") == 1 ? " yes |" : " no |", o);
        fputc('\n', o);
    }
    fputc('\n', o);
}

/* Figures in a sensible reading order: the paper's comparison first. */
static int figure_rank(const char *name)
{
    static const char *const order[] = {"throughput", "roofline", "sizes", "blocks-yee", "blocks", "dispersion-vs-ppw"};
    for (int i = 0; i < 6; i++)
        if (!strncmp(name, order[i], strlen(order[i]))) return i;
    return 6;
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

static void write_machine(FILE *o, const char *results, const struct machine *m)
{
    int holders;
    const struct csv *f = newest(m, NULL, &holders);
    fprintf(o, "## %s\n\n", m->name);
    if (!f) {
        fputs("No rows yet.\n\n", o);
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

    for (size_t t = 0; t < COUNT(shown_tables); t++) write_table(o, m, (int)t);

    /* Tables shown only as figures (sizes, blocks, ...): where their rows are. */
    int listed = 0;
    for (int i = 0; i < m->nfiles; i++)
        for (int r = 0; r < m->files[i].nrow; r++) {
            const char *table = cell(&m->files[i], r, "table");
            int skip = 0;
            for (size_t t = 0; t < COUNT(shown_tables); t++) skip |= !strcmp(table, shown_tables[t].table);
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
    char *sub = join(m->name, "plots");
    write_figures(o, results, sub);
    free(sub);
}

static const char usage[] =
    "usage: fdtdbench report [OPTIONS]\n"
    "Writes a Markdown page of the measurements in DIR/<machine>/*.csv (default DIR: results)\n"
    "to FILE (default DIR/README.md): per machine its context, the paper's Tables 2-5 beside\n"
    "its figures (MCells/s by the paper's equation 5, Yee/scheme ratios, updates/s, effective\n"
    "GB/s, percent of the bandwidth measured in the same run, GFLOP/s) and links to the\n"
    "figures that make plots renders. Where several files hold one table the newest (date\n"
    "column, then file name) is used, and named.\n";

int cmd_report(int argc, char **argv)
{
    const char *results = "results", *out = NULL;
    const struct cli_option opts[] = {
        CLI_OPT_RESULTS(&results),
        {"out", CLI_PATH, "FILE", "the page (DIR/README.md)", &out, 0, 0, NULL, 0},
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    /* Static, so that what they hold stays reachable when a write error exits (LeakSanitizer). */
    static char *outpath, **names;
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
            load_csv(&ms[i].files[k], dir, csvs[k]);
            free(csvs[k]);
        }
        nfiles += ms[i].nfiles;
        free(csvs);
        free(dir);
    }

    /* Complete or absent (outfile.h): a temporary file in the page's folder, renamed over it. */
    struct outfile page;
    char *slash = strrchr(outpath, '/');
    static char *folder; /* static for the same reason */
    folder = slash ? xstrdup(outpath) : xstrdup(".");
    if (slash) folder[slash - outpath] = '\0';
    if (outfile_open(&page, folder, outpath)) return 2;
    FILE *o = page.f;
    fputs("# Results\n\n"
          "Written by `fdtdbench report` from the CSV files in the folders below; the CSVs are\n"
          "the record, this page is regenerated from them (`make plots`).\n\n"
          "- MCells/s is the paper's equation (5): updates/s ÷ 6 ÷ 10⁶ (one of six components updated).\n"
          "- Paper figures come from each row's `paper_mcells` column: M. F. Hadi, Int. J. Antennas\n"
          "  Propag. 2012, article 280359 (GPU: Tesla C2050; CPU: one core of a Xeon W5580).\n"
          "- Yee/scheme: the Yee kernel's MCells/s divided by the scheme's, as in the paper's Tables 4 and 5.\n"
          "- GB/s effective = updates/s × compulsory bytes per update; % of measured BW is against the\n"
          "  better of the two bandwidths the suite's own probe measured on the device in the same run.\n"
          "- GFLOP/s = updates/s × flops per update. `verified`: matched the double-precision reference\n"
          "  before timing.\n\n",
          o);
    if (!nfiles) fputs("No results yet: `make bench` measures them.\n\n", o);
    for (int i = 0; i < nm; i++)
        if (ms[i].nfiles) fprintf(o, "- [%s](#%s)\n", ms[i].name, ms[i].name);
    fputc('\n', o);
    for (int i = 0; i < nm; i++)
        if (ms[i].nfiles) write_machine(o, results, &ms[i]);
    fputs("## Dispersion (analysis, not measurement)\n\n", o);
    write_figures(o, results, "plots");

    if (outfile_replace(&page, slash ? slash + 1 : outpath)) return 1;
    printf("wrote %s (%d machines, %d files)\n", outpath, nm, nfiles);

    for (int i = 0; i < nm; i++) {
        for (int k = 0; k < ms[i].nfiles; k++) free_csv(&ms[i].files[k]);
        free(ms[i].files);
        free(names[i]);
    }
    free(ms);
    free(names);
    free(folder);
    free(outpath);
    return 0;
}
