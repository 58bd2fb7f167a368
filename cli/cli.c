#define _POSIX_C_SOURCE 200809L /* posix_spawnp, fdopen */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "outfile.h"

extern char **environ; /* POSIX names it only here */

static _Noreturn void report(int status, const char *fmt, va_list ap)
{
    fflush(stdout);
    fputs("fdtdbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    exit(status);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(2, fmt, ap);
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(1, fmt, ap);
}

/* A whole number written plainly: optional '-', then digits, nothing before or after (strtol
 * alone would take " 40", "+40" and, past LONG_MAX, wrap through errno only). *end gets where
 * it stopped; the caller decides what may follow. 0, or -1 if there is no number or it overflows. */
static int whole(const char *s, long *v, const char **end)
{
    if (!(isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1])))) return -1;
    char *e;
    errno = 0;
    *v = strtol(s, &e, 10);
    *end = e;
    return errno ? -1 : 0;
}

int cli_int(const char *opt, const char *value, int lo, int hi)
{
    long v;
    const char *end;
    if (whole(value, &v, &end) || *end || v < lo || v > hi)
        cli_error("%s: '%s' is not a whole number from %d to %d", opt, value, lo, hi);
    return (int)v;
}

double cli_double(const char *opt, const char *value, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (!(isdigit((unsigned char)value[0]) || value[0] == '-' || value[0] == '.') || errno || end == value || *end ||
        !(v >= lo && v <= hi))
        cli_error("%s: '%s' is not a number from %g to %g", opt, value, lo, hi);
    return v;
}

int cli_sizes(const char *value, int lo, int hi, int out[], int count)
{
    int n = 0;
    for (const char *p = value;; p++) {
        long v;
        if (n == count || whole(p, &v, &p) || v < lo || v > hi) return -1;
        out[n++] = (int)v;
        if (*p == '\0') break;
        if (*p != 'x') return -1;
    }
    return n;
}

void cli_triple(const char *opt, const char *value, int lo, int hi, int out[3])
{
    int n = cli_sizes(value, lo, hi, out, 3);
    if (n == 1) out[1] = out[2] = out[0];
    else if (n != 3)
        cli_error("%s: '%s' is not AxBxC or a single size: each size must be a whole number from %d to %d", opt,
                  value, lo, hi);
}

int cli_stem(const char *opt, const char *value)
{
    size_t n = strlen(value);
    int plain = n > 0 && n <= 64 && value[0] != '.' && value[0] != '-';
    for (size_t i = 0; plain && i < n; i++)
        plain = isalnum((unsigned char)value[i]) || strchr("._+-", value[i]);
    if (!plain)
        cli_error("%s: '%s' is not a plain file-name stem (1 to 64 letters, digits, '.', '_', '+', '-', "
                  "not starting with '.' or '-')", opt, value);
    return 0;
}

const char *cli_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) cli_error("%s needs a value (see --help)", argv[*i]);
    return argv[++*i];
}

const struct scheme *cli_scheme(const char *value)
{
    const struct scheme *s = scheme_find(value);
    if (!s) cli_error("unknown scheme '%s' (known: %s)", value, scheme_names());
    return s;
}

int cli_component(const char *value)
{
    int c = component_from_name(value);
    if (c < 0) cli_error("unknown component '%s' (known: hx, hy, hz, ex, ey, ez)", value);
    return c;
}

static int pick(const char *what, const char *value, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(value, names[i]) == 0) return i;
    char allowed[128] = "";
    for (int i = 0; i < n; i++) {
        strcat(allowed, i ? ", " : "");
        strcat(allowed, names[i]);
    }
    cli_error("unknown %s '%s' (known: %s)", what, value, allowed);
}

int cli_precision(const char *value) { return pick("precision", value, precision_names, 2); }
int cli_coef(const char *value) { return pick("coefficient storage", value, coef_names, NCOEF_STORAGES); }
int cli_device(const char *value) { return pick("device", value, device_names, 2); }

/* ---- table-driven options ------------------------------------------------------------- */

static void print_help(const char *usage, const struct cli_option *opts, int nopts)
{
    fputs(usage, stdout);
    for (int i = 0; i < nopts; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
        printf("  %-24s %s\n", left, opts[i].help);
    }
}

