/* One CPU kernel on one thread, timed by the thread's own CPU time, so that time the thread
 * spends preempted by other processes does not count: a figure that holds on a busy machine
 * where wall-clock samples do not (caches shared with others still disturb it a little).
 *   make cputime && build/cputime SCHEME_COMPONENT_PRECISION_COEF_VARIANT NX NY NZ LAUNCHES [J K [NODES]]
 *   e.g. build/cputime fv24_hx_f32_array_plain 300 4 4 400     (arrays in L2)
 *        build/cputime fv24_hx_f32_array_regz 128 15 15 200 0 1 2   (whole-row tiles, two nodes a pass)
 * Prints ns per update, the best of 7 samples of LAUNCHES launches. Data are zeros (written, 64-byte
 * aligned arrays as the backend's): no check. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel.h"

static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 8 && argc != 9) {
        fprintf(stderr, "usage: cputime SCHEME_COMPONENT_PRECISION_COEF_VARIANT NX NY NZ LAUNCHES [J K [NODES]]\n");
        return 2;
    }
    const struct kernel_entry *k = NULL;
    for (int i = 0; i < cpu_kernel_table_len && !k; i++) {
        const struct kernel_entry *e = &cpu_kernel_table[i];
        char name[160];
        snprintf(name, sizeof name, "%s_%s_%s_%s_%s", e->scheme, component_names[e->component],
                 precision_names[e->precision], coef_names[e->coef], e->variant);
        if (!strcmp(name, argv[1])) k = e;
    }
    if (!k) {
        fprintf(stderr, "cputime: no CPU kernel %s\n", argv[1]);
        return 2;
    }
    omp_set_num_threads(1);
    struct kernel_args a = {.nx = atoi(argv[2]), .ny = atoi(argv[3]), .nz = atoi(argv[4])};
    int launches = atoi(argv[5]);
    if (a.nx < 1 || a.ny < 1 || a.nz < 1 || launches < 1) {
        fprintf(stderr, "cputime: sizes and launches must be positive\n");
        return 2;
    }
    a.block[1] = argc >= 8 ? atoi(argv[6]) : 0, a.block[2] = argc >= 8 ? atoi(argv[7]) : 1;
    a.nodes = argc == 9 ? atoi(argv[8]) : 1;
    a.sy = a.nx + 2 * HALO, a.sz = a.sy * (a.ny + 2 * HALO);
    size_t bytes = (size_t)a.sz * (a.nz + 2 * HALO) * (k->precision == F32 ? 4 : 8);
    enum { NARRAYS = 2 * MAX_LEVELS + MAX_GROUPS + 2 };
    void *arr[NARRAYS];
    /* 64-byte aligned as the CPU backend's arrays (cpu_alloc), and written: untouched calloc'd
     * pages all read as the one zero page, which no kernel reads at run time. */
    bytes = (bytes + 63) / 64 * 64;
    for (int i = 0; i < NARRAYS; i++) {
        if (!(arr[i] = aligned_alloc(64, bytes))) {
            fprintf(stderr, "cputime: out of memory\n");
            return 2;
        }
        memset(arr[i], 0, bytes);
    }
    for (int l = 0; l < MAX_LEVELS; l++) a.level[l] = arr[l], a.da[l] = arr[MAX_LEVELS + l];
    for (int g = 0; g < MAX_GROUPS; g++) a.db[g] = arr[2 * MAX_LEVELS + g];
    a.plus = arr[NARRAYS - 2], a.minus = arr[NARRAYS - 1], a.out = arr[0];
    char why[256];
    if (k->accepts && k->accepts(&a, why, sizeof why)) {
        fprintf(stderr, "cputime: %s: %s\n", argv[1], why);
        return 2;
    }
    for (int w = 0; w < 3; w++) k->fn(&a);
    double best = 1e30;
    for (int s = 0; s < 7; s++) {
        double t0 = thread_seconds();
        for (int i = 0; i < launches; i++) k->fn(&a);
        double t = (thread_seconds() - t0) / launches;
        best = t < best ? t : best;
    }
    printf("%s %dx%dx%d nodes %d: %.3f ns/update (one thread, its CPU time, best of 7)\n", argv[1], a.nx, a.ny, a.nz,
           a.nodes, best / ((double)a.nx * a.ny * a.nz) * 1e9);
    for (int i = 0; i < NARRAYS; i++) free(arr[i]);
    return 0;
}
