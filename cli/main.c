/* fdtdbench: the suite's one program. Each subcommand lives in its own file. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "jit.h"
#include "kcache.h"
#include "rtc.h"
#include "transport.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"list", cmd_list, "each scheme's operation and byte counts"},
    {"run", cmd_run, "verify and time one kernel on one grid"},
    {"sweep", cmd_sweep, "verify and time over schemes x components x grids x blocks x threads"},
    {"bench", cmd_bench, "the paper's tables, measured here, beside its figures"},
    {"step", cmd_step, "verify and time whole time steps (all six components), cells x steps / s"},
    {"peers", cmd_peers, "openEMS, Meep and gprMax beside the suite's Yee full step (scripts/peers.sh)"},
    {"probe", cmd_probe, "the device's own memory bandwidth"},
    {"dispersion", cmd_dispersion, "phase-velocity error and stability of a scheme"},
    {"cost", cmd_cost, "what a phase-error budget costs each scheme here: resolution, memory, time"},
    {"tune", cmd_tune, "find and save each kernel's fastest launch (GPU block shapes, CPU tiles and nodes)"},
    {"report", cmd_report, "results/README.md from the committed CSVs"},
    {"compare", cmd_compare, "two results files row by row: faster, slower or within noise"},
    {"cache", cmd_cache, "the kernels compiled at run time (CPU and GPU): list, clear, or compile ahead"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: fdtdbench COMMAND [OPTIONS]   (fdtdbench COMMAND --help for its options)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\nEvery command also takes --no-cache: kernels compiled afresh, none kept (fdtdbench cache).\n");
}

/* --no-cache, wherever it stands after the command: taken out of argv, and said in the
 * environment, which the GPU backend reads and the re-executed process inherits. */
static int take_no_cache(int argc, char **argv)
{
    int n = 1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--no-cache")) setenv("FDTDBENCH_CACHE", "off", 1);
        else argv[n++] = argv[i];
    argv[n] = NULL;
    return n;
}

/* A line per device on what run-time compilation cost this command, where it compiled or loaded
 * any kernel. */
static void kernel_summary(void)
{
    fflush(stdout); /* after the command's output, not inside a line of it where both go to one file */
    for (int d = DEV_CPU; d <= DEV_GPU; d++) {
        int compiled, cached;
        double ms;
        kcache_counts(d, &compiled, &ms, &cached);
        if (compiled || cached)
            fprintf(stderr, "%s kernels: %d compiled by %s (%.1f s of compiling), %d from the cache %s\n",
                    d == DEV_CPU ? "CPU" : "GPU", compiled, d == DEV_CPU ? cpu_compiler() : rtc_version(), ms / 1e3,
                    cached, kcache_dir() ? kcache_dir() : "(off)");
    }
}

/* OpenMP reads its placement variables before main runs, so pinning has to be in the
 * environment the process starts with: set the defaults and start again once. */
static void pin_threads(char **argv)
{
    if (getenv("OMP_PROC_BIND") && getenv("OMP_PLACES")) return;
    if (getenv("FDTDBENCH_PINNED")) return; /* tried once already */
    setenv("OMP_PROC_BIND", getenv("OMP_PROC_BIND") ? getenv("OMP_PROC_BIND") : "close", 1);
    setenv("OMP_PLACES", getenv("OMP_PLACES") ? getenv("OMP_PLACES") : "cores", 1);
    setenv("FDTDBENCH_PINNED", "1", 1);
    execv("/proc/self/exe", argv);
    /* If that fails, run unpinned: the CSV records OMP_PROC_BIND as it is. */
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return argc < 2 ? 2 : 0;
    }
    argc = take_no_cache(argc, argv);
    transport_environment(); /* before any library reads it, and for every process started from here */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            pin_threads(argv);
            int rc = commands[i].fn(argc - 1, argv + 1);
            kernel_summary();
            /* Tables on standard output are results too: a full disk there is a failure. */
            errno = 0;
            if (fflush(stdout) || ferror(stdout)) {
                fprintf(stderr, "fdtdbench: cannot write the standard output%s%s\n", errno ? ": " : "",
                        errno ? strerror(errno) : "");
                return 1;
            }
            return rc;
        }
    fprintf(stderr, "fdtdbench: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
