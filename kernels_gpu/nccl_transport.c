/* The NCCL transport (engine/transport.h): slab r of a decomposed grid on GPU r of this process,
 * one communicator per GPU from ncclCommInitAll. Each exchange is one group of ncclSend and
 * ncclRecv, each GPU's on a non-blocking, high-priority stream of its own: the group waits (an
 * event) for the launches made before the GPU's mark on its default stream, the launches made
 * after the mark (the interior planes' update) run beside it, and finish makes the default stream
 * wait for it in turn.
 *
 * The communicators of a rank count are made once and kept for the process (close leaves them):
 * ncclCommInitAll takes seconds on eight GPUs, and every measured row opens two decompositions
 * (the verification's and the timed one).
 *
 * NCCL is loaded when first asked for (dlopen of NCCL_LIBRARY, the build's: NCCL_HOME's library
 * or libnccl.so.2; FDTDBENCH_NCCL_LIBRARY names another), so that this binary still runs where
 * NCCL is not installed and --gpus says so in one line. NVLink multicast (NVLS) is switched off in
 * the environment before it loads.
 *
 * One process per GPU (several hosts, under MPI) would change two things only: the communicator
 * would come from ncclGetUniqueId on rank 0, broadcast over MPI, and ncclCommInitRank; and each
 * process would hold only its own slab, so start() would post the sends of the moves from it and
 * the receives of the moves to it (local() below), and a failure would MPI_Abort the job. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu_internal.h"
#include "transport.h"

#ifndef NCCL_LIBRARY
#define NCCL_LIBRARY "libnccl.so.2"
#endif

#define NCCL_CALLS(X)                                                                                                \
    X(ncclCommInitAll) X(ncclCommDestroy) X(ncclCommAbort) X(ncclCommGetAsyncError) X(ncclGroupStart)               \
    X(ncclGroupEnd) X(ncclSend) X(ncclRecv) X(ncclGetErrorString) X(ncclGetLastError) X(ncclGetVersion)

static struct {
    void *lib;
#define POINTER(fn) __typeof__(fn) *fn;
    NCCL_CALLS(POINTER)
#undef POINTER
} api;

int nccl_available(char *why, size_t n)
{
    const char *library = getenv("FDTDBENCH_NCCL_LIBRARY");
    if (!library || !*library) library = NCCL_LIBRARY;
    if (api.lib) {
        int v = 0; /* 2.9 and later: major * 10000 + minor * 100 + patch */
        api.ncclGetVersion(&v);
        snprintf(why, n, "NCCL %d.%d.%d (%s)", v / 10000, v / 100 % 100, v % 100, library);
        return 1;
    }
    transport_environment();
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, n, "NCCL: cannot load %s: %s", library, dlerror());
        return 0;
    }
