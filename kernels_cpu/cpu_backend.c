/* The CPU backend: host memory first touched by the computing threads, OpenMP timing, and a
 * STREAM-style bandwidth probe (copy and triad) on the same pinned threads. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "jit.h"
#include "simd.h"

static int cpu_available(char *why, size_t n)
{
    (void)why, (void)n;
    return 1;
}

static size_t read_size_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t v = 0;
    char unit = 0;
    if (fscanf(f, "%zu%c", &v, &unit) < 1) v = 0;
    fclose(f);
    return unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : v;
}

/* The largest cache the first CPU reports (level 0), or its cache of one level: a row whose arrays
 * fit in a few times the largest is flagged; the level-2 one sizes bench's in-cache grids. */
static size_t cpu0_cache(int level)
{
    size_t best = 0;
    for (int i = 0; i < 8; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (level && read_size_file(path) != (size_t)level) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        size_t v = read_size_file(path);
        if (v > best) best = v;
    }
    return best;
}
static size_t last_level_cache(void) { return cpu0_cache(0); }

/* The smallest limit (bytes, SIZE_MAX if none) of a cgroup and its ancestors: file names the
 * limit under root + path ("max" in cgroup v2, or a huge number, means none). */
static size_t cgroup_limit(const char *root, const char *path, const char *file)
{
    size_t best = SIZE_MAX;
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    for (;;) {
        char p[700];
        snprintf(p, sizeof p, "%s%s/%s", root, strcmp(dir, "/") ? dir : "", file);
        FILE *f = fopen(p, "r");
        unsigned long long v;
        if (f && fscanf(f, "%llu", &v) == 1 && v < best) best = (size_t)v;
        if (f) fclose(f);
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) break;
        *slash = '\0';
    }
    if (strcmp(dir, "/")) { /* the root itself */
        char p[700];
        snprintf(p, sizeof p, "%s/%s", root, file);
        FILE *f = fopen(p, "r");
        unsigned long long v;
        if (f && fscanf(f, "%llu", &v) == 1 && v < best) best = (size_t)v;
        if (f) fclose(f);
    }
    return best;
}

/* What this process may use: the smallest of physical memory, its memory cgroup's limit (v2
 * memory.max, v1 memory.limit_in_bytes) and RLIMIT_AS / RLIMIT_DATA. Past a cgroup limit the
 * kernel kills the process without a word, so the fit check must see it first. */
static size_t usable_memory(void)
{
    size_t best = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[600];
    while (f && fgets(line, sizeof line, f)) { /* "0::/path" (v2) or "4:memory:/path" (v1) */
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2) continue;
        size_t v = SIZE_MAX;
        if (c2 == c1 + 1) v = cgroup_limit("/sys/fs/cgroup", c2 + 1, "memory.max");
        else if (!strncmp(c1 + 1, "memory:", 7) || strstr(c1 + 1, ",memory:"))
            v = cgroup_limit("/sys/fs/cgroup/memory", c2 + 1, "memory.limit_in_bytes");
        if (v < best) best = v;
    }
    if (f) fclose(f);
    const int which[] = {RLIMIT_AS, RLIMIT_DATA};
    for (int i = 0; i < 2; i++) {
        struct rlimit r;
        if (getrlimit(which[i], &r) == 0 && r.rlim_cur != RLIM_INFINITY && r.rlim_cur < best) best = (size_t)r.rlim_cur;
    }
    return best;
}

static void cpu_describe(struct device_desc *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            char *v = strchr(line, ':') + 1;
            v += strspn(v, " \t");
            v[strcspn(v, "\n")] = '\0';
            snprintf(d->name, sizeof d->name, "%s", v);
            break;
        }
    if (f) fclose(f);
    for (char *c = d->name; *c; c++)
        if (*c == ',') *c = ' '; /* names go into CSV fields */
    d->max_threads = omp_get_max_threads();
    d->memory_bytes = usable_memory();
    d->cache_bytes = last_level_cache();
    d->core_cache_bytes = cpu0_cache(2);
    snprintf(d->detail, sizeof d->detail, "%d threads (%ld online CPUs); last-level cache %zu KiB",
             d->max_threads, sysconf(_SC_NPROCESSORS_ONLN), d->cache_bytes >> 10);
    snprintf(d->simd, sizeof d->simd, "%s: %d bytes", SIMD_NAME, SIMD_BYTES);
}

