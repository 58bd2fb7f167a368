/* Run-time compilation with NVRTC (rtc.h); the kernels are kept by the kernel cache (kcache.h). */
#define _GNU_SOURCE /* mkdtemp */
#include "rtc.h"

#include <errno.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The device headers the kernels include (gpu_common.cuh, kernel.h, ...), embedded by the
 * generator (build/gen/gpu_sources.c), and the toolkit's include folder for cuda_pipeline.h. */
extern const int gpu_header_count;
extern const char *const gpu_header_names[], *const gpu_header_texts[];
#ifndef CUDA_INCLUDE
#define CUDA_INCLUDE "/usr/local/cuda/include"
#endif

static char forced_arch[16];

void rtc_force_arch(const char *arch) { snprintf(forced_arch, sizeof forced_arch, "%s", arch); }
const char *rtc_forced_arch(void) { return forced_arch[0] ? forced_arch : NULL; }

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

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
    uint64_t h = kcache_key_start();
    h = kcache_key_add(h, rtc_version()), h = kcache_key_add(h, arch), h = kcache_key_add(h, name);
    h = kcache_key_add(h, source);
    for (int i = 0; i < nopts; i++) h = kcache_key_add(h, opts[i]);
    for (int i = 0; i < gpu_header_count; i++) h = kcache_key_add(kcache_key_add(h, gpu_header_names[i]), gpu_header_texts[i]);
    return kcache_key_add(h, CUDA_INCLUDE);
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

static _Noreturn void fail(const char *label, const char *what, nvrtcResult r, nvrtcProgram *p, const char *source)
{
    size_t len = 0;
    char *log = NULL;
    if (p && nvrtcGetProgramLogSize(*p, &len) == NVRTC_SUCCESS && (log = malloc(len + 1)) &&
        nvrtcGetProgramLog(*p, log) != NVRTC_SUCCESS)
        log[0] = '\0';
    kcache_fail(rtc_version(), what, label, nvrtcGetErrorString(r), log, source);
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
                    const char *arch, struct kcache_code *out)
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
                         const char *arch, struct kcache_code *out)
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

/* What kcache_build's compiler needs of one NVRTC compilation. */
struct job {
    const char *label, *name, *source, *const *opts, *arch;
    int nopts;
};

static void compile_job(void *ctx, struct kcache_code *out)
{
    const struct job *j = ctx;
    compile(j->label, j->name, j->source, j->opts, j->nopts, j->arch, out);
}

void rtc_build(const char *name, const char *source, const char *const *opts, int nopts, const char *arch,
               struct kcache_code *out)
{
    const char *nvcc = getenv("FDTDBENCH_TEST_NVCC");
    if (nvcc && nvcc[0]) { /* never cached: the test compares with NVRTC's code */
        compile_nvcc(nvcc, name, source, opts, nopts, arch, out);
        return;
    }
    char label[1024];
    int len = snprintf(label, sizeof label, "%s", name);
    for (int i = 0; i < nopts; i++) len += snprintf(label + len, len < (int)sizeof label ? sizeof label - len : 0, " %s", opts[i]);
    struct job j = {label, name, source, opts, arch, nopts};
    kcache_build(DEV_GPU, key_of(name, source, opts, nopts, arch), label, compile_job, &j, out);
}
