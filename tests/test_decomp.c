/* A grid split into slabs along z (engine/decomp.c): the step split into 2, 3 and 5 slabs of
 * unequal sizes (none a multiple of a tile) equals the undivided step cell by cell, for every
 * scheme, precision, storage and boundary, in both schedules, and with a CPML; a missing
 * exchange is caught; the halo depth each spec asks for; bad input refused before anything is
 * allocated. On the CPU here (the copy transport); on a GPU, where there is one, the same on it
 * (slabs of one GPU, and one GPU a slab through NCCL where there are several). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decomp.h"
#include "design.h"
#include "transport.h"
#include "wave.h"

enum { NCOEF = sizeof coef_names / sizeof coef_names[0] };
/* Rows of 9 and planes of 7 (no CPU tile of 4 rows by 3 planes divides them), 23 planes: slabs of
 * 12 + 11, 8 + 8 + 7, 5 + 5 + 5 + 4 + 4. */
static const int grid[3] = {9, 7, 23};
static const int slab_counts[3] = {2, 3, 5};

static struct decomp_config config(const struct backend *b, const struct scheme *s, double *w, const char *variant)
{
    char err[256];
    if (scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err)) {
        printf("  %s: %s\n", s->name, err);
        exit(1);
    }
    /* CPU tiles of 4 rows by 3 planes; a GPU block every variant takes (tiled ones: flat, 32 wide) */
    struct decomp_config d = {.c = {.b = b, .s = s, .w = w, .variant = variant, .grid = {grid[0], grid[1], grid[2]},
                                    .courant = 0.9 * stability_limit(s, w), .block = {b->device == DEV_CPU ? 0 : 32, 4,
                                                                                       b->device == DEV_CPU ? 3 : 1}}};
    return d;
}

/* Span 1/2 along z reads one plane on one side (H below, E above: Yee), span 3/2 two on that
 * side and one on the other; the transverse shifts of FV24 reach one plane both ways. */
static void test_depth_from_spec(void)
{
    static const struct {
        const char *scheme;
        int h[2], e[2]; /* an H field's planes below and above; an E field's (x and y components) */
    } want[] = {{"yee", {1, 0}, {0, 1}}, {"s44", {2, 1}, {1, 2}}, {"s22", {2, 1}, {1, 2}}, {"fv24", {2, 1}, {1, 2}}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct scheme *s = scheme_find(want[i].scheme);
        if (!s) continue;
        for (int comp = 0; comp < NCOMPONENTS; comp++) {
            int depth[2];
            decomp_depth(s, comp, depth);
            const int *w = comp < 3 ? want[i].h : want[i].e;
            if (comp % 3 == 2) /* Hz and Ez: differentiated along x and y only, shifted along z by FV24 */
                CHECK(depth[0] <= 1 && depth[1] <= 1, "%s %s: %d below, %d above", s->name, component_names[comp],
                      depth[0], depth[1]);
            else
                CHECK(depth[0] == w[0] && depth[1] == w[1], "%s %s: %d planes below and %d above, not %d and %d",
                      s->name, component_names[comp], depth[0], depth[1], w[0], w[1]);
        }
    }
    for (int i = 0; i < scheme_count(); i++)
        for (int comp = 0; comp < NCOMPONENTS; comp++) {
            int depth[2];
            decomp_depth(scheme_at(i), comp, depth);
            CHECK(depth[0] <= HALO && depth[1] <= HALO, "%s %s reaches %d and %d planes: beyond the halo",
                  scheme_at(i)->name, component_names[comp], depth[0], depth[1]);
        }
}

