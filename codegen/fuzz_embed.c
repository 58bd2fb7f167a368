/* libFuzzer entry point for the spec embedding (make fuzz): c_literal of any text must read back,
 * by C's rules, as that text (up to its first NUL, as the generator reads specs), and hold only
 * printable ASCII, line breaks between pieces, and no "??" that a trigraph could start. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *lit = c_literal(text), *back = malloc(strlen(text) + 1);
    if (!lit || !back) abort();
    if (strstr(lit, "??")) abort();
    size_t n = 0;
    const char *p = lit;
    for (;;) { /* pieces: 4 spaces, "...", then a newline and the next, or ",\n" at the end */
        if (strncmp(p, "    \"", 5)) abort();
        for (p += 5; *p != '"'; p++) {
            if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e) abort();
            if (*p != '\\') { back[n++] = *p; continue; }
            p++;
            if (*p == 'n') back[n++] = '\n';
            else if (p[0] >= '0' && p[0] <= '3' && p[1] >= '0' && p[1] <= '7' && p[2] >= '0' && p[2] <= '7')
                back[n++] = (char)((p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0')), p += 2;
            else abort();
        }
        if (!strcmp(p, "\",\n")) break;
        if (strncmp(p, "\"\n", 2)) abort();
        p += 2;
    }
    back[n] = '\0';
    if (n != strlen(text) || memcmp(back, text, n)) abort();
    free(lit), free(back), free(text);
    return 0;
}
