"""Chebache board picture: ``render_chebache(game, show_path=True) -> PNG bytes``.

Layout: the status line on top (a coin of the side to act, and a red CHEBACHE! badge when
the player to move has threatened pieces); the 4x4 chequerboard (rank 4 on top) on the left,
with its 9 intersections drawn as rings; a side panel with the dice and one block per
player; the turn record of the highlighted turn at the bottom.

- Stacks are drawn as coin towers seen from the side, bottom piece at the bottom, with a
  count badge when they hold more than one piece. A King is a thicker coin (it weighs 2)
  with a gold crown, in the colour of whoever holds it now.
- Start and Finish are the corner squares (White a4 and d1, Black a1 and d4): a pile of
  up to three coins with the count of ordinary pieces, a crowned coin on top for a King.
- The player to move's path is drawn faintly with its space numbers (``show_path=False``
  hides it); Tivits show both numbers (``2·10``), intersections their number to the right.
- A standing Chebache is a green angle: a thick band on the square side between its two
  intersections and two lines to the square's centre; the square it controls is hatched.
- The player to move's threatened spaces get a red frame and a CHEBACHE! badge.
- The highlighted turn (this turn's moves, or the previous turn's when a new one starts)
  is drawn as blue routes along the path with numbered badges where each move landed
  (red ring for an attack, gold ring for a King capture, red "-n" for pieces sent back),
  a purple route for the jump. Intersections under an incomplete attack get a red ring.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from PIL import Image

from games.chebache import BLACK, CONTROLS, FINISH, KINGS, LETTERS, PATHS, START, WHITE, Chebache

from .common import (
    ACCENT,
    BAND,
    DANGER,
    INK,
    INK_SOFT,
    MILL,
    PANEL,
    PANEL_RIM,
    SCALE,
    WHITE_TEXT,
    Colour,
    Painter,
    Point,
    banded_panel,
    cached_background,
    draw_die,
    font_safe,
    hex_colour,
    mix,
    paste_sprite,
    wrap_text,
)

WIDTH = 960
RIM = 6
STATUS_BOTTOM = 62
CELL = 136
BOARD_LEFT = 54
BOARD_TOP = 98
BOARD_RIGHT = BOARD_LEFT + 4 * CELL
BOARD_BOTTOM = BOARD_TOP + 4 * CELL
FOOTER_TOP = BOARD_BOTTOM + 44
LINE = 30
HEIGHT = FOOTER_TOP + 2 * LINE + 18 + RIM
SIDE_LEFT = BOARD_RIGHT + 34
SIDE_RIGHT = WIDTH - RIM - 18

STATUS_SIZE = 26
LABEL_SIZE = 24
TEXT_SIZE = 21
SMALL_SIZE = 20
NUMBER_SIZE = 20
BADGE_SIZE = 20
PILE_SIZE = 26

LIGHT_SQUARE = hex_colour("#f4e6c8")
DARK_SQUARE = hex_colour("#a5713f")
RING_FILL = hex_colour("#e9cf9f")
GOLD = hex_colour("#f2b62a")
GOLD_EDGE = hex_colour("#6b4a06")
JUMP = hex_colour("#8a3fb5")
HATCH = mix(MILL, INK, 0.1)

COIN_RX = 24
COIN_RY = 9
COIN_T = 8  # thickness of an ordinary piece; a King is twice as thick
RING_RADIUS = 16
ROUTE_WIDTH = 6
# A lesson's marks ("look here"): gold framed in dark, since green already means a Chebache.
MARK_INSET = 8  # a marked square's frame, inside the square
MARK_RADIUS = 30  # a marked intersection's ring
MARK_WIDTH = 5

FILES = "abcd"
SPACES = frozenset(f + r for f in FILES for r in "1234") | frozenset(PATHS[WHITE][1:FINISH])
STARTS = {PATHS[s][START]: s for s in (WHITE, BLACK)}
FINISHES = {PATHS[s][FINISH]: s for s in (WHITE, BLACK)}
MOVE_RE = re.compile(r"([S\d]+)([/\\X^])([F\d]+)")
EVENT_RE = re.compile(r"^(X|-)(\d*)(K*)@(\d+)$")
FLIP_RE = re.compile(r"^K\((\w)->(\w)@(\d+)\)$")


class CoinStyle:
    def __init__(self, face: str, side: str, edge: str, text: Colour):
        self.face, self.side, self.edge = hex_colour(face), hex_colour(side), hex_colour(edge)
        self.text = text


COINS = {
    WHITE: CoinStyle("#fdf9f0", "#d6c8ae", "#231a12", INK),
    BLACK: CoinStyle("#4b423a", "#221d19", "#0b0907", WHITE_TEXT),
}


# ---- geometry -------------------------------------------------------------------------


def is_cross(space: str) -> bool:
    return len(space) == 4


def square_box(space: str) -> tuple[float, float, float, float]:
    x0 = BOARD_LEFT + FILES.index(space[0]) * CELL
    y0 = BOARD_TOP + (4 - int(space[1])) * CELL
    return (x0, y0, x0 + CELL, y0 + CELL)


def space_xy(space: str) -> Point:
    """Centre of a square, or the grid point of an intersection (``bc23``)."""
    if is_cross(space):
        return (BOARD_LEFT + FILES.index(space[1]) * CELL, BOARD_TOP + (4 - int(space[2])) * CELL)
    x0, y0, x1, y1 = square_box(space)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def path_labels(seat: int) -> dict[str, str]:
    """Physical space -> the numbers ``seat``'s path gives it (``2·10`` for a Tivit)."""
    labels: dict[str, list[str]] = {}
    for n in range(1, FINISH):
        labels.setdefault(PATHS[seat][n], []).append(str(n))
    return {space: "·".join(numbers) for space, numbers in labels.items()}


