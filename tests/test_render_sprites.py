"""Sprites and reused canvases change how a picture is made, never its pixels."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

import games
import render.chebache as chebache
import render.common as common
from render import render_png
from render.cache import CACHES, CanvasPool, image_bytes
from render.common import (
    CANVASES,
    DANGER,
    DIRECT,
    INK,
    PANEL,
    SCALE,
    SPRITES,
    Painter,
    canvas_from,
    paste_sprite,
)


def positions(key: str, count: int, seed: int) -> list[games.Game]:
    rng = random.Random(seed)
    out: list[games.Game] = []
    game = games.new_game(key)
    while len(out) < count:
        if game.is_over:
            game = games.new_game(key)
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
            continue
        game.push(rng.choice(game.legal_moves()))
        if rng.random() < 0.3:
            out.append(game.copy())
    return out


def drawn_directly(paint, key, at, reach, draw) -> None:
    draw(paint, at)


@pytest.mark.parametrize("key", ["chebache", "sachidjun", "tchela"])  # the games with badges
def test_pictures_through_sprites_equal_the_direct_drawing(key: str, monkeypatch):
    """Coin towers, badges and pills pasted from sprites: the same PNG, byte for byte, as
    drawing every shape on the picture (positions with towers, counts, Kings, pills)."""
    shown = positions(key, 12, seed=21)
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
        pasted = Image.new("RGB", direct.size, PANEL)
        paste_sprite(Painter(pasted), ("test disc",), at, (30, 30, 30, 30), disc)
        assert ImageChops.difference(direct, pasted).getbbox() is None, at
        fraction = (at[0] % 1, at[1] % 1)
        made = SPRITES.get((("test disc",), *fraction), lambda: DIRECT)
        assert made is not DIRECT and made is not None  # it was pasted from a sprite


def test_text_over_nothing_is_drawn_directly_not_through_a_sprite():
    """A sprite's pixels must be opaque or untouched: text edges over nothing would be
    blended twice, so such a drawing is not made a sprite."""

    def label(paint: Painter, at) -> None:
        paint.text(at, "jump", 20, DANGER)

    direct = Image.new("RGB", (100 * SCALE, 40 * SCALE), PANEL)
    label(Painter(direct), (50, 20))
    pasted = Image.new("RGB", direct.size, PANEL)
    paste_sprite(Painter(pasted), ("test label",), (50, 20), (40, 15, 40, 15), label)
    assert SPRITES.get((("test label",), 0.0, 0.0), lambda: None) is DIRECT
    assert ImageChops.difference(direct, pasted).getbbox() is None


def test_a_reused_canvas_gives_the_picture_of_a_fresh_one():
    """Pictures of every game in a shuffled order, each on the canvas the last picture of
    its size left (its board put back where drawn on, or where the boards differ), equal
    the same pictures each on a new canvas."""
    order = [game for key in games.GAMES for game in positions(key, 8, seed=4)]
    random.Random(5).shuffle(order)
    reused = [render_png(game) for game in order]
    assert CANVASES.hits > 0
    fresh = []
    for game in order:
        CANVASES.clear()
        fresh.append(render_png(game))
    assert fresh == reused


def test_the_canvas_pool_keeps_one_idle_canvas_a_size_within_its_bytes():
    pool = CanvasPool("test canvases", 2 * 100 * 100 * 4)
    CACHES.remove(pool)  # keep the test's pool out of the renderers' total
    restored = []

    def restore(canvas, shown, board, drawn):
        restored.append((canvas, shown, board, drawn))

    def new(size):
        return lambda: Image.new("RGB", size)

    a = pool.take((100, 100), "board a", new((100, 100)), restore)
    pool.give(a, "board a", [(0, 0, 10, 10)])
    pool.give(Image.new("RGB", (100, 100)), "board a", [])  # same size: replaces the idle one
    assert len(pool) == 1 and pool.bytes == 40_000
    b = Image.new("RGB", (50, 200))
    pool.give(b, "board b", [(1, 2, 3, 4)])
    pool.give(Image.new("RGB", (80, 80)), "board c", [])  # over the bound: (100, 100) goes
    assert pool.bytes == image_bytes(b) + 80 * 80 * 4 <= pool.max_bytes and len(pool) == 2
    assert pool.take((100, 100), "board a", new((100, 100)), restore) is not a  # a miss
    assert restored == []
    assert pool.take((50, 200), "board d", new((50, 200)), restore) is b  # a hit, restored
    assert restored == [(b, "board b", "board d", [(1, 2, 3, 4)])]
    assert pool.bytes == 80 * 80 * 4 and (pool.hits, pool.misses) == (1, 2)
    pool.give(Image.new("RGB", (1000, 1000)), "huge", [])  # larger than the bound: not kept
    assert pool.bytes == 80 * 80 * 4


def test_a_canvas_taken_again_shows_only_its_board():
    """After a picture, the next canvas of that size shows the empty board, pixel for pixel,
    even where the last picture drew and where its board differed (Chebache's boards show
    the path of the player to move)."""
    white, black = chebache._background((0,)), chebache._background((1,))
    assert ImageChops.difference(white, black).getbbox() is not None
    for game in positions("chebache", 6, seed=8):
        render_png(game)
        for board in (white, black):
            canvas = canvas_from(board)
            expected = board.resize(canvas.size, Image.Resampling.NEAREST)
            assert ImageChops.difference(canvas, expected).getbbox() is None
            CANVASES.give(canvas, board, [(0, 0, 40, 40)])
