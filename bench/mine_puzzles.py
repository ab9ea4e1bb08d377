"""The shipped puzzles (issue 34): bot games played and judged by ``search.puzzles``, the
puzzles found appended to ``bot/domain/puzzles/data/<set>.jsonl`` (one per line), kept once
per position. Long: run it in the background, at low priority::

    nice -n 10 .venv/bin/python -m bench.mine_puzzles shax tchela --want 40 --minutes 30

Each round plays one game per set still short of ``--want`` (easy against easy by their
search sizes, seats swapped every other round: their slips make the positions), so that
every set gets some in a short run.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from games import new_game
from search.puzzles import Puzzle, play_and_judge, state_key

DATA = Path(__file__).resolve().parent.parent / "bot" / "domain" / "puzzles" / "data"
# set name -> (game, variants, seats)
SETS = {
    "shax": ("shax", (), 2),
    "tchela": ("tchela", (), 2),
    "sachidjun": ("sachidjun", (), 2),
    "chebache": ("chebache", (), 2),
    "jikaida": ("jikaida", (), 2),
    "pastang": ("jikaida", ("pastang",), 2),
}
PLAYERS = ["easy", "easy"]


def known_states(path: Path) -> set[str]:
    if not path.exists():
        return set()
    states = set()
    for line in path.read_text().splitlines():
        if line.strip():
            states.add(state_key(Puzzle.from_dict(json.loads(line)).game()))
    return states


def mine(names: list[str], want: int, minutes: float, seed: int, per_game: int) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    stop = time.monotonic() + 60 * minutes
    seen = {name: known_states(DATA / f"{name}.jsonl") for name in names}
    judged = {name: set(seen[name]) for name in names}  # every position judged, kept or not
    round_number = 0
    while time.monotonic() < stop:
        short = [name for name in names if len(seen[name]) < want]
        if not short:
            break
        for name in short:
            key, variants, seats = SETS[name]

            def make(key=key, variants=variants, seats=seats):
                return new_game(key, variants, seats)

            game_seed = seed * 1000 + round_number
            kept = 0
            with (DATA / f"{name}.jsonl").open("a") as out:
                players = PLAYERS if round_number % 2 == 0 else PLAYERS[::-1]
                for puzzle in play_and_judge(make, players, game_seed, seen=judged[name]):
                    state = state_key(puzzle.game())
                    if state in seen[name]:
                        continue
                    seen[name].add(state)
                    out.write(json.dumps(puzzle.to_dict(), separators=(",", ":")) + "\n")
                    out.flush()
                    kept += 1
                    if time.monotonic() > stop or len(seen[name]) >= want or kept >= per_game:
                        break  # at most ``per_game`` from one game: the sets' variety
            print(f"{name}: {len(seen[name])} after game {game_seed}", flush=True)
        round_number += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", default=list(SETS), choices=list(SETS))
    parser.add_argument("--want", type=int, default=40)
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--per-game", type=int, default=8)
    args = parser.parse_args()
    mine(args.sets, args.want, args.minutes, args.seed, args.per_game)


if __name__ == "__main__":
    main()