static void test_slabs_cover_the_grid(void)
{
    for (int nz = 4; nz < 40; nz++)
        for (int slabs = 1; slabs <= nz / 4; slabs++) {
            int next = 0, lo = nz, hi = 0;
            for (int s = 0; s < slabs; s++) {
                int z0, planes;
                decomp_slab(nz, slabs, s, &z0, &planes);
                CHECK(z0 == next, "nz %d in %d: slab %d starts at %d, not %d", nz, slabs, s, z0, next);
                next = z0 + planes;
                lo = planes < lo ? planes : lo, hi = planes > hi ? planes : hi;
            }
            CHECK(next == nz && hi - lo <= 1, "nz %d in %d slabs: ends at %d, sizes %d to %d", nz, slabs, next, lo, hi);
        }
}

/* Yee f32 on 10x10x20 in 2 slabs: Hx, Hy, Ex and Ey one plane deep, one way (Hz and Ez are not
 * differentiated along z), of 14 rows of 16 values (14 padded to kernel.h's GRID_ROW_VALUES), 4
 * bytes: 3584 bytes a face per step; the periodic box has two faces. */
static void test_halo_bytes(void)
{
    const struct scheme *yee = scheme_find("yee");
    if (!yee) SKIP("yee is not built in");
    struct decomp_config d = {.c = {.s = yee, .precision = F32, .grid = {10, 10, 20}, .boundary = BOUNDARY_PEC},
                              .slabs = 2};
    CHECK(decomp_halo_bytes(&d) == 3584, "PEC, 2 slabs: %g bytes", decomp_halo_bytes(&d));
    d.c.boundary = BOUNDARY_PERIODIC;
    CHECK(decomp_halo_bytes(&d) == 2 * 3584, "periodic, 2 slabs: %g bytes", decomp_halo_bytes(&d));
    d.slabs = 1;
    CHECK(decomp_halo_bytes(&d) == 0, "one slab: %g bytes", decomp_halo_bytes(&d));
}

/* Every scheme x storage x boundary in each slab count, in both schedules (variants[0] whole,
 * variants[1] overlapped), the precision alternating over the counts (so each scheme, storage and
 * boundary meets both): identical to the undivided step (the same kernels on the same inputs). */
static int compare_all(const struct backend *b, const char *const variants[2], int per_gpu, const int *counts,
                       int ncounts, double *worst_all)
{
    int compared = 0;
    for (int i = 0; i < scheme_count(); i++)
        for (int coef = 0; coef < NCOEF; coef++)
            for (int bc = 0; bc < NBOUNDARIES; bc++)
                for (int x = 0; x < ncounts; x++)
                    for (int overlap = 0; overlap < 2; overlap++) {
                        const int p = (i + coef + bc + x) % 2;
                        double w[MAX_GROUPS], worst;
                        char why[768];
                        struct decomp_config d = config(b, scheme_at(i), w, variants[overlap]);
                        d.c.precision = p, d.c.coef = coef, d.c.boundary = bc, d.slabs = counts[x];
                        d.per_gpu = per_gpu, d.overlap = overlap;
                        if (!step_supported(&d.c)) continue;
                        int rc = decomp_compare(&d, 3, &worst, why, sizeof why);
                        CHECK(rc == 0, "%s", why);
                        CHECK(rc || b->device != DEV_CPU || worst == 0,
                              "%s %s %s %s %s in %d slabs: differs by %.3g of the field (the CPU's arithmetic is the "
                              "same: 0 expected)", scheme_at(i)->name, variants[overlap], precision_names[p],
                              coef_names[coef], boundary_names[bc], counts[x], worst);
                        *worst_all = fmax(*worst_all, worst);
                        compared++;
                    }
    return compared;
}

/* On one thread: on grids this small, waking a second thread for each launch costs more than
 * the launch (5 times the test's time on this 2-core machine), and the split does not depend on
 * how a launch shares its planes (test_step runs the kernels on every thread). */
