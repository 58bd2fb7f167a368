/* SCRATCH: every tile25d / fused25d launch of a tuned file, prepared (compiled by NVRTC for sm_90,
 * its shared memory checked against that architecture's limit) as cache --warm prepares defaults. */
#include <stdio.h>
#include <string.h>
#include "backend.h"
#include "kernel.h"
#include "measure.h"
#include "rtc.h"
#include "spec.h"
extern const struct kernel_entry gpu_fused_table[];
extern const int gpu_fused_table_len;
int main(int argc, char **argv)
{
    const struct backend *b = gpu_backend();
    rtc_force_arch("sm_90");
    FILE *f = fopen(argv[1], "r");
    char line[512];
    int bad = 0, n = 0;
    while (fgets(line, sizeof line, f)) {
        char sch[16], comp[8], prec[8], coef[16], var[32];
        int bx, by, bz, nodes, rows, stages, regs, g[3];
        double m, gb;
        if (line[0] == '#' || sscanf(line, "%15s %7s %7s %15s %31s %dx%dx%d %d %d %d %d %lf %lf %dx%dx%d", sch, comp, prec, coef,
                                     var, &bx, &by, &bz, &nodes, &rows, &stages, &regs, &m, &gb, &g[0], &g[1], &g[2]) != 17)
            continue;
        if (!strstr(var, "tile25d") && !strstr(var, "fused25d")) continue;
        const int step = !strncmp(var, "step:", 5);
        const char *v = step ? var + 5 : var;
        const int p = !strcmp(prec, "f32") ? F32 : F64, c = !strcmp(coef, "array") ? COEF_ARRAY : !strcmp(coef, "uniform") ? COEF_UNIFORM : COEF_INDEXED;
        const struct kernel_entry *k = NULL;
        if (step) {
            for (int i = 0; i < gpu_fused_table_len; i++) {
                const struct kernel_entry *e = &gpu_fused_table[i];
                if (!strcmp(e->scheme, sch) && !strcmp(e->variant, v) && e->precision == p && e->coef == c && e->component == HX) k = e;
            }
        } else k = kernel_find(DEV_GPU, sch, component_from_name(comp), p, c, v);
        if (!k) { printf("no kernel: %s", line); continue; }
        struct kernel_args a[3];
        const int block[3] = {bx, by, bz};
        launch_geometry(&a[0], g, block, nodes, rows, stages);
        a[0].regs = regs;
        a[1] = a[2] = a[0];
        char why[256];
        n++;
        if (b->prepare(k, a, why, sizeof why)) { bad++; printf("REFUSED %s %s %s %s %s %dx%dx%d r%d s%d: %s\n", sch, comp, prec, coef, var, bx, by, bz, rows, stages, why); }
    }
    printf("%d launches prepared, %d refused\n", n, bad);
    return 0;
}
