/* A minimal test framework: each test is a function; CHECK records a failure and goes on;
 * SKIP ends a test as skipped, with the reason. main() calls RUN for each test, then
 * returns TEST_SUMMARY(), which prints "name: N passed, N failed, N skipped" for run.sh. */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed, test_failed, test_skipped;
static int current_failures;
static const char *current_test;
static char skip_reason[512];

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            if (current_failures++ < 10) {                                      \
                printf("  FAIL %s (%s:%d): ", current_test, __FILE__, __LINE__); \
                printf(__VA_ARGS__);                                            \
                printf("\n");                                                   \
            }                                                                   \
        }                                                                       \
    } while (0)

#define SKIP(...)                                                               \
    do {                                                                        \
        snprintf(skip_reason, sizeof skip_reason, __VA_ARGS__);                 \
        return;                                                                 \
    } while (0)

/* TEST_ONLY=WORD: only the tests whose names hold it (a GPU session's quick check:
 * TEST_ONLY=gpu make test ONLY="test_step test_pml"). */
#define RUN(fn)                                                                 \
    do {                                                                        \
        if (getenv("TEST_ONLY") && !strstr(#fn, getenv("TEST_ONLY"))) break;    \
        current_test = #fn;                                                     \
        current_failures = 0;                                                   \
        skip_reason[0] = '\0';                                                  \
        fn();                                                                   \
        if (current_failures) {                                                 \
            test_failed++;                                                      \
            printf("FAIL %s (%d checks failed)\n", #fn, current_failures);      \
        } else if (skip_reason[0]) {                                            \
            test_skipped++;                                                     \
            printf("SKIP %s: %s\n", #fn, skip_reason);                          \
        } else {                                                                \
            test_passed++;                                                      \
            printf("ok   %s\n", #fn);                                           \
        }                                                                       \
        fflush(stdout);                                                         \
    } while (0)

#define TEST_SUMMARY()                                                          \
    (printf("%s: %d passed, %d failed, %d skipped\n", __FILE__, test_passed,    \
            test_failed, test_skipped),                                         \
     test_failed ? 1 : 0)

#endif
