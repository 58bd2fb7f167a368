/* Steps of the CPU fused step with a CPML, the layer on or off: for callgrind's counts.
 *   laycount SCHEME GRID PML STEPS ON */
#include <stdio.h>
#include <stdlib.h>
#include "backend.h"
#include "spec.h"
#include "step.h"
#include "step_measure.h"
int main(int argc, char **argv)
{
    if (argc < 6) return 2;
    char why[512];
    double w[MAX_GROUPS];
    const int g = atoi(argv[2]);
    struct step_config c = {.b = cpu_backend(), .s = scheme_find(argv[1]), .precision = F32, .coef = COEF_ARRAY,
                            .variant = STEP_FUSED, .nodes = 2, .grid = {g, g, g}, .boundary = BOUNDARY_PEC,
                            .pml = atoi(argv[3]), .pml_order = 3};
    c.b->set_threads(1);
    if (step_vacuum(&c, w, why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
    struct stepper *m = step_open(&c, why, sizeof why);
    if (!m) return fprintf(stderr, "%s\n", why), 1;
    step_fill_random(m, 1);
    step_layer_on(m, atoi(argv[5]));
    if (step_run(m, atoi(argv[4]), why, sizeof why)) return fprintf(stderr, "%s\n", why), 1;
    step_close(m);
    return 0;
}
