/* make bench's full-step table (step_bench.c). */
#ifndef HARNESS_STEP_BENCH_H
#define HARNESS_STEP_BENCH_H

#include "session.h"
#include "step_measure.h"

/* Every scheme's verified, timed full step in each storage the device has, f32, at 300^3 on a
 * CPU and 512^3 on a GPU (quick: 128^3, 256^3), and (components) with array storage and a CPML
 * of PML_TARGET_THICKNESS cells where the device has the layer's kernels:
 * RESULTS/<machine>/steps/step-<date>.csv and .md, and
 * the Markdown on stdout. 0, or 1 if any row failed or nothing could be written. */
int step_bench(struct session *s, const char *dir, int reps, int quick);

#endif
