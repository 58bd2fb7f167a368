/* libFuzzer entry point for the CLI's size parser (make fuzz): cli_sizes, behind --grid, --tile
 * and --block, must accept exactly "N", "NxN" or "NxNxN" with plain decimal N in range, and
 * return those numbers; anything else (signs, blanks, empty parts, overflow) is refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"

/* The registry is not needed by the parsers under test. */
const char *const device_names[2] = {"cpu", "gpu"};
const struct scheme *scheme_find(const char *name) { (void)name; return NULL; }
const char *scheme_names(void) { return ""; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    int out[3];
    int n = cli_sizes(text, 1, 100000, out, 3);
    /* The grammar by hand: digit runs separated by single 'x'. */
    int parts = 0, ok = text[0] != '\0'; /* argv strings end at the first NUL */
    long want[3] = {0};
    for (const char *p = text; ok && *p;) {
        if (parts == 3 || *p < '0' || *p > '9') { ok = 0; break; }
        long v = 0;
        for (; *p >= '0' && *p <= '9'; p++)
            if (v <= 1000000) v = v * 10 + (*p - '0');
        want[parts++] = v;
        ok = v >= 1 && v <= 100000;
        if (*p == 'x' && *++p == '\0') ok = 0;
    }
    if ((n > 0) != ok) abort();
    for (int i = 0; i < n; i++)
        if (n != parts || out[i] != want[i]) abort();
    free(text);
    return 0;
}
