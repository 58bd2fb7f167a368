"""fdtdx (JAX) stepping an N^3 box of vacuum for K steps, as scripts/gpu_peers.sh runs it:
    python3 scripts/peer_fdtdx.py --grid N --steps K [--backend gpu|cpu] [--reps R]
One line on stdout, "fdtdx <key>=<value> ...": version, backend, grid and steps as fdtdx holds
them (the E array's shape, its final time-step counter), compile_s (jax.jit's lower and
compile, excluded from the step time), the median of R timed runs of K steps (s), and the
final E field's norm, so that a run that did nothing is caught. PEC walls on all six faces
(fdtdx's BoundaryConfig "pec", one cell each, inside the N^3 box), float32, one z-polarised
point dipole at the centre; materials: fdtdx's per-cell inverse permittivity array.
"""
import argparse
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", type=int, required=True)
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--backend", default="gpu", choices=["gpu", "cpu"])
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()

    import jax
    import jax.numpy as jnp

    if a.backend == "cpu":
        jax.config.update("jax_platforms", "cpu")
    import fdtdx
    from importlib.metadata import version

    n, k = a.grid, a.steps
    spacing = 1e-3
    # Courant 0.99 / sqrt(3) at a 1 mm grid: k steps are k time-step durations.
    grid = fdtdx.UniformGrid(spacing=spacing)
    probe = fdtdx.SimulationConfig(time=1.0, grid=grid, backend=a.backend, dtype=jnp.float32)
    dt = probe.time_step_duration
    config = fdtdx.SimulationConfig(time=k * dt, grid=grid, backend=a.backend, dtype=jnp.float32)
    if config.backend != a.backend:
        sys.exit(f"fdtdx: backend {a.backend} not available (fdtdx fell back to {config.backend})")
    if config.time_steps_total != k:
        sys.exit(f"fdtdx: configured {config.time_steps_total} steps, not {k}")

    volume = fdtdx.SimulationVolume(partial_grid_shape=(n, n, n))
    bounds, constraints = fdtdx.boundary_objects_from_config(
        fdtdx.BoundaryConfig.from_uniform_bound(thickness=1, boundary_type="pec"), volume)
    source = fdtdx.PointDipoleSource(
        partial_grid_shape=(1, 1, 1), polarization=2,
        wave_character=fdtdx.WaveCharacter(wavelength=20 * spacing))
    constraints = list(constraints) + [source.place_at_center(volume)]
    key = jax.random.PRNGKey(0)
    objects, arrays, params, config, _ = fdtdx.place_objects(
        object_list=[volume, source, *bounds.values()], config=config, constraints=constraints, key=key)
    arrays, objects, _ = fdtdx.apply_params(arrays, objects, params, key)

    def run(arrays):
        return fdtdx.run_fdtd(arrays=arrays, objects=objects, config=config, key=key, show_progress=False)

    t0 = time.perf_counter()
    compiled = jax.jit(run).lower(arrays).compile()
    compile_s = time.perf_counter() - t0

    times = []
    for _ in range(max(a.reps, 1)):
        jax.block_until_ready(arrays)
        t0 = time.perf_counter()
        step, out = compiled(arrays)
        jax.block_until_ready(out)
        times.append(time.perf_counter() - t0)
    e = out.fields.E
    shape = "x".join(str(s) for s in e.shape[1:])
    norm = float(jnp.linalg.norm(e.astype(jnp.float32)))
    print(f"fdtdx version={version('fdtdx')} jax={jax.__version__} backend={jax.devices()[0].platform}"
          f" device={jax.devices()[0].device_kind.replace(' ', '_')} grid={shape} steps={int(step)}"
          f" dtype={e.dtype} compile_s={compile_s:.6g} step_s={statistics.median(times):.6g}"
          f" reps={len(times)} e_norm={norm:.6g} inv_eps_shape={'x'.join(map(str, arrays.inv_permittivities.shape))}",
          flush=True)


if __name__ == "__main__":
    main()
