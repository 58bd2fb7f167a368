/* Result files complete or absent (harness/outfile.c), and the timed launch the verified one
 * (harness/measure.c): names never reused, write errors leave nothing, a signal removes the
 * temporary file, verification grids keep the timed grid's remainders, impossible rows refused.
 * And the tuned file (harness/tuned.c): its lines read back as written, old ones still load. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "measure.h"
#include "outfile.h"
#include "tuned.h"

static char root[64];

/* Entries of dir (0 if it does not exist); the first one's name in first. */
static int entries(const char *dir, char *first, size_t n)
{
    DIR *d = opendir(dir);
    int count = 0;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            if (!count++ && first) snprintf(first, n, "%s", e->d_name);
        }
    closedir(d);
    return count;
}

static void slurp(const char *path, char *out, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(out, 1, n - 1, f) : 0;
    out[got] = '\0';
    if (f) fclose(f);
}

static void link_never_replaces(void)
{
    char dir[128], text[64], path[256];
    snprintf(dir, sizeof dir, "%s/names", root);
    struct outfile a, b;
    CHECK(outfile_open(&a, dir, "x.csv") == 0 && outfile_open(&b, dir, "x.csv") == 0, "open");
    fputs("first\n", a.f);
    fputs("second\n", b.f);
    CHECK(outfile_link(&a, "x", ".csv", 1) == 0 && outfile_link(&b, "x", ".csv", 1) == 0, "link");
    slurp(a.path, text, sizeof text);
    CHECK(!strcmp(text, "first\n") && strstr(a.path, "/x.csv"), "%s: '%s'", a.path, text);
    slurp(b.path, text, sizeof text);
    CHECK(!strcmp(text, "second\n") && strstr(b.path, "/x-2.csv"), "%s: '%s'", b.path, text);
    struct outfile c;
    CHECK(outfile_open(&c, dir, "x.csv") == 0, "open");
    CHECK(outfile_link(&c, "x", ".csv", 0) == -1, "a name that is taken was replaced");
    snprintf(path, sizeof path, "%s/x.csv", dir);
    slurp(path, text, sizeof text);
    CHECK(!strcmp(text, "first\n") && entries(dir, NULL, 0) == 2, "the finished run changed: '%s'", text);
    CHECK(outfile_open(&c, dir, "y.md") == 0, "open");
    fputs("new\n", c.f);
    CHECK(outfile_replace(&c, "x.csv") == 0, "replace");
    slurp(path, text, sizeof text);
    CHECK(!strcmp(text, "new\n") && entries(dir, NULL, 0) == 2, "replace: '%s'", text);
}

/* /dev/full under the stream: every write fails with ENOSPC, as on a full disk. */
static void write_error_leaves_nothing(void)
{
    char dir[128], left[256] = "";
    snprintf(dir, sizeof dir, "%s/full/machine", root);
    struct outfile o;
    CHECK(outfile_open(&o, dir, "full.csv") == 0, "open");
    int full = open("/dev/full", O_WRONLY);
    if (full < 0) SKIP("no /dev/full");
    dup2(full, fileno(o.f));
    close(full);
    for (int i = 0; i < 1000; i++) fprintf(o.f, "row %d of a run that cannot be kept\n", i);
    CHECK(outfile_check(&o) == -1, "a write to a full disk passed");
    snprintf(dir, sizeof dir, "%s/full", root);
    CHECK(entries(dir, left, sizeof left) == 0, "left %s (the folder it made should go too)", left);
}

static void signal_removes_temporary(void)
{
    char dir[128], left[256] = "";
    snprintf(dir, sizeof dir, "%s/signal", root);
    int ready[2];
    if (pipe(ready)) SKIP("no pipe");
    pid_t pid = fork();
    if (pid == 0) {
        struct outfile o;
        if (outfile_open(&o, dir, "run.csv")) _exit(3);
        fputs("header\n", o.f);
        fflush(o.f);
        if (write(ready[1], "x", 1) != 1) _exit(4);
        for (;;) pause();
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1, "child did not open its file");
    CHECK(entries(dir, left, sizeof left) == 1 && !strncmp(left, OUTFILE_TMP_PREFIX, strlen(OUTFILE_TMP_PREFIX)),
          "no temporary file while running: '%s'", left);
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "status %#x: not ended by SIGINT", status);
    CHECK(entries(dir, left, sizeof left) == 0, "left %s", left);
    close(ready[0]), close(ready[1]);
}

