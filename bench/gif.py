"""The animated GIF of a whole game (issue 17): a 200-ply game of each game, seeded random
moves, rendered frame by frame and encoded. Target: under 10 s, and under Discord's 8 MB.
Its memory (issue 33): each game's GIF made in a fresh process, whose peak RSS (``ru_maxrss``)
is read before the GIF (the interpreter, the modules and the game's record) and after it.
Target: a peak of at most 200 MiB.

``python -m bench.gif``; part of ``make bench``.
"""

from __future__ import annotations

import multiprocessing
import random
import resource

from games import GAMES, Game, new_game
from games.record import record_from_game
from render.gif import GIF_LIMIT, game_gif_info

from .timing import machine_load, summary_row, time_ms, time_wall_cpu_ms, verdict

PLIES = 200
TARGET_S = 10.0
SEEDS = 40  # games that end before 200 plies are tried again with the next seed


def long_game(key: str, plies: int = PLIES) -> Game:
    """The first seeded random game to reach ``plies`` moves (or the longest tried)."""
    best: Game | None = None
    for seed in range(SEEDS):
        rng = random.Random(seed)
        game = new_game(key)
        while not game.is_over and game.ply < plies:
            spec = game.dice_needed()
            if spec is not None:
                game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
            else:
                game.push(rng.choice(game.legal_moves()))
        if best is None or game.ply > best.ply:
            best = game
        if game.ply >= plies:
            break
    assert best is not None
    return best


def gif_lines() -> list[str]:
    lines = [f"Animated GIF of a {PLIES}-ply game ({machine_load()})"]
    for key in GAMES:
        record = record_from_game(long_game(key))
        made: list = []
        wall, cpu = time_wall_cpu_ms(lambda r=record, m=made: m.append(game_gif_info(r)))
        info = made[0]
        seconds, size = wall / 1000, len(info.data)
        lines.append(
            f"  {key:<10} {len(record.moves):>4} plies {len(info.plies):>4} frames"
            f"   {seconds:6.2f} s (cpu {cpu / 1000:5.2f} s) target < {TARGET_S:g} s "
            f"{verdict(seconds, TARGET_S)}   {size / 1e6:5.2f} MB "
            f"target < {GIF_LIMIT / 1e6:g} MB {verdict(size, GIF_LIMIT)}"
        )
    return lines


PEAK_TARGET_MIB = 200.0


def peak_mib() -> float:
    """The peak resident memory of this process so far (Linux counts ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def gif_peaks(key: str) -> tuple[float, float, int]:
    """In this (fresh) process: the peak RSS before and after making ``key``'s GIF, and its
    size in bytes."""
    record = record_from_game(long_game(key))
    before = peak_mib()
    size = len(game_gif_info(record).data)
    return before, peak_mib(), size


def memory_lines() -> list[str]:
    lines = [f"Peak memory of a process making a {PLIES}-ply GIF ({machine_load()})"]
    context = multiprocessing.get_context("spawn")  # a fresh interpreter for each game
    for key in GAMES:
        with context.Pool(1) as pool:
            before, after, size = pool.apply(gif_peaks, (key,))
        lines.append(
            f"  {key:<10} peak {after:6.1f} MiB (before the GIF {before:6.1f} MiB)"
            f" target <= {PEAK_TARGET_MIB:g} MiB {verdict(after, PEAK_TARGET_MIB)}"
            f"   {size / 1e6:5.2f} MB"
        )
    return lines


STEP_TARGET_MS = 100.0


def step_lines() -> list[str]:
    """``/game replay``'s button steps: the worker's job (replay and render) for ▶ from ply
    100 to 130 then ◀ back ten, on the 200-ply game; the first ask (a whole replay) apart."""
    from types import SimpleNamespace

    from bot.domain.records import replay_frame
    from bot.domain.service import default_renderer

    lines = [f"Replay button step, {PLIES}-ply game, render included ({machine_load()})"]
    for number, key in enumerate(GAMES, start=1):
        game = long_game(key)
        row = SimpleNamespace(
            id=number,
            version=1,
            state=game.to_json(),
            players=tuple(range(game.seats)),
            draw_offer_seat=None,
            created_at=0.0,
            updated_at=0.0,
        )
        first = time_ms(lambda r=row: replay_frame(r, 100, default_renderer))
        plies = list(range(101, 131)) + list(range(129, 119, -1))
        steps = [time_ms(lambda r=row, p=p: replay_frame(r, p, default_renderer)) for p in plies]
        lines.append(
            summary_row(f"{key} step", steps, limits={"p50": STEP_TARGET_MS})
            + f" first ask {first:.0f} ms"
        )
    return lines


def main() -> None:
    print("\n".join(gif_lines()))
    print()
    print("\n".join(memory_lines()))
    print()
    print("\n".join(step_lines()))
    print()


if __name__ == "__main__":
    main()
