"""Šačidjun board picture: ``render_sachidjun(game) -> PNG bytes``.

Layout: the status line on top; the 4x4 board on the left with every cell's name in the
margin round it; a side panel on the right (the four sub-turns with their seats, the current
one highlighted; the two idzeva; the directions; a key to the marks); the last moves in words
at the bottom.

The board: the four corner squares are the šake, each edge square is split into four čike
(alternating shades, thick lines between the big squares), the four inner squares are the
moras (light b2/c3 pale, dark c2/b3 brown). Pieces are discs: raža electric blue, čadra smoky
grey, with a black (veradi) or red (tameg) centre. On a čika the pieces pile up from the outer
edge inwards, one pile per colour, with a dark count badge after the pile when there are two
or more; on a šake each colour present gets a row (tameg rows above veradi rows). Each mora
shows its title, its pieces at home (a pile and a count) and a tray of the prisoners it holds
(one enemy disc per colour with a count).

Marks: the last moves (this sub-turn's, or the last sub-turn's read from the log, else
``last``) are green paths along the inner lane of the ring, from a dot at the start to an
arrowhead (one move) or a numbered disc (several) at the landing cell, which is outlined green
(red when the move captured). A prisoner tray that just received pieces is outlined red with
"+n". Standing ties: a purple outline and a "tie" pill by the cell name; a šake combat
pending this sub-turn: "combat"; a šake resolved by the last sub-turn: a red "-n" pill (or
"tie"). Held šake (four or more of one side) get a "held" pill. Blue and grey arrows on the
lane in the middle of each side show which way raža (sunwise) and čadra (shadowise) run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from games.sachidjun import (
    CELLS,
    INDEX,
    MORA_NAMES,
    ROLE_NAMES,
    SAKE,
    Sachidjun,
    cached_path,
    size_of,
)

from .common import (
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
    font_safe,
    hex_colour,
    mix,
    paste_sprite,
    wrap_text,
)

WIDTH = 960
RIM = 6
STATUS_BOTTOM = 62
MARGIN = 32  # round the board, for the cell names
BOARD_X = RIM + MARGIN + 2
BOARD_Y = STATUS_BOTTOM + MARGIN + 2
SQUARE = 165  # one big square
BOARD = 4 * SQUARE
CIKA = SQUARE / 4  # width of a čika
FOOTER_TOP = BOARD_Y + BOARD + MARGIN + 4
LINE = 30
HEIGHT = FOOTER_TOP + 2 * LINE + 16 + RIM
PANEL_BOX = (BOARD_X + BOARD + MARGIN + 4, STATUS_BOTTOM + 10, WIDTH - RIM - 10, FOOTER_TOP - 10)

STATUS_SIZE = 26
TEXT_SIZE = 21
LABEL_SIZE = 20
SMALLEST_TEXT = 20

RADIUS = 16  # a piece
PILE_STEP = 9  # offset between piled discs
LANE = 17  # the move paths run this far inside the ring's inner edge

CIKA_FILL = (hex_colour("#efd9ad"), hex_colour("#dcbb84"))
SAKE_FILL = hex_colour("#c9a06a")
LIGHT_MORA = hex_colour("#f7ecd4")
DARK_MORA = hex_colour("#8a6641")
TRAY = hex_colour("#f1e0bb")
GRID = PANEL_RIM
THIN = mix(PANEL_RIM, PANEL, 0.45)
COUNT_FILL = hex_colour("#2b1d10")
TIE = hex_colour("#8a3fb5")
WIN_FILL = hex_colour("#d5ecc4")
MOVE = MILL

RAZA_FILL = hex_colour("#1f8bff")
RAZA_OUTLINE = hex_colour("#0a2c5c")
RAZA_INNER = hex_colour("#8cc6ff")
CADRA_FILL = hex_colour("#6c6e75")
CADRA_OUTLINE = hex_colour("#1e1f23")
CADRA_INNER = hex_colour("#a2a4ab")
CENTRE = (hex_colour("#101010"), hex_colour("#e3202e"))  # veradi, tameg
DIE_FACE = hex_colour("#fbf6ea")
DIE_SIDE = hex_colour("#e2d6bd")

# Seat order on the board: veradi south, tameg north.
MORA_SQUARE = {0: (1, 2), 1: (2, 1), 2: (2, 2), 3: (1, 1)}  # role -> (file, row from top)
ENTRY_CELL = {0: 0, 1: 18, 2: 27, 3: 9}
SIDE_OF_CELL = ("W", "N", "E", "S")
NORMAL = {"W": (-1, 0), "N": (0, -1), "E": (1, 0), "S": (0, 1)}

Box = tuple[float, float, float, float]


# ---- geometry ----------------------------------------------------------------------------


@lru_cache(maxsize=64)
def cell_box(cell: int) -> Box:
    """The rectangle of ring cell ``cell`` (index into ``CELLS``)."""
    x0, y0, b, w = BOARD_X, BOARD_Y, SQUARE, CIKA
    side, k = divmod(cell, 9)
    if k == 0:
        corner = {0: (0, 3), 1: (0, 0), 2: (3, 0), 3: (3, 3)}[side]
        return (
            x0 + corner[0] * b,
            y0 + corner[1] * b,
            x0 + (corner[0] + 1) * b,
            y0 + (corner[1] + 1) * b,
        )
    if side == 0:  # W1 just above SW, going north
        bottom = y0 + 3 * b - (k - 1) * w
        return (x0, bottom - w, x0 + b, bottom)
    if side == 1:  # N1 just right of NW, going east
        left = x0 + b + (k - 1) * w
        return (left, y0, left + w, y0 + b)
    if side == 2:  # E1 just below NE, going south
        top = y0 + b + (k - 1) * w
        return (x0 + 3 * b, top, x0 + 4 * b, top + w)
    right = x0 + 3 * b - (k - 1) * w  # S1 just left of SE, going west
    return (right - w, y0 + 3 * b, right, y0 + 4 * b)


def centre_of(box: Box) -> Point:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def cell_side(cell: int) -> str:
    return SIDE_OF_CELL[cell // 9]


def is_sake(cell: int) -> bool:
    return cell % 9 == 0


@lru_cache(maxsize=128)
def lane_point(cell: int, offset: float = 0) -> Point:
    """Where move paths cross ``cell``: near the ring's inner edge."""
    x0, y0, x1, y1 = cell_box(cell)
    cx, cy = BOARD_X + BOARD / 2, BOARD_Y + BOARD / 2
    depth = LANE + offset
    if is_sake(cell):
        ix = x1 if cx > x1 else x0
        iy = y1 if cy > y1 else y0
        return (ix - math.copysign(depth, cx - ix), iy - math.copysign(depth, cy - iy))
    mx, my = centre_of((x0, y0, x1, y1))
    side = cell_side(cell)
    if side == "W":
        return (x1 - depth, my)
    if side == "E":
        return (x0 + depth, my)
    if side == "N":
        return (mx, y1 - depth)
    return (mx, y0 + depth)


