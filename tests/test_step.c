/* The step engine (engine/step.c): every scheme, variant, precision, storage and boundary
 * against the double-precision reference step; proof that the check catches a wrong halo; PEC
 * walls against their image-theory equivalent (a periodic box twice the size); the byte
 * counts of a whole step. CPU here, GPU where there is one. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "design.h"
#include "step.h"
#include "wave.h"

enum { NCOEF = sizeof coef_names / sizeof coef_names[0] };
static const int small[3] = {11, 9, 7}; /* odd, unequal: no block or tile divides it */

static struct step_config config(const struct backend *b, const struct scheme *s, double *w, const char *variant)
{
    char err[256];
    if (scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err)) {
        printf("  %s: %s\n", s->name, err);
        exit(1);
    }
    struct step_config c = {.b = b, .s = s, .w = w, .variant = variant, .grid = {small[0], small[1], small[2]},
                            .courant = 0.9 * stability_limit(s, w)};
    return c;
}

/* Each scheme x precision x storage x boundary of one device and kernel variant, on grid (NULL:
 * small), at one launch (rows and stages 0: the kernels' default); returns the count verified.
 * With refused given, a combination whose kernels refuse the launch (step_open says why) is
 * counted there instead of failing: a row count or depth some storage's kernels were not compiled
 * for. */
static int verify_all_on(const struct backend *b, const char *variant, const int grid[3], const int block[3], int nodes,
                         int rows, int stages, int regs, int *refused, double *worst_all)
{
    int checked = 0;
    /* Where kernels are compiled at run time, all of them first, on every core. */
#pragma omp parallel for collapse(3) schedule(dynamic) if (b->prepare)
    for (int i = 0; i < scheme_count(); i++)
        for (int p = 0; p < 2; p++)
            for (int coef = 0; coef < NCOEF; coef++) {
                double w[MAX_GROUPS];
                struct step_config c = config(b, scheme_at(i), w, variant);
                c.precision = p, c.coef = coef;
                if (!b->prepare || !step_supported(&c)) continue;
                if (block) memcpy(c.block, block, sizeof c.block);
                c.nodes = nodes, c.rows = rows, c.stages = stages, c.regs = regs;
                step_prepare(&c);
            }
    for (int i = 0; i < scheme_count(); i++)
        for (int p = 0; p < 2; p++)
            for (int coef = 0; coef < NCOEF; coef++)
                for (int bc = 0; bc < NBOUNDARIES; bc++) {
                    double w[MAX_GROUPS], worst;
                    char why[512];
                    struct step_config c = config(b, scheme_at(i), w, variant);
                    c.precision = p, c.coef = coef, c.boundary = bc;
                    if (grid) memcpy(c.grid, grid, sizeof c.grid);
                    if (!step_supported(&c)) continue;
                    if (block) memcpy(c.block, block, sizeof c.block);
                    c.nodes = nodes, c.rows = rows, c.stages = stages, c.regs = regs;
                    struct stepper *m = refused ? step_open(&c, why, sizeof why) : NULL;
                    if (refused && !m) {
                        ++*refused;
                        continue;
                    }
                    if (m) step_close(m);
                    CHECK(step_verify(&c, 3, &worst, why, sizeof why) == 0, "%s", why);
                    *worst_all = fmax(*worst_all, worst);
                    checked++;
                }
    return checked;
}

static int verify_all(const struct backend *b, const char *variant, const int block[3], int nodes, double *worst_all)
{
    return verify_all_on(b, variant, NULL, block, nodes, 0, 0, 0, NULL, worst_all);
}

/* Both CPU variants: each component's own kernel (plain, default tiles: whole rows of a plane),
 * and one fused kernel per half-step, one node along z a pass and two (with tiles of 4 rows by 3
 * planes, 6 at two nodes, which do not divide the grid: a tile's last plane alone; the plain
 * kernels' tiles are tested in test_cpu_kernels). */
static void test_cpu_steps_match_reference(void)
{
    static const char *const variants[] = {"plain", STEP_FUSED, STEP_FUSED};
    static const int tiles[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 4, 3}}, nodes[3] = {1, 1, 2};
    for (int v = 0; v < 3; v++) {
        double worst = 0;
        int n = verify_all(cpu_backend(), variants[v], tiles[v], nodes[v], &worst);
        CHECK(n == scheme_count() * 2 * NCOEF * NBOUNDARIES, "%s: only %d combinations verified", variants[v], n);
        printf("  %s, %d node(s) a pass: %d combinations, 3 steps each: largest error %.3f of its carried bound\n",
               variants[v], nodes[v], n, worst);
    }
}

