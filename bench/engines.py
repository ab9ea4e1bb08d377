"""Legal-move generation and rendering, per game, over positions from random games."""

from __future__ import annotations

from games import GAMES, Game
from render import RENDERERS, render_png

from .timing import random_positions, summary_row, time_ms

TARGETS = {  # (legal moves p50, render p50) from the issues
    "shax": ("<= 1 ms", "<= 40 ms"),
    "tchela": ("<= 2 ms", "<= 40 ms"),
    "sachidjun": ("<= 5 ms", "<= 50 ms"),
    "chebache": ("<= 5 ms", "<= 50 ms"),
    "jikaida": ("<= 25 ms", "<= 80 ms"),
}


def fresh_legal_moves(game: Game) -> list[str]:
    game._legal_cache = None  # measure the generation, not the cache
    return game.legal_moves()


def bench_game(key: str, games: int = 20, renders: int = 60) -> list[str]:
    positions = random_positions(key, games)
    legal_target, render_target = TARGETS.get(key, ("", ""))
    legal = [time_ms(lambda g=g: fresh_legal_moves(g)) for g in positions]
    header = [
        f"{GAMES[key].title}: {len(positions)} positions from {games} random games",
        summary_row("legal moves", legal, f"target p50 {legal_target}"),
    ]
    if key not in RENDERERS:
        return [*header, "  (no renderer yet)"]
    step = max(1, len(positions) // renders)
    sampled = positions[::step][:renders]
    render_times, sizes = [], []
    for game in sampled:
        render_times.append(time_ms(lambda g=game: sizes.append(len(render_png(g)))))
    return [
        *header,
        summary_row(f"render ({len(sampled)} images)", render_times, f"target p50 {render_target}"),
        f"  {'image size':<28} max {max(sizes) / 1024:6.1f} KB   "
        f"mean {sum(sizes) / len(sizes) / 1024:6.1f} KB",
    ]


def main() -> None:
    for key in GAMES:
        print("\n".join(bench_game(key)))
        print()