@lru_cache(maxsize=8)
def mora_box(role: int) -> Box:
    file, row = MORA_SQUARE[role]
    x, y = BOARD_X + file * SQUARE, BOARD_Y + row * SQUARE
    return (x, y, x + SQUARE, y + SQUARE)


def mora_corner(role: int, inset: float = 0) -> Point:
    """The corner of a mora that touches its šake, moved ``inset`` into the mora."""
    entry = cell_box(ENTRY_CELL[role])
    x0, y0, x1, y1 = mora_box(role)
    ex, ey = centre_of(entry)
    mx, my = centre_of((x0, y0, x1, y1))
    x = x0 if ex < mx else x1
    y = y0 if ey < my else y1
    return (x + math.copysign(inset, mx - x), y + math.copysign(inset, my - y))


def label_point(cell: int) -> Point:
    """Where a cell's name is written, in the margin outside the board."""
    box = cell_box(cell)
    cx, cy = centre_of(box)
    half = MARGIN / 2 + 1
    if is_sake(cell):
        return (cx, box[1] - half) if cell in (9, 18) else (cx, box[3] + half)
    side = cell_side(cell)
    if side == "W":
        return (box[0] - half, cy)
    if side == "E":
        return (box[2] + half, cy)
    if side == "N":
        return (cx, box[1] - half)
    return (cx, box[3] + half)


# ---- pieces --------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def piece_sprite(role: int, radius: float) -> Image.Image:
    """An RGBA piece drawn once at the supersampled size: body, inner ring, centre."""
    size = math.ceil(2 * radius * SCALE) + 2
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2
    r = radius * SCALE
    raza = role // 2 == 0
    fill, outline, inner = (
        (RAZA_FILL, RAZA_OUTLINE, RAZA_INNER) if raza else (CADRA_FILL, CADRA_OUTLINE, CADRA_INNER)
    )
    width = max(2, round(r * 0.11))
    draw.ellipse((c - r, c - r, c + r, c + r), fill=outline)
    draw.ellipse((c - r + width, c - r + width, c + r - width, c + r - width), fill=fill)
    ring = r * 0.66
    draw.ellipse(
        (c - ring, c - ring, c + ring, c + ring), outline=inner, width=max(2, round(r * 0.08))
    )
    dot = r * 0.36
    draw.ellipse(
        (c - dot, c - dot, c + dot, c + dot), fill=CENTRE[role % 2], outline=outline, width=1
    )
    return image