/* One combination of the wave step against the reference (T steps from random fields), on
 * `threads` threads; the largest error over its bound into *worst. */
static void verify_wave(const struct backend *b, const struct scheme *s, int t, int threads, int precision, int coef,
                        int bc, const int grid[3], int tile, double *worst)
{
    double w[MAX_GROUPS], err;
    char why[512];
    struct step_config c = config(b, s, w, "wave");
    c.precision = precision, c.coef = coef, c.boundary = bc, c.tsteps = t, c.block[2] = tile;
    memcpy(c.grid, grid, sizeof c.grid);
    if (b->device == DEV_GPU) c.block[0] = 32, c.block[1] = 4, c.block[2] = 1;
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    CHECK(step_verify(&c, t, &err, why, sizeof why) == 0, "T %d, %d threads: %s", t, threads, why);
    omp_set_num_threads(before);
    *worst = fmax(*worst, err);
}

/* The wave step of every scheme, storage and boundary on device b against the reference, for
 * T = 1, 2 and 3, f32 (f64 too at T = 2), on one thread: on a grid long along z, where every level
 * has planes in its sweep, its planes taken two at a time (a tile that divides no extent), and at
 * T = 3 on a short one too, where the rims take every plane of the later levels. The count. */
static int verify_wave_all(const struct backend *b, double *worst)
{
    int checked = 0;
    for (int i = 0; i < scheme_count(); i++)
        for (int t = 1; t <= 3; t++) {
            const int rim = wave_rim_planes(scheme_at(i), t), grids[2][3] = {{7, 5, 9}, {7, 5, rim + 9}};
            for (int g = t == 3 ? 0 : 1; g < 2; g++)
                for (int coef = 0; coef < NCOEF; coef++)
                    for (int bc = 0; bc < NBOUNDARIES; bc++)
                        for (int p = 0; p <= (t == 2); p++, checked++)
                            verify_wave(b, scheme_at(i), t, 1, p, coef, bc, grids[g], 1 + g, worst);
        }
    return checked;
}

/* verify_passes_all's step: scheme number `scheme` at t steps a pass, precision p, storage
 * coef, on its grid and launch (below) */
static struct step_config passes_config(const struct backend *b, int scheme, double *w, const char *variant, int t,
                                        int p, int coef)
{
    static const int grid[3] = {67, 45, 19}, block[3] = {32, 8, 1}; /* inner tiles too (no image) */
    struct step_config c = config(b, scheme_at(scheme), w, variant);
    c.precision = p, c.coef = coef, c.tsteps = t, c.nodes = 8, c.rows = t == 1 ? 4 : 2;
    memcpy(c.grid, grid, sizeof c.grid), memcpy(c.block, block, sizeof c.block);
    return c;
}

/* A GPU step with trait passes (wave25d: T steps a launch, tiles overlapping by what the levels
 * reach) against T plain steps of the reference, for T = 1, 2 and 3 (then 7 steps: passes of 3,
 * 3 and 1), every scheme with one time level (S44 is not supported: step_supported), storage and
 * boundary, f32 (f64 too at T = 2), on a grid that no tile or chunk of planes divides (block
 * 32x8; 4 rows a thread at T = 1, 2 at T = 2 and 3; 8 planes a chunk) and holds tiles inside it
 * as well as across its faces. A launch whose levels reach past its tile or that fills shared
 * memory (the wide stencils at T = 3, f64) is refused with the reason, and counted there; T = 1
 * and 2 in f32 must run for every scheme. The count verified. */
