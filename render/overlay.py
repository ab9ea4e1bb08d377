"""Pastes made at the final size instead of on the supersampled canvas.

Most of what a renderer puts on a position is pasted: piece sprites and text masks,
through their coverage. On the canvas (``SCALE`` = 2 times the final size) each paste
costs four times its final pixels, and ``encode_png`` then shrinks those pixels again by
a 2x2 box filter. Where the canvas still shows the empty board, the paste can be made at
the final size instead, and gives the same picture:

- the canvas is the final-size board blown up by pixel doubling, so there every 2x2 block
  is one colour ``B``;
- pasting colour ``S`` through coverage ``a`` gives ``a*S + (1 - a)*B`` per pixel, and the
  box filter is linear: the block's mean is ``mean(a*S) + (1 - mean(a))*B``;
- that is pasting the shrunk paste (coverage ``mean(a)``, premultiplied colour
  ``mean(a*S)``) over ``B`` at the final size: the same up to rounding (one level of 255).

A paste whose top-left corner is at an odd canvas pixel is shrunk from a copy padded by
one transparent row or column, so that its 2x2 blocks line up with the canvas's.

``Overlay`` holds such pastes, in order, for a canvas of a game's board. Anything later
drawn on the canvas over a held paste (a shape, a paste over a drawn part, a read of the
canvas) first puts that paste (and those it overlaps) on the canvas at full size, so the
order of drawing is kept. Held pastes may overlap each other: they are pasted in order at
the final size, which differs from pasting at full size only where both partly cover one
2x2 block and the lower one's colour varies in it (a level or two at some edge pixels).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from .cache import MIB, ByteCache, image_bytes

SCALE = 2  # the canvas's supersampling (render.common.SCALE)
CELL = 32  # canvas pixels: the grid that notes what has been drawn on or is held

Box = tuple[int, int, int, int]
Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class HeldPaste:
    """``Image.paste(source, at, mask)`` on the canvas, not made yet. ``source`` is an
    RGBA picture pasted through its own alpha (``mask`` is then ``source``) or a colour
    pasted through an "L" ``mask``."""

    source: Image.Image | Colour
    at: tuple[int, int]
    mask: Image.Image
    box: Box

    def shrunk(self) -> tuple[Image.Image | Colour, tuple[int, int], Image.Image]:
        """The same paste at the final size: (source, top-left corner, mask)."""
        x, y = self.at
        px, py = x % SCALE, y % SCALE
        small = shrunk(self.mask, px, py)
        at = ((x - px) // SCALE, (y - py) // SCALE)
        if isinstance(self.source, Image.Image):
            return small, at, small
        return self.source, at, small


def holdable(source: Image.Image | Colour, mask: Image.Image | None) -> bool:
    """A paste ``Overlay`` can make at the final size: an RGBA picture through its own
    alpha, or a colour through an "L" coverage mask."""
    if mask is None:
        return False
    if isinstance(source, Image.Image):
        return source is mask and source.mode == "RGBA"
    return mask.mode == "L"


def _shrink(image: Image.Image, px: int, py: int) -> Image.Image:
    width, height = image.width + px, image.height + py
    size = (width + width % SCALE, height + height % SCALE)
    if image.mode == "L":
        padded = Image.new("L", size, 0)
        padded.paste(image, (px, py))
        return padded.reduce(SCALE)
    padded = Image.new("RGBA", size, (0, 0, 0, 0))
    padded.paste(image, (px, py))
    # the box filter on premultiplied colour: mean(a*S) and mean(a), as the canvas would
    return padded.convert("RGBa").reduce(SCALE).convert("RGBA")


def _shrunk_bytes(entry: tuple[Image.Image, Image.Image]) -> int:
    return image_bytes(entry[0]) + image_bytes(entry[1])  # the entry keeps both alive


# Shrunk sprites and text masks, by the full-size one's identity and the corner's parity.
# An entry keeps its full-size picture alive, so the identity cannot be reused by another
# picture while the entry lives; one-off text masks are not kept (second use).
SHRUNK: ByteCache[tuple[Image.Image, Image.Image]] = ByteCache(
    "shrunk pastes", 6 * MIB, _shrunk_bytes, admit_on_second_use=True
)


def shrunk(image: Image.Image, px: int, py: int) -> Image.Image:
    """``image`` shrunk by ``SCALE`` after ``px`` and ``py`` transparent columns and rows."""
    entry = SHRUNK.get((id(image), px, py), lambda: (image, _shrink(image, px, py)))
    if entry[0] is not image:  # an entry made for a picture since gone (not kept)
        return _shrink(image, px, py)
    return entry[1]


class Overlay:
    """The held pastes of a canvas showing ``board`` (final size) at ``SCALE`` times its
    size, with two grids of ``CELL`` squares: where the canvas has been drawn on, and where
    a held paste lies."""

    def __init__(self, board: Image.Image):
        self.board = board
        self.size = (board.width * SCALE, board.height * SCALE)
        self.columns = -(-self.size[0] // CELL)
        self.rows = -(-self.size[1] // CELL)
        self.drawn = bytearray(self.columns * self.rows)
        self.held_cells = bytearray(self.columns * self.rows)
        self.held: list[HeldPaste] = []

    def complete(self, canvas: Image.Image) -> Image.Image:
        """A copy of ``canvas`` with every held paste made on it (this overlay is left as
        it was)."""
        whole = canvas.copy()
        for paste in self.held:
            whole.paste(paste.source, paste.at, paste.mask)
        return whole

    def _cells(self, box: Box) -> tuple[range, int]:
        """The grid index of the first cell ``box`` touches in each grid row it touches,
        and how many cells it touches in a row (0: none)."""
        x0, y0, x1, y1 = box
        left, right = max(0, x0 // CELL), min(self.columns - 1, (x1 - 1) // CELL)
        top, bottom = max(0, y0 // CELL), min(self.rows - 1, (y1 - 1) // CELL)
        columns = self.columns
        return range(top * columns + left, bottom * columns + left + 1, columns), right + 1 - left

    @staticmethod
    def _any(grid: bytearray, starts: range, width: int) -> bool:
        find = grid.find
        return width > 0 and any(find(1, start, start + width) >= 0 for start in starts)

    @staticmethod
    def _mark(grid: bytearray, starts: range, width: int) -> None:
        if width > 0:
            ones = b"\x01" * width
            for start in starts:
                grid[start : start + width] = ones

    def is_clean(self, box: Box) -> bool:
        """Nothing drawn on the canvas in the cells ``box`` touches."""
        return not self._any(self.drawn, *self._cells(box))

    def hold(self, paste: HeldPaste) -> None:
        self.held.append(paste)
        self._mark(self.held_cells, *self._cells(paste.box))

    def mark_drawn(self, box: Box) -> None:
        self._mark(self.drawn, *self._cells(box))

    def release(self, box: Box) -> list[HeldPaste]:
        """The held pastes under ``box``, and those overlapping them in turn, in the order
        they were made (no longer held): to be made on the canvas before ``box`` is drawn."""
        if not self._any(self.held_cells, *self._cells(box)):
            return []
        position = {id(paste): i for i, paste in enumerate(self.held)}
        boxes, released, remaining = [box], [], self.held
        grown = True
        while grown:
            grown, kept = False, []
            for paste in remaining:
                if any(_overlap(paste.box, other) for other in boxes):
                    released.append(paste)
                    boxes.append(paste.box)
                    grown = True
                else:
                    kept.append(paste)
            remaining = kept
        self.held = remaining
        return sorted(released, key=lambda paste: position[id(paste)])


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
