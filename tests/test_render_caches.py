"""The renderers' caches are bounded by bytes, and the fixed palettes keep pictures exact."""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import subprocess
import sys

import pytest
from PIL import Image, ImageChops

import games
import render.common as common
from render import RENDERERS, render_png
from render.cache import (
    CACHES,
    MIB,
    MMAP_THRESHOLD_BYTES,
    PILLOW_BLOCK_BYTES,
    RENDER_CACHES_BYTES,
    ByteCache,
    cache_bytes,
    image_bytes,
)
from render.chebache import render_paths
from render.common import (
    ACCENT,
    BACKGROUNDS,
    BAND,
    DANGER,
    DARK_PIECE,
    INK,
    LIGHT_PIECE,
    MILL,
    PANEL,
    PANEL_RIM,
    SCALE,
    TEXT_MASKS,
    Painter,
    background_bytes,
    dirty_runs,
    encode_png,
    merged_runs,
    shrink,
    text_mask,
)
from render.jikaida import DARK_SQUARE, LIGHT_SQUARE, STYLES
from tests.positions import random_walk


def sized(cache_name: str, max_bytes: int, **kwargs) -> ByteCache[bytes]:
    cache: ByteCache[bytes] = ByteCache(cache_name, max_bytes, len, **kwargs)
    CACHES.remove(cache)  # keep the test's caches out of the renderers' total
    return cache


def test_image_bytes_counts_four_bytes_a_pixel_for_rgb_and_one_for_masks():
    assert image_bytes(Image.new("RGB", (10, 3))) == 120
    assert image_bytes(Image.new("RGBA", (10, 3))) == 120
    assert image_bytes(Image.new("L", (10, 3))) == 30


def test_byte_cache_evicts_the_least_recently_used_to_stay_under_its_bytes():
    cache = sized("test", 10)
    cache.get("a", lambda: b"aaaa")
    cache.get("b", lambda: b"bbbb")
    assert cache.get("a", lambda: b"new!") == b"aaaa"  # a hit, now the most recent
    cache.get("c", lambda: b"cccc")  # 12 bytes: b, the least recent, goes
    assert "b" not in cache and "a" in cache and "c" in cache
    assert cache.bytes == 8
    assert cache.get("b", lambda: b"BBBB") == b"BBBB"  # made again
    assert "a" not in cache and cache.bytes == 8


def test_a_value_larger_than_the_whole_cache_is_returned_but_not_kept():
    cache = sized("test", 10)
    assert cache.get("big", lambda: b"x" * 11) == b"x" * 11
    assert len(cache) == 0 and cache.bytes == 0


def test_admit_on_second_use_keeps_one_off_values_out():
    cache = sized("test", 100, admit_on_second_use=True)
    made = []
    cache.get("once", lambda: made.append(1) or b"1")
    assert "once" not in cache
    cache.get("twice", lambda: made.append(2) or b"2")
    cache.get("twice", lambda: made.append(2) or b"2")
    assert "twice" in cache
    cache.get("twice", lambda: made.append(2) or b"2")
    assert made == [1, 2, 2]  # the third ask is a hit


def test_a_one_off_status_line_is_not_cached_and_a_repeated_label_is():
    one_off = "Seat 7 to move · ply 123456 · a status line seen once"
    text_mask(one_off, 26, "lm", False)
    assert (one_off, 26, "lm", False) not in TEXT_MASKS
    for _ in range(2):
        text_mask("repeated label", 26, "lm", False)
    assert ("repeated label", 26, "lm", False) in TEXT_MASKS


def test_the_renderers_caches_stay_under_their_byte_bounds():
    """Many pictures with distinct status lines, of every game: each cache stays under
    its bound (the text masks' would pass it many times over if one-offs were kept)."""
    for key in games.GAMES:
        for game in random_walk(key, 25, seed=3):
            render_png(game)
    assert CACHES, "the renderers register their caches"
    for cache in CACHES:
        assert 0 <= cache.bytes <= cache.max_bytes, cache.name
    assert BACKGROUNDS.bytes > 0 and TEXT_MASKS.bytes > 0  # they do cache something
    assert cache_bytes() <= sum(cache.max_bytes for cache in CACHES) <= RENDER_CACHES_BYTES