static void verification_matches_launch(void)
{
    const struct scheme *yee = scheme_find("yee");
    unsigned seed = 12345;
    for (int t = 0; t < 20000; t++) {
        struct run_config c = {.scheme = yee, .device = t % 2 ? DEV_GPU : DEV_CPU};
        for (int d = 0; d < 3; d++) {
            seed = seed * 1103515245u + 12345u;
            c.grid[d] = 4 + (int)(seed >> 8) % 3000;
            seed = seed * 1103515245u + 12345u;
            c.block[d] = (int)(seed >> 8) % 40 == 0 ? 0 : 1 + (int)(seed >> 8) % (c.grid[d] < 300 ? c.grid[d] : 300);
        }
        if (c.device == DEV_CPU) c.block[0] = 0;
        else c.nodes = 1 + t % 4, c.block[2] = c.block[2] * c.nodes > c.grid[2] ? 1 : c.block[2],
             c.rows = 1 + t / 2 % 4, c.block[1] = c.block[1] * c.rows > c.grid[1] ? 1 : c.block[1];
        char why[256];
        if (check_extent(&c, why, sizeof why)) continue;
        int v[3];
        verify_geometry(&c, v);
        for (int d = 0; d < 3; d++) {
            long m = c.block[d] * (d == 2 && c.nodes > 1 ? c.nodes : d == 1 && c.rows > 1 ? c.rows : 1);
            if (!m && d == 0 && c.device == DEV_CPU) m = 64;
            CHECK(v[d] >= 4 && v[d] <= c.grid[d], "grid %d: verified on %d", c.grid[d], v[d]);
            if (m) CHECK(v[d] % m == c.grid[d] % m && (v[d] >= m || v[d] == c.grid[d]),
                         "dim %d: grid %d, extent %ld: verified on %d", d, c.grid[d], m, v[d]);
        }
    }
    /* The reproduction: a tile beyond the grid is refused before anything runs. */
    struct run_config c = {.scheme = yee, .device = DEV_CPU, .grid = {40, 1000, 40}, .block = {0, 2147483600, 1}};
    char why[256];
    CHECK(check_extent(&c, why, sizeof why) == -1 && strstr(why, "more than the grid"), "tile accepted: %s", why);
}

/* Tuned-file lines: a new one (with rows, stages and regs) reads back as printed; those from before
 * any of these columns read it as 0 (the kernel's default) and are printed back so; every line of the
 * committed tuned files loads; tuned_block finds each kind, and of a kernel tuned at several grids
 * the line of the grid nearest the run's; tuned_fastest_variant ranks the kernels at a grid. */
