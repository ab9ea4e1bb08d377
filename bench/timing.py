"""Small timing helpers shared by the benchmarks."""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable, Iterable

from games import Game, new_game


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))
    return ordered[index]


def time_ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def time_wall_cpu_ms(action: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU time of ``action``: on a busy machine the wall clock also counts
    the waits for a core, the CPU time only the work."""
    start, cpu = time.perf_counter(), time.process_time()
    action()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000


def machine_load() -> str:
    """One line on how busy the machine is, to read the wall-clock figures by."""
    cores = os.cpu_count() or 1
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return f"{cores} cores"
    return f"load average {one:.1f} (5 min {five:.1f}) on {cores} cores"


def verdict(value: float, limit: float, at_least: bool = False) -> str:
    """ "ok" when ``value`` meets its target (at most ``limit``, or at least), "MISS" if not."""
    met = value >= limit if at_least else value <= limit
    return "ok" if met else "MISS"


def summary_row(
    name: str,
    samples_ms: list[float],
    target: str = "",
    limits: dict[str, float] | None = None,
) -> str:
    """One timing row; ``limits`` ({"p50": 1.5, "p99": 5}) prints each target, marked "ok" or
    "MISS"."""
    p50, p99 = percentile(samples_ms, 0.5), percentile(samples_ms, 0.99)
    mean = statistics.fmean(samples_ms)
    if limits:
        got = {"p50": p50, "p99": p99, "mean": mean}
        marks = [f"{k} <= {v:g} ms {verdict(got[k], v)}" for k, v in limits.items()]
        target = " ".join(part for part in ("target " + ", ".join(marks), target) if part)
    return f"  {name:<28} p50 {p50:8.3f} ms   p99 {p99:8.3f} ms   mean {mean:8.3f} ms   {target}"


def random_positions(
    key: str, games: int, seed: int = 1, variants: Iterable[str] = ()
) -> list[Game]:
    """Positions visited by seeded random games (dice rolled from the same seed)."""
    rng = random.Random(seed)
    positions: list[Game] = []
    for _ in range(games):
        game = new_game(key, tuple(variants))
        while not game.is_over and game.ply < 400:
            spec = game.dice_needed()
            if spec is not None:
                game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
                continue
            positions.append(game.copy())
            game.push(rng.choice(game.legal_moves()))
    return positions
