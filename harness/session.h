/* A device opened for measuring: its backend, description and bandwidth probe. */
#ifndef HARNESS_SESSION_H
#define HARNESS_SESSION_H

#include "results.h"

struct session {
    enum device device;
    const struct backend *b;
    struct device_desc desc;
    struct bandwidth bw;
    int bw_threads; /* thread count the probe ran on (CPU); -1 before the first probe */
    char slug[96];  /* folder name under results/ */
};

/* Opens the device or ends with a one-line error saying why it is not usable. */
void session_open(struct session *s, enum device d);
/* Probes the bandwidth on `threads` threads (0 = all), unless it already did on that many;
 * prints the figures on stderr. */
void session_bandwidth(struct session *s, int threads);
/* Prints the device and bandwidth lines that go with every table. */
void session_print(const struct session *s, FILE *f);

/* The name of the device's tuned file (tuned.h): the GPU's slug, or on the CPU the slug and the
 * thread count (0: all), "cpu-amd-epyc-2t", since a CPU launch tuned on one thread count need
 * not be the best on another. */
void session_tuned_slug(const struct session *s, int threads, char *out, size_t n);
/* That file's path (tuned_path of session_tuned_slug). */
void session_tuned_path(const struct session *s, int threads, char *out, size_t n);

/* Fills c's block (and nodes, if unset) when none was given: the tuned launch (on the CPU for
 * c's thread count), else on the GPU the variant's declared one or the paper's Table 3 shape, on
 * the CPU whole rows of one plane per tile and the variant's declared nodes. Rows per thread and
 * pipeline depth, if unset, always: tuned, else the variant's declared ones (declared_tiling). */
void default_launch(const struct session *s, struct run_config *c);

/* The same for a full step (struct step_run, step_measure.h) whose block was not given: on the
 * GPU the tuned launch of that step variant (tune --step), else its component kernels' own.
 * With a block given, only rows per thread and depth (if unset), as default_launch's. */
struct step_run;
void step_default_launch(const struct session *s, struct step_run *c);

/* Rows per thread and pipeline depth where unset (0): the kernel's declared ones (traits t), or
 * for a variant that takes no others (or no kernel, t NULL) one row and no pipeline (0). */
void declared_tiling(const struct variant_traits *t, int *rows, int *stages);

/* "a,b,c", the value of option --opt, split in place; returns the count (at most max). An empty
 * item or more than max are bad input (cli_error). */
int split_list(const char *opt, char *list, char **items, int max);

#endif
