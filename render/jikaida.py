"""Poron Jikaida and Pastang board picture: ``render_jikaida(game, dots=None) -> PNG bytes``.

Layout (portrait): the status line on top (a disc in the colour of the side to move, or of
the winner); the board with Yellow at the bottom (rank 1 at the bottom, file a on the left),
global file letters a..l above and below it and rank numbers 1..18 on both sides; the last
move in words at the bottom.

- Squares in two colours: light (yellow) where file index + rank index is odd, so ``l1``
  and ``a18`` are light. Fronts (between files f|g and ranks 6|7, 12|13) are heavy lines.
- Each drin shows its name faintly (in the half nearer the middle of the board, which the
  start position leaves empty), and its local coordinates small in the corners of its edge
  squares: files A..F bottom right of its bottom row, ranks 1..6 top left of its left column.
  Pastang has one drin: no fronts, no drin name, labels a..f and 1..6 only.
- Pieces are discs with their letters (K P Ka C J H Pk D S): Yellow gold with dark letters,
  Blue deep blue with white letters; both have a dark rim, so they read on either square.
- The last move: its from and to squares tinted green, its route (``last["route"]``, else
  from and to) drawn as a green polyline with an arrowhead, a dot on every turning square,
  a green ring round every piece it vaulted over, a red ring on the to-square for a capture.
- The King of the side to move gets a red glow when it is in Kaida (also after Hyrkaida).
- ``dots`` (square -> kind) draws small dots on squares, e.g. a piece's destinations; the
  kind picks the colour (``KIND_COLOURS``: plain moves, turns, vaults).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.jikaida import Jikaida

from .common import (
    DANGER,
    INK,
    INK_SOFT,
    PANEL,
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
    text_mask,
    translucent,
    wrap_text,
)

RIM = 6
LABEL_ROOM = 24  # margin round the board for the global labels
STATUS_HEIGHT = 46
FOOTER_LINE = 22
FOOTER_LINES = 2

STATUS_SIZE = 20
LABEL_SIZE = 15
FOOTER_SIZE = 16
LOCAL_SIZE = 9

LIGHT_SQUARE = hex_colour("#f4e3a4")  # yellow
DARK_SQUARE = hex_colour("#b08f68")  # brown
FRONT = hex_colour("#2b1d10")
ROUTE = hex_colour("#12a150")
ROUTE_EDGE = hex_colour("#0b3d1f")
TINT = hex_colour("#5fd07d")
ROUTE_OPACITY = 0.78
DRIN_TONE = mix(LIGHT_SQUARE, DARK_SQUARE, 0.5)
KAIDA_GLOW = hex_colour("#ff5a5a")

# Dots for ``dots``: kind of move -> colour.
KIND_COLOURS: dict[str, Colour] = {
    "step": hex_colour("#3d3d3d"),
    "slide": hex_colour("#3d3d3d"),
    "leap": hex_colour("#3d3d3d"),
    "double": hex_colour("#3d3d3d"),
    "turn": ROUTE,
    "vault": hex_colour("#8a3fb5"),
    "move-vault": hex_colour("#8a3fb5"),
    "bent-vault": hex_colour("#d1127a"),
}
KIND_WORDS = {
    "double": "double move",
    "turn": "front turn",
    "vault": "vault",
    "move-vault": "move then vault",
    "bent-vault": "bent vault",
}


@dataclass(frozen=True)
class Style:
    fill: Colour
    rim: Colour
    inner: Colour
    text: Colour


STYLES = (
    Style(hex_colour("#f7c22e"), hex_colour("#4a3300"), hex_colour("#ffe38a"), INK),  # Yellow
    Style(hex_colour("#2357c4"), hex_colour("#071433"), hex_colour("#6f95e6"), WHITE_TEXT),  # Blue
)
SIDE_WORDS = ("Yellow", "Blue")


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one board size (final pixels)."""

    files: int
    ranks: int
    cell: int

    @property
    def left(self) -> int:
        return RIM + LABEL_ROOM

    @property
    def top(self) -> int:
        return RIM + STATUS_HEIGHT + LABEL_ROOM

    @property
    def right(self) -> int:
        return self.left + self.files * self.cell

    @property
    def bottom(self) -> int:
        return self.top + self.ranks * self.cell

    @property
    def width(self) -> int:
        return self.right + LABEL_ROOM + RIM

    @property
    def footer_top(self) -> int:
        return self.bottom + LABEL_ROOM

    @property
    def height(self) -> int:
        return self.footer_top + FOOTER_LINES * FOOTER_LINE + 14 + RIM

    @property
    def fronts(self) -> bool:
        return self.files > 6

    @property
    def radius(self) -> float:
        return self.cell * 0.4

    def box(self, f: int, r: int) -> tuple[float, float, float, float]:
        x0 = self.left + f * self.cell
        y0 = self.top + (self.ranks - 1 - r) * self.cell
        return (x0, y0, x0 + self.cell, y0 + self.cell)

    def centre(self, f: int, r: int) -> Point:
        x0, y0, x1, y1 = self.box(f, r)
        return ((x0 + x1) / 2, (y0 + y1) / 2)


