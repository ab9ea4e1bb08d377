"""Tchela board picture: ``render_tchela(game) -> PNG bytes``.

Layout, top to bottom: the status line; North's band (name, captured total, "to move");
North's two rows (outer on top) with its store 1 at the left end; South's two rows (inner on
top) with its store 1 at the right end; South's band; the last move in words with a key to
its marks. With ``two-stores`` each inner row has store 2 in a middle column.

Every hole shows its counters as seeds on a ring (up to 12) and always the count in the
middle; each player's hole numbers (1..16 in sowing order) sit small beside its own rows.
The last move is marked on the board: a blue ring round the hole (or store) it started
from, a blue badge on every place a counter fell with the number of the last drop there
(so the order reads along the final lap), a purple badge with an up-triangle where a relay
picked counters up (how many, at the last pick-up there), green arrows for the opening's
pairs (and a green ring on the last pair, the one sown), a blue arrow for a skip, and red
rings with "-n" on the captured opponent holes, with a red arrow from the hole the move
ended in. A move stopped by the 20-lap safeguard gets a dark double ring where it stopped
(the status line and the last-move text say so too). A key under the last-move text explains
the marks present.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from games.tchela import NORTH, SOUTH, Layout, Tchela, describe

from .common import (
    ACCENT,
    BAND,
    DANGER,
    INK,
    INK_SOFT,
    MILL,
    PANEL,
    Colour,
    Painter,
    Point,
    banded_panel,
    cached_background,
    font_safe,
    hex_colour,
    mix,
    wrap_text,
)

WIDTH = 960
RIM = 6
SIDE_MARGIN = 26  # from the rim to the trays
STORE_COLUMN = 84  # width of the store-1 column at each end
MIDDLE_COLUMN = 72  # width of the store-2 column (two-stores)
MAX_PITCH = 118
MAX_RADIUS = 40

STATUS_BOTTOM = 62
NORTH_BAND = (STATUS_BOTTOM, 110)
ROW_Y = {(NORTH, "outer"): 200, (NORTH, "inner"): 300, (SOUTH, "inner"): 462, (SOUTH, "outer"): 562}
NUMBER_GAP = 20  # from an outer hole's edge to the centre of its hole number
DIVIDER_Y = (ROW_Y[NORTH, "inner"] + ROW_Y[SOUTH, "inner"]) / 2
INNER_NUMBER_GAP = 22  # from the divider to the inner rows' hole numbers
SOUTH_BAND = (644, 692)
FOOTER_TOP = SOUTH_BAND[1]
LINE = 30  # footer line height
HEIGHT = FOOTER_TOP + 3 * LINE + 14 + RIM

STATUS_SIZE = 26
BAND_SIZE = 24
COUNT_SIZE = 30
NUMBER_SIZE = 20
BADGE_SIZE = 20
TEXT_SIZE = 21
SMALLEST_TEXT = 20

TRAY = BAND
HOLE = hex_colour("#86592f")
HOLE_SHADOW = hex_colour("#5e3c1c")
STORE = hex_colour("#7a5029")
SEED = hex_colour("#f6ead0")
SEED_OUTLINE = hex_colour("#2e1d0e")
COUNT_INK = hex_colour("#fff8e8")
EMPTY_INK = mix(HOLE, COUNT_INK, 0.35)
RELAY = hex_colour("#8a3fb5")
MARK_WIDTH = 5
MAX_SEEDS = 12


# ---- geometry -------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Where every place of one layout is drawn (final pixels)."""

    layout: Layout
    pitch: float
    radius: float
    left: float  # x of the left edge of the hole columns
    store_x: tuple[float, float]  # store-1 column centre: (South's at the right, North's)

    @property
    def middle_gap(self) -> float:
        return MIDDLE_COLUMN if self.layout.stores == 2 else 0

    def column_x(self, column: int) -> float:
        x = self.left + (column + 0.5) * self.pitch
        return x + (self.middle_gap if column >= self.layout.width // 2 else 0)

    @property
    def middle_x(self) -> float:
        return self.left + self.layout.width // 2 * self.pitch + self.middle_gap / 2

    @property
    def right(self) -> float:
        return self.left + self.layout.width * self.pitch + self.middle_gap

    def hole_column(self, seat: int, hole: int) -> tuple[int, str]:
        """Column (0 = left of the picture) and row of ``seat``'s hole number ``hole``."""
        width = self.layout.width
        inner = hole > width
        column = 2 * width - hole if inner else hole - 1  # South's view
        if seat == NORTH:
            column = width - 1 - column
        return column, "inner" if inner else "outer"

    def hole_xy(self, seat: int, hole: int) -> Point:
        column, row = self.hole_column(seat, hole)
        return (self.column_x(column), ROW_Y[seat, row])

    def store_box(self, seat: int, store: int) -> tuple[float, float, float, float]:
        """The rounded box of ``seat``'s store 1 (at the end of its rows) or 2 (middle)."""
        if store == 1:
            x = self.store_x[seat]
            y = (ROW_Y[seat, "inner"] + ROW_Y[seat, "outer"]) / 2
            half_w, half_h = 26.0, self.radius + 22
        else:
            x, y = self.middle_x, ROW_Y[seat, "inner"]
            half_w, half_h = 24.0, self.radius
        return (x - half_w, y - half_h, x + half_w, y + half_h)

    def place_xy(self, seat: int, place: int | str) -> Point:
        """Centre of a hole number or a store name ("s1"/"s2") as the trace writes them."""
        if isinstance(place, int):
            return self.hole_xy(seat, place)
        x0, y0, x1, y1 = self.store_box(seat, int(place[1:]))
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def corner(self, seat: int, place: int | str) -> Point:
        """Where a badge sits on a place: its top right."""
        x, y = self.place_xy(seat, place)
        if isinstance(place, int):
            reach = self.radius * 0.74
            return (x + reach, y - reach)
        _, y0, x1, _ = self.store_box(seat, int(place[1:]))
        return (x1, y0 + 4)

    def foot(self, seat: int, hole: int) -> Point:
        """Where the relay badge sits on a hole: on its bottom rim."""
        x, y = self.hole_xy(seat, hole)
        return (x, y + self.radius - 7)

    def number_y(self, seat: int, row: str) -> float:
        """Hole numbers sit on the far side of a row from the other row of the same player:
        the outer rows' by the bands, the inner rows' either side of the divider."""
        away = -1 if seat == NORTH else 1
        if row == "inner":
            return DIVIDER_Y + away * INNER_NUMBER_GAP
        return ROW_Y[seat, row] + away * (self.radius + NUMBER_GAP)

    def tray(self, seat: int) -> tuple[float, float, float, float]:
        top = min(ROW_Y[seat, "inner"], ROW_Y[seat, "outer"]) - self.radius - 12
        bottom = max(ROW_Y[seat, "inner"], ROW_Y[seat, "outer"]) + self.radius + 12
        return (self.left - STORE_COLUMN, top, self.right + STORE_COLUMN, bottom)


@lru_cache(maxsize=8)
def geometry(layout: Layout) -> Geometry:
    room = WIDTH - 2 * (RIM + SIDE_MARGIN) - 2 * STORE_COLUMN
    middle = MIDDLE_COLUMN if layout.stores == 2 else 0
    pitch = min(MAX_PITCH, (room - middle) / layout.width)
    radius = min(MAX_RADIUS, pitch * 0.42)
    holes_width = pitch * layout.width + middle
    left = (WIDTH - holes_width) / 2
    store_x = (left + holes_width + STORE_COLUMN / 2, left - STORE_COLUMN / 2)
    return Geometry(layout, pitch, radius, left, store_x)


@lru_cache(maxsize=64)
def seed_offsets(radius: float, count: int) -> tuple[Point, ...]:
    """Seeds on a ring inside a hole, the first at the top, evenly spaced clockwise."""
    ring = radius - seed_radius(radius) - 2.5
    return tuple(
        (
            ring * math.cos(-math.pi / 2 + 2 * math.pi * i / count),
            ring * math.sin(-math.pi / 2 + 2 * math.pi * i / count),
        )
        for i in range(count)
    )


def seed_radius(radius: float) -> float:
    return radius * 0.15


# ---- the empty board, drawn once per layout ----------------------------------------


@cached_background
def _background(layout: Layout) -> Image.Image:
    geo = geometry(layout)
    image = banded_panel(WIDTH, HEIGHT, RIM, STATUS_BOTTOM, FOOTER_TOP)
    paint = Painter(image)
    for seat in (NORTH, SOUTH):
        paint.rounded_rect(geo.tray(seat), 22, fill=TRAY, outline=mix(TRAY, INK, 0.3), width=2)
        for hole in range(1, layout.holes + 1):
            _draw_hole(paint, geo.hole_xy(seat, hole), geo.radius)
        for store in range(1, layout.stores + 1):
            paint.rounded_rect(geo.store_box(seat, store), 22, fill=HOLE_SHADOW)
            x0, y0, x1, y1 = geo.store_box(seat, store)
            paint.rounded_rect((x0 + 3, y0 + 4, x1 - 3, y1 - 2), 19, fill=STORE)
        _draw_numbers(paint, geo, seat)
    inset = geo.left - STORE_COLUMN + 20
    paint.line([(inset, DIVIDER_Y), (WIDTH - inset, DIVIDER_Y)], mix(PANEL, INK, 0.35), 2)
    return image


def _draw_hole(paint: Painter, center: Point, radius: float) -> None:
    x, y = center
    paint.disc(center, radius, HOLE_SHADOW)
    paint.disc((x, y + 2.5), radius - 3.5, HOLE)


def _draw_numbers(paint: Painter, geo: Geometry, seat: int) -> None:
    layout = geo.layout
    for hole in range(1, layout.holes + 1):
        column, row = geo.hole_column(seat, hole)
        paint.text(
            (geo.column_x(column), geo.number_y(seat, row)), str(hole), NUMBER_SIZE, INK_SOFT
        )
    names = layout.store_names()
    paint.text((geo.store_x[seat], geo.number_y(seat, "outer")), names[0], NUMBER_SIZE, INK_SOFT)
    if layout.stores == 2:
        paint.text((geo.middle_x, geo.number_y(seat, "inner")), names[1], NUMBER_SIZE, INK_SOFT)


# ---- counters -------------------------------------------------------------------------


def _draw_seeds(paint: Painter, center: Point, radius: float, count: int) -> None:
    x, y = center
    size = seed_radius(radius)
    for dx, dy in seed_offsets(radius, min(count, MAX_SEEDS)):
        paint.disc((x + dx, y + dy + 1.5), size, SEED, SEED_OUTLINE, 1.2)


def _draw_counters(paint: Painter, game: Tchela, geo: Geometry) -> None:
    for seat in (NORTH, SOUTH):
        for hole, count in enumerate(game.holes(seat), start=1):
            x, y = geo.hole_xy(seat, hole)
            if count:
                _draw_seeds(paint, (x, y), geo.radius, count)
                paint.text((x, y + 1.5), str(count), COUNT_SIZE, COUNT_INK, bold=True)
            else:
                paint.text((x, y + 1.5), "0", NUMBER_SIZE, EMPTY_INK)
        for store, count in enumerate(game.stores(seat), start=1):
            x, y = geo.place_xy(seat, f"s{store}")
            if count:
                paint.disc((x, y + 1.5), seed_radius(geo.radius) * 1.6, SEED, SEED_OUTLINE, 1.5)


# ---- the last move ----------------------------------------------------------------------


def last_drops(drops: Sequence[int | str]) -> dict[int | str, tuple[int, int]]:
    """Place -> (index of the last drop there, 1-based; how many drops fell there)."""
    found: dict[int | str, tuple[int, int]] = {}
    for index, place in enumerate(drops, start=1):
        found[place] = (index, found.get(place, (0, 0))[1] + 1)
    return found


def last_pickups(relays: Sequence[Sequence[Any]]) -> dict[int | str, int]:
    """Hole -> counters picked up by the last relay there."""
    return {hole: count for hole, count in relays}


def _ring_place(paint: Painter, geo: Geometry, seat: int, place: int | str, colour: Colour) -> None:
    if isinstance(place, int):
        paint.ring(geo.hole_xy(seat, place), geo.radius + 6, colour, MARK_WIDTH)
        return
    x0, y0, x1, y1 = geo.store_box(seat, int(place[1:]))
    paint.rounded_rect((x0 - 6, y0 - 6, x1 + 6, y1 + 6), 28, outline=colour, width=MARK_WIDTH)


# A lesson's mark: a hole number or store (s; s1, s2 with two stores) of the player to
# move, or of South or North with S or N in front (N15).
MARK_NAME = re.compile(r"([NS]?)([0-9]+|s[12]?)")


def mark_place(game: Tchela, mark: str) -> tuple[int, int | str]:
    """The (seat, place) a lesson's mark names, ``ValueError`` if none."""
    found = MARK_NAME.fullmatch(mark)
    if found:
        side, place = found.groups()
        mover = SOUTH if game.to_move is None else game.to_move
        seat = {"N": NORTH, "S": SOUTH}.get(side, mover)
        if place.isdigit() and 1 <= int(place) <= game.layout.holes:
            return seat, int(place)
        store = "s1" if place == "s" and game.layout.stores == 1 else place
        if store in ("s1", "s2") and int(store[1]) <= game.layout.stores:
            return seat, store
    raise ValueError(f"no hole or store {mark!r} to mark on this Tchela board")


def _draw_marks(paint: Painter, game: Tchela, geo: Geometry, marks: Iterable[str]) -> None:
    """A green ring round each hole or store a lesson speaks of."""
    for mark in marks:
        seat, place = mark_place(game, mark)
        _ring_place(paint, geo, seat, place, MILL)


def _stop_ring(paint: Painter, center: Point, radius: float) -> None:
    """Where the safeguard stopped a move: a dark ring set off by a light one."""
    paint.ring(center, radius + 7, INK, 4)
    paint.ring(center, radius + 3, COUNT_INK, 2.5)


def _edge_arrow(
    paint: Painter, geo: Geometry, start: Point, end: Point, colour: Colour, width: float = 5
) -> None:
    """An arrow between two places, from rim to rim (overlapping them a little)."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    trim = geo.radius - 12
    paint.arrow(
        (x0 + ux * trim, y0 + uy * trim),
        (x1 - ux * trim, y1 - uy * trim),
        colour,
        width,
        head=14,
    )


def _capture_arrow(paint: Painter, geo: Geometry, seat: int, end: int) -> None:
    """From the hole the move ended in to the opponent's inner hole facing it (same column),
    beside the hole numbers between them."""
    x, y = geo.hole_xy(seat, end)
    side = geo.radius * 0.55
    rim = math.sqrt(geo.radius**2 - side**2) + 4
    towards = 1 if seat == NORTH else -1
    facing_y = ROW_Y[1 - seat, "inner"]
    paint.arrow(
        (x - side, y + towards * rim), (x - side, facing_y - towards * rim), DANGER, 4, head=13
    )


def _relay_badge(paint: Painter, center: Point, count: int) -> tuple[float, float, float, float]:
    """Purple pill with an up-triangle (picked up) and the count."""
    text = str(count)
    height = BADGE_SIZE + 6
    width = paint.text_width(text, BADGE_SIZE) + 30
    x, y = center
    box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
    paint.rounded_rect(box, height / 2, RELAY, COUNT_INK, 1.5)
    tx = box[0] + 12
    paint.polygon([(tx - 6, y + 4), (tx + 6, y + 4), (tx, y - 6)], COUNT_INK)
    paint.text((box[2] - 8, y + 0.5), text, BADGE_SIZE, COUNT_INK, anchor="rm")
    return box


def _draw_last_move(paint: Painter, game: Tchela, geo: Geometry) -> None:
    last = game.last
    if not last:
        return
    seat = last["seat"]
    _ring_place(paint, geo, seat, last["start"], ACCENT)
    if last["kind"] == "skip":  # one counter jumps: an arrow says it all
        start, end = geo.place_xy(seat, last["start"]), geo.place_xy(seat, last["end"])
        _edge_arrow(paint, geo, start, end, ACCENT, 6)
        return
    for a, b in last["pairs"]:
        _edge_arrow(paint, geo, geo.place_xy(seat, a), geo.place_xy(seat, b), MILL)
    if last["captured"]:
        _capture_arrow(paint, geo, seat, last["end"])
    if last["kind"] == "open":
        _ring_place(paint, geo, seat, last["sown"], MILL)
    if last["safeguard"]:
        _stop_ring(paint, geo.hole_xy(seat, last["end"]), geo.radius)
    for hole, count in last["captured"]:
        _ring_place(paint, geo, 1 - seat, hole, DANGER)
        paint.badge(geo.corner(1 - seat, hole), f"-{count}", BADGE_SIZE, DANGER, COUNT_INK)
    for hole, count in last_pickups(last["relays"]).items():
        _relay_badge(paint, geo.foot(seat, hole), count)
    for place, (index, _) in last_drops(last["drops"]).items():
        paint.badge(geo.corner(seat, place), str(index), BADGE_SIZE, ACCENT, COUNT_INK)


# ---- text -------------------------------------------------------------------------------


def _draw_status(paint: Painter, game: Tchela) -> None:
    status = font_safe(game.status_line())
    room = WIDTH - 2 * (RIM + 24)
    size = paint.fitting_size(status, STATUS_SIZE, room, SMALLEST_TEXT)
    paint.text((RIM + 24, (RIM + STATUS_BOTTOM) / 2 + 1), status, size, INK, anchor="lm")


def _draw_band(paint: Painter, game: Tchela, seat: int, band: tuple[float, float]) -> None:
    y = (band[0] + band[1]) / 2
    x = RIM + 24
    name = game.seat_names[seat]
    paint.text((x, y), name, BAND_SIZE, INK, anchor="lm", bold=True)
    x += paint.text_width(name, BAND_SIZE) + 18
    captured = game.captured[seat]
    paint.disc((x + 9, y + 1), 9, SEED, SEED_OUTLINE, 1.5)
    paint.text((x + 26, y), f"captured {captured}", BAND_SIZE, INK, anchor="lm")
    tag, colour = _seat_tag(game, seat)
    if tag:
        right = WIDTH - RIM - 24
        width = paint.text_width(tag, BAND_SIZE) + 28
        paint.badge((right - width / 2, y), tag, BAND_SIZE, colour, COUNT_INK)


def _seat_tag(game: Tchela, seat: int) -> tuple[str, Colour]:
    if game.outcome is None:
        if game.to_move == seat:
            return ("to open" if not game.opened[seat] else "to move"), ACCENT
        return "", ACCENT
    if game.outcome.is_draw:
        return "draw", INK_SOFT
    return ("wins", MILL) if seat in game.outcome.winners else ("", ACCENT)


def last_move_text(game: Tchela) -> str:
    last = game.last
    if not last:
        width = game.layout.width
        return (
            f"No move yet. Each side numbers its own holes in sowing order: 1-{width} along "
            f"its outer row, {width + 1}-{2 * width} back along its inner row."
        )
    mover = game.seat_names[last["seat"]]
    words = describe(last, game.layout).replace(" — ", ", ")
    if last["laps"] >= 1:  # the badges number the drops: say how many there were
        laps = "" if "lap" in words else f", {last['laps']:g} laps"
        words += f" ({len(last['drops'])} drops{laps})"
    return font_safe(f"{mover} played {last['move']}: {words}.")


def _legend(game: Tchela) -> list[tuple[str, str]]:
    """(mark, words) for the marks on the board now."""
    last = game.last
    if not last:
        return []
    keys = [("start", "start")]
    if last["kind"] == "skip":
        return [*keys, ("skip", "skipped to")]
    if last["pairs"]:
        keys.append(("pair", "pairs"))
    many = any(count > 1 for _, count in last_drops(last["drops"]).values())
    keys.append(("drop", "last drop there" if many else "drop order"))
    if last["relays"]:
        keys.append(("relay", "picked up"))
    if last["captured"]:
        keys.append(("capture", "captured"))
    if last["safeguard"]:
        keys.append(("stop", "stopped by the safeguard"))
    return keys


def _draw_footer(paint: Painter, game: Tchela) -> None:
    x = RIM + 24
    room = WIDTH - 2 * x
    lines = wrap_text(paint, last_move_text(game), TEXT_SIZE, room)
    legend = _legend(game)
    if len(lines) > 2 or not legend:
        lines = lines[:3]
    y = FOOTER_TOP + 8 + LINE / 2
    for line in lines:
        paint.text((x, y), line, TEXT_SIZE, INK, anchor="lm")
        y += LINE
    if len(lines) < 3 and legend:
        _draw_legend(paint, legend, x, y)


def _draw_legend(paint: Painter, legend: list[tuple[str, str]], x: float, y: float) -> None:
    for mark, words in legend:
        if mark == "start":
            paint.ring((x + 11, y), 10, ACCENT, 4)
            x += 26
        elif mark in ("pair", "skip"):
            paint.arrow((x, y), (x + 26, y), MILL if mark == "pair" else ACCENT, 4, head=11)
            x += 32
        elif mark == "stop":
            _stop_ring(paint, (x + 11, y), 4)
            x += 30
        elif mark == "drop":
            box = paint.badge((x + 13, y), "1", BADGE_SIZE, ACCENT, COUNT_INK)
            x = box[2] + 8
        elif mark == "relay":
            x = _relay_badge(paint, (x + 22, y), 3)[2] + 8
        elif mark == "capture":
            box = paint.badge((x + 18, y), "-2", BADGE_SIZE, DANGER, COUNT_INK)
            x = box[2] + 8
        paint.text((x, y), words, NUMBER_SIZE, INK_SOFT, anchor="lm")
        x += paint.text_width(words, NUMBER_SIZE) + 24


# ---- the picture --------------------------------------------------------------------------


def render_tchela(game: Tchela, marks: Iterable[str] = ()) -> bytes:
    """The position as PNG bytes (960 px wide, deterministic); ``marks``: holes and stores
    a lesson speaks of (see ``mark_place``), ringed in green."""
    geo = geometry(game.layout)
    paint = Painter.on_board(_background(game.layout))
    _draw_counters(paint, game, geo)
    _draw_last_move(paint, game, geo)
    _draw_marks(paint, game, geo, marks)
    _draw_status(paint, game)
    _draw_band(paint, game, NORTH, NORTH_BAND)
    _draw_band(paint, game, SOUTH, SOUTH_BAND)
    _draw_footer(paint, game)
    return paint.png("tchela")
