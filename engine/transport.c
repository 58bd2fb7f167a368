/* The transports' shared failure, and the copy transport (transport.h). */
#define _POSIX_C_SOURCE 200809L
#include "transport.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void transport_fail(const char *transport, int rank, const char *call, const char *what)
{
    fflush(stdout);
    if (rank >= 0) fprintf(stderr, "fdtdbench: %s transport, rank %d: %s: %s\n", transport, rank, call, what);
    else fprintf(stderr, "fdtdbench: %s transport, every rank: %s: %s\n", transport, call, what);
    exit(2);
}

void transport_environment(void) { setenv("NCCL_NVLS_ENABLE", "0", 1); }

struct copy {
    struct transport t;
    const struct backend *b;
    int fail_rank;             /* FDTDBENCH_TEST_FAIL_RANK, -1 if unset */
    unsigned long long marked; /* bit r: rank r marked since the last finish */
};

/* Each copy is in order with the launches, so a mark changes nothing here; but the moves from a
 * rank that was not marked would not wait for its launches through NCCL, so that is refused on
 * every machine (make test's decomposition runs here). */
static void copy_mark(struct transport *t, int rank) { ((struct copy *)t)->marked |= 1ull << rank; }

static void copy_start(struct transport *t, const struct plane_move *m, int n)
{
    struct copy *c = (struct copy *)t;
    for (int i = 0; i < n; i++) {
        if (!(c->marked >> m[i].from & 1))
            transport_fail(t->name, m[i].from, "start", "moves from a rank not marked since the last exchange");
        if (m[i].from == c->fail_rank) transport_fail(t->name, m[i].from, "copy", "failed as FDTDBENCH_TEST_FAIL_RANK asked");
        c->b->copy(m[i].dst, m[i].src, m[i].bytes);
    }
}

static void copy_finish(struct transport *t) { ((struct copy *)t)->marked = 0; }

static void copy_close(struct transport *t) { free(t); }

struct transport *copy_transport(const struct backend *b)
{
    struct copy *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    const char *fail = getenv("FDTDBENCH_TEST_FAIL_RANK");
    *c = (struct copy){{"copy", copy_mark, copy_start, copy_finish, copy_close}, b, fail && *fail ? atoi(fail) : -1, 0};
    return &c->t;
}