static int verify_passes_all(const struct backend *b, const char *variant, int *refused, double *worst_all)
{
    int checked = 0;
    /* the kernels first, on every core (at T = 3 a kernel unrolls six half-steps) */
#pragma omp parallel for collapse(3) schedule(dynamic)
    for (int i = 0; i < scheme_count(); i++)
        for (int t = 1; t <= 3; t++)
            for (int coef = 0; coef < NCOEF; coef++)
                for (int p = 0; p <= (t == 2); p++) {
                    double w[MAX_GROUPS];
                    struct step_config c = passes_config(b, i, w, variant, t, p, coef);
                    if (step_supported(&c)) step_prepare(&c); /* a launch it refuses: not compiled */
                }
    for (int i = 0; i < scheme_count(); i++)
        for (int t = 1; t <= 3; t++)
            for (int p = 0; p <= (t == 2); p++)
                for (int coef = 0; coef < NCOEF; coef++)
                    for (int bc = 0; bc < NBOUNDARIES; bc++) {
                        double w[MAX_GROUPS], err;
                        char why[512];
                        struct step_config c = passes_config(b, i, w, variant, t, p, coef);
                        c.boundary = bc;
                        if (!step_supported(&c)) continue;
                        struct stepper *m = step_open(&c, why, sizeof why);
                        if (!m) {
                            const int room = strstr(why, "shared memory") || strstr(why, "reach");
                            CHECK(room && (t == 3 || p == F64), "%s T %d %s: refused: %s", scheme_at(i)->name, t,
                                  precision_names[p], why);
                            ++*refused;
                            continue;
                        }
                        step_close(m);
                        CHECK(step_verify(&c, t == 3 ? 7 : t, &err, why, sizeof why) == 0, "%s T %d %s %s %s: %s",
                              scheme_at(i)->name, t, precision_names[p], coef_names[coef], boundary_names[bc], why);
                        *worst_all = fmax(*worst_all, err);
                        checked++;
                    }
    return checked;
}

/* The temporally blocked step (engine/wave.h) against T plain steps of the reference (above); then
 * the threads' share of the levels (each thread waits on the one before), on two and three
 * threads, for FV24 (the widest stencil) in every storage and boundary. */
static void test_wave_matches_plain_steps(void)
{
    double worst = 0;
    int checked = verify_wave_all(cpu_backend(), &worst);
    const struct scheme *fv24 = scheme_find("fv24");
    for (int threads = 2; fv24 && threads <= 3; threads++)
        for (int t = 1; t <= 3; t++) {
            const int grid[3] = {7, 5, wave_rim_planes(fv24, t) + 9};
            for (int coef = 0; coef < NCOEF; coef++)
                for (int bc = 0; bc < NBOUNDARIES; bc++, checked++)
                    verify_wave(cpu_backend(), fv24, t, threads, F32, coef, bc, grid, 1, &worst);
        }
    printf("  wave: %d combinations, T steps each: largest error %.3f of its carried bound\n", checked, worst);
}

/* Rows longer than the blocks a kernel may scan material runs in (64 nodes), with runs that
 * start and end anywhere: every scheme's fused step in indexed storage, two nodes along z a pass
 * (each pass's runs end where either of its rows changes material), and its wave step at two
 * steps a pass, two planes a sweep step (so two a kernel pass, an odd one left at the ends). */
static void test_long_rows(void)
{
    for (int wave = 0; wave < 2; wave++)
        for (int i = 0; i < scheme_count(); i++)
            for (int p = 0; p < 2; p++) {
                double w[MAX_GROUPS], worst;
                char why[512];
                struct step_config c = config(cpu_backend(), scheme_at(i), w, wave ? "wave" : STEP_FUSED);
                c.precision = p, c.coef = COEF_INDEXED, c.grid[0] = 203, c.grid[1] = 5, c.grid[2] = wave ? 9 : 4;
                if (wave) c.tsteps = 2, c.block[2] = 2;
                else c.nodes = 2;
                CHECK(step_verify(&c, 2, &worst, why, sizeof why) == 0, "%s %s: %s", scheme_at(i)->name,
                      wave ? "wave" : STEP_FUSED, why);
            }
}

/* A backend whose halo refresh is wrong must fail the same check. */
static int halo_mode; /* 0: nothing refreshed; 1: periodic whatever was asked */
static int bad_refresh(void *f, const struct halo_args *h, char *why, size_t n)
{
    struct halo_args other = *h;
    if (halo_mode == 0) return 0;
    other.boundary = BOUNDARY_PERIODIC;
    return cpu_backend()->refresh_halo(f, &other, why, n);
}

