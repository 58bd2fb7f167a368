/* fdtdbench list: each scheme's counts, derived from its spec. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"

static const char *const help =
    "usage: fdtdbench list [OPTIONS]\n"
    "Operation and byte counts of one single-component update, derived from each spec file:\n"
    "flops, reads, writes, distinct arrays read, naive bytes ((reads + writes) x size) and\n"
    "compulsory bytes (each array once). Defaults: f32, array coefficients, all components.\n"
    "--reference prints the name of the scheme ratios are taken against (its spec's 'reference'\n"
    "line), or nothing if no spec has one.\n";

int cmd_list(int argc, char **argv)
{
    int csv = 0, reference = 0, title = 0, precision = F32, coef = COEF_ARRAY, only = -1;
    const char *component = "all";
    const struct cli_option opts[] = {
        CLI_OPT_CSV(&csv),
        CLI_OPT_PRECISION(&precision),
        CLI_OPT_COEF(&coef),
        {"component", CLI_TEXT, "C|all", "hx hy hz ex ey ez, or all (all)", &component, 0, 0, NULL, 0},
        {"reference", CLI_FLAG, NULL, "print the reference scheme's name only (--title: its title)", &reference, 0, 0, NULL, 0},
        {"title", CLI_FLAG, NULL, "with --reference: the title instead of the name", &title, 0, 0, NULL, 0},
    };
    cli_parse(help, opts, CLI_NOPTS(opts), argc, argv);
    if (reference) {
        if (scheme_reference()) puts(title ? scheme_reference()->title : scheme_reference()->name);
        return 0;
    }
    if (strcmp(component, "all")) only = cli_component(component);
    if (csv) printf("scheme,component,flops,reads,writes,arrays_read,naive_bytes,compulsory_bytes\n");
    else printf("%-8s %-4s %6s %6s %6s %12s %12s %17s %14s\n", "scheme", "comp", "flops", "reads", "writes",
                "arrays_read", "naive_bytes", "compulsory_bytes", "flops/byte");
    for (int s = 0; s < scheme_count(); s++)
        for (int c = 0; c < NCOMPONENTS; c++) {
            if (only >= 0 && c != only) continue;
            const struct scheme *sc = scheme_at(s);
            struct counts k = scheme_counts(sc, precision, coef);
            if (csv)
                printf("%s,%s,%d,%d,%d,%d,%d,%d\n", sc->name, component_names[c], k.flops, k.reads, k.writes,
                       k.arrays_read, k.naive_bytes, k.compulsory_bytes);
            else
                printf("%-8s %-4s %6d %6d %6d %12d %12d %17d %14.3f\n", sc->name, component_names[c], k.flops,
                       k.reads, k.writes, k.arrays_read, k.naive_bytes, k.compulsory_bytes,
                       (double)k.flops / k.compulsory_bytes);
        }
    return 0;
}
