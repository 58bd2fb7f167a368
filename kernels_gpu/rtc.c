/* Run-time compilation with NVRTC and the disk cache (rtc.h). */
#define _GNU_SOURCE /* mkstemp, fsync, strdup, dirent's d_type */
#include "rtc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The device headers the kernels include (gpu_common.cuh, kernel.h, ...), embedded by the
 * generator (build/gen/gpu_sources.c), and the toolkit's include folder for cuda_pipeline.h. */
extern const int gpu_header_count;
extern const char *const gpu_header_names[], *const gpu_header_texts[];
#ifndef CUDA_INCLUDE
#define CUDA_INCLUDE "/usr/local/cuda/include"
#endif

/* Bumped whenever an entry's layout changes: older entries then no longer match any key. */
#define ENTRY_MAGIC "fdtdbench-kernel 1"
#define ENTRY_SUFFIX ".cubin"
#define TMP_PREFIX ".tmp-"

static int n_compiled, n_cached;
static double ms_compiled;
static char forced_arch[16];

void rtc_force_arch(const char *arch) { snprintf(forced_arch, sizeof forced_arch, "%s", arch); }
const char *rtc_forced_arch(void) { return forced_arch[0] ? forced_arch : NULL; }

void rtc_counts(int *compiled, double *compile_ms, int *cached)
{
#pragma omp critical(rtc_counts)
    *compiled = n_compiled, *compile_ms = ms_compiled, *cached = n_cached;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* ---- hashing ------------------------------------------------------------------------ */

/* FNV-1a, 64 bits: names entries and checks their contents (corruption, not attack). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (const unsigned char *c = p; n--; c++) h = (h ^ *c) * 0x100000001b3ull;
    return h;
}
static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); } /* the NUL separates */
#define FNV_START 0xcbf29ce484222325ull

const char *rtc_version(void)
{
    static char v[32];
    int major = 0, minor = 0;
#pragma omp critical(rtc_version)
    if (!v[0]) {
        nvrtcVersion(&major, &minor);
        snprintf(v, sizeof v, "NVRTC %d.%d", major, minor);
    }
    return v;
}

/* The key of a kernel: everything that goes into its code. */
static uint64_t key_of(const char *name, const char *source, const char *const *opts, int nopts, const char *arch)
{
    uint64_t h = fnv_str(FNV_START, ENTRY_MAGIC);
    h = fnv_str(h, rtc_version()), h = fnv_str(h, arch), h = fnv_str(h, name), h = fnv_str(h, source);
    for (int i = 0; i < nopts; i++) h = fnv_str(h, opts[i]);
    for (int i = 0; i < gpu_header_count; i++) h = fnv_str(fnv_str(h, gpu_header_names[i]), gpu_header_texts[i]);
    return fnv_str(h, CUDA_INCLUDE);
}

/* ---- the cache folder ------------------------------------------------------------------ */

/* mkdir -p; 0 or -1 (errno). */
static int make_dirs(const char *path)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return errno = ENAMETOOLONG, -1;
    for (char *c = p + 1; *c; c++)
        if (*c == '/') {
            *c = '\0';
            if (mkdir(p, 0755) && errno != EEXIST) return -1;
            *c = '/';
        }
    return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

static char dir[4096];

/* The folder's name, whether or not it exists yet. NULL with the cache off. */
static const char *dir_name(void)
{
    const char *env = getenv("FDTDBENCH_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && !strcmp(env, "off")) return NULL;
#pragma omp critical(rtc_dir)
    if (!dir[0]) {
        if (env && env[0]) snprintf(dir, sizeof dir, "%s", env);
        else if (xdg && xdg[0]) snprintf(dir, sizeof dir, "%s/fdtd-bench", xdg);
        else if (home && home[0]) snprintf(dir, sizeof dir, "%s/.cache/fdtd-bench", home);
    }
    return dir[0] ? dir : NULL;
}

const char *rtc_cache_dir(void) { return dir_name(); }

/* Warns once that the cache cannot be used (the run goes on compiling). */
static void cache_warning(const char *what, const char *path)
{
    static int warned;
    int first;
#pragma omp critical(rtc_warn)
    first = !warned++;
    if (first) fprintf(stderr, "fdtdbench: warning: kernel cache: %s %s: %s (kernels are compiled, not kept)\n", what, path, strerror(errno));
}

static void entry_path(char *out, size_t n, const char *d, uint64_t key)
{
    snprintf(out, n, "%s/%016llx" ENTRY_SUFFIX, d, (unsigned long long)key);
}

/* An entry: header lines, then the code.
 *   fdtdbench-kernel 1
 *   key <16 hex>
 *   kernel <name> <options>
 *   compiled <ms> ms <UTC date>
 *   code <bytes> <16 hex: FNV-1a of the code>
 * Reads path into out if it holds key's whole, undamaged entry: 1; 0 if there is none; -1 if it
 * is damaged (why). */
static int entry_read(const char *path, uint64_t key, struct rtc_code *out, char *why, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char line[4096], date[64];
    unsigned long long k = 0, sum = 0;
    size_t size = 0;
    double ms = 0;
    int ok = fgets(line, sizeof line, f) && !strcmp(line, ENTRY_MAGIC "\n") && fgets(line, sizeof line, f) &&
             sscanf(line, "key %16llx", &k) == 1 && fgets(line, sizeof line, f) && fgets(line, sizeof line, f) &&
             sscanf(line, "compiled %lf ms %63s", &ms, date) == 2 && fgets(line, sizeof line, f) &&
             sscanf(line, "code %zu %16llx", &size, &sum) == 2;
    if (!ok || k != key) {
        snprintf(why, n, "%s", ok ? "it holds another kernel" : "its header is damaged");
        fclose(f);
        return -1;
    }
    char *code = malloc(size + 1);
    size_t got = code ? fread(code, 1, size + 1, f) : 0;
    fclose(f);
    if (!code || got != size || fnv(FNV_START, code, size) != sum) {
        snprintf(why, n, got < size ? "it is truncated (%zu of %zu bytes)" : got > size ? "it is longer than its header says"
                                                                                         : "its code does not match its hash",
                 got, size);
        free(code);
        return -1;
    }
    code[size] = '\0'; /* PTX is text */
    out->code = code, out->size = size, out->from_cache = 1, out->compile_ms = ms;
    return 1;
}

/* Writes the entry whole or not at all: a temporary file, fsync, rename. */
static void entry_write(const char *d, const char *path, uint64_t key, const char *label, const struct rtc_code *c)
{
    char tmp[4200], date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    if (make_dirs(d)) return cache_warning("cannot create", d);
    snprintf(tmp, sizeof tmp, "%s/" TMP_PREFIX "%ld-XXXXXX", d, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0) return cache_warning("cannot write in", d);
    FILE *f = fdopen(fd, "wb");
    int ok = f && fprintf(f, ENTRY_MAGIC "\nkey %016llx\nkernel %s\ncompiled %.1f ms %s\ncode %zu %016llx\n",
                          (unsigned long long)key, label, c->compile_ms, date, c->size,
                          (unsigned long long)fnv(FNV_START, c->code, c->size)) > 0 &&
             fwrite(c->code, 1, c->size, f) == c->size && fflush(f) == 0 && fsync(fileno(f)) == 0;
    if (f ? fclose(f) : close(fd)) ok = 0;
    if (!ok || rename(tmp, path)) {
        cache_warning("cannot write", tmp);
        unlink(tmp);
    }
}

/* ---- compiling -------------------------------------------------------------------------- */

int rtc_arch(int major, int minor, char *out, size_t n, char *why, size_t whyn)
{
    int count = 0, archs[64], want = major * 10 + minor, best = 0;
    if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count < 1 || count > 64 ||
        nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS) {
        snprintf(why, whyn, "%s lists no GPU architectures", rtc_version());
        return -1;
    }
    for (int i = 0; i < count; i++) {
        if (archs[i] == want) return snprintf(out, n, "sm_%d", want), 0;
        if (archs[i] < want && archs[i] > best) best = archs[i];
    }
    if (!best) {
        snprintf(why, whyn, "%s cannot compile for compute capability %d.%d (it knows %d.%d and newer)", rtc_version(),
                 major, minor, archs[0] / 10, archs[0] % 10);
        return -1;
    }
    snprintf(out, n, "compute_%d", best); /* PTX, which the driver compiles for the GPU */
    return 0;
}

/* NVRTC's log where the user can read it: beside the cache, else in the temporary folder. */
static void write_log(const char *label, const char *log, const char *source, char *path, size_t n)
{
    const char *d = dir_name();
    int fd = -1;
    if (d && !make_dirs(d)) {
        snprintf(path, n, "%s/failed-XXXXXX.log", d);
        fd = mkstemps(path, 4);
    }
    if (fd < 0) {
        snprintf(path, n, "%s/fdtdbench-nvrtc-XXXXXX.log", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        fd = mkstemps(path, 4);
    }
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(path, n, "(not written: %s)", strerror(errno));
        return;
    }
    fprintf(f, "kernel %s\n\n%s\n---- source ----\n%s", label, log, source);
    fclose(f);
}

static _Noreturn void fail(const char *label, const char *what, nvrtcResult r, nvrtcProgram *p, const char *source)
{
    size_t len = 0;
    char *log = NULL, path[4200];
    if (p && nvrtcGetProgramLogSize(*p, &len) == NVRTC_SUCCESS && (log = malloc(len + 1)) &&
        nvrtcGetProgramLog(*p, log) != NVRTC_SUCCESS)
        log[0] = '\0';
    write_log(label, log ? log : "", source, path, sizeof path);
    fprintf(stderr, "fdtdbench: %s could not %s %s: %s; the log: %s\n", rtc_version(), what, label,
            nvrtcGetErrorString(r), path);
    exit(2);
}

/* The headers NVRTC is given: the embedded ones, and an empty stddef.h for spec.h (NVRTC has
 * size_t built in, and no C library). */
static void headers(int *n, const char *const **names, const char *const **texts)
{
    static const char **nm, **tx;
#pragma omp critical(rtc_headers)
    if (!nm) {
        const char **a = malloc((gpu_header_count + 1) * sizeof *a), **b = malloc((gpu_header_count + 1) * sizeof *b);
        if (!a || !b) fprintf(stderr, "fdtdbench: out of memory\n"), exit(2);
        for (int i = 0; i < gpu_header_count; i++) a[i] = gpu_header_names[i], b[i] = gpu_header_texts[i];
        a[gpu_header_count] = "stddef.h", b[gpu_header_count] = "/* NVRTC: size_t is built in */\n";
        tx = b, nm = a;
    }
    *n = gpu_header_count + 1, *names = nm, *texts = tx;
}

static void compile(const char *label, const char *name, const char *source, const char *const *opts, int nopts,
                    const char *arch, struct rtc_code *out)
{
    enum { MAX_OPTS = 16 };
    char arch_opt[64];
    /* -default-device: the C headers' functions (spec.h, kernel.h) are device functions here */
    const char *all[MAX_OPTS + 8] = {arch_opt, "-std=c++17", "-default-device", "-I" CUDA_INCLUDE, "-lineinfo"};
    int n = 5;
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", arch);
    for (int i = 0; i < nopts && i < MAX_OPTS; i++) all[n++] = opts[i];
    const int sass = !strncmp(arch, "sm_", 3);
    double t0 = now_ms();
    nvrtcProgram p;
    int nh;
    const char *const *hn, *const *ht;
    headers(&nh, &hn, &ht);
    nvrtcResult r = nvrtcCreateProgram(&p, source, name, nh, ht, hn);
    if (r != NVRTC_SUCCESS) fail(label, "take", r, NULL, source);
    if ((r = nvrtcCompileProgram(p, n, all)) != NVRTC_SUCCESS) fail(label, "compile", r, &p, source);
    size_t size = 0;
    if ((r = sass ? nvrtcGetCUBINSize(p, &size) : nvrtcGetPTXSize(p, &size)) != NVRTC_SUCCESS ||
        !(out->code = malloc(size + 1)) || (r = sass ? nvrtcGetCUBIN(p, out->code) : nvrtcGetPTX(p, out->code)) != NVRTC_SUCCESS)
        fail(label, "return the code of", r, &p, source);
    nvrtcDestroyProgram(&p);
    out->code[size] = '\0';
    out->size = size, out->from_cache = 0, out->compile_ms = now_ms() - t0;
}

/* The same compilation by nvcc, for the test that NVRTC's code computes what nvcc's does
 * (FDTDBENCH_TEST_NVCC=path-to-nvcc): the source and the embedded headers written to a temporary
 * folder, nvcc -cubin with the same options (nvcc needs no -default-device, and takes the C
 * library's stddef.h). */
static void compile_nvcc(const char *nvcc, const char *label, const char *source, const char *const *opts, int nopts,
                         const char *arch, struct rtc_code *out)
{
    char tmp[] = "/tmp/fdtdbench-nvcc-XXXXXX", path[4200], cmd[8192];
    if (!mkdtemp(tmp)) fprintf(stderr, "fdtdbench: nvcc test: mkdtemp: %s\n", strerror(errno)), exit(2);
    for (int i = -1; i < gpu_header_count; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, i < 0 ? "kernel.cu" : gpu_header_names[i]);
        FILE *f = fopen(path, "w");
        if (!f || fputs(i < 0 ? source : gpu_header_texts[i], f) < 0 || fclose(f))
            fprintf(stderr, "fdtdbench: nvcc test: cannot write %s\n", path), exit(2);
    }
    int len = snprintf(cmd, sizeof cmd, "'%s' -cubin -arch=%s -std=c++17 -lineinfo -I%s -I" CUDA_INCLUDE, nvcc,
                       strncmp(arch, "sm_", 3) ? "sm_90" : arch, tmp);
    for (int i = 0; i < nopts; i++) len += snprintf(cmd + len, sizeof cmd - len, " %s", opts[i]);
    snprintf(cmd + len, sizeof cmd - len, " -o %s/k.cubin %s/kernel.cu > %s/log 2>&1", tmp, tmp, tmp);
    double t0 = now_ms();
    if (system(cmd)) fprintf(stderr, "fdtdbench: nvcc could not compile %s: see %s/log\n", label, tmp), exit(2);
    snprintf(path, sizeof path, "%s/k.cubin", tmp);
    FILE *f = fopen(path, "rb");
    long size = f && !fseek(f, 0, SEEK_END) ? ftell(f) : -1;
    if (size <= 0 || fseek(f, 0, SEEK_SET) || !(out->code = malloc((size_t)size + 1)) ||
        fread(out->code, 1, (size_t)size, f) != (size_t)size)
        fprintf(stderr, "fdtdbench: nvcc test: cannot read %s\n", path), exit(2);
    fclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd)) fprintf(stderr, "fdtdbench: nvcc test: cannot remove %s\n", tmp);
    out->size = (size_t)size, out->from_cache = 0, out->compile_ms = now_ms() - t0;
}

