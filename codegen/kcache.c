/* The kernel cache on disk (kcache.h), which both devices' run-time compilers share. */
#define _GNU_SOURCE /* mkstemps, fsync */
#include "kcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bumped whenever an entry's layout changes: older entries then no longer match any key. */
#define ENTRY_MAGIC "fdtdbench-kernel 2"
#define TMP_PREFIX ".tmp-"
#define AUX_PREFIX "aux-" /* kcache_aux's files */
/* An entry's suffix says its device: what kind of code follows its header. */
static const char *const suffix[2] = {[DEV_CPU] = ".so", [DEV_GPU] = ".cubin"};

static int n_compiled[2], n_cached[2];
static double ms_compiled[2];

void kcache_counts(enum device d, int *compiled, double *compile_ms, int *cached)
{
#pragma omp critical(kcache_counts)
    *compiled = n_compiled[d], *compile_ms = ms_compiled[d], *cached = n_cached[d];
}

/* ---- hashing ------------------------------------------------------------------------ */

/* FNV-1a, 64 bits: names entries and checks their contents (corruption, not attack). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (const unsigned char *c = p; n--; c++) h = (h ^ *c) * 0x100000001b3ull;
    return h;
}
#define FNV_START 0xcbf29ce484222325ull

uint64_t kcache_key_add(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); } /* the NUL separates */
uint64_t kcache_key_start(void) { return kcache_key_add(FNV_START, ENTRY_MAGIC); }

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