def draw_piece(paint: Painter, center: Point, role: int, radius: float = RADIUS) -> None:
    sprite = piece_sprite(role, radius)
    half = sprite.size[0] / 2
    paint.paste(sprite, (round(center[0] * SCALE - half), round(center[1] * SCALE - half)), sprite)


def count_badge(paint: Painter, center: Point, count: int) -> None:
    paint.badge(center, str(count), LABEL_SIZE, COUNT_FILL, WHITE_TEXT)


def badge_reach(paint: Painter, count: int, along: Point) -> float:
    """Half the badge's extent along the unit vector ``along``."""
    height = LABEL_SIZE + 6
    width = max(height, paint.text_width(str(count), LABEL_SIZE) + LABEL_SIZE * 0.6)
    return abs(along[0]) * width / 2 + abs(along[1]) * height / 2


def draw_pile(
    paint: Painter, start: Point, along: Point, role: int, count: int, most: int
) -> float:
    """Discs of one role piled from ``start`` along ``along``, then a count badge when there
    are two or more; returns the distance used from ``start``."""
    shown = min(count, most)
    x, y = start
    for i in range(shown):
        draw_piece(paint, (x + along[0] * i * PILE_STEP, y + along[1] * i * PILE_STEP), role)
    used = (shown - 1) * PILE_STEP + RADIUS
    if count >= 2:
        reach = badge_reach(paint, count, along)
        at = used + 2 + reach
        count_badge(paint, (x + along[0] * at, y + along[1] * at), count)
        used = at + reach
    return used + RADIUS


def cell_groups(counts: list[int]) -> list[tuple[int, int]]:
    """(role, count) present on a cell: veradi raža, veradi čadra, tameg raža, tameg čadra."""
    return [(role, counts[role]) for role in (0, 2, 1, 3) if counts[role]]


def draw_cell_pieces(paint: Painter, cell: int, counts: list[int]) -> None:
    groups = cell_groups(counts)
    if not groups:
        return
    box = cell_box(cell)
    if is_sake(cell):
        _draw_sake_pieces(paint, cell, box, groups)
        return
    nx, ny = NORMAL[cell_side(cell)]
    inward = (-nx, -ny)
    cx, cy = centre_of(box)
    # The outer edge's middle, then the first disc's centre.
    ox, oy = cx + nx * SQUARE / 2, cy + ny * SQUARE / 2
    distance = 5 + RADIUS
    most = 5 if len(groups) == 1 else 2
    for role, count in groups:
        start = (ox + inward[0] * distance, oy + inward[1] * distance)
        distance += draw_pile(paint, start, inward, role, count, most) + 8


def _draw_sake_pieces(paint: Painter, cell: int, box: Box, groups: list[tuple[int, int]]) -> None:
    rows = sorted(groups, key=lambda g: (-(g[0] % 2), g[0]))  # tameg rows on top
    pitch = 2 * RADIUS + 5
    top = (box[1] + box[3]) / 2 - pitch * (len(rows) - 1) / 2
    west = cell in (0, 9)
    along = (1.0, 0.0) if west else (-1.0, 0.0)
    x = box[0] + 7 + RADIUS if west else box[2] - 7 - RADIUS
    for i, (role, count) in enumerate(rows):
        draw_pile(paint, (x, top + i * pitch), along, role, count, 5)


# ---- the empty board, drawn once ----------------------------------------------------------