#define RESOLVE(fn)                                                                      \
    if (!(*(void **)&api.fn = dlsym(lib, #fn))) {                                        \
        snprintf(why, n, "NCCL: %s has no %s: not a usable NCCL library", library, #fn); \
        dlclose(lib);                                                                    \
        return 0;                                                                        \
    }
    NCCL_CALLS(RESOLVE)
#undef RESOLVE
    api.lib = lib;
    return nccl_available(why, n);
}

struct nccl {
    struct transport t;
    int ranks;
    ncclComm_t comm[GPU_MAX_DEVICES];
    cudaStream_t stream[GPU_MAX_DEVICES];
    cudaEvent_t ready[GPU_MAX_DEVICES], done[GPU_MAX_DEVICES];
};

/* One process drives every rank: each is local. */
static int local(const struct nccl *x, int rank) { return rank >= 0 && rank < x->ranks; }

/* Every communicator aborted, so that no rank waits on one that failed; then the one line. */
static _Noreturn void fail(struct nccl *x, int rank, const char *call, const char *what)
{
    for (int r = 0; r < x->ranks; r++)
        if (x->comm[r]) api.ncclCommAbort(x->comm[r]);
    transport_fail("nccl", rank, call, what);
}

static void cuda_ok(struct nccl *x, int rank, cudaError_t e, const char *call)
{
    if (e != cudaSuccess) fail(x, rank, call, cudaGetErrorString(e));
}

static void nccl_ok(struct nccl *x, int rank, ncclResult_t r, const char *call)
{
    if (r == ncclSuccess) return;
    if (rank < 0) /* a group's call: the rank whose communicator holds an error, if one does */
        for (int q = 0; q < x->ranks && rank < 0; q++) {
            ncclResult_t e = ncclSuccess;
            if (api.ncclCommGetAsyncError(x->comm[q], &e) == ncclSuccess && e != ncclSuccess) rank = q;
        }
    char what[512];
    const char *last = api.ncclGetLastError(rank >= 0 ? x->comm[rank] : NULL);
    snprintf(what, sizeof what, "%s%s%s", api.ncclGetErrorString(r), last && *last ? ": " : "", last ? last : "");
    fail(x, rank, call, what);
}

static void use(struct nccl *x, int rank) { cuda_ok(x, rank, cudaSetDevice(rank), "cudaSetDevice"); }

/* The sends from rank wait for every launch made so far on its default stream, not for later ones. */
static void nccl_mark(struct transport *t, int rank)
{
    struct nccl *x = (struct nccl *)t;
    use(x, rank);
    cuda_ok(x, rank, cudaEventRecord(x->ready[rank], 0), "cudaEventRecord");
    cuda_ok(x, rank, cudaStreamWaitEvent(x->stream[rank], x->ready[rank], 0), "cudaStreamWaitEvent");
}

static void nccl_start(struct transport *t, const struct plane_move *m, int n)
{
    struct nccl *x = (struct nccl *)t;
    nccl_ok(x, -1, api.ncclGroupStart(), "ncclGroupStart");
    for (int i = 0; i < n; i++) {
        if (local(x, m[i].from))
            nccl_ok(x, m[i].from, api.ncclSend(m[i].src, m[i].bytes, ncclInt8, m[i].to, x->comm[m[i].from],
                                               x->stream[m[i].from]), "ncclSend");
        if (local(x, m[i].to))
            nccl_ok(x, m[i].to, api.ncclRecv(m[i].dst, m[i].bytes, ncclInt8, m[i].from, x->comm[m[i].to],
                                             x->stream[m[i].to]), "ncclRecv");
    }
    nccl_ok(x, -1, api.ncclGroupEnd(), "ncclGroupEnd");
    for (int r = 0; r < x->ranks; r++) {
        use(x, r);
        cuda_ok(x, r, cudaEventRecord(x->done[r], x->stream[r]), "cudaEventRecord");
    }
}

static void nccl_finish(struct transport *t)
{
    struct nccl *x = (struct nccl *)t;
    for (int r = 0; r < x->ranks; r++) { /* the default stream's later launches wait for the planes */
        use(x, r);
        cuda_ok(x, r, cudaStreamWaitEvent(0, x->done[r], 0), "cudaStreamWaitEvent");
    }
}

static void nccl_close(struct transport *t) { (void)t; } /* kept for the next decomposition (above) */

struct transport *nccl_transport(int ranks, char *why, size_t n)
{
    static struct nccl *made[GPU_MAX_DEVICES + 1];
    if (!nccl_available(why, n)) return NULL;
    if (ranks < 1 || ranks > GPU_MAX_DEVICES) {
        snprintf(why, n, "NCCL: %d ranks: one process drives 1 to %d GPUs", ranks, GPU_MAX_DEVICES);
        return NULL;
    }
    if (made[ranks]) return &made[ranks]->t;
    struct nccl *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(why, n, "out of host memory");
        return NULL;
    }
    x->t = (struct transport){"nccl", nccl_mark, nccl_start, nccl_finish, nccl_close};
    x->ranks = ranks;
    int devices[GPU_MAX_DEVICES];
    for (int r = 0; r < ranks; r++) devices[r] = r;
    ncclResult_t e = api.ncclCommInitAll(x->comm, ranks, devices);
    if (e != ncclSuccess) {
        snprintf(why, n, "NCCL: ncclCommInitAll over %d GPUs: %s: %s", ranks, api.ncclGetErrorString(e),
                 api.ncclGetLastError(NULL));
        free(x);
        return NULL;
    }
    for (int r = 0; r < ranks; r++) { /* NCCL's blocks ahead of the interior's waiting ones: its stream first */
        int least, greatest;
        use(x, r);
        cuda_ok(x, r, cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
        cuda_ok(x, r, cudaStreamCreateWithPriority(&x->stream[r], cudaStreamNonBlocking, greatest),
                "cudaStreamCreateWithPriority");
        cuda_ok(x, r, cudaEventCreateWithFlags(&x->ready[r], cudaEventDisableTiming), "cudaEventCreateWithFlags");
        cuda_ok(x, r, cudaEventCreateWithFlags(&x->done[r], cudaEventDisableTiming), "cudaEventCreateWithFlags");
    }
    made[ranks] = x;
    return &x->t;
}
