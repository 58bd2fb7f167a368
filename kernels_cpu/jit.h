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

/* The CPU backend's prepare, prepare_layer and compiled_ms (harness/backend.h): a CPU kernel is
 * compiled once, whatever the launch, except a variant's of trait strides (regz): once per launch
 * strides (kernel_args.sy and sz, compile-time constants in its code, -DSY and -DSZ), which
 * prepare refuses without them. */
int cpu_kernel_prepare(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n);
int cpu_layer_prepare(const struct layer_entry *e, char *why, size_t n);
double cpu_kernel_compiled_ms(const struct kernel_entry *k, const struct kernel_args *a);

/* The machine code launch a of kernel k runs (compiled or loaded now if need be), and its check
 * of a launch (NULL for a variant without one) into *accepts if accepts is not NULL: for tests
 * (a kernel compiled for one grid's strides refuses another's; verification runs the code timed). */
kernel_fn cpu_kernel_code(const struct kernel_entry *k, const struct kernel_args *a,
                          int (**accepts)(const struct kernel_args *, char *, size_t));

/* The compiler that compiles them ("/usr/bin/cc"), for messages. */
const char *cpu_compiler(void);

#endif
