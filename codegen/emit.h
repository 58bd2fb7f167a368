/* Kernel source from a template and a spec: the placeholders of codegen/generate.c's header,
 * filled for one kernel. The generator uses it at build time (make kernel, and each table's
 * kernels filled once to check their templates); the backends at run time, to compile each
 * kernel for the machine in hand: the CPU's with the build's C compiler (kernels_cpu/jit.c), the
 * GPU's with NVRTC (kernels_gpu/launch.c). */
#ifndef CODEGEN_EMIT_H
#define CODEGEN_EMIT_H

#include <stddef.h>

#include "spec.h"

/* Who reports a fault in a template ("generate", "fdtdbench"): a template is checked when the
 * generator first fills it at build time, so a fault at run time is a build fault, and fatal. */
extern const char *emit_program;
_Noreturn void emit_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string; put() appends, ending the program if memory runs out. */
struct buf { char *s; size_t len, cap; };
void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What a variant's header line declares (codegen/generate.c's header lists the traits). */
struct traits {
    int marches, flat, accepts, indexed, halo_axes, planes, passes, strides, max_threads, block[3], nodes;
    int rows[2]; /* default rows per thread: with coefficient arrays, without; 0: one, no other */
    int stages;  /* default pipeline depth; 0: no pipeline */
    int layer;   /* from a layer template (*.layer): CPML corrections, codegen/layer.h */
    int layer_fold; /* (step) the kernel makes the CPML's corrections itself ($XLDECLS, $XLBODY; Y, Z) */
};

/* A kernel's default rows per thread (its variant's rows=A,U for its storage), 0 for none. */
int default_rows(const struct traits *t, int coef);

/* One template file, parsed: its prologue and kernel sections (pointers into text). */
struct template {
    const char *path;
    char *text;
    const char *prologue, *kernel; /* section texts and lengths */
    size_t prologue_len, kernel_len;
    char variant[32];
    struct traits traits;
    int step;           /* a step template (*.step): fused half-step kernels, entries at HX and EX */
    int layer;          /* a layer template (*.layer): CPML corrections, entries per half-step and axis */
    const char *device; /* a step or layer template's: "_cpu" (*.c.step, *.c.layer) or "_gpu", else NULL */
};

/* Parses text (copied) as the template at path (its name says its variant and kind). */
void template_parse(struct template *t, const char *path, const char *text);
void template_free(struct template *t);
/* The template of variant (a step template's if step, a layer template's if layer) among the n
 * embedded ones, names[i] and texts[i], each parsed into parsed[i] (n zeroed templates) when
 * first looked at. Not thread-safe; ends the program if there is none. */
const struct template *template_find(struct template *parsed, int n, const char *const *names,
                                     const char *const *texts, const char *variant, int step, int layer);

struct kernel_desc {
    const struct scheme *s;
    int component, precision, coef;
    const char *variant;
    const struct traits *traits;
    const char *device; /* a step template's kernels carry it in their names ("_cpu", "_gpu"): both
                         * devices have a variant "fused", and its entry points are external */
    int axis;           /* a layer kernel's: the layer's normal (component: its half-step's first) */
};

extern const char *const coef_enum[NCOEF_STORAGES];     /* "COEF_ARRAY", ... */
extern const char *const component_enum[NCOMPONENTS]; /* "HX", ... */

/* "k_fv24_hx_f32_array_tile25d" (a step template's with its device: "..._fused_gpu"; a layer
 * kernel's "l_fv24_h_z_f32_array_cpml_cpu"). */
void kernel_name(char *out, size_t n, const struct kernel_desc *k);
/* The template's prologue (only its variant's words filled), then one kernel's section. */
void put_prologue(const struct template *t, struct buf *b);
void put_kernel(const struct kernel_desc *k, const struct template *t, struct buf *b);
/* Kernel k of template t as a backend compiles it at run time (malloc'd): a line naming it, the
 * prologue, the kernel. The test of a failed compilation: FDTDBENCH_TEST_BAD_KERNEL=TEXT plants a
 * syntax error in every kernel whose name holds TEXT. */
char *kernel_source(const struct kernel_desc *k, const struct template *t);

/* Bounding boxes of the points each source field of k's update reads, offsets inclusive, the node
 * itself inside: [field][axis]. One component: the plus and minus fields (2); a fused half-step
 * (k->component HX or EX): S0..S2 by axis, over both components that read each (3). The count. */
int source_boxes(const struct kernel_desc *k, int fused, int lo[3][3], int hi[3][3]);
/* Arrays read at the node itself: time levels and, with coefficient arrays, the coefficients
 * (a fused half-step's: over its three components). */
int node_array_count(const struct kernel_desc *k, int fused);

#endif
