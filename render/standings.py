"""A tournament's table as a PNG (``/tournament standings``): a pure function of its rows.

Drawn on its own opaque card (light, dark ink) like the rating chart (render/chart.py), so it
reads the same on Discord's dark and light themes; 720 px wide, shown about 360 points wide
on a phone: text of 22 px and more. Drawn at twice the size and reduced. The leaders' rows
are tinted; a player who withdrew is greyed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

WIDTH = 720
SS = 2
CARD = (246, 244, 239)
INK = (32, 30, 28)
MUTED = (120, 114, 106)
RULE = (214, 209, 200)
BAND = (236, 232, 224)
GOLD = (250, 232, 170)
ACCENT = (29, 95, 209)
TITLE_HEIGHT, HEADER_HEIGHT, ROW_HEIGHT, FOOT = 92, 40, 38, 20
MOST_ROWS = 40
# Columns: (heading, right edge or left edge, anchor); the name column takes what is left.
NUMBERS = (("Pts", 440), ("BH-1", 520), ("SB", 600), ("Games", 700))


@dataclass(frozen=True)
class TableRow:
    place: int
    name: str
    points: str
    buchholz: str
    sonneborn_berger: str
    games: str
    withdrawn: bool = False


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size * SS)


def standings_png(title: str, subtitle: str, rows: Sequence[TableRow]) -> bytes:
    """The table: ``title`` (the event), ``subtitle`` (game, format, round), then a row per
    player, first place first (at most ``MOST_ROWS``; a last line counts the others)."""
    shown = list(rows[:MOST_ROWS])
    more = len(rows) - len(shown)
    height = TITLE_HEIGHT + HEADER_HEIGHT + ROW_HEIGHT * (len(shown) + (1 if more else 0)) + FOOT
    image = Image.new("RGB", (WIDTH * SS, height * SS), CARD)
    draw = ImageDraw.Draw(image)

    def s(value: float) -> float:
        return value * SS

    draw.text((s(24), s(16)), _fit(draw, title, _font(30), 672), font=_font(30), fill=INK)
    draw.text((s(24), s(56)), _fit(draw, subtitle, _font(22), 672), font=_font(22), fill=MUTED)
    top = TITLE_HEIGHT
    heading = _font(20)
    draw.text((s(24), s(top + 10)), "#", font=heading, fill=MUTED)
    draw.text((s(72), s(top + 10)), "Player", font=heading, fill=MUTED)
    for name, right in NUMBERS:
        draw.text((s(right), s(top + 10)), name, font=heading, fill=MUTED, anchor="ra")
    top += HEADER_HEIGHT
    draw.line([(s(16), s(top - 4)), (s(WIDTH - 16), s(top - 4))], fill=RULE, width=SS * 2)
    text = _font(22)
    name_width = NUMBERS[0][1] - 72 - 56
    for index, row in enumerate(shown):
        y = top + index * ROW_HEIGHT
        band = GOLD if row.place == 1 else (BAND if index % 2 else CARD)
        draw.rectangle([s(16), s(y), s(WIDTH - 16), s(y + ROW_HEIGHT)], fill=band)
        ink = MUTED if row.withdrawn else INK
        draw.text((s(24), s(y + 8)), str(row.place), font=text, fill=ink)
        name = row.name + (" (withdrew)" if row.withdrawn else "")
        draw.text((s(72), s(y + 8)), _fit(draw, name, text, name_width), font=text, fill=ink)
        values = (row.points, row.buchholz, row.sonneborn_berger, row.games)
        for (_, right), value in zip(NUMBERS, values, strict=True):
            colour = ACCENT if right == NUMBERS[0][1] and not row.withdrawn else ink
            draw.text((s(right), s(y + 8)), value, font=text, fill=colour, anchor="ra")
    if more:
        y = top + len(shown) * ROW_HEIGHT
        draw.text((s(72), s(y + 8)), f"and {more} more", font=text, fill=MUTED)
    small = image.reduce(SS)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` points."""
    if draw.textlength(text, font=font) <= width * SS:
        return text
    while text and draw.textlength(text + "…", font=font) > width * SS:
        text = text[:-1]
    return text + "…"
