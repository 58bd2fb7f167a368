/* The GPU backend: device 0 through the CUDA runtime, every kernel compiled at run time for it
 * (launch.c, rtc.c). Every CUDA call is checked: a failure goes back through a `why` string where
 * the interface has one, and otherwise ends the program with one line on stderr (exit 2). */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gpu_internal.h"
#include "gpu_rules.h"

/* The backend's own kernels (support.cu), embedded by the generator. */
extern const char *const gpu_support_texts[];

/* One line on stderr and exit 2: for failures the interface has no way to return. */
static void check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "fdtdbench: CUDA: %s: %s\n", what, cudaGetErrorString(e));
    exit(2);
}

/* 0, or -1 with "what: CUDA's error text" in why. */
static int report(cudaError_t e, const char *what, char *why, size_t n)
{
    if (e == cudaSuccess) return 0;
    snprintf(why, n, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

static const struct cudaDeviceProp *props(void)
{
    static struct cudaDeviceProp p;
    static int loaded;
    if (!loaded) {
        check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
        loaded = 1;
    }
    return &p;
}

/* ---- the device and its code ------------------------------------------------------------- */

static struct gpu_device dev; /* filled on first use */

static void read_device(void)
{
    int count = 0;
    const char *arch = rtc_forced_arch();
    if (arch && (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)) {
        /* compiling for a GPU that is not here (the cache command): CUDA's limits since Volta */
        cudaGetLastError();
        dev = (struct gpu_device){1024, {1024, 1024, 64}, 227 * 1024, 1, 2048, ""};
        snprintf(dev.arch, sizeof dev.arch, "%s", arch);
        return;
    }
    const struct cudaDeviceProp *p = props();
    int optin = 0;
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), "cudaDeviceGetAttribute");
    dev.max_threads = p->maxThreadsPerBlock, dev.smem_optin = optin;
    for (int i = 0; i < 3; i++) dev.max_dim[i] = p->maxThreadsDim[i];
    dev.sms = p->multiProcessorCount, dev.threads_per_sm = p->maxThreadsPerMultiProcessor;
    char why[256];
    if (arch) snprintf(dev.arch, sizeof dev.arch, "%s", arch);
    else if (rtc_arch(p->major, p->minor, dev.arch, sizeof dev.arch, why, sizeof why)) {
        fprintf(stderr, "fdtdbench: the %s: %s\n", p->name, why);
        exit(2);
    }
}

/* Read once, by whichever thread asks first (the tuner compiles on every core). */
const struct gpu_device *gpu_device(void)
{
#pragma omp critical(gpu_device)
    if (!dev.max_threads) read_device();
    return &dev;
}

const char *gpu_arch(void) { return rtc_forced_arch() ? rtc_forced_arch() : gpu_device()->arch; }

const void *gpu_load(const struct kcache_code *c, const char *name)
{
    cudaLibrary_t lib;
    cudaKernel_t k;
    cudaError_t e = cudaLibraryLoadData(&lib, c->code, NULL, NULL, 0, NULL, NULL, 0);
    if (e == cudaSuccess) e = cudaLibraryGetKernel(&k, lib, name);
    if (e != cudaSuccess) {
        fprintf(stderr, "fdtdbench: CUDA: loading kernel %s (%s code): %s\n", name, gpu_arch(), cudaGetErrorString(e));
        exit(2);
    }
    return (const void *)k; /* the runtime takes a cudaKernel_t wherever it takes a kernel */
}

const void *gpu_support_kernel(const char *name)
{
    static struct kcache_code code;
    static struct {
        char name[32];
        const void *fn;
    } loaded[16];
    if (!code.code) rtc_build("support", gpu_support_texts[0], NULL, 0, gpu_arch(), &code);
    int i = 0;
    while (i < 16 && loaded[i].fn && strcmp(loaded[i].name, name)) i++;
    if (i == 16) {
        fprintf(stderr, "fdtdbench: too many support kernels\n");
        exit(2);
    }
    if (!loaded[i].fn) snprintf(loaded[i].name, sizeof loaded[i].name, "%s", name), loaded[i].fn = gpu_load(&code, name);
    return loaded[i].fn;
}

void gpu_start(const void *fn, long gx, long gy, long gz, const unsigned block[3], size_t smem, void **params)
{
    const dim3 grid = {(unsigned)gx, (unsigned)gy, (unsigned)gz}, b = {block[0], block[1], block[2]};
    cudaLaunchKernel(fn, grid, b, params, smem, 0); /* a failure stays CUDA's last error: checked by the callers */
}

/* ---- device ------------------------------------------------------------------------------ */