void rtc_build(const char *name, const char *source, const char *const *opts, int nopts, const char *arch,
               struct rtc_code *out)
{
    const char *nvcc = getenv("FDTDBENCH_TEST_NVCC");
    if (nvcc && nvcc[0]) { /* never cached: the test compares with NVRTC's code */
        compile_nvcc(nvcc, name, source, opts, nopts, arch, out);
        return;
    }
    char label[1024], path[4200], why[128];
    int len = snprintf(label, sizeof label, "%s", name);
    for (int i = 0; i < nopts; i++) len += snprintf(label + len, len < (int)sizeof label ? sizeof label - len : 0, " %s", opts[i]);
    const uint64_t key = key_of(name, source, opts, nopts, arch);
    const char *d = dir_name();
    if (d) {
        entry_path(path, sizeof path, d, key);
        const int got = entry_read(path, key, out, why, sizeof why);
        if (got > 0) {
#pragma omp critical(rtc_counts)
            n_cached++;
            return;
        }
        if (got < 0) fprintf(stderr, "fdtdbench: the cached kernel %s (%s) is damaged: %s; compiling it again\n", path, label, why);
    }
    compile(label, name, source, opts, nopts, arch, out);
#pragma omp critical(rtc_counts)
    n_compiled++, ms_compiled += out->compile_ms;
    if (d) entry_write(d, path, key, label, out);
}

