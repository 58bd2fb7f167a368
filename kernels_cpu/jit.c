/* The CPU kernels, compiled at run time (jit.h). Each compilation runs the build's compiler in a
 * folder of its own under $TMPDIR (else /tmp), which holds the embedded headers, the kernel's
 * source and the shared object, and is removed once the object is loaded; the compiler's output
 * comes back through a pipe (so a kernel taken from the cache writes nothing at all).
 * The object is kept in the kernel cache, keyed by its source, the headers, the compiler's
 * command and flags and what it predefines under them (its version, and the instruction set
 * -march=native picked on this machine), and loaded from there: an entry is a shared object
 * with a trailer after it, which the loader does not read. */
#define _GNU_SOURCE /* pipe2 */
#include "jit.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "emit.h"
#include "kcache.h"

/* The CPU templates and the headers their kernels include, embedded by the generator
 * (build/gen/cpu_templates.c, cpu_headers.c). */
extern const int cpu_template_count, cpu_header_count;
extern const char *const cpu_template_names[], *const cpu_template_texts[];
extern const char *const cpu_header_names[], *const cpu_header_texts[];
extern const struct kernel_entry cpu_fused_table[];
extern const int cpu_fused_table_len;

static _Noreturn void die(const char *what, const char *path)
{
    fprintf(stderr, "fdtdbench: CPU kernels: %s %s: %s\n", what, path, strerror(errno));
    exit(2);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* ---- files -------------------------------------------------------------------------------- */

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f)) die("cannot write", path);
}

/* A new folder for one compilation, with the embedded headers in it. */
static void work_dir(char *dir, size_t n)
{
    snprintf(dir, n, "%s/fdtdbench-cc-XXXXXX", kcache_tmp_dir());
    if (!mkdtemp(dir)) die("cannot create a folder in", kcache_tmp_dir());
    for (int i = 0; i < cpu_header_count; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, cpu_header_names[i]);
        write_file(path, cpu_header_texts[i], strlen(cpu_header_texts[i]));
    }
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

/* ---- the compiler ------------------------------------------------------------------------- */

/* The build's compiler command and flags as words (build_info.h), then room for a compilation's
 * own; and the key of the compiler: all of that and what it predefines under those flags. */
enum { MAX_WORDS = 128 };
static char *words[MAX_WORDS + 16];
static int nwords;
static uint64_t compiler_key;
static int compiler_is_gcc; /* not clang, which predefines __GNUC__ too */

