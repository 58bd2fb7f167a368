/* The GPU backend of a build without nvcc: it says why it is not available, and its other
 * entries fail loudly should anything call them regardless. The GPU kernel tables are empty. */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "layer.h"
#include "rtc.h"

#define WHY "built without CUDA (nvcc was not found at build time)"

const struct kernel_entry gpu_kernel_table[1] = {{.scheme = NULL}}; /* C has no empty arrays */
const int gpu_kernel_table_len = 0;
const struct kernel_entry gpu_fused_table[1] = {{.scheme = NULL}};
const int gpu_fused_table_len = 0;
const struct layer_entry gpu_layer_table[1] = {{.scheme = NULL}};
const int gpu_layer_table_len = 0;

static int none_available(char *why, size_t n)
{
    snprintf(why, n, WHY);
    return 0;
}

/* -1 with the reason, for the entries that can return a failure. */
static int none_fails(char *why, size_t n)
{
    none_available(why, n);
    return -1;
}

static _Noreturn void none(void)
{
    fprintf(stderr, "fdtdbench: the GPU is not usable: " WHY "\n");
    exit(2);
}

static void none_describe(struct device_desc *d) { (void)d, none(); }
static void *none_alloc(size_t bytes) { (void)bytes; return NULL; }
static void none_release(void *p) { (void)p, none(); }
static void none_copy(void *dst, const void *src, size_t bytes) { (void)dst, (void)src, (void)bytes, none(); }
static void none_fill(void *p, size_t n, int precision, unsigned seed, double lo, double hi)
{
    (void)p, (void)n, (void)precision, (void)seed, (void)lo, (void)hi, none();
}
static void none_set_threads(int threads) { (void)threads; }
static int none_threads(void) { return 0; }
static int none_check_block(const int block[3], char *why, size_t n) { (void)block; return none_fails(why, n); }
static int none_time(kernel_fn fn, const struct kernel_args *a, int warmup, int batch, int samples, double *ms,
                     char *why, size_t n)
{
    (void)fn, (void)a, (void)warmup, (void)batch, (void)samples, (void)ms;
    return none_fails(why, n);
}
static int none_run_once(kernel_fn fn, const struct kernel_args *a, char *why, size_t n)
{
    (void)fn, (void)a;
    return none_fails(why, n);
}
static void none_probe(struct bandwidth *bw, int passes) { (void)bw, (void)passes, none(); }
static int none_halo(void *f, const struct halo_args *h, char *why, size_t n)
{
    (void)f, (void)h;
    return none_fails(why, n);
}

static const struct backend gpu = {
    .device = DEV_GPU,
    .available = none_available,
    .describe = none_describe,
    .alloc = none_alloc,
    .release = none_release,
    .upload = none_copy,
    .download = none_copy,
    .copy = none_copy,
    .fill_random = none_fill,
    .set_threads = none_set_threads,
    .threads = none_threads,
    .check_block = none_check_block,
    .time_kernel = none_time,
    .run_once = none_run_once,
    .probe_bandwidth = none_probe,
    .refresh_halo = none_halo,
    .sync = none_fails,
};

const struct backend *gpu_backend(void) { return &gpu; }

/* What the cache command asks of run-time compilation. */
void rtc_force_arch(const char *arch) { (void)arch; }
const char *rtc_forced_arch(void) { return NULL; }
const char *rtc_version(void) { return "no NVRTC"; }
int rtc_arch(int major, int minor, char *out, size_t n, char *why, size_t whyn)
{
    (void)major, (void)minor, (void)out, (void)n;
    snprintf(why, whyn, WHY);
    return -1;
}
void gpu_kernels_forget(void) {}
