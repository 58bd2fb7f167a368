/* Every generated CPU kernel against the reference, and proof that the check catches a
 * wrong kernel. */
#include <math.h>
#include <omp.h>

#include "check.h"
#include "jit.h"
#include "measure.h"

/* Odd sizes, several tile shapes: no tile divides the grid evenly. */
static const int grids[][3] = {{37, 29, 23}, {9, 7, 5}};
static const int tiles[][3] = {{0, 0, 1}, {0, 4, 3}, {0, 5, 2}};

/* A launch's arguments on grid g, strides and all (no arrays). */
static struct kernel_args launch_on(const int g[3])
{
    struct kernel_args a;
    launch_geometry(&a, g, (const int[3]){0, 0, 0}, 0, 0, 0);
    return a;
}

/* A kernel compiled for its grid's strides is compiled again for the small grid in f32 only,
 * whose 9-point rows are shorter than one vector (16 lanes); in f64 (8 lanes) the small grid's
 * rows hold a vector and a point, as the large grid's do (37 = 4 x 8 + 5), and its 120 extra
 * compilations took a quarter of the test. Every other kernel runs on both grids. */
static int small_grid_too(const struct kernel_entry *k) { return !k->traits.strides || k->precision == F32; }

/* Every kernel at every launch above, each with one node per pass; a marching kernel (nodes along z
 * per pass) also at two to four nodes, on the small grid at every tile and on the large one at a
 * tile its passes do not divide (the large grid's reference costs most of this test's time). A
 * launch the kernel refuses (its accepts(): a node count it was not compiled for, rows shorter
 * than its vector) is counted, not run; every kernel must take one node on the large grid. A
 * variant compiled for its launch's strides (regz) is compiled for each grid it runs on
 * (small_grid_too): each of its kernels is verified as compiled for the odd grids' strides. */
static void test_every_cpu_kernel_matches_reference(void)
{
    const struct backend *b = cpu_backend();
    int checked = 0, refused = 0, per_strides = 0;
    double worst_all = 0;
    const double t0 = omp_get_wtime(); /* every kernel compiled first (kernels_cpu/jit.c), several at once */
#pragma omp parallel for collapse(2) schedule(dynamic) reduction(+ : per_strides)
    for (int i = 0; i < cpu_kernel_table_len; i++)
        for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            /* One compilation serves every grid but for a kernel of trait strides: asked again here, a
             * thread would wait for the one compiling it instead of compiling another. */
            if (g > 0 && !(cpu_kernel_table[i].traits.strides && small_grid_too(&cpu_kernel_table[i]))) continue;
            const struct kernel_args a = launch_on(grids[g]);
            char why[256];
            b->prepare(&cpu_kernel_table[i], &a, why, sizeof why); /* a kernel that does not compile ends the test */
            per_strides += cpu_kernel_table[i].traits.strides;
        }
    printf("  %d kernels compiled (or read from the kernel cache) in %.1f s, %d compilations for a grid's strides\n",
           cpu_kernel_table_len, omp_get_wtime() - t0, per_strides);
    for (int i = 0; i < cpu_kernel_table_len; i++) {
        const struct kernel_entry *k = &cpu_kernel_table[i];
        for (int nodes = 1; nodes <= (k->traits.marches ? 4 : 1); nodes++)
            for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
                for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
                    char why[512];
                    double worst;
                    if ((nodes > 1 && g == 0 && t != 1) || (g > 0 && !small_grid_too(k))) continue;
                    if (check_launch(b, k, grids[g], tiles[t], nodes, 1, 0, why, sizeof why)) {
                        CHECK(nodes > 1 || g > 0, "%s %s: the large grid refused: %s", k->scheme, k->variant, why);
                        refused++;
                        continue;
                    }
                    int rc = verify_kernel(b, scheme_find(k->scheme), k, grids[g], tiles[t], nodes, 1, 0, &worst, why,
                                           sizeof why);
                    CHECK(rc == 0, "%s (nodes %d)", why, nodes);
                    if (worst > worst_all) worst_all = worst;
                    checked++;
                }
    }
    /* 5 schemes x 6 components x 2 precisions x 2 storages, at least; regz compiled per strides. */
    CHECK(cpu_kernel_table_len >= 120, "only %d CPU kernels generated", cpu_kernel_table_len);
    CHECK(per_strides >= 120 + 60, "only %d kernels compiled for a grid's strides", per_strides);
    printf("  %d verifications, %d launches refused by their kernel; largest error %.3f of its tolerance\n", checked,
           refused, worst_all);
}