PORON = Layout(12, 18, 48)
PASTANG = Layout(6, 6, 76)


def layout_of(game: Jikaida) -> Layout:
    return PASTANG if game.pastang else PORON


def file_rank(square: str) -> tuple[int, int]:
    """("c", 7) -> (2, 6): file and rank indexes, both from 0."""
    return ord(square[0]) - 97, int(square[1:]) - 1


def is_light_at(f: int, r: int) -> bool:
    return (f + r) % 2 == 1


def square_colour(f: int, r: int) -> Colour:
    return LIGHT_SQUARE if is_light_at(f, r) else DARK_SQUARE


def square_xy(lay: Layout, square: str) -> Point:
    return lay.centre(*file_rank(square))


# ---- the empty board, drawn once per size ---------------------------------------------


@cached_background
def _background(lay: Layout) -> Image.Image:
    image = banded_panel(lay.width, lay.height, RIM, RIM + STATUS_HEIGHT, lay.footer_top)
    paint = Painter(image)
    paint.rect((lay.left - 3, lay.top - 3, lay.right + 3, lay.bottom + 3), fill=FRONT)
    for f in range(lay.files):
        for r in range(lay.ranks):
            paint.rect(lay.box(f, r), fill=square_colour(f, r))
    if lay.fronts:
        _draw_drins(paint, lay)
    _draw_labels(paint, lay)
    return image


def _draw_drins(paint: Painter, lay: Layout) -> None:
    c = lay.cell
    names = (("Mortil", "Zhantil"), ("Neemu", "Leem"), ("Wersting", "Chavonth"))
    for row, pair in enumerate(names):
        for col, name in enumerate(pair):
            f0, r0 = col * 6, row * 6
            # the half of the drin nearer the middle of the board (empty at the start)
            r_mid = {0: 4, 1: 9, 2: 13}[row]
            x = lay.left + (f0 + 3) * c
            y = lay.top + (lay.ranks - 0.5 - r_mid) * c
            _faint_word(paint, (x, y), name.upper())
            for i in range(6):
                letter_box = lay.box(f0 + i, r0)
                tone = mix(square_colour(f0 + i, r0), INK, 0.55)
                paint.text(
                    (letter_box[2] - 3, letter_box[3] - 2), "ABCDEF"[i], LOCAL_SIZE, tone, "rb"
                )
                number_box = lay.box(f0, r0 + i)
                tone = mix(square_colour(f0, r0 + i), INK, 0.55)
                paint.text(
                    (number_box[0] + 3, number_box[1] + 2), str(i + 1), LOCAL_SIZE, tone, "lt"
                )
    # the fronts
    x = lay.left + 6 * c
    paint.line([(x, lay.top - 3), (x, lay.bottom + 3)], FRONT, 5)
    for r in (6, 12):
        y = lay.top + (lay.ranks - r) * c
        paint.line([(lay.left - 3, y), (lay.right + 3, y)], FRONT, 5)


