/* Scratch driver (issue 25 experiments): prints one kernel's generated source, kernel_source of one
 * template, scheme, component (0 = H, 3 = E), precision, storage and, for a layer template, axis.
 * Build: cc -std=c11 -fopenmp -Istencils -Ianalysis -Icodegen -Iengine -o gen1 gen1.c build/libfdtd.a
 *        -L/usr/local/cuda-13.0/lib64 -lnvrtc -lcudart_static -ldl -lrt -lpthread -lm; the scripts
 *        here expect it as ab-min/gen1, the committed template as ab-min/kernels_gpu/cpml.cu.layer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spec.h"
#include "emit.h"
static char *slurp(const char *p) { FILE *f = fopen(p, "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f); char *s = malloc(n + 1); fread(s, 1, n, f); s[n] = 0; fclose(f); return s; }
/* gen1 TEMPLATE SCHEME COMP(0=H,3=E) PREC COEF */
int main(int argc, char **argv)
{
    struct template t = {0};
    template_parse(&t, argv[1], slurp(argv[1]));
    struct kernel_desc d = {scheme_find(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), t.variant, &t.traits, t.device, argc > 6 ? atoi(argv[6]) : 0};
    char *src = kernel_source(&d, &t);
    fputs(src, stdout);
    return 0;
}
