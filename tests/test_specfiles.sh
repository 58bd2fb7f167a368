#!/bin/sh
# Spec files as the generator embeds them: CRLF line ends, quotes, backslashes and trigraphs
# come back byte for byte from the compiled C; a NUL byte, too many specs or a design with no
# solution stop the build with the spec file named.
. tests/shlib.sh
BUILD=${BUILD:-build}
G=$BUILD/gen/generate
CC=${CC:-cc}

embed() { # SPEC...: generate, compile with trigraphs on (-std=c11), print each text back
    "$G" sources "$tmp/specs.c" "$@" 2>"$tmp/gen.err" || return 1
    cat >"$tmp/dump.c" <<'EOF'
#include <stdio.h>
#include <string.h>
extern const int builtin_spec_count;
extern const char *const builtin_spec_texts[];
int main(int argc, char **argv)
{
    (void)argc;
    fputs(builtin_spec_texts[argv[1][0] - '0'], stdout);
    return 0;
}
EOF
    $CC -std=c11 -Wall -Werror -o "$tmp/dump" "$tmp/dump.c" "$tmp/specs.c" 2>"$tmp/cc.err"
}

f=""
printf 'scheme  zcrlf\r\ntitle   Z\r\ntime    1 -1\r\ngroup   w1 1/2 none\r\nweights fixed 1\r\n' >"$tmp/zcrlf.stencil"
printf '# a "quote", a \\ backslash, ??/ ??= ??( trigraphs, a\ttab and \303\251\nscheme  zodd\ntitle   Z\ntime 1 -1\ngroup w1 1/2 none\nweights fixed 1\n' \
    >"$tmp/zodd.stencil"
if embed stencils/yee.stencil "$tmp/zcrlf.stencil" "$tmp/zodd.stencil"; then
    "$tmp/dump" 1 >"$tmp/back1" && cmp -s "$tmp/back1" "$tmp/zcrlf.stencil" || f="$f
CRLF spec not embedded byte for byte"
    "$tmp/dump" 2 >"$tmp/back2" && cmp -s "$tmp/back2" "$tmp/zodd.stencil" || f="$f
quotes, backslash or trigraphs not embedded byte for byte: $(cat "$tmp/back2")"
else
    f="generate or cc failed: $(cat "$tmp/gen.err" "$tmp/cc.err" 2>/dev/null | head -n 5)"
fi
result "CRLF, quotes, backslashes and trigraphs embedded exactly" "$f"

# fails NAME PATTERN SPEC...: the generator must stop with PATTERN on stderr
fails() {
    name=$1 pattern=$2
    shift 2
    if "$G" sources "$tmp/out.c" "$@" 2>"$tmp/err"; then
        result "$name" "the generator accepted it"
    elif grep -q -- "$pattern" "$tmp/err"; then
        result "$name" ""
    else
        result "$name" "stderr: $(cat "$tmp/err")"
    fi
}
printf 'scheme  znul\ntitle   Z\n# a \000 NUL\ntime 1 -1\ngroup w1 1/2 none\nweights fixed 1\n' >"$tmp/znul.stencil"
fails "NUL byte refused with file:line" "znul.stencil:3: NUL byte" "$tmp/znul.stencil"
printf 'scheme  zsing\ntitle   Z\ntime 1 -1\ngroup w1 1/2 none\ngroup w2 1/2 none\nweights designed axial\n' >"$tmp/zsing.stencil"
fails "singular design refused at build time" "zsing.stencil: .*do not fix" "$tmp/zsing.stencil"
i=0
set --
while [ $i -lt 33 ]; do
    sed "s/^scheme .*/scheme z$i/" stencils/yee.stencil >"$tmp/z$i.stencil"
    set -- "$@" "$tmp/z$i.stencil"
    i=$((i + 1))
done
fails "33 specs refused at build time" "33 spec files, at most 32" "$@"

summary