/* A kernel compiled for one grid's strides (regz) refuses a launch with another's, saying so, and
 * takes its own; each grid's compilation is its own machine code. */
static void test_strides_kernel_refuses_other_strides(void)
{
    const struct kernel_entry *k = kernel_find(DEV_CPU, "fv24", HX, F32, COEF_ARRAY, "regz");
    CHECK(k && k->traits.strides, "regz is not compiled per strides");
    if (!k) return;
    /* rows of 48 values (37 + 2 HALO, padded) against 72 (61 + 2 HALO, padded) */
    const struct kernel_args big = launch_on(grids[0]), other = launch_on((const int[3]){61, 29, 23});
    int (*accepts)(const struct kernel_args *, char *, size_t) = NULL;
    char why[256] = "";
    const kernel_fn code = cpu_kernel_code(k, &big, &accepts);
    CHECK(accepts && accepts(&big, why, sizeof why) == 0, "refused its own strides: %s", why);
    CHECK(accepts && accepts(&other, why, sizeof why) == -1 && strstr(why, "compiled for rows of 48"),
          "took another grid's strides (%s)", why);
    CHECK(cpu_kernel_code(k, &other, NULL) != code, "two grids' strides, one compilation");
    CHECK(cpu_kernel_code(k, &big, NULL) == code, "one grid's strides compiled twice");
    const struct kernel_entry *p = kernel_find(DEV_CPU, "fv24", HX, F32, COEF_ARRAY, "plain");
    CHECK(p && !p->traits.strides && cpu_kernel_code(p, &big, NULL) == cpu_kernel_code(p, &other, NULL),
          "plain is compiled once for every grid");
}

/* Verification runs the machine code that is timed: a run of a kernel compiled for its strides is
 * verified on the timed grid's rows and planes (nx, ny) with few planes, tiles and passes along z
 * as timed, and that grid's launch runs the timed launch's compilation, which passes. */
static void test_strides_kernel_verified_as_timed(void)
{
    const struct backend *b = cpu_backend();
    struct run_config c = {.scheme = scheme_find("s22"), .component = HX, .precision = F32, .coef = COEF_ARRAY,
                           .device = DEV_CPU, .variant = "regz", .grid = {300, 300, 300}, .block = {0, 0, 1}, .nodes = 2};
    const struct kernel_entry *k = kernel_find(DEV_CPU, "s22", HX, F32, COEF_ARRAY, "regz");
    int v[3];
    verify_geometry(&c, v);
    CHECK(v[0] == 300 && v[1] == 300 && v[2] >= STRIDES_PLANES && v[2] < 2 * STRIDES_PLANES, "verified on %dx%dx%d",
          v[0], v[1], v[2]);
    const struct kernel_args timed = launch_on(c.grid), verified = launch_on(v);
    CHECK(k && cpu_kernel_code(k, &timed, NULL) == cpu_kernel_code(k, &verified, NULL),
          "verification runs another compilation than the timed one");
    c.block[1] = 16, c.block[2] = 2; /* tiles of 16 rows by 2 passes of 2 planes: remainders kept */
    verify_geometry(&c, v);
    CHECK(v[0] == 300 && v[1] == 300 && v[2] % 4 == 300 % 4 && v[2] >= 4 && v[2] < 300, "verified on %dx%dx%d", v[0], v[1],
          v[2]);
    char why[512];
    double worst;
    CHECK(k && verify_kernel(b, c.scheme, k, v, c.block, c.nodes, 1, 0, &worst, why, sizeof why) == 0, "%s", why);
    c.variant = "plain", c.nodes = 1;
    verify_geometry(&c, v);
    CHECK(v[0] < 300 && v[1] < 300, "plain verified on %dx%dx%d: its grid's own size", v[0], v[1], v[2]);
}