static void split(char *s)
{
    char *save;
    for (char *w = strtok_r(s, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (nwords < MAX_WORDS) words[nwords++] = w;
}

/* Runs the compiler with the build's words and then more[], its output (stdout and stderr) read
 * through a pipe into *out (malloc'd, NUL-terminated): its exit status, 128 + N if signal N ended
 * it, -1 if it could not be started (errno). */
static int run_compiler(const char *const *more, char **out)
{
    char *argv[MAX_WORDS + 16];
    int n = 0, p[2];
    for (int i = 0; i < nwords; i++) argv[n++] = words[i];
    for (int i = 0; more[i] && n < MAX_WORDS + 15; i++) argv[n++] = (char *)more[i];
    argv[n] = NULL;
    if (pipe2(p, O_CLOEXEC)) return -1; /* close-on-exec: no other thread's compiler holds it open */
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    pid_t pid;
    int status, rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    size_t len = 0, cap = 4096;
    char *s = malloc(cap);
    for (ssize_t got; s && !rc && (got = read(p[0], s + len, cap - len - 1)) != 0;) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        if ((len += (size_t)got) + 1 == cap && !(s = realloc(s, cap *= 2))) break;
    }
    close(p[0]);
    if (!s) fprintf(stderr, "fdtdbench: out of memory\n"), exit(2);
    s[len] = '\0';
    *out = s;
    if (rc) return errno = rc, -1;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const char *cpu_compiler(void) { return BUILD_KERNEL_CC; }

static struct template *templates;
static pthread_mutex_t fill_lock = PTHREAD_MUTEX_INITIALIZER;

/* Each kernel's state: its entry points once loaded. A kernel compiled for its launch (trait
 * strides: its strides; trait layer_fold: with the CPML's corrections or without) has one
 * compilation per such launch: its table slot heads a list of them. */
struct slot {
    _Atomic(void *) run;         /* NULL until loaded */
    void *accepts;               /* set before run */
    double compiled_ms;          /* what compiling it took this process, -1 if it came from the cache */
    long sy, sz;                 /* the strides it is compiled for (trait strides), else 0 */
    int layer;                   /* compiled with -DLAYER_FOLD: for launches with a layer (trait layer_fold) */
    _Atomic(struct slot *) next; /* the table slot of a kernel compiled for its launch: its compilations */
    pthread_mutex_t lock;
};
static struct slot *slots; /* cpu_kernel_table's, cpu_fused_table's, then cpu_layer_table's */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void start(void)
{
    static char cc[] = BUILD_KERNEL_CC, flags[] = BUILD_KERNEL_CFLAGS;
    split(cc), split(flags);
    const int n = cpu_kernel_table_len + cpu_fused_table_len + cpu_layer_table_len;
    if (!(slots = calloc((size_t)n, sizeof *slots)) || !(templates = calloc((size_t)cpu_template_count, sizeof *templates)))
        fprintf(stderr, "fdtdbench: out of memory\n"), exit(2);
    for (int i = 0; i < n; i++) pthread_mutex_init(&slots[i].lock, NULL);
    static const char *const macros[] = {"-fPIC", "-dM", "-E", "-x", "c", "/dev/null", NULL};
    char *predefined;
    const int rc = run_compiler(macros, &predefined);
    if (rc) {
        fprintf(stderr, "fdtdbench: cannot run %s, the C compiler of this build, to compile CPU kernels: %s\n",
                BUILD_KERNEL_CC, rc < 0 ? strerror(errno) : "it failed on an empty file");
        exit(2);
    }
    compiler_key = kcache_key_add(kcache_key_add(kcache_key_add(kcache_key_start(), BUILD_KERNEL_CC), BUILD_KERNEL_CFLAGS),
                                  predefined);
    compiler_is_gcc = strstr(predefined, "#define __GNUC__ ") && !strstr(predefined, "#define __clang__ ");
    for (int i = 0; i < cpu_header_count; i++)
        compiler_key = kcache_key_add(kcache_key_add(compiler_key, cpu_header_names[i]), cpu_header_texts[i]);
    free(predefined);
}

/* <immintrin.h>, which the vector templates include (vec_row.h), precompiled once for this
 * compiler and its flags into the kernel cache: parsing it was over half of a regz kernel's
 * compilation (0.5 of 0.9 s; AVX2, -O3). A kernel whose source includes it is compiled with
 * -include of the header, and GCC reads the .gch beside it instead where that is valid for the
 * compilation, else the header: the same code either way. None with the cache off, or with clang
 * (whose precompiled headers are its own). */
static char pch_header[4200];
static atomic_int pch_ok; /* pch_header and its .gch are there to use */
static pthread_once_t pch_once = PTHREAD_ONCE_INIT;

static int write_pch_header(const char *tmp, void *ctx)
{
    (void)ctx;
    FILE *f = fopen(tmp, "w");
    return !f | (fputs("#include <immintrin.h>\n", f) < 0) | (fclose(f) != 0);
}

static int compile_pch(const char *tmp, void *header)
{
    const char *more[] = {"-fPIC", "-x", "c-header", "-o", tmp, header, NULL};
    char *log;
    const int rc = run_compiler(more, &log);
    free(log);
    return rc;
}

static void make_pch(void)
{
    char name[64], header[4200], gch[4300];
    snprintf(name, sizeof name, "%016llx-immintrin.h", (unsigned long long)compiler_key);
    if (!compiler_is_gcc || kcache_aux(name, write_pch_header, NULL, header, sizeof header)) return;
    strcat(name, ".gch"); /* beside the header, where GCC looks for it */
    if (!kcache_aux(name, compile_pch, header, gch, sizeof gch)) snprintf(pch_header, sizeof pch_header, "%s", header), pch_ok = 1;
}

/* A .gch that failed a compilation that succeeds without it: removed, so that the next run
 * precompiles it again, and not used for the rest of this one. */
static void drop_pch(void)
{
    char gch[4300];
    snprintf(gch, sizeof gch, "%s.gch", pch_header);
    fprintf(stderr, "fdtdbench: warning: the precompiled header %s failed a compilation; removed\n", gch);
    unlink(gch);
}

/* Whether text, or an embedded header it includes (depth levels deep at most), includes <immintrin.h>. */
static int includes_intrinsics(const char *text, int depth)
{
    if (strstr(text, "#include <immintrin.h>")) return 1;
    for (const char *p = text; depth > 0 && (p = strstr(p, "#include \"")); p++)
        for (int i = 0; i < cpu_header_count; i++) {
            const size_t n = strlen(cpu_header_names[i]);
            if (!strncmp(p + 10, cpu_header_names[i], n) && p[10 + n] == '"' && includes_intrinsics(cpu_header_texts[i], depth - 1))
                return 1;
        }
    return 0;
}

/* One kernel for kcache_build's compiler (defines: its -D options, NULL-terminated); where it
 * compiled it, its folder (else ""). */
struct job {
    const char *name, *source, *const *defines;
    char dir[4096], obj[4200];
};

static void compile(void *ctx, struct kcache_code *out)
{
    struct job *j = ctx;
    char src[4200], *log;
    const double t0 = now_ms();
    work_dir(j->dir, sizeof j->dir);
    snprintf(src, sizeof src, "%s/%s.c", j->dir, j->name);
    snprintf(j->obj, sizeof j->obj, "%s/%s.so", j->dir, j->name);
    write_file(src, j->source, strlen(j->source));
    const char *more[20] = {"-fPIC", "-shared", "-I", j->dir, "-o", j->obj, src};
    int m = 7;
    for (int i = 0; j->defines[i] && i < 8; i++) more[m++] = j->defines[i];
    const int without_pch = m;
    if (includes_intrinsics(j->source, 8)) {
        pthread_once(&pch_once, make_pch);
        if (atomic_load(&pch_ok)) more[m++] = "-include", more[m++] = pch_header;
    }
    int rc = run_compiler(more, &log);
    if (rc > 0 && m > without_pch) { /* GCC fails on a damaged .gch (not on a stale one): once more without it */
        more[without_pch] = NULL;
        free(log);
        if (!(rc = run_compiler(more, &log)) && atomic_exchange(&pch_ok, 0)) drop_pch();
    }
    if (rc) {
        char why[128];
        if (rc < 0) snprintf(why, sizeof why, "cannot start it: %s", strerror(errno));
        else if (rc > 128) snprintf(why, sizeof why, "ended by signal %d", rc - 128);
        else snprintf(why, sizeof why, "exit status %d", rc);
        remove_dir(j->dir);
        kcache_fail(BUILD_KERNEL_CC, "compile", j->name, why, log, j->source);
    }
    free(log);
    if (!(out->code = kcache_read(j->obj, &out->size))) die("cannot read", j->obj);
    out->compile_ms = now_ms() - t0;
}

/* A kernel as its table entry describes it. */
struct kernel_id {
    const char *scheme, *variant;
    int component, axis, precision, coef; /* a layer kernel's component: its half-step's first */
    int step, layer;                      /* from a step template (fused_table), a layer template */
};

/* Slot s, kernel id's (for s's strides, if it has them), loaded: compiled now, or read from the
 * disk cache, if this process has not had it yet. Kernels load in parallel; the first callers of
 * one wait for it. */
static struct slot *loaded(struct slot *s, const struct kernel_id *id)
{
    if (atomic_load_explicit(&s->run, memory_order_acquire)) return s;
    pthread_mutex_lock(&s->lock);
    if (!atomic_load_explicit(&s->run, memory_order_relaxed)) {
        char name[128], entry[160];
        pthread_mutex_lock(&fill_lock);
        emit_program = "fdtdbench: kernel generator";
        const struct template *t = template_find(templates, cpu_template_count, cpu_template_names, cpu_template_texts,
                                                 id->variant, id->step, id->layer);
        const struct kernel_desc d = {.s = scheme_find(id->scheme), .component = id->component,
                                      .precision = id->precision, .coef = id->coef, .variant = t->variant,
                                      .traits = &t->traits, .device = t->device, .axis = id->axis};
        if (!d.s) emit_fail("no scheme %s in this build", id->scheme);
        kernel_name(name, sizeof name, &d);
        char sy[32], sz[32], label[200];
        const char *defines[4] = {NULL};
        int nd = 0;
        snprintf(sy, sizeof sy, "-DSY=%ld", s->sy), snprintf(sz, sizeof sz, "-DSZ=%ld", s->sz);
        if (t->traits.strides) defines[nd++] = sy, defines[nd++] = sz;
        if (s->layer) defines[nd++] = "-DLAYER_FOLD";
        int at = snprintf(label, sizeof label, "%s", name); /* the name, and the -D options */
        for (int i = 0; i < nd; i++) at += snprintf(label + at, sizeof label - (size_t)at, " %s", defines[i]);
        struct job j = {name, kernel_source(&d, t), defines, "", ""};
        const int accepts = t->traits.accepts;
        pthread_mutex_unlock(&fill_lock);
        struct kcache_code code;
        const uint64_t key = kcache_key_add(kcache_key_add(compiler_key, label), j.source); /* label: name, and -D options if any */
        kcache_build(DEV_CPU, key, label, compile, &j, &code);
        char file[4200];
        if (code.kept) kcache_file(DEV_CPU, key, file, sizeof file); /* the cache's entry, else the one compiled */
        else snprintf(file, sizeof file, "%s", j.obj);
        void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (!h) fprintf(stderr, "fdtdbench: cannot load the CPU kernel %s from %s: %s\n", name, file, dlerror()), exit(2);
        if (j.dir[0]) remove_dir(j.dir);
        s->compiled_ms = code.from_cache ? -1 : code.compile_ms;
        free(code.code), free((char *)j.source);
        snprintf(entry, sizeof entry, "%s_run_accepts", name);
        if (accepts && !(s->accepts = dlsym(h, entry))) fprintf(stderr, "fdtdbench: CPU kernel %s: no %s\n", name, entry), exit(2);
        snprintf(entry, sizeof entry, "%s_run", name);
        void *run = dlsym(h, entry);
        if (!run) fprintf(stderr, "fdtdbench: CPU kernel %s: no %s\n", name, entry), exit(2);
        atomic_store_explicit(&s->run, run, memory_order_release);
    }
    pthread_mutex_unlock(&s->lock);
    return s;
}

static int slot_serves(const struct slot *s, long sy, long sz, int layer)
{
    return s->sy == sy && s->sz == sz && s->layer == layer;
}

/* The compilation of kernel k for launch a (head: its table slot), made on first use: for a's
 * strides (trait strides), with the layer's corrections where a has a layer (trait layer_fold).
 * Lookups take no lock; a new one is added under head's. */
static struct slot *launch_slot(struct slot *head, const struct kernel_entry *k, const struct kernel_args *a)
{
    const long sy = k->traits.strides ? a->sy : 0, sz = k->traits.strides ? a->sz : 0;
    const int layer = k->traits.layer_fold && a->layer;
    struct slot *s = atomic_load_explicit(&head->next, memory_order_acquire);
    for (; s; s = atomic_load_explicit(&s->next, memory_order_acquire))
        if (slot_serves(s, sy, sz, layer)) return s;
    pthread_mutex_lock(&head->lock);
    for (s = atomic_load_explicit(&head->next, memory_order_relaxed); s && !slot_serves(s, sy, sz, layer);)
        s = atomic_load_explicit(&s->next, memory_order_relaxed);
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) fprintf(stderr, "fdtdbench: out of memory\n"), exit(2);
        pthread_mutex_init(&s->lock, NULL);
        s->sy = sy, s->sz = sz, s->layer = layer;
        atomic_store_explicit(&s->next, atomic_load_explicit(&head->next, memory_order_relaxed), memory_order_relaxed);
        atomic_store_explicit(&head->next, s, memory_order_release);
    }
    pthread_mutex_unlock(&head->lock);
    return s;
}

