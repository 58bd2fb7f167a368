/* make bench's full-step table (step_bench.c). */
#ifndef HARNESS_STEP_BENCH_H
#define HARNESS_STEP_BENCH_H

#include "session.h"
#include "step_measure.h"

/* Every scheme's verified, timed full step in each storage the device has, f32, at 300^3 on a
 * CPU and 512^3 on a GPU (quick: 128^3, 256^3), and (components) with array storage and a CPML
 * of PML_TARGET_THICKNESS cells where the device has the layer's kernels:
 * RESULTS/<machine>/steps/step-<date>.csv and .md, and
 * the Markdown on stdout. fastest (NULL: not wanted) gets each scheme's and storage's fastest
 * variant in the closed box (NULL where none was measured). 0, or 1 if any row failed or nothing
 * could be written. */
int step_bench(struct session *s, const char *dir, int reps, int quick, const char *fastest[][NCOEF_STORAGES]);

/* Where the device is several GPUs and NCCL loads: each scheme's step (f32, array and uniform
 * storage, in fastest's variant (NULL: the fastest of the machine's committed step rows at
 * 512^3, else fused) split over 1, 2, 4, 8 ... GPUs (and all of them), verified and timed: weak
 * scaling (SCALING_WEAK_GRID^3 cells per GPU; quick: half as many a side) and strong (the largest
 * cube up to 1024^3, a multiple of 64, that one GPU holds; quick: 512^3 at most), each where
 * asked. RESULTS/<machine>/steps/scaling-<date>.csv and its page (efficiency, halo bytes). 0
 * (also where there is nothing to measure, said in one line), or 1 if a row failed. */
int scaling_bench(struct session *s, const char *dir, int reps, int quick, const char *fastest[][NCOEF_STORAGES],
                  int weak, int strong);

#endif