static void tuned_lines_old_and_new(void)
{
    struct tuned_entry e, back;
    const char *now = "fv24    hx   f32  uniform tile25d   32x4x1       64    4      2   48    12345.6   2345.6  512x512x512\n";
    const char *pre_regs = "fv24 hx f32 uniform tile25d 32x4x1 64 4 2 12345.6 2345.6 512x512x512\n";
    const char *old = "fv24    hx   f32  array   tile25d   128x4x1      64    12082.0   2609.7  512x512x512\n";
    const char *rows_only = "s22 hx f32 array tile25d 64x2x1 32 2 11000.0 2000.0 512x512x512\n";
    CHECK(tuned_parse(now, &e) == 0 && e.rows == 4 && e.stages == 2 && e.regs == 48 && e.nodes == 64 &&
              e.block[1] == 4 && e.coef == COEF_UNIFORM && e.mcells_per_s > 12345 && e.grid[2] == 512,
          "new line: rows %d, stages %d, regs %d, nodes %d", e.rows, e.stages, e.regs, e.nodes);
    CHECK(tuned_parse(pre_regs, &back) == 0 && back.rows == 4 && back.stages == 2 && back.regs == 0,
          "line from before regs: rows %d, stages %d, regs %d", back.rows, back.stages, back.regs);
    char line[256];
    FILE *f = fmemopen(line, sizeof line, "w");
    tuned_print(f, &e);
    fclose(f);
    CHECK(!strcmp(line, now), "printed back as '%s'", line);
    CHECK(tuned_parse(old, &e) == 0 && e.rows == 0 && e.nodes == 64 && e.block[0] == 128 && e.gbs > 2609 &&
              e.grid[0] == 512,
          "old line: rows %d, nodes %d", e.rows, e.nodes);
    f = fmemopen(line, sizeof line, "w");
    tuned_print(f, &e);
    fclose(f);
    CHECK(tuned_parse(line, &back) == 0 && back.rows == 0 && back.stages == 0 && back.nodes == 64,
          "old line written back as '%s'", line);
    CHECK(tuned_parse(rows_only, &e) == 0 && e.rows == 2 && e.stages == 0 && e.nodes == 32,
          "line from before stages: rows %d, stages %d", e.rows, e.stages);
    CHECK(tuned_parse("fv24 hx f32 array tile25d 128x4x1 64 -1 12082.0 2609.7 512x512x512", &e) == -1,
          "negative rows accepted");
    CHECK(tuned_parse("fv24 hx f32 array tile25d 128x4x1 64 4 -3 12082.0 2609.7 512x512x512", &e) == -1,
          "negative stages accepted");
    CHECK(tuned_parse("fv24 hx f32 array tile25d 128x4x1 64 4 3 -1 12082.0 2609.7 512x512x512", &e) == -1,
          "negative regs accepted");
    CHECK(tuned_parse("fv24 hx f32 array tile25d 128x4x1 64 4 3 1 1 12082.0 2609.7 512x512x512", &e) == -1,
          "a line of 14 fields accepted");
    /* Every committed tuned file (what run, bench and step read on that GPU) loads whole. */
    static const char *const committed[] = {TUNED_DIR "/gpu-nvidia-h100-80gb-hbm3.conf",
                                             "results/gpu-nvidia-h100-80gb-hbm3/experiments/statictiles-tuned.conf"};
    for (int i = 0; i < 2; i++) {
        FILE *in = fopen(committed[i], "r");
        if (!in) SKIP("%s not found (not run from the repository root?)", committed[i]);
        int kernels = 0, bad = 0;
        while (fgets(line, sizeof line, in)) {
            if (line[0] == '#' || !line[strspn(line, " \t\r\n")]) continue;
            if (tuned_parse(line, &e) == 0) kernels++;
            else if (bad++ < 3) CHECK(0, "%s: line not read: %s", committed[i], line);
        }
        fclose(in);
        CHECK(kernels > 100 && !bad, "%s: %d kernel lines read, %d not", committed[i], kernels, bad);
    }
    /* tuned_block reads results/tuned/<slug>.conf under the working directory: each kind there. */
    char cwd[4096], dir[128];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd failed");
    snprintf(dir, sizeof dir, "%s/tuned", root);
    CHECK(mkdir(dir, 0700) == 0 && chdir(dir) == 0 && mkdir("results", 0700) == 0 && mkdir(TUNED_DIR, 0700) == 0,
          "cannot make %s/" TUNED_DIR, dir);
    f = fopen(TUNED_DIR "/gpu-test.conf", "w");
    if (f) {
        tuned_print_header(f);
        fputs(now, f);
        fputs(old, f);
        fputs(rows_only, f);
        fputs("fv24 hx f64 array linear 256x1x1 1 1 5000.0 900.0 512x512x512\n"
              "fv24 hx f64 array tile25d 128x2x1 32 2 6000.0 1000.0 512x512x512\n"
              "fv24 hx f64 array step:fused25d 64x4x1 1 1 9000.0 1.0 512x512x512\n"
              "fv24 hx f32 array linear 256x1x1 1 1 8000.0 1400.0 512x512x512\n"
              "fv24 hx f32 uniform tile25d 100x2x1 16 2 3 11000.0 2000.0 300x300x300\n"
              "fv24 hx f64 array linear 128x1x1 1 1 7000.0 900.0 300x300x300\n",
              f);
        fclose(f);
    }
    int block[3], nodes, rows, stages, regs = 0;
    static const int g512[3] = {512, 512, 512}, g300[3] = {300, 300, 300}, g384[3] = {384, 384, 384},
                     g640[3] = {640, 640, 640};
    CHECK(tuned_block("gpu-test", "fv24", HX, F32, COEF_UNIFORM, "tile25d", g512, block, &nodes, &rows, &stages, &regs) ==
                  0 && rows == 4 && stages == 2 && regs == 48 && block[0] == 32,
          "new line: %dx%dx%d, rows %d, stages %d, regs %d", block[0], block[1], block[2], rows, stages, regs);
    CHECK(tuned_block("gpu-test", "fv24", EY, F32, COEF_ARRAY, "tile25d", g512, block, &nodes, &rows, &stages, NULL) == 0 &&
              rows == 0 && stages == 0 && block[0] == 128 && nodes == 64,
          "old line, from another component: %dx%dx%d, rows %d", block[0], block[1], block[2], rows);
    CHECK(tuned_block("gpu-test", "s22", HX, F32, COEF_ARRAY, "tile25d", g512, block, &nodes, &rows, &stages, NULL) == 0 &&
              rows == 2 && stages == 0 && block[0] == 64,
          "line from before stages: %dx%dx%d, rows %d, stages %d", block[0], block[1], block[2], rows, stages);
    /* A kernel tuned at 512^3 and 300^3: each run takes the nearer grid's line (384^3 is nearer 300^3
     * by cell count), another component the same. */
    CHECK(tuned_block("gpu-test", "fv24", HX, F32, COEF_UNIFORM, "tile25d", g300, block, &nodes, &rows, &stages, NULL) == 0 &&
              block[0] == 100 && nodes == 16 && rows == 2 && stages == 3,
          "at 300^3: %dx%dx%d, rows %d, stages %d", block[0], block[1], block[2], rows, stages);
    CHECK(tuned_block("gpu-test", "fv24", EZ, F32, COEF_UNIFORM, "tile25d", g384, block, &nodes, &rows, &stages, NULL) == 0 &&
              block[0] == 100,
          "at 384^3, another component: %dx%dx%d", block[0], block[1], block[2]);
    CHECK(tuned_block("gpu-test", "fv24", HX, F32, COEF_UNIFORM, "tile25d", g640, block, &nodes, &rows, &stages, NULL) == 0 &&
              block[0] == 32,
          "at 640^3: %dx%dx%d", block[0], block[1], block[2]);
    /* The fastest kernel variant of a precision (bench's f64 table) at a grid: not a full step's
     * line, and only the nearest grid's lines compete. */
    char variant[32] = "";
    CHECK(tuned_fastest_variant("gpu-test", "fv24", HX, F64, COEF_ARRAY, g512, variant, sizeof variant) == 0 &&
              !strcmp(variant, "tile25d"),
          "fastest f64 variant at 512^3: '%s'", variant);
    CHECK(tuned_fastest_variant("gpu-test", "fv24", HX, F64, COEF_ARRAY, g300, variant, sizeof variant) == 0 &&
              !strcmp(variant, "linear"),
          "fastest f64 variant at 300^3: '%s'", variant);
    CHECK(tuned_fastest_variant("gpu-test", "s44", HX, F64, COEF_ARRAY, g512, variant, sizeof variant) == -1,
          "a scheme without lines has a fastest variant");
    CHECK(chdir(cwd) == 0, "cannot return to %s", cwd);
}