/* The kernel module's version ("580.159.04"), which the CUDA runtime does not give; empty
 * where /proc does not have it. */
static void nvidia_driver_version(char out[32])
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    char line[256];
    if (f && fgets(line, sizeof line, f)) {
        const char *m = strstr(line, "Kernel Module");
        if (!m || sscanf(m + strlen("Kernel Module"), "%31s", out) != 1) out[0] = '\0';
    }
    if (f) fclose(f);
}

static int gpu_available(char *why, size_t n)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        char kmod[32];
        nvidia_driver_version(kmod);
        /* With no driver at all the runtime calls it "insufficient": say what is missing. */
        const int no_driver = e == cudaErrorInsufficientDriver && !kmod[0];
        snprintf(why, n, no_driver ? "no CUDA device: no NVIDIA driver loaded (%s)" : "no CUDA device: %s",
                 cudaGetErrorString(e));
        cudaGetLastError(); /* leave no error behind for a later, unrelated check */
        return 0;
    }
    if (count == 0) {
        snprintf(why, n, "no CUDA device: none found");
        return 0;
    }
    /* Create the context now, so its cost and any failure show here, not in a timing. */
    if (report(cudaSetDevice(0), "cudaSetDevice", why, n) || report(cudaFree(0), "creating the CUDA context", why, n))
        return 0;
    return 1;
}

static void gpu_describe(struct device_desc *d)
{
    const struct cudaDeviceProp *p = props();
    int mem_khz = 0, driver = 0, runtime = 0;
    check(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0), "cudaDeviceGetAttribute");
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    char kmod[32];
    nvidia_driver_version(kmod);
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%.*s", (int)sizeof d->name - 1, p->name);
    for (char *c = d->name; *c; c++)
        if (*c == ',') *c = ' '; /* names go into CSV fields */
    snprintf(d->detail, sizeof d->detail, "%d SMs, L2 %d MiB, memory clock %d MHz, bus %d bit, cc %d.%d",
             p->multiProcessorCount, p->l2CacheSize >> 20, mem_khz / 1000, p->memoryBusWidth, p->major, p->minor);
    snprintf(d->driver, sizeof d->driver, "%.20s%sCUDA %d.%d, runtime %d.%d", kmod, kmod[0] ? " " : "",
             driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    d->memory_bytes = p->totalGlobalMem;
    d->cache_bytes = (size_t)p->l2CacheSize;
    d->max_threads = p->maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) d->max_block[i] = p->maxThreadsDim[i];
}

static int gpu_check_block(const int block[3], char *why, size_t n)
{
    const struct cudaDeviceProp *p = props();
    long threads = 1;
    for (int i = 0; i < 3; i++) {
        if (block[i] < 1 || block[i] > p->maxThreadsDim[i]) {
            snprintf(why, n, "block %dx%dx%d: %c size %d is outside 1..%d on the %s", block[0], block[1], block[2],
                     "xyz"[i], block[i], p->maxThreadsDim[i], p->name);
            return -1;
        }
        threads *= block[i];
    }
    if (threads > p->maxThreadsPerBlock) {
        snprintf(why, n, "block %dx%dx%d has %ld threads, more than the %s's %d per block", block[0], block[1],
                 block[2], threads, p->name, p->maxThreadsPerBlock);
        return -1;
    }
    return 0;
}

/* ---- memory -------------------------------------------------------------------------------- */

static void *gpu_alloc(size_t bytes)
{
    size_t free_b = 0, total = 0;
    check(cudaMemGetInfo(&free_b, &total), "cudaMemGetInfo");
    if (bytes > free_b) return NULL;
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation) { /* fragmentation or a race with another process */
        cudaGetLastError();
        return NULL;
    }
    check(e, "cudaMalloc");
    return p;
}

static void gpu_release(void *p) { check(cudaFree(p), "cudaFree"); }

