# Prints chosen columns, tab-separated, of the CSV rows that match; columns are found by
# their header names (the first line of each file), never by position.
#   awk -f plots/select.awk -v cols="scheme,mcells_per_s" -v where="table=table4;device=gpu" FILE...
# A condition may list alternatives: "table=blocks|table2". The pseudo-column "file" is the
# file's path. A column missing from a file's header ends with exit status 2.
BEGIN {
    FS = ","
    OFS = "\t"
    nc = split(cols, want, ",")
    nw = split(where, conds, ";")
    for (w = 1; w <= nw; w++) {
        eq = index(conds[w], "=")
        ckey[w] = substr(conds[w], 1, eq - 1)
        cval[w] = "|" substr(conds[w], eq + 1) "|"
    }
}
{ sub(/\r$/, "") }
FNR == 1 {
    for (k in col) delete col[k]
    for (i = 1; i <= NF; i++) col[$i] = i
    for (i = 1; i <= nc; i++)
        if (want[i] != "file" && !(want[i] in col)) missing = want[i]
    for (w = 1; w <= nw; w++)
        if (!(ckey[w] in col)) missing = ckey[w]
    if (missing != "") {
        printf "%s: no column '%s' in the header\n", FILENAME, missing > "/dev/stderr"
        exit 2
    }
    next
}
NF == 0 || /^#/ { next }
{
    for (w = 1; w <= nw; w++)
        if (index(cval[w], "|" $(col[ckey[w]]) "|") == 0) next
    line = ""
    for (i = 1; i <= nc; i++)
        line = line (i > 1 ? OFS : "") (want[i] == "file" ? FILENAME : $(col[want[i]]))
    print line
}
END { if (missing != "") exit 2 }
