/* The kernel cache: kernels compiled at run time, kept on disk across processes. The GPU's are
 * compiled by NVRTC (kernels_gpu/rtc.c), the CPU's by the build's C compiler (kernels_cpu/jit.c);
 * both keep them here, one file per kernel in the cache folder:
 *   $FDTDBENCH_CACHE, else $XDG_CACHE_HOME/fdtd-bench, else ~/.cache/fdtd-bench,
 * named by its key (a hash of everything that goes into the code, which the compiling side works
 * out) and suffixed by its device: .cubin (GPU: machine code or PTX), .so (CPU: a shared object).
 * An entry is the code, then a trailer of text lines that names it and its size and hash, so that
 * a CPU entry is itself a shared object the loader takes. It is written to a temporary file,
 * synced and renamed, so concurrent runs and a kill at any moment leave a whole entry or none;
 * one that is truncated or damaged (its size and hash are checked on every read) is compiled
 * again and rewritten, never loaded. Beside the kernels, the CPU compiler's precompiled header
 * (kcache_aux). */
#ifndef CODEGEN_KCACHE_H
#define CODEGEN_KCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel.h"

/* One compiled kernel and how it was obtained. */
struct kcache_code {
    char *code;        /* malloc'd, with a NUL after its size bytes (PTX is text); the caller frees it */
    size_t size;
    int from_cache;    /* 1: read from the disk cache; 0: compiled by this call */
    int kept;          /* 1: the cache's file holds this code (read from it, or written to it) */
    double compile_ms; /* what compiling it took, now or when it was cached */
};

/* Keys: kcache_key_start(), then kcache_key_add for each string that goes into the code. */
uint64_t kcache_key_start(void);
uint64_t kcache_key_add(uint64_t h, const char *s);

/* Compiles a kernel into out (code, size, compile_ms) or ends the program (kcache_fail). */
typedef void (*kcache_compiler)(void *ctx, struct kcache_code *out);

/* The kernel of key for device d: from the cache, or compiled now by compile(ctx, out) and kept.
 * label ("name options") names it in messages and in the cache's listing. Thread-safe. */
void kcache_build(enum device d, uint64_t key, const char *label, kcache_compiler compile, void *ctx,
                  struct kcache_code *out);

/* The file of key's entry for device d (kcache_build's), "" with the cache off. */
void kcache_file(enum device d, uint64_t key, char *out, size_t n);

/* A file of the cache's own beside its kernels (kernels_cpu/jit.c's precompiled header), named
 * "aux-NAME" in the folder: its path into out; made first, unless it is there, by make(tmp, ctx)
 * into a temporary file of the folder (0 if it succeeded), then renamed into place, so that a
 * reader sees it whole or not at all. 0, or -1 with the cache off or where it could not be made.
 * `cache --clear` removes these files, `cache` counts their size. */
int kcache_aux(const char *name, int (*make)(const char *tmp, void *ctx), void *ctx, char *out, size_t n);

/* The end of a compilation that failed: the compiler's log and the source written to a file
 * beside the cache (else in $TMPDIR or /tmp), then one line on stderr, "fdtdbench: WHO could not
 * WHAT LABEL: WHY; the log: PATH" (WHAT: "compile"), and exit status 2. */
_Noreturn void kcache_fail(const char *who, const char *what, const char *label, const char *why, const char *log,
                           const char *source);

/* What this process has built for device d so far: kernels compiled (and the milliseconds that
 * took) and taken from the disk cache. */
void kcache_counts(enum device d, int *compiled, double *compile_ms, int *cached);

/* The cache folder, NULL with the cache off (FDTDBENCH_CACHE=off, which every command's
 * --no-cache sets: every kernel is compiled, nothing is written) or no folder can be named (no
 * HOME). */
const char *kcache_dir(void);

/* The folder's entries: a line each with its size, its device, when it was compiled and what
 * ("name options"), when list is set; then the count per device and the total size. 0 (also when
 * there is no folder yet), -1 if it cannot be read. */
int kcache_show(FILE *f, int list);
/* Removes every entry (and stale temporary files and failed compilations' logs); the count into
 * *removed. 0, or -1 saying why. */
int kcache_clear(int *removed);

/* What the run-time compilers share besides the cache: the folder for temporary files ($TMPDIR,
 * else /tmp), and a file read whole (malloc'd, with a NUL after its *n bytes; NULL if it cannot be
 * read). */
const char *kcache_tmp_dir(void);
char *kcache_read(const char *path, size_t *n);

#endif
