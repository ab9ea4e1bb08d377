"""Sprites change how a picture is made, never its pixels."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import render.chebache as chebache
import render.common as common
from render import render_png
from render.common import (
    DANGER,
    DIRECT,
    INK,
    PANEL,
    SCALE,
    SPRITES,
    Painter,
    paste_sprite,
)
from tests.positions import random_walk


def drawn_directly(paint, key, at, reach, draw) -> None:
    draw(paint, at)


@pytest.mark.parametrize("key", ["chebache", "sachidjun", "tchela"])  # the games with badges
def test_pictures_through_sprites_equal_the_direct_drawing(key: str, monkeypatch):
    """Coin towers, badges and pills pasted from sprites: the same PNG, byte for byte, as
    drawing every shape on the picture (positions with towers, counts, Kings, pills),
    every paste made on the canvas (``render/overlay.py`` makes some at the final size,
    tested in ``test_render_caches.py``)."""
    monkeypatch.setattr(common, "holdable", lambda image, mask: False)
    shown = random_walk(key, 12, seed=21, keep=0.3)
    hits = SPRITES.hits
    with_sprites = [render_png(game) for game in shown]
    assert SPRITES.hits > hits
    monkeypatch.setattr(common, "paste_sprite", drawn_directly)
    monkeypatch.setattr(chebache, "paste_sprite", drawn_directly)
    assert [render_png(game) for game in shown] == with_sprites


def test_a_sprite_is_placed_at_the_same_fraction_of_a_pixel():
    """A disc at x.5 and at x.0, drawn directly and through sprites, give the same pixels
    (the sprite of each fraction is its own: rounding differs between them)."""

    def disc(paint: Painter, at) -> None:
        paint.disc(at, 7.5, DANGER, INK, 1.5)
        paint.rounded_rect((at[0] + 4, at[1] - 5.5, at[0] + 30.5, at[1] + 6), 5, INK)

    for at in [(20.5, 30.0), (21.0, 30.5), (57.5, 41.5)]:
        direct = Image.new("RGB", (100 * SCALE, 80 * SCALE), PANEL)
        disc(Painter(direct), at)
        for _ in range(2):  # drawn, then (asked again) kept and pasted
            pasted = Image.new("RGB", direct.size, PANEL)
            paste_sprite(Painter(pasted), ("test disc",), at, (30, 30, 30, 30), disc)
            assert ImageChops.difference(direct, pasted).getbbox() is None, at
        fraction = (at[0] % 1, at[1] % 1)
        assert (("test disc",), *fraction) in SPRITES
        made = SPRITES.get((("test disc",), *fraction), lambda: DIRECT)
        assert made is not DIRECT and made is not None  # it was pasted from a sprite


def test_text_over_nothing_is_drawn_directly_not_through_a_sprite():
    """A sprite's pixels must be opaque or untouched: text edges over nothing would be
    blended twice, so such a drawing is not made a sprite."""

    def label(paint: Painter, at) -> None:
        paint.text(at, "jump", 20, DANGER)

    direct = Image.new("RGB", (100 * SCALE, 40 * SCALE), PANEL)
    label(Painter(direct), (50, 20))
    for _ in range(2):  # drawn, then (asked again) kept
        pasted = Image.new("RGB", direct.size, PANEL)
        paste_sprite(Painter(pasted), ("test label",), (50, 20), (40, 15, 40, 15), label)
        assert ImageChops.difference(direct, pasted).getbbox() is None
    assert (("test label",), 0.0, 0.0) in SPRITES
    assert SPRITES.get((("test label",), 0.0, 0.0), lambda: None) is DIRECT
