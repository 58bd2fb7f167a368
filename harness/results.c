#define _GNU_SOURCE
#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "metrics.h"

static int mkdir_p(const char *path)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

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
    char folder[400], stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", gmtime(&now));
    snprintf(folder, sizeof folder, "%s/%s", dir, machine);
    if (mkdir_p(folder)) {
        fprintf(stderr, "fdtdbench: cannot create folder %s: %s\n", folder, strerror(errno));
        return -1;
    }
    /* Never replace an earlier run: add -2, -3, ... if the name is taken. */
    for (int i = 1; i < 100; i++) {
        if (i == 1) snprintf(rf->path, sizeof rf->path, "%s/%s-%s.csv", folder, stem, stamp);
        else snprintf(rf->path, sizeof rf->path, "%s/%s-%s-%d.csv", folder, stem, stamp, i);
        if (access(rf->path, F_OK) != 0) break;
    }
    snprintf(rf->tmp, sizeof rf->tmp, "%s.tmp", rf->path);
    rf->f = fopen(rf->tmp, "w");
    if (!rf->f) {
        fprintf(stderr, "fdtdbench: cannot write %s: %s\n", rf->tmp, strerror(errno));
        return -1;
    }
    metrics_csv_header(rf->f);
    return 0;
}

int results_close(struct results_file *rf)
{
    if (fclose(rf->f) || link(rf->tmp, rf->path)) { /* link fails rather than replace a file */
        fprintf(stderr, "fdtdbench: cannot write %s: %s\n", rf->path, strerror(errno));
        unlink(rf->tmp);
        return -1;
    }
    unlink(rf->tmp);
    return 0;
}

void results_abort(struct results_file *rf)
{
    if (rf->f) fclose(rf->f);
    rf->f = NULL;
    unlink(rf->tmp);
}

void results_row(FILE *f, const char *table, const struct run_config *c, const struct run_result *r,
                 const struct bandwidth *bw, const struct device_desc *d, double paper_mcells)
{
    struct record m = {table, c, r, bw, d, paper_mcells < 0 ? NAN : paper_mcells};
    metrics_csv_row(f, &m);
}