static void set_value(const struct cli_option *o, const char *value)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", o->name);
    switch (o->kind) {
    case CLI_FLAG: *(int *)o->dest = 1; break;
    case CLI_INT: *(int *)o->dest = cli_int(opt, value, (int)o->lo, (int)o->hi); break;
    case CLI_DOUBLE: *(double *)o->dest = cli_double(opt, value, o->lo, o->hi); break;
    case CLI_GRID: cli_triple(opt, value, (int)o->lo, (int)o->hi, o->dest); break;
    case CLI_CHOICE: *(int *)o->dest = pick(o->name, value, o->names, o->nnames); break;
    case CLI_STEM: cli_stem(opt, value); *(const char **)o->dest = value; break;
    case CLI_PATH:
        /* Room for the machine folder and a file name under it (outfile.h checks again). */
        if (strlen(value) == 0 || strlen(value) > OUTFILE_PATH_MAX - 256)
            cli_error("%s: the path '%.40s%s' is empty or longer than %d characters", opt, value,
                      strlen(value) > 40 ? "..." : "", OUTFILE_PATH_MAX - 256);
        *(const char **)o->dest = value;
        break;
    case CLI_TEXT: *(const char **)o->dest = value; break;
    }
}

int cli_parse_args(const char *usage, const struct cli_option *opts, int nopts, int argc, char **argv)
{
    /* Static, not allocated: the option table is still reachable when an error exits. */
    static struct option lo[CLI_MAX_OPTIONS + 2];
    if (nopts > CLI_MAX_OPTIONS) cli_fail("%d options, at most %d", nopts, CLI_MAX_OPTIONS);
    memset(lo, 0, sizeof lo);
    for (int i = 0; i < nopts; i++)
        lo[i] = (struct option){opts[i].name, opts[i].kind == CLI_FLAG ? no_argument : required_argument, NULL, 256 + i};
    lo[nopts] = (struct option){"help", no_argument, NULL, 'h'};
    optind = 0; /* glibc: start afresh */
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "+:h", lo, NULL)) != -1;) {
        if (c >= 256) set_value(&opts[c - 256], optarg);
        else if (c == 'h') {
            print_help(usage, opts, nopts);
            exit(0);
        } else if (c == ':')
            cli_error("%s needs a value (see --help)", argv[optind - 1]);
        else
            cli_error("%s: unknown option '%s' (see fdtdbench %s --help)", argv[0], argv[optind - 1], argv[0]);
    }
    return optind;
}

void cli_parse(const char *usage, const struct cli_option *opts, int nopts, int argc, char **argv)
{
    int first = cli_parse_args(usage, opts, nopts, argc, argv);
    if (first < argc)
        cli_error("%s: unexpected argument '%s' (see fdtdbench %s --help)", argv[0], argv[first], argv[0]);
}

int cli_gzipped(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* A .gz file's text, from gzip -dc started without a shell (nothing in the path to quote): the read
 * end of its output, its process in *pid. A file that cannot be read, or a gzip that cannot start,
 * ends the run with a line saying which. */
static FILE *gunzip_pipe(const char *path, pid_t *pid)
{
    if (access(path, R_OK)) cli_error("cannot read '%s': %s", path, strerror(errno));
    int fd[2];
    if (pipe(fd)) cli_error("%s: no pipe for gzip -dc: %s", path, strerror(errno));
    posix_spawn_file_actions_t io;
    int rc = posix_spawn_file_actions_init(&io);
    if (!rc) {
        posix_spawn_file_actions_adddup2(&io, fd[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&io, fd[0]);
        posix_spawn_file_actions_addclose(&io, fd[1]);
        char *const argv[] = {"gzip", "-dc", "--", (char *)path, NULL};
        rc = posix_spawnp(pid, "gzip", &io, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&io);
    }
    if (rc) cli_error("%s: cannot start gzip -dc: %s", path, strerror(rc));
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    if (!f) cli_error("%s: cannot read gzip -dc's output: %s", path, strerror(errno));
    return f;
}

/* The buffer is freed before each error below: cli_error exits, and the sanitizers' leak check in
 * CI counts what is still allocated then. */
char *cli_read_text(const char *path)
{
    pid_t gzip = 0;
    FILE *f = cli_gzipped(path) ? gunzip_pipe(path, &gzip) : fopen(path, "rb");
    if (!f) cli_error("cannot read '%s': %s", path, strerror(errno));
    size_t n = 0, cap = 1 << 16;
    char *t = malloc(cap);
    for (size_t got; t && (got = fread(t + n, 1, cap - n - 1, f)) > 0;)
        if ((n += got) + 1 == cap) {
            char *grown = realloc(t, cap *= 2);
            if (!grown) free(t);
            t = grown;
        }
    if (!t) cli_fail("out of memory");
    if (ferror(f)) {
        int err = errno;
        free(t);
        cli_error("cannot read '%s': %s", path, strerror(err));
    }
    fclose(f);
    int status = 0;
    if (gzip && (waitpid(gzip, &status, 0) != gzip || !WIFEXITED(status) || WEXITSTATUS(status))) {
        free(t);
        cli_error("%s: gzip -dc failed (%s %d)", path, WIFSIGNALED(status) ? "signal" : "exit status",
                  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    }
    t[n] = '\0';
    if (strlen(t) != n) {
        free(t);
        cli_error("%s: not a text file (holds a NUL byte)", path);
    }
    return t;
}
