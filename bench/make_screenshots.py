"""Regenerate the README screenshots in docs/images/ from fixed move lists.

Run from anywhere: ``.venv/bin/python bench/make_screenshots.py`` (add ``--time`` to also
print the render time per image). The output is deterministic: same code, same bytes.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # so the script works without installing the project

import games  # noqa: E402
from games.base import Game  # noqa: E402
from render import render_png  # noqa: E402

IMAGES = ROOT / "docs" / "images"
MAX_BYTES = 150_000

# One Shax game; the screenshots show two moments of it.
# Black made the first mill, so Black removes g1 and moves first; Black's g4-g1 closes
# a1-d1-g1 (removing c5), White steps d5-c5, Black's g1-g4 closes g4-f4-e4 (removing d3).
SHAX_PLACEMENT = "a7 e4 a4 a1 g1 g4 d6 c4 d2 d1 c3 d7 e5 b4 d3 b2 c5 f4 f6 e3 d5 g7 f2 b6"
SHAX_MOVEMENT = "xg1 g4-g1 xc5 d5-c5 g1-g4 xd3"


def move_list(*parts: str) -> list[str]:
    return " ".join(parts).split()


SHAX_GAME = move_list(SHAX_PLACEMENT, SHAX_MOVEMENT)

# One Tchela game, 9 plies in. South's 3+s sows 4 counters, drops one into its store,
# relays from 7 (5 counters) and from 11 (3), and ends in its empty inner hole 14, capturing
# North's 11 and the 6 behind it (blue start ring and drop order, purple pick-ups, red rings).
TCHELA_GAME = move_list("open14 open11 14 15 16 8+s 2 14 3+s")

SCREENSHOTS: dict[str, tuple[str, list[str]]] = {
    # Mid placement: 15 pieces down, Black to place, the last placement ringed.
    "shax-placement.png": ("shax", SHAX_GAME[:15]),
    # Movement: Black's step g1-g4 closes g4-f4-e4 and removes d3 (arrow, mill, cross).
    "shax-movement.png": ("shax", SHAX_GAME),
    "tchela-board.png": ("tchela", TCHELA_GAME),
}


def position(game_key: str, moves: list[str]) -> Game:
    game = games.new_game(game_key)
    for move in moves:
        game.push(move)
    return game


def render_time_ms(game: Game, repeat: int = 50) -> float:
    render_png(game)  # warm the cached background
    return timeit.timeit(lambda: render_png(game), number=repeat) / repeat * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", action="store_true", help="also time 50 renders per image")
    args = parser.parse_args(argv)
    IMAGES.mkdir(parents=True, exist_ok=True)
    too_big = False
    for name, (game_key, moves) in SCREENSHOTS.items():
        game = position(game_key, moves)
        png = render_png(game)
        (IMAGES / name).write_bytes(png)
        line = f"{name}: {len(png) / 1000:.1f} KB — {game.status_line()}"
        if args.time:
            line += f" — {render_time_ms(game):.0f} ms per render"
        print(line)
        too_big |= len(png) >= MAX_BYTES
    return 1 if too_big else 0


if __name__ == "__main__":
    sys.exit(main())