def label_xy(space: str) -> Point:
    """Where a space's path number sits: top centre of a square, right of an intersection."""
    x, y = space_xy(space)
    if is_cross(space):
        return (x + 40, y)
    return (x, y - CELL / 2 + 27)


def mark_xy(space: str) -> Point:
    """Where a move-order badge sits: left of an intersection, left middle of a square."""
    x, y = space_xy(space)
    return (x - 36, y) if is_cross(space) else (x - CELL / 2 + 21, y)


# ---- the empty board, drawn once per path shown ---------------------------------------


@cached_background
def _background(path_seats: tuple[int, ...]) -> Image.Image:
    image = banded_panel(WIDTH, HEIGHT, RIM, STATUS_BOTTOM, FOOTER_TOP)
    paint = Painter(image)
    _draw_board(paint)
    for seat in path_seats:
        _draw_path_line(paint, seat, bold=len(path_seats) > 1)
    for space in list(STARTS) + list(FINISHES):
        seat = STARTS.get(space, FINISHES.get(space))
        assert seat is not None
        word = "Start" if space in STARTS else "Finish"
        _pill(paint, label_xy(space), word, seat)
    for seat in path_seats:
        _draw_path_numbers(paint, seat, len(path_seats) > 1)
    if len(path_seats) <= 1:  # a game's picture, not the paths picture
        _draw_legend(paint)
    return image


def _draw_board(paint: Painter) -> None:
    frame = (BOARD_LEFT - 5, BOARD_TOP - 5, BOARD_RIGHT + 5, BOARD_BOTTOM + 5)
    paint.rect(frame, fill=PANEL_RIM)
    for f, file in enumerate(FILES):
        for rank in range(1, 5):
            dark = (f + rank) % 2 == 1  # a1 is dark
            paint.rect(square_box(f"{file}{rank}"), fill=DARK_SQUARE if dark else LIGHT_SQUARE)
        x = BOARD_LEFT + (f + 0.5) * CELL
        paint.text((x, BOARD_BOTTOM + 24), file, LABEL_SIZE, INK_SOFT)
    for rank in range(1, 5):
        y = BOARD_TOP + (4.5 - rank) * CELL
        paint.text((BOARD_LEFT - 28, y), str(rank), LABEL_SIZE, INK_SOFT)
    for f in range(1, 4):
        for r in range(1, 4):
            center = (BOARD_LEFT + f * CELL, BOARD_TOP + r * CELL)
            paint.disc(center, RING_RADIUS, RING_FILL, INK, 3)
            paint.disc(center, 3, INK)


