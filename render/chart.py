"""A player's rating over time, as a small PNG (``/game stats``): a pure function.

Drawn on its own opaque card (light, with dark ink), so it reads the same on Discord's dark
and light themes, and large enough to read on a phone (640 x 300 shown about 320 points
wide: text of 22 px and more). Drawn at twice the size and reduced, for smooth lines.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 640, 300
SS = 2  # supersampling
CARD = (246, 244, 239)
INK = (32, 30, 28)
MUTED = (110, 104, 96)
GRID = (214, 209, 200)
LINE = (29, 95, 209)
BASE_LINE = (200, 16, 46)
LEFT, RIGHT, TOP, BOTTOM = 92, 26, 64, 46


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size * SS)


def _nice_step(span: float) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000


def rating_chart(points: Sequence[tuple[float, int]], title: str, base: int = 1500) -> bytes:
    """``points``: (time, rating after the game), oldest first; the first point is the
    rating before the first game shown. ``title`` is written at the top."""
    image = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), CARD)
    draw = ImageDraw.Draw(image)

    def s(value: float) -> float:
        return value * SS

    draw.text((s(20), s(14)), title, font=_font(28), fill=INK)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    ratings = [rating for _, rating in points] or [base]
    low, high = min(*ratings, base), max(*ratings, base)
    step = _nice_step(max(high - low, 40))
    low = (low // step) * step
    high = -((-high) // step) * step
    if high == low:
        high = low + step
    axis = _font(22)

    def y_of(rating: float) -> float:
        return bottom - (rating - low) / (high - low) * (bottom - top)

    value = low
    while value <= high:
        y = y_of(value)
        colour = BASE_LINE if value == base else GRID
        draw.line([(s(left), s(y)), (s(right), s(y))], fill=colour, width=SS * 2)
        draw.text((s(left - 10), s(y)), str(value), font=axis, fill=MUTED, anchor="rm")
        value += step
    count = len(points)
    if count:
        span = max(count - 1, 1)
        xy = [
            (s(left + (right - left) * index / span), s(y_of(rating)))
            for index, (_, rating) in enumerate(points)
        ]
        if count > 1:
            draw.line(xy, fill=LINE, width=SS * 4, joint="curve")
        last = xy[-1]
        radius = s(6)
        draw.ellipse(
            [last[0] - radius, last[1] - radius, last[0] + radius, last[1] + radius], fill=LINE
        )
        first_day = time.strftime("%d %b %Y", time.gmtime(points[0][0]))
        last_day = time.strftime("%d %b %Y", time.gmtime(points[-1][0]))
        draw.text((s(left), s(bottom + 10)), first_day, font=axis, fill=MUTED, anchor="lt")
        draw.text((s(right), s(bottom + 10)), last_day, font=axis, fill=MUTED, anchor="rt")
        now = str(points[-1][1])  # the rating now, beside the title
        draw.text((s(WIDTH - 20), s(14)), now, font=_font(28), fill=LINE, anchor="ra")
        games = f"{count - 1} game{'s' if count != 2 else ''}"
        draw.text(
            (s((left + right) / 2), s(bottom + 10)), games, font=axis, fill=MUTED, anchor="mt"
        )
    small = image.reduce(SS)  # a box filter: smooth enough at 2x, and fast
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
