/* A spec file's text as a C string literal for the generated builtin_specs.c. */
#ifndef STENCILS_EMBED_H
#define STENCILS_EMBED_H

/* s as one literal line ("    \"...\",\n"), broken after each newline; malloc'd, NULL if out of
 * memory. Anything but plain printable ASCII becomes a 3-digit octal escape, '?' included: no
 * quote, backslash, trigraph or control character in a spec can change the C around it. */
char *c_literal(const char *s);

#endif