static void test_wrong_halo_is_caught(void)
{
    struct backend bad = *cpu_backend();
    bad.refresh_halo = bad_refresh;
    for (halo_mode = 0; halo_mode < 2; halo_mode++)
        for (int i = 0; i < scheme_count(); i++) {
            double w[MAX_GROUPS], worst;
            char why[512] = "";
            struct step_config c = config(&bad, scheme_at(i), w, "plain");
            c.precision = F64, c.boundary = halo_mode == 0 ? BOUNDARY_PERIODIC : BOUNDARY_PEC;
            CHECK(step_verify(&c, 2, &worst, why, sizeof why) != 0, "%s: a %s halo passed", c.s->name,
                  halo_mode ? "periodic-for-PEC" : "stale");
            if (i == 0) printf("  caught: %.160s...\n", why);
        }
}

/* Image theory, written out here independently of halo_rule.h: a PEC box of n cells steps like a
 * periodic box of 2n cells holding the mirror image, in which tangential E and normal H are odd
 * about each wall and normal E and tangential H even. */
static double image_sign(int comp, int ax) /* parity of comp about a wall normal to ax */
{
    int tangential = ax != comp % 3, electric = comp >= 3;
    return electric == tangential ? -1 : 1;
}

/* halo_image (what the GPU fused kernels write) is exactly the inverse of halo_source (what a
 * refresh reads): every halo cell with a source is the image of that source, and of no other; an
 * open face (a slab's, filled by its neighbour) has neither positions nor images nor a wall. */
static void test_halo_image_inverts_source(void)
{
    for (int boundary = 0; boundary < NBOUNDARIES; boundary++)
        for (int half = 0; half < 2; half++)
            for (int open = 0; open <= (OPEN_LOW | OPEN_HIGH); open++)
                for (int n = STEP_MIN_GRID; n < STEP_MIN_GRID + 4; n++) {
                    int images = 0, sources = 0;
                    for (int s = 0; s < n; s++) {
                        int p, src;
                        int sign = halo_image(boundary, half, open, n, s, &p);
                        if (!sign) continue;
                        images++;
                        CHECK(halo_source(boundary, half, n, p, &src) == sign && src == s &&
                                  !halo_wall(boundary, half, open, s) && !(open & (p < 0 ? OPEN_LOW : OPEN_HIGH)),
                              "%s half %d open %d n %d: cell %d's image %d does not take it back",
                              boundary_names[boundary], half, open, n, s, p);
                    }
                    for (int t = 0; t < halo_count(boundary, half, open); t++) {
                        int src, p = halo_position(n, open, t);
                        CHECK(p < 0 ? !(open & OPEN_LOW) : p >= n ? !(open & OPEN_HIGH) : halo_wall(boundary, half, open, p),
                              "%s half %d open %d n %d: position %d refreshed", boundary_names[boundary], half, open, n, p);
                        sources += halo_source(boundary, half, n, p, &src) != 0;
                    }
                    CHECK(images == sources, "%s half %d open %d n %d: %d images for %d halo cells with a source",
                          boundary_names[boundary], half, open, n, images, sources);
                }
}