/* Deliberately wrong kernels, through the same check: each must be rejected. */
static void yee_hx_f64(const struct kernel_args *a, int wrong_offset, int skip_cell, int write_halo)
{
    double *out = a->out;
    const double *h = a->level[0], *p = a->plus, *m = a->minus, *da = a->da[0], *db = a->db[0];
    for (int k = 0; k < a->nz; k++)
        for (int j = 0; j < a->ny; j++)
            for (int i = 0; i < a->nx; i++) {
                long n = grid_index(a, i, j, k);
                if (skip_cell && i == 3 && j == 2 && k == 1) continue;
                long up = wrong_offset && i == 5 ? a->sy : a->sz; /* y where z belongs, at one column */
                out[n] = da[n] * h[n] + db[n] * ((p[n + up] - p[n]) - (m[n + a->sy] - m[n]));
            }
    if (write_halo) out[grid_index(a, -1, 0, 0)] = 0;
}
static void right(const struct kernel_args *a) { yee_hx_f64(a, 0, 0, 0); }
static void wrong_offset(const struct kernel_args *a) { yee_hx_f64(a, 1, 0, 0); }
static void skips_a_cell(const struct kernel_args *a) { yee_hx_f64(a, 0, 1, 0); }
static void writes_halo(const struct kernel_args *a) { yee_hx_f64(a, 0, 0, 1); }

static void test_verification_rejects_wrong_kernels(void)
{
    const struct backend *b = cpu_backend();
    const struct scheme *yee = scheme_find("yee");
    static const int tile[3] = {0, 0, 1};
    struct kernel_entry k = {.scheme = "yee", .component = HX, .precision = F64, .coef = COEF_ARRAY, .variant = "test", .fn = right};
    char why[512];
    double worst;
    CHECK(verify_kernel(b, yee, &k, grids[0], tile, 1, 1, 0, &worst, why, sizeof why) == 0, "hand-written Yee: %s", why);
    k.fn = wrong_offset;
    CHECK(verify_kernel(b, yee, &k, grids[0], tile, 1, 1, 0, &worst, why, sizeof why) == -1, "wrong offset passed");
    k.fn = skips_a_cell;
    CHECK(verify_kernel(b, yee, &k, grids[0], tile, 1, 1, 0, &worst, why, sizeof why) == -1, "unwritten cell passed");
    CHECK(strstr(why, "(3,2,1)") != NULL, "message names the cell: %s", why);
    k.fn = writes_halo;
    CHECK(verify_kernel(b, yee, &k, grids[0], tile, 1, 1, 0, &worst, why, sizeof why) == -1 && strstr(why, "halo"),
          "halo write passed: %s", why);
    /* An f64 kernel judged by the f32 tolerance would pass anything; the right kernel's
     * error must be far inside the f64 bound. */
    k.fn = right;
    CHECK(verify_kernel(b, yee, &k, grids[0], tile, 1, 1, 0, &worst, why, sizeof why) == 0 && worst < 0.5,
          "worst %.3f of tolerance", worst);
}

int main(void)
{
    RUN(test_every_cpu_kernel_matches_reference);
    RUN(test_strides_kernel_refuses_other_strides);
    RUN(test_strides_kernel_verified_as_timed);
    RUN(test_verification_rejects_wrong_kernels);
    return TEST_SUMMARY();
}
