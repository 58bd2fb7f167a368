/* How halo planes travel between the slabs of a grid split along z (decomp.h): a list of moves,
 * each one contiguous block of whole padded planes from one slab's array to another's, started
 * once the launches made before each source slab's mark have run, and finished before any launch
 * made after finish.
 *
 *   copy  the slabs share one device (the CPU, or one GPU): the backend's copy, in order with its
 *         launches (memcpy; cudaMemcpy), so a mark changes nothing, but a move from a rank not
 *         marked is refused as NCCL's would race. What make test runs: the decomposition on any
 *         machine.
 *   nccl  slab r on GPU r of this process: ncclSend and ncclRecv in one group per half-step, on a
 *         high-priority stream of each GPU's own that waits for the mark, so that the launches made
 *         after the mark (the interior planes' update, queued before the group's host calls) run
 *         while the planes travel (kernels_gpu/nccl_transport.c).
 *
 * A transport does not fail quietly: a failed call ends the program with one line naming the
 * rank (the slab) and the call (transport_fail), as a failed rank must end every process of a
 * job, before any row of its results is written. */
#ifndef ENGINE_TRANSPORT_H
#define ENGINE_TRANSPORT_H

#include <stddef.h>

#include "backend.h"

struct plane_move {
    int from, to;    /* ranks: the slabs */
    const void *src; /* on from's device */
    void *dst;       /* on to's device */
    size_t bytes;
};

struct transport {
    const char *name; /* "copy", "nccl": the CSV's transport column */
    void (*mark)(struct transport *t, int rank); /* the moves from rank read what its launches so far wrote */
    void (*start)(struct transport *t, const struct plane_move *m, int n); /* after every rank's mark */
    void (*finish)(struct transport *t);
    void (*close)(struct transport *t);
};

/* Ends the program: "fdtdbench: <transport> transport, rank R: CALL: WHAT" (rank -1: a call of
 * every rank's) and exit status 2. */
_Noreturn void transport_fail(const char *transport, int rank, const char *call, const char *what);

/* NVLink multicast (NVLS) off, NCCL_NVLS_ENABLE=0, in this process's environment and so in every
 * process it starts: main() and the NCCL transport's loading call it. */
void transport_environment(void);

/* The copy transport over b's copy. Where FDTDBENCH_TEST_FAIL_RANK names a rank, its first move
 * fails instead (the test of transport_fail's path). */
struct transport *copy_transport(const struct backend *b);

/* NCCL between GPUs 0 .. ranks-1 of this process (ncclCommInitAll); NULL with why where NCCL is
 * missing or the communicators cannot be made. nccl_available: 1 if this build has NCCL and its
 * library loads, with its version and file in why ("NCCL 2.28.3 (libnccl.so.2)"), else 0 with
 * one line saying which is missing. */
struct transport *nccl_transport(int ranks, char *why, size_t n);
int nccl_available(char *why, size_t n);

#endif