/* ---- the cache command ------------------------------------------------------------------ */

static int is_entry(const char *name)
{
    size_t n = strlen(name), s = strlen(ENTRY_SUFFIX);
    return n > s && !strcmp(name + n - s, ENTRY_SUFFIX) && name[0] != '.';
}

int rtc_cache_show(FILE *f, int list)
{
    const char *d = dir_name();
    if (!d) {
        fprintf(f, "kernel cache: none (FDTDBENCH_CACHE=off or --no-cache, or no HOME to put it under)\n");
        return 0;
    }
    DIR *dp = opendir(d);
    if (!dp) {
        if (errno == ENOENT) return fprintf(f, "kernel cache: %s (empty: not created yet)\n", d), 0;
        fprintf(stderr, "fdtdbench: cannot read the kernel cache %s: %s\n", d, strerror(errno));
        return -1;
    }
    long count = 0;
    double bytes = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        char path[4400], head[4][1024] = {{0}};
        struct stat st;
        if (!is_entry(e->d_name)) continue;
        snprintf(path, sizeof path, "%s/%s", d, e->d_name);
        if (stat(path, &st)) continue;
        count++, bytes += (double)st.st_size;
        if (!list) continue;
        FILE *ef = fopen(path, "rb");
        for (int i = 0; ef && i < 4 && fgets(head[i], sizeof head[i], ef); i++) head[i][strcspn(head[i], "\n")] = '\0';
        if (ef) fclose(ef);
        fprintf(f, "%8.1f KiB  %-40s  %s\n", st.st_size / 1024.0, head[3][0] ? head[3] + strlen("compiled ") : "?",
                head[2][0] ? head[2] + strlen("kernel ") : "(unreadable)");
    }
    closedir(dp);
    fprintf(f, "kernel cache: %s: %ld kernels, %.1f MiB\n", d, count, bytes / (1 << 20));
    return 0;
}

int rtc_cache_clear(int *removed)
{
    const char *d = dir_name();
    *removed = 0;
    if (!d) return 0;
    DIR *dp = opendir(d);
    if (!dp) return errno == ENOENT ? 0 : (fprintf(stderr, "fdtdbench: cannot read the kernel cache %s: %s\n", d, strerror(errno)), -1);
    int rc = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        char path[4400];
        const char *nm = e->d_name;
        const int log = !strncmp(nm, "failed-", 7) && strstr(nm, ".log");
        if (!is_entry(nm) && strncmp(nm, TMP_PREFIX, strlen(TMP_PREFIX)) && !log) continue;
        snprintf(path, sizeof path, "%s/%s", d, nm);
        if (unlink(path) == 0) (*removed) += !log && nm[0] != '.';
        else if (errno != ENOENT) {
            fprintf(stderr, "fdtdbench: cannot remove %s: %s\n", path, strerror(errno));
            rc = -1;
        }
    }
    closedir(dp);
    return rc;
}