def flat_colours_survive(key: str, colours: list[tuple[int, int, int]]) -> None:
    block = 8 * SCALE
    canvas = Image.new("RGB", (block * len(colours), block))
    for i, colour in enumerate(colours):
        canvas.paste(colour, (i * block, 0, (i + 1) * block, block))
    shown = Image.open(io.BytesIO(encode_png(canvas, key))).convert("RGB")
    for i, colour in enumerate(colours):
        got = shown.getpixel((i * 8 + 4, 4))
        # exact, or (two drawn colours nearly the same) merged into one within 4 a channel
        assert max(abs(a - b) for a, b in zip(got, colour, strict=True)) <= 4, (key, colour, got)


@pytest.mark.parametrize("key", list(games.GAMES))
def test_each_palette_keeps_the_shared_flat_colours(key: str):
    flat_colours_survive(key, [PANEL, BAND, PANEL_RIM, INK])


def test_most_flat_colours_map_to_themselves():
    block = 8 * SCALE
    colours = [PANEL, BAND, INK]
    canvas = Image.new("RGB", (block * len(colours), block))
    for i, colour in enumerate(colours):
        canvas.paste(colour, (i * block, 0, (i + 1) * block, block))
    for key in games.GAMES:
        shown = Image.open(io.BytesIO(encode_png(canvas, key))).convert("RGB")
        assert [shown.getpixel((i * 8 + 4, 4)) for i in range(len(colours))] == colours, key


def test_game_specific_flat_colours_are_exact():
    flat_colours_survive("shax", [ACCENT, DANGER, MILL, LIGHT_PIECE.fill, DARK_PIECE.fill])
    flat_colours_survive("jikaida", [PANEL, BAND, INK, LIGHT_SQUARE, DARK_SQUARE])
    flat_colours_survive("jikaida", [style.fill for style in STYLES])


def every_empty_board() -> list[Image.Image]:
    """The empty board of every game, layout and path shown, drawn afresh."""
    BACKGROUNDS.clear()
    setups = [(key, []) for key in games.GAMES] + [
        ("tchela", ["4x6"]),
        ("tchela", ["two-stores"]),
        ("tchela", ["4x6", "two-stores"]),
        ("jikaida", ["pastang"]),
    ]
    for key, variants in setups:
        game = games.new_game(key, variants)
        render_png(game)
        if key == "chebache":
            RENDERERS[key](game, show_path=False)
            render_paths()
    return BACKGROUNDS.values()


def test_every_empty_board_is_kept_as_its_own_picture_in_its_palette():
    """A board is kept in its game's palette alone (one byte a pixel, not five): each of
    its colours must map back to itself, or the tiles a move draws on would show the board
    a shade off from those left as they are."""
    boards = every_empty_board()
    assert len(boards) == 5 + 3 + 1 + 2  # Chebache: a path shown, none, both
    for board in boards:
        palette, mapped = board.quantized
        assert board.mode == "P" and mapped is board
        again = common.quantize(board.convert("RGB"), palette)
        assert again.tobytes() == board.tobytes(), palette
        assert background_bytes(board) == board.width * board.height


def capture_canvases(monkeypatch) -> list[tuple[Image.Image, Image.Image]]:
    """Each picture drawn from now on: (its canvas with every tile shown and every paste
    made at full size, shrunk; the picture the PNG shows)."""
    shown: list[tuple[Image.Image, Image.Image]] = []
    real = common.Painter.png

    def captured(paint, palette):
        png = real(paint, palette)
        exact = paint.whole().reduce(SCALE)
        shown.append((exact, Image.open(io.BytesIO(png)).convert("RGB")))
        return png

    monkeypatch.setattr(common.Painter, "png", captured)
    return shown


