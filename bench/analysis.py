"""Post-game analysis (issue 34): the time to analyse a 100-ply game, per game, and the
moves' latency with an analysis running beside them.

- ``analysis_times``: a seeded game of about 100 plies per game (the ``easy`` level against
  itself, by size), analysed as ``/game analysis`` does (``search.analysis.analyse``, the
  ``normal`` level's search by size); the seconds per 100 plies. Target <= 120 s.
- ``burst_beside``: the 200-game burst of ``bench/load.py`` (worker processes) alone, then
  with an analysis running beside it in its own low-priority worker
  (``bot.domain.analysis.judge_step``, as the bot runs it), then alone again: the two runs
  alone show the noise. Target: the whole-move p99 beside within that noise.

``python -m bench.analysis [times|burst]`` (both by default; also in ``make bench``).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from bot.domain import engine_jobs
from bot.domain.analysis import STEP, judge_step
from bot.runtime.workers import Workers
from games import GAMES, Game
from games.record import GameRecord, record_from_game
from search import Search
from search.analysis import analyse, boundary_count

from . import load
from .timing import machine_load, verdict

TARGET_SECONDS = 120.0  # per 100 plies
PLIES = 100
SEED = 34


def played_game(key: str, variants: tuple[str, ...], seed: int = SEED) -> Game:
    """A game of about ``PLIES`` plies (fewer when it ends), easy against easy, by size."""
    rng = random.Random(seed)
    game = GAMES[key](variants)
    while not game.is_over and len(game.moves()) < PLIES:
        spec = game.dice_needed()
        if spec is not None:
            game.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        for move in Search("easy", rng.getrandbits(32), clock=False).choose_turn(game):
            game.push(move)
    return game


def analysis_time(record: GameRecord) -> tuple[float, float]:
    """(wall, CPU) seconds of the record's analysis: on a busy machine the CPU time is what
    a quiet one would take."""
    started, cpu = time.perf_counter(), time.process_time()
    analyse(record, SEED)
    return time.perf_counter() - started, time.process_time() - cpu


def analysis_times() -> None:
    print(f"Analysis of a game (normal level's search by size), per 100 plies: {machine_load()}")
    setups = [(key, ()) for key in GAMES] + [("jikaida", ("pastang",))]
    for key, variants in setups:
        game = played_game(key, variants)
        plies = len(game.moves())
        seconds, cpu = analysis_time(record_from_game(game))
        per_100, cpu_100 = seconds * 100 / plies, cpu * 100 / plies
        name = f"{key} {' '.join(variants)}".strip()
        mark = verdict(per_100, TARGET_SECONDS)
        print(
            f"  {name:<20} {plies:4d} plies {seconds:7.1f} s ({cpu:6.1f} s CPU)"
            f"   per 100 plies {per_100:7.1f} s ({cpu_100:6.1f} s CPU)"
            f"   target <= {TARGET_SECONDS:g} s {mark}"
        )
    print()


async def analyse_beside(stop: asyncio.Event, record: GameRecord) -> int:
    """Analyses of ``record`` run one after another in their own low-priority worker until
    ``stop`` (the event loop only waits for them); returns the steps judged."""
    text, total = record.to_json(), boundary_count(record)
    workers = Workers(1, preload=engine_jobs.PRELOAD)
    steps = 0
    try:
        while not stop.is_set():
            first = (steps * STEP) % total
            await workers.run(judge_step, text, first, first + STEP, SEED, None)
            steps += 1
    finally:
        await workers.close()
    return steps


async def burst(beside: GameRecord | None) -> dict[str, float]:
    """The burst of ``bench/load.py``, with an analysis of ``beside`` running meanwhile."""
    stop = asyncio.Event()
    analysis = asyncio.create_task(analyse_beside(stop, beside)) if beside else None
    try:
        return await load.run("processes")
    finally:
        stop.set()
        if analysis is not None:
            await analysis


def burst_beside() -> None:
    print(f"The 200-game burst (worker processes), alone and beside an analysis: {machine_load()}")
    record = record_from_game(played_game("shax", ()))  # before: not in the bursts' time
    for beside in (None, record, None):
        figures = asyncio.run(burst(beside))
        name = "beside" if beside else "alone"
        print(
            f"  {name:<7} delivered p50 {figures['delivered_p50']:8.1f} ms"
            f"   p99 {figures['delivered_p99']:8.1f} ms   actions/s {figures['rate']:6.1f}"
        )
    print()


def main(parts: tuple[str, ...] = ("times", "burst")) -> None:
    if "times" in parts:
        analysis_times()
    if "burst" in parts:
        burst_beside()


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or ("times", "burst"))