def _faint_word(paint: Painter, centre: Point, word: str) -> None:
    """A drin name in spaced capitals, in a tone half way between the two square colours
    (so it shows faintly on both)."""
    paint.text(centre, " ".join(word), 20, DRIN_TONE, bold=True)


def _draw_labels(paint: Painter, lay: Layout) -> None:
    c = lay.cell
    half = LABEL_ROOM / 2
    for f in range(lay.files):
        x = lay.left + (f + 0.5) * c
        letter = "abcdefghijkl"[f]
        paint.text((x, lay.top - half - 1), letter, LABEL_SIZE, INK_SOFT)
        paint.text((x, lay.bottom + half + 1), letter, LABEL_SIZE, INK_SOFT)
    for r in range(lay.ranks):
        y = lay.top + (lay.ranks - 0.5 - r) * c
        paint.text((lay.left - half - 1, y), str(r + 1), LABEL_SIZE, INK_SOFT)
        paint.text((lay.right + half + 1, y), str(r + 1), LABEL_SIZE, INK_SOFT)


# ---- pieces ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def piece_sprite(side: int, code: str, radius: float) -> Image.Image:
    """One piece drawn once at the supersampled size: rim, body, inner ring, letters."""
    style = STYLES[side]
    size = math.ceil(2 * radius * SCALE) + 2
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2
    r = radius * SCALE
    rim = max(2, round(r * 0.12))
    draw.ellipse((c - r, c - r, c + r, c + r), fill=style.rim)
    draw.ellipse((c - r + rim, c - r + rim, c + r - rim, c + r - rim), fill=style.fill)
    ring = r - rim - max(2, round(r * 0.1))
    width = max(2, round(r * 0.06))
    draw.ellipse((c - ring, c - ring, c + ring, c + ring), outline=style.inner, width=width)
    mask, left, top = text_mask(code, letter_size(code, radius), "mm", True)
    draw.bitmap((round(c) + left, round(c) + top + SCALE), mask, fill=style.text)
    return image


def letter_size(code: str, radius: float) -> int:
    return round(radius * (0.95 if len(code) == 1 else 0.78))


def draw_letters(paint: Painter, centre: Point, side: int, code: str, radius: float) -> None:
    """A piece's letters alone (as ``piece_sprite`` places them), to show through a route."""
    size = letter_size(code, radius)
    paint.text((centre[0], centre[1] + 1), code, size, STYLES[side].text, bold=True)


def draw_piece(paint: Painter, centre: Point, side: int, code: str, radius: float) -> None:
    sprite = piece_sprite(side, code, radius)
    half = sprite.size[0] / 2
    at = (round(centre[0] * SCALE - half), round(centre[1] * SCALE - half))
    paint.paste(sprite, at, sprite)


# ---- the last move --------------------------------------------------------------------


def last_route(game: Jikaida) -> list[str]:
    """The squares the last move ran through, start to end ([] before the first move)."""
    last = game.last
    if not last:
        return []
    route = last.get("route")
    if route and len(route) >= 2:
        return list(route)
    return [last["from"], last["to"]]


def _tint(paint: Painter, lay: Layout, square: str, amount: float) -> None:
    f, r = file_rank(square)
    x0, y0, x1, y1 = lay.box(f, r)
    paint.rect((x0, y0, x1, y1), fill=mix(square_colour(f, r), TINT, amount))


