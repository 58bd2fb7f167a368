/* The schemes built into the binary, parsed once from their embedded spec files, and the
 * lookup of generated kernels. */
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const int builtin_spec_count;
extern const char *const builtin_spec_files[];
extern const char *const builtin_spec_texts[];

const char *const device_names[2] = {"cpu", "gpu"};

static struct scheme schemes[MAX_SCHEMES];
static const char *texts[MAX_SCHEMES]; /* each scheme's spec text, in the same order */
static int nschemes = -1;
static char names[MAX_SCHEMES * 18];

static void parse_all(void);

/* Parsed once, by whichever thread asks first (bench and the tuner look schemes up from every
 * core while compiling GPU kernels ahead). */
static void load(void)
{
    int done;
#pragma omp atomic read
    done = nschemes;
    if (done >= 0) return;
#pragma omp critical(schemes_load)
    if (nschemes < 0) parse_all();
}

static void parse_all(void)
{
    if (builtin_spec_count > MAX_SCHEMES) {
        fprintf(stderr, "fdtdbench: %d built-in schemes, at most %d\n", builtin_spec_count, MAX_SCHEMES);
        exit(2);
    }
    for (int i = 0; i < builtin_spec_count; i++) {
        char err[512];
        /* The generator parsed these at build time, so a failure here is a build fault. */
        if (spec_parse(builtin_spec_texts[i], builtin_spec_files[i], &schemes[i], err, sizeof err)) {
            fprintf(stderr, "fdtdbench: built-in spec: %s\n", err);
            exit(2);
        }
        texts[i] = builtin_spec_texts[i];
    }
    /* The reference scheme first, so that tables start with the row their ratios divide. */
    for (int i = 0; i < builtin_spec_count; i++) {
        if (!schemes[i].reference) continue;
        for (int j = 0; j < i; j++)
            if (schemes[j].reference) {
                fprintf(stderr, "fdtdbench: built-in specs %s and %s are both marked 'reference'\n",
                        schemes[j].file, schemes[i].file);
                exit(2);
            }
        struct scheme ref = schemes[i];
        const char *text = texts[i];
        memmove(&schemes[1], &schemes[0], sizeof *schemes * (size_t)i);
        memmove(&texts[1], &texts[0], sizeof *texts * (size_t)i);
        schemes[0] = ref, texts[0] = text;
    }
    for (int i = 0; i < builtin_spec_count; i++) {
        strcat(names, i ? ", " : "");
        strcat(names, schemes[i].name);
    }
#pragma omp atomic write
    nschemes = builtin_spec_count;
}

int scheme_count(void) { load(); return nschemes; }
const struct scheme *scheme_at(int i) { load(); return i >= 0 && i < nschemes ? &schemes[i] : NULL; }
const char *scheme_names(void) { load(); return names; }

const struct scheme *scheme_find(const char *name)
{
    load();
    for (int i = 0; i < nschemes; i++)
        if (strcmp(schemes[i].name, name) == 0) return &schemes[i];
    return NULL;
}

const struct scheme *scheme_reference(void)
{
    load();
    return nschemes > 0 && schemes[0].reference ? &schemes[0] : NULL;
}

const char *scheme_source(const struct scheme *s)
{
    load();
    return s >= schemes && s < schemes + nschemes ? texts[s - schemes] : NULL;
}

int kernel_variants(enum device d, const char **out, int max)
{
    const struct kernel_entry *t = d == DEV_CPU ? cpu_kernel_table : gpu_kernel_table;
    int n = 0, len = d == DEV_CPU ? cpu_kernel_table_len : gpu_kernel_table_len;
    for (int i = 0; i < len; i++) {
        int seen = 0;
        for (int j = 0; j < n && !seen; j++) seen = !strcmp(out[j], t[i].variant);
        if (!seen && n < max) out[n++] = t[i].variant;
    }
    return n;
}

const struct kernel_entry *kernel_find(enum device d, const char *scheme, int component, int precision,
                                       int coef, const char *variant)
{
    const struct kernel_entry *t = d == DEV_CPU ? cpu_kernel_table : gpu_kernel_table;
    int n = d == DEV_CPU ? cpu_kernel_table_len : gpu_kernel_table_len;
    for (int i = 0; i < n; i++)
        if (t[i].component == component && t[i].precision == precision && t[i].coef == coef &&
            strcmp(t[i].scheme, scheme) == 0 && strcmp(t[i].variant, variant) == 0)
            return &t[i];
    return NULL;
}
