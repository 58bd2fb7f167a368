/* The GPU path: every generated GPU kernel against the double-precision reference on a grid
 * that no block shape divides, launch geometry beyond the 65535-block limits, block-shape
 * checks, launch failures reported rather than lost, reproducible random fills, and the
 * bandwidth probe. Without a usable GPU each test that needs one is skipped with the reason. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <omp.h>
#include <stdlib.h>

#include "check.h"
#include "measure.h"

static const struct backend *gpu;
static char no_gpu[256]; /* why the GPU cannot be used; empty when it can */

#define NEED_GPU() \
    do {           \
        if (no_gpu[0]) SKIP("%s", no_gpu); \
    } while (0)

/* available() answers either way without crashing, with a reason when it says no. */
static void test_available(void)
{
    char why[256] = "";
    int ok = gpu->available(why, sizeof why);
    CHECK(ok || why[0], "available() said no without a reason");
    if (!ok) printf("  GPU not usable here: %s\n", why);
}

/* The table holds every scheme x component x precision x coefficient storage, for each variant. */
static void test_kernel_table_complete(void)
{
    if (gpu_kernel_table_len == 0) SKIP("no GPU kernels in this build: %s", no_gpu[0] ? no_gpu : "table empty");
    static const char *const required[] = {"baseline", "linear"};
    int nvariants = 0;
    for (int i = 0; i < gpu_kernel_table_len; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++) first = strcmp(gpu_kernel_table[i].variant, gpu_kernel_table[j].variant) != 0;
        nvariants += first;
    }
    CHECK(gpu_kernel_table_len == scheme_count() * NCOMPONENTS * 2 * 2 * nvariants, "%d kernels, expected %d",
          gpu_kernel_table_len, scheme_count() * NCOMPONENTS * 2 * 2 * nvariants);
    for (int v = 0; v < 2; v++)
        for (int s = 0; s < scheme_count(); s++)
            for (int c = 0; c < NCOMPONENTS; c++)
                for (int p = 0; p < 2; p++)
                    for (int cs = 0; cs < 2; cs++)
                        CHECK(kernel_find(DEV_GPU, scheme_at(s)->name, c, p, cs, required[v]), "no GPU kernel %s %s %s %s %s",
                              scheme_at(s)->name, component_names[c], precision_names[p], coef_names[cs], required[v]);
}

/* rows and stages 0: the kernel's default. */
static int verify(const struct kernel_entry *k, const int grid[3], const int block[3], int nodes, int rows, int stages)
{
    char why[512];
    double worst;
    int rc = verify_kernel(gpu, scheme_find(k->scheme), k, grid, block, nodes, rows, stages, &worst, why, sizeof why);
    CHECK(rc == 0, "block %dx%dx%d, %d nodes per thread, %d rows, %d stages, grid %dx%dx%d: %s", block[0], block[1],
          block[2], nodes, rows, stages, grid[0], grid[1], grid[2], why);
    return rc;
}

/* The launches a test verifies: listed first, so that their kernels compile in parallel (one
 * NVRTC compilation per launch shape a variant makes constant) before any runs. */
struct launch {
    const struct kernel_entry *k;
    const int *grid;
    int block[3], nodes, rows, stages;
    int own;    /* the kernel's own default rows and depth: must be taken */
    int tiling; /* counted among the tiled variants' row and depth launches */
};
enum { MAX_TEST_LAUNCHES = 1 << 14 };
static struct launch launches[MAX_TEST_LAUNCHES];
static int nlaunches;

static void add(const struct kernel_entry *k, const int *grid, const int block[3], int nodes, int rows, int stages,
                int own, int tiling)
{
    if (nlaunches < MAX_TEST_LAUNCHES)
        launches[nlaunches++] = (struct launch){k, grid, {block[0], block[1], block[2]}, nodes, rows, stages, own, tiling};
}

