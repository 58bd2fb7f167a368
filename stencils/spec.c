/* The spec-file parser, the term expansion and the operation counts. */
#include "spec.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const component_names[NCOMPONENTS] = {"hx", "hy", "hz", "ex", "ey", "ez"};
const char *const precision_names[2] = {"f32", "f64"};
const char *const coef_names[NCOEF_STORAGES] = {"array", "uniform", "indexed"};

int component_from_name(const char *s)
{
    for (int c = 0; c < NCOMPONENTS; c++)
        if (strcmp(s, component_names[c]) == 0) return c;
    return -1;
}

/* ---- parser ---------------------------------------------------------------------- */

struct parser {
    const char *file;
    int line;
    char *err;
    size_t errlen;
};

static int fail(struct parser *p, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->file, p->line);
    if (n < 0 || (size_t)n >= p->errlen) return -1;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A number as "a", "a/b", "-a/b" or a decimal. */
static int parse_number(const char *tok, double *v)
{
    char *end;
    double num = strtod(tok, &end);
    if (end == tok) return -1;
    if (*end == '/') {
        const char *d = end + 1;
        double den = strtod(d, &end);
        if (end == d || den == 0) return -1;
        num /= den;
    }
    if (*end != '\0' || !isfinite(num)) return -1;
    *v = num;
    return 0;
}

enum { MAX_TOKENS = 12, LINE_MAX_CHARS = 512 };

/* Splits a line into tokens in place, dropping a '#' comment. Returns the count, -1 if too many. */
static int tokenize(char *line, char **tok)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    int n = 0;
    for (char *s = strtok(line, " \t\r"); s; s = strtok(NULL, " \t\r")) {
        if (n == MAX_TOKENS) return -1;
        tok[n++] = s;
    }
    return n;
}

static int valid_name(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n == 0 || n >= max) return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

static int parse_group(struct parser *p, struct scheme *s, char **tok, int n)
{
    if (n != 4) return fail(p, "expected 'group NAME HALF-SPAN SHIFTS', e.g. 'group w1 1/2 none'");
    if (s->ngroups == MAX_GROUPS) return fail(p, "too many groups: at most %d", MAX_GROUPS);
    struct term_group *g = &s->group[s->ngroups];
    if (!valid_name(tok[1], sizeof g->name))
        return fail(p, "group name '%s' must be 1-15 characters of a-z, 0-9, _", tok[1]);
    for (int i = 0; i < s->ngroups; i++)
        if (strcmp(s->group[i].name, tok[1]) == 0) return fail(p, "group '%s' is declared twice", tok[1]);
    strcpy(g->name, tok[1]);
    if (strcmp(tok[2], "1/2") == 0) g->half_span2 = 1;
    else if (strcmp(tok[2], "3/2") == 0) g->half_span2 = 3;
    else return fail(p, "half-span '%s': expected 1/2 or 3/2", tok[2]);
    if (strcmp(tok[3], "none") == 0) g->shifts = SHIFTS_NONE;
    else if (strcmp(tok[3], "axes") == 0) g->shifts = SHIFTS_AXES;
    else if (strcmp(tok[3], "diagonals") == 0) g->shifts = SHIFTS_DIAGONALS;
    else return fail(p, "shifts '%s': expected none, axes or diagonals", tok[3]);
    s->ngroups++;
    return 0;
}

static int parse_time(struct parser *p, struct scheme *s, char **tok, int n)
{
    if (n < 3 || n > 1 + MAX_TIME_COEFS)
        return fail(p, "expected 'time C0 C1 ...' with 2 to %d coefficients, e.g. 'time 1 -1'",
                    MAX_TIME_COEFS);
    double sum = 0;
    for (int i = 1; i < n; i++) {
        if (parse_number(tok[i], &s->time_coef[i - 1]))
            return fail(p, "time coefficient '%s' is not a number", tok[i]);
        sum += s->time_coef[i - 1];
    }
    s->levels = n - 2;
    if (s->time_coef[0] == 0) return fail(p, "time: the first coefficient (of the new level) must not be 0");
    if (fabs(sum) > 1e-12) return fail(p, "time: coefficients must sum to 0 (they sum to %g)", sum);
    if (time_norm(s) == 0) return fail(p, "time: sum of c_l (1/2 - l) is 0, so no derivative is approximated");
    return 0;
}

