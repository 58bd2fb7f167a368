#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("fdtdbench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

int cli_int(const char *opt, const char *value, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < lo || v > hi)
        cli_error("%s: '%s' is not a whole number from %d to %d", opt, value, lo, hi);
    return (int)v;
}

double cli_double(const char *opt, const char *value, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !(v >= lo && v <= hi))
        cli_error("%s: '%s' is not a number from %g to %g", opt, value, lo, hi);
    return v;
}

void cli_triple(const char *opt, const char *value, int lo, int hi, int out[3])
{
    char buf[64];
    if (strlen(value) >= sizeof buf) cli_error("%s: '%.20s...' is too long", opt, value);
    strcpy(buf, value);
    char *parts[3], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(buf, "x", &save); t; t = strtok_r(NULL, "x", &save)) {
        if (n == 3) cli_error("%s: '%s' has more than three sizes (expected AxBxC)", opt, value);
        parts[n++] = t;
    }
    if (n != 1 && n != 3) cli_error("%s: '%s' is not AxBxC or a single size", opt, value);
    for (int d = 0; d < 3; d++) {
        char *end;
        errno = 0;
        long v = strtol(parts[n == 1 ? 0 : d], &end, 10);
        if (errno || *end || end == parts[n == 1 ? 0 : d] || v < lo || v > hi)
            cli_error("%s: '%s': each size must be a whole number from %d to %d", opt, value, lo, hi);
        out[d] = (int)v;
    }
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
