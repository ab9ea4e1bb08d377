"""Regenerate the README screenshots in docs/images/ from fixed move lists.

Run from anywhere: ``.venv/bin/python bench/make_screenshots.py`` (add ``--time`` to also
print the render time per image). The output is deterministic: same code, same bytes.
"""

from __future__ import annotations

import argparse
import re
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # so the script works without installing the project

import games  # noqa: E402
from games.base import Game  # noqa: E402
from games.jikaida import Jikaida  # noqa: E402
from render import render_png  # noqa: E402
from render.chebache import render_paths  # noqa: E402
from render.common import side_by_side  # noqa: E402
from render.jikaida import destinations, render_jikaida  # noqa: E402

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


# One Chebache game (a seeded random game, written out): each "a-b" token is a roll, the
# rest are moves. After 62 turns Black has rolled [2 2] and played S/2, 3/5: both sides have
# standing Chebaches (green angles, hatched squares), White holds both Kings (stacked on c4),
# and Black's piece on c3 is threatened (CHEBACHE!).
CHEBACHE_GAME = move_list(
    r"5-2 K(S/2) K(2/7) 4-3 S/3 K(S/4) K(4^2) 2-1 K(7\5) S/1 2-1 3/4 K(2/4) 4-5 1/5 S/5 "
    r"5-6 K(4/9) K(9/15) 6-1 S/1 S/6 4-5 4/8 S/5 3-3 6/9 SX3 1/4 SX3 pass 5-4 8/13 S/4 4^6 "
    r"2-5 4/6 6/11 1-2 5/6 6/8 1-6 9/15 K(3/4) K(4^6) 3-2 8\5 S/2 2-3 15/F S/2 5-6 6X11 "
    r"5/11 4-4 S/4 S/4 S/4 S/4 1-6 S/6 2\1 1-6 S/6 SX1 pass 6-6 1/7 7X13 6/12 S/6 pass 1-4 "
    r"SX1 5/9 pass 1-4 11/12 S/4 6-3 4/7 7/13 2^6 5-6 4/10 10\5 5-6 1/7 7/12 pass 3-4 S/4 "
    r"6X9 4^6 1-1 S/1 6/7 4/5 1/2 4^6 5-2 6/11 11/13 12^14 6-6 5X11 4/10 10\4 6/12 4^8 6-4 "
    r"5X11 9/13 5-3 S/3 8\3 K1(6^8) 5-3 13/F S/3 3-4 8\4 12X15 2^6 6-3 S/6 SX3 2-4 S/4 3/5 "
    r"K(8^6) 6-4 S/6 S/4 5-4 7/12 5/9 12^14 5-6 S/6 S/5 6-3 12/F 4/7 4^6 5-6 S/5 S/6 3-2 "
    r"6/9 13X15 pass 4-3 SX3 14/F 3-3 S/3 7/10 K(6/9) K(9/12) 3-6 3X9 6X9 4^6 2-1 SX1 S/2 "
    r"2^6 1-2 S/2 9/10 10^12 5-3 K(12X9) 5/10 2(10^8) 1-3 S/1 2/5 3-5 K(5/8) 6X11 1K(8^12) "
    r"2-4 S/4 6/8 4^6 5-3 8\5 11/16 2-5 5/10 1/3 4-5 3/8 1/5 8^10 2-1 6/8 12/13 3-5 16\13 "
    r"6/11 pass 6-5 8\3 10/16 6-4 K(9\5) K(12\6) 12^14 3-3 S/3 S/3 2-1 K(5/6) 14/16 pass "
    r"1-1 SX1 3/4 5/6 4/5 2-1 SX1 16/F KK(6^4) 2-2 S/2 3/5"
)

# One Šačidjun game (a seeded random game, written out; "a-b" tokens are the idzeva): 90
# actions in, veradi čadra has rolled 8-4 with 17 pieces held as prisoners in the four moras,
# stacks on E2 and E7, and tameg raža's last move E8-W2 drawn round the ring.
SACHIDJUN_GAME = move_list(
    "1-2 M-SW M-W1 3-5 M-E4 M-E2 1-3 M-E7 M-SE 6-8 M-W4 M-W2 1-1 SWxW4 8-6 MxE7 E4-S1 3-3 "
    "MxE7 M-E7 M-E4 3-6 MxW1 3-6 MxW2 W4-N1 7-6 E2xSE S1-S7 8-3 M-E2 M-E7 8-4 MxW2 W1-S6 "
    "8-6 N1-NE M-W5 8-6 SExW5 8-4 E4-NE M-E2 3-5 W2-S8 S6-S1 5-7 M-W6 M-W4 8-6 S7xW4 "
    "W5-N4 1-4 NExN4 1-1 MxW6 4-2 NE-E4 M-W1 5-4 MxE4 M-E3 7-1 N4xW6 E7-E6 6-3 MxW1 1-2 "
    "M-W2 2-1 E3xE6 1-6 W6xS8 3-3 W1-S4 M-W4 1-7 W2-N1 4-3 E4-E8 E6-SE 6-2 S8xSE 6-8 M-S5 "
    "5-8 N1-E5 5-7 E8-W2 8-4"
)

# Poron Jikaida: Yellow's Swod b3-c4 and Blue's k16-j15 each make a line of three on a file,
# Yellow's Swod e3-e5 uses the opening bonus, and Blue's Hikdar vaults j18-j14 over j17, j16
# and j15 (green rings; last move tinted, route arrow).
JIKAIDA_GAME = move_list("b3-c4 k16-j15 e3-e5 j18-j14")