/* Large arrays released are kept for the next request of the same size by as many threads (bench
 * and tune measure row after row on one grid): a fresh array pays a page fault per 4 KiB page at
 * its first touch, on this VM about 3.5 us each, 2-3 s of sys time in a 5 s step row at 300^3
 * (transparent huge pages cost more here: their zeroing and compaction doubled it). At most an
 * eighth of the usable memory is kept, the oldest freed first. Each array carries its size and
 * its toucher's thread count in a header of one cache line (pages stay where those threads
 * placed them: on NUMA machines another count gets fresh ones). Three vectors' width more after
 * the array (TAIL), as the header before it, is memory that a kernel may read and not use: the
 * fused step's first and last vectors of a row read lanes beyond the nodes they store (fused_row.h,
 * FUSED_ZRUN), and its aligned blocks up to two vectors beyond its farthest point (aligned_row.h),
 * which at the array's first or last row pass its halo where a stencil has points at the halo's
 * corners (none of the built-in schemes has; a spec file's may). */
enum { KEEP_FROM = 1 << 20, KEPT_MAX = 64, HEADER = 192, TAIL = 192 };
struct block {
    size_t bytes;
    int threads;
};
static struct {
    void *p[KEPT_MAX]; /* oldest first */
    int n;
    size_t bytes;
} kept;

static struct block *header(void *array) { return (struct block *)((char *)array - HEADER); }

/* Frees the oldest kept arrays until `room` more bytes fit in the budget; 1 if they then do.
 * Inside cpu_pool. */
static int make_room(size_t room)
{
    static size_t budget;
    if (!budget) budget = usable_memory() / 8;
    while (kept.n && (kept.bytes + room > budget || kept.n == KEPT_MAX)) {
        kept.bytes -= header(kept.p[0])->bytes;
        free(header(kept.p[0]));
        memmove(kept.p, kept.p + 1, sizeof kept.p[0] * (size_t)--kept.n);
    }
    return kept.bytes + room <= budget;
}

static void *cpu_alloc(size_t bytes)
{
    /* Not touched here: the first write, by the computing threads, places the pages. */
    bytes = (bytes + 63) / 64 * 64;
    const int threads = omp_get_max_threads();
    void *p = NULL;
#pragma omp critical(cpu_pool)
    for (int i = kept.n - 1; i >= 0 && !p; i--)
        if (header(kept.p[i])->bytes == bytes && header(kept.p[i])->threads == threads) {
            p = kept.p[i];
            kept.bytes -= bytes;
            memmove(kept.p + i, kept.p + i + 1, sizeof kept.p[0] * (size_t)(--kept.n - i));
        }
    if (p) return p;
    struct block *b = aligned_alloc(64, HEADER + bytes + TAIL);
    if (!b) return NULL;
    b->bytes = bytes, b->threads = threads;
    return (char *)b + HEADER;
}

static void cpu_release(void *p)
{
    if (!p) return;
    struct block *b = header(p);
    if (b->bytes < KEEP_FROM) {
        free(b);
        return;
    }
#pragma omp critical(cpu_pool)
    if (make_room(b->bytes)) kept.p[kept.n++] = p, kept.bytes += b->bytes;
    else free(b);
}

/* Copies in the same static split of the index range as fill_random; one chunk (a value the step
 * engine reads or adds to, step_peek) on the calling thread, without waking the others. */
static void cpu_copy(void *dst, const void *src, size_t bytes)
{
    const size_t chunk = 1 << 16;
    long nchunks = (long)((bytes + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (nchunks > 1)
    for (long c = 0; c < nchunks; c++) {
        size_t at = (size_t)c * chunk, len = bytes - at < chunk ? bytes - at : chunk;
        memcpy((char *)dst + at, (const char *)src + at, len);
    }
}

/* A counter-based hash, so a value depends only on (seed, index), whatever the thread split. */
static inline double hash_unit(unsigned seed, size_t i)
{
    unsigned long long x = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 27, x *= 0x94D049BB133111EBull, x ^= x >> 31;
    return (double)(x >> 11) * 0x1.0p-53;
}

static void cpu_fill_random(void *p, size_t n, int precision, unsigned seed, double lo, double hi)
{
    if (precision == F32) {
        float *f = p;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) f[i] = (float)(lo + (hi - lo) * hash_unit(seed, i));
    } else {
        double *f = p;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) f[i] = lo + (hi - lo) * hash_unit(seed, i);
    }
}

