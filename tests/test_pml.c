/* The CPML (engine/pml.h): which terms take an auxiliary field, the grading, the layer's bytes;
 * every scheme's layer kernels against the double-precision reference step; and the layer's
 * reflection for every scheme (sim_pml_reflection): below PML_REFLECTION_TARGET_DB for a
 * PML_TARGET_THICKNESS-cell layer, falling as the layer thickens, and high for a one-cell layer
 * (the measurement sees a reflection where there is one). CPU, and the GPU's kernels where a GPU
 * is usable (skipped, saying why, where not). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "design.h"
#include "layer.h"
#include "pml.h"
#include "simulate.h"
#include "step.h"

enum { NCOEF = sizeof coef_names / sizeof coef_names[0] };

static struct step_config config(const struct backend *b, const struct scheme *s, double *w, const char *variant)
{
    char err[256];
    if (scheme_weights(s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, err, sizeof err)) {
        printf("  %s: %s\n", s->name, err);
        exit(1);
    }
    struct step_config c = {.b = b, .s = s, .w = w, .variant = variant, .grid = {13, 11, 10},
                            .courant = 0.9 * stability_limit(s, w), .boundary = BOUNDARY_PEC, .pml = 3,
                            .pml_order = PML_ORDER_DEFAULT};
    return c;
}

/* Every curl term of every component is corrected in exactly one slab, the one normal to its
 * derivative's axis, and the terms a pass corrects are its half-step's. */
static void test_layer_terms(void)
{
    int seen[NCOMPONENTS][2] = {{0}};
    for (int first = HX; first <= EX; first += EX - HX)
        for (int axis = 0; axis < 3; axis++) {
            struct layer_term t[LAYER_TERMS];
            layer_terms(first, axis, t);
            for (int q = 0; q < LAYER_TERMS; q++) {
                int plus, pa, minus, ma;
                component_sources(t[q].component, &plus, &pa, &minus, &ma);
                CHECK(t[q].component >= first && t[q].component < first + 3, "term of %s in the half-step from %s",
                      component_names[t[q].component], component_names[first]);
                CHECK((t[q].minus ? ma : pa) == axis && t[q].source == (t[q].minus ? minus : plus),
                      "%s's %s term is not differentiated along %c", component_names[t[q].component],
                      t[q].minus ? "minus" : "plus", "xyz"[axis]);
                seen[t[q].component][t[q].minus]++;
            }
        }
    for (int c = 0; c < NCOMPONENTS; c++)
        CHECK(seen[c][0] == 1 && seen[c][1] == 1, "%s: plus term corrected %d times, minus %d", component_names[c],
              seen[c][0], seen[c][1]);
}

/* The grading: nothing at the inner face, kappa growing to the wall, the same on both faces
 * (mirror images: a half-node field's cells are symmetric about the middle, an integer-node
 * field's about the middle node), kappa >= 1, 0 < b <= 1, c < 0 inside, for every order. */
static void test_profile(void)
{
    enum { N = 6, n = 30 };
    double k[2 * N], b[2 * N], c[2 * N];
    for (int order = PML_ORDER_MIN; order <= PML_ORDER_MAX; order++)
        for (int half = 0; half < 2; half++) {
            pml_profile(N, order, 0.5, n, half, k, b, c);
            for (int s = 0; s < 2 * N; s++) {
                CHECK(k[s] <= 0 && k[s] > -1 && b[s] > 0 && b[s] <= 1 && (c[s] < 0 || (!half && s == N)),
                      "order %d half %d cell %d: kinv1 %g b %g c %g", order, half, s, k[s], b[s], c[s]);
                int deeper = s < N ? s - 1 : s + 1; /* towards the wall */
                if (deeper >= 0 && deeper < 2 * N)
                    CHECK(k[deeper] < k[s], "order %d half %d: kappa not graded at cell %d", order, half, s);
                /* the mirror image of grid cell i is n - 1 - i (half nodes) or n - i (integer nodes) */
                int i = layer_cell(s, N, n), image = half ? n - 1 - i : n - i, mirror = layer_slab(image, N, n);
                if (image < n && mirror >= 0)
                    CHECK(fabs(c[s] - c[mirror]) < 1e-12 && fabs(b[s] - b[mirror]) < 1e-12,
                          "order %d half %d: cells %d and %d differ", order, half, s, mirror);
            }
            /* the cell at the inner face: sigma 0 there (integer nodes: the high face's first cell) */
            if (!half) CHECK(c[N] == 0 && k[N] == 0, "order %d: the high face's inner node is not plain", order);
        }
}