@cached_background
def _background() -> Image.Image:
    image = banded_panel(WIDTH, HEIGHT, RIM, STATUS_BOTTOM, FOOTER_TOP)
    paint = Painter(image)
    for cell in range(len(CELLS)):
        box = cell_box(cell)
        fill = SAKE_FILL if is_sake(cell) else CIKA_FILL[cell % 2]
        paint.rect(box, fill=fill)
        if not is_sake(cell):
            paint.rect(box, outline=THIN, width=1)
        paint.text(label_point(cell), CELLS[cell], LABEL_SIZE, INK_SOFT)
    for role in range(4):
        light = role < 2
        paint.rect(mora_box(role), fill=LIGHT_MORA if light else DARK_MORA)
    _draw_direction_arrows(paint)
    for k in range(5):  # the 4x4 grid of big squares
        at = k * SQUARE
        width = 4 if k in (0, 4) else 3
        paint.line([(BOARD_X + at, BOARD_Y), (BOARD_X + at, BOARD_Y + BOARD)], GRID, width)
        paint.line([(BOARD_X, BOARD_Y + at), (BOARD_X + BOARD, BOARD_Y + at)], GRID, width)
    for role in range(4):
        _draw_mora_title(paint, role)
        _draw_tray(paint, role, 0)
    paint.rounded_rect(PANEL_BOX, 16, fill=BAND, outline=mix(BAND, INK, 0.3), width=2)
    x, y = PANEL_BOX[0] + 12, PANEL_BOX[1] + 22
    paint.text((x, y), "Sub-turns", LABEL_SIZE, INK, anchor="lm", bold=True)
    paint.text((x, y + IDZEVA_TITLE), "Idzeva (2d8)", LABEL_SIZE, INK, anchor="lm", bold=True)
    _draw_key(paint)
    return image


def _draw_mora_title(paint: Painter, role: int) -> None:
    x0, y0, x1, _ = mora_box(role)
    colour = INK if role < 2 else WHITE_TEXT
    kind = "light" if role < 2 else "dark"
    paint.text((x0 + 9, y0 + 17), MORA_NAMES[role], LABEL_SIZE, colour, anchor="lm", bold=True)
    paint.text((x0 + 38, y0 + 17), kind, LABEL_SIZE, colour, anchor="lm")
    paint.text((x0 + 9, y0 + 42), ROLE_NAMES[role], LABEL_SIZE, colour, anchor="lm")


def _direction_arrow(paint: Painter, cell: int, colour: Colour, step: int, depth: float) -> None:
    """An arrow ``depth`` inside the ring's inner edge, centred on the line between ``cell``
    and the next one sunwise, pointing ``step`` (+1 sunwise, -1 shadowise)."""
    a = lane_point(cell, depth - LANE)
    b = lane_point(cell + 1, depth - LANE)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    ux, uy = (b[0] - a[0]) / CIKA * step, (b[1] - a[1]) / CIKA * step
    half = CIKA * 0.95
    paint.arrow(
        (mx - ux * half, my - uy * half), (mx + ux * half, my + uy * half), colour, 4, head=13
    )


def _draw_direction_arrows(paint: Painter) -> None:
    for middle in (4, 13, 22, 31):  # on the line between the 4th and 5th čika of each side
        _direction_arrow(paint, middle, RAZA_FILL, 1, 28)
        _direction_arrow(paint, middle, CADRA_FILL, -1, 12)


def _turn_arrow(
    paint: Painter, center: Point, radius: float, colour: Colour, sunwise: bool
) -> None:
    """A circular arrow: clockwise when ``sunwise``."""
    x, y = center
    box = paint._box(center, radius)
    width = 4
    if sunwise:
        paint.draw.arc(box, -60, 220, fill=colour, width=round(width * SCALE))
        tip_angle = math.radians(-60)
        tangent = (-math.sin(tip_angle), math.cos(tip_angle))
    else:
        paint.draw.arc(box, -40, 240, fill=colour, width=round(width * SCALE))
        tip_angle = math.radians(240)
        tangent = (math.sin(tip_angle), -math.cos(tip_angle))
    tx, ty = x + radius * math.cos(tip_angle), y + radius * math.sin(tip_angle)
    head = 9
    tip = (tx + tangent[0] * head, ty + tangent[1] * head)
    nx, ny = math.cos(tip_angle), math.sin(tip_angle)
    paint.polygon(
        [
            tip,
            (tx + nx * head * 0.75, ty + ny * head * 0.75),
            (tx - nx * head * 0.75, ty - ny * head * 0.75),
        ],
        colour,
    )


KEY_TOP = 560
IDZEVA_TITLE = 18 + 4 * 58 + 16  # below the panel's "Sub-turns" title


def _draw_key(paint: Painter) -> None:
    x = PANEL_BOX[0] + 14
    y = KEY_TOP
    _turn_arrow(paint, (x + 13, y), 11, RAZA_FILL, True)
    paint.text((x + 34, y), "raža sunwise", LABEL_SIZE, INK, anchor="lm")
    y += 30
    _turn_arrow(paint, (x + 13, y), 11, CADRA_FILL, False)
    paint.text((x + 34, y), "čadra shadowise", LABEL_SIZE, INK, anchor="lm")
    y += 36
    paint.arrow((x, y), (x + 26, y), MOVE, 4, head=11)
    paint.text((x + 34, y), "last moves", LABEL_SIZE, INK_SOFT, anchor="lm")
    y += 30
    paint.rect((x + 2, y - 10, x + 24, y + 10), outline=DANGER, width=3)
    paint.text((x + 34, y), "captured", LABEL_SIZE, INK_SOFT, anchor="lm")
    y += 30
    paint.rect((x + 2, y - 10, x + 24, y + 10), outline=TIE, width=3)
    paint.text((x + 34, y), "standing tie", LABEL_SIZE, INK_SOFT, anchor="lm")


