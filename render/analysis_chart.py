"""The win-chance chart of a post-game analysis (issue 34), as a PNG: a pure function of
plain values (``render`` does not know the search; ``search/analysis.py`` makes them).

Like lichess's: one side's share of the points from 0 to 1 across the game, the area under
the line in that side's colour (light) and above it in the other's (dark), 50% marked; the
largest swings of each side are numbered dots on the line, where the turn that lost them
ended, in the colour of the side that played it. Drawn on its own opaque card, like the
rating chart (``render/chart.py``), so it reads the same on Discord's dark and light
themes; 720 x 340 with text of 20 px and more, readable on a phone shown half as wide.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 720, 340
SS = 2  # drawn at twice the size, then reduced: smooth lines
CARD = (246, 244, 239)
INK = (32, 30, 28)
MUTED = (110, 104, 96)
LIGHT_SIDE = (236, 230, 214)  # the first side's area (below the line)
DARK_SIDE = (70, 66, 62)  # the other side's area (above it)
LINE = (29, 95, 209)
MIDDLE = (200, 16, 46)
SWING_COLOURS = ((230, 140, 20), (200, 16, 46))  # a swing of the first side, of the other
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 58, 50


@dataclass(frozen=True)
class SwingMark:
    """A numbered dot: the turn that ended at ``ply`` moves left the first side ``share``;
    ``side`` 0 when the first side played it, 1 the other."""

    ply: int
    share: float
    side: int
    label: str


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size * SS)


def win_chance_chart(
    points: Sequence[tuple[int, float]],
    marks: Sequence[SwingMark],
    title: str,
    sides: tuple[str, str],
) -> bytes:
    """``points``: (moves played, the first side's share 0..1), in order; ``sides``: the
    names of the first side and of the other, written at the top and bottom of the plot."""
    image = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), CARD)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    last_ply = max((ply for ply, _ in points), default=0) or 1

    def xy(ply: float, share: float) -> tuple[float, float]:
        share = max(0.0, min(1.0, share))
        x = left + (right - left) * ply / last_ply
        return x * SS, (bottom - (bottom - top) * share) * SS

    draw.text((20 * SS, 12 * SS), title, font=_font(26), fill=INK)
    draw.rectangle([left * SS, top * SS, right * SS, bottom * SS], fill=DARK_SIDE)
    line = [xy(ply, share) for ply, share in points]
    if len(line) > 1:
        area = [(line[0][0], bottom * SS), *line, (line[-1][0], bottom * SS)]
        draw.polygon(area, fill=LIGHT_SIDE)
    middle = (top + bottom) / 2 * SS
    draw.line([(left * SS, middle), (right * SS, middle)], fill=MIDDLE, width=SS * 2)
    if len(line) > 1:
        draw.line(line, fill=LINE, width=SS * 3, joint="curve")
    axis = _font(20)
    for share, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        y = (bottom - (bottom - top) * share) * SS
        draw.text(((left - 8) * SS, y), text, font=axis, fill=MUTED, anchor="rm")
    _side_labels(draw, sides, left, top, bottom)
    for mark in marks:
        _swing_dot(draw, xy(mark.ply, mark.share), mark)
    draw.text((left * SS, (bottom + 8) * SS), "move 0", font=axis, fill=MUTED, anchor="lt")
    draw.text(
        (right * SS, (bottom + 8) * SS), f"move {last_ply}", font=axis, fill=MUTED, anchor="rt"
    )
    _legend(draw, sides, (left + right) / 2, bottom + 8)
    small = image.reduce(SS)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def _side_labels(
    draw: ImageDraw.ImageDraw, sides: tuple[str, str], left: int, top: int, bottom: int
) -> None:
    """The other side's name in the top left corner of the plot (its area, dark), the
    first side's in the bottom left (light)."""
    font = _font(20)
    draw.text(((left + 8) * SS, (top + 6) * SS), sides[1], font=font, fill=CARD, anchor="lt")
    draw.text(((left + 8) * SS, (bottom - 6) * SS), sides[0], font=font, fill=INK, anchor="lb")


def _legend(draw: ImageDraw.ImageDraw, sides: tuple[str, str], middle: float, y: float) -> None:
    """Below the plot, centred: "swings: (dot) White (dot) Black", whose swing each colour is."""
    font = _font(20)
    dot, gap = 14, 6

    def width(text: str) -> float:
        return draw.textlength(text, font=font) / SS

    lead = "swings: "
    total = width(lead) + sum(dot + gap + width(side) + 3 * gap for side in sides)
    x = middle - total / 2
    draw.text((x * SS, y * SS), lead, font=font, fill=MUTED, anchor="lt")
    x += width(lead)
    for side, colour in zip(sides, SWING_COLOURS, strict=True):
        draw.ellipse([x * SS, (y + 4) * SS, (x + dot) * SS, (y + 4 + dot) * SS], fill=colour)
        x += dot + gap
        draw.text((x * SS, y * SS), side, font=font, fill=MUTED, anchor="lt")
        x += width(side) + 3 * gap


def _swing_dot(draw: ImageDraw.ImageDraw, at: tuple[float, float], mark: SwingMark) -> None:
    radius = 12 * SS
    x, y = at
    colour = SWING_COLOURS[mark.side]
    draw.ellipse(
        [x - radius, y - radius, x + radius, y + radius], fill=colour, outline=CARD, width=SS * 2
    )
    draw.text((x, y), mark.label, font=_font(16), fill=(255, 255, 255), anchor="mm")
