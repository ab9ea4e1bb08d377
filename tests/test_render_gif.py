"""The animated GIF of a game (render/gif.py): a frame per ply or the stated sampling,
each frame the board as rendered, only what changed stored, under the size limit."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from games import Game, new_game
from games.record import record_from_game
from render import RENDERERS, render_png
from render.common import PANEL_RIM
from render.gif import FRAME_MS, LAST_FRAME_MS, NOTE_HEIGHT, game_gif_info, sampled_plies
from render.gif_writer import GifWriter


def random_game(key: str, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = new_game(key)
    while not game.is_over and game.ply < plies:
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
        else:
            game.push(rng.choice(game.legal_moves()))
    return game


def frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for index in range(gif.n_frames):
        gif.seek(index)
        out.append(gif.convert("RGB"))
    return out


def test_sampling():
    assert sampled_plies(10) == list(range(11))
    assert sampled_plies(300) == list(range(301))
    assert sampled_plies(1000, 5) == [0, 250, 500, 750, 1000]
    assert sampled_plies(7, 3) == [0, 4, 7]  # round(3.5) is 4 in Python


def test_a_frame_per_ply_each_the_rendered_board():
    game = random_game("tchela", 3, 6)
    record = record_from_game(game)
    info = game_gif_info(record)
    assert info.plies == tuple(range(7)) and info.note is None
    shown = frames(info.data)
    assert len(shown) == 7
    for ply, frame in enumerate(shown):
        expected = Image.open(io.BytesIO(render_png(record.replay(ply)))).convert("RGB")
        assert ImageChops.difference(frame, expected).getbbox() is None, ply
    gif = Image.open(io.BytesIO(info.data))
    durations = []
    for index in range(gif.n_frames):
        gif.seek(index)
        durations.append(gif.info["duration"])
    assert durations == [FRAME_MS] * 6 + [LAST_FRAME_MS]


def test_frames_after_the_first_store_only_what_changed():
    record = record_from_game(random_game("shax", 2, 8))
    data = game_gif_info(record).data
    gif = Image.open(io.BytesIO(data))
    gif.seek(1)
    box = gif.tile[0][1]
    assert box != (0, 0, *gif.size)  # cropped to the changed box
    # Nine frames stored whole would take nine times the first (more: the first is the
    # empty board); the unchanged pixels inside the box are transparent and pack well.
    first_alone = game_gif_info(record_from_game(random_game("shax", 2, 0))).data
    assert len(data) < 9 * len(first_alone) / 2


def test_a_full_palette_game_keeps_its_colours():
    # Chebache's palette has all 256 colours: the rarest one gives way to transparency.
    record = record_from_game(random_game("chebache", 4, 3))
    last = frames(game_gif_info(record).data)[-1]
    expected = Image.open(io.BytesIO(render_png(record.replay()))).convert("RGB")
    changed = ImageChops.difference(last, expected).convert("L").point(lambda v: 255 * (v > 0))
    assert changed.histogram()[255] < last.width * last.height / 1000


def test_long_games_are_sampled_and_the_last_frame_says_so():
    record = record_from_game(random_game("shax", 5, 40))
    total = len(record.moves)
    info = game_gif_info(record, max_frames=6)
    assert info.sampled and len(info.plies) == 6 and info.plies[-1] == total
    assert info.note == f"6 frames of {total} plies: about one every {total / 5:.1f}"
    shown = frames(info.data)
    assert len(shown) == 6
    strip = shown[-1].crop((0, shown[-1].height - NOTE_HEIGHT, shown[-1].width, shown[-1].height))
    colours = {colour for _, colour in strip.getcolors(1 << 16)}
    assert PANEL_RIM in colours  # the dark strip
    assert any(sum(colour) > 700 for colour in colours)  # light letters on it


def test_a_gif_over_the_limit_is_sampled_until_it_fits():
    record = record_from_game(random_game("tchela", 6, 30))
    whole = game_gif_info(record)
    assert not whole.sampled
    limit = len(whole.data) * 2 // 3
    smaller = game_gif_info(record, limit=limit)
    assert smaller.sampled and len(smaller.data) <= limit
    assert len(frames(smaller.data)) == len(smaller.plies)


def paletted(size: tuple[int, int], fill: int, dots: dict[tuple[int, int], int]) -> Image.Image:
    image = Image.new("P", size, fill)
    image.putpalette(GREYS)
    for xy, index in dots.items():
        image.putpixel(xy, index)
    return image


GREYS = [value for grey in range(256) for value in (grey, grey, grey)]


def test_the_writer_stores_the_changed_box_and_lengthens_a_repeated_frame():
    first = paletted((20, 10), 50, {})
    second = paletted((20, 10), 50, {(3, 4): 7, (7, 5): 9})  # the box (3, 4)-(7, 5)
    writer = GifWriter(GREYS, 255)
    writer.add(first, 900)
    writer.add(second, 900)
    writer.add(second.copy(), 900)  # the same again: the second frame shows 1.8 s
    writer.add(first, 5000)
    gif = Image.open(io.BytesIO(writer.finish()))
    assert gif.n_frames == 3
    shown = []
    for index, expected in enumerate((first, second, first)):
        gif.seek(index)
        shown.append((gif.tile[0][1], gif.info["duration"]))
        assert ImageChops.difference(gif.convert("L"), expected.convert("L")).getbbox() is None
    assert shown == [((0, 0, 20, 10), 900), ((3, 4, 8, 6), 1800), ((3, 4, 8, 6), 5000)]


def test_a_gif_over_the_limit_is_given_up_as_soon_as_it_passes_it(monkeypatch):
    record = record_from_game(random_game("tchela", 6, 12))
    assert len(record.moves) == 12
    first_frame = game_gif_info(record_from_game(random_game("tchela", 6, 0))).data
    drawn = []
    draw = RENDERERS["tchela"]

    def counted(game: Game) -> bytes:
        drawn.append(game.ply)
        return draw(game)

    monkeypatch.setitem(RENDERERS, "tchela", counted)
    assert not game_gif_info(record).sampled and len(drawn) == 13
    drawn.clear()
    info = game_gif_info(record, limit=len(first_frame) + 10)
    # The second frame passes the limit: each try (13, 8, 5 and 3 frames) stops there, and
    # the last, of 2 frames (the start and the end), is kept whatever its size.
    assert info.plies == (0, 12)
    assert len(drawn) == 5 * 2 and drawn[-2:] == [0, 12]
