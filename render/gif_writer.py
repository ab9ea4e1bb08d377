"""An animated GIF written frame by frame (issue 33): each frame is compressed as soon as it
is given, so that making a game's GIF holds two frames (the previous one and the new one)
and the bytes written so far, never the whole game's frames.

The frames share one global palette and one "unchanged" index (``transparent``). Each frame
after the first is stored as Pillow's ``optimize=True`` stores it: cropped to the box of
pixels that differ from the previous frame, the unchanged pixels inside that box painted
with the transparent index, and drawn over the previous one (disposal 1, "do not dispose");
a frame equal to the previous one only lengthens the previous one's time. The container is
GIF89a's (header, logical screen, global colour table, the NETSCAPE2.0 loop, then a graphic
control extension and an image per frame); each image's LZW data is Pillow's, taken from a
one-frame GIF of the cropped frame. Pure: bytes in memory, no I/O.
"""

from __future__ import annotations

import io
import struct

from PIL import Image, ImageChops

UNCHANGED_MASK = [255] + [0] * 255  # delta index 0 (the same pixel) -> 255 in the mask
DISPOSAL_KEEP = 1  # "do not dispose": the next frame paints over this one


class GifWriter:
    """``add`` the frames (``P`` images on ``palette``, all of one size) in order, then
    ``finish``: the GIF's bytes. ``size`` is how many bytes are written so far (a caller with
    a limit can stop early)."""

    def __init__(self, palette: list[int], transparent: int, loop: int = 0):
        if len(palette) != 768:
            raise ValueError(f"a GIF palette has 256 colours (768 values), not {len(palette)}")
        self._palette = palette
        self._transparent = transparent
        self._loop = loop
        self._out = io.BytesIO()
        self._previous: Image.Image | None = None
        self._pending: tuple[bytes, int] | None = None  # the last image, held for its time

    @property
    def size(self) -> int:
        return self._out.tell() + (len(self._pending[0]) if self._pending else 0)

    def add(self, frame: Image.Image, duration_ms: int) -> None:
        if frame.mode != "P":
            raise ValueError(f"GIF frames are paletted pictures, not {frame.mode}")
        if self._previous is None:
            self._write_screen(frame.size)
            self._hold(_image_block(frame, (0, 0)), duration_ms)
        elif frame.size != self._previous.size:
            raise ValueError(f"a {frame.size} frame in a GIF of {self._previous.size}")
        else:
            delta = ImageChops.subtract_modulo(frame, self._previous)
            box = delta.getbbox(alpha_only=False)
            if box is None:  # nothing changed: the previous frame stays up longer
                assert self._pending is not None
                self._pending = (self._pending[0], self._pending[1] + duration_ms)
                return
            changed = frame.crop(box)
            changed.paste(self._transparent, mask=delta.crop(box).point(UNCHANGED_MASK, "1"))
            self._hold(_image_block(changed, box[:2]), duration_ms)
        self._previous = frame

    def finish(self) -> bytes:
        if self._pending is None:
            raise ValueError("a GIF needs at least one frame")
        self._flush()
        self._out.write(b";")  # the trailer
        return self._out.getvalue()

    def _hold(self, image: bytes, duration_ms: int) -> None:
        """Keep the new image until the next frame says whether it lasts longer."""
        self._flush()
        self._pending = (image, duration_ms)

    def _flush(self) -> None:
        if self._pending is None:
            return
        image, duration_ms = self._pending
        packed = DISPOSAL_KEEP << 2 | 1  # disposal, and "a transparent index follows"
        delay = round(duration_ms / 10)  # in hundredths of a second
        self._out.write(b"!\xf9\x04" + struct.pack("<BHB", packed, delay, self._transparent))
        self._out.write(b"\x00")  # the extension's end
        self._out.write(image)
        self._pending = None

    def _write_screen(self, size: tuple[int, int]) -> None:
        width, height = size
        # A global colour table of 2 ** (7 + 1) colours, 8 bits a primary.
        self._out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0))
        self._out.write(bytes(self._palette))
        self._out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", self._loop) + b"\x00")


def _image_block(image: Image.Image, offset: tuple[int, int]) -> bytes:
    """An image descriptor at ``offset`` (no local colour table, not interlaced) and the
    image's LZW data, as Pillow compresses it."""
    left, top = offset
    descriptor = b"," + struct.pack("<HHHHB", left, top, image.width, image.height, 0)
    return descriptor + _lzw_data(image)


def _lzw_data(image: Image.Image) -> bytes:
    """The LZW data (the minimum code size, the sub-blocks and their terminator) of a
    one-frame GIF of ``image`` written by Pillow."""
    buffer = io.BytesIO()
    image.save(buffer, format="GIF", interlace=False, optimize=False)
    data = buffer.getvalue()
    packed = data[10]
    at = 13 + (3 << (packed & 7) + 1 if packed & 0x80 else 0)  # past the colour table
    while data[at] == 0x21:  # an extension: its label, then its sub-blocks
        at = _past_sub_blocks(data, at + 2)
    if data[at] != 0x2C:
        raise ValueError(f"not an image in Pillow's GIF at byte {at}")
    if data[at + 9] & 0xC0:
        raise ValueError("Pillow's GIF has a local colour table or interlacing")
    start = at + 10
    return data[start : _past_sub_blocks(data, start + 1)]


def _past_sub_blocks(data: bytes, at: int) -> int:
    """The position after the sub-blocks starting at ``at`` (each its length, then its bytes;
    a length of 0 ends them)."""
    while data[at]:
        at += data[at] + 1
    return at + 1
