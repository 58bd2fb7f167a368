/* The CPU kernels, compiled at run time (jit.c): each entry of the CPU tables
 * (build/gen/cpu_table.c, cpu_layer_table.c) is a launcher that hands itself to jit.c, which on
 * its first call fills the kernel's source from its template and spec (emit.h), compiles it with
 * the C compiler and flags the suite was built with (build_info.h: -O level, -march=native,
 * -fopenmp, the sanitizers of a SAN build) into a shared object, keeps that in the kernel cache
 * (kcache.h) and loads it. Thread-safe: the first call of a kernel from several threads at once
 * compiles it once. A kernel that does not compile ends the program: one line naming it and the
 * compiler's log, exit status 2. */
#ifndef KERNELS_CPU_JIT_H
#define KERNELS_CPU_JIT_H

#include <stddef.h>

#include "kernel.h"
#include "layer.h"

/* The CPU backend's prepare, prepare_layer and compiled_ms (harness/backend.h): a CPU kernel
 * takes every launch, so the launch given is not looked at. */
int cpu_kernel_prepare(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n);
int cpu_layer_prepare(const struct layer_entry *e, char *why, size_t n);
double cpu_kernel_compiled_ms(const struct kernel_entry *k, const struct kernel_args *a);

/* The compiler that compiles them ("/usr/bin/cc"), for messages. */
const char *cpu_compiler(void);

#endif
