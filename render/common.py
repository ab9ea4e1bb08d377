"""Shared drawing helpers for every board renderer.

Renderers draw at ``SCALE`` times the final size on an opaque board-coloured panel, then
``encode_png`` shrinks the picture (which antialiases every edge), reduces it to a small
palette and writes a compact PNG. Everything here is deterministic: the same drawing
calls give the same bytes.

Coordinates given to ``Painter`` are in final pixels; it multiplies by the scale itself,
so renderers never think about supersampling.
"""

from __future__ import annotations

import io
import math
import re
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .cache import MIB, ByteCache, image_bytes, trim_heap
from .overlay import HeldPaste, Overlay, holdable
from .png import paletted_png

SCALE = 2  # supersampling factor
PALETTE_COLOURS = 256  # colours kept in the final PNG

Colour = tuple[int, int, int]
Point = tuple[float, float]


def hex_colour(text: str) -> Colour:
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# ---- palette: chosen to read on Discord's dark (#313338) and light (#ffffff) themes ----

PANEL = hex_colour("#e2c28c")  # warm sand/wood board
PANEL_RIM = hex_colour("#5b3a1f")  # dark wooden frame
BAND = hex_colour("#d2ab6e")  # slightly darker strip for status and hand rows
INK = hex_colour("#2b1d10")  # lines, labels, text
INK_SOFT = hex_colour("#6d5236")  # secondary text
ACCENT = hex_colour("#1d5fd1")  # last move
DANGER = hex_colour("#c8102e")  # removals and captures
MILL = hex_colour("#2f8f46")  # a line just completed
WHITE_TEXT = hex_colour("#ffffff")  # text on the accent colours (badges)

# Characters the bundled font lacks (they would print as boxes), and what to print instead.
FONT_SUBSTITUTES = str.maketrans({"—": "-", "–": "-", "−": "-", "×": "x", "→": ">", "•": "·"})


def font_safe(text: str) -> str:
    """``text`` with the characters the bundled font cannot draw replaced by plain ones."""
    return text.translate(FONT_SUBSTITUTES)


def wrap_text(paint: Painter, text: str, size: int, room: float) -> list[str]:
    """``text`` greedily wrapped into lines at most ``room`` final pixels wide at ``size``."""
    space = paint.text_width(" ", size)
    lines: list[list[str]] = [[]]
    used = 0.0
    for word in text.split(" "):
        width = paint.text_width(word, size)
        if lines[-1] and used + space + width > room - 4:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0) + width
        lines[-1].append(word)
    return [" ".join(words) for words in lines]


@dataclass(frozen=True)
class PieceStyle:
    """How one side's pieces look: body, outer outline, and an inner ring for depth."""

    fill: Colour
    outline: Colour
    inner: Colour