static void test_pec_is_the_mirror_image(void)
{
    static const int n[3] = {7, 6, 5};
    double worst_all = 0;
    for (int si = 0; si < scheme_count(); si++) {
        double w[MAX_GROUPS];
        char why[512];
        struct step_config pc = config(cpu_backend(), scheme_at(si), w, "plain"), cc;
        pc.precision = F64, pc.coef = COEF_UNIFORM, pc.boundary = BOUNDARY_PEC;
        memcpy(pc.grid, n, sizeof pc.grid);
        cc = pc;
        cc.boundary = BOUNDARY_PERIODIC;
        for (int d = 0; d < 3; d++) cc.grid[d] = 2 * n[d];
        struct stepper *pec = step_open(&pc, why, sizeof why), *per = step_open(&cc, why, sizeof why);
        if (!pec || !per) {
            CHECK(0, "%s", why);
            step_close(pec), step_close(per);
            continue;
        }
        long psy, psz, csy, csz;
        size_t pcells = step_cells(pec, &psy, &psz), ccells = step_cells(per, &csy, &csz);
        double *a = calloc(pcells, sizeof *a), *b = calloc(ccells, sizeof *b);
        unsigned long long r = 12345;
        for (int comp = 0; comp < NCOMPONENTS; comp++)
            for (int l = 0; l < pc.s->levels; l++) {
                /* random interior in the PEC box, zero on the walls where the field is odd */
                for (int k = 0; k < n[2]; k++)
                    for (int j = 0; j < n[1]; j++)
                        for (int i = 0; i < n[0]; i++) {
                            int idx[3] = {i, j, k}, wall = 0;
                            for (int d = 0; d < 3; d++) wall |= idx[d] == 0 && image_sign(comp, d) < 0 && !component_half(comp, d);
                            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                            a[(k + HALO) * psz + (j + HALO) * psy + i + HALO] = wall ? 0 : (double)(r >> 11) * 0x1.0p-53 - 0.5;
                        }
                /* its image in the periodic box */
                for (int k = 0; k < 2 * n[2]; k++)
                    for (int j = 0; j < 2 * n[1]; j++)
                        for (int i = 0; i < 2 * n[0]; i++) {
                            int idx[3] = {i, j, k}, src[3];
                            double sign = 1;
                            for (int d = 0; d < 3; d++) {
                                int half = (d == comp % 3) == (comp >= 3); /* SCHEMES.md section 1 */
                                src[d] = idx[d];
                                if (idx[d] >= n[d]) { /* mirror position 2n - x */
                                    src[d] = half ? 2 * n[d] - 1 - idx[d] : 2 * n[d] - idx[d];
                                    sign *= image_sign(comp, d);
                                }
                                if (src[d] == n[d]) sign = 0; /* an odd field's upper wall */
                            }
                            b[(k + HALO) * csz + (j + HALO) * csy + i + HALO] =
                                src[0] < n[0] && src[1] < n[1] && src[2] < n[2]
                                    ? sign * a[(src[2] + HALO) * psz + (src[1] + HALO) * psy + src[0] + HALO]
                                    : 0;
                        }
                step_put(pec, comp, l, a);
                step_put(per, comp, l, b);
            }
        CHECK(step_run(pec, 20, why, sizeof why) == 0 && step_run(per, 20, why, sizeof why) == 0, "%s", why);
        double worst = 0, scale = 0;
        for (int comp = 0; comp < NCOMPONENTS; comp++) {
            step_get(pec, comp, 0, a);
            step_get(per, comp, 0, b);
            for (int k = 0; k < n[2]; k++)
                for (int j = 0; j < n[1]; j++)
                    for (int i = 0; i < n[0]; i++) {
                        double x = a[(k + HALO) * psz + (j + HALO) * psy + i + HALO];
                        double y = b[(k + HALO) * csz + (j + HALO) * csy + i + HALO];
                        worst = fmax(worst, fabs(x - y)), scale = fmax(scale, fabs(y));
                    }
        }
        CHECK(scale > 0 && worst <= 1e-12 * scale, "%s: PEC box differs from its periodic image by %.3g (scale %.3g)",
              pc.s->name, worst, scale);
        worst_all = fmax(worst_all, worst / scale);
        free(a), free(b);
        step_close(pec), step_close(per);
    }
    printf("  every scheme, 20 steps: PEC box = periodic image within %.1e relative\n", worst_all);
}

/* The figures: Yee f32 moves 120 bytes per cell and step with array coefficients (six
 * fields read twice, six written, twelve coefficient arrays), 72 with uniform ones. */
static void test_step_bytes(void)
{
    const struct scheme *yee = scheme_find("yee"), *s44 = scheme_find("s44");
    if (!yee || !s44) SKIP("yee or s44 is not built in");
    CHECK(step_compulsory_bytes(yee, F32, COEF_ARRAY) == 120, "Yee array: %g", step_compulsory_bytes(yee, F32, COEF_ARRAY));
    CHECK(step_compulsory_bytes(yee, F32, COEF_UNIFORM) == 72, "Yee uniform: %g", step_compulsory_bytes(yee, F32, COEF_UNIFORM));
    /* S44: per half-step 3 x 4 levels + 3 sources read, 3 written, 3 x 6 coefficient arrays */
    CHECK(step_compulsory_bytes(s44, F32, COEF_ARRAY) == 2 * (12 + 3 + 3 + 18) * 4, "S44 array: %g",
          step_compulsory_bytes(s44, F32, COEF_ARRAY));
    CHECK(step_bytes_per_cell(yee, F32, COEF_ARRAY) == 6 * 4 + 12 * 4, "Yee memory: %g", step_bytes_per_cell(yee, F32, COEF_ARRAY));
    CHECK(step_bytes_per_cell(s44, F64, COEF_UNIFORM) == 24 * 8, "S44 memory: %g", step_bytes_per_cell(s44, F64, COEF_UNIFORM));
}

