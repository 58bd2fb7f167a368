#define _GNU_SOURCE
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"

const char *m_block(const struct record *m)
{
    static char b[48];
    snprintf(b, sizeof b, "%dx%dx%d", m->c->block[0], m->c->block[1], m->c->block[2]);
    return b;
}

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

/* One function per column, from its expression in METRIC_COLUMNS (context columns ignore m). */
#define METRIC_FN(name, unit, csv, head, scale, mdfmt, meaning, value) \
    static struct cell value_##name(const struct record *m) { (void)m; return value; }
METRIC_COLUMNS(METRIC_FN)
#undef METRIC_FN

const struct metric metrics[NMETRICS] = {
#define METRIC_ROW(name, unit, csv, head, scale, mdfmt, meaning, value) \
    {#name, unit, csv, head, scale, mdfmt, meaning, value_##name},
    METRIC_COLUMNS(METRIC_ROW)
#undef METRIC_ROW
};

struct cell metric_cell(enum metric_id id, const struct record *m) { return metrics[id].value(m); }

double metric_num(enum metric_id id, const struct record *m)
{
    struct cell c = metrics[id].value(m);
    return c.text ? NAN : c.num;
}

int metric_find(const char *name)
{
    for (int i = 0; i < NMETRICS; i++)
        if (!strcmp(metrics[i].name, name)) return i;
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

void metrics_csv_header(FILE *f)
{
    for (int i = 0; i < NMETRICS; i++) fprintf(f, "%s%s", i ? "," : "", metrics[i].name);
    fputc('\n', f);
}

void metrics_csv_row(FILE *f, const struct record *m)
{
    for (int i = 0; i < NMETRICS; i++) {
        if (i) fputc(',', f);
        put_cell(f, &metrics[i], metrics[i].value(m));
    }
    fputc('\n', f);
}

void metrics_csv_context(FILE *f, const struct device_desc *d)
{
    const struct record m = {.d = d};
    for (int i = METRIC_device_name; i < NMETRICS; i++) {
        if (i > METRIC_device_name) fputc(',', f);
        put_cell(f, &metrics[i], metrics[i].value(&m));
    }
    fputc('\n', f);
}

void metrics_text(FILE *f, const struct record *m)
{
    for (int i = 0; i < NMETRICS; i++) {
        const struct metric *k = &metrics[i];
        struct cell c = k->value(m);
        if (!k->unit[0] && !k->md_heading) continue; /* settings and context: on the heading line */
        if (!c.text && isnan(c.num)) continue;
        fprintf(f, "  %-18s ", k->name);
        put_cell(f, k, c);
        fprintf(f, "%s%s\n", k->unit[0] ? " " : "", k->unit);
    }
}

void metrics_glossary(FILE *f)
{
    fputs("| column | unit | meaning |\n|---|---|---|\n", f);
    for (int i = 0; i < NMETRICS; i++)
        fprintf(f, "| `%s` | %s | %s |\n", metrics[i].name, metrics[i].unit, metrics[i].meaning);
}