static void test_split_equals_undivided(void)
{
    static const char *const variants[2] = {"plain", STEP_FUSED}; /* whole half-steps; overlapped */
    const struct backend *b = cpu_backend();
    double worst = 0;
    b->set_threads(1);
    int n = compare_all(b, variants, 0, slab_counts, 3, &worst);
    CHECK(n == scheme_count() * NCOEF * NBOUNDARIES * 3 * 2, "only %d combinations compared", n);
    printf("  %d combinations, 3 steps each: largest difference %.3g of the field\n", n, worst);
    static const char *const swapped[2] = {STEP_FUSED, "plain"};
    static const int three[1] = {3};
    worst = 0;
    n = compare_all(b, swapped, 0, three, 1, &worst);
    b->set_threads(0);
    printf("  the variants swapped, 3 slabs: %d combinations, largest difference %.3g\n", n, worst);
}

/* One slab runs the stepper's own schedule: a temporally blocked step's passes too (through the
 * split path's half-steps its kernels updated nothing, and timed an empty pass). */
static void test_one_slab_is_the_stepper(void)
{
    const struct backend *b = cpu_backend();
    const struct scheme *s = scheme_find("fv24");
    double w[MAX_GROUPS], worst = 1;
    char why[512];
    struct decomp_config d = config(b, s, w, "wave");
    d.slabs = 1, d.c.tsteps = 2, d.c.block[1] = 0, d.c.block[2] = 1;
    d.c.grid[2] = wave_rim_planes(s, 2) + 9;
    CHECK(decomp_compare(&d, 4, &worst, why, sizeof why) == 0, "%s", why);
    CHECK(worst == 0, "the wave step in one slab differs by %.3g of the field from the stepper's", worst);
}

/* A CPML: the x and y layers run through every slab, the z layer's faces are the end slabs'
 * (an open face's profile is zero); 2 cells on 12 x 12 x 30 (slabs of 6 at least). */
static void test_split_with_layer(void)
{
    static const int counts[2] = {2, 5};
    double worst = 0;
    int n = 0;
    cpu_backend()->set_threads(1);
    for (int i = 0; i < scheme_count(); i++)
        for (int x = 0; x < 2; x++) {
            const int coef = (i + x) % 2 ? COEF_INDEXED : COEF_ARRAY; /* each count meets both storages */
            double w[MAX_GROUPS], worst1;
            char why[768];
            struct decomp_config d = config(cpu_backend(), scheme_at(i), w, "plain");
            d.c.grid[0] = d.c.grid[1] = 12, d.c.grid[2] = 30;
            d.c.precision = F32, d.c.coef = coef, d.c.boundary = BOUNDARY_PEC, d.slabs = counts[x];
            d.c.pml = 2, d.c.pml_order = 3;
            CHECK(decomp_compare(&d, 3, &worst1, why, sizeof why) == 0, "%s", why);
            CHECK(worst1 == 0, "%s with a layer in %d slabs: differs by %.3g", scheme_at(i)->name, counts[x], worst1);
            worst = fmax(worst, worst1);
            n++;
        }
    cpu_backend()->set_threads(0);
    printf("  %d combinations with a 2-cell layer: largest difference %.3g\n", n, worst);
}

/* A backend whose copy copies nothing: the slabs' halo planes go stale, which the comparison
 * must catch; as must a schedule that updates the planes but exchanges nothing. */
static void no_copy(void *dst, const void *src, size_t bytes) { (void)dst, (void)src, (void)bytes; }

static void test_missing_exchange_is_caught(void)
{
    struct backend stale = *cpu_backend();
    stale.copy = no_copy;
    for (int overlap = 0; overlap < 2; overlap++)
        for (int bc = 0; bc < NBOUNDARIES; bc++) {
            double w[MAX_GROUPS], worst;
            char why[768] = "";
            struct decomp_config d = config(&stale, scheme_at(0), w, "plain");
            d.c.precision = F64, d.c.boundary = bc, d.slabs = 3, d.overlap = overlap;
            CHECK(decomp_compare(&d, 3, &worst, why, sizeof why) != 0 && strstr(why, "slabs"),
                  "%s, %s: a grid whose slabs exchange nothing passed", boundary_names[bc], overlap ? "overlap" : "whole");
        }
}