/* A scene of several materials (vacuum, a dielectric slab, a lossy block): indexed storage
 * steps exactly as the same scene in coefficient arrays, and not as vacuum would. */
static void test_material_scene(void)
{
    for (int si = 0; si < scheme_count(); si++) {
        const struct scheme *s = scheme_at(si);
        double w[MAX_GROUPS], field[3][2] = {{0}}; /* [array, indexed, vacuum][sum |E|, max diff] */
        char why[512];
        struct step_materials *mat = calloc(1, sizeof *mat);
        static const struct medium media[3] = {{1, 1, 0, 0}, {4, 1, 0, 0}, {2, 1, 0.02, 0}};
        struct step_config c = config(cpu_backend(), s, w, "plain");
        c.precision = F64, c.boundary = BOUNDARY_PEC;
        mat->count = s->levels == 1 ? 3 : 2; /* loss is for leapfrog schemes only */
        for (int x = 0; x < mat->count; x++)
            for (int comp = 0; comp < NCOMPONENTS; comp++) {
                double da[MAX_LEVELS], db[MAX_GROUPS];
                CHECK(!update_coefficients(s, w, component_is_h(comp), 1e-3, c.courant * 1e-3 / VACUUM_C, &media[x],
                                           da, db, why, sizeof why), "%s", why);
                for (int l = 0; l < s->levels; l++) mat->coef[comp][x][l] = da[l];
                for (int g = 0; g < s->ngroups; g++) mat->coef[comp][x][s->levels + g] = db[g];
            }
        double *first = NULL, *got = NULL;
        unsigned char *index = NULL;
        size_t cells = 1;
        for (int run = 0; run < 3; run++) {
            c.coef = run == 1 ? COEF_INDEXED : COEF_ARRAY;
            struct stepper *m = step_open(&c, why, sizeof why);
            if (!m) { CHECK(0, "%s", why); break; }
            long sy, sz;
            cells = step_cells(m, &sy, &sz);
            if (!index) {
                index = malloc(cells), first = malloc(cells * sizeof *first), got = malloc(cells * sizeof *got);
                for (size_t i = 0; i < cells; i++) {
                    long x = (long)(i % sy) - HALO, z = (long)(i / sz) - HALO;
                    index[i] = x >= 4 && x < 7 ? 1 : z >= 5 && mat->count > 2 ? 2 : 0; /* slab, block */
                }
            }
            mat->index = run < 2 ? index : NULL; /* run 2: vacuum everywhere */
            int count = mat->count;
            if (run == 2) mat->count = 1;
            CHECK(step_set_materials(m, mat, why, sizeof why) == 0, "%s", why);
            mat->count = count;
            step_fill_random(m, 5);
            CHECK(step_run(m, 20, why, sizeof why) == 0, "%s", why);
            step_get(m, EZ, 0, run == 0 ? first : got);
            for (size_t i = 0; run && i < cells; i++) {
                field[run][0] += fabs(first[i]);
                field[run][1] = fmax(field[run][1], fabs(got[i] - first[i]));
            }
            step_close(m);
        }
        CHECK(field[1][1] == 0, "%s: indexed differs from array storage by %.3g", s->name, field[1][1]);
        CHECK(field[2][1] > 1e-2 * field[2][0] / (double)cells, "%s: the materials changed nothing (%.3g against a mean of %.3g)",
              s->name, field[2][1], field[2][0] / (double)cells);
        free(mat), free(index), free(first), free(got);
    }
}

