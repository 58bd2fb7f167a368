/* The spec files, the parser's errors, the term expansion and the derived counts. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdlib.h>

#include "../stencils/fuzz_spec.c" /* the fuzzer's checks, replayed on its kept inputs */
#include "check.h"
#include "kernel.h"

/* SCHEMES.md section 5, the paper's Table 1 (one Hx update, f32, array coefficients). */
static const struct { const char *scheme; int flops, reads, writes, arrays, compulsory; double intensity; } table1[] = {
    {"yee", 6, 7, 1, 5, 24, 0.25},        {"fv24", 45, 46, 1, 8, 36, 1.25}, {"fv24wb", 28, 29, 1, 7, 32, 0.875},
    {"s22", 45, 46, 1, 8, 36, 1.25},      {"s44", 17, 18, 1, 12, 52, 0.327},
};

static void test_counts_match_table1(void)
{
    CHECK(scheme_count() >= 1, "%d schemes built in", scheme_count());
    for (int i = 0; i < scheme_count(); i++) { /* any scheme: bytes follow from arrays and size */
        const struct scheme *s = scheme_at(i);
        struct counts k = scheme_counts(s, F32, COEF_ARRAY);
        CHECK(k.flops > 0 && k.writes == 1 && k.compulsory_bytes == (k.arrays_read + 1) * 4 &&
                  k.naive_bytes == (k.reads + 1) * 4,
              "%s: %d flops, %d arrays, %d compulsory bytes", s->name, k.flops, k.arrays_read, k.compulsory_bytes);
    }
    for (size_t i = 0; i < sizeof table1 / sizeof table1[0]; i++) { /* the paper's schemes, where built */
        const struct scheme *s = scheme_find(table1[i].scheme);
        if (!s) continue; /* a build without it; test_cli.sh checks the default build has all five */
        for (int c = 0; c < NCOMPONENTS; c++) { /* every component costs the same */
            struct counts k = scheme_counts(s, F32, COEF_ARRAY);
            CHECK(k.flops == table1[i].flops && k.reads == table1[i].reads && k.writes == table1[i].writes &&
                      k.arrays_read == table1[i].arrays && k.compulsory_bytes == table1[i].compulsory,
                  "%s %s: %d flops %d reads %d writes %d arrays %d bytes", s->name, component_names[c], k.flops,
                  k.reads, k.writes, k.arrays_read, k.compulsory_bytes);
            CHECK(k.naive_bytes == (table1[i].reads + 1) * 4, "%s naive bytes %d", s->name, k.naive_bytes);
            double intensity = (double)k.flops / k.compulsory_bytes;
            CHECK(intensity > table1[i].intensity - 6e-4 && intensity < table1[i].intensity + 6e-4,
                  "%s intensity %.4f", s->name, intensity);
        }
        /* Uniform coefficients: 16 bytes for leapfrog schemes, 28 for S44 (section 5). */
        struct counts u = scheme_counts(s, F32, COEF_UNIFORM);
        CHECK(u.compulsory_bytes == (s->levels == 1 ? 16 : 28), "%s uniform bytes %d", s->name, u.compulsory_bytes);
        CHECK(scheme_counts(s, F64, COEF_ARRAY).compulsory_bytes == 2 * table1[i].compulsory, "%s f64", s->name);
    }
}

static int has_point(const struct point *p, int n, int di, int dj, int dk, int sign)
{
    for (int i = 0; i < n; i++)
        if (p[i].d[0] == di && p[i].d[1] == dj && p[i].d[2] == dk && p[i].sign == sign) return 1;
    return 0;
}