LIGHT_PIECE = PieceStyle(
    fill=hex_colour("#fbf7ee"), outline=hex_colour("#231a12"), inner=hex_colour("#d8cdb9")
)
DARK_PIECE = PieceStyle(
    fill=hex_colour("#26211d"), outline=hex_colour("#0b0907"), inner=hex_colour("#5a5149")
)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` final pixels (already scaled)."""
    return ImageFont.load_default(size=size * SCALE)


Mask = tuple[Image.Image, int, int]

# Text masks: a label drawn on every picture (a piece's letters, a count) is drawn once;
# a status line naming this game's players and move is drawn and forgotten. Bounded by
# bytes (a long status line's mask takes about 60 KiB, a coordinate's a few hundred bytes).
TEXT_MASKS: ByteCache[Mask] = ByteCache(
    "text masks", 8 * MIB, lambda mask: image_bytes(mask[0]), admit_on_second_use=True
)


def text_mask(text: str, size: int, anchor: str, bold: bool) -> Mask:
    """``text`` rendered as a coverage mask, with the offset of its top-left corner from
    the anchor point (supersampled pixels). Pasting a cached mask is several times faster
    than drawing the text again, and gives the same pixels."""
    return TEXT_MASKS.get(
        (text, size, anchor, bold), lambda: _draw_text_mask(text, size, anchor, bold)
    )


def _draw_text_mask(text: str, size: int, anchor: str, bold: bool) -> Mask:
    face = font(size)
    stroke = SCALE // 2 if bold else 0
    if any(ord(ch) in CARON_BASES for ch in text):
        return _caron_text_mask(text, size, anchor, stroke)
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top),
        text,
        fill=255,
        font=face,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=255,
    )
    return mask, left, top


# Letters with a caron the bundled font lacks: drawn as the base letter plus a drawn caron.
CARON_BASES = str.maketrans({"č": "c", "Č": "C", "š": "s", "Š": "S", "ž": "z", "Ž": "Z"})


def _caron_text_mask(
    text: str, size: int, anchor: str, stroke: int
) -> tuple[Image.Image, int, int]:
    """``text_mask`` for text with č, š or ž: the base letters, then a "v" over each."""
    face = font(size)
    plain = text.translate(CARON_BASES)
    em = size * SCALE
    line = max(2, round(em * 0.075))
    carons = []
    for i, ch in enumerate(text):
        if ch == plain[i]:
            continue
        x = face.getlength(plain[:i]) + face.getlength(plain[i]) / 2
        top = face.getbbox("H" if ch.isupper() else "x", anchor="ls")[1]
        bottom = top - em * 0.07
        carons.append(
            ((x - em * 0.15, bottom - em * 0.15), (x, bottom), (x + em * 0.15, bottom - em * 0.15))
        )
    box = face.getbbox(plain, anchor="ls", stroke_width=stroke)
    left = min(box[0], *(c[0][0] - line for c in carons))
    top = min(box[1], *(c[0][1] - line for c in carons))
    right = max(box[2], *(c[2][0] + line for c in carons))
    left, top, right = math.floor(left), math.floor(top), math.ceil(right)
    mask = Image.new("L", (max(1, right - left), max(1, box[3] - top)), 0)
    draw = ImageDraw.Draw(mask)
    draw.text(
        (-left, -top), plain, fill=255, font=face, anchor="ls", stroke_width=stroke, stroke_fill=255
    )
    for points in carons:
        draw.line(
            [(x - left, y - top) for x, y in points], fill=255, width=line + stroke, joint="curve"
        )
    # The requested anchor's point in the baseline frame, to give offsets from it.
    at = face.getbbox(plain, anchor=anchor, stroke_width=stroke)
    ax, ay = box[0] - at[0], box[1] - at[1]
    return mask, left - ax, top - ay


# A left-anchored text at least this long is drawn word by word: its words come back from
# one picture to the next (names, moves, "rolled", "captured") when the line does not, and
# pasting cached words is several times faster than drawing the line.
WORDS_FROM = 12


def by_words(text: str, anchor: str) -> bool:
    return anchor[0] == "l" and len(text) >= WORDS_FROM and " " in text


def text_length(text: str, size: int) -> float:
    """Advance width of ``text`` at ``size`` final pixels, in final pixels (for a text
    drawn word by word, its words' and spaces': a one-off line is not cached, its words are)."""
    if by_words(text, "l"):
        words = text.split(" ")
        spaces = (len(words) - 1) * _length(" ", size)
        return sum(_length(word, size) for word in words) + spaces
    return _length(text, size)


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> float:
    return font(size).getlength(text.translate(CARON_BASES)) / SCALE


Box = tuple[int, int, int, int]
# ImageDraw methods whose first argument holds every point they draw (a box or points).
SHAPES = frozenset(
    {"arc", "chord", "ellipse", "line", "pieslice", "point", "polygon", "rectangle"}
    | {"rounded_rectangle"}
)


def _bounds(xy: Any) -> tuple[float, float, float, float]:
    """The bounding box of an ImageDraw ``xy``: flat numbers or (x, y) pairs."""
    flat: list[float] = []
    for item in xy:
        if isinstance(item, int | float):
            flat.append(item)
        else:
            flat.extend(item)
    xs, ys = flat[0::2], flat[1::2]
    return (min(xs), min(ys), max(xs), max(ys))


class _NotingDraw:
    """An ImageDraw that tells its ``Painter`` the box of every shape before drawing it
    (noted for ``encode_png``); anything else it is asked to do marks the whole picture."""

    def __init__(self, image: Image.Image, painter: Painter):
        self._draw = ImageDraw.Draw(image)
        self._size = image.size
        # A weak reference: a painter and its ImageDraw in a cycle would keep the canvas
        # (12 MiB) until the cyclic collector runs, not free it with the painter.
        self._painter = weakref.proxy(painter)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._draw, name)
        if name not in SHAPES:
            self._painter.drawing((0, 0, *self._size))
            return method

        def shape(xy: Any, *args: Any, **kwargs: Any) -> Any:
            x0, y0, x1, y1 = _bounds(xy)
            pad = kwargs.get("width", 1) + 2
            self._painter.drawing(
                (
                    math.floor(x0 - pad),
                    math.floor(y0 - pad),
                    math.ceil(x1 + pad),
                    math.ceil(y1 + pad),
                )
            )
            return method(xy, *args, **kwargs)

        return shape


class Painter:
    """ImageDraw in final-pixel coordinates on a ``SCALE``-times larger image.

    It notes (in ``dirty``, supersampled pixels) every area it draws on, so that
    ``encode_png`` shrinks only those and takes the rest from the empty board. Drawing on
    ``painter.image`` directly marks the whole picture: use ``paste`` instead.

    A painter of a picture of a game's board (``on_board``) also makes pastes over parts
    still showing the empty board at the final size (``render/overlay.py``), and writes
    the picture (``png``). Its canvas starts blank: each ``TILE`` is blown up from the
    board when first drawn on or read (``_materialize``), so a move that touches a few
    tiles pays for those, not for the whole supersampled board (1.0-1.5 ms a picture).
    """

    def __init__(self, image: Image.Image, overlay: Overlay | None = None):
        self._image = image
        self.dirty: list[Box] = []
        self.draw = _NotingDraw(image, self)
        self.overlay = overlay
        self._tiles = _TileGrid(image.size)
        self._ready: bytearray | None = None  # per tile: shows the board (None: all do)

    @classmethod
    def on_board(cls, board: Image.Image) -> Painter:
        """A painter of a picture starting from the empty ``board`` (final size, from a
        ``cached_background`` function)."""
        size = (board.width * SCALE, board.height * SCALE)
        paint = cls(Image.new("RGB", size, None), Overlay(board))  # None: not filled
        paint._ready = bytearray(paint._tiles.count)
        return paint

    def png(self, palette: str) -> bytes:
        """The picture, in game ``palette``'s colours, as PNG bytes (see ``encode_png``)."""
        if self.overlay is None:
            return encode_png(self._image, palette, None, self.dirty)
        board = self.overlay.board
        quantized = getattr(board, "quantized", None)
        if self._ready is None or not quantized or quantized[0] != palette:
            self._materialize((0, 0, *self._image.size))  # the whole canvas is read
            return encode_png(self._image, palette, board, self.dirty, self.overlay)
        # Only the tiles drawn on are read: runs of them, joined across short gaps (the
        # gaps blown up too, which shrinks back to the board's own pixels).
        runs = merged_runs(self._tiles.runs(self._ready))
        for run in runs:
            self._materialize(run)
        return encode_png(self._image, palette, board, runs, self.overlay)

    @property
    def blank_tiles(self) -> int:
        """The tiles of the canvas never blown up from the board (0 for a plain canvas)."""
        return 0 if self._ready is None else self._ready.count(0)

    def whole(self) -> Image.Image:
        """A copy of the canvas with every tile shown and every held paste made: the
        picture at full size, drawn the slow way (for tests and benches)."""
        self._materialize((0, 0, *self._image.size))
        if self.overlay is None:
            return self._image.copy()
        return self.overlay.complete(self._image)

    @property
    def image(self) -> Image.Image:
        self.drawing((0, 0, *self._image.size))
        return self._image

    def _materialize(self, box: Box) -> None:
        """Blow the board up into the tiles ``box`` touches that still are blank."""
        ready = self._ready
        if ready is None:
            return
        runs = self._tiles.blank_runs(ready, box)
        if not runs:
            return
        board = self.overlay.board  # type: ignore[union-attr]
        board.load()
        # Pillow's core calls: the public resize and paste check and copy more than these
        # small pieces are worth (a dozen microseconds each, up to a hundred a picture)
        source, target = board.im, self._image.im
        in_palette = board.mode == "P"  # mapped to RGB at the final size, a quarter the pixels
        for x0, y0, x1, y1 in runs:
            region = (x0 // SCALE, y0 // SCALE, x1 // SCALE, y1 // SCALE)
            if in_palette:
                piece = source.crop(region).convert("RGB")
                tile = piece.resize((x1 - x0, y1 - y0), NEAREST, (0, 0, *piece.size))
            else:
                tile = source.resize((x1 - x0, y1 - y0), NEAREST, region)
            target.paste(tile, (x0, y0, x1, y1))

    @property
    def size(self) -> tuple[int, int]:
        """The supersampled size of the picture."""
        return self._image.size

    def drawing(self, box: Box) -> None:
        """Note that ``box`` (supersampled) is about to be drawn on."""
        self._make_held(box)
        self._materialize(box)
        if self.overlay is not None:
            self.overlay.mark_drawn(box)
        self.dirty.append(box)

    def drawn_on(self, box: tuple[float, float, float, float]) -> bool:
        """Whether anything has been drawn on the canvas in ``box`` (supersampled) since
        it showed the empty board, held pastes aside (with an overlay, its grid first
        rules out the boxes far from every drawing)."""
        x0, y0, x1, y1 = box
        grid_box = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
        if self.overlay is not None and self.overlay.is_clean(grid_box):
            return False
        return any(a < x1 and c > x0 and b < y1 and d > y0 for a, b, c, d in self.dirty)

    def _make_held(self, box: Box) -> None:
        """Make the held pastes under ``box`` on the canvas (before it is drawn on or read)."""
        overlay = self.overlay
        if overlay is None:
            return
        for held in overlay.release(box):
            self._materialize(held.box)
            self._image.paste(held.source, held.at, held.mask)
            self.dirty.append(held.box)
            overlay.mark_drawn(held.box)

    def paste(self, image: Image.Image | Colour, at: tuple[int, int], mask=None) -> None:
        """``Image.paste`` at supersampled ``at`` (an image, or a colour through ``mask``)."""
        shape = mask if mask is not None else image
        assert isinstance(shape, Image.Image)
        box = (at[0], at[1], at[0] + shape.width, at[1] + shape.height)
        overlay = self.overlay
        if overlay is not None and holdable(image, mask) and overlay.is_clean(box):
            overlay.hold(HeldPaste(image, at, mask, box))
            return
        self.drawing(box)
        self._image.paste(image, at, mask)

    def crop(self, box: Box) -> Image.Image:
        self._make_held(box)
        self._materialize(box)
        return self._image.crop(box)

    @staticmethod
    def _s(value: float) -> int:
        return round(value * SCALE)

    def _box(self, center: Point, radius: float) -> tuple[int, int, int, int]:
        x, y = center
        return (self._s(x - radius), self._s(y - radius), self._s(x + radius), self._s(y + radius))

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        scaled = tuple(self._s(v) for v in box)
        self.draw.rectangle(scaled, fill=fill, outline=outline, width=self._s(width))

    def line(self, points: list[Point], fill: Colour, width: float) -> None:
        scaled = [(self._s(x), self._s(y)) for x, y in points]
        self.draw.line(scaled, fill=fill, width=self._s(width))

    def capped_line(self, start: Point, end: Point, fill: Colour, width: float) -> None:
        """A line with round ends (for thick bands)."""
        self.line([start, end], fill, width)
        for point in (start, end):
            self.disc(point, width / 2, fill)

    def disc(
        self,
        center: Point,
        radius: float,
        fill: Colour,
        outline: Colour | None = None,
        outline_width: float = 0,
    ) -> None:
        self.draw.ellipse(
            self._box(center, radius), fill=fill, outline=outline, width=self._s(outline_width)
        )

    def ellipse(
        self,
        box: tuple[float, float, float, float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        """An axis-aligned ellipse filling ``box`` (x0, y0, x1, y1)."""
        scaled = tuple(self._s(v) for v in box)
        self.draw.ellipse(scaled, fill=fill, outline=outline, width=self._s(width))

    def ring(self, center: Point, radius: float, colour: Colour, width: float) -> None:
        self.draw.ellipse(self._box(center, radius), outline=colour, width=self._s(width))

    def piece(self, center: Point, radius: float, style: PieceStyle) -> None:
        """A game piece: outlined disc with an inner ring, readable on any background."""
        outline = max(2.0, radius * 0.1)
        self.disc(center, radius, style.fill, style.outline, outline)
        self.ring(center, radius * 0.62, style.inner, max(1.5, radius * 0.07))

    def ghost(self, center: Point, radius: float, style: PieceStyle, background: Colour) -> None:
        """A faded piece: where something used to be."""
        faded = PieceStyle(
            fill=mix(style.fill, background, 0.55),
            outline=mix(style.outline, background, 0.55),
            inner=mix(style.inner, background, 0.55),
        )
        self.piece(center, radius, faded)

    def cross(self, center: Point, half: float, colour: Colour, width: float) -> None:
        x, y = center
        self.capped_line((x - half, y - half), (x + half, y + half), colour, width)
        self.capped_line((x - half, y + half), (x + half, y - half), colour, width)

    def arrow(
        self, start: Point, end: Point, colour: Colour, width: float, head: float | None = None
    ) -> None:
        """A straight arrow whose tip touches ``end``."""
        head = head if head is not None else width * 3
        (x0, y0), (x1, y1) = start, end
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            return
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        base = (x1 - ux * head, y1 - uy * head)
        self.capped_line(start, (base[0] + ux * 2, base[1] + uy * 2), colour, width)
        half = head * 0.6
        wing_a = (base[0] - uy * half, base[1] + ux * half)
        wing_b = (base[0] + uy * half, base[1] - ux * half)
        scaled = [(self._s(px), self._s(py)) for px, py in (end, wing_a, wing_b)]
        self.draw.polygon(scaled, fill=colour)

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        scaled = tuple(self._s(v) for v in box)
        self.draw.rounded_rectangle(
            scaled, radius=self._s(radius), fill=fill, outline=outline, width=self._s(width)
        )

    def polygon(
        self,
        points: list[Point],
        fill: Colour,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        scaled = [(self._s(x), self._s(y)) for x, y in points]
        if outline is None:
            self.draw.polygon(scaled, fill=fill)
        else:
            self.draw.polygon(scaled, fill=fill, outline=outline, width=self._s(width))

    def text(
        self,
        xy: Point,
        text: str,
        size: int,
        fill: Colour,
        anchor: str = "mm",
        bold: bool = False,
    ) -> None:
        """``bold`` thickens the strokes (the bundled font has no bold face)."""
        x, y = self._s(xy[0]), self._s(xy[1])
        if by_words(text, anchor):
            pen = 0.0  # supersampled pixels from the anchor
            for word in text.split(" "):
                if word:
                    mask, left, top = text_mask(word, size, anchor, bold)
                    self.paste(fill, (x + round(pen) + left, y + top), mask)
                    pen += text_length(word, size) * SCALE
                pen += text_length(" ", size) * SCALE
            return
        mask, left, top = text_mask(text, size, anchor, bold)
        self.paste(fill, (x + left, y + top), mask)

    def text_width(self, text: str, size: int) -> float:
        return text_length(text, size)

    def fitting_size(self, text: str, size: int, room: float, smallest: int) -> int:
        """The largest size from ``size`` down to ``smallest`` at which ``text`` fits ``room``."""
        while size > smallest and self.text_width(text, size) > room:
            size -= 1
        return size

    def badge(
        self,
        center: Point,
        text: str,
        size: int,
        fill: Colour,
        text_fill: Colour = WHITE_TEXT,
        outline: Colour | None = None,
    ) -> tuple[float, float, float, float]:
        """A pill-shaped label (a circle for one or two short characters); returns its box."""
        height = size + 6
        width = max(height, self.text_width(text, size) + size * 0.6)
        x, y = center
        box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
        half = (width / 2 + 3, height / 2 + 3)
        paste_sprite(
            self,
            ("badge", text, size, fill, text_fill, outline),
            center,
            (*half, *half),
            lambda paint, at: paint._badge(at, width, height, text, size, fill, text_fill, outline),
        )
        return box

    def _badge(
        self,
        center: Point,
        width: float,
        height: float,
        text: str,
        size: int,
        fill: Colour,
        text_fill: Colour,
        outline: Colour | None,
    ) -> None:
        x, y = center
        box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
        self.rounded_rect(box, height / 2, fill, outline, 2 if outline else 0)
        self.text((x, y + 0.5), text, size, text_fill)


# ---- sprites: a drawing made once, pasted through its alpha --------------------------

Sprite = tuple[Image.Image, int, int]  # RGBA, offset of its top-left from the anchor point
Reach = tuple[float, float, float, float]  # final pixels left, up, right, down of the anchor


# What the sprite cache keeps for a drawing a sprite would not give exactly (``_draw_sprite``).
DIRECT: Sprite = (Image.new("RGBA", (1, 1)), 0, 0)


def _sprite_bytes(sprite: Sprite | None) -> int:
    return image_bytes(sprite[0]) if sprite is not None else 0


# Drawings repeated from picture to picture (a tower of coins, a badge), each kept as the
# RGBA sprite it makes. Such a drawing takes a few dozen ImageDraw calls; pasting it takes
# one. A sprite takes a few KiB to a few dozen; one drawn once is not kept.
SPRITES: ByteCache[Sprite | None] = ByteCache(
    "sprites", 4 * MIB, _sprite_bytes, admit_on_second_use=True
)


def paste_sprite(
    paint: Painter, key: Hashable, at: Point, reach: Reach, draw: Callable[[Painter, Point], None]
) -> None:
    """``draw(paint, at)``, through a sprite cached under ``key`` (which must say everything
    the drawing depends on but its place) and the fraction of a pixel ``at`` lies off the
    pixel grid; ``reach`` bounds the drawing around ``at``.

    The same pixels as drawing directly: the sprite is drawn at the same fractions of a
    pixel, so every coordinate rounds alike, and its pixels are either untouched or opaque,
    which the paste copies exactly. That holds for drawings of shapes with text only over
    them (text over nothing would be blended twice)."""
    x, y = at
    ix, iy = math.floor(x), math.floor(y)
    fx, fy = x - ix, y - iy
    sprite = SPRITES.get((key, fx, fy), lambda: _draw_sprite(draw, fx, fy, reach))
    if sprite is None:
        return
    if sprite is DIRECT:
        draw(paint, at)
        return
    image, left, top = sprite
    paint.paste(image, (ix * SCALE + left, iy * SCALE + top), image)


def _draw_sprite(
    draw: Callable[[Painter, Point], None], fx: float, fy: float, reach: Reach
) -> Sprite | None:
    ox, oy = math.ceil(reach[0]) + 2, math.ceil(reach[1]) + 2
    width, height = ox + math.ceil(reach[2]) + 2, oy + math.ceil(reach[3]) + 2
    image = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    draw(Painter(image), (ox + fx, oy + fy))
    alpha = image.getchannel("A")
    box = alpha.getbbox()
    if box is None:
        return None
    if any(alpha.histogram()[1:255]):
        return DIRECT  # text over nothing: its edges would be blended twice
    return image.crop(box), box[0] - ox * SCALE, box[1] - oy * SCALE


# Pip positions on a die face, in units of a third of the face from its centre.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def draw_die(
    paint: Painter,
    center: Point,
    size: float,
    value: int,
    face: Colour,
    pips: Colour,
    outline: Colour,
    outline_width: float = 2.5,
) -> None:
    """A six-sided die of ``size`` final pixels showing ``value`` (1..6)."""
    x, y = center
    half = size / 2
    box = (x - half, y - half, x + half, y + half)
    paint.rounded_rect(box, size * 0.18, face, outline, outline_width)
    step, radius = size * 0.27, size * 0.095
    for dx, dy in PIPS[value]:
        paint.disc((x + dx * step, y + dy * step), radius, pips)


def translucent(
    paint: Painter,
    box: tuple[float, float, float, float],
    opacity: float,
    draw: Callable[[Painter, Point], None],
) -> None:
    """Blend a drawing into ``paint``'s image at ``opacity``, touching only ``box``.

    ``draw(painter, origin)`` draws on a copy of the box's region: ``origin`` is the region's
    top-left corner (final pixels), to subtract from every coordinate it draws at."""
    width, height = (v // SCALE for v in paint.size)
    left, top = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    right, bottom = min(width, math.ceil(box[2])), min(height, math.ceil(box[3]))
    if right <= left or bottom <= top:
        return
    region = (left * SCALE, top * SCALE, right * SCALE, bottom * SCALE)
    under = paint.crop(region)
    over = under.copy()
    draw(Painter(over), (left, top))
    paint.paste(Image.blend(under, over, opacity), region[:2])


def side_by_side(pngs: list[bytes], gap: int, colour: Colour = PANEL_RIM) -> bytes:
    """Finished pictures (PNG bytes) joined left to right, tops aligned, ``gap`` pixels of
    ``colour`` between them, as one PNG with the same small palette as ``encode_png``."""
    images = [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
    width = sum(image.width for image in images) + gap * (len(images) - 1)
    joined = Image.new("RGB", (width, max(image.height for image in images)), colour)
    x = 0
    for image in images:
        joined.paste(image, (x, 0))
        x += image.width + gap
    paletted = joined.quantize(
        colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    return paletted_png(paletted)


# The empty boards, one per game, layout or path shown: each is drawn once at the
# supersampled size and kept at the final size in the game's fixed palette, one byte a
# pixel (issue 33: kept in RGB as well, four bytes more, the six boards of a busy server
# took 25 MiB; now 5). A picture starts from it blown back up by pixel doubling, tile by
# tile where drawn on (``Painter.on_board``), which shrinks back to the same pixels, and
# ``encode_png`` maps only the tiles drawn on over it. The board is its own picture in the
# palette: each of its colours maps back to itself (a test checks every board), so the
# tiles left as they were are the same pixels whether mapped again or not.
def background_bytes(image: Image.Image) -> int:
    """An empty board's bytes: its pixels and, if apart, its picture in the fixed palette."""
    quantized = getattr(image, "quantized", None)
    apart = quantized is not None and quantized[1] is not image
    return image_bytes(image) + (image_bytes(quantized[1]) if apart else 0)


# Every board of every game, variant and path shown (11) takes 7.5 MiB.
BACKGROUNDS: ByteCache[Image.Image] = ByteCache("backgrounds", 16 * MIB, background_bytes)


def cached_background(draw: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """Decorator for a function drawing an empty board (supersampled) from hashable
    arguments: it returns that board at final size, drawn once and kept in
    ``BACKGROUNDS``. ``Painter.on_board`` draws a position on it. The
    board of ``render/<game>.py`` also keeps its picture in that game's fixed palette."""
    palette = draw.__module__.rsplit(".", 1)[-1]

    def make(*args: Any) -> Image.Image:
        drawn = draw(*args)
        small = drawn.reduce(SCALE)
        del drawn
        trim_heap()  # the supersampled drawing is freed: give its pages back
        if palette not in _palettes():
            return small
        mapped = quantize(small, palette)
        mapped.quantized = (palette, mapped)  # type: ignore[attr-defined]
        return mapped

    @wraps(draw)
    def cached(*args: Any) -> Image.Image:
        key = (draw.__module__, draw.__qualname__, args)
        return BACKGROUNDS.get(key, lambda: make(*args))

    return cached


def new_canvas(width: int, height: int, colour: Colour = PANEL) -> Image.Image:
    """A blank supersampled RGB image for a ``width`` x ``height`` final picture."""
    return Image.new("RGB", (width * SCALE, height * SCALE), colour)


def framed_panel(width: int, height: int, rim: float = 6) -> Image.Image:
    """The opaque board-coloured panel with a dark rim, the base of every picture."""
    image = new_canvas(width, height, PANEL_RIM)
    Painter(image).rect((rim, rim, width - rim, height - rim), fill=PANEL)
    return image


def banded_panel(
    width: int, height: int, rim: float, status_bottom: float, footer_top: float
) -> Image.Image:
    """``framed_panel`` with a status band on top (down to ``status_bottom``) and a footer
    band from ``footer_top``, each ruled off from the board: the layout of most pictures."""
    image = framed_panel(width, height, rim)
    paint = Painter(image)
    paint.rect((rim, rim, width - rim, status_bottom), fill=BAND)
    paint.line([(rim, status_bottom), (width - rim, status_bottom)], PANEL_RIM, 2)
    paint.rect((rim, footer_top, width - rim, height - rim), fill=BAND)
    paint.line([(rim, footer_top), (width - rim, footer_top)], PANEL_RIM, 2)
    return image


NEAREST = Image.Resampling.NEAREST.value  # Pillow's core takes the filter's number
TILE = 32  # final pixels: encode_png shrinks the tiles drawn on, not the whole canvas


class _TileGrid:
    """The ``TILE`` squares of a supersampled canvas of ``size``, row by row, and runs of
    them: flags (a bytearray, one a tile) say which tiles a run takes."""

    def __init__(self, size: tuple[int, int]):
        self.size = size
        self.step = TILE * SCALE
        self.columns, self.rows = -(-size[0] // self.step), -(-size[1] // self.step)
        self.count = self.columns * self.rows

    def _span(self, box: Box) -> tuple[int, int, int, int]:
        """The first and last column and row of the tiles ``box`` touches."""
        step = self.step
        x0, y0, x1, y1 = box
        return (
            max(0, x0 // step),
            min(self.columns - 1, (x1 - 1) // step),
            max(0, y0 // step),
            min(self.rows - 1, (y1 - 1) // step),
        )

    def mark(self, flags: bytearray, box: Box) -> None:
        left, right, top, bottom = self._span(box)
        if right >= left:
            ones = b"\x01" * (right - left + 1)
            for row in range(top, bottom + 1):
                start = row * self.columns
                flags[start + left : start + right + 1] = ones

    def _box(self, row: int, start: int, end: int) -> Box:
        step = self.step
        bottom = min(self.size[1], (row + 1) * step)
        return (start * step, row * step, min(self.size[0], end * step), bottom)

    def runs(self, flags: bytearray) -> list[Box]:
        """The runs of flagged tiles along each row, as canvas boxes."""
        columns, runs = self.columns, []
        for row in range(self.rows):
            line = flags[row * columns : (row + 1) * columns]
            runs += [self._box(row, *run.span()) for run in _TOUCHED.finditer(line)]
        return runs

    def blank_runs(self, flags: bytearray, box: Box) -> list[Box]:
        """The runs of unflagged tiles that ``box`` touches, flagged now (one box when
        none of them was flagged)."""
        left, right, top, bottom = self._span(box)
        if right < left or bottom < top:
            return []
        columns, width = self.columns, right - left + 1
        starts = range(top * columns + left, bottom * columns + left + 1, columns)
        if not any(flags.find(1, start, start + width) >= 0 for start in starts):
            ones = b"\x01" * width
            for start in starts:
                flags[start : start + width] = ones
            x0, y0, _, _ = self._box(top, left, left)
            _, _, x1, y1 = self._box(bottom, right + 1, right + 1)
            return [(x0, y0, x1, y1)]
        runs = []
        for row in range(top, bottom + 1):
            start = row * self.columns
            line = flags[start + left : start + right + 1]
            if 0 not in line:
                continue
            for run in _BLANK.finditer(line):
                first, end = run.span()
                runs.append(self._box(row, left + first, left + end))
            flags[start + left : start + right + 1] = b"\x01" * len(line)
        return runs


def dirty_runs(dirty: list[Box], size: tuple[int, int]) -> list[Box]:
    """The tiles (``TILE`` final pixels square, on the supersampled canvas of ``size``)
    that ``dirty`` boxes touch, joined into runs along each row of tiles."""
    grid = _TileGrid(size)
    touched = bytearray(grid.count)
    for box in dirty:
        grid.mark(touched, box)
    return grid.runs(touched)


_TOUCHED = re.compile(b"\x01+")
_BLANK = re.compile(b"\x00+")


MERGE_GAP = 3  # tiles: shrinking a few clean tiles costs less than one more call


def merged_runs(runs: list[Box], gap: int = MERGE_GAP) -> list[Box]:
    """``runs`` (from ``dirty_runs``) joined across gaps of up to ``gap`` clean tiles in a
    row, then runs spanning the same columns in consecutive rows joined into one box.
    A clean tile of the canvas still shows the empty board, so shrinking it is harmless."""
    joined: list[Box] = []
    for box in runs:
        last = joined[-1] if joined else None
        if last and last[1] == box[1] and box[0] - last[2] <= gap * TILE * SCALE:
            joined[-1] = (last[0], last[1], box[2], box[3])
        else:
            joined.append(box)
    boxes: list[Box] = []
    ending: dict[tuple[int, int], int] = {}  # (left, right) -> the last box with that span
    for box in joined:
        index = ending.get((box[0], box[2]))
        if index is not None and boxes[index][3] == box[1]:
            boxes[index] = (box[0], boxes[index][1], box[2], box[3])
        else:
            ending[(box[0], box[2])] = len(boxes)
            boxes.append(box)
    return boxes


def shrink(
    image: Image.Image, base: Image.Image | None = None, dirty: list[Box] | None = None
) -> Image.Image:
    """``image`` at final size. Given the empty board it started from (``base``, final
    size, which the canvas showed blown up) and the areas drawn on since (``dirty``), only
    those are shrunk: the same pixels, for the price of the drawn part."""
    if base is None or dirty is None:
        return image.reduce(SCALE)
    small = base.convert("RGB")  # a copy, in RGB (the board may be kept in its palette)
    image.load()
    for x0, y0, x1, y1 in merged_runs(dirty_runs(dirty, image.size)):
        tile = image.im.reduce((SCALE, SCALE), (x0, y0, x1, y1))
        small.im.paste(tile, (x0 // SCALE, y0 // SCALE, x1 // SCALE, y1 // SCALE))
    return small


def _palettes() -> dict[str, str]:
    from .palettes import PALETTES

    return PALETTES


@lru_cache(maxsize=16)
def fixed_palette(key: str) -> Image.Image:
    """The fixed palette of game ``key`` (``render/palettes.py``) as a one-pixel "P" image,
    padded to 256 entries with its first colour (a duplicate never wins a match)."""
    data = bytes.fromhex(_palettes()[key])
    data += data[:3] * (256 - len(data) // 3)
    image = Image.new("P", (1, 1))
    image.putpalette(data)
    return image


def quantize(image: Image.Image, palette: str) -> Image.Image:
    """``image`` with every pixel the nearest colour of game ``palette``'s fixed palette."""
    return image.quantize(palette=fixed_palette(palette), dither=Image.Dither.NONE)


def encode_png(
    image: Image.Image,
    palette: str | None = None,
    base: Image.Image | None = None,
    dirty: list[Box] | None = None,
    overlay: Overlay | None = None,
) -> bytes:
    """Shrink a supersampled canvas to final size, reduce the palette, return PNG bytes.

    A box filter (``reduce``) keeps flat colours exact and adds only edge blends (see
    ``shrink`` for ``base`` and ``dirty``). With ``palette`` (a game key) every pixel takes
    the nearest colour of that game's fixed palette, which holds every flat colour the game
    draws exactly: five times faster than choosing an octree palette per picture; given the
    empty board too, only the tiles drawn on are shrunk and mapped, over the board's own
    mapped picture, and the pastes ``overlay`` holds are made at the final size. Without
    it, an octree palette of the picture.
    """
    quantized = getattr(base, "quantized", None)
    if palette is not None and dirty is not None and quantized and quantized[0] == palette:
        assert base is not None
        paletted = _mapped_over_board(image, palette, base, quantized[1], dirty, overlay)
    else:
        if overlay is not None:
            image, dirty = overlay.complete(image), None
        if palette is None:
            paletted = shrink(image, base, dirty).quantize(
                colors=PALETTE_COLOURS,
                method=Image.Quantize.FASTOCTREE,
                dither=Image.Dither.NONE,
            )
        else:
            paletted = quantize(shrink(image, base, dirty), palette)
    return paletted_png(paletted)


def _mapped_over_board(
    image: Image.Image,
    palette: str,
    board: Image.Image,
    mapped_board: Image.Image,
    dirty: list[Box],
    overlay: Overlay | None,
) -> Image.Image:
    """The picture in ``palette``: ``mapped_board`` (``board`` in that palette) with the
    tiles ``dirty`` touches shrunk from ``image`` and mapped, and the pastes ``overlay``
    holds made at the final size."""
    paletted = mapped_board.copy()
    image.load()
    # Pillow's core calls: the same as reduce, quantize and paste of each run, without
    # their checks and palette copies (a few dozen runs a picture)
    source, target, colours = image.im, paletted.im, fixed_palette(palette).im
    held = overlay.held if overlay is not None else []
    if not held:
        for x0, y0, x1, y1 in merged_runs(dirty_runs(dirty, image.size)):
            tile = source.reduce((SCALE, SCALE), (x0, y0, x1, y1)).convert("P", 0, colours)
            target.paste(tile, (x0 // SCALE, y0 // SCALE, x1 // SCALE, y1 // SCALE))
        return paletted
    small = shrink(image, board, dirty)
    for paste in held:
        small.paste(*paste.shrunk())
    touched = dirty + [paste.box for paste in held]
    for x0, y0, x1, y1 in merged_runs(dirty_runs(touched, image.size)):
        box = (x0 // SCALE, y0 // SCALE, x1 // SCALE, y1 // SCALE)
        target.paste(small.im.crop(box).convert("P", 0, colours), box)
    return paletted
