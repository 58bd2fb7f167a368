#include "session.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "paper.h"
#include "step_measure.h"
#include "tuned.h"
#include "wave.h"

void session_open(struct session *s, enum device d)
{
    char why[256] = "";
    memset(s, 0, sizeof *s);
    s->device = d;
    s->b = device_backend(d);
    if (!s->b->available(why, sizeof why)) cli_error("the %s is not usable: %s", device_names[d], why);
    s->b->describe(&s->desc);
    machine_slug(&s->desc, d, s->slug, sizeof s->slug);
    s->bw_threads = -1;
}

void session_bandwidth(struct session *s, int threads)
{
    s->b->set_threads(threads);
    int t = s->b->threads();
    if (s->bw_threads == t) return;
    fprintf(stderr, "probing %s bandwidth%s...\n", device_names[s->device],
            s->device == DEV_CPU ? (t == 1 ? " on 1 thread" : " on all threads") : "");
    s->b->probe_bandwidth(&s->bw, 3); /* printed, not paired with rows: the best of three */
    s->bw_threads = t;
    fprintf(stderr, "  %s %.1f GB/s, %s %.1f GB/s (bytes read + written)\n", s->bw.copy_name, s->bw.copy_gbs,
            s->bw.second_name, s->bw.second_gbs);
}

void session_print(const struct session *s, FILE *f)
{
    fprintf(f, "%s: %s (%s)%s%s%s%s\n", device_names[s->device], s->desc.name, s->desc.detail,
            s->desc.driver[0] ? ", driver " : "", s->desc.driver, s->desc.simd[0] ? ", kernels " : "", s->desc.simd);
    if (s->bw_threads >= 0)
        fprintf(f, "measured bandwidth%s: %s %.1f GB/s, %s %.1f GB/s\n",
                s->device == DEV_CPU ? (s->bw_threads == 1 ? " (1 thread)" : " (all threads)") : "",
                s->bw.copy_name, s->bw.copy_gbs, s->bw.second_name, s->bw.second_gbs);
}

/* A GPU's tuned file is its name's; a CPU's is its name's, its kernels' vector extension and the
 * thread count: a VM may name only the vendor ("AMD EPYC"), and one so named ran AVX2 kernels one
 * day and AVX-512 the next, where the fastest tile and nodes differ. */
void session_tuned_slug(const struct session *s, int threads, char *out, size_t n)
{
    if (s->device == DEV_GPU) snprintf(out, n, "%s", s->slug);
    else
        snprintf(out, n, "%s-%.*s-%dt", s->slug, (int)strcspn(s->desc.simd, ":"), s->desc.simd,
                 threads > 0 ? threads : omp_get_num_procs()); /* as cpu_set_threads */
}

void session_tuned_path(const struct session *s, int threads, char *out, size_t n)
{
    char slug[160];
    session_tuned_slug(s, threads, slug, sizeof slug);
    tuned_path(slug, out, n);
}

/* A variant's declared default launch (its traits' block and nodes; nodes only where none were
 * given): 1 if it declares one, else 0. */
static int declared_launch(const struct variant_traits *t, int block[3], int *nodes)
{
    if (!t || !t->block[0]) return 0;
    memcpy(block, t->block, 3 * sizeof *block);
    if (!*nodes) *nodes = t->nodes;
    return 1;
}

void declared_tiling(const struct variant_traits *t, int *rows, int *stages)
{
    if (!*rows) *rows = t && t->rows ? t->rows : 1;
    if (!*stages) *stages = t ? t->stages : 0;
}

/* The launch a run uses where it was not given: with no block, the tuned one, else the variant's
 * declared default (its traits), else the paper's Table 3 shape with one node per thread; with
 * a block given, the variant's declared nodes per thread unless those were given too (a marching
 * variant's one node per thread is a launch nobody means). The CPU's default tile is whole rows
 * of one plane. Rows and pipeline depth not given nor tuned are the variant's declared ones, so
 * that the run records what it ran. */