static void compile_launches(void)
{
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < nlaunches; i++) {
        const struct launch *l = &launches[i];
        prepare_launches(gpu, l->k, l->grid, 1, &l->block, &l->nodes, &l->rows, &l->stages);
    }
    printf("  %d launches compiled (or found in the kernel cache) in %.1f s\n", nlaunches, omp_get_wtime() - t0);
}

/* Every kernel, on verify_grid (37x29x23: odd, divided by no block shape), at its variant's
 * default launch and two more 3-D (or, for flat variants, 2-D) shapes; marching variants also
 * with 1, 3 (a column not unrolled in zmarch's f64) and 64 (more than the grid's planes) nodes
 * per thread, none of which divides 23. A launch the variant refuses (check_launch) must say why;
 * each kernel must match the reference at three launches at least. Tiled variants (rows in their
 * traits), in each scheme's Hx kernels, also at their default block and nodes with every row
 * count of 1, 2 and 4 and every pipeline depth of 1 to 3, FV24's and S44's f32 ones also with 8
 * rows and 4 stages (tiles of 4 to 64 rows of nodes, partial ones against 29; rings of 4 to 16
 * planes), and at a tile no power of two (3 rows: any width compiles), on both grids; their own
 * default rows and depth must be taken. Each launch shape is one compilation (a second or
 * so): these are about 1300. */
static void test_every_kernel_matches_reference(void)
{
    NEED_GPU();
    static const int blocks[][3] = {{32, 4, 2}, {16, 8, 8}}, flat_blocks[][3] = {{32, 4, 1}, {64, 2, 1}};
    static const int nodes[] = {1, 3, 64}, rows[] = {1, 2, 4, 8}, stages[] = {1, 2, 3, 4};
    /* Rows are padded to whole sectors (kernel.h), so the tiled variants copy their rings in
     * 16-byte pieces unless a tile's width is not a whole number of pieces: the 33-wide odd tile
     * (on verify_grid, a whole tile and a partial one a row) takes their value-by-value path, the
     * 40-wide one the pieces. The 44-wide grid's rows have no padding. A 41-wide tile's f64 rings
     * (48 values a row) would not fit in 227 KB at FV24's and S{2,2}'s default depth. */
    static const int aligned_grid[3] = {44, 29, 23}, odd_tiles[2][3] = {{33, 3, 1}, {40, 3, 1}};
    nlaunches = 0;
    for (int i = 0; i < gpu_kernel_table_len; i++) {
        const struct kernel_entry *k = &gpu_kernel_table[i];
        const struct variant_traits *t = &k->traits;
        for (int g = 0; g < 2; g++)
            for (int b = -1; b < 2; b++) {
                const int *grid = g ? aligned_grid : verify_grid;
                const int *block = b < 0 ? t->block : t->flat ? flat_blocks[b] : blocks[b];
                if (!block[0]) continue; /* no default launch declared */
                for (int n = 0; n < (t->marches && b >= 0 ? 3 : 1); n++) add(k, grid, block, b < 0 ? t->nodes : nodes[n], 0, 0, 0, 0);
            }
        if (!t->block[0] || !t->rows || k->component != HX) continue;
        const int most = k->precision == F32 && (!strcmp(k->scheme, "fv24") || !strcmp(k->scheme, "s44")) ? 4 : 3;
        for (int g = 0; g < 2; g++) {
            const int *grid = g ? aligned_grid : verify_grid;
            for (int r = 0; r < most; r++)
                for (int d = 0; d < most; d++)
                    add(k, grid, t->block, t->nodes, rows[r], stages[d], rows[r] == t->rows && stages[d] == t->stages, 1);
            add(k, grid, odd_tiles[g], 5, 3, t->stages, 1, 1);
        }
    }
    compile_launches();
    int failures = 0, verified_launches = 0, tiled = 0, *verified = calloc(gpu_kernel_table_len > 0 ? (size_t)gpu_kernel_table_len : 1, sizeof *verified);
    for (int i = 0; i < nlaunches; i++) {
        const struct launch *l = &launches[i];
        char why[256] = "";
        if (check_launch(gpu, l->k, l->grid, l->block, l->nodes, l->rows, l->stages, why, sizeof why)) {
            CHECK(why[0] && !l->own, "%s %s %s refused block %dx%dx%d, %d rows, %d stages (%s): %s", l->k->variant,
                  l->k->scheme, component_names[l->k->component], l->block[0], l->block[1], l->block[2], l->rows,
                  l->stages, l->own ? "its own default" : "no reason", why);
            continue;
        }
        if (verify(l->k, l->grid, l->block, l->nodes, l->rows, l->stages)) {
            failures++;
            continue;
        }
        verified_launches++, tiled += l->tiling;
        if (verified) verified[l->k - gpu_kernel_table]++;
    }
    for (int i = 0; verified && i < gpu_kernel_table_len; i++) {
        const struct kernel_entry *k = &gpu_kernel_table[i];
        CHECK(verified[i] >= 3, "%s %s %s %s %s: only %d launches verified", k->variant, k->scheme,
              component_names[k->component], precision_names[k->precision], coef_names[k->coef], verified[i]);
    }
    free(verified);
    printf("  %d kernels, %d launches verified on %dx%dx%d and %dx%dx%d: %d mismatches\n", gpu_kernel_table_len,
           verified_launches, verify_grid[0], verify_grid[1], verify_grid[2], aligned_grid[0], aligned_grid[1],
           aligned_grid[2], failures);
    printf("  tiled variants: %d of them at each row count and pipeline depth they take, and 33x3 and 40x3 tiles\n", tiled);
}

