"""``/game hint``'s answer time (issue 34): the job a worker runs for a hint (the ``normal``
level's whole turn, timed as the bot plays it, then ``search.explain.reason``), per game, on
mid-game positions of seeded random games. Target: p95 <= 2 s on a quiet machine."""

from __future__ import annotations

import random

from games import GAMES
from search import Search
from search.explain import reason

from .timing import machine_load, percentile, random_positions, time_ms, verdict

TARGET_P95_MS = 2000.0
POSITIONS = 10  # per game (and per Poron Jikaida variant)
SEED = 34


def hint_times(key: str, variants: tuple[str, ...] = ()) -> list[float]:
    """The hint's time (ms) at ``POSITIONS`` positions where the player to move has a choice."""
    rng = random.Random(SEED)
    candidates = [
        game
        for game in random_positions(key, 6, SEED, variants)
        if game.dice_needed() is None and len(game.legal_moves()) > 1
    ]
    positions = rng.sample(candidates, min(POSITIONS, len(candidates)))

    def hint(game) -> None:
        turn = Search("normal", rng.getrandbits(32)).choose_turn(game)
        reason(game, turn)

    return [time_ms(lambda game=game: hint(game)) for game in positions]


def main() -> None:
    print(f"Hints (normal level, timed): {machine_load()}")
    setups = [(key, ()) for key in GAMES] + [("jikaida", ("pastang",))]
    for key, variants in setups:
        times = hint_times(key, variants)
        p95 = percentile(times, 0.95)
        name = f"{key} {' '.join(variants)}".strip()
        mark = verdict(p95, TARGET_P95_MS)
        print(f"  {name:<20} p95 {p95:8.0f} ms   target <= {TARGET_P95_MS:g} ms {mark}")
    print()


if __name__ == "__main__":
    main()