def _path_colour(seat: int) -> Colour:
    style = COINS[seat]
    return mix(style.face, PANEL, 0.25) if seat == WHITE else mix(style.side, PANEL, 0.3)


def _draw_path_line(paint: Painter, seat: int, bold: bool = False) -> None:
    points = [space_xy(space) for space in PATHS[seat]]
    under = mix(INK, PANEL, 0.45) if seat == WHITE else mix(WHITE_TEXT, PANEL, 0.3)
    widths = (8, 4) if bold else (5, 2)
    for colour, width in ((under, widths[0]), (_path_colour(seat), widths[1])):
        paint.line(points, colour, width)
        for point in points[1:-1]:
            paint.disc(point, width / 2, colour)
    # small arrowheads half way along every other step show the direction
    for a, b in zip(points[1:-2:2], points[2:-1:2], strict=True):
        _chevron(paint, a, b, under)


def _chevron(paint: Painter, a: Point, b: Point, colour: Colour) -> None:
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    mx, my = x0 + (x1 - x0) * 0.55, y0 + (y1 - y0) * 0.55
    tip = (mx + ux * 7, my + uy * 7)
    paint.polygon(
        [
            tip,
            (mx - ux * 5 - uy * 7, my - uy * 5 + ux * 7),
            (mx - ux * 5 + uy * 7, my - uy * 5 - ux * 7),
        ],
        colour,
    )


def _pill(paint: Painter, center: Point, text: str, seat: int) -> None:
    style = COINS[seat]
    paint.badge(center, text, NUMBER_SIZE, style.face, style.text, style.edge)


def _draw_path_numbers(paint: Painter, seat: int, both: bool) -> None:
    for space, text in path_labels(seat).items():
        x, y = label_xy(space)
        if both and is_cross(space) and seat == BLACK:
            x -= 82  # Black's numbers of the shared intersections go to the left
        _pill(paint, (x, y), text, seat)


def _redraw_path_numbers(paint: Painter, seat: int) -> None:
    """The path numbers are on the empty board; the marks drawn since go under them, so
    the numbers those marks touch are drawn again (the same pixels as drawing them all
    now: a pill covers everything under it)."""
    pad = 4  # the pill's outline, and a margin (final pixels)
    touched = []
    for space, text in path_labels(seat).items():
        x, y = label_xy(space)
        height = NUMBER_SIZE + 6
        width = max(height, paint.text_width(text, NUMBER_SIZE) + NUMBER_SIZE * 0.6)
        x0, x1 = (x - width / 2 - pad) * SCALE, (x + width / 2 + pad) * SCALE
        y0, y1 = (y - height / 2 - pad) * SCALE, (y + height / 2 + pad) * SCALE
        if paint.drawn_on((x0, y0, x1, y1)):
            touched.append(((x, y), text))
    for at, text in touched:  # after every test: a number drawn again marks nothing
        _pill(paint, at, text, seat)


# ---- pieces ---------------------------------------------------------------------------


def _crown(paint: Painter, center: Point, width: float, height: float) -> None:
    x, y = center
    w, h = width / 2, height / 2
    points = [
        (x - w, y + h),
        (x - w, y - h),
        (x - w / 2, y),
        (x, y - h),
        (x + w / 2, y),
        (x + w, y - h),
        (x + w, y + h),
    ]
    paint.polygon(points, GOLD, GOLD_EDGE, 1.5)


Coins = tuple[tuple[int, bool], ...]  # (seat, King) per piece of a tower, bottom first


def _coin(paint: Painter, x: float, base: float, seat: int, king: bool) -> float:
    """One coin whose bottom face is centred at ``base``; returns its top face's y."""
    style = COINS[seat]
    thick = 2 * COIN_T if king else COIN_T
    top = base - thick
    rx, ry = COIN_RX, COIN_RY
    paint.ellipse((x - rx, base - ry, x + rx, base + ry), style.side, style.edge, 1.5)
    paint.rect((x - rx, top, x + rx, base), fill=style.side)
    paint.line([(x - rx + 0.7, top), (x - rx + 0.7, base)], style.edge, 1.5)
    paint.line([(x + rx - 0.7, top), (x + rx - 0.7, base)], style.edge, 1.5)
    paint.ellipse((x - rx, top - ry, x + rx, top + ry), style.face, style.edge, 1.5)
    if king:
        _crown(paint, (x, base - thick / 2 + 3), 26, 13)
    return top