static void test_bad_input(void)
{
    double w[MAX_GROUPS];
    char why[512] = "";
    struct step_config c = config(cpu_backend(), scheme_at(0), w, "plain");
    c.grid[1] = STEP_MIN_GRID - 1;
    CHECK(step_open(&c, why, sizeof why) == NULL && strstr(why, "at least"), "a grid under the halo opened: %s", why);
    c.grid[1] = small[1], c.variant = "nonesuch";
    CHECK(step_open(&c, why, sizeof why) == NULL && strstr(why, "nonesuch"), "an unknown variant opened: %s", why);
    /* a variant that keeps one time level on chip (trait passes: the GPU's wave25d, in a build with
     * the GPU table; no GPU needed to ask) takes Yee but not S44 */
    const struct scheme *s44 = scheme_find("s44"), *yee = scheme_find("yee");
    const struct variant_traits *t = step_fused_traits(DEV_GPU, "wave25d");
    if (t && t->passes && s44 && yee) {
        struct step_config g = config(gpu_backend(), s44, w, "wave25d");
        why[0] = '\0';
        CHECK(!step_supported(&g) && step_takes(&g, why, sizeof why) == -1 && strstr(why, "time level"),
              "wave25d with S44: supported %d, why '%s'", step_supported(&g), why);
        g = config(gpu_backend(), yee, w, "wave25d");
        CHECK(step_supported(&g) && step_takes(&g, NULL, 0) == 0, "wave25d with Yee refused");
    }
}

/* A stepper relaunched (the tuner's candidates, step_measure_keep) steps as one opened at that
 * launch: the wave at 1 then 3 steps a pass and 2 planes a sweep step, FV24 f32 arrays, against a
 * fresh stepper at the second launch, from the same random fields; a launch it does not take is
 * refused with the reason and leaves the stepper as it was. */
static void test_relaunch_is_a_fresh_open(void)
{
    double w[MAX_GROUPS];
    char why[512] = "";
    struct step_config c = config(cpu_backend(), scheme_find("fv24"), w, "wave");
    c.grid[2] = 17, c.tsteps = 1, c.block[2] = 1;
    struct stepper *a = step_open(&c, why, sizeof why);
    CHECK(a, "open: %s", why);
    if (!a) return;
    step_fill_random(a, 5);
    struct step_config other = c;
    other.tsteps = 3, other.block[2] = 2;
    CHECK(step_relaunch(a, &other, why, sizeof why) == 0, "relaunch: %s", why);
    CHECK(step_launch(a)->tsteps == 3 && step_launch(a)->block[2] == 2, "relaunched at %d steps a pass, %d planes",
          step_launch(a)->tsteps, step_launch(a)->block[2]);
    struct stepper *b = step_open(&other, why, sizeof why);
    CHECK(b, "open at the second launch: %s", why);
    struct step_config bad = other;
    bad.tsteps = WAVE_MAX_STEPS + 1;
    CHECK(step_relaunch(a, &bad, why, sizeof why) == -1 && strstr(why, "steps per pass") && step_launch(a)->tsteps == 3,
          "a bad launch taken: %s", why);
    if (b) {
        step_fill_random(b, 5);
        CHECK(step_run(a, 6, why, sizeof why) == 0 && step_run(b, 6, why, sizeof why) == 0, "run: %s", why);
        size_t cells = step_cells(a, NULL, NULL);
        double *x = malloc(2 * cells * sizeof *x), *y = x + cells;
        for (int comp = 0; comp < NCOMPONENTS && x; comp++) {
            step_get(a, comp, 0, x), step_get(b, comp, 0, y);
            CHECK(!memcmp(x, y, cells * sizeof *x), "%s differs after the relaunch", component_names[comp]);
        }
        free(x);
        step_close(b);
    }
    step_close(a);
}

