"""``/game puzzle``'s answer time (issue 34): the work a worker does for each answer, per
shipped set: showing a puzzle (its board drawn), the autocomplete's turns (listed once per
puzzle, then cached), and checking an answer (the solution, and a wrong turn with its
reason). Target: p95 <= 2 s on a quiet machine."""

from __future__ import annotations

import random

from bot.domain import puzzles
from render import render_png

from .timing import machine_load, percentile, time_ms, verdict

TARGET_P95_MS = 2000.0
SAMPLE = 8  # puzzles per set
SEED = 34


def puzzle_times(puzzle_id: str) -> list[float]:
    """Milliseconds to show the puzzle, list its turns, check its solution and a wrong turn."""
    solution = puzzles.puzzle_of(puzzle_id).solutions[0]
    wrong = puzzles.wrong_turn(puzzle_id)
    steps = [
        lambda: puzzles.show_job(puzzle_id, render_png),
        lambda: puzzles.turn_choices(puzzle_id),
        lambda: puzzles.check_job(puzzle_id, solution),
    ]
    if wrong is not None:
        steps.append(lambda: puzzles.check_job(puzzle_id, wrong))
    return [time_ms(step) for step in steps]


def answer_times(name: str) -> list[float]:
    """Milliseconds of each step for ``SAMPLE`` of the set's puzzles."""
    count = len(puzzles.shipped(name))
    numbers = random.Random(SEED).sample(range(1, count + 1), min(SAMPLE, count))
    times = []
    for number in numbers:
        times.extend(puzzle_times(f"{name}:{number}"))
    return times


def main() -> None:
    print(f"Puzzles (show, turns, answers): {machine_load()}")
    for name in puzzles.SETS:
        times = answer_times(name)
        if not times:
            print(f"  {name:<20} no puzzles shipped")
            continue
        p95 = percentile(times, 0.95)
        mark = verdict(p95, TARGET_P95_MS)
        print(f"  {name:<20} p95 {p95:8.0f} ms   target <= {TARGET_P95_MS:g} ms {mark}")
    print()


if __name__ == "__main__":
    main()