def tower_height(stack: list[int]) -> float:
    return sum(2 * COIN_T if p in KINGS else COIN_T for p in stack) + 2 * COIN_RY


def _tower(
    paint: Painter,
    center: Point,
    stack: list[int],
    owner: list[int],
    count: bool = True,
    above: bool = False,
) -> None:
    """A tower of coins, drawn once per look (its coins, badge and badge place) and kept
    as a sprite: the same pixels as ``_draw_tower``."""
    coins = tuple((owner[p], p in KINGS) for p in stack)
    half = tower_height(stack) / 2
    reach = (COIN_RX + 4, half + 2 * COIN_RY + 40, COIN_RX + 80, half + 4)
    paste_sprite(
        paint,
        ("chebache tower", coins, count, above),
        center,
        reach,
        lambda sprite, at: _draw_tower(sprite, at, coins, count, above),
    )


def _draw_tower(paint: Painter, center: Point, coins: Coins, count: bool, above: bool) -> None:
    x, y = center
    height = sum(2 * COIN_T if king else COIN_T for _, king in coins) + 2 * COIN_RY
    base = y + height / 2 - COIN_RY
    for seat, king in coins:
        base = _coin(paint, x, base, seat, king)
    if coins and coins[-1][1]:  # the top King shows its crown on the face too
        _crown(paint, (x, base), 18, 9)
    if count and len(coins) > 1:
        # beside a square's tower; above an intersection's (its number sits to the right)
        where = (x, base - COIN_RY - 16) if above else (x + COIN_RX + 12, base - 2)
        paint.badge(where, str(len(coins)), BADGE_SIZE, INK, WHITE_TEXT)


def _draw_stacks(paint: Painter, game: Chebache) -> None:
    b = game.board
    for space, stack in b.stacks.items():
        _tower(paint, space_xy(space), stack, b.owner, above=is_cross(space))


def _draw_piles(paint: Painter, game: Chebache) -> None:
    b = game.board
    for piles, n in ((STARTS, START), (FINISHES, FINISH)):
        for space, seat in piles.items():
            here = [p for p in range(26) if b.owner[p] == seat and b.pos[p] == n]
            plain = [p for p in here if p not in KINGS]
            kings = [p for p in here if p in KINGS]
            x, y = space_xy(space)
            shown = plain[:3] + kings
            if shown:
                _tower(paint, (x - 24, y + 12), shown, b.owner, count=False)
            text = str(len(plain))  # a King there shows as the crowned coin on top
            style = COINS[seat]
            width = paint.text_width(text, PILE_SIZE) + 18
            center = (x + 8 + width / 2, y + 14)
            paint.badge(center, text, PILE_SIZE, style.face, style.text, style.edge)


# ---- Chebaches and threats --------------------------------------------------------------


def chebache_marks(game: Chebache) -> list[tuple[int, str, str, str, str]]:
    """(seat, letter, intersection, square, intersection) per standing Chebache, and the
    controlled square is ``PATHS[1 - seat][CONTROLS[letter index]]``."""
    found = []
    for seat in (WHITE, BLACK):
        for index in game.board.chebaches(seat):
            k = 2 * index + 2
            path = PATHS[seat]
            found.append((seat, LETTERS[index], path[k - 1], path[k], path[k + 1]))
    return found


def controlled_square(seat: int, letter: str) -> str:
    return PATHS[1 - seat][CONTROLS[LETTERS.index(letter)]]


def _hatch(paint: Painter, box: tuple[float, float, float, float], colour: Colour) -> None:
    x0, y0, x1, y1 = box
    size = x1 - x0
    step = 17
    c = step / 2
    while c < 2 * size:  # lines x + y = c inside the box
        a = (x0 + max(0.0, c - size), y0 + min(c, size))
        b = (x0 + min(c, size), y0 + max(0.0, c - size))
        paint.line([a, b], colour, 3)
        c += step