static void gpu_upload(void *dst, const void *src, size_t bytes)
{
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

static void gpu_download(void *dst, const void *src, size_t bytes)
{
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
}

/* Within a GPU, or between two (unified addressing says which holds each). */
static void gpu_copy(void *dst, const void *src, size_t bytes)
{
    check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy on the device");
}

/* The launch shape of the helper kernels: enough resident blocks of 256 threads to fill every
 * SM, each thread striding over the array (a grid-stride loop). */
static const unsigned helper_block[3] = {256, 1, 1};
static long fill_blocks(void) { return (long)gpu_device()->sms * (gpu_device()->threads_per_sm / 256); }

static void gpu_fill_random(void *p, size_t n, int precision, unsigned seed, double lo, double hi)
{
    void *params[] = {&p, &n, &seed, &lo, &hi};
    gpu_start(gpu_support_kernel(precision == F32 ? "fill_f32" : "fill_f64"), fill_blocks(), 1, 1, helper_block, 0, params);
    check(cudaGetLastError(), "fill_random launch");
    check(cudaDeviceSynchronize(), "fill_random");
}

/* The GPU's threads are set per launch by the block shape. */
static void gpu_set_threads(int threads) { (void)threads; }
static int gpu_threads(void) { return 0; }

/* ---- launches ------------------------------------------------------------------------------ */

static int gpu_run_once(kernel_fn fn, const struct kernel_args *a, char *why, size_t n)
{
    fn(a);
    if (report(cudaGetLastError(), "kernel launch", why, n)) return -1;
    return report(cudaDeviceSynchronize(), "kernel run", why, n);
}

static int gpu_time_kernel(kernel_fn fn, const struct kernel_args *a, int warmup, int batch, int samples,
                           double *ms, char *why, size_t n)
{
    cudaEvent_t start, stop;
    if (report(cudaEventCreate(&start), "cudaEventCreate", why, n)) return -1;
    if (report(cudaEventCreate(&stop), "cudaEventCreate", why, n)) {
        cudaEventDestroy(start);
        return -1;
    }
    int rc = 0;
    for (int w = 0; w < warmup && !rc; w++) {
        fn(a);
        rc = report(cudaGetLastError(), "warm-up launch", why, n);
    }
    if (!rc) rc = report(cudaDeviceSynchronize(), "warm-up run", why, n);
    /* Nothing printed in here: a failure ends the loop and is reported after it. */
    for (int s = 0; s < samples && !rc; s++) {
        float t = 0;
        rc = report(cudaEventRecord(start, 0), "cudaEventRecord", why, n);
        for (int b = 0; b < batch && !rc; b++) {
            fn(a);
            rc = report(cudaGetLastError(), "timed launch", why, n);
        }
        if (!rc) rc = report(cudaEventRecord(stop, 0), "cudaEventRecord", why, n);
        if (!rc) rc = report(cudaEventSynchronize(stop), "timed run", why, n);
        if (!rc) rc = report(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime", why, n);
        if (!rc) ms[s] = t / batch;
    }
    cudaError_t e1 = cudaEventDestroy(start), e2 = cudaEventDestroy(stop);
    if (!rc) rc = report(e1 != cudaSuccess ? e1 : e2, "cudaEventDestroy", why, n);
    return rc;
}

/* ---- bandwidth probe ----------------------------------------------------------------------- */

/* Best (shortest) time in ms of `passes` runs of one copy, after a warm-up run if `warm`. */
static double best_ms(int kernel, void *dst, const void *src, size_t bytes, int passes, int warm, cudaEvent_t e0,
                      cudaEvent_t e1)
{
    double best = 1e30;
    size_t n16 = bytes / 16;
    for (int r = -warm; r < passes; r++) {
        float t;
        check(cudaEventRecord(e0, 0), "cudaEventRecord");
        if (kernel) {
            void *params[] = {&dst, &src, &n16};
            gpu_start(gpu_support_kernel("copy16"), fill_blocks(), 1, 1, helper_block, 0, params);
            check(cudaGetLastError(), "copy kernel launch");
        } else {
            check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpy device to device");
        }
        check(cudaEventRecord(e1, 0), "cudaEventRecord");
        check(cudaEventSynchronize(e1), "bandwidth probe");
        check(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
        if (r >= 0 && t < best) best = t;
    }
    return best;
}

/* A copy that copied nothing would look very fast: compare its first and last 16 bytes. */
static void check_copy(const void *dst, const void *src, size_t bytes, const char *name)
{
    float d[2][4], s[2][4];
    gpu_download(s[0], src, 16), gpu_download(d[0], dst, 16);
    gpu_download(s[1], (const char *)src + bytes - 16, 16), gpu_download(d[1], (const char *)dst + bytes - 16, 16);
    if (memcmp(s, d, sizeof s)) fprintf(stderr, "fdtdbench: warning: the GPU bandwidth probe's %s did not copy\n", name);
}

/* A copy kernel (16-byte loads and stores) and cudaMemcpy device to device, each the best of
 * `passes` runs, counting bytes read plus written. Arrays of 1 GiB each, far beyond the L2,
 * or a quarter of the free memory if that is less; allocated, filled and warmed on first use,
 * then kept for later samples. */
static void gpu_probe_bandwidth(struct bandwidth *bw, int passes)
{
    static void *src, *dst;
    static size_t bytes;
    static struct bandwidth last = {.copy_name = "copy kernel", .second_name = "cudaMemcpy D2D"};
    int warm = 0;
    if (passes == 0) {
        *bw = last;
        return;
    }
    if (!src) {
        size_t free_b = 0, total = 0;
        check(cudaMemGetInfo(&free_b, &total), "cudaMemGetInfo");
        bytes = (size_t)1 << 30;
        if (bytes > free_b / 4) bytes = free_b / 4 / (1 << 20) * (1 << 20);
        if (bytes < (1 << 20)) {
            fprintf(stderr, "fdtdbench: GPU bandwidth probe: only %zu MiB free on the GPU\n", free_b >> 20);
            exit(2);
        }
        check(cudaMalloc(&src, bytes), "cudaMalloc (bandwidth probe)");
        check(cudaMalloc(&dst, bytes), "cudaMalloc (bandwidth probe)");
        gpu_fill_random(src, bytes / sizeof(float), F32, 1, -1, 1); /* not zeros */
        warm = 1;
    }
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    check(cudaEventCreate(&e1), "cudaEventCreate");
    check(cudaMemset(dst, 0, bytes), "cudaMemset");
    double kernel_ms = best_ms(1, dst, src, bytes, passes, warm, e0, e1);
    check_copy(dst, src, bytes, "copy kernel");
    check(cudaMemset(dst, 0, bytes), "cudaMemset");
    double memcpy_ms = best_ms(0, dst, src, bytes, passes, warm, e0, e1);
    check_copy(dst, src, bytes, "cudaMemcpy");
    check(cudaEventDestroy(e0), "cudaEventDestroy");
    check(cudaEventDestroy(e1), "cudaEventDestroy");
    bw->copy_name = "copy kernel";
    bw->second_name = "cudaMemcpy D2D";
    bw->copy_gbs = 2.0 * bytes / (kernel_ms * 1e-3) / 1e9;
    bw->second_gbs = 2.0 * bytes / (memcpy_ms * 1e-3) / 1e9;
    bw->best_gbs = bw->copy_gbs > bw->second_gbs ? bw->copy_gbs : bw->second_gbs;
    bw->bytes = bytes;
    last = *bw;
}

/* ---- the step engine's halo refresh and wait ------------------------------------------------- */

/* One launch per field, one thread per refreshed cell (support.cu). Launches only: the engine
 * waits once per step. */
static int gpu_refresh_halo(void *field, const struct halo_args *h, char *why, size_t n)
{
    struct halo_geom g;
    memset(&g, 0, sizeof g);
    g.boundary = h->boundary, g.sy = h->sy, g.sz = h->sz;
    for (int ax = 0; ax < 3; ax++) {
        g.n[ax] = h->n[ax], g.half[ax] = h->half[ax], g.open[ax] = h->open[ax];
        g.c[ax] = ax < h->first_axis ? 0 : halo_count(h->boundary, h->half[ax], h->open[ax]);
        /* the other positions: the interior but a refreshed wall node 0, and an open face's ghosts */
        g.lo[ax] = h->open[ax] & OPEN_LOW ? -HALO : halo_wall(h->boundary, h->half[ax], h->open[ax], 0);
        g.in[ax] = h->n[ax] + (h->open[ax] & OPEN_HIGH ? HALO : 0) - g.lo[ax];
        g.pad[ax] = h->n[ax] + 2 * HALO;
    }
    const long nz_box = (long)g.c[2] * g.pad[1] * g.pad[0], ny_box = (long)g.c[1] * g.in[2] * g.pad[0];
    const long total = nz_box + ny_box + (long)g.c[0] * g.in[1] * g.in[2], blocks = (total + 255) / 256;
    if (!total) return 0; /* every face open (a slab's planes between two others) */
    const char *f32 = h->precision == F32 ? "f32" : "f64";
    char name[32];
    if (total <= 0xffffffffL) { /* 32-bit index arithmetic, the usual case */
        unsigned z = (unsigned)nz_box, y = (unsigned)ny_box, t = (unsigned)total;
        void *params[] = {&field, &g, &z, &y, &t};
        snprintf(name, sizeof name, "refresh_%s_u32", f32);
        gpu_start(gpu_support_kernel(name), blocks, 1, 1, helper_block, 0, params);
    } else {
        unsigned long z = (unsigned long)nz_box, y = (unsigned long)ny_box, t = (unsigned long)total;
        void *params[] = {&field, &g, &z, &y, &t};
        snprintf(name, sizeof name, "refresh_%s_u64", f32);
        gpu_start(gpu_support_kernel(name), blocks, 1, 1, helper_block, 0, params);
    }
    return report(cudaGetLastError(), "halo refresh launch", why, n);
}

/* The GPUs here, as many as one process drives (launch.c keeps per-GPU state for so many). */
static int gpu_devices(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) cudaGetLastError(), count = 0;
    return count < GPU_MAX_DEVICES ? count : GPU_MAX_DEVICES;
}

static int gpu_use_device(int index, char *why, size_t n)
{
    return report(cudaSetDevice(index), "cudaSetDevice", why, n);
}

static int gpu_sync(char *why, size_t n)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    return report(e, "GPU run", why, n);
}

/* ---- clocks held down: NVML's violation counters ------------------------------------------- */

/* The part of NVML (nvml.h, loaded from the driver's libnvidia-ml.so.1 when first asked for:
 * the toolkit here ships no header) that says how long the GPU's clocks were held down: its
 * cumulative violation time by power (NVML_PERF_POLICY_POWER, the power cap) and thermal limits
 * (NVML_PERF_POLICY_THERMAL), in ns. */
typedef struct nvml_device *nvml_device;
typedef struct { unsigned long long reference_us, violation_ns; } nvml_violation; /* nvmlViolationTime_t */
enum { NVML_SUCCESS = 0 };
enum { NVML_PERF_POLICY_POWER = 0, NVML_PERF_POLICY_THERMAL = 1 };
static struct {
    int tried;
    int (*init)(void);
    int (*by_bus_id)(const char *bus_id, nvml_device *d);
    int (*violation)(nvml_device d, int policy, nvml_violation *v);
    nvml_device device[GPU_MAX_DEVICES];
} nvml;

static void nvml_load(void)
{
    nvml.tried = 1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    *(void **)&nvml.init = dlsym(lib, "nvmlInit_v2");
    *(void **)&nvml.by_bus_id = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&nvml.violation = dlsym(lib, "nvmlDeviceGetViolationStatus");
    if (!nvml.init || !nvml.by_bus_id || !nvml.violation || nvml.init() != NVML_SUCCESS) nvml.violation = NULL;
}

/* The device in use's power and thermal violation time so far (ns), and NVML's time stamp of the
 * reading (its reference time, microseconds, as ns); NAN if NVML cannot say. */
static double gpu_clocks_held_ns(double *at_ns)
{
    if (!nvml.tried) nvml_load();
    int d = 0;
    char bus_id[32];
    if (!nvml.violation || cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= GPU_MAX_DEVICES) return NAN;
    if (!nvml.device[d] && (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, d) != cudaSuccess ||
                            nvml.by_bus_id(bus_id, &nvml.device[d]) != NVML_SUCCESS)) {
        nvml.device[d] = NULL;
        return NAN;
    }
    nvml_violation power, thermal;
    if (nvml.violation(nvml.device[d], NVML_PERF_POLICY_POWER, &power) != NVML_SUCCESS) return NAN;
    if (nvml.violation(nvml.device[d], NVML_PERF_POLICY_THERMAL, &thermal) != NVML_SUCCESS)
        thermal.violation_ns = 0; /* a GPU that does not count it: the power cap alone */
    *at_ns = 1e3 * (double)power.reference_us;
    return (double)power.violation_ns + (double)thermal.violation_ns;
}