const char *kcache_dir(void)
{
    const char *env = getenv("FDTDBENCH_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && !strcmp(env, "off")) return NULL;
#pragma omp critical(kcache_dir)
    if (!dir[0]) {
        if (env && env[0]) snprintf(dir, sizeof dir, "%s", env);
        else if (xdg && xdg[0]) snprintf(dir, sizeof dir, "%s/fdtd-bench", xdg);
        else if (home && home[0]) snprintf(dir, sizeof dir, "%s/.cache/fdtd-bench", home);
    }
    return dir[0] ? dir : NULL;
}

/* Warns once that the cache cannot be used (the run goes on compiling). */
static void cache_warning(const char *what, const char *path)
{
    static int warned;
    int first;
#pragma omp critical(kcache_warn)
    first = !warned++;
    if (first) fprintf(stderr, "fdtdbench: warning: kernel cache: %s %s: %s (kernels are compiled, not kept)\n", what, path, strerror(errno));
}

/* An entry: the code, then its trailer.
 *   <code>
 *   fdtdbench-kernel 2
 *   key <16 hex>
 *   kernel <name> <options>
 *   compiled <ms> ms <UTC date>
 *   code <bytes> <16 hex: FNV-1a of the code>
 * The last line says where the trailer starts: the code's size. */
struct trailer {
    unsigned long long key, sum;
    size_t size;
    double ms;
    char label[1024], date[64];
};

/* Parses the trailer that ends buf[0..n) (buf[n] a NUL): 0, or -1 saying why. */
static int trailer_parse(const char *buf, size_t n, struct trailer *t, char *why, size_t wn)
{
    size_t last = n ? n - 1 : 0; /* the start of the last line */
    while (last > 0 && buf[last - 1] != '\n') last--;
    const char *p = NULL;
    int len = 0;
    if (n < 2 || buf[n - 1] != '\n' || sscanf(buf + last, "code %zu %16llx", &t->size, &t->sum) != 2 || t->size > last)
        return snprintf(why, wn, "it has no trailer (cut short?)"), -1;
    p = buf + t->size;
    if (strncmp(p, ENTRY_MAGIC "\n", strlen(ENTRY_MAGIC) + 1) || sscanf(p += strlen(ENTRY_MAGIC) + 1, "key %16llx\n%n", &t->key, &len) != 1 ||
        strncmp(p += len, "kernel ", 7) || !strchr(p, '\n'))
        return snprintf(why, wn, "its trailer is damaged"), -1;
    snprintf(t->label, sizeof t->label, "%.*s", (int)(strchr(p, '\n') - p - 7), p + 7);
    p = strchr(p, '\n') + 1;
    if (sscanf(p, "compiled %lf ms %63s\n%n", &t->ms, t->date, &len) != 2 || p + len != buf + last)
        return snprintf(why, wn, "its trailer is damaged"), -1;
    return 0;
}

const char *kcache_tmp_dir(void) { return getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp"; }

char *kcache_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    long size = f && !fseek(f, 0, SEEK_END) ? ftell(f) : -1;
    char *s = size >= 0 && !fseek(f, 0, SEEK_SET) ? malloc((size_t)size + 1) : NULL;
    if (s && fread(s, 1, (size_t)size, f) == (size_t)size) s[size] = '\0', *n = (size_t)size;
    else free(s), s = NULL;
    if (f) fclose(f);
    return s;
}

/* Reads path into out if it holds key's whole, undamaged entry: 1; 0 if there is none; -1 if it
 * is damaged (why). */
static int entry_read(const char *path, uint64_t key, struct kcache_code *out, char *why, size_t wn)
{
    size_t n;
    struct trailer t;
    char *buf = kcache_read(path, &n);
    if (!buf) return 0;
    int bad = trailer_parse(buf, n, &t, why, wn);
    if (!bad && t.key != key) bad = 1, snprintf(why, wn, "it holds another kernel");
    if (!bad && fnv(FNV_START, buf, t.size) != t.sum) bad = 1, snprintf(why, wn, "its code does not match its hash");
    if (bad) {
        free(buf);
        return -1;
    }
    buf[t.size] = '\0'; /* PTX is text */
    out->code = buf, out->size = t.size, out->from_cache = 1, out->compile_ms = t.ms;
    return 1;
}

/* A new temporary file in the cache folder d, named so that `cache --clear` removes one left
 * behind: its descriptor, or -1 (errno). */
static int tmp_create(const char *d, char *tmp, size_t n)
{
    snprintf(tmp, n, "%s/" TMP_PREFIX "%ld-XXXXXX", d, (long)getpid());
    return mkstemp(tmp);
}

/* Writes the entry whole or not at all: a temporary file, fsync, rename. 0, or -1 (warned). */
static int entry_write(const char *d, const char *path, uint64_t key, const char *label, const struct kcache_code *c)
{
    char tmp[4200], date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    if (make_dirs(d)) return cache_warning("cannot create", d), -1;
    int fd = tmp_create(d, tmp, sizeof tmp);
    if (fd < 0) return cache_warning("cannot write in", d), -1;
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(c->code, 1, c->size, f) == c->size &&
             fprintf(f, ENTRY_MAGIC "\nkey %016llx\nkernel %s\ncompiled %.1f ms %s\ncode %zu %016llx\n",
                     (unsigned long long)key, label, c->compile_ms, date, c->size,
                     (unsigned long long)fnv(FNV_START, c->code, c->size)) > 0 &&
             fflush(f) == 0 && fsync(fileno(f)) == 0;
    if (f ? fclose(f) : close(fd)) ok = 0;
    if (!ok || rename(tmp, path)) {
        cache_warning("cannot write", tmp);
        unlink(tmp);
        return -1;
    }
    return 0;
}

void kcache_file(enum device d, uint64_t key, char *out, size_t n)
{
    const char *folder = kcache_dir();
    if (folder) snprintf(out, n, "%s/%016llx%s", folder, (unsigned long long)key, suffix[d]);
    else if (n) out[0] = '\0';
}

void kcache_build(enum device d, uint64_t key, const char *label, kcache_compiler compile, void *ctx,
                  struct kcache_code *out)
{
    char path[4200], why[128] = "";
    const char *folder = kcache_dir();
    kcache_file(d, key, path, sizeof path);
    if (folder) {
        const int got = entry_read(path, key, out, why, sizeof why);
        if (got > 0) {
#pragma omp critical(kcache_counts)
            n_cached[d]++;
            out->kept = 1;
            return;
        }
        if (got < 0) fprintf(stderr, "fdtdbench: the cached kernel %s (%s) is damaged: %s; compiling it again\n", path, label, why);
    }
    compile(ctx, out);
    out->from_cache = 0;
#pragma omp critical(kcache_counts)
    n_compiled[d]++, ms_compiled[d] += out->compile_ms;
    out->kept = folder && !entry_write(folder, path, key, label, out);
}

int kcache_aux(const char *name, int (*make)(const char *tmp, void *ctx), void *ctx, char *out, size_t n)
{
    const char *d = kcache_dir();
    char tmp[4200];
    if (!d || snprintf(out, n, "%s/" AUX_PREFIX "%s", d, name) >= (int)n) return -1;
    if (access(out, R_OK) == 0) return 0;
    if (make_dirs(d)) return -1;
    const int fd = tmp_create(d, tmp, sizeof tmp);
    if (fd < 0) return -1;
    close(fd);
    int ok = !make(tmp, ctx), made = open(tmp, O_RDONLY); /* synced before the rename, as entries are */
    if (made < 0 || fsync(made)) ok = 0;
    if (made >= 0) close(made);
    if (!ok || rename(tmp, out)) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- a failed compilation ------------------------------------------------------------ */

/* The log where the user can read it: beside the cache, else in the temporary folder. */
static void write_log(const char *label, const char *log, const char *source, char *path, size_t n)
{
    const char *d = kcache_dir();
    int fd = -1;
    if (d && !make_dirs(d)) {
        snprintf(path, n, "%s/failed-XXXXXX.log", d);
        fd = mkstemps(path, 4);
    }
    if (fd < 0) {
        snprintf(path, n, "%s/fdtdbench-compile-XXXXXX.log", kcache_tmp_dir());
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

void kcache_fail(const char *who, const char *what, const char *label, const char *why, const char *log,
                 const char *source)
{
    char path[4200];
    write_log(label, log ? log : "", source, path, sizeof path);
    fprintf(stderr, "fdtdbench: %s could not %s %s: %s; the log: %s\n", who, what, label, why, path);
    exit(2);
}

/* ---- the cache command ------------------------------------------------------------------ */

/* The device of an entry's file name, -1 if it is not one. */
static int entry_device(const char *name)
{
    const size_t n = strlen(name);
    for (int d = 0; d < 2 && name[0] != '.'; d++) {
        const size_t s = strlen(suffix[d]);
        if (n > s && !strcmp(name + n - s, suffix[d])) return d;
    }
    return -1;
}

int kcache_show(FILE *f, int list)
{
    const char *d = kcache_dir();
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
    long count[2] = {0, 0};
    double bytes = 0, aux_bytes = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        char path[4400], why[128];
        struct stat st;
        struct trailer t;
        size_t n;
        const int dev = entry_device(e->d_name), aux = !strncmp(e->d_name, AUX_PREFIX, strlen(AUX_PREFIX));
        if (dev < 0 && !aux) continue;
        snprintf(path, sizeof path, "%s/%s", d, e->d_name);
        if (stat(path, &st)) continue;
        if (aux) {
            aux_bytes += (double)st.st_size;
            continue;
        }
        count[dev]++, bytes += (double)st.st_size;
        if (!list) continue;
        char *buf = kcache_read(path, &n);
        if (!buf) snprintf(why, sizeof why, "%s", strerror(errno));
        const int ok = buf && !trailer_parse(buf, n, &t, why, sizeof why);
        free(buf);
        if (ok) fprintf(f, "%8.1f KiB  %s  %.1f ms %-24s  %s\n", st.st_size / 1024.0, device_names[dev], t.ms, t.date, t.label);
        else fprintf(f, "%8.1f KiB  %s  (unreadable: %s)\n", st.st_size / 1024.0, device_names[dev], why);
    }
    closedir(dp);
    fprintf(f, "kernel cache: %s: %ld kernels (%ld CPU, %ld GPU), %.1f MiB", d, count[DEV_CPU] + count[DEV_GPU],
            count[DEV_CPU], count[DEV_GPU], bytes / (1 << 20));
    if (aux_bytes > 0) fprintf(f, "; the CPU compiler's precompiled header %.1f MiB", aux_bytes / (1 << 20));
    fputc('\n', f);
    return 0;
}

int kcache_clear(int *removed)
{
    const char *d = kcache_dir();
    *removed = 0;
    if (!d) return 0;
    DIR *dp = opendir(d);
    if (!dp) return errno == ENOENT ? 0 : (fprintf(stderr, "fdtdbench: cannot read the kernel cache %s: %s\n", d, strerror(errno)), -1);
    int rc = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        char path[4400];
        const char *nm = e->d_name;
        const int log = !strncmp(nm, "failed-", 7) && strstr(nm, ".log"), entry = entry_device(nm) >= 0;
        if (!entry && strncmp(nm, TMP_PREFIX, strlen(TMP_PREFIX)) && strncmp(nm, AUX_PREFIX, strlen(AUX_PREFIX)) && !log)
            continue;
        snprintf(path, sizeof path, "%s/%s", d, nm);
        if (unlink(path) == 0) (*removed) += entry;
        else if (errno != ENOENT) {
            fprintf(stderr, "fdtdbench: cannot remove %s: %s\n", path, strerror(errno));
            rc = -1;
        }
    }
    closedir(dp);
    return rc;
}
