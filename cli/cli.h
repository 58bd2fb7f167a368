/* Command-line helpers shared by every subcommand: one-line errors and value parsing. */
#ifndef HARNESS_CLI_H
#define HARNESS_CLI_H

#include <stddef.h>

/* Prints "fdtdbench: <message>" and exits with status 2: the one way bad input ends. */
_Noreturn void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same for a failure at run time (a write error, a failed verification): exit status 1. */
_Noreturn void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Each parser names the option in its error: "--reps: '0' is not a whole number from 1 to 100000". */
int cli_int(const char *opt, const char *value, int lo, int hi);
double cli_double(const char *opt, const char *value, double lo, double hi);
/* "NXxNYxNZ" (or "N" for a cube) with each size in [lo, hi]. */
void cli_triple(const char *opt, const char *value, int lo, int hi, int out[3]);
/* Up to count sizes "AxBx..." in [lo, hi], written plainly: their number, or -1 for anything else. */
int cli_sizes(const char *value, int lo, int hi, int out[], int count);
/* A file-name stem (--name): letters, digits and ._+-, no '/', not starting with '.' or '-'. */
int cli_stem(const char *opt, const char *value);
/* The value after option argv[*i], advancing *i; an error if it is missing. */
const char *cli_value(int argc, char **argv, int *i);

/* 1 if path names a gzip-compressed file (".gz"): the results folders keep older files so, since a
 * lent GPU machine takes the working tree only up to 64 MiB. */
int cli_gzipped(const char *path);
/* The whole text of a results file (malloc'd; a .gz one decompressed by gzip -dc): an error if it
 * cannot be read or holds a NUL byte. */
char *cli_read_text(const char *path);

/* Table-driven options: each command lists its options once (name, value kind, range, help
 * line); cli_parse reads them with getopt_long, checks every value and prints --help from the
 * same table. Options several commands share are defined once below (CLI_OPT_*). */
enum cli_kind {
    CLI_FLAG,   /* int, set to 1 */
    CLI_INT,    /* int in [lo, hi] */
    CLI_DOUBLE, /* double in [lo, hi] */
    CLI_GRID,   /* int[3]: NXxNYxNZ or N, each in [lo, hi] */
    CLI_CHOICE, /* int: the index of the value in names[] */
    CLI_TEXT,   /* const char *: checked by the command (lists, names from the registry) */
    CLI_STEM,   /* const char *: a plain file-name stem (cli_stem) */
    CLI_PATH,   /* const char *: a folder or file path, short enough for any name under it */
};
struct cli_option {
    const char *name;  /* without the leading "--" */
    enum cli_kind kind;
    const char *arg;   /* the value's shape in the help ("R", "cpu|gpu"); NULL for a flag */
    const char *help;  /* one line */
    void *dest;
    double lo, hi;
    const char *const *names; /* CLI_CHOICE */
    int nnames;
};
/* Parses argv (argv[0] is the command) into the options' destinations; --help prints usage and
 * the option lines and exits 0; anything wrong ends with one line and exit 2. */
void cli_parse(const char *usage, const struct cli_option *opts, int nopts, int argc, char **argv);
/* The same for a command that takes operands after its options (compare OLD.csv NEW.csv):
 * returns the index in argv of the first operand (argc if none) instead of refusing them. */
enum { CLI_MAX_OPTIONS = 64 }; /* options one command may have */
int cli_parse_args(const char *usage, const struct cli_option *opts, int nopts, int argc, char **argv);
#define CLI_NOPTS(table) ((int)(sizeof(table) / sizeof(table)[0]))

#define CLI_OPT_DEVICE(dest) {"device", CLI_CHOICE, "cpu|gpu", "(cpu)", dest, 0, 0, device_names, 2}
#define CLI_OPT_PRECISION(dest) {"precision", CLI_CHOICE, "f32|f64", "(f32)", dest, 0, 0, precision_names, 2}
#define CLI_OPT_COEF(dest)                                                                               \
    {"coef", CLI_CHOICE, "array|uniform", "position-dependent or scalar coefficients (array)", dest, 0, 0, \
     coef_names, 2}
#define CLI_OPT_REPS(dest) {"reps", CLI_INT, "R", "timed samples, the median is reported (5)", dest, 1, 1000, NULL, 0}
#define CLI_OPT_RESULTS(dest) {"results", CLI_PATH, "DIR", "the results folder (results)", dest, 0, 0, NULL, 0}
#define CLI_OPT_NODES(dest)                                                                            \
    {"nodes", CLI_INT, "N", "marching variants: nodes along z per GPU thread or CPU pass (tuned, else the variant's)", dest, 1, 4096, NULL, 0}
/* Ranges: results.h's LAUNCH_MAX_ROWS and LAUNCH_MAX_STAGES, which check_extent holds every launch to. */
#define CLI_OPT_ROWS(dest)                                                                                           \
    {"rows", CLI_INT, "N", "GPU tiled variants: rows of nodes per thread along y (tuned, else the variant's)", dest, \
     1, LAUNCH_MAX_ROWS, NULL, 0}
#define CLI_OPT_STAGES(dest)                                                                                          \
    {"stages", CLI_INT, "N", "GPU tiled variants: pipeline depth, planes copied ahead (tuned, else the variant's)", \
     dest, 1, LAUNCH_MAX_STAGES, NULL, 0}
#define CLI_OPT_VARIANT(dest) {"variant", CLI_TEXT, "NAME", "kernel variant (cpu: plain, regz, regza; gpu: baseline)", dest, 0, 0, NULL, 0}
#define CLI_OPT_CSV(dest) {"csv", CLI_FLAG, NULL, "comma-separated values with a header line", dest, 0, 0, NULL, 0}
/* The grid sizes every command accepts: at least the halo on each side. */
#define CLI_GRID_MIN 4
#define CLI_GRID_MAX 100000

/* Names, each checked against what is allowed, with the allowed list in the error. */
const struct scheme *cli_scheme(const char *value);
int cli_component(const char *value);
int cli_precision(const char *value);
int cli_coef(const char *value);
int cli_device(const char *value);

/* Subcommands: each takes its own argv (argv[0] is the subcommand's name). */
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_dispersion(int argc, char **argv);
int cmd_cost(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_peers(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_cache(int argc, char **argv);

#endif