/* NVRTC's code computes what nvcc's computes from the same source (make kernel's): each tiled
 * kernel (every scheme, component, precision and storage) at its default launch, on the same
 * random inputs, output compared bit for bit with the kernel nvcc compiles where nvcc is found
 * (FDTDBENCH_TEST_NVCC, rtc.c). */
void gpu_kernels_forget(void); /* launch.c */

static int run_on_inputs(const struct kernel_entry *k, double *out)
{
    const struct scheme *s = scheme_find(k->scheme);
    enum { MAX_ARRAYS = 2 * MAX_LEVELS + MAX_GROUPS + 2 };
    const int *g = verify_grid;
    const size_t cells = grid_values(g), size = k->precision == F32 ? 4 : 8;
    void *arr[MAX_ARRAYS] = {0};
    struct kernel_args a = {.nx = g[0], .ny = g[1], .nz = g[2], .block = {k->traits.block[0], k->traits.block[1],
                            k->traits.block[2]}, .nodes = k->traits.nodes};
    grid_strides(g, &a.sy, &a.sz);
    int n = 0;
    for (int i = 0; i < s->levels + 2 + (k->coef == COEF_ARRAY ? s->levels + s->ngroups : 0); i++) {
        if (!(arr[n] = gpu->alloc(cells * size))) return -1;
        gpu->fill_random(arr[n], cells, k->precision, 100 + n, -1, 1), n++;
    }
    int at = 0;
    for (int l = 0; l < s->levels; l++) a.level[l] = arr[at++], a.da_u[l] = 0.9;
    a.out = (void *)a.level[s->levels - 1], a.plus = arr[at++], a.minus = arr[at++];
    for (int g2 = 0; g2 < s->ngroups; g2++) a.db_u[g2] = 0.3;
    for (int l = 0; k->coef == COEF_ARRAY && l < s->levels; l++) a.da[l] = arr[at++];
    for (int g2 = 0; k->coef == COEF_ARRAY && g2 < s->ngroups; g2++) a.db[g2] = arr[at++];
    char why[256];
    int rc = gpu->run_once(k->fn, &a, why, sizeof why);
    void *host = malloc(cells * size);
    if (!rc && host) {
        gpu->download(host, a.out, cells * size);
        for (size_t c = 0; c < cells; c++) out[c] = size == 4 ? ((float *)host)[c] : ((double *)host)[c];
    }
    free(host);
    for (int i = 0; i < n; i++) gpu->release(arr[i]);
    return rc || !host ? -1 : 0;
}