static void test_bad_input_refused(void)
{
    double w[MAX_GROUPS];
    char why[512];
    struct decomp_config d = config(cpu_backend(), scheme_at(0), w, "plain");
    d.slabs = 6; /* 23 planes: slabs of 3 */
    CHECK(decomp_check(&d, 0, why, sizeof why) && strstr(why, "thinner than the 4"), "6 slabs of 23 planes: %s", why);
    d.slabs = 0;
    CHECK(decomp_check(&d, 0, why, sizeof why) && strstr(why, "from 1 to"), "0 slabs: %s", why);
    d.slabs = 2, d.per_gpu = 1;
    CHECK(decomp_check(&d, 0, why, sizeof why) && (strstr(why, "has 0 GPUs") || strstr(why, "NCCL")),
          "2 GPUs on the CPU: %s", why);
    d.per_gpu = 0, d.c.pml = 2, d.overlap = 1, d.c.boundary = BOUNDARY_PEC;
    CHECK(decomp_check(&d, 0, why, sizeof why) && strstr(why, "not with --pml"), "overlap with a layer: %s", why);
    d.overlap = 0, d.slabs = 3, d.c.pml = 3; /* slabs of 7: a third is 2 */
    CHECK(decomp_check(&d, 0, why, sizeof why) && strstr(why, "needs at least 9"), "3-cell layer in 7 planes: %s", why);
    d.c.pml = 0;
    CHECK(decomp_check(&d, 1000, why, sizeof why) && strstr(why, "more than 80%"), "1000 bytes of memory: %s", why);
    CHECK(decomp_check(&d, (size_t)1 << 30, why, sizeof why) == 0, "a small grid in 1 GiB: %s", why);
}

/* On a GPU: slabs of one GPU copied (every GPU variant's sub-plane launches and open faces), and
 * one GPU a slab through NCCL where there are several. */
static void test_gpu_split(void)
{
    const struct backend *b = gpu_backend();
    char why[512];
    if (!b->available(why, sizeof why)) SKIP("%s", why);
    const char *fused[8];
    const int nf = step_fused_variants(DEV_GPU, fused, 8);
    for (int v = 0; v < nf; v++) {
        if (step_temporal(DEV_GPU, fused[v])) continue; /* not split: decomp_check refuses it */
        const char *variants[2] = {"baseline", fused[v]};
        double worst = 0;
        int n = compare_all(b, variants, 0, slab_counts, 3, &worst);
        printf("  one GPU, baseline whole and %s overlapped: %d combinations, largest difference %.3g\n", fused[v], n,
               worst);
    }
    const int gpus = b->devices();
    if (gpus < 2 || !nccl_available(why, sizeof why)) {
        printf("  NCCL across GPUs not tried: %d GPU%s%s%s\n", gpus, gpus == 1 ? "" : "s", gpus < 2 ? "" : ", ",
               gpus < 2 ? "" : why);
        return;
    }
    printf("  %s\n", why);
    const int counts[2] = {2, gpus};
    for (int v = 0; v < nf; v++) {
        if (step_temporal(DEV_GPU, fused[v])) continue;
        const char *variants[2] = {fused[v], fused[v]};
        double worst = 0;
        int n = compare_all(b, variants, 1, counts, 2, &worst);
        printf("  NCCL, %d and %d GPUs, %s: %d combinations, largest difference %.3g\n", 2, gpus, fused[v], n, worst);
    }
}

int main(void)
{
    RUN(test_depth_from_spec);
    RUN(test_slabs_cover_the_grid);
    RUN(test_halo_bytes);
    RUN(test_split_equals_undivided);
    RUN(test_one_slab_is_the_stepper);
    RUN(test_split_with_layer);
    RUN(test_missing_exchange_is_caught);
    RUN(test_bad_input_refused);
    RUN(test_gpu_split);
    return TEST_SUMMARY();
}