/* Bytes: each pass's cells once per half-step and axis, at layer_counts' bytes; the step's floor
 * adds the auxiliary fields read and written once. */
static void test_layer_bytes(void)
{
    const int grid[3] = {40, 30, 20}, N = 5;
    const struct scheme *s = scheme_find("fv24");
    double slab = 2.0 * N * (30 * 20 + 40 * 20 + 40 * 30); /* cells of the three slabs */
    struct counts k = layer_counts(s, F32, COEF_ARRAY);
    CHECK(k.compulsory_bytes == 2 * (5 + 4) * 4, "fv24 f32 array layer cell: %d bytes", k.compulsory_bytes);
    CHECK(layer_counts(s, F32, COEF_UNIFORM).compulsory_bytes == 2 * 5 * 4, "uniform");
    CHECK(layer_counts(s, F64, COEF_INDEXED).compulsory_bytes == 2 * 5 * 8 + 1, "indexed");
    CHECK(pml_psi_cells(grid, N) == 4 * slab, "psi cells %g, expected %g", pml_psi_cells(grid, N), 4 * slab);
    CHECK(pml_layer_bytes(s, F32, COEF_ARRAY, grid, N, 0) == 2 * slab * k.compulsory_bytes, "layer bytes");
    /* x folded into an update: its slab moves the two terms' psi, read and written */
    const double x_slab = 2.0 * N * 30 * 20, folded = 2 * (x_slab * 2 * 2 * 4 + (slab - x_slab) * k.compulsory_bytes);
    CHECK(pml_layer_bytes(s, F32, COEF_ARRAY, grid, N, 1) == folded, "layer bytes, x folded: %g, expected %g",
          pml_layer_bytes(s, F32, COEF_ARRAY, grid, N, 1), folded);
    /* every axis folded (trait layer_fold): psi alone */
    CHECK(pml_layer_bytes(s, F32, COEF_ARRAY, grid, N, 3) == 2 * slab * 2 * 2 * 4, "layer bytes, all folded: %g",
          pml_layer_bytes(s, F32, COEF_ARRAY, grid, N, 3));
    double w[MAX_GROUPS];
    struct step_config c = config(cpu_backend(), s, w, "plain");
    memcpy(c.grid, grid, sizeof c.grid);
    c.pml = N;
    double cells = 40.0 * 30 * 20, psi = 4 * slab / cells * 4;
    CHECK(fabs(step_moved_bytes(&c) - step_compulsory_bytes(s, F32, COEF_ARRAY) - 2 * psi) < 1e-9, "moved bytes");
    CHECK(fabs(step_memory_bytes(&c) - step_bytes_per_cell(s, F32, COEF_ARRAY) - psi) < 1e-9, "memory bytes");
    c.pml = 0;
    CHECK(step_layer_bytes(&c) == 0 && step_moved_bytes(&c) == step_compulsory_bytes(s, F32, COEF_ARRAY), "no layer");
}

