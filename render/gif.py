"""A whole game as an animated GIF: ``game_gif(record)`` returns the GIF's bytes.

A frame per ply (the start position first), each drawn by the game's own renderer, so the
last move is highlighted as on the boards; the final frame is held longer. Every renderer
draws with a fixed palette per game (``render/palettes.py``), which becomes the GIF's one
global palette. Each frame after the first stores only what changed: it is cropped to the
box that differs from the previous frame and the unchanged pixels inside that box are
painted with a transparent index, which LZW packs into almost nothing. Each frame is
compressed as soon as it is drawn (``render/gif_writer.py``): a 200-ply game's GIF holds
two frames at a time, not 201. A game too long for ``max_frames`` is sampled evenly (the
start and the end always shown), and the last frame says so; a GIF over ``limit`` is given
up as soon as it passes it and made again with fewer frames. Pure: no I/O.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFont

from games.base import Game
from games.record import GameRecord

from . import RENDERERS
from .common import INK, PANEL_RIM, WHITE_TEXT
from .gif_writer import GifWriter
from .palettes import PALETTES

GIF_LIMIT = 8_000_000  # bytes: Discord's upload limit for a server without boosts
MAX_FRAMES = 301  # a 300-ply game still shows every ply
FRAME_MS = 900
LAST_FRAME_MS = 5000
TRANSPARENT = 255  # the palette index kept free for "unchanged" pixels
NOTE_HEIGHT = 26  # the strip on the last frame that says how the game was sampled


@dataclass(frozen=True)
class GifInfo:
    """What ``game_gif_info`` made: the bytes, the plies shown, and the sampling note."""

    data: bytes
    plies: tuple[int, ...]
    total_plies: int
    note: str | None

    @property
    def sampled(self) -> bool:
        return len(self.plies) < self.total_plies + 1


def sampled_plies(total: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """The plies to draw, 0 (the start) to ``total``: all of them when they fit in
    ``max_frames``, else ``max_frames`` evenly spread, the first and the last included."""
    if total + 1 <= max_frames:
        return list(range(total + 1))
    frames = max(2, max_frames)
    return sorted({round(i * total / (frames - 1)) for i in range(frames)})


def positions(record: GameRecord, plies: list[int]) -> Iterator[tuple[int, Game]]:
    """The game after each ply in ``plies`` (increasing), replaying the record once.
    The same ``Game`` object is yielded each time: use it before asking for the next."""
    wanted = set(plies)
    total = len(record.moves)
    if 0 in wanted:
        yield 0, record.replay(0) if total else record.replay()
    if total == 0:
        return
    game = record.replay(0)
    for ply in range(1, total + 1):
        _step(record, game, ply)
        if ply in wanted:
            yield ply, game


def _step(record: GameRecord, game: Game, ply: int) -> None:
    """``game`` after ply ``ply``, with the next ply's dice rolled (as ``replay`` does); the
    last ply brings the rolls after it and the result."""
    game.push(record.moves[ply - 1].move)
    if ply < len(record.moves):
        for roll in record.moves[ply].dice:
            game.roll(roll)
        return
    for roll in record.dice_after:
        game.roll(roll)
    record._check_result(game)


def game_gif(record: GameRecord, max_frames: int = MAX_FRAMES, limit: int = GIF_LIMIT) -> bytes:
    return game_gif_info(record, max_frames, limit).data


def game_gif_info(
    record: GameRecord, max_frames: int = MAX_FRAMES, limit: int = GIF_LIMIT
) -> GifInfo:
    """The animated GIF of ``record``; fewer frames (sampled) if it would exceed ``limit``."""
    if record.game not in RENDERERS:
        raise KeyError(f"no renderer for {record.game}")
    total = len(record.moves)
    while True:
        plies = sampled_plies(total, max_frames)
        note = None
        if len(plies) < total + 1:
            step = total / (len(plies) - 1)
            note = f"{len(plies)} frames of {total} plies: about one every {step:.1f}"
        last_try = max_frames <= 2
        data = _encode(record, plies, note, None if last_try else limit)
        if data is not None:
            return GifInfo(data, tuple(plies), total, note)
        max_frames = max(2, min(max_frames, total + 1) * 2 // 3)


def _encode(
    record: GameRecord, plies: list[int], note: str | None, limit: int | None
) -> bytes | None:
    """The GIF of ``plies``, each frame compressed as soon as it is drawn (``GifWriter``);
    None as soon as it passes ``limit`` bytes."""
    palette, spare = _gif_palette(record.game)
    writer = GifWriter(palette, TRANSPARENT)
    size: tuple[int, int] | None = None
    for ply, game in positions(record, plies):
        frame = _frame(RENDERERS[record.game](game), palette, spare)
        last = ply == plies[-1]
        if last and note is not None:
            _write_note(frame, palette, note)
        if size is None:
            size = frame.size
        elif frame.size != size:  # a renderer changed its size: pad
            frame = _fit(frame, size, palette)
        writer.add(frame, LAST_FRAME_MS if last else FRAME_MS)
        if limit is not None and writer.size > limit:
            return None
    data = writer.finish()
    return None if limit is not None and len(data) > limit else data


def _gif_palette(key: str) -> tuple[list[int], bytes | None]:
    """The game's fixed palette with index 255 kept free for transparency, and (when the
    palette used all 256 colours) the lookup table that moves index 255's pixels to the
    nearest other colour."""
    colours = bytes.fromhex(PALETTES[key])
    count = len(colours) // 3
    flat = list(colours[: 3 * min(count, TRANSPARENT)])
    flat += [0] * (768 - len(flat))
    if count <= TRANSPARENT:
        return flat, None
    last = tuple(colours[3 * TRANSPARENT : 3 * TRANSPARENT + 3])
    nearest = min(
        range(TRANSPARENT),
        key=lambda i: sum((flat[3 * i + c] - last[c]) ** 2 for c in range(3)),
    )
    table = bytes(range(256))[:TRANSPARENT] + bytes([nearest])
    return flat, table


def _frame(png: bytes, palette: list[int], spare: bytes | None) -> Image.Image:
    """A rendered board as a P image on the GIF's palette (the index for transparency free)."""
    image = Image.open(io.BytesIO(png))
    image.load()
    if image.mode != "P":
        raise ValueError(f"renderer gave a {image.mode} picture, not a paletted one")
    indices = image.tobytes()
    if spare is not None:
        indices = indices.translate(spare)
    frame = Image.frombytes("P", image.size, indices)
    frame.putpalette(palette)
    return frame