static int parse_weights(struct parser *p, struct scheme *s, char **tok, int n, int *nfixed, double *fixed)
{
    if (n >= 2 && strcmp(tok[1], "fixed") == 0) {
        if (n < 3) return fail(p, "expected 'weights fixed W1 W2 ...'");
        s->weights = WEIGHTS_FIXED;
        *nfixed = n - 2;
        for (int i = 2; i < n; i++)
            if (*nfixed > MAX_GROUPS || parse_number(tok[i], &fixed[i - 2]))
                return fail(p, "weight '%s' is not a number (or more than %d weights)", tok[i], MAX_GROUPS);
        return 0;
    }
    if (n >= 2 && strcmp(tok[1], "designed") == 0) {
        if (n < 3) return fail(p, "expected 'weights designed DIRECTION ...' (axial, face, body)");
        s->weights = WEIGHTS_DESIGNED;
        for (int i = 2; i < n; i++) {
            unsigned bit = strcmp(tok[i], "axial") == 0  ? DESIGN_AXIAL
                           : strcmp(tok[i], "face") == 0 ? DESIGN_FACE
                           : strcmp(tok[i], "body") == 0 ? DESIGN_BODY
                                                         : 0;
            if (!bit) return fail(p, "design direction '%s': expected axial, face or body", tok[i]);
            if (s->design_dirs & bit) return fail(p, "design direction '%s' named twice", tok[i]);
            s->design_dirs |= bit;
        }
        return 0;
    }
    return fail(p, "expected 'weights fixed W...' or 'weights designed DIRECTION...'");
}

static int popcount3(unsigned m) { return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1); }

int spec_parse(const char *text, const char *file, struct scheme *s, char *err, size_t errlen)
{
    struct parser p = {file, 0, err, errlen};
    memset(s, 0, sizeof *s);
    snprintf(s->file, sizeof s->file, "%s", file);
    int seen_time = 0, seen_weights = 0, weights_line = 0, nfixed = 0;
    double fixed[MAX_GROUPS] = {0};
    const char *at = text;
    while (*at) {
        const char *eol = strchr(at, '\n');
        size_t len = eol ? (size_t)(eol - at) : strlen(at);
        char line[LINE_MAX_CHARS];
        p.line++;
        if (len >= sizeof line) return fail(&p, "line longer than %d characters", LINE_MAX_CHARS - 1);
        memcpy(line, at, len);
        line[len] = '\0';
        at += len + (eol != NULL);
        if (strlen(line) != len) return fail(&p, "NUL byte in line");
        char *tok[MAX_TOKENS];
        int n = tokenize(line, tok);
        if (n < 0) return fail(&p, "too many words on one line (at most %d)", MAX_TOKENS);
        if (n == 0) continue;
        if (strcmp(tok[0], "scheme") == 0) {
            if (s->name[0]) return fail(&p, "'scheme' given twice");
            if (n != 2 || !valid_name(tok[1], sizeof s->name))
                return fail(&p, "expected 'scheme NAME', NAME 1-15 characters of a-z, 0-9, _");
            strcpy(s->name, tok[1]);
        } else if (strcmp(tok[0], "title") == 0) {
            if (n != 2 || strlen(tok[1]) >= sizeof s->title)
                return fail(&p, "expected 'title TEXT', one word of at most %zu characters", sizeof s->title - 1);
            strcpy(s->title, tok[1]);
        } else if (strcmp(tok[0], "time") == 0) {
            if (seen_time++) return fail(&p, "'time' given twice");
            if (parse_time(&p, s, tok, n)) return -1;
        } else if (strcmp(tok[0], "group") == 0) {
            if (parse_group(&p, s, tok, n)) return -1;
        } else if (strcmp(tok[0], "reference") == 0) {
            if (n != 1) return fail(&p, "expected 'reference' alone on its line");
            if (s->reference++) return fail(&p, "'reference' given twice");
        } else if (strcmp(tok[0], "weights") == 0) {
            if (seen_weights++) return fail(&p, "'weights' given twice");
            weights_line = p.line;
            if (parse_weights(&p, s, tok, n, &nfixed, fixed)) return -1;
        } else {
            return fail(&p, "unknown keyword '%s': expected scheme, title, reference, time, group or weights", tok[0]);
        }
    }
    p.line = 0;
    if (!s->name[0]) return fail(&p, "missing 'scheme NAME' line");
    if (!seen_time) return fail(&p, "missing 'time C0 C1 ...' line");
    if (s->ngroups == 0) return fail(&p, "missing 'group' lines");
    if (!seen_weights) return fail(&p, "missing 'weights' line");
    if (!s->title[0]) strcpy(s->title, s->name);
    p.line = weights_line;
    if (s->weights == WEIGHTS_FIXED) {
        if (nfixed != s->ngroups)
            return fail(&p, "%d fixed weights for %d groups", nfixed, s->ngroups);
        double consistency = 0;
        for (int g = 0; g < s->ngroups; g++) {
            s->group[g].fixed_weight = fixed[g];
            consistency += fixed[g] * s->group[g].half_span2 * group_shift_count(&s->group[g]);
        }
        if (fabs(consistency - 1) > 1e-12)
            return fail(&p, "weights are not consistent: sum of w*2m*|T| is %.15g, must be 1", consistency);
    } else if (popcount3(s->design_dirs) + 1 != s->ngroups) {
        return fail(&p, "%d groups need %d design directions (plus consistency), %d given", s->ngroups,
                    s->ngroups - 1, popcount3(s->design_dirs));
    }
    return 0;
}

