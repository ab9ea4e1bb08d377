"""render/chart.py: the rating chart of /game stats."""

from __future__ import annotations

import io

from PIL import Image

from render.chart import CARD, HEIGHT, LINE, WIDTH, rating_chart

DAY = 86400.0


def picture(points, title="Shax: alice") -> Image.Image:
    image = Image.open(io.BytesIO(rating_chart(points, title)))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    return image.convert("RGB")


def blue_columns(image: Image.Image) -> list[int]:
    """The columns where the rating line's colour is drawn (below the title)."""
    pixels = image.load()
    return [x for x in range(WIDTH) if any(pixels[x, y] == LINE for y in range(60, HEIGHT - 40))]


def test_the_line_spans_the_plot_and_ends_high_when_the_rating_rose():
    image = picture([(0.0, 1500), (DAY, 1560), (2 * DAY, 1620)])
    columns = blue_columns(image)
    assert min(columns) < 120 and max(columns) > WIDTH - 60  # from the first game to now
    pixels = image.load()
    rows = lambda x: [y for y in range(60, HEIGHT - 40) if pixels[x, y] == LINE]  # noqa: E731
    assert min(rows(max(columns) - 10)) < min(rows(min(columns) + 10))  # up is better


def test_an_opaque_card_readable_on_either_theme():
    image = picture([(0.0, 1500), (DAY, 1442)])
    assert image.getpixel((2, 2)) == CARD and image.getpixel((WIDTH - 3, HEIGHT - 3)) == CARD
    assert Image.open(io.BytesIO(rating_chart([(0.0, 1500)], "x"))).mode != "RGBA"


def test_no_games_and_one_point_still_draw():
    assert blue_columns(picture([])) == []
    assert blue_columns(picture([(0.0, 1500)]))  # the dot of the rating now