static void test_gpu_steps_match_reference(void)
{
    const struct backend *b = gpu_backend();
    char why[512];
    if (!b->available(why, sizeof why)) SKIP("%s", why);
    static const int block[3] = {32, 4, 1}; /* one every variant takes (tile25d: flat, Bx of 32, 64 or 128) */
    const char *variants[16];
    int tried = kernel_variants(DEV_GPU, variants, 16);
    for (int v = 0; v < tried; v++) {
        double worst = 0;
        int n = verify_all(b, variants[v], block, 1, &worst);
        printf("  GPU %s: %d combinations, largest error %.3f of its bound\n", variants[v], n, worst);
    }
    CHECK(tried > 0, "no GPU kernels generated");
    /* Every fused variant: columns of 1, 2, 4 nodes (7 planes leave a short one) and the variant's
     * own; a tiled one (flat) also with 128-wide tiles, and on rows of 16 values, which it copies
     * in 16-byte pieces (the small grid's rows of 15 go value by value). */
    const char *fused[8];
    const int nf = step_fused_variants(DEV_GPU, fused, 8);
    CHECK(nf > 0 && !strcmp(fused[0], STEP_FUSED), "the GPU has no '%s' variant", STEP_FUSED);
    for (int v = 0; v < nf; v++) {
        const struct variant_traits *t = step_fused_traits(DEV_GPU, fused[v]);
        const int nodes[4] = {1, 2, 4, t->nodes}, rows16[3] = {12, 9, 7}, wide[3] = {128, 2, 1};
        if (t->passes) {
            double worst = 0;
            int refused = 0, n = verify_passes_all(b, fused[v], &refused, &worst);
            CHECK(n > 0, "GPU %s: nothing verified", fused[v]);
            printf("  GPU %s: %d combinations (%d refused), T steps each: largest error %.3f of its bound\n", fused[v], n,
                   refused, worst);
            continue;
        }
        if (t->planes) { /* the wave step: T steps a pass, one node per thread */
            double worst = 0;
            int n = verify_wave_all(b, &worst);
            printf("  GPU %s: %d combinations, T steps each: largest error %.3f of its bound\n", fused[v], n, worst);
            continue;
        }
        for (int x = 0; x < 4 + 2 * t->flat; x++) {
            double worst = 0;
            const int *grid = x == 5 ? rows16 : NULL, *blk = x == 4 ? wide : block, zn = x < 4 ? nodes[x] : t->nodes;
            if (x == 3 && t->nodes <= 4) continue;
            int n = verify_all_on(b, fused[v], grid, blk, zn, 0, 0, 0, NULL, &worst);
            CHECK(n == scheme_count() * 2 * NCOEF * NBOUNDARIES, "GPU %s, %d nodes: %d combinations verified", fused[v], zn, n);
            printf("  GPU %s, block %dx%dx%d, %d nodes%s: %d combinations, largest error %.3f of its bound\n", fused[v],
                   blk[0], blk[1], blk[2], zn, grid ? ", rows of 16" : "", n, worst);
        }
        /* The kernels with their registers capped (tune --step's caps: fused's, and fused25d's below its rule;
         * f64 high-order ones spill) */
        static const int fused_caps[] = {40, 64}, tiled_caps[] = {80};
        for (int c = 0; c < (t->flat ? 1 : 2); c++) {
            const int cap = t->flat ? tiled_caps[c] : fused_caps[c], zn = t->flat ? t->nodes : 2;
            double worst = 0;
            int n = verify_all_on(b, fused[v], NULL, block, zn, 0, 0, cap, NULL, &worst);
            CHECK(n == scheme_count() * 2 * NCOEF * NBOUNDARIES, "GPU %s, %d registers: %d combinations verified",
                  fused[v], cap, n);
            printf("  GPU %s, %d nodes, at most %d registers: %d combinations, largest error %.3f of its bound\n",
                   fused[v], zn, cap, n, worst);
        }
        /* A tiled one's rows per thread (1, 2, 4) and pipeline depths (1 to 3; one row also 4,
         * where S44's tensor-copy barriers find no slot padding that holds them and go before the
         * rings: gpu_rules.h, fused25d_barriers_at): every storage takes its own default. */
        static const int rows[3] = {1, 2, 4};
        for (int x = 0; x < 3 && t->rows; x++)
            for (int d = 1; d <= (rows[x] == 1 ? 4 : 3); d++) {
                double worst = 0;
                int refused = 0, n = verify_all_on(b, fused[v], NULL, block, t->nodes, rows[x], d, 0, &refused, &worst);
                CHECK(n + refused == scheme_count() * 2 * NCOEF * NBOUNDARIES,
                      "GPU %s, %d rows, %d stages: %d combinations verified, %d refused", fused[v], rows[x], d, n,
                      refused);
                printf("  GPU %s, %d rows, %d stages: %d combinations (%d refused), largest error %.3f of its bound\n",
                       fused[v], rows[x], d, n, refused, worst);
            }
    }
}

int main(void)
{
    RUN(test_cpu_steps_match_reference);
    RUN(test_wave_matches_plain_steps);
    RUN(test_long_rows);
    RUN(test_wrong_halo_is_caught);
    RUN(test_halo_image_inverts_source);
    RUN(test_pec_is_the_mirror_image);
    RUN(test_step_bytes);
    RUN(test_material_scene);
    RUN(test_bad_input);
    RUN(test_relaunch_is_a_fresh_open);
    RUN(test_gpu_steps_match_reference);
    return TEST_SUMMARY();
}