# Pastang: two opening Swod bonus steps, then Yellow's Deldar vaults f1xb5 along the diagonal
# e2-d3-c4 and takes Blue's Swod.
PASTANG_GAME = move_list("c2-c4 d5-d3 f1xb5")


def jikaida_at(pieces: dict[str, str], moves: str) -> Jikaida:
    game = Jikaida.from_position({"variant": "poron", "pieces": pieces})
    for move in moves.split():
        game.push(move)
    return game


def jikaida_board() -> bytes:
    return render_jikaida(position("jikaida", JIKAIDA_GAME))


def pastang_board() -> bytes:
    game = Jikaida(["pastang"])
    for move in PASTANG_GAME:
        game.push(move)
    return render_jikaida(game)


def jikaida_pallan() -> bytes:
    """Two Pallan powers side by side. Left, a front turn: the Pallan c3 slides north across
    the 6|7 front and turns on c7 to f10; the green dots are every front-turn destination it
    had (orthogonal approaches turning on c7 or g3, the diagonal approach turning on f6).
    Right, a bent vault: c3 vaults over d4 and e5, bends north at e5, passes e6 and takes the
    Swod on e7; the pink ring is that bent-vault capture, the purple dot e8 the move-vault
    (leap or slide to e4, then vault north) it could have made instead."""
    kings = {"h1": "YK", "f18": "BK"}
    panels = []
    for pieces, moves, kinds in (
        (
            {**kings, "c3": "YP", "b2": "YD", "d2": "YS", "k9": "BJ", "f11": "BS", "j14": "BH"},
            "c3-f10",
            ("turn",),
        ),
        (
            {**kings, "c3": "YP", "d4": "YS", "e5": "BS", "e6": "BD", "e7": "BS", "i10": "BC"},
            "c3xe7",
            ("vault", "move-vault", "bent-vault"),
        ),
    ):
        before = jikaida_at(pieces, "")
        dots = {sq: kind for sq, kind in destinations(before, "c3").items() if kind in kinds}
        panels.append(render_jikaida(jikaida_at(pieces, moves), dots))
    return side_by_side(panels, 12)


SCREENSHOTS: dict[str, tuple[str, list[str]]] = {
    # Mid placement: 15 pieces down, Black to place, the last placement ringed.
    "shax-placement.png": ("shax", SHAX_GAME[:15]),
    # Movement: Black's step g1-g4 closes g4-f4-e4 and removes d3 (arrow, mill, cross).
    "shax-movement.png": ("shax", SHAX_GAME),
    "tchela-board.png": ("tchela", TCHELA_GAME),
    "chebache-board.png": ("chebache", CHEBACHE_GAME),
    "sachidjun-board.png": ("sachidjun", SACHIDJUN_GAME),
}


def shax_lesson() -> bytes:
    """A step of the Shax course (/game learn): White's mill d7-a7 is made, and the marked
    points are Black's threat d2-d3 into c3 d3 e3, which the learner's removal must stop."""
    from bot.domain.learn import load_course
    from bot.domain.learn.pictures import step_picture

    return step_picture(load_course("shax").lesson("mills").steps[1])


def tournament_standings() -> bytes:
    """The table of an 8-player Swiss of 4 rounds (Shax), paired by the bot's own pairing,
    the results drawn from the ratings with a fixed seed."""
    import random

    from bot.domain.tournaments.model import Bye, Entrant, Result, records
    from bot.domain.tournaments.standings import standings
    from bot.domain.tournaments.swiss import pair_swiss
    from render.standings import TableRow, standings_png

    names = ["Amina", "Bashir", "Cawo", "Deeqa", "Faarax", "Hodan", "Idil", "Jaamac"]
    chance = random.Random(32)
    field = [Entrant(p, 1700 - 40 * p + chance.randint(-30, 30)) for p in range(8)]
    rating = {e.player: e.rating for e in field}
    results: list[Result] = []
    for number in range(1, 5):
        for game in pair_swiss(field, records(rating, results, [])).pairings:
            expected = 1 / (1 + 10 ** ((rating[game.black] - rating[game.white]) / 400))
            roll = chance.random()
            points = 0.5 if abs(roll - expected) < 0.1 else float(roll < expected)
            results.append(Result(number, game.white, game.black, points))
    byes: list[Bye] = []
    rows = [
        TableRow(
            s.place,
            names[s.player],
            f"{s.points:g}",
            f"{s.buchholz:g}",
            f"{s.sonneborn_berger:g}",
            str(s.games),
        )  # fmt: skip
        for s in standings(field, results, byes)
    ]
    return standings_png("Autumn Shax", "Shax, Swiss, final table", rows)


# Pictures that are not a game position: both Chebache paths over the empty board.
PICTURES: dict[str, Callable[[], bytes]] = {
    "shax-lesson.png": shax_lesson,
    "tournament-standings.png": tournament_standings,
    "chebache-paths.png": render_paths,
    "jikaida-board.png": jikaida_board,
    "jikaida-pallan.png": jikaida_pallan,
    "pastang-board.png": pastang_board,
}
ROLL = re.compile(r"^(\d)-(\d)$")  # a dice roll in a move list ("5-2")


def position(game_key: str, moves: list[str]) -> Game:
    game = games.new_game(game_key)
    for move in moves:
        roll = ROLL.match(move)
        if roll:
            game.roll((int(roll[1]), int(roll[2])))
        else:
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
    for name, draw in PICTURES.items():
        png = draw()
        (IMAGES / name).write_bytes(png)
        print(f"{name}: {len(png) / 1000:.1f} KB")
        too_big |= len(png) >= MAX_BYTES
    return 1 if too_big else 0


if __name__ == "__main__":
    sys.exit(main())
