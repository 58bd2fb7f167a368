# Sourced by the shell tests (run from the repository root): counters, a temporary folder
# removed at exit, result NAME FAILURES, where FAILURES is empty when the test passed, and
# summary, which prints the line tests/run.sh reads and exits (non-zero if any test failed).
passed=0 failed=0 skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {
    if [ -z "$2" ]; then
        echo "ok   $1"
        passed=$((passed + 1))
    else
        printf 'FAIL %s:\n%s\n' "$1" "$2"
        failed=$((failed + 1))
    fi
}

summary() {
    echo "$(basename "$0"): $passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
    exit
}
