# Shared by loop_counts.sh and loop_mca.sh (awk -v name=KERNEL -f loops.awk -f THEIR.awk, fed
# objdump -d --no-show-raw-insn of the kernel's shared object): collects the instructions of the
# kernel's functions (its _run entry, its row function, their OpenMP bodies and clones) into at[]
# (addresses) and ins[] (text), and
# find_loops() finds its vector loops.
function hex(h,   v, i) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
# The address a direct branch at instruction j goes to, or -1.
function branch_target(j) { return ins[j] ~ /^j/ && match(ins[j], /[0-9a-f]+ </) ? hex(substr(ins[j], RSTART, RLENGTH - 2)) : -1 }
function conditional(j) { return ins[j] ~ /^j/ && ins[j] !~ /^jmp/ }
# The instruction at address a, or 0.
function at_index(a,   lo, hi, mid) {
    lo = 1; hi = n
    while (lo <= hi) { mid = int((lo + hi) / 2); if (at[mid] == a) return mid; if (at[mid] < a) lo = mid + 1; else hi = mid - 1 }
    return 0
}
/^[0-9a-f]+ <.*>:$/ { # the kernel's functions: NAME, NAME_run, NAME_row, ... and their clones (NAME_row.constprop.0)
    on = (k = index($0, "<" name)) > 0 && substr($0, k + 1 + length(name), 1) ~ /[._>]/
    next
}
on && /^ +[0-9a-f]+:\t/ { split($0, f, "\t"); gsub(/ /, "", f[1]); n++; at[n] = hex(substr(f[1], 1, length(f[1]) - 1)); ins[n] = f[2] }

# The innermost loops (a backward branch with none inside) that use vector registers: nl of them,
# loop l's instructions hot[l, 1 .. nh[l]] (indices into ins[], the loop's own branches among
# them), its widest register width[l] in bytes. A rarely run block is left out, so that what
# remains is what each iteration runs:
#  - a block that a forward branch inside the loop skips (regz's partial last vector of a row
#    without AVX-512);
#  - the block between a forward branch out of the loop and the address where the code it goes
#    to jumps back in (or to the loop's end, where that code branches back to the loop's start
#    itself): the branch takes the usual way out of line and the block is its exception (AVX2's
#    whole-vector store behind `mask == 0xff`, the lane-by-lane store of a partial vector
#    inline). The out-of-line code is counted instead.
# A loop wholly inside a block left out (that lane-by-lane store) does not make the loop an outer
# one.
function find_loops(   i, j, k, s, t, tj, tb, r, w, inner, c, ne, ne0) {
    nl = 0
    for (i = 1; i <= n; i++) {
        if (ins[i] !~ /^j/ || (t = branch_target(i)) < 0 || t >= at[i]) continue # a latch: conditional, or a jump back (the exit test mid-loop)
        for (s = i; s > 1 && at[s] > t; s--) ;
        split("", cold); split("", extra); ne = 0
        for (j = s; j < i; j++) {
            if (!conditional(j) || (tj = branch_target(j)) <= at[j]) continue
            if (tj <= at[i]) { for (c = j + 1; c < i && at[c] < tj; c++) cold[c] = 1; continue }
            ne0 = ne
            for (k = at_index(tj); k && k <= n && ins[k] !~ /^(jmp|ret)/ && !conditional(k); k++) extra[++ne] = k
            if (k && k <= n && conditional(k) && branch_target(k) == at[s]) r = at[i] + 1 # the code out of line has its own latch
            else if (!k || k > n || ins[k] !~ /^jmp/ || (r = branch_target(k)) <= at[j] || r > at[i]) { ne = ne0; continue }
            extra[++ne] = k
            for (c = j + 1; c <= i && at[c] < r; c++) cold[c] = 1
        }
        inner = 1; w = 0
        for (j = s; j < i; j++) {
            if ((tb = branch_target(j)) >= 0 && tb <= at[j]) # any latch inside, a jump back too
                for (c = at_index(tb); c && c < j; c++) if (!cold[c]) inner = 0 # a loop not wholly in a block left out
            if (cold[j]) continue
            if (ins[j] ~ /zmm/) w = 64; else if (ins[j] ~ /ymm/ && w < 32) w = 32; else if (ins[j] ~ /xmm/ && w < 16) w = 16
        }
        if (!inner || !w) continue
        nl++; nh[nl] = 0; width[nl] = w
        for (j = s; j <= i; j++) if (!cold[j]) hot[nl, ++nh[nl]] = j
        for (c = 1; c <= ne; c++) hot[nl, ++nh[nl]] = extra[c]
    }
    return nl
}
