#define _GNU_SOURCE
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"

const char *m_dims(const int v[3])
{
    static char b[48];
    snprintf(b, sizeof b, "%dx%dx%d", v[0], v[1], v[2]);
    return b;
}

double m_cells(const int grid[3]) { return (double)grid[0] * grid[1] * grid[2]; }

const char *m_host(void)
{
    static char host[128];
    if (gethostname(host, sizeof host - 1)) host[0] = '\0';
    return host;
}

const char *m_date(void)
{
    static char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    return date;
}

const char *m_omp_bind(void)
{
    static char bind[96];
    snprintf(bind, sizeof bind, "%s/%s", getenv("OMP_PROC_BIND") ? getenv("OMP_PROC_BIND") : "unset",
             getenv("OMP_PLACES") ? getenv("OMP_PLACES") : "unset");
    return bind;
}

const char *m_commit(void) { return BUILD_COMMIT; }
const char *m_compiler(void) { return BUILD_COMPILER; }
const char *m_cflags(void) { return BUILD_CFLAGS; }

/* One function per column, from its expression in the table (context columns ignore m). */
#define METRIC_FN(name, unit, csv, head, scale, mdfmt, meaning, value) \
    static struct cell value_##name(const void *p) { const struct record *m = p; (void)m; return value; }
METRIC_COLUMNS(METRIC_FN)
#undef METRIC_FN
#define STEP_FN(name, unit, csv, head, scale, mdfmt, meaning, value) \
    static struct cell stepcol_##name(const void *p) { const struct step_record *m = p; (void)m; return value; }
STEP_METRIC_COLUMNS(STEP_FN)
#undef STEP_FN

const struct metric metrics[NMETRICS] = {
#define METRIC_ROW(name, unit, csv, head, scale, mdfmt, meaning, value) \
    {#name, unit, csv, head, scale, mdfmt, meaning, value_##name},
    METRIC_COLUMNS(METRIC_ROW)
#undef METRIC_ROW
};
static const struct metric step_columns[NSTEP_METRICS] = {
#define STEP_ROW(name, unit, csv, head, scale, mdfmt, meaning, value) \
    {#name, unit, csv, head, scale, mdfmt, meaning, stepcol_##name},
    STEP_METRIC_COLUMNS(STEP_ROW)
#undef STEP_ROW
};
const struct metric_table update_metrics = {metrics, NMETRICS}, step_metrics = {step_columns, NSTEP_METRICS};

static double number(struct cell c) { return c.text ? NAN : c.num; }
double metric_num(enum metric_id id, const struct record *m) { return number(metrics[id].value(m)); }
double step_num(enum step_metric_id id, const struct step_record *m) { return number(step_columns[id].value(m)); }

int metric_find(const struct metric_table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->col[i].name, name)) return i;
    return -1;
}

/* A text field with any comma or newline turned into a space: one CSV cell, unquoted. */
static void field(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == ',' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void put_cell(FILE *f, const struct metric *k, struct cell c)
{
    if (c.text) field(f, c.text);
    else if (!isnan(c.num)) fprintf(f, k->csv_format, c.num);
}

void metrics_csv_header(FILE *f, const struct metric_table *t)
{
    for (int i = 0; i < t->n; i++) fprintf(f, "%s%s", i ? "," : "", t->col[i].name);
    fputc('\n', f);
}

void metrics_csv_row(FILE *f, const struct metric_table *t, const void *m)
{
    for (int i = 0; i < t->n; i++) {
        if (i) fputc(',', f);
        put_cell(f, &t->col[i], t->col[i].value(m));
    }
    fputc('\n', f);
}

void metrics_text(FILE *f, const struct metric_table *t, const void *m)
{
    for (int i = 0; i < t->n; i++) {
        const struct metric *k = &t->col[i];
        struct cell c = k->value(m);
        if (!k->unit[0] && !k->md_heading) continue; /* settings and context: on the heading line */
        if (!c.text && isnan(c.num)) continue;
        fprintf(f, "  %-18s ", k->name);
        put_cell(f, k, c);
        fprintf(f, "%s%s\n", k->unit[0] ? " " : "", k->unit);
    }
}

void metrics_glossary(FILE *f, const struct metric_table *t)
{
    fputs("| column | unit | meaning |\n|---|---|---|\n", f);
    for (int i = 0; i < t->n; i++) fprintf(f, "| `%s` | %s | %s |\n", t->col[i].name, t->col[i].unit, t->col[i].meaning);
}
