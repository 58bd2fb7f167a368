#define _GNU_SOURCE
#include "results.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"

void machine_slug(const struct device_desc *d, enum device dev, char *out, size_t n)
{
    size_t at = (size_t)snprintf(out, n, "%s", device_names[dev]);
    int dash = 1;
    for (const char *c = d->name; *c && at + 2 < n && at < 56; c++) {
        if (isalnum((unsigned char)*c)) {
            if (dash) out[at++] = '-';
            out[at++] = (char)tolower((unsigned char)*c);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    out[at] = '\0';
}

int results_open(struct results_file *rf, const char *dir, const char *machine, const char *stem)
{
    return results_open_with(rf, dir, machine, stem, RESULT_COLUMNS);
}

int results_open_with(struct results_file *rf, const char *dir, const char *machine, const char *stem,
                      const char *columns)
{
    char folder[OUTFILE_PATH_MAX], name[OUTFILE_PATH_MAX], stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", gmtime(&now));
    memset(rf, 0, sizeof *rf);
    if (outfile_path(rf->stem, sizeof rf->stem, "--name", "%s-%s", stem, stamp) ||
        outfile_path(folder, sizeof folder, "--results", "%s/%s", dir, machine) ||
        outfile_path(name, sizeof name, "--results", "%s/%s.csv", folder, rf->stem) ||
        outfile_open(&rf->out, folder, name))
        return -1;
    rf->f = rf->out.f;
    rf->path = rf->out.name;
    if (columns) fprintf(rf->f, "%s\n", columns);
    return 0;
}

void results_check(struct results_file *rf)
{
    if (outfile_check(&rf->out)) exit(1);
}

int results_close(struct results_file *rf)
{
    rf->f = NULL;
    if (outfile_link(&rf->out, rf->stem, ".csv", 1)) return -1;
    rf->path = rf->out.path;
    return 0;
}

void results_abort(struct results_file *rf)
{
    rf->f = NULL;
    outfile_abort(&rf->out);
}

/* Writes a text field with any comma or newline turned into a space. */
static void field(FILE *f, const char *s)
{
    for (; s && *s; s++) fputc(*s == ',' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc(',', f);
}

void results_row(FILE *f, const char *table, const struct run_config *c, const struct run_result *r,
                 const struct device_desc *d, double paper_mcells)
{
    field(f, table);
    field(f, c->scheme->name);
    field(f, component_names[c->component]);
    field(f, device_names[c->device]);
    field(f, precision_names[c->precision]);
    field(f, coef_names[c->coef]);
    field(f, c->variant);
    fprintf(f, "%d,%d,%d,%dx%dx%d,%d,%d,%d,%d,", c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
            c->block[2], c->nodes > 1 ? c->nodes : 1, r->threads, c->reps, r->batch);
    fprintf(f, "%.6g,%.6g,%.6g,%.6g,%.6g,%d,%d,%d,%.4g,%.6g,%.6g,%.6g,%.4g,%.3g,%.6g,%d,%d,", r->min_ms, r->median_ms,
            r->max_ms, r->updates_per_s, r->mcells_per_s, r->counts.flops, r->counts.compulsory_bytes,
            r->counts.naive_bytes, (double)r->counts.flops / r->counts.compulsory_bytes, r->gbs_effective,
            r->bw.copy_gbs, r->bw.second_gbs, r->pct_bw, r->pct_bw_spread, r->gflops, r->cache_resident, r->verified);
    if (paper_mcells >= 0) fprintf(f, "%g", paper_mcells);
    fputc(',', f);
    results_context(f, d);
}

void results_context(FILE *f, const struct device_desc *d)
{
    char host[128] = "", date[32], bind[96];
    time_t now = time(NULL);
    gethostname(host, sizeof host - 1);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(bind, sizeof bind, "%s/%s", getenv("OMP_PROC_BIND") ? getenv("OMP_PROC_BIND") : "unset",
             getenv("OMP_PLACES") ? getenv("OMP_PLACES") : "unset");
    field(f, d->name);
    field(f, d->detail);
    field(f, d->driver);
    field(f, host);
    field(f, BUILD_COMPILER);
    field(f, BUILD_CFLAGS);
    field(f, d->simd);
    field(f, bind);
    field(f, BUILD_COMMIT);
    fprintf(f, "%s\n", date);
}