/* ---- derived quantities ---------------------------------------------------------- */

double time_norm(const struct scheme *s)
{
    double norm = 0;
    for (int l = 0; l <= s->levels; l++) norm += s->time_coef[l] * (0.5 - l);
    return norm;
}

int group_shift_count(const struct term_group *g) { return g->shifts == SHIFTS_NONE ? 1 : 4; }

void component_sources(int c, int *plus, int *plus_axis, int *minus, int *minus_axis)
{
    int a = component_axis(c), a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    if (component_is_h(c)) { /* mu dH/dt = -curl E: Hx = +dEy/dz - dEz/dy */
        *plus = EX + a1, *plus_axis = a2;
        *minus = EX + a2, *minus_axis = a1;
    } else { /* eps dE/dt = curl H: Ex = +dHz/dy - dHy/dz */
        *plus = HX + a2, *plus_axis = a1;
        *minus = HX + a1, *minus_axis = a2;
    }
}

int fused_source(int c, int ax, int *q)
{
    for (*q = 0; *q < 3; ++*q) {
        int plus, pa, minus, ma;
        component_sources(c + *q, &plus, &pa, &minus, &ma);
        if (plus % 3 == ax || minus % 3 == ax) return plus % 3 == ax;
    }
    return -1; /* no component reads it: not a fused half-step */
}

/* Points of one source field differentiated along axis xi. A half-offset m maps to array
 * offset m+1/2 in an H update and m-1/2 in an E update (SCHEMES.md section 1). */