# ---- the moves shown -------------------------------------------------------------------------


def is_board_move(move: str) -> bool:
    return not move.startswith("offer:") and move not in ("accept", "refuse")


def split_move(move: str) -> tuple[int | None, int, bool]:
    """(start cell or None for the mora, landing cell, captured at once)."""
    capture = "x" in move
    origin, land = move.replace("x", "-").split("-")
    return (None if origin == "M" else INDEX[origin]), INDEX[land], capture


def shown_moves(game: Sachidjun) -> tuple[int | None, list[str], list[int] | None]:
    """(role, moves, dice) of the moves to mark: this sub-turn's, or else the last sub-turn
    with a move (read back from the log to that sub-turn's roll), or else just ``last``."""
    if game.played:
        return game.role, list(game.played), game.dice
    last = game.last
    if not last or "to" not in last:
        return None, [], None
    moves: list[str] = []
    dice = None
    found = False
    for entry in reversed(game.log):
        if not found:
            found = entry.move == last["move"]
            if found:
                moves.append(last["move"])
            continue
        if entry.dice is not None:
            dice = list(entry.dice)
            break
        if entry.move is not None and is_board_move(entry.move):
            moves.append(entry.move)
    if not found:
        moves = [last["move"]]
    return int(last["role"]), moves[::-1], dice


def used_pips(game: Sachidjun) -> int:
    if game.dice is None:
        return 0
    a, b = game.dice
    total = 4 * a if a == b else a + b
    return total - game.remaining_pips()


# ---- dynamic drawing ---------------------------------------------------------------------------


def _outline(paint: Painter, box: Box, colour: Colour, width: float = 4) -> None:
    inset = width / 2 + 1
    paint.rect(
        (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset),
        outline=colour,
        width=width,
    )


MARK_WIDTH = 5  # a lesson's marked cell or mora: a green frame inside it


def mark_box(mark: str) -> Box:
    """The box of a lesson's mark: a ring cell (``SW``, ``W3``) or a mora (``b2``)."""
    if mark in INDEX:
        return cell_box(INDEX[mark])
    if mark in MORA_NAMES:
        return mora_box(MORA_NAMES.index(mark))
    raise ValueError(f"no cell or mora {mark!r} to mark on a Šačidjun board")


def _draw_marks(paint: Painter, marks: Iterable[str]) -> None:
    for mark in marks:
        _outline(paint, mark_box(mark), MILL, MARK_WIDTH)


def _margin_pill(paint: Painter, cell: int, text: str, colour: Colour, slot: int) -> None:
    """A pill beside a šake's name in the margin (slot 0 right of it, 1 left of it)."""
    x, y = label_point(cell)
    width = paint.text_width(text, LABEL_SIZE) + LABEL_SIZE * 0.6
    dx = 22 + width / 2
    paint.badge((x + dx if slot == 0 else x - dx, y), text, LABEL_SIZE, colour, WHITE_TEXT)


def _draw_cell_flags(paint: Painter, game: Sachidjun, resolved: list[dict]) -> None:
    ties = set(game.ties())
    landed = {INDEX[c] for c in game._state()["landed"]} if game.landed else set()
    results = {r["cell"]: r for r in resolved}
    for cell in SAKE:
        name = CELLS[cell]
        counts = game.cells[cell]
        sides = (counts[0] + counts[2], counts[1] + counts[3])
        if name in ties:
            _outline(paint, cell_box(cell), TIE, 5)
            _margin_pill(paint, cell, "tie", TIE, 0)
        elif cell in landed:
            _outline(paint, cell_box(cell), TIE, 5)
            _margin_pill(paint, cell, "combat", TIE, 0)
        elif max(sides) >= 4 and min(sides) == 0:
            _margin_pill(paint, cell, "held", INK_SOFT, 0)
        result = results.get(name)
        if result is not None and result["result"] != "tie":
            _margin_pill(paint, cell, f"-{result['captured']}", DANGER, 1)


