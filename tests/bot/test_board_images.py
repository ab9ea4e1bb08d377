"""The boards kept per (game, version) (bot/domain/board_images.py): bounded by bytes."""

from __future__ import annotations

from bot.domain.board_images import BoardImages
from render.cache import CACHES


def test_a_version_kept_is_recalled_and_the_least_recent_goes_past_the_bound():
    images = BoardImages(max_bytes=10)
    images.keep(1, 1, b"aaaa")
    images.keep(1, 2, b"bbbb")
    assert images.recall(1, 1) == b"aaaa"  # now the most recent
    images.keep(2, 1, b"cccc")  # 12 bytes: (1, 2) goes
    assert images.recall(1, 2) is None
    assert images.recall(1, 1) == b"aaaa" and images.recall(2, 1) == b"cccc"
    assert images.bytes == 8 <= images.max_bytes


def test_a_failed_drawing_is_not_kept_and_the_service_cache_is_not_the_renderers():
    images = BoardImages()
    images.keep(1, 1, b"")  # rendering failed: drawn again when next asked for
    assert images.recall(1, 1) is None and images.bytes == 0
    assert all(cache.name != "board images" for cache in CACHES)


def test_a_board_is_kept_as_a_copy_made_in_the_keeping_thread():
    # The drawing thread's bytes are not held (they would pin its heap between canvases).
    drawn = bytes(range(256)) * 200
    images = BoardImages()
    images.keep(1, 1, drawn)
    kept = images.recall(1, 1)
    assert kept == drawn and kept is not drawn