void default_launch(const struct session *s, struct run_config *c)
{
    const struct kernel_entry *k = kernel_find(c->device, c->scheme->name, c->component, c->precision, c->coef, c->variant);
    int nodes = 1, rows = 0, stages = 0;
    char slug[128];
    session_tuned_slug(s, c->threads, slug, sizeof slug);
    if (c->block[0] || c->block[1]) { /* a GPU block, or a CPU tile (0xJxK) */
        if (!c->nodes && k) c->nodes = k->traits.nodes;
    } else if (tuned_block(slug, c->scheme->name, c->component, c->precision, c->coef, c->variant, c->grid, c->block,
                           &nodes, &rows, &stages, NULL) == 0) {
        if (!c->nodes) c->nodes = nodes;
        if (!c->rows) c->rows = rows;
        if (!c->stages) c->stages = stages;
        for (int d = 1; d < 3 && c->device == DEV_CPU; d++) /* a tile tuned on a larger grid: whole */
            if (c->block[d] * (d == 2 && c->nodes > 1 ? c->nodes : 1) > c->grid[d]) c->block[d] = d == 2;
    } else if (c->device == DEV_CPU) {
        c->block[0] = c->block[1] = 0, c->block[2] = 1;
        if (!c->nodes && k) c->nodes = k->traits.nodes;
    } else if (!declared_launch(k ? &k->traits : NULL, c->block, &c->nodes)) {
        const struct paper_scheme *p = paper_find(c->scheme->name);
        static const int fallback[3] = {32, 4, 2};
        memcpy(c->block, p ? p->best_block : fallback, sizeof c->block);
    }
    declared_tiling(k ? &k->traits : NULL, &c->rows, &c->stages);
}

void step_default_launch(const struct session *s, struct step_run *c)
{
    struct step_config *sc = &c->c;
    char tuned[64];
    snprintf(tuned, sizeof tuned, TUNED_STEP_PREFIX "%s", c->variant);
    int nodes = 1, rows = 0, stages = 0, regs = 0;
    const int given = sc->block[0] || sc->block[1]; /* a GPU block, or a CPU tile: nodes as given */
    char slug[128];
    session_tuned_slug(s, c->threads, slug, sizeof slug);
    if (step_temporal(s->device, sc->variant)) { /* its steps per pass (its tuned line's nodes) and tile */
        int block[3] = {0, 0, 1}, tsteps = step_default_tsteps(s->device, sc->variant); /* CPU: a plane a sweep step */
        const int found =
            !tuned_block(slug, sc->s->name, HX, sc->precision, sc->coef, tuned, sc->grid, block, &tsteps, &rows, &stages, NULL);
        const struct variant_traits *t = step_fused_traits(s->device, sc->variant);
        if (!sc->tsteps) sc->tsteps = tsteps;
        if (found || s->device == DEV_CPU) {
            if (!sc->block[0] && !sc->block[2]) memcpy(sc->block, block, sizeof sc->block);
            if (!sc->rows) sc->rows = rows;
            if (!sc->nodes && t->passes) sc->nodes = t->nodes; /* its chunk of planes: the declared one */
            return;
        } /* a GPU's untuned block: as the fused step's, below */
    }
    /* tuned: a GPU's fused steps, and the CPU's that march along z (fused: its nodes a pass, tile) */
    const struct variant_traits *ft = step_fused_traits(s->device, sc->variant);
    const int declared = s->device == DEV_CPU && ft ? ft->nodes : 0; /* else the CPU fused step's nodes a pass */
    if (!given && (s->device == DEV_GPU || (ft && ft->marches)) &&
        tuned_block(slug, sc->s->name, HX, sc->precision, sc->coef, tuned, sc->grid, sc->block, &nodes, &rows, &stages,
                    &regs) == 0) {
        if (!sc->nodes) sc->nodes = nodes;
        if (!sc->rows) sc->rows = rows;
        if (!sc->stages) sc->stages = stages;
        if (!sc->regs) sc->regs = regs;
        for (int d = 1; d < 3 && s->device == DEV_CPU; d++) /* a tile tuned on a larger grid: whole */
            if (sc->block[d] * (d == 2 && sc->nodes > 1 ? sc->nodes : 1) > sc->grid[d]) sc->block[d] = d == 2;
    } else if (!given && !declared_launch(ft, sc->block, &sc->nodes)) {
        /* not a fused variant with a default of its own (fused25d: a tile marching its planes) */
        struct run_config rc = {.scheme = sc->s, .component = HX, .precision = sc->precision, .coef = sc->coef,
                                .device = s->device, .variant = step_kernel_variant(s->device, STEP_COMPONENTS),
                                .nodes = sc->nodes ? sc->nodes : declared};
        default_launch(s, &rc);
        memcpy(sc->block, rc.block, sizeof sc->block);
        sc->nodes = rc.nodes;
    }
    if (!sc->nodes) sc->nodes = declared; /* a CPU tile given */
    declared_tiling(step_traits(sc), &sc->rows, &sc->stages); /* the step's own kernels', whichever launch */
}

int split_list(const char *opt, char *list, char **items, int max)
{
    const size_t len = strlen(list);
    if (!len || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,"))
        cli_error("--%s: '%s' has an empty item (nothing before, between or after a comma)", opt, list);
    int n = 0;
    for (char *t = list, *end; t; t = end ? end + 1 : NULL) {
        if ((end = strchr(t, ','))) *end = '\0';
        if (n == max) cli_error("--%s: more than %d items", opt, max);
        items[n++] = t;
    }
    return n;
}
