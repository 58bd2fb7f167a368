#include "tuned.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "spec.h"

void tuned_path(const char *gpu_slug, char *out, size_t n) { snprintf(out, n, TUNED_DIR "/%s.conf", gpu_slug); }

static int name_index(const char *name, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

/* Blank-separated fields: 13 in a kernel line (17 values: block and grid hold three each), 12 in
 * one from before regs, 11 from before stages, 10 from before rows. */
static int field_count(const char *line)
{
    int n = 0;
    for (int blank = 1; *line; line++) {
        n += blank && !isspace((unsigned char)*line);
        blank = isspace((unsigned char)*line) != 0;
    }
    return n;
}

int tuned_parse(const char *line, struct tuned_entry *e)
{
    char comp[8], prec[8], coef[16], tail;
    memset(e, 0, sizeof *e);
    const int fields = field_count(line);
    int got = -1, values = 14; /* what an old line lacks stays 0 */
    if (fields == 13)
        values = 17, got = sscanf(line, " %15s %7s %7s %15s %31s %dx%dx%d %d %d %d %d %lf %lf %dx%dx%d %c", e->scheme,
                                  comp, prec, coef, e->variant, &e->block[0], &e->block[1], &e->block[2], &e->nodes,
                                  &e->rows, &e->stages, &e->regs, &e->mcells_per_s, &e->gbs, &e->grid[0], &e->grid[1],
                                  &e->grid[2], &tail);
    else if (fields == 12)
        values = 16, got = sscanf(line, " %15s %7s %7s %15s %31s %dx%dx%d %d %d %d %lf %lf %dx%dx%d %c", e->scheme, comp,
                                  prec, coef, e->variant, &e->block[0], &e->block[1], &e->block[2], &e->nodes, &e->rows,
                                  &e->stages, &e->mcells_per_s, &e->gbs, &e->grid[0], &e->grid[1], &e->grid[2], &tail);
    else if (fields == 11)
        values = 15, got = sscanf(line, " %15s %7s %7s %15s %31s %dx%dx%d %d %d %lf %lf %dx%dx%d %c", e->scheme, comp,
                                  prec, coef, e->variant, &e->block[0], &e->block[1], &e->block[2], &e->nodes, &e->rows,
                                  &e->mcells_per_s, &e->gbs, &e->grid[0], &e->grid[1], &e->grid[2], &tail);
    else if (fields == 10)
        got = sscanf(line, " %15s %7s %7s %15s %31s %dx%dx%d %d %lf %lf %dx%dx%d %c", e->scheme, comp, prec, coef,
                     e->variant, &e->block[0], &e->block[1], &e->block[2], &e->nodes, &e->mcells_per_s, &e->gbs,
                     &e->grid[0], &e->grid[1], &e->grid[2], &tail);
    if (got != values || e->scheme[0] == '#' || e->nodes < 1 || e->rows < 0 || e->stages < 0 ||
        e->regs < 0)
        return -1;
    e->component = component_from_name(comp);
    e->precision = name_index(prec, precision_names, 2);
    e->coef = name_index(coef, coef_names, NCOEF_STORAGES);
    return e->component < 0 || e->precision < 0 || e->coef < 0 ? -1 : 0;
}

void tuned_print_header(FILE *f)
{
    fprintf(f, "#%-6s %-4s %-4s %-7s %-9s %-9s %5s %4s %6s %4s %10s %8s  %s\n", "scheme", "comp", "prec", "coef",
            "variant", "block", "nodes", "rows", "stages", "regs", "mcells/s", "GB/s", "grid");
}

void tuned_print(FILE *f, const struct tuned_entry *e)
{
    char block[32], grid[48];
    snprintf(block, sizeof block, "%dx%dx%d", e->block[0], e->block[1], e->block[2]);
    snprintf(grid, sizeof grid, "%dx%dx%d", e->grid[0], e->grid[1], e->grid[2]);
    /* rows and stages as they are: 0 (an old line's) means the kernel's default, not one row */
    fprintf(f, "%-7s %-4s %-4s %-7s %-9s %-9s %5d %4d %6d %4d %10.1f %8.1f  %s\n", e->scheme,
            component_names[e->component], precision_names[e->precision], coef_names[e->coef], e->variant, block,
            e->nodes > 1 ? e->nodes : 1, e->rows, e->stages, e->regs, e->mcells_per_s, e->gbs, grid);
}

int tuned_same_kernel(const struct tuned_entry *a, const struct tuned_entry *b)
{
    return a->component == b->component && a->precision == b->precision && a->coef == b->coef &&
           strcmp(a->scheme, b->scheme) == 0 && strcmp(a->variant, b->variant) == 0;
}

int tuned_same_line(const struct tuned_entry *a, const struct tuned_entry *b)
{
    return tuned_same_kernel(a, b) && !memcmp(a->grid, b->grid, sizeof a->grid);
}

/* How far a line's grid is from a run's: |log| of the ratio of their cell counts. */
static double grid_distance(const int a[3], const int b[3])
{
    return fabs(log((double)a[0] * a[1] * a[2] / ((double)b[0] * b[1] * b[2])));
}

int tuned_block(const char *gpu_slug, const char *scheme, int component, int precision, int coef,
                const char *variant, const int grid[3], int block[3], int *nodes, int *rows, int *stages, int *regs)
{
    char path[512], line[512];
    tuned_path(gpu_slug, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    struct tuned_entry want = {.component = component, .precision = precision, .coef = coef}, e;
    snprintf(want.scheme, sizeof want.scheme, "%s", scheme);
    snprintf(want.variant, sizeof want.variant, "%s", variant);
    double best = INFINITY;
    while (fgets(line, sizeof line, f)) {
        if (tuned_parse(line, &e)) continue;
        const int own = tuned_same_kernel(&e, &want);
        e.component = component;
        if (!tuned_same_kernel(&e, &want)) continue;
        /* another component's line counts as a little farther than its own at the same grid */
        const double d = grid_distance(e.grid, grid) + (own ? 0 : 1e-6);
        if (d < best) {
            best = d;
            memcpy(block, e.block, sizeof e.block);
            *nodes = e.nodes, *rows = e.rows, *stages = e.stages;
            if (regs) *regs = e.regs;
        }
    }
    fclose(f);
    return best < INFINITY ? 0 : -1;
}

int tuned_fastest_variant(const char *gpu_slug, const char *scheme, int component, int precision, int coef,
                          const int grid[3], char *variant, size_t n)
{
    char path[512], line[512];
    tuned_path(gpu_slug, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    struct tuned_entry e;
    double best = 0, nearest = INFINITY;
    while (fgets(line, sizeof line, f)) {
        if (tuned_parse(line, &e) || e.component != component || e.precision != precision || e.coef != coef ||
            strcmp(e.scheme, scheme) || !strncmp(e.variant, TUNED_STEP_PREFIX, strlen(TUNED_STEP_PREFIX)))
            continue;
        const double d = grid_distance(e.grid, grid);
        if (d < nearest - 1e-9) nearest = d, best = 0; /* a nearer grid: its lines alone compete */
        if (d <= nearest + 1e-9 && e.mcells_per_s > best) best = e.mcells_per_s, snprintf(variant, n, "%s", e.variant);
    }
    fclose(f);
    return best > 0 ? 0 : -1;
}
