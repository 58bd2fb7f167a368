/* What the GPU backend's parts share: gpu_backend.c (device, memory, timing, probe, halo),
 * launch.c (the generated kernels' launches and their compilation) and rtc.c (NVRTC). */
#ifndef KERNELS_GPU_INTERNAL_H
#define KERNELS_GPU_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "kernel.h"
#include "rtc.h"

/* GPUs one process drives at most (a grid decomposed across them, engine/decomp.h). */
enum { GPU_MAX_DEVICES = 16 };

/* Device 0's limits, read once (the program ends with one line if they cannot be read). */
struct gpu_device {
    int max_threads, max_dim[3], smem_optin, sms, threads_per_sm;
    char arch[16]; /* what kernels are compiled for: "sm_90", or "compute_XX" (PTX) */
};
const struct gpu_device *gpu_device(void);

/* The architecture kernels are compiled for: the device's, unless forced (rtc_force_arch). */
const char *gpu_arch(void);

/* Loads compiled code as a module of this process and returns its kernel `name`, ready for
 * cudaLaunchKernel (exits with one line if the driver refuses it). */
const void *gpu_load(const struct kcache_code *c, const char *name);

/* One of the backend's own kernels (support.cu: fill_f32, copy16, refresh_f64_u32, ...),
 * compiled on first use. */
const void *gpu_support_kernel(const char *name);

/* Launches fn on a grid of gx x gy x gz blocks; a failure is CUDA's last error, which the
 * callers check after launching (the harness after each launch, the step engine once a step). */
void gpu_start(const void *fn, long gx, long gy, long gz, const unsigned block[3], size_t smem, void **params);

/* The generated kernels' launchers (the GPU table's entries call these: build/gen/gpu_table.c). */
void gpu_kernel_launch(const struct kernel_entry *k, const struct kernel_args *a);
int gpu_kernel_accepts(const struct kernel_entry *k, const struct kernel_args *a, char *why, size_t n);

/* Drops every kernel this process compiled or read (the test that compiles them again with nvcc:
 * tests/test_gpu.c declares it itself). */
void gpu_kernels_forget(void);

#endif