static void test_nvrtc_matches_nvcc(void)
{
    NEED_GPU();
    const char *nvcc = getenv("NVCC_PATH");
    if (!nvcc || !nvcc[0]) SKIP("no nvcc to compare with (NVCC_PATH unset: run.sh sets it where nvcc is on the PATH)");
    const int *g = verify_grid;
    const size_t cells = grid_values(g);
    int n = 0, differ = 0, idx[4 * MAX_SCHEMES * NCOMPONENTS];
    for (int i = 0; i < gpu_kernel_table_len && n < 4 * MAX_SCHEMES * NCOMPONENTS; i++)
        if (!strcmp(gpu_kernel_table[i].variant, "tile25d")) idx[n++] = i;
    double *ref = malloc(sizeof(double) * cells * (size_t)n), *got = malloc(sizeof(double) * cells);
    CHECK(ref && got && n > 0, "%d tile25d kernels, or out of memory", n);
    if (!ref || !got || !n) {
        free(ref), free(got);
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        if (pass) setenv("FDTDBENCH_TEST_NVCC", nvcc, 1), gpu_kernels_forget();
        nlaunches = 0;
        for (int i = 0; i < n; i++) {
            const struct kernel_entry *k = &gpu_kernel_table[idx[i]];
            add(k, verify_grid, k->traits.block, k->traits.nodes, 0, 0, 1, 0);
        }
        compile_launches();
        for (int i = 0; i < n; i++) {
            const struct kernel_entry *k = &gpu_kernel_table[idx[i]];
            double *out = pass ? got : ref + (size_t)i * cells;
            CHECK(run_on_inputs(k, out) == 0, "%s %s %s %s: did not run", k->scheme, component_names[k->component],
                  precision_names[k->precision], coef_names[k->coef]);
            if (pass && memcmp(got, ref + (size_t)i * cells, sizeof(double) * cells)) {
                differ++;
                CHECK(0, "%s %s %s %s: NVRTC's and nvcc's outputs differ", k->scheme, component_names[k->component],
                      precision_names[k->precision], coef_names[k->coef]);
            }
        }
    }
    unsetenv("FDTDBENCH_TEST_NVCC"), gpu_kernels_forget();
    printf("  %d tile25d kernels: NVRTC's and nvcc's outputs identical in %d\n", n, n - differ);
    free(ref), free(got);
}

/* A new GPU works first time: every variant's default launch (its traits, else the paper's
 * shape) is one it accepts on the default grid. */
static void test_default_launches_accepted(void)
{
    NEED_GPU();
    static const int grid[3] = {512, 512, 512}, paper[3] = {32, 2, 3};
    for (int i = 0; i < gpu_kernel_table_len; i++) {
        const struct kernel_entry *k = &gpu_kernel_table[i];
        const int *block = k->traits.block[0] ? k->traits.block : paper;
        char why[256] = "";
        CHECK(check_launch(gpu, k, grid, block, k->traits.nodes, k->traits.rows, k->traits.stages, why, sizeof why) == 0,
              "%s %s %s: default %dx%dx%d: %s", k->variant, k->scheme, component_names[k->component], block[0],
              block[1], block[2], why);
    }
}

/* A launch's occupancy (the occupancy_pct column) is a share of the SM, and a deeper pipeline, more
 * shared memory a block, leaves at most as many warps as a shallower one. */