/* SCHEMES.md section 1-2: Hx's Yee points and FV24's g=3 bracket, written out by hand. */
static void test_expansion_matches_paper(void)
{
    struct group_terms t;
    expand_group(scheme_find("yee"), 0, HX, &t);
    CHECK(t.npoints == 2, "yee points %d", t.npoints);
    CHECK(has_point(t.plus, 2, 0, 0, 1, +1) && has_point(t.plus, 2, 0, 0, 0, -1), "Hx: Ey[k+1] - Ey[k]");
    CHECK(has_point(t.minus, 2, 0, 1, 0, +1) && has_point(t.minus, 2, 0, 0, 0, -1), "Hx: Ez[j+1] - Ez[j]");
    int plus, pa, minus, ma;
    component_sources(HX, &plus, &pa, &minus, &ma);
    CHECK(plus == EY && pa == 2 && minus == EZ && ma == 1, "Hx = +dEy/dz - dEz/dy");
    component_sources(EX, &plus, &pa, &minus, &ma);
    CHECK(plus == HZ && pa == 1 && minus == HY && ma == 2, "Ex = +dHz/dy - dHy/dz");
    /* a fused half-step's source field along each axis, as its kernel and its tensor maps name it:
     * Ex is Hy's minus, Ey Hx's plus, Ez Hx's minus; Hx is Ey's plus, Hy Ex's minus, Hz Ex's plus */
    static const int want[2][3][2] = {{{1, 0}, {0, 1}, {0, 0}}, {{1, 1}, {0, 0}, {0, 1}}};
    for (int h = 0; h < 2; h++)
        for (int ax = 0; ax < 3; ax++) {
            int q, got = fused_source(h ? EX : HX, ax, &q);
            CHECK(q == want[h][ax][0] && got == want[h][ax][1], "%s half-step, field %d: component %d's %s", h ? "E" : "H",
                  ax, q, got ? "plus" : "minus");
        }
    expand_group(scheme_find("yee"), 0, EX, &t); /* E: half-offset m maps to m - 1/2 */
    CHECK(has_point(t.plus, 2, 0, 0, 0, +1) && has_point(t.plus, 2, 0, -1, 0, -1), "Ex: Hz[j] - Hz[j-1]");
    /* FV24 g=3: Ey(i+-1, k+-3/2), Ey(j+-1, k+-3/2), Ez(i+-1, j+-3/2), Ez(j+-3/2, k+-1). */
    expand_group(scheme_find("fv24"), 2, HX, &t);
    CHECK(t.npoints == 8, "fv24 g3 points %d", t.npoints);
    for (int s = -1; s <= 1; s += 2) {
        CHECK(has_point(t.plus, 8, s, 0, 2, +1) && has_point(t.plus, 8, s, 0, -1, -1), "Ey(i%+d, k+-3/2)", s);
        CHECK(has_point(t.plus, 8, 0, s, 2, +1) && has_point(t.plus, 8, 0, s, -1, -1), "Ey(j%+d, k+-3/2)", s);
        CHECK(has_point(t.minus, 8, s, 2, 0, +1) && has_point(t.minus, 8, s, -1, 0, -1), "Ez(i%+d, j+-3/2)", s);
        CHECK(has_point(t.minus, 8, 0, 2, s, +1) && has_point(t.minus, 8, 0, -1, s, -1), "Ez(k%+d, j+-3/2)", s);
    }
    /* Every point of every scheme stays inside the halo. */
    for (int i = 0; i < scheme_count(); i++)
        for (int g = 0; g < scheme_at(i)->ngroups; g++)
            for (int c = 0; c < NCOMPONENTS; c++) {
                expand_group(scheme_at(i), g, c, &t);
                for (int p = 0; p < t.npoints; p++)
                    for (int d = 0; d < 3; d++)
                        CHECK(abs(t.plus[p].d[d]) <= HALO && abs(t.minus[p].d[d]) <= HALO, "%s outside halo",
                              scheme_at(i)->name);
            }
}

static void test_time_rules(void)
{
    const struct scheme *s44 = scheme_find("s44"), *yee = scheme_find("yee");
    CHECK(yee->levels == 1 && time_norm(yee) == 1, "leapfrog norm %g", time_norm(yee));
    CHECK(s44->levels == 4 && time_norm(s44) == 24, "S44 norm %g (SCHEMES.md: 24 dt)", time_norm(s44));
}