static void cpu_set_threads(int threads) { omp_set_num_threads(threads > 0 ? threads : omp_get_num_procs()); }
static int cpu_threads(void) { return omp_get_max_threads(); }

static int cpu_check_block(const int block[3], char *why, size_t n)
{
    if (block[0] != 0) {
        snprintf(why, n, "CPU tiles are JxK rows of whole x lines (the SIMD direction): the x tile must be 0");
        return -1;
    }
    if (block[1] < 0 || block[2] < 0) {
        snprintf(why, n, "CPU tile sizes must be 0 (whole extent) or positive");
        return -1;
    }
    return 0;
}

static int cpu_time_kernel(kernel_fn fn, const struct kernel_args *a, int warmup, int batch, int samples,
                           double *ms, char *why, size_t n)
{
    (void)why, (void)n;
    for (int w = 0; w < warmup; w++) fn(a);
    for (int s = 0; s < samples; s++) {
        double t0 = omp_get_wtime();
        for (int b = 0; b < batch; b++) fn(a);
        ms[s] = (omp_get_wtime() - t0) * 1e3 / batch;
    }
    return 0;
}

static int cpu_run_once(kernel_fn fn, const struct kernel_args *a, char *why, size_t n)
{
    (void)why, (void)n;
    fn(a);
    return 0;
}

static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The team's threads are the ones a kernel's parallel region runs on (OpenMP keeps them). */
static double cpu_threads_cpu_seconds(void)
{
    double sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += thread_seconds();
    return sum;
}

/* The calling thread's core clock in GHz: 2^23 integer adds, each waiting for the one before (one
 * a cycle on any core), over the thread's own CPU time, so that time it spends preempted does not
 * count. The empty asm keeps the compiler from folding the adds into one, and hides the addend:
 * Golden Cove and later Intel cores execute adds of an immediate at rename, four a cycle (this
 * session's Xeon VM read 12 GHz, where register adds and a chain of multiplies read 3.0). About
 * 3 ms. */
static double thread_clock_ghz(void)
{
    enum { ROUNDS = 1 << 20 };
    unsigned long x = 0, one = 1;
    __asm__ volatile("" : "+r"(one));
    const double t0 = thread_seconds();
    for (int i = 0; i < ROUNDS; i++)
        for (int a = 0; a < 8; a++) {
            x += one;
            __asm__ volatile("" : "+r"(x), "+r"(one));
        }
    const double t = thread_seconds() - t0;
    return x == 8ul * ROUNDS && t > 0 ? 8.0 * ROUNDS / t / 1e9 : 0;
}

/* STREAM's copy (c = a) and triad (b = a + s*c) on doubles, the better of `passes` runs each, then
 * the cores' clock (thread_clock_ghz),
 * counting bytes read plus written as STREAM does (write-allocate traffic not counted). Each
 * array is STREAM's rule, 4x the last-level cache, and at least 256 MiB; the three take at most
 * an eighth of the memory this process may use (four runs at once on a 24 GB VM with a 260 MB
 * cache, each with 3 x 4 GiB arrays at the former 8x rounded up to a power of two, were killed).
 * They are first touched and warmed once, then kept for later samples on as many threads
 * (another count touches them anew: on NUMA machines pages live where first touched). A one-pass
 * sample (the one paired with each kernel sample) covers half of each array, the halves in turn:
 * a half was last touched two samples ago, beyond twice the cache, and within a pass the triad
 * rereads a half the copy left twice the cache behind; the pass then takes as long as a
 * 300^3 sample instead of twice as long (on this VM's 260 MB cache, 2.7 GB moved, not 5.4). */
