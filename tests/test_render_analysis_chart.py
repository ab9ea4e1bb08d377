"""render/analysis_chart.py: the win-chance chart of a post-game analysis."""

from __future__ import annotations

import io

from PIL import Image

from render.analysis_chart import (
    BOTTOM,
    CARD,
    DARK_SIDE,
    HEIGHT,
    LEFT,
    LIGHT_SIDE,
    RIGHT,
    SWING_COLOURS,
    TOP,
    WIDTH,
    SwingMark,
    win_chance_chart,
)


def picture(points, marks=()) -> Image.Image:
    image = Image.open(
        io.BytesIO(win_chance_chart(points, marks, "Shax: White", ("White", "Black")))
    )
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert image.mode == "RGB"  # opaque: the same card on Discord's dark and light themes
    return image


def test_the_first_sides_area_rises_with_its_share():
    # White's share 0 at the start, 1 at the end: the left of the plot is Black's (dark)
    # down to the bottom, the right White's (light) up to the top.
    image = picture([(0, 0.0), (10, 1.0)])
    inside = lambda x, y: image.getpixel((x, y))  # noqa: E731
    assert inside(LEFT + 6, HEIGHT - BOTTOM - 20) == DARK_SIDE
    assert inside(WIDTH - RIGHT - 6, TOP + 20) == LIGHT_SIDE
    assert image.getpixel((2, 2)) == CARD and image.getpixel((WIDTH - 3, HEIGHT - 3)) == CARD


def test_each_sides_swings_are_dots_in_its_colour_where_the_turn_ended():
    points = [(0, 0.5), (5, 0.5), (10, 0.2), (20, 0.9)]
    image = picture(points, [SwingMark(10, 0.2, 0, "1"), SwingMark(20, 0.9, 1, "2")])
    plot_width = WIDTH - RIGHT - LEFT
    x_first = LEFT + plot_width * 10 // 20
    y_first = round(HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * 0.2)
    near = {image.getpixel((x_first + dx, y_first + 8)) for dx in range(-8, 9)}
    assert SWING_COLOURS[0] in near
    colours = {
        image.getpixel((x, y))
        for x in range(WIDTH - RIGHT - 14, WIDTH - RIGHT)
        for y in range(TOP, TOP + 40)
    }
    assert SWING_COLOURS[1] in colours


def test_a_game_of_one_point_draws_without_a_line():
    picture([(0, 0.5)])