def _index_of(palette: list[int], colour: tuple[int, int, int]) -> int:
    return min(
        range(TRANSPARENT),
        key=lambda i: sum((palette[3 * i + c] - colour[c]) ** 2 for c in range(3)),
    )


def _write_note(frame: Image.Image, palette: list[int], note: str) -> None:
    """A dark strip along the bottom of ``frame`` saying how the game was sampled."""
    width, height = frame.size
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, height - NOTE_HEIGHT, width, height), fill=_index_of(palette, PANEL_RIM))
    font = ImageFont.load_default(size=15)
    draw.text(
        (width / 2, height - NOTE_HEIGHT / 2),
        note,
        fill=_index_of(palette, WHITE_TEXT),
        font=font,
        anchor="mm",
    )


def _fit(frame: Image.Image, size: tuple[int, int], palette: list[int]) -> Image.Image:
    canvas = Image.new("P", size, _index_of(palette, INK))
    canvas.putpalette(palette)
    canvas.paste(frame.crop((0, 0, min(size[0], frame.width), min(size[1], frame.height))))
    return canvas


def changed_box(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int] | None:
    """The box of pixels whose palette index differs (for tests and the bench)."""
    return ImageChops.difference(
        Image.frombytes("L", before.size, before.tobytes()),
        Image.frombytes("L", after.size, after.tobytes()),
    ).getbbox()