def _path_points(role: int, start: int | None, land: int, offset: float) -> list[Point]:
    size = size_of(role, start, land)
    passed, _ = cached_path(role, start, size)
    points = [mora_corner(role)] if start is None else [lane_point(start, offset)]
    points += [lane_point(c, offset) for c in passed]
    points.append(lane_point(land, offset))
    # Drop collinear middle points (cheaper polyline, cleaner joins).
    kept = [points[0]]
    for a, b in zip(points[1:], points[2:], strict=False):
        p = kept[-1]
        if abs((a[0] - p[0]) * (b[1] - p[1]) - (a[1] - p[1]) * (b[0] - p[0])) > 0.5:
            kept.append(a)
    kept.append(points[-1])
    return kept


def _draw_paths(
    paint: Painter, role: int | None, moves: list[str]
) -> list[tuple[int, bool, Point]]:
    """Green paths beneath the pieces; returns (landing cell, captured, end point) per move."""
    if role is None:
        return []
    ends = []
    many = len(moves) > 1
    for index, move in enumerate(moves):
        start, land, capture = split_move(move)
        offset = (index % 3) * 7 - 7 if many else 0
        points = _path_points(role, start, land, offset)
        if len(points) >= 2:
            for a, b in zip(points, points[1:], strict=False):
                paint.capped_line(a, b, MOVE, 5)
        paint.disc(points[0], 7, MOVE, WHITE_TEXT, 2)
        ends.append((land, capture, points))
    return ends


def _draw_path_ends(paint: Painter, ends: list, lost: set[int]) -> None:
    """Landing cells outlined (red where pieces were captured: at once, or by the šake
    combat resolved after the sub-turn, in ``lost``); the move numbers (several moves) or
    an arrowhead (one)."""
    numbers: dict[int, list[str]] = {}
    for number, (land, capture, _points) in enumerate(ends, start=1):
        _outline(paint, cell_box(land), DANGER if capture or land in lost else MOVE, 4)
        numbers.setdefault(land, []).append(str(number))
    if len(ends) > 1:
        for land, marks in numbers.items():
            paint.badge(lane_point(land), ",".join(marks), LABEL_SIZE, MOVE, WHITE_TEXT, WHITE_TEXT)
        return
    for _land, _capture, points in ends:
        end, a = points[-1], points[-2]
        length = math.hypot(end[0] - a[0], end[1] - a[1])
        ux, uy = (end[0] - a[0]) / length, (end[1] - a[1]) / length
        start = (end[0] - ux * min(length, 30), end[1] - uy * min(length, 30))
        paint.arrow(start, (end[0] + ux * 6, end[1] + uy * 6), MOVE, 5, head=16)


def tray_box(role: int) -> Box:
    """The prisoner tray at the bottom of a mora."""
    x0, _, x1, y1 = mora_box(role)
    return (x0 + 7, y1 - 58, x1 - 7, y1 - 7)


def _draw_tray(paint: Painter, role: int, held: int) -> None:
    """A mora's prisoner tray and its label, outlined red when it ``held`` new prisoners."""
    tray = tray_box(role)
    paint.rounded_rect(
        tray,
        10,
        fill=TRAY,
        outline=DANGER if held else mix(TRAY, INK, 0.35),
        width=4 if held else 1.5,
    )
    paint.text((tray[0] + 8, tray[1] + 13), "prisoners", LABEL_SIZE - 2, INK_SOFT, anchor="lm")


def _draw_moras(paint: Painter, game: Sachidjun, fresh: dict[int, int]) -> None:
    for role in range(4):
        x0, y0, x1, y1 = mora_box(role)
        home = game.home[role]
        y = y0 + 76
        if home:
            draw_pile(paint, (x0 + 12 + RADIUS, y), (1.0, 0.0), role, home, 5)
        else:
            colour = INK_SOFT if role < 2 else mix(WHITE_TEXT, DARK_MORA, 0.3)
            paint.text((x0 + 10, y), "none home", LABEL_SIZE, colour, anchor="lm")
        tray = tray_box(role)
        held = fresh.get(role, 0)
        if held:  # the empty board has the tray as it looks when nothing was just taken
            _draw_tray(paint, role, held)
            paint.badge((tray[2] - 22, tray[1] + 2), f"+{held}", LABEL_SIZE, DANGER, WHITE_TEXT)
        x = tray[0] + 8 + 12
        py = tray[3] - 15
        enemy = 1 - role % 2
        taken = game.prisoners[role]
        if not any(taken):
            paint.text((x - 12, py), "none", LABEL_SIZE, INK_SOFT, anchor="lm")
            continue
        for colour, count in enumerate(taken):
            if not count:
                continue
            draw_piece(paint, (x, py), enemy + 2 * colour, 11)
            label = f"×{count}" if False else str(count)
            paint.text((x + 16, py), label, LABEL_SIZE, INK, anchor="lm", bold=True)
            x += 16 + paint.text_width(label, LABEL_SIZE) + 22


