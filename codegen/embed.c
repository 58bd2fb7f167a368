#include "embed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int plain(unsigned char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' && c != '?'; }

char *c_literal(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n * 9 + 16), *o = out; /* 9 characters for a newline, at most */
    if (!out) return NULL;
    o += sprintf(o, "    \"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c == '\n') o += sprintf(o, "\\n\"\n    \"");
        else if (plain(*c)) *o++ = (char)*c;
        else o += sprintf(o, "\\%03o", *c);
    sprintf(o, "\",\n");
    return out;
}
