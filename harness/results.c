#define _GNU_SOURCE
#include "results.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"

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
    if (results_open_with(rf, dir, machine, stem, NULL)) return -1;
    metrics_csv_header(rf->f, &update_metrics);
    return 0;
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

void results_row(FILE *f, const char *table, const struct run_config *c, const struct run_result *r,
                 const struct device_desc *d, double paper_mcells)
{
    struct record m = {table, c, r, d, paper_mcells < 0 ? NAN : paper_mcells};
    metrics_csv_row(f, &update_metrics, &m);
}


const char *kernel_origin(enum device d, double ms)
{
    static char s[32];
    if (ms != ms) return ""; /* NAN */
    if (ms < 0) return "cache";
    snprintf(s, sizeof s, "%s %.0f ms", d == DEV_CPU ? "cc" : "nvrtc", ms);
    return s;
}
