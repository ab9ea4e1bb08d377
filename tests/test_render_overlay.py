"""render/overlay.py: pastes made at the final size give what the canvas would show."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from render.common import DANGER, INK, PANEL, SCALE, Painter, quantize
from render.overlay import HeldPaste, Overlay, holdable


def board(width: int = 60, height: int = 40) -> Image.Image:
    """A final-size empty board with two flat areas."""
    image = Image.new("RGB", (width, height), PANEL)
    image.paste(INK, (width // 2, 0, width, height))
    return image


def sprite() -> Image.Image:
    """An RGBA disc with soft (partly covering) edges and a varying colour."""
    image = Image.new("RGBA", (23, 19), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((1, 1, 21, 17), fill=(*DANGER, 255))
    draw.rectangle((5, 5, 12, 9), fill=(20, 200, 90, 140))
    return image


def mask() -> Image.Image:
    image = Image.new("L", (17, 11), 0)
    ImageDraw.Draw(image).text((1, 0), "Ab", fill=255)
    return image


@pytest.mark.parametrize("at", [(40, 20), (41, 20), (40, 21), (53, 33)])
@pytest.mark.parametrize("kind", ["sprite", "text"])
def test_a_paste_at_the_final_size_is_the_canvas_paste_shrunk(at, kind):
    """At every parity of the corner, over two flat colours: within one level of 255."""
    empty = board()
    canvas = empty.resize((empty.width * SCALE, empty.height * SCALE), Image.Resampling.NEAREST)
    source, over = (sprite(), None) if kind == "sprite" else (DANGER, mask())
    cover = over if over is not None else source
    canvas.paste(source, at, cover)
    held = HeldPaste(source, at, cover, (at[0], at[1], at[0] + cover.width, at[1] + cover.height))
    small = empty.copy()
    small.paste(*held.shrunk())
    extrema = ImageChops.difference(canvas.reduce(SCALE), small).getextrema()
    assert max(high for _, high in extrema) <= 1


def test_only_pastes_through_their_own_coverage_are_held():
    rgba = sprite()
    assert holdable(rgba, rgba)
    assert holdable(DANGER, mask())
    assert not holdable(rgba, None)  # opaque: its edges would mix with the board
    assert not holdable(rgba, mask())
    assert not holdable(rgba.convert("RGB"), None)
    assert not holdable(DANGER, rgba)


def test_release_gives_the_pastes_under_a_box_and_those_over_them_in_order():
    overlay = Overlay(Image.new("RGB", (320, 160)))
    pastes = [
        HeldPaste(DANGER, (0, 0), mask(), (0, 0, 40, 40)),  # a
        HeldPaste(DANGER, (300, 0), mask(), (300, 0, 340, 40)),  # b: apart
        HeldPaste(DANGER, (30, 30), mask(), (30, 30, 70, 70)),  # c: over a
        HeldPaste(DANGER, (60, 60), mask(), (60, 60, 100, 100)),  # d: over c
    ]
    for paste in pastes:
        overlay.hold(paste)
    assert overlay.release((600, 300, 610, 310)) == []  # no held paste there
    released = overlay.release((90, 90, 95, 95))  # under d, which is over c, over a
    assert released == [pastes[0], pastes[2], pastes[3]]
    assert overlay.held == [pastes[1]]


def test_a_paste_over_a_drawn_part_goes_on_the_canvas():
    paint = Painter.on_board(board())
    paint.disc((10, 10), 5, INK)
    paint.paste(DANGER, (10, 10), mask())  # over the disc: made at full size
    paint.paste(DANGER, (80, 50), mask())  # over the empty board: held
    assert [held.at for held in paint.overlay.held] == [(80, 50)]
    assert (10, 10, 27, 21) in paint.dirty


def test_a_shape_drawn_over_a_held_paste_stays_on_top():
    """The held paste is made on the canvas first, so the drawing order is kept."""
    paint = Painter.on_board(board())
    rgba = sprite()
    paint.paste(rgba, (20, 20), rgba)
    assert len(paint.overlay.held) == 1
    paint.rect((12, 12, 16, 16), fill=(0, 0, 255))  # canvas pixels 24-32, over the sprite
    assert not paint.overlay.held
    canvas = paint.image
    assert canvas.getpixel((26, 26)) == (0, 0, 255)
    assert canvas.getpixel((38, 29)) == rgba.getpixel((18, 9))[:3]  # the sprite, opaque there


def test_the_picture_with_held_pastes_matches_every_paste_on_the_canvas():
    """Through ``encode_png``'s fast path with a game palette: held and drawn alike."""
    empty = Image.new("RGB", (200, 120), PANEL)
    empty.quantized = ("shax", quantize(empty, "shax"))  # as cached_background keeps it
    rgba = sprite()
    paint = Painter.on_board(empty)
    direct = empty.resize((400, 240), Image.Resampling.NEAREST)
    for at in [(40, 40), (91, 61), (300, 120), (310, 125)]:
        paint.paste(rgba, at, rgba)
        direct.paste(rgba, at, rgba)
    paint.disc((60, 40), 8, INK)
    ImageDraw.Draw(direct).ellipse((104, 64, 136, 96), fill=INK)
    assert len(paint.overlay.held) == 3  # the one under the disc was made on the canvas
    shown = Image.open(io.BytesIO(paint.png("shax"))).convert("RGB")
    expected = quantize(direct.reduce(SCALE), "shax").convert("RGB")
    diff = ImageChops.difference(shown, expected).convert("L").histogram()
    assert sum(diff[1:]) <= 4 and diff[0] >= 200 * 120 - 4


def test_the_overlay_works_at_the_renderers_scale():
    import render.overlay

    assert render.overlay.SCALE == SCALE


def test_drawn_on_is_exact_though_the_grid_answers_first():
    paint = Painter.on_board(board(100, 60))
    paint.rect((10, 10, 12, 12), fill=INK)  # canvas 20-24, noted with a pad: 18-26
    assert paint.dirty == [(18, 18, 26, 26)]
    assert paint.drawn_on((20, 20, 22, 22))
    assert paint.drawn_on((25.5, 25.5, 40, 40))  # the pad counts as drawn on
    assert not paint.drawn_on((26, 26, 31, 31))  # in the same grid cell, apart
    assert not paint.drawn_on((100, 100, 120, 110))  # a clean cell
    rgba = sprite()
    paint.paste(rgba, (150, 60), rgba)  # held: not drawn on the canvas
    assert not paint.drawn_on((150, 60, 160, 70))


def test_a_painter_and_its_canvas_go_as_soon_as_the_picture_is_made():
    """No reference cycle: the 12 MiB canvas must not wait for the cyclic collector
    (thousands of pictures would pile up between its runs)."""
    import gc
    import weakref

    gc.disable()
    try:
        paint = Painter.on_board(board())
        paint.rect((1, 1, 5, 5), fill=INK)
        paint.paste(DANGER, (40, 20), mask())
        canvas = weakref.ref(paint.image)
        del paint
        assert canvas() is None
    finally:
        gc.enable()