def _draw_chebaches(paint: Painter, game: Chebache) -> None:
    marks = chebache_marks(game)
    for seat, letter, _, _, _ in marks:
        x0, y0, x1, y1 = square_box(controlled_square(seat, letter))
        _hatch(paint, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), HATCH)
    for _, _, a, square, b in marks:
        pa, pc, pb = space_xy(a), space_xy(square), space_xy(b)
        paint.line([pa, pc, pb], MILL, 5)
        paint.disc(pc, 2.5, MILL)
        paint.capped_line(pa, pb, MILL, 12)


def _draw_marks(paint: Painter, marks: Iterable[str]) -> None:
    """A lesson's marked squares (a frame inside the square) and intersections (a ring
    round the point), under the pieces; ``ValueError`` for a name that is no space."""
    for space in marks:
        if space not in SPACES:
            raise ValueError(f"no space {space!r} to mark on a Chebache board")
        # the dark edge runs 2 px either side of the gold, for light and dark squares
        for colour, width, grow in ((GOLD_EDGE, MARK_WIDTH + 4, 2), (GOLD, MARK_WIDTH, 0)):
            if is_cross(space):
                paint.ring(space_xy(space), MARK_RADIUS + grow, colour, width)
            else:
                x0, y0, x1, y1 = square_box(space)
                inset = MARK_INSET - grow
                paint.rect(
                    (x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=colour, width=width
                )


def _draw_threats(paint: Painter, game: Chebache, frame: bool) -> None:
    """The red frame (under the pieces) or the CHEBACHE! badge (over them)."""
    seat = game.to_move
    if seat is None:
        return
    for n in game.threatened(seat):
        x0, y0, x1, y1 = square_box(PATHS[seat][n])
        if frame:
            paint.rect((x0 + 4, y0 + 4, x1 - 4, y1 - 4), outline=DANGER, width=5)
            continue
        paint.badge(((x0 + x1) / 2, y1 - 30), "CHEBACHE!", 18, DANGER, WHITE_TEXT)


# ---- the highlighted turn --------------------------------------------------------------


def shown_turn(game: Chebache) -> tuple[str, dict[str, Any]] | None:
    """("This turn" | "Last turn", record): the moves so far, else the previous turn."""
    if game.current and game.current["moves"]:
        return "This turn", game.current
    if game.history:
        return "Last turn", game.history[-1]
    return None


def parse_move(move: str) -> tuple[int, int, str] | None:
    """(from, to, sign) in the mover's path numbers for ``S/3``, ``K(4/10)``, ``2(6^8)``."""
    found = MOVE_RE.search(move)
    if not found:
        return None
    here, sign, there = found.groups()
    start = START if here == "S" else int(here)
    end = FINISH if there == "F" else int(there)
    return start, end, sign


def _route(paint: Painter, seat: int, start: int, end: int, colour: Colour) -> None:
    step = 1 if end > start else -1
    points = [space_xy(PATHS[seat][n]) for n in range(start, end + step, step)]
    if len(points) < 2:
        return
    for point in points[1:-1]:
        paint.disc(point, ROUTE_WIDTH / 2, colour)
    if len(points) > 2:
        paint.line(points[:-1], colour, ROUTE_WIDTH)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    trim = 26 if is_cross(PATHS[seat][end]) else 32
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    paint.arrow((x0, y0), (x1 - ux * trim, y1 - uy * trim), colour, ROUTE_WIDTH, head=18)


def _draw_turn(paint: Painter, game: Chebache, under: bool) -> None:
    shown = shown_turn(game)
    if shown is None:
        return
    record = shown[1]
    seat = record["seat"]
    moves = [parsed for parsed in map(parse_move, record["moves"]) if parsed]
    jump = parse_move(record.get("jump") or "")
    if under:
        for start, end, _ in moves:
            _route(paint, seat, start, end, ACCENT)
        if jump:
            _route(paint, seat, jump[0], jump[1], JUMP)
        return
    landings: dict[str, list[str]] = {}
    for index, (_, end, sign) in enumerate(moves, start=1):
        space = PATHS[seat][end]
        landings.setdefault(space, []).append(str(index))
        if sign == "X":
            paint.ring(space_xy(space), RING_RADIUS + 8, DANGER, 4)
    for space, numbers in landings.items():
        paint.badge(mark_xy(space), "·".join(numbers), BADGE_SIZE, ACCENT, WHITE_TEXT)
    if jump:
        paint.badge(mark_xy(PATHS[seat][jump[1]]), "jump", BADGE_SIZE, JUMP, WHITE_TEXT)
    _draw_events(paint, record)


def _draw_events(paint: Painter, record: dict[str, Any]) -> None:
    seat = record["seat"]
    for event in [*record.get("events", []), *record.get("trapped", [])]:
        flip = FLIP_RE.match(event)
        if flip:
            paint.ring(space_xy(PATHS[seat][int(flip.group(3))]), RING_RADIUS + 13, GOLD, 4)
            continue
        found = EVENT_RE.match(event)
        if not found:
            continue
        kind, count, kings, n = found.groups()
        # an attack names the defender's number; sacrifices and trapped pieces the mover's
        space = PATHS[1 - seat if kind == "X" else seat][int(n)]
        text = f"-{count}{kings}" if kind == "X" else f"-{count}"
        x, y = mark_xy(space)
        paint.badge((x, y + 32), text, BADGE_SIZE, DANGER, WHITE_TEXT)


def _draw_pending(paint: Painter, game: Chebache) -> None:
    for space in game.board.pending:
        paint.ring(space_xy(space), RING_RADIUS + 8, DANGER, 4)


# ---- text: status, side panel, footer ----------------------------------------------------


def _small_coin(paint: Painter, center: Point, seat: int, king: bool = False) -> None:
    x, y = center
    style = COINS[seat]
    paint.disc((x, y), 13, style.face, style.edge, 2)
    if king:
        _crown(paint, (x, y), 15, 9)


def _draw_status(paint: Painter, game: Chebache) -> None:
    y = (RIM + STATUS_BOTTOM) / 2
    x = RIM + 30
    seats = [game.to_move] if game.to_move is not None else []
    if game.outcome is not None:
        seats = list(game.outcome.winners)
    for seat in seats:
        _small_coin(paint, (x, y), seat)
        x += 30
    status = font_safe(game.status_line())
    right = WIDTH - RIM - 20
    threatened = game.to_move is not None and game.threatened(game.to_move)
    if threatened:
        box = paint.badge((right - 62, y), "CHEBACHE!", 22, DANGER, WHITE_TEXT)
        right = box[0] - 12
    room = right - x - 4
    size = paint.fitting_size(status, STATUS_SIZE, room, SMALL_SIZE)
    paint.text((x, y + 1), status, size, INK, anchor="lm")


def king_text(game: Chebache, seat: int) -> str:
    b = game.board
    held = [k for k in KINGS if b.owner[k] == seat]
    if not held:
        return f"King taken by {game.seat_names[1 - seat]}"
    parts = []
    for king in held:
        n = b.pos[king]
        where = "in Start" if n == START else "in Finish" if n == FINISH else f"on {n}"
        whose = "King" if king == KINGS[seat] else f"{game.seat_names[1 - seat]}'s King"
        parts.append(f"{whose} {where}")
    return ", ".join(parts)


def chebache_text(game: Chebache, seat: int) -> str:
    letters = [LETTERS[i] for i in game.board.chebaches(seat)]
    if not letters:
        return "no Chebache"
    spaces = ", ".join(str(CONTROLS[LETTERS.index(x)]) for x in letters)
    word = "Chebache" if len(letters) == 1 else "Chebaches"
    return f"{word} {', '.join(letters)} (controls {spaces})"


def _fit(paint: Painter, xy: Point, text: str, size: int, colour: Colour, room: float) -> None:
    text = font_safe(text)
    size = paint.fitting_size(text, size, room, SMALL_SIZE)
    while paint.text_width(text, size) > room and len(text) > 4:
        text = text[:-4].rstrip() + "..."
    paint.text(xy, text, size, colour, anchor="lm")


def dice_state(game: Chebache) -> list[tuple[int, bool]]:
    """(value, still to play) for every die of the current roll (four for doubles)."""
    roll = list(game.roll_dice)
    if game.stage == "roll" or game.outcome is not None or len(roll) != 2:
        return [(value, False) for value in roll]
    shown = roll * 2 if roll[0] == roll[1] else roll
    used = Counter(shown) - Counter(game.board.dice)  # the used ones read first
    found = []
    for value in shown:
        found.append((value, used[value] <= 0))
        used[value] -= 1
    return found


def _draw_dice(paint: Painter, game: Chebache, top: float) -> None:
    x = SIDE_LEFT
    if game.outcome is not None:
        title = "Last roll"
    elif game.stage == "roll":
        title = "Dice: to roll"
    elif game.stage == "jump":
        title = "Dice: all used"
    else:
        title = "Dice"
    paint.text((x, top + 14), title, LABEL_SIZE, INK, anchor="lm", bold=True)
    y = top + 62
    if game.stage == "roll" and game.outcome is None:
        for i in range(2):
            cx = x + 26 + i * 62
            paint.rounded_rect((cx - 25, y - 25, cx + 25, y + 25), 9, BAND, INK_SOFT, 2)
            paint.text((cx, y + 1), "?", 28, INK_SOFT, bold=True)
        return
    for i, (value, live) in enumerate(dice_state(game)):
        cx = x + 26 + i * 62
        if live:
            draw_die(paint, (cx, y), 50, value, WHITE_TEXT, INK, ACCENT, 4)
        else:
            faded = mix(WHITE_TEXT, PANEL, 0.6)
            draw_die(paint, (cx, y), 44, value, faded, mix(INK, PANEL, 0.55), mix(INK, PANEL, 0.5))
    if game.stage == "move" and game.outcome is None:
        words = f"{len(game.board.dice)} to play"
        paint.text((SIDE_RIGHT, top + 14), words, SMALL_SIZE, ACCENT, anchor="rm")


def _draw_player(paint: Painter, game: Chebache, seat: int, top: float) -> None:
    b = game.board
    x = SIDE_LEFT
    room = SIDE_RIGHT - x
    _small_coin(paint, (x + 13, top + 16), seat)
    name = game.seat_names[seat]
    paint.text((x + 36, top + 16), name, LABEL_SIZE, INK, anchor="lm", bold=True)
    tag = ""
    if game.outcome is None and game.to_move == seat:
        tag, colour = "to move", ACCENT
    elif game.outcome is not None and seat in game.outcome.winners:
        tag, colour = "wins", MILL
    if tag:
        width = paint.text_width(tag, SMALL_SIZE) + 24
        paint.badge((SIDE_RIGHT - width / 2, top + 16), tag, SMALL_SIZE, colour, WHITE_TEXT)
    mine = b.mine(seat)
    start = sum(1 for p in mine if b.pos[p] == START)
    finish = sum(1 for p in mine if b.pos[p] == FINISH)
    _fit(paint, (x, top + 48), f"Start {start} · Finish {finish}", TEXT_SIZE, INK, room)
    _fit(paint, (x, top + 76), king_text(game, seat), TEXT_SIZE, INK, room)
    colour = MILL if b.chebaches(seat) else INK_SOFT
    _fit(paint, (x, top + 104), chebache_text(game, seat), TEXT_SIZE, colour, room)


LEGEND_TOP = BOARD_BOTTOM - 118


def _draw_legend(paint: Painter) -> None:
    x, y = SIDE_LEFT, LEGEND_TOP
    rows = [
        ("move", "moves of the turn"),
        ("jump", "jump"),
        ("chebache", "Chebache, held square"),
        ("danger", "attack, pieces sent back"),
    ]
    for mark, words in rows:
        if mark in ("move", "jump"):
            colour = ACCENT if mark == "move" else JUMP
            paint.arrow((x, y), (x + 34, y), colour, 5, head=14)
        elif mark == "chebache":
            _hatch(paint, (x + 14, y - 10, x + 34, y + 10), HATCH)
            paint.capped_line((x + 4, y - 10), (x + 4, y + 10), MILL, 8)
        else:
            paint.ring((x + 17, y), 11, DANGER, 4)
        paint.text((x + 46, y), words, SMALL_SIZE, INK_SOFT, anchor="lm")
        y += 29


def footer_text(game: Chebache) -> str:
    shown = shown_turn(game)
    if shown is None:
        return (
            "No move yet. Each player races from Start along its own path (1-17) to Finish; "
            "the numbers on the board are the player to move's."
        )
    lines = game.turn_log()
    return font_safe(f"{shown[0]}: {lines[-1]}")


def _draw_footer(paint: Painter, game: Chebache) -> None:
    x = RIM + 24
    room = WIDTH - 2 * x
    lines = wrap_text(paint, footer_text(game), TEXT_SIZE, room)
    if len(lines) > 2:
        lines = [lines[0], lines[1][: max(0, len(lines[1]) - 3)] + "..."]
    y = FOOTER_TOP + 9 + LINE / 2
    for line in lines:
        paint.text((x, y), line, TEXT_SIZE, INK, anchor="lm")
        y += LINE


# ---- the picture -------------------------------------------------------------------------


def render_chebache(game: Chebache, show_path: bool = True, marks: Iterable[str] = ()) -> bytes:
    """The position as PNG bytes (960 px wide, deterministic); ``marks``: squares (``c4``)
    and intersections (``bc34``) a lesson speaks of, framed in gold."""
    mover = game.to_move
    seats = (mover,) if show_path and mover is not None else ()
    paint = Painter.on_board(_background(seats))
    _draw_chebaches(paint, game)
    _draw_threats(paint, game, frame=True)
    _draw_marks(paint, marks)
    _draw_turn(paint, game, under=True)
    if seats:
        _redraw_path_numbers(paint, seats[0])
    _draw_pending(paint, game)
    _draw_stacks(paint, game)
    _draw_piles(paint, game)
    _draw_turn(paint, game, under=False)
    _draw_threats(paint, game, frame=False)
    _draw_status(paint, game)
    _draw_dice(paint, game, BOARD_TOP - 4)
    _draw_player(paint, game, WHITE, BOARD_TOP + 116)
    _draw_player(paint, game, BLACK, BOARD_TOP + 252)
    _draw_footer(paint, game)
    return paint.png("chebache")


def render_paths() -> bytes:
    """Both paths over the empty board (for the rules page): White's numbers in light
    pills, Black's in dark ones; each intersection shows Black's number left, White's right."""
    paint = Painter.on_board(_background((WHITE, BLACK)))
    y = (RIM + STATUS_BOTTOM) / 2
    paint.text((RIM + 24, y), "The two paths: Start, 1-17, Finish", STATUS_SIZE, INK, anchor="lm")
    x = SIDE_LEFT
    for seat, top in ((WHITE, BOARD_TOP + 10), (BLACK, BOARD_TOP + 170)):
        name = ("White", "Black")[seat]
        _small_coin(paint, (x + 13, top + 16), seat)
        paint.text((x + 36, top + 16), f"{name}'s path", LABEL_SIZE, INK, anchor="lm", bold=True)
        start, finish = PATHS[seat][START], PATHS[seat][FINISH]
        colour_word = "light" if seat == WHITE else "dark"
        for i, line in enumerate(
            (
                f"Start {start}, Finish {finish}",
                f"squares: the {colour_word} ones",
                "Tivits 2·10 and 8·16",
            )
        ):
            paint.text((x, top + 50 + 28 * i), line, TEXT_SIZE, INK, anchor="lm")
    notes = [
        "Intersections 7, 9, 11 are the same",
        "for both; White 1, 3, 5 are Black",
        "13, 15, 17 and the other way round.",
    ]
    for i, line in enumerate(notes):
        paint.text((x, BOARD_TOP + 350 + 28 * i), line, SMALL_SIZE, INK_SOFT, anchor="lm")
    paint.text(
        (RIM + 24, FOOTER_TOP + 9 + LINE / 2),
        "Each path zigzags from Start to Finish over its own colour's squares and the",
        TEXT_SIZE,
        INK,
        anchor="lm",
    )
    paint.text(
        (RIM + 24, FOOTER_TOP + 9 + 3 * LINE / 2),
        "shared intersections; moves are always written in the mover's own numbers.",
        TEXT_SIZE,
        INK,
        anchor="lm",
    )
    return paint.png("chebache")