static void expand_field(const struct term_group *g, int xi, int is_h, struct point *pts)
{
    static const int axes[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int diagonals[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static const int none[1][2] = {{0, 0}};
    const int(*sh)[2] = g->shifts == SHIFTS_NONE ? none : g->shifts == SHIFTS_AXES ? axes : diagonals;
    int eta = (xi + 1) % 3, zeta = (xi + 2) % 3, m2 = g->half_span2;
    int far = is_h ? (m2 + 1) / 2 : (m2 - 1) / 2;   /* offset of +m */
    int near = is_h ? (1 - m2) / 2 : -(m2 + 1) / 2; /* offset of -m */
    for (int t = 0; t < group_shift_count(g); t++)
        for (int side = 0; side < 2; side++) {
            struct point *p = &pts[2 * t + side];
            p->d[xi] = side == 0 ? far : near;
            p->d[eta] = sh[t][0];
            p->d[zeta] = sh[t][1];
            p->sign = side == 0 ? +1 : -1;
        }
}

void expand_group(const struct scheme *s, int g, int c, struct group_terms *out)
{
    int plus, plus_axis, minus, minus_axis;
    component_sources(c, &plus, &plus_axis, &minus, &minus_axis);
    memset(out, 0, sizeof *out);
    out->npoints = 2 * group_shift_count(&s->group[g]);
    expand_field(&s->group[g], plus_axis, component_is_h(c), out->plus);
    expand_field(&s->group[g], minus_axis, component_is_h(c), out->minus);
}

/* One update, counted over the term list the generator emits (expand_group, as for Hx: every
 * component expands to as many points). Each group's bracket: per field, a difference per
 * pair of points and a sum of the pairs (npoints - 1 operations), then plus minus minus: 2 *
 * npoints - 1. The update: a multiply per old level and per group, and their sum. Arrays: the
 * old levels, each source field a point reads, and with array storage one coefficient per
 * level and group. */
struct counts scheme_counts(const struct scheme *s, enum precision p, enum coef_storage cs)
{
    int L = s->levels, G = s->ngroups, size = p == F32 ? 4 : 8, points = 0, plus = 0, minus = 0, ops = 0;
    for (int g = 0; g < G; g++) {
        struct group_terms t;
        expand_group(s, g, HX, &t);
        points += 2 * t.npoints;
        ops += 2 * t.npoints - 1;
        plus |= t.npoints > 0, minus |= t.npoints > 0;
    }
    struct counts c;
    c.flops = ops + (L + G) + (L + G - 1);
    c.writes = 1;
    c.reads = L + points + (cs == COEF_ARRAY ? L + G : 0);
    c.arrays_read = L + plus + minus + (cs == COEF_ARRAY ? L + G : 0);
    c.naive_bytes = (c.reads + c.writes) * size;
    c.compulsory_bytes = (c.arrays_read + c.writes) * size;
    if (cs == COEF_INDEXED) { /* one byte of material index per node; the tables stay in cache */
        c.reads++, c.arrays_read++;
        c.naive_bytes++, c.compulsory_bytes++;
    }
    return c;
}

void layer_terms(int first, int axis, struct layer_term out[LAYER_TERMS])
{
    int n = 0;
    for (int c = first; c < first + 3; c++) {
        int plus, plus_axis, minus, minus_axis;
        component_sources(c, &plus, &plus_axis, &minus, &minus_axis);
        if (plus_axis == axis && n < LAYER_TERMS) out[n++] = (struct layer_term){c, 0, plus};
        if (minus_axis == axis && n < LAYER_TERMS) out[n++] = (struct layer_term){c, 1, minus};
    }
}

/* Per term: its one field's points in every group, a difference per pair and their sum
 * (npoints - 1 per group), a product per group and their sum (2G - 1); then psi = b psi + c t (3),
 * kinv1 t + psi (2) and the output's update (1). */
struct counts layer_counts(const struct scheme *s, enum precision p, enum coef_storage cs)
{
    const int G = s->ngroups, size = p == F32 ? 4 : 8, coefs = cs == COEF_ARRAY ? G : 0;
    int points = 0, ops = 0;
    for (int g = 0; g < G; g++) {
        struct group_terms t;
        expand_group(s, g, HX, &t);
        points += t.npoints;
        ops += t.npoints - 1;
    }
    struct counts c;
    c.flops = LAYER_TERMS * (ops + 2 * G - 1 + 6);
    c.writes = LAYER_TERMS * 2;                        /* output and psi */
    c.reads = LAYER_TERMS * (1 + points + 1 + coefs); /* output, points, psi, coefficients */
    c.arrays_read = LAYER_TERMS * (3 + coefs);
    c.naive_bytes = (c.reads + c.writes) * size;
    c.compulsory_bytes = (c.arrays_read + c.writes) * size;
    if (cs == COEF_INDEXED) c.reads++, c.arrays_read++, c.naive_bytes++, c.compulsory_bytes++;
    return c;
}