static void test_occupancy_reported(void)
{
    NEED_GPU();
    const struct kernel_entry *k = kernel_find(DEV_GPU, "fv24", HX, F32, COEF_ARRAY, "tile25d");
    CHECK(k && gpu->occupancy_pct, "no fv24 hx f32 array tile25d kernel, or no occupancy_pct");
    if (!k || !gpu->occupancy_pct) return;
    struct kernel_args a;
    launch_geometry(&a, verify_grid, k->traits.block, k->traits.nodes, 1, 1);
    const double shallow = gpu->occupancy_pct(k, &a);
    launch_geometry(&a, verify_grid, k->traits.block, k->traits.nodes, 1, 3);
    const double deep = gpu->occupancy_pct(k, &a);
    CHECK(shallow > 0 && shallow <= 100, "occupancy %g%% at 1 stage", shallow);
    CHECK(deep > 0 && deep <= shallow, "occupancy %g%% at 3 stages against %g%% at 1", deep, shallow);
}

/* More than 65535 blocks along y, then along z: the baseline kernels must loop over the rest. */
static void test_grid_beyond_block_limits(void)
{
    NEED_GPU();
    static const int grids[][3] = {{3, 65600, 2}, {3, 2, 65600}}, block[3] = {32, 1, 1};
    static const char *const variants[] = {"baseline", "linear"};
    for (int v = 0; v < 2; v++)
        for (int g = 0; g < 2; g++) {
            const struct kernel_entry *k = kernel_find(DEV_GPU, "yee", HX, F32, COEF_ARRAY, variants[v]);
            CHECK(k, "no yee hx f32 array %s kernel", variants[v]);
            if (k) verify(k, grids[g], block, 1, 0, 0);
        }
}

static void test_check_block(void)
{
    NEED_GPU();
    static const int good[][3] = {{32, 2, 3}, {1024, 1, 1}, {1, 1, 64}, {4, 4, 4}};
    static const int bad[][3] = {{0, 4, 4}, {-32, 2, 2}, {32, 8, 8}, {2048, 1, 1}, {1, 1, 128}, {1, 1025, 1}};
    char why[256];
    for (int i = 0; i < 4; i++) {
        why[0] = '\0';
        CHECK(gpu->check_block(good[i], why, sizeof why) == 0, "%dx%dx%d refused: %s", good[i][0], good[i][1],
              good[i][2], why);
    }
    for (int i = 0; i < 6; i++) {
        why[0] = '\0';
        CHECK(gpu->check_block(bad[i], why, sizeof why) == -1 && why[0], "%dx%dx%d accepted", bad[i][0], bad[i][1],
              bad[i][2]);
    }
}

/* A launch CUDA refuses comes back as -1 with a reason; a good one times to a positive figure. */
static void test_launch_failures_reported(void)
{
    NEED_GPU();
    const struct kernel_entry *k = kernel_find(DEV_GPU, "yee", HX, F32, COEF_UNIFORM, "baseline");
    CHECK(k, "no yee hx f32 uniform baseline kernel");
    if (!k) return;
    const int n[3] = {16, 16, 16};
    const size_t cells = grid_values(n);
    long sy, sz;
    grid_strides(n, &sy, &sz);
    void *f[3];
    for (int i = 0; i < 3; i++) {
        f[i] = gpu->alloc(cells * sizeof(float));
        CHECK(f[i], "alloc failed");
        if (!f[i]) return;
        gpu->fill_random(f[i], cells, F32, 7 + i, -1, 1);
    }
    struct kernel_args a = {.nx = n[0], .ny = n[1], .nz = n[2], .sy = sy, .sz = sz, .out = f[0], .level = {f[0]},
                            .plus = f[1], .minus = f[2], .da_u = {1}, .db_u = {0.5}, .block = {64, 64, 1}};
    char why[256] = "";
    double ms[3] = {0, 0, 0};
    CHECK(gpu->run_once(k->fn, &a, why, sizeof why) == -1 && why[0], "a 4096-thread block launched");
    why[0] = '\0';
    CHECK(gpu->time_kernel(k->fn, &a, 1, 2, 3, ms, why, sizeof why) == -1 && why[0], "a 4096-thread block timed");
    a.block[0] = 8, a.block[1] = 4, a.block[2] = 2;
    CHECK(gpu->time_kernel(k->fn, &a, 1, 4, 3, ms, why, sizeof why) == 0, "timing failed: %s", why);
    for (int s = 0; s < 3; s++) CHECK(ms[s] > 0 && ms[s] < 1e3, "sample %d: %g ms", s, ms[s]);
    for (int i = 0; i < 3; i++) gpu->release(f[i]);
}