def _fresh_prisoners(game: Sachidjun) -> dict[int, int]:
    """Mora role -> pieces it received with the last move (capture or resolution)."""
    last = game.last
    fresh: dict[int, int] = {}
    if not last or "to" not in last:
        return fresh
    if last.get("captured"):
        fresh[int(last["role"])] = 1
    for result in last.get("resolved", []):
        if result.get("result") not in (None, "tie") and "mora" in result:
            role = MORA_NAMES.index(result["mora"])
            fresh[role] = fresh.get(role, 0) + int(result["captured"])
    return fresh


# ---- panel ---------------------------------------------------------------------------------------


def _draw_panel(paint: Painter, game: Sachidjun) -> None:
    x0, y0, x1, _ = PANEL_BOX
    x = x0 + 12
    y = y0 + 22  # the titles "Sub-turns" and "Idzeva (2d8)" are on the empty board
    y += 18
    winners = set(game.outcome.winners) if game.outcome is not None else set()
    for role in range(4):
        seat = game.seat_of_role[role]
        box = (x0 + 6, y, x1 - 6, y + 54)
        current = game.outcome is None and role == game.role
        if current:
            paint.rounded_rect(box, 10, fill=PANEL, outline=MOVE, width=3)
        elif seat in winners:
            paint.rounded_rect(box, 10, fill=WIN_FILL, outline=MOVE, width=3)
        cy = y + 27
        draw_piece(paint, (x + 14, cy), role, 14)
        name = ROLE_NAMES[role]
        paint.text((x + 36, cy - 12), name, LABEL_SIZE, INK, anchor="lm", bold=current)
        seat_text = f"seat {seat + 1}"
        if game.seat_names[seat].lower() != name:
            seat_text += f": {game.seat_names[seat]}"
        if seat in winners:
            seat_text += " wins"
        paint.text((x + 36, cy + 13), seat_text, LABEL_SIZE, INK_SOFT, anchor="lm")
        y += 58
    y += 16
    assert y == y0 + 22 + IDZEVA_TITLE
    y += 58
    _draw_dice(paint, game, ((x0 + x1) / 2, y))


def _draw_dice(paint: Painter, game: Sachidjun, center: Point) -> None:
    cx, cy = center
    if game.outcome is not None:
        paint.text((cx, cy), "game over", LABEL_SIZE, INK_SOFT)
        return
    if game.dice is None:
        for dx in (-42, 42):
            _draw_die(paint, (cx + dx, cy), 34, "?", faded=True)
        paint.text((cx, cy + 50), "to roll", LABEL_SIZE, INK_SOFT)
        return
    a, b = game.dice
    used = used_pips(game)
    if a == b:
        for i in range(4):
            _draw_die(paint, (cx - 69 + 46 * i, cy), 24, str(a), faded=used >= (i + 1) * a)
        paint.text((cx, cy + 48), f"doubles: 4 × {a}".replace("×", "x"), LABEL_SIZE, INK_SOFT)
        return
    faded = (used in (a, a + b), used in (b, a + b))
    for dx, value, dim in ((-42, a, faded[0]), (42, b, faded[1])):
        _draw_die(paint, (cx + dx, cy), 34, str(value), faded=dim)
    left = game.remaining_pips()
    paint.text((cx, cy + 50), f"{left} pips left", LABEL_SIZE, INK_SOFT)


def _draw_die(paint: Painter, center: Point, radius: float, text: str, faded: bool) -> None:
    """A d8 seen face on: a hexagon with the upward face triangle in the middle (drawn
    once per look and kept as a sprite: the same pixels as ``_die``)."""
    reach = (radius + 3, radius + 3, radius + 3, radius + 3)
    paste_sprite(
        paint,
        ("sachidjun die", radius, text, faded),
        center,
        reach,
        lambda sprite, at: _die(sprite, at, radius, text, faded),
    )


