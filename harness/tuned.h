/* Block shapes found by `fdtdbench tune`, one file per GPU: results/tuned/<gpu-slug>.conf, the
 * slug from machine_slug(). The file is text: '#' header lines (date, GPU, driver, grid), then
 * one line per kernel, fields separated by blanks:
 *   scheme component precision coef variant block  nodes rows stages regs mcells_per_s gbs   grid
 *   yee    hx        f32       array baseline 32x2x3 1    1    0      0    1234.5       567.8 512x512x512
 * nodes: consecutive nodes per thread along z (marching variants; 1 for the others).
 * rows: adjacent rows of nodes per thread along y (tiled variants; 1 for the others).
 * stages: pipeline depth, planes copied ahead (tiled variants; 0 for the others).
 * regs: registers per thread at most (the fused step's kernels; 0: the compiler's choice).
 * Lines written before regs existed lack it (12 fields, 16 values where these have 13 and 17),
 * those before stages both (11), those before rows all three (10); what they lack reads as 0, the
 * kernel's default, and is written back so.
 * A full step's launch (tune --step) is saved as variant TUNED_STEP_PREFIX + the step variant
 * ("step:fused"), component hx, and its figure is cells x steps / s, not eq. 5. A temporally
 * blocked step's (the CPU's step:wave, engine/wave.h) nodes are its steps per pass and its block
 * 0x0xK its planes per sweep step.
 * A kernel may have lines for several grids (the best shape differs with the size: tune --grid):
 * each run looks up the line of the grid nearest its own. */
#ifndef HARNESS_TUNED_H
#define HARNESS_TUNED_H

#include <stddef.h>
#include <stdio.h>

#define TUNED_DIR "results/tuned"
#define TUNED_STEP_PREFIX "step:"

struct tuned_entry {
    char scheme[16], variant[32];
    int component, precision, coef; /* enum component, precision, coef_storage */
    int block[3];
    int nodes;
    int rows;                       /* 0: the kernel's default (a line without this column) */
    int stages;                     /* likewise */
    int regs;                       /* likewise */
    double mcells_per_s, gbs;       /* what the winner measured: MCells/s (eq. 5), effective GB/s */
    int grid[3];                    /* the grid it was measured on */
};

/* results/tuned/<gpu_slug>.conf */
void tuned_path(const char *gpu_slug, char *out, size_t n);

/* One kernel line into e: 0, or -1 for a comment, a blank line or anything malformed. */
int tuned_parse(const char *line, struct tuned_entry *e);
/* The column heading, as a comment line. */
void tuned_print_header(FILE *f);
/* One kernel line, newline included, as tuned_parse reads it. */
void tuned_print(FILE *f, const struct tuned_entry *e);
/* 1 if a and b are the same kernel (scheme, component, precision, coef, variant). */
int tuned_same_kernel(const struct tuned_entry *a, const struct tuned_entry *b);
/* 1 if a and b are the same kernel tuned at the same grid: one line of the file. */
int tuned_same_line(const struct tuned_entry *a, const struct tuned_entry *b);

/* The saved launch of one GPU kernel for a run on grid: 0 with block[], *nodes, *rows, *stages and
 * *regs (where regs is not NULL) set (0 for a line without that column: the kernel's default), or
 * -1 if there is no such file or no line for it. The line tuned at the grid nearest grid (by cell
 * count, as a ratio) is taken; at the same distance the component's own line before another
 * component's of the same scheme (they differ only in which axis is which), which stands in where
 * the component was not tuned itself.
 * precision and coef are enum precision and enum coef_storage. */
int tuned_block(const char *gpu_slug, const char *scheme, int component, int precision, int coef,
                const char *variant, const int grid[3], int block[3], int *nodes, int *rows, int *stages, int *regs);

/* The kernel variant with the highest saved figure for this scheme, component, precision and
 * coef (full-step lines excluded) at the tuned grid nearest grid, into variant: 0, or -1 if the
 * file has none. */
int tuned_fastest_variant(const char *gpu_slug, const char *scheme, int component, int precision, int coef,
                          const int grid[3], char *variant, size_t n);

#endif