/* The same (seed, index) gives the same value whatever the launch, inside [lo, hi). */
static void test_fill_random(void)
{
    NEED_GPU();
    enum { N = 1000003 };
    double *dev = gpu->alloc(N * sizeof(double)), *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
    CHECK(dev && x && y, "alloc failed");
    if (dev && x && y) {
        gpu->fill_random(dev, N, F64, 5, -2, 3);
        gpu->download(x, dev, N * sizeof(double));
        gpu->fill_random(dev, N, F64, 5, -2, 3);
        gpu->download(y, dev, N * sizeof(double));
        int same = !memcmp(x, y, N * sizeof(double)), inside = 1, distinct = 0;
        for (int i = 0; i < N; i++) inside &= x[i] >= -2 && x[i] < 3, distinct += i && x[i] != x[i - 1];
        CHECK(same, "two fills with one seed differ");
        CHECK(inside, "values outside [-2, 3)");
        CHECK(distinct > N - 10, "only %d neighbours differ", distinct);
        gpu->fill_random(dev, N, F64, 6, -2, 3);
        gpu->download(y, dev, N * sizeof(double));
        CHECK(memcmp(x, y, N * sizeof(double)), "seeds 5 and 6 gave the same values");
    }
    if (dev) gpu->release(dev);
    free(x), free(y);
}

static void test_bandwidth_probe(void)
{
    NEED_GPU();
    struct bandwidth bw = {0};
    gpu->probe_bandwidth(&bw, 3);
    printf("  %s %.1f GB/s, %s %.1f GB/s, arrays of %zu MiB\n", bw.copy_name, bw.copy_gbs, bw.second_name,
           bw.second_gbs, bw.bytes >> 20);
    /* From a laptop GPU to beyond any HBM today: anything else is a wrong count or timer. */
    CHECK(bw.copy_gbs > 20 && bw.copy_gbs < 50000, "copy kernel %g GB/s", bw.copy_gbs);
    CHECK(bw.second_gbs > 20 && bw.second_gbs < 50000, "cudaMemcpy %g GB/s", bw.second_gbs);
    CHECK(bw.best_gbs == (bw.copy_gbs > bw.second_gbs ? bw.copy_gbs : bw.second_gbs), "best is not the better");
    CHECK(bw.bytes >= (1 << 20) && bw.copy_name && bw.second_name, "probe description incomplete");
    /* A one-pass sample reuses the kept arrays (measure.c interleaves them with kernel samples). */
    struct bandwidth one = {0};
    gpu->probe_bandwidth(&one, 1);
    CHECK(one.bytes == bw.bytes && one.best_gbs > 20 && one.best_gbs < 50000, "one-pass sample %g GB/s", one.best_gbs);
}

int main(void)
{
    gpu = gpu_backend();
    if (gpu->available(no_gpu, sizeof no_gpu)) no_gpu[0] = '\0';
    else if (!no_gpu[0]) snprintf(no_gpu, sizeof no_gpu, "GPU not usable (no reason given)");
    RUN(test_available);
    RUN(test_kernel_table_complete);
    RUN(test_every_kernel_matches_reference);
    RUN(test_nvrtc_matches_nvcc);
    RUN(test_default_launches_accepted);
    RUN(test_occupancy_reported);
    RUN(test_grid_beyond_block_limits);
    RUN(test_check_block);
    RUN(test_launch_failures_reported);
    RUN(test_fill_random);
    RUN(test_bandwidth_probe);
    return TEST_SUMMARY();
}
