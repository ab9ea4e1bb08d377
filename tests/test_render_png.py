"""render/png.py: the PNG writer every board picture goes through."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from bench.timing import random_positions
from render import render_png
from render.png import PNG_SIGNATURE, paletted_png


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk of a PNG file as (kind, data), each chunk's CRC checked."""
    assert data.startswith(PNG_SIGNATURE)
    chunks, at = [], len(PNG_SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    return chunks


def _noisy_paletted(width: int, height: int, colours: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.frombytes(
        "P", (width, height), bytes(rng.randrange(colours) for _ in range(width * height))
    )
    image.putpalette(bytes(rng.randrange(256) for _ in range(colours * 3)))
    return image


@pytest.mark.parametrize(("width", "height", "colours"), [(1, 1, 1), (7, 3, 5), (64, 40, 256)])
def test_a_paletted_picture_reads_back_the_same(width, height, colours):
    image = _noisy_paletted(width, height, colours, seed=width)
    back = Image.open(io.BytesIO(paletted_png(image)))
    back.load()
    assert back.mode == "P" and back.size == (width, height)
    assert back.tobytes() == image.tobytes()
    assert back.getpalette()[: colours * 3] == image.getpalette()[: colours * 3]


def test_the_file_is_plain_png_rows_unfiltered():
    image = _noisy_paletted(5, 2, 4, seed=1)
    kinds = [kind for kind, _ in _chunks(paletted_png(image))]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    chunks = dict(_chunks(paletted_png(image)))
    assert struct.unpack(">IIBBBBB", chunks[b"IHDR"]) == (5, 2, 8, 3, 0, 0, 0)
    rows = zlib.decompress(chunks[b"IDAT"])
    pixels = image.tobytes()
    # each row: filter type 0, then the row's palette indices
    assert rows == b"\0" + pixels[:5] + b"\0" + pixels[5:]


def test_only_opaque_paletted_pictures():
    with pytest.raises(ValueError):
        paletted_png(Image.new("RGB", (2, 2)))
    transparent = Image.new("P", (2, 2))
    transparent.info["transparency"] = 0
    with pytest.raises(ValueError):
        paletted_png(transparent)


@pytest.mark.parametrize("key", ["shax", "tchela", "sachidjun", "chebache", "jikaida"])
def test_a_board_is_about_as_small_as_pillows_png(key):
    """ISA-L's deflate against zlib's level 2 (what Pillow wrote before): within a fifth."""
    for game in random_positions(key, 2)[::7][:4]:
        ours = render_png(game)
        shown = Image.open(io.BytesIO(ours))
        buffer = io.BytesIO()
        shown.save(buffer, format="PNG", compress_level=2)
        assert len(ours) <= 1.2 * len(buffer.getvalue())