@pytest.mark.parametrize("key", list(games.GAMES))
def test_the_fixed_palette_picture_matches_the_drawing(key: str, monkeypatch):
    """The start and a mid-game position: almost every pixel exact, none far off."""
    shown = capture_canvases(monkeypatch)
    for game in (games.new_game(key), random_walk(key, 30, seed=5)[-1]):
        render_png(game)
        exact, picture = shown.pop()
        diff = ImageChops.difference(exact, picture).convert("L")
        counts = diff.histogram()
        pixels = exact.width * exact.height
        assert counts[0] / pixels >= 0.9
        assert sum(counts[25:]) / pixels <= 0.001
        assert (
            max(channel[1] for channel in ImageChops.difference(exact, picture).getextrema()) <= 80
        )


@pytest.mark.parametrize("key", list(games.GAMES))
def test_shrinking_only_the_drawn_tiles_gives_the_whole_shrink(key: str, monkeypatch):
    """Every picture the renderer draws, with every paste made on the canvas: the tiles
    it notes as drawn on (the only ones blown up from the board), shrunk and mapped to the
    palette over the empty board's own mapped picture, are exactly the whole canvas, every
    tile shown, shrunk and mapped (nothing drawn goes unnoted)."""
    monkeypatch.setattr(common, "holdable", lambda image, mask: False)
    real_png, real_encode = common.Painter.png, common.encode_png
    compared, blank = [], []

    def encoded(image, palette=None, base=None, dirty=None, overlay=None):
        assert palette == key and base is not None and dirty is not None
        assert base.quantized[0] == key  # the fast path: only the drawn tiles are mapped
        compared.append(len(common.dirty_runs(dirty, image.size)))
        return real_encode(image, palette, base, dirty, overlay)

    def checked(paint, palette):
        assert paint.overlay is not None and not paint.overlay.held
        png = real_png(paint, palette)
        blank.append(paint.blank_tiles)  # never blown up: the board there
        whole = common.quantize(paint.whole().reduce(SCALE), key).convert("RGB")
        shown = Image.open(io.BytesIO(png)).convert("RGB")
        assert ImageChops.difference(shown, whole).getbbox() is None
        return png

    monkeypatch.setattr(common, "encode_png", encoded)
    monkeypatch.setattr(common.Painter, "png", checked)
    for game in [games.new_game(key), *random_walk(key, 40, seed=9)[::8]]:
        render_png(game)
    assert len(compared) == 6 and all(compared)
    assert any(blank), "some tiles are left as they are on the board"


@pytest.mark.parametrize("key", list(games.GAMES))
def test_pastes_made_at_the_final_size_give_the_same_picture(key: str, monkeypatch):
    """Sprites and text pasted at the final size (``render/overlay.py``), against every
    paste made on the canvas at twice the size: the same picture but for rounding at a
    few edge pixels (the palette may then take the neighbouring shade)."""
    shown = capture_canvases(monkeypatch)
    held = []
    real_png = common.Painter.png
    monkeypatch.setattr(
        common.Painter,
        "png",
        lambda paint, palette: held.append(len(paint.overlay.held)) or real_png(paint, palette),
    )
    for game in [games.new_game(key), *random_walk(key, 40, seed=9)[::8]]:
        render_png(game)
        exact, picture = shown.pop()
        whole = common.quantize(exact, key).convert("RGB")
        diff = ImageChops.difference(whole, picture).convert("L").histogram()
        pixels = picture.width * picture.height
        assert diff[0] / pixels >= 0.998, key
        assert sum(diff[3:]) / pixels <= 0.002, key
    assert sum(held) >= 6  # pastes were made at the final size


def test_shrink_of_the_drawn_tiles_over_the_empty_board_is_the_whole_shrink():
    base = Image.new("RGB", (80, 40), PANEL)
    canvas = base.resize((160, 80), Image.Resampling.NEAREST)
    painter = Painter(canvas)
    painter.disc((50, 20), 9, DANGER, INK, 2)
    small = shrink(canvas, base, painter.dirty)
    assert ImageChops.difference(small, canvas.reduce(SCALE)).getbbox() is None
    assert small.getpixel((5, 5)) == PANEL and small.getpixel((50, 20)) == DANGER