static double cores_clock_ghz(void)
{
    double ghz = 0; /* every thread's core: the clock an updates-per-cycle figure divides by */
    int threads = 0;
#pragma omp parallel reduction(+ : ghz, threads)
    ghz += thread_clock_ghz(), threads++;
    return ghz / threads;
}

static void cpu_probe_bandwidth(struct bandwidth *bw, int passes)
{
    static double *a, *b, *c;
    static size_t n;
    static int touched_by;
    static struct bandwidth last = {.copy_name = "STREAM copy", .second_name = "STREAM triad"};
    int first = 0; /* pass -1, after the first touch, is a warm-up */
    if (passes == 0) {
        *bw = last;
        bw->clock_ghz = cores_clock_ghz();
        return;
    }
    if (a && touched_by != omp_get_max_threads()) {
        cpu_release(a), cpu_release(b), cpu_release(c);
        a = b = c = NULL;
    }
    if (!a) {
        touched_by = omp_get_max_threads();
        const size_t least = (size_t)1 << 25, most = usable_memory() / 8 / 3 / sizeof(double);
        n = 4 * last_level_cache() / sizeof(double);
        n = n > least ? n : least;
        n = n < most ? n : most;
        a = cpu_alloc(n * sizeof *a), b = cpu_alloc(n * sizeof *b), c = cpu_alloc(n * sizeof *c);
        if (!a || !b || !c) {
            fprintf(stderr, "fdtdbench: cannot allocate the bandwidth probe's arrays (3 x %zu MiB)\n",
                    n * sizeof *a >> 20);
            exit(1);
        }
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) a[i] = 1.0, b[i] = 2.0, c[i] = 0.0;
        first = -1;
    }
    static int turn; /* the half of a one-pass sample */
    const size_t len = passes == 1 ? n / 2 : n, lo = passes == 1 && turn++ % 2 ? n - len : 0, hi = lo + len;
    double best_copy = 1e30, best_triad = 1e30;
    for (int pass = first; pass < passes; pass++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (size_t i = lo; i < hi; i++) c[i] = a[i];
        double t1 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (size_t i = lo; i < hi; i++) b[i] = a[i] + 3.0 * c[i];
        double t2 = omp_get_wtime();
        if (pass < 0) continue;
        best_copy = t1 - t0 < best_copy ? t1 - t0 : best_copy;
        best_triad = t2 - t1 < best_triad ? t2 - t1 : best_triad;
    }
    if (c[lo + len / 2] != 1.0 || b[lo + len / 2] != 4.0) fprintf(stderr, "fdtdbench: warning: bandwidth probe's check failed\n");
    bw->copy_name = "STREAM copy";
    bw->second_name = "STREAM triad";
    bw->copy_gbs = 2.0 * len * sizeof(double) / best_copy / 1e9;
    bw->second_gbs = 3.0 * len * sizeof(double) / best_triad / 1e9;
    bw->best_gbs = bw->copy_gbs > bw->second_gbs ? bw->copy_gbs : bw->second_gbs;
    bw->bytes = len * sizeof(double);
    bw->clock_ghz = cores_clock_ghz();
    last = *bw;
}

int cpu_refresh_halo(void *field, const struct halo_args *h, char *why, size_t n); /* halo.c */
static int cpu_sync(char *why, size_t n)
{
    (void)why, (void)n;
    return 0;
}

static const struct backend cpu = {
    .device = DEV_CPU,
    .available = cpu_available,
    .describe = cpu_describe,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .upload = cpu_copy,
    .download = cpu_copy,
    .copy = cpu_copy,
    .fill_random = cpu_fill_random,
    .set_threads = cpu_set_threads,
    .threads = cpu_threads,
    .check_block = cpu_check_block,
    .time_kernel = cpu_time_kernel,
    .threads_cpu_seconds = cpu_threads_cpu_seconds,
    .run_once = cpu_run_once,
    .probe_bandwidth = cpu_probe_bandwidth,
    .refresh_halo = cpu_refresh_halo,
    .sync = cpu_sync,
    .prepare = cpu_kernel_prepare,
    .prepare_layer = cpu_layer_prepare,
    .compiled_ms = cpu_kernel_compiled_ms,
};

const struct backend *cpu_backend(void) { return &cpu; }