/* Each kind of malformed spec gives its own message, naming file and line. */
static void test_parser_errors(void)
{
    static const struct { const char *text, *expect; } cases[] = {
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\n", "missing 'weights'"},
        {"time 1 -1\ngroup w1 1/2 none\nweights fixed 1\n", "missing 'scheme NAME'"},
        {"scheme a\ngroup w1 1/2 none\nweights fixed 1\n", "missing 'time"},
        {"scheme a\ntime 1 -1\nweights fixed 1\n", "missing 'group'"},
        {"scheme a\nbogus 1\n", "x.stencil:2: unknown keyword 'bogus'"},
        {"scheme a\nscheme b\n", "x.stencil:2: 'scheme' given twice"},
        {"scheme a\nreference\nreference\n", "x.stencil:3: 'reference' given twice"},
        {"scheme a\nreference yes\n", "x.stencil:2: expected 'reference' alone"},
        {"scheme A!\n", "x.stencil:1: expected 'scheme NAME'"},
        {"scheme a\ntime 1 -2\n", "x.stencil:2: time: coefficients must sum to 0"},
        {"scheme a\ntime 1 x\n", "x.stencil:2: time coefficient 'x' is not a number"},
        {"scheme a\ntime 1\n", "x.stencil:2: expected 'time C0 C1 ...'"},
        {"scheme a\ntime 1 -1\ngroup w1 5/2 none\n", "x.stencil:3: half-span '5/2'"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 sideways\n", "x.stencil:3: shifts 'sideways'"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\ngroup w1 3/2 none\n", "x.stencil:4: group 'w1' is declared twice"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2\n", "x.stencil:3: expected 'group NAME HALF-SPAN SHIFTS'"},
        {"scheme a\ntime 1 -1\ngroup a 1/2 none\ngroup b 1/2 none\ngroup c 1/2 none\ngroup d 1/2 none\ngroup e 1/2 none\n",
         "x.stencil:7: too many groups"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\nweights fixed 2\n", "x.stencil:4: weights are not consistent"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\nweights fixed 1 2\n", "x.stencil:4: 2 fixed weights for 1 groups"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\nweights fixed one\n", "x.stencil:4: weight 'one' is not a number"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\nweights designed up\n", "x.stencil:4: design direction 'up'"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\ngroup w2 3/2 none\nweights designed axial body\n",
         "x.stencil:5: 2 groups need 1 design directions"},
        {"scheme a\ntime 1 -1\ngroup w1 1/2 none\nweights sometimes\n", "x.stencil:4: expected 'weights fixed"},
        {"scheme a a a a a a a a a a a a a\n", "x.stencil:1: too many words"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct scheme s;
        char err[512] = "";
        int rc = spec_parse(cases[i].text, "x.stencil", &s, err, sizeof err);
        CHECK(rc == -1 && strstr(err, cases[i].expect), "case %zu: rc %d, message '%s', expected '%s'", i, rc, err,
              cases[i].expect);
    }
}

/* The built-in specs parse back to themselves, and their comments and blank lines are ignored. */
static void test_builtin_specs_roundtrip(void)
{
    for (int i = 0; i < scheme_count(); i++) {
        struct scheme s;
        char err[512];
        CHECK(spec_parse(scheme_source(scheme_at(i)), "again", &s, err, sizeof err) == 0, "%s", err);
        CHECK(s.ngroups == scheme_at(i)->ngroups && !strcmp(s.name, scheme_at(i)->name), "%s differs", s.name);
    }
    CHECK(scheme_find("nonesuch") == NULL, "unknown scheme found");
    int refs = 0;
    for (int i = 0; i < scheme_count(); i++) refs += scheme_at(i)->reference;
    CHECK(refs <= 1 && (refs == 0 ? scheme_reference() == NULL : scheme_reference() == scheme_at(0)),
          "%d schemes marked reference; scheme_reference() is %s", refs,
          scheme_reference() ? scheme_reference()->name : "none");
}

/* Every input kept in tests/fuzz_corpus (seeds and any crash the fuzzer found) runs through
 * the fuzzer's own checks, which abort on a violation. */
static void test_fuzz_corpus_replays(void)
{
    DIR *d = opendir("tests/fuzz_corpus");
    if (!d) SKIP("tests/fuzz_corpus not found (run from the repository root)");
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "tests/fuzz_corpus/%s", e->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL, "cannot read %s", path);
        if (!f) continue;
        unsigned char buf[4096];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        n++;
    }
    closedir(d);
    CHECK(n >= 6, "only %d corpus files", n);
}

int main(void)
{
    RUN(test_counts_match_table1);
    RUN(test_expansion_matches_paper);
    RUN(test_time_rules);
    RUN(test_parser_errors);
    RUN(test_builtin_specs_roundtrip);
    RUN(test_fuzz_corpus_replays);
    return TEST_SUMMARY();
}
