/* libFuzzer entry point for the spec parser (make fuzz): any byte string must either parse into
 * a scheme whose counts and expansion stay in range, or fail with a "file:line: ..." message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[512];
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct scheme s;
    if (spec_parse(text, "fuzz", &s, err, sizeof err) == 0) {
        struct counts c = scheme_counts(&s, F64, COEF_ARRAY);
        if (c.flops <= 0 || s.ngroups < 1 || s.ngroups > MAX_GROUPS || s.levels < 1 || s.levels > MAX_LEVELS)
            abort();
        for (int g = 0; g < s.ngroups; g++)
            for (int comp = 0; comp < NCOMPONENTS; comp++) {
                struct group_terms t;
                expand_group(&s, g, comp, &t);
                for (int p = 0; p < t.npoints; p++)
                    for (int d = 0; d < 3; d++)
                        if (abs(t.plus[p].d[d]) > HALO || abs(t.minus[p].d[d]) > HALO) abort();
            }
    } else if (strncmp(err, "fuzz:", 5) != 0) {
        abort(); /* every error names the file */
    }
    free(text);
    return 0;
}