/* A backend whose clock says every launch took no time: the row must be refused. */
static int instant(kernel_fn fn, const struct kernel_args *a, int warmup, int batch, int samples, double *ms,
                   char *why, size_t n)
{
    (void)fn, (void)a, (void)warmup, (void)batch, (void)why, (void)n;
    for (int s = 0; s < samples; s++) ms[s] = 1e-9;
    return 0;
}

/* A probe that always measures 10 GB/s. */
static void fixed_probe(struct bandwidth *bw, int passes)
{
    (void)passes;
    *bw = (struct bandwidth){.copy_gbs = 10, .second_gbs = 10, .best_gbs = 10, .copy_name = "x", .second_name = "y"};
}

static void impossible_throughput_refused(void)
{
    struct backend fake = *cpu_backend();
    fake.time_kernel = instant;
    fake.probe_bandwidth = fixed_probe;
    struct device_desc d;
    fake.describe(&d);
    d.cache_bytes = 0;
    struct run_config c = {.scheme = scheme_find("yee"), .device = DEV_CPU, .variant = "plain", .grid = {16, 16, 16},
                           .block = {0, 0, 1}, .reps = 3, .threads = 1};
    struct run_result r;
    char why[512] = "";
    CHECK(measure(&fake, &c, &d, &r, why, sizeof why) == -1 && strstr(why, "measurement error"),
          "an instant kernel was accepted: %s", why);
    CHECK(measure(cpu_backend(), &c, &d, &r, why, sizeof why) == 0 || strstr(why, "measurement error"),
          "the real kernel failed: %s", why);
}

int main(void)
{
    /* A test started in the background may inherit SIGINT ignored, which outfile.c respects. */
    signal(SIGINT, SIG_DFL);
    snprintf(root, sizeof root, "/tmp/test_outfile.XXXXXX");
    if (!mkdtemp(root)) return 1;
    RUN(link_never_replaces);
    RUN(write_error_leaves_nothing);
    RUN(signal_removes_temporary);
    RUN(verification_matches_launch);
    RUN(impossible_throughput_refused);
    RUN(tuned_lines_old_and_new);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    if (system(cmd)) printf("could not remove %s\n", root);
    return TEST_SUMMARY();
}
