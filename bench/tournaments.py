"""Tournaments (issue 32): pairing a Swiss round of 1,000 players, rounds 1 to 7 of an
event whose results are drawn from the ratings (seeded). Target: every round <= 1 s (wall
clock, with the CPU time beside it for a busy machine)."""

from __future__ import annotations

import random

from bot.domain.tournaments.model import Bye, Entrant, Result, records
from bot.domain.tournaments.swiss import pair_swiss

from .timing import machine_load, time_wall_cpu_ms, verdict

TARGET_PAIRING_MS = 1000.0
PLAYERS = 1000
ROUNDS = 7
SEED = 32


def swiss_round_times(players: int = PLAYERS, rounds: int = ROUNDS) -> list[tuple[float, float]]:
    """Wall-clock and CPU milliseconds to pair each round."""
    chance = random.Random(SEED)
    field = [Entrant(p, chance.gauss(1500, 250)) for p in range(1, players + 1)]
    rating = {e.player: e.rating for e in field}
    results: list[Result] = []
    byes: list[Bye] = []
    times = []
    for number in range(1, rounds + 1):
        history = records(rating, results, byes)
        found = None

        def pair(history=history):
            nonlocal found
            found = pair_swiss(field, history)

        times.append(time_wall_cpu_ms(pair))
        for game in found.pairings:
            expected = 1 / (1 + 10 ** ((rating[game.black] - rating[game.white]) / 400))
            results.append(
                Result(number, game.white, game.black, float(chance.random() < expected))
            )
        if found.bye is not None:
            byes.append(Bye(number, found.bye, 1.0))
    return times


def main() -> None:
    print(f"Tournaments: a Swiss round of {PLAYERS:,} players ({machine_load()})")
    times = swiss_round_times()
    for number, (wall, cpu) in enumerate(times, 1):
        mark = verdict(wall, TARGET_PAIRING_MS)
        print(f"  round {number}  {wall:6.0f} ms (CPU {cpu:4.0f})   target <= 1000 ms {mark}")
    print()


if __name__ == "__main__":
    main()