def _shorten(a: Point, b: Point, by: float) -> Point:
    """``b`` moved ``by`` pixels back towards ``a``."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= by:
        return b
    t = (length - by) / length
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _draw_route(paint: Painter, lay: Layout, game: Jikaida) -> None:
    """Rings on the vaulted pieces, then the route over the pieces, slightly translucent
    so the letters under it stay readable."""
    last = game.last
    route = last_route(game)
    if not last or not route:
        return
    for square in last.get("vaulted") or []:
        paint.ring(square_xy(lay, square), lay.radius + 3, ROUTE_EDGE, 4.5)
        paint.ring(square_xy(lay, square), lay.radius + 3, ROUTE, 2.5)
    points = [square_xy(lay, sq) for sq in route]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pad = lay.cell / 2
    box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    translucent(
        paint,
        box,
        ROUTE_OPACITY,
        lambda layer, origin: _route_lines(
            layer, lay, last, [(x - origin[0], y - origin[1]) for x, y in points]
        ),
    )
    pieces = game.piece_codes()
    for square in route[1:-1] + list(last.get("vaulted") or []):
        code = pieces.get(square)
        if code:
            draw_letters(paint, square_xy(lay, square), "YB".index(code[0]), code[1:], lay.radius)


def _route_lines(paint: Painter, lay: Layout, last: dict, points: list[Point]) -> None:
    width = max(4.0, lay.cell * 0.12)
    tip_gap = lay.radius * 0.55
    if last.get("kind") == "fluttember":  # the swap: arrows both ways
        pairs = [(points[0], points[-1]), (points[-1], points[0])]
        body = [_shorten(points[-1], points[0], tip_gap + width * 2)]
    else:
        pairs = [(points[-2], points[-1])]
        body = points[:-1]
    body.append(_shorten(points[-2], points[-1], tip_gap + width * 2))
    for colour, w in ((ROUTE_EDGE, width + 3), (ROUTE, width)):
        paint.line(body, colour, w)
        for point in body:
            paint.disc(point, w / 2, colour)
    for start, end in pairs:
        _arrowhead(paint, start, _shorten(start, end, tip_gap), width * 3.2)
    if last.get("kind") != "fluttember":
        paint.disc(points[0], width * 0.9, ROUTE, ROUTE_EDGE, 1.5)
    for point in points[1:-1]:  # turning squares
        paint.disc(point, width * 1.1, WHITE_TEXT, ROUTE_EDGE, 2.5)


def _arrowhead(paint: Painter, start: Point, tip: Point, size: float) -> None:
    (x0, y0), (x1, y1) = start, tip
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    bx, by = x1 - ux * size, y1 - uy * size
    half = size * 0.6
    triangle = [(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    paint.polygon(triangle, ROUTE, ROUTE_EDGE, 1.5)


# ---- texts ----------------------------------------------------------------------------


def _plain(text: str) -> str:
    return font_safe(text.replace("⇄", "<>"))


def footer_text(game: Jikaida) -> str:
    last = game.last
    if not last:
        return "No moves yet."
    kind = KIND_WORDS.get(str(last.get("kind")))
    tail = f" · {kind}" if kind else ""
    return _plain(f"Last: {SIDE_WORDS[last['side']]} {last['text']}{tail}")


def _status_side(game: Jikaida) -> int | None:
    if game.outcome is None:
        return game.turn
    winners = game.outcome.winners
    return winners[0] if len(winners) == 1 else None


def _draw_status(paint: Painter, game: Jikaida, lay: Layout) -> None:
    y = RIM + STATUS_HEIGHT / 2
    x = RIM + 14
    side = _status_side(game)
    if side is not None:
        draw_piece(paint, (x + 11, y), side, "", 11)
        x += 30
    text = _plain(game.status_line())
    room = lay.width - RIM - 10 - x
    size = paint.fitting_size(text, STATUS_SIZE, room, 12)
    colour = DANGER if game.outcome is None and "Kaida" in text else INK
    paint.text((x, y), text, size, colour, "lm", bold=True)


def _draw_footer(paint: Painter, game: Jikaida, lay: Layout) -> None:
    room = lay.width - 2 * RIM - 20
    lines = wrap_text(paint, footer_text(game), FOOTER_SIZE, room)[:FOOTER_LINES]
    top = lay.footer_top + 7 + (FOOTER_LINES - len(lines)) * FOOTER_LINE / 2
    for i, line in enumerate(lines):
        y = top + (i + 0.5) * FOOTER_LINE
        paint.text((RIM + 10, y), line, FOOTER_SIZE, INK, "lm")


# ---- the picture ----------------------------------------------------------------------


MARK_WIDTH = 4  # a lesson's marked square: a green frame inside it, edged dark
MARK_EDGE = 1.5


def _draw_marks(paint: Painter, game: Jikaida, lay: Layout, marks: Iterable[str]) -> None:
    """Frame each square a lesson speaks of (``ValueError`` for a name that is no square)."""
    for square in marks:
        if game.geo.parse(square) is None:
            raise ValueError(f"no square {square!r} to mark on this board")
        x0, y0, x1, y1 = lay.box(*file_rank(square))
        edge, inner = 1, 1 + MARK_EDGE
        paint.rect(
            (x0 + edge, y0 + edge, x1 - edge, y1 - edge),
            outline=ROUTE_EDGE,
            width=MARK_WIDTH + 2 * MARK_EDGE,
        )
        paint.rect(
            (x0 + inner, y0 + inner, x1 - inner, y1 - inner), outline=ROUTE, width=MARK_WIDTH
        )


def render_jikaida(
    game: Jikaida, dots: dict[str, str] | None = None, marks: Iterable[str] = ()
) -> bytes:
    """The position as PNG bytes (deterministic). ``dots`` maps squares to a move kind
    (see ``KIND_COLOURS``) to mark, e.g. the destinations of one piece; ``marks``: squares a
    lesson speaks of, framed in green."""
    lay = layout_of(game)
    paint = Painter.on_board(_background(lay))
    last = game.last
    if last and last_route(game):
        _tint(paint, lay, last["from"], 0.45)
        _tint(paint, lay, last["to"], 0.7)
    king = None if game.pastang else game.king_square(game.turn)
    if king is not None and not game.in_kaida():
        king = None
    if king is not None:
        name = game.geo.name(king)
        centre = square_xy(lay, name)
        for grow, amount in ((10, 0.25), (7, 0.5), (4, 0.8)):
            paint.disc(centre, lay.radius + grow, mix(PANEL, KAIDA_GLOW, amount))
    _draw_marks(paint, game, lay, marks)
    radius = lay.radius
    pieces = game.piece_codes()
    for square, code in pieces.items():
        draw_piece(paint, square_xy(lay, square), "YB".index(code[0]), code[1:], radius)
    if king is not None:
        paint.ring(square_xy(lay, game.geo.name(king)), radius + 2, DANGER, 3)
    if last and last.get("captured"):
        x0, y0, x1, y1 = lay.box(*file_rank(last["to"]))
        paint.rect((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=DANGER, width=3)
    _draw_route(paint, lay, game)
    for square, kind in (dots or {}).items():
        colour = KIND_COLOURS.get(kind, INK)
        if square in pieces:  # a capture: a ring round the piece, not over its letters
            paint.ring(square_xy(lay, square), radius + 3.5, WHITE_TEXT, 5)
            paint.ring(square_xy(lay, square), radius + 3.5, colour, 3)
        else:
            paint.disc(square_xy(lay, square), lay.cell * 0.14, colour, WHITE_TEXT, 1.5)
    _draw_status(paint, game, lay)
    _draw_footer(paint, game, lay)
    return paint.png("jikaida")


def destinations(game: Jikaida, square: str) -> dict[str, str]:
    """Square -> move kind for every legal move of the piece on ``square`` (for ``dots``)."""
    out: dict[str, str] = {}
    for move in game.legal_moves():
        if "<>" in move:
            continue
        head = move.split("=")[0].replace("x", "-")
        start, _, end = head.partition("-")
        if start == square and end not in out:
            out[end] = str(game.route(move)["kind"])
    return out