def test_dirty_runs_join_touched_tiles_along_rows():
    step = 32 * SCALE
    size = (5 * step, 3 * step - 10)  # the last row of tiles is cut short
    runs = dirty_runs(
        [(0, 0, 1, 1), (step + 5, 5, 3 * step, 6), (0, 2 * step, 1, 2 * step + 1)], size
    )
    assert runs == [(0, 0, 3 * step, step), (0, 2 * step, step, 3 * step - 10)]
    assert dirty_runs([], size) == []


def test_merged_runs_join_short_gaps_then_equal_spans_of_consecutive_rows():
    step = 32 * SCALE
    runs = [
        (0, 0, step, step),  # row 0: tiles 0 and 4 (a gap of 3: joined), tile 9 (gap 4: not)
        (4 * step, 0, 5 * step, step),
        (9 * step, 0, 10 * step, step),
        (0, step, 5 * step, 2 * step),  # row 1: the same span as row 0's first box
        (9 * step, 2 * step, 10 * step, 3 * step),  # row 2: below a box of row 0, not row 1
    ]
    assert merged_runs(runs) == [
        (0, 0, 5 * step, 2 * step),
        (9 * step, 0, 10 * step, step),
        (9 * step, 2 * step, 10 * step, 3 * step),
    ]
    assert merged_runs(runs, gap=0) == runs


def test_recall_and_keep_share_get_s_bound_and_a_cached_none_is_a_hit():
    cache = sized("test", 10)
    assert cache.recall("a") is None and cache.misses == 1
    cache.keep("a", b"aaaa")
    assert cache.recall("a") == b"aaaa" and cache.hits == 1
    cache.keep("big", b"x" * 11)  # larger than the whole cache: not kept
    assert "big" not in cache and cache.bytes == 4
    made = []
    nothing: ByteCache[None] = ByteCache("test none", 10, lambda value: 0, listed=False)
    for _ in range(2):
        assert nothing.get("empty", lambda: made.append(1)) is None
    assert made == [1] and nothing.hits == 1  # a drawing of nothing is made once


def test_a_canvas_is_allocated_in_blocks_of_one_mib():
    # Blocks of 1 MiB fill each other's holes in the heap (render/cache.py, issue 33).
    assert Image.core.get_block_size() == PILLOW_BLOCK_BYTES == MIB
    before = Image.core.get_stats()["allocated_blocks"]
    canvas = Image.new("RGB", (2000, 1500), None)  # 12,000,000 bytes: 4 a pixel
    assert Image.core.get_stats()["allocated_blocks"] - before == 12  # 131 lines a block
    del canvas


# A fresh process: in this one, a free chunk left in the heap by an earlier test may serve
# a large buffer (glibc maps only what the heap cannot give).
MAPPED_AFTER_A_LARGER_ONE = """
import ctypes, ctypes.util, sys
import render
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
class Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks".split()]
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
libc.mallinfo2.restype = Mallinfo2
libc.free(libc.malloc(6 << 20))
before = libc.mallinfo2().hblkhd
buffers = [libc.malloc(int(size)) for size in sys.argv[1:]]
print(libc.mallinfo2().hblkhd - before)
"""


def mapped_after_a_larger_one(*sizes: int) -> int:
    """Bytes glibc maps on their own for buffers of ``sizes``, in a fresh process that
    imported the renderers, after a 6 MiB buffer was mapped and freed."""
    command = [sys.executable, "-c", MAPPED_AFTER_A_LARGER_ONE, *map(str, sizes)]
    return int(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


@pytest.mark.skipif(
    not hasattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), "mallinfo2"),
    reason="glibc's thresholds (glibc 2.33 or later)",
)
def test_glibc_maps_only_buffers_above_the_fixed_threshold():
    # Left to itself, glibc raises its threshold to the size of a mapped buffer once freed:
    # a 5 MiB buffer would then come from the heap. Fixed, it is mapped on its own (and
    # given back when freed), while Pillow's 1 MiB blocks come from the heap.
    large = MMAP_THRESHOLD_BYTES + MIB
    assert large <= mapped_after_a_larger_one(large) < large + MIB
    assert mapped_after_a_larger_one(PILLOW_BLOCK_BYTES, PILLOW_BLOCK_BYTES) == 0