/* Kernel k's compilation for launch a, loaded. */
static struct slot *kernel_slot(const struct kernel_entry *k, const struct kernel_args *a)
{
    pthread_once(&once, start);
    const int fused = k >= cpu_fused_table && k < cpu_fused_table + cpu_fused_table_len;
    const long i = fused ? cpu_kernel_table_len + (k - cpu_fused_table) : k - cpu_kernel_table;
    struct slot *s = k->traits.strides || k->traits.layer_fold ? launch_slot(&slots[i], k, a) : &slots[i];
    if (atomic_load_explicit(&s->run, memory_order_acquire)) return s;
    const struct kernel_id id = {k->scheme, k->variant, k->component, 0, k->precision, k->coef, fused, 0};
    return loaded(s, &id);
}

static struct slot *layer_slot(const struct layer_entry *e)
{
    pthread_once(&once, start);
    struct slot *s = &slots[cpu_kernel_table_len + cpu_fused_table_len + (e - cpu_layer_table)];
    if (atomic_load_explicit(&s->run, memory_order_acquire)) return s;
    const struct kernel_id id = {e->scheme, e->variant, e->first, e->axis, e->precision, e->coef, 0, 1};
    return loaded(s, &id);
}

/* ---- the tables' launchers (build/gen/cpu_table.c, cpu_layer_table.c), and the backend's hooks ---- */

