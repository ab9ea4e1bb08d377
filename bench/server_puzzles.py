"""The server puzzles' miner (issue 34, ``bot/domain/puzzles/server.py``): what mining one
finished game costs the low-priority analysis worker, per game, on a seeded game of about
100 plies (``bench.analysis.played_game``): the positions where a turn begins judged, the
candidates confirmed by the ``hard`` search by its size, as the bot mines. CPU seconds
(what a quiet machine would take) beside the wall time, and the puzzles found.

``python -m bench.server_puzzles`` (also in ``make bench``).
"""

from __future__ import annotations

import time

from bot.domain.puzzles.server import PER_GAME, clearness
from games import GAMES
from search.puzzles import puzzles_in

from .analysis import SEED, played_game
from .timing import machine_load


def main() -> None:
    print(f"Server puzzles: mining a finished game (hard confirmation by size): {machine_load()}")
    setups = [(key, ()) for key in GAMES] + [("jikaida", ("pastang",))]
    for key, variants in setups:
        game = played_game(key, variants)
        plies = len(game.moves())
        started, cpu = time.perf_counter(), time.process_time()
        found = [(entry, p.to_dict(), p.margin) for entry, p in puzzles_in(game, SEED)]
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        kept = sorted(found, key=clearness)[:PER_GAME]
        kinds = " ".join(data["kind"] for _entry, data, _margin in kept) or "-"
        name = f"{key} {' '.join(variants)}".strip()
        print(
            f"  {name:<20} {plies:4d} plies {seconds:7.1f} s ({cpu:6.1f} s CPU)"
            f"   per 100 plies {cpu * 100 / max(plies, 1):6.1f} s CPU"
            f"   found {len(found):2d}, kept {len(kept)} ({kinds})"
        )
    print()


if __name__ == "__main__":
    main()