/* A layer the engine cannot have is refused before anything is allocated. */
static void test_bad_layer(void)
{
    double w[MAX_GROUPS];
    char why[256];
    struct step_config c = config(cpu_backend(), scheme_find("yee"), w, "plain");
    struct { int pml, order, boundary; const char *says; } bad[] = {
        {4, 3, BOUNDARY_PEC, "a third of its smallest side (3)"},
        {-1, 3, BOUNDARY_PEC, "from 0"},
        {3, 0, BOUNDARY_PEC, "grading order 0"},
        {3, 7, BOUNDARY_PEC, "grading order 7"},
        {3, 3, BOUNDARY_PERIODIC, "ends on PEC walls"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c.pml = bad[i].pml, c.pml_order = bad[i].order, c.boundary = bad[i].boundary;
        struct stepper *m = step_open(&c, why, sizeof why);
        CHECK(!m && strstr(why, bad[i].says), "pml %d order %d %s: %s", bad[i].pml, bad[i].order,
              boundary_names[bad[i].boundary], m ? "opened" : why);
        step_close(m);
    }
}

/* Every scheme, variant (of nv), precision and storage (with f32_array, f32 and array storage
 * only) on backend b: three steps with a three-cell layer (slabs, edges and corners, both faces of
 * every axis) against the reference step, cell by cell, at GPU block `block` (NULL: the CPU's
 * default), the second variant (fused) at `nodes` nodes along z (0: the default). A combination
 * the device has no kernels for is skipped on a GPU (its baseline has no indexed storage) and fails
 * on the CPU. */
static void verify_layers(const struct backend *b, const char *const *variants, int nv, const int block[3], int nodes,
                          int f32_array)
{
    int checked = 0;
    double worst_all = 0;
    for (int i = 0; i < scheme_count(); i++)
        for (int v = 0; v < nv; v++)
            for (int p = F32; p <= (f32_array ? F32 : F64); p++)
                for (int coef = COEF_ARRAY; coef < (f32_array ? COEF_ARRAY + 1 : NCOEF); coef++) {
                    double w[MAX_GROUPS], worst;
                    char why[512];
                    struct step_config c = config(b, scheme_at(i), w, variants[v]);
                    c.precision = p, c.coef = coef, c.nodes = v == 1 ? nodes : 0;
                    if (block) memcpy(c.block, block, sizeof c.block);
                    if (b->device != DEV_CPU && !step_supported(&c)) continue;
                    CHECK(step_verify(&c, 3, &worst, why, sizeof why) == 0, "%s %s: %s", device_names[b->device],
                          variants[v], why);
                    worst_all = fmax(worst_all, worst);
                    checked++;
                }
    printf("  %s %s%s: %d combinations, 3 steps each: largest error %.3f of its carried bound\n", device_names[b->device],
           variants[0], nv > 1 ? " ..." : "", checked, worst_all);
}

/* Every scheme's reflection (sim_pml_reflection, f32) on backend b for each of n (1 or 2) thicknesses,
 * thinnest first: the thickest, PML_TARGET_THICKNESS, below the target, and below the one before. */
static void check_reflections(const struct backend *b, const char *variant, const int block[3], const int *thickness,
                              int n, int reference_only)
{
    for (int i = 0; i < scheme_count(); i++) {
        double w[MAX_GROUPS], db[2];
        char why[512];
        if (reference_only && scheme_at(i) != scheme_reference()) continue;
        struct step_config c = config(b, scheme_at(i), w, variant);
        if (block) memcpy(c.block, block, sizeof c.block);
        printf("  %s %-8s", device_names[b->device], c.s->title);
        for (int t = 0; t < n; t++) {
            int steps;
            c.pml = thickness[t];
            CHECK(sim_pml_reflection(&c, &db[t], &steps, why, sizeof why) == 0, "%s: %s", c.s->name, why);
            printf(" %d cells: %6.1f dB (%d steps)", c.pml, db[t], steps);
        }
        printf("\n");
        CHECK(db[n - 1] < PML_REFLECTION_TARGET_DB, "%s %s: %d cells reflect %.1f dB, above %.0f",
              device_names[b->device], c.s->name, thickness[n - 1], db[n - 1], PML_REFLECTION_TARGET_DB);
        if (n > 1)
            CHECK(db[1] < db[0], "%s: %d cells reflect %.1f dB, %d cells %.1f dB", c.s->name, thickness[1], db[1],
                  thickness[0], db[0]);
    }
}

/* Every scheme, CPU variant, precision and storage against the reference step (the fused one at
 * two nodes along z a pass: its 10 planes in five passes). */
static void test_layer_matches_reference(void)
{
    static const char *const variants[2] = {"plain", STEP_FUSED};
    verify_layers(cpu_backend(), variants, 2, NULL, 2, 0);
}

/* The fused CPU step's x runs where the layer is thicker than a vector: nine cells, a whole
 * vector then a masked one in f32 (two whole ones in f64), every scheme and precision against
 * the reference step (the three-cell layer above has only the masked one). Under the sanitizers,
 * the reference scheme's only (each grid's kernels are compiled for its strides). */
static void test_layer_whole_vectors(void)
{
    const char *san = getenv("SAN");
    for (int i = 0; i < scheme_count(); i++)
        for (int p = 0; p < 2; p++) {
            double w[MAX_GROUPS], worst;
            char why[512];
            if (san && *san && scheme_at(i) != scheme_reference()) continue;
            struct step_config c = config(cpu_backend(), scheme_at(i), w, STEP_FUSED);
            static const int grid[3] = {29, 28, 27};
            memcpy(c.grid, grid, sizeof c.grid);
            c.precision = p, c.coef = COEF_UNIFORM, c.pml = 9, c.nodes = 2;
            CHECK(step_verify(&c, 3, &worst, why, sizeof why) == 0, "%s %s: %s", c.s->name, precision_names[p], why);
        }
}

/* The reflection of every scheme's layer on the CPU (all threads), 4 and 10 cells. */
static void test_reflection(void)
{
    static const int thickness[] = {4, PML_TARGET_THICKNESS};
    /* Under the sanitizers (make test SAN=...) the reference scheme's only: every scheme's layer
     * kernels are verified above, and the plain build measures every reflection; at -O0 with
     * AddressSanitizer the five schemes' simulations took two minutes of CI. */
    const char *san = getenv("SAN");
    check_reflections(cpu_backend(), "plain", NULL, thickness, 2, san && *san);
}

/* The measurement sees a reflection where there is one: a one-cell layer is barely a layer. */
static void test_thin_layer_reflects(void)
{
    double w[MAX_GROUPS], db;
    char why[512];
    int steps;
    struct step_config c = config(cpu_backend(), scheme_reference(), w, "plain");
    c.pml = 1;
    CHECK(sim_pml_reflection(&c, &db, &steps, why, sizeof why) == 0, "%s", why);
    printf("  %s, 1 cell: %.1f dB\n", c.s->title, db);
    CHECK(db > -20, "a one-cell layer reflects %.1f dB", db);
}

/* The GPU's layer kernels (kernels_gpu/cpml.cu.layer, compiled at run time), where a GPU is usable:
 * every scheme, precision and storage, three steps with a three-cell layer against the reference
 * step, after the fused variant (whose halo images the layer kernels keep: no refresh) and the
 * baseline (whose halo the engine refreshes; array and uniform storage, all it has); after
 * fused25d (images as fused's) in f32 with arrays, the bench's layer rows (its other kernels'
 * images are test_step's, and each is compiled apart: every storage would add minutes of NVRTC);
 * then every scheme's reflection, as test_reflection measures it on the CPU. */
static void test_gpu_layer(void)
{
    const struct backend *b = gpu_backend();
    static const char *const variants[2] = {"baseline", STEP_FUSED}, *const tiled[1] = {"fused25d"};
    static const int block[3] = {32, 4, 1}, thickness[1] = {PML_TARGET_THICKNESS};
    char why[512];
    if (!b->available(why, sizeof why)) SKIP("%s", why);
    verify_layers(b, variants, 2, block, 0, 0);
    verify_layers(b, tiled, 1, block, 0, 1);
    check_reflections(b, STEP_FUSED, block, thickness, 1, 0);
}

int main(void)
{
    RUN(test_layer_terms);
    RUN(test_profile);
    RUN(test_layer_bytes);
    RUN(test_bad_layer);
    RUN(test_layer_matches_reference);
    RUN(test_layer_whole_vectors);
    RUN(test_reflection);
    RUN(test_thin_layer_reflects);
    RUN(test_gpu_layer);
    return TEST_SUMMARY();
}