/* dlsym gives a function as an object pointer, which POSIX lets a program convert back. */
typedef int (*accepts_fn)(const struct kernel_args *a, char *why, size_t n);

void cpu_kernel_launch(const struct kernel_entry *k, const struct kernel_args *a)
{
    ((kernel_fn)atomic_load_explicit(&kernel_slot(k, a)->run, memory_order_relaxed))(a);
}

int cpu_kernel_accepts(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n)
{
    return ((accepts_fn)kernel_slot(k, a)->accepts)(a, why, n);
}

void cpu_layer_launch(const struct layer_entry *e, const struct layer_args *a)
{
    ((layer_fn)atomic_load_explicit(&layer_slot(e)->run, memory_order_relaxed))(a);
}

int cpu_kernel_prepare(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n)
{
    if (k->traits.strides && (a->sy < 1 || a->sz < 1)) {
        snprintf(why, n, "variant %s is compiled for a grid's strides: give the launch a grid", k->variant);
        return -1;
    }
    kernel_slot(k, a);
    return 0;
}

int cpu_layer_prepare(const struct layer_entry *e, char *why, size_t n)
{
    (void)why, (void)n;
    layer_slot(e);
    return 0;
}

double cpu_kernel_compiled_ms(const struct kernel_entry *k, const struct kernel_args *a)
{
    return kernel_slot(k, a)->compiled_ms;
}

kernel_fn cpu_kernel_code(const struct kernel_entry *k, const struct kernel_args *a,
                          int (**accepts)(const struct kernel_args *, char *, size_t))
{
    const struct slot *s = kernel_slot(k, a);
    if (accepts) *accepts = (accepts_fn)s->accepts;
    return (kernel_fn)atomic_load_explicit(&s->run, memory_order_relaxed);
}