/* ---- what the harness asks of run-time compilation ------------------------------------------- */

int gpu_kernel_prepare(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n);
double gpu_kernel_compiled_ms(const struct kernel_entry *k, const struct kernel_args *a);
double gpu_kernel_occupancy_pct(const struct kernel_entry *k, const struct kernel_args *a);
int gpu_layer_prepare(const struct layer_entry *e, char *why, size_t n);

static const struct backend gpu = {
    .device = DEV_GPU,
    .available = gpu_available,
    .describe = gpu_describe,
    .alloc = gpu_alloc,
    .release = gpu_release,
    .upload = gpu_upload,
    .download = gpu_download,
    .copy = gpu_copy,
    .fill_random = gpu_fill_random,
    .set_threads = gpu_set_threads,
    .threads = gpu_threads,
    .check_block = gpu_check_block,
    .time_kernel = gpu_time_kernel,
    .run_once = gpu_run_once,
    .probe_bandwidth = gpu_probe_bandwidth,
    .refresh_halo = gpu_refresh_halo,
    .sync = gpu_sync,
    .clocks_held_ns = gpu_clocks_held_ns,
    .prepare = gpu_kernel_prepare,
    .prepare_layer = gpu_layer_prepare,
    .compiled_ms = gpu_kernel_compiled_ms,
    .occupancy_pct = gpu_kernel_occupancy_pct,
    .devices = gpu_devices,
    .use_device = gpu_use_device,
};

const struct backend *gpu_backend(void) { return &gpu; }