def _die(paint: Painter, center: Point, radius: float, text: str, faded: bool) -> None:
    x, y = center
    hexagon = [
        (
            x + radius * math.cos(math.radians(-90 + 60 * k)),
            y + radius * math.sin(math.radians(-90 + 60 * k)),
        )
        for k in range(6)
    ]
    outline = INK
    face, side = DIE_FACE, DIE_SIDE
    if faded:
        face, side, outline = (mix(c, BAND, 0.6) for c in (DIE_FACE, DIE_SIDE, INK))
    paint.polygon(hexagon, outline)
    inner = [(x + (px - x) * 0.9, y + (py - y) * 0.9) for px, py in hexagon]
    paint.polygon(inner, side)
    triangle = [inner[0], inner[2], inner[4]]
    paint.polygon(triangle, face)
    for k in (0, 2, 4):
        paint.line([inner[k], inner[(k + 1) % 6], inner[(k + 2) % 6]], outline, 1.5)
    size = round(radius * 0.75)
    colour = outline if faded else INK
    paint.text((x, y + radius * 0.12), text, max(size, SMALLEST_TEXT), colour, bold=not faded)


# ---- text -------------------------------------------------------------------------------------


def _draw_status(paint: Painter, game: Sachidjun) -> None:
    status = font_safe(game.status_line())
    room = WIDTH - 2 * (RIM + 24)
    size = paint.fitting_size(status, STATUS_SIZE, room, SMALLEST_TEXT)
    paint.text((RIM + 24, (RIM + STATUS_BOTTOM) / 2 + 1), status, size, INK, anchor="lm")


def footer_lines(game: Sachidjun) -> list[str]:
    """The last moves in words, then any pending offer or pass."""
    lines = []
    role, moves, dice = shown_moves(game)
    last = game.last or {}
    if role is not None and moves:
        rolled = f" rolled {dice[0]}-{dice[1]} and" if dice else ""
        text = f"{ROLE_NAMES[role].capitalize()}{rolled} played {' '.join(moves)}"
        if last.get("captured"):
            text += f"; {last['move']} captured a {last['captured']}"
        for result in last.get("resolved", []):
            if result["result"] == "tie":
                text += f"; {result['cell']} stays a tie"
            else:
                text += (
                    f"; {result['cell']}: {result['result']} won, {result['captured']} "
                    f"captured into {result['mora']}"
                )
        lines.append(text + ".")
    elif last.get("answer"):
        lines.append(
            f"{ROLE_NAMES[int(last['role'])].capitalize()}'s offer {last['move']} was "
            f"{'accepted' if last['answer'] == 'accept' else 'refused'}."
        )
    else:
        lines.append("No move yet. Raža enter at their corner and run sunwise, čadra shadowise.")
    if game.offer is not None:
        offer = game.offer
        lines.append(
            f"Offer pending from {game.seat_names[offer['from']]} to "
            f"{game.seat_names[offer['to']]}: {offer['move'][len('offer:') :]}"
        )
    elif game.last_pass is not None:
        a, b = game.last_pass["dice"]
        lines.append(
            f"{ROLE_NAMES[game.last_pass['role']].capitalize()} rolled {a}-{b}: no legal move."
        )
    return [font_safe(line) for line in lines]


def _draw_footer(paint: Painter, game: Sachidjun) -> None:
    x = RIM + 24
    room = WIDTH - 2 * x
    lines: list[str] = []
    for line in footer_lines(game):
        lines += wrap_text(paint, line, TEXT_SIZE, room)
    if len(lines) > 2:
        lines = lines[:2]
    y = FOOTER_TOP + 8 + LINE / 2
    for line in lines:
        size = paint.fitting_size(line, TEXT_SIZE, room, SMALLEST_TEXT)
        paint.text((x, y), line, size, INK, anchor="lm")
        y += LINE


# ---- the picture --------------------------------------------------------------------------


def render_sachidjun(game: Sachidjun, marks: Iterable[str] = ()) -> bytes:
    """The position as PNG bytes (960 px wide, deterministic); ``marks``: cells and moras a
    lesson speaks of, framed in green under the pieces."""
    paint = Painter.on_board(_background())
    role, moves, _ = shown_moves(game)
    resolved = (game.last or {}).get("resolved", []) if moves else []
    _draw_cell_flags(paint, game, resolved)
    _draw_marks(paint, marks)
    ends = _draw_paths(paint, role, moves)
    for cell, counts in enumerate(game.cells):
        draw_cell_pieces(paint, cell, counts)
    lost = {INDEX[r["cell"]] for r in resolved if r.get("result") != "tie"}
    _draw_path_ends(paint, ends, lost)
    _draw_moras(paint, game, _fresh_prisoners(game) if moves else {})
    _draw_panel(paint, game)
    _draw_status(paint, game)
    _draw_footer(paint, game)
    return paint.png("sachidjun")
