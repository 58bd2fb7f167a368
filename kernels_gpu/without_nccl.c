/* The NCCL transport of a build without NCCL (no nccl.h beside the CUDA toolkit's headers, or
 * no CUDA at all): step --gpus says why in one line. */
#include <stdio.h>

#include "transport.h"

#define WHY "this build has no NCCL (no nccl.h in the CUDA toolkit's include folder at build time)"

int nccl_available(char *why, size_t n)
{
    snprintf(why, n, WHY);
    return 0;
}

struct transport *nccl_transport(int ranks, char *why, size_t n)
{
    (void)ranks;
    snprintf(why, n, WHY);
    return NULL;
}
