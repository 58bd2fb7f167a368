/* Command-line helpers shared by every subcommand: one-line errors and value parsing. */
#ifndef HARNESS_CLI_H
#define HARNESS_CLI_H

#include <stddef.h>

/* Prints "fdtdbench: <message>" and exits with status 2: the one way bad input ends. */
_Noreturn void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Each parser names the option in its error: "--reps: '0' is not a whole number from 1 to 100000". */
int cli_int(const char *opt, const char *value, int lo, int hi);
double cli_double(const char *opt, const char *value, double lo, double hi);
/* "NXxNYxNZ" (or "N" for a cube) with each size in [lo, hi]. */
void cli_triple(const char *opt, const char *value, int lo, int hi, int out[3]);
/* The value after option argv[*i], advancing *i; an error if it is missing. */
const char *cli_value(int argc, char **argv, int *i);

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
int cmd_tune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_peers(int argc, char **argv);

#endif
