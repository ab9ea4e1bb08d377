"""The Šačidjun picture: a valid, small, deterministic PNG for every feature of a position
(stacks, prisoners, ties, offers, dice, 2/3/4 seats, a finished game), with the board
geometry the rulings fix."""

from __future__ import annotations

import io
import random
from functools import cache

import pytest
from PIL import Image

from games.sachidjun import CELLS, INDEX, Sachidjun
from render import RENDERERS, render_png
from render.common import text_length, text_mask
from render.sachidjun import (
    BOARD,
    BOARD_X,
    BOARD_Y,
    HEIGHT,
    SQUARE,
    WIDTH,
    _background,
    cell_box,
    footer_lines,
    lane_point,
    mora_box,
    render_sachidjun,
    shown_moves,
    used_pips,
)
from tests.test_sachidjun_rules import position

MAX_BYTES = 200_000
VR, TR, VC, TC = 0, 1, 2, 3


def random_game(seed: int, plies: int, seats: int = 2) -> Sachidjun:
    rng = random.Random(seed)
    game = Sachidjun(seats=seats)
    while not game.is_over and game.ply < plies:
        if game.dice_needed():
            game.roll((rng.randint(1, 8), rng.randint(1, 8)))
        else:
            game.push(rng.choice(game.legal_moves()))
    return game


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def with_offer() -> Sachidjun:
    game = position({"W3": {VR: 2}, "N5": {TR: 1}}, captured={(VR, TR): 1, (TR, VC): 1}, role=VR)
    game.push("offer:give(1r)+get(1c)")
    return game


def half_played() -> Sachidjun:
    game = position({"W3": {VR: 1}})
    game.roll((3, 5))
    game.push("W3-W6")
    return game


@cache
def _positions() -> dict[str, Sachidjun]:
    resigned = random_game(5, 30)
    resigned.resign(1)
    doubles = position({"W3": {VR: 1}, "W5": {VR: 1}})
    doubles.roll((2, 2))
    doubles.push("W3-W5")
    captured = position({"W3": {VR: 1}, "W6": {TR: 1}})
    captured.roll((3, 5))
    captured.push("W3xW6")
    return {
        "start": Sachidjun(),
        "stacks": position(
            {"W3": {VR: 7}, "N2": {TR: 2, TC: 3}, "E4": {VC: 1}, "SE": {VC: 5, VR: 1}}
        ),
        "prisoners": position(
            {"S2": {VC: 2}}, captured={(VR, TR): 3, (VR, TC): 2, (TC, VR): 1, (VC, TC): 4}
        ),
        "tie": position({"NW": {VR: 1, VC: 1, TC: 2}}, role=TR),
        "held šake": position({"NE": {VR: 4, VC: 2}}, role=TR),
        "offer pending": with_offer(),
        "dice rolled": half_played(),
        "doubles": doubles,
        "capture": captured,
        "few sub-turns": random_game(1, 12),
        "three seats": random_game(2, 20, seats=3),
        "four seats": random_game(3, 20, seats=4),
        "resigned": resigned,
    }


def test_dispatch_picks_the_sachidjun_renderer():
    game = random_game(1, 6)
    assert RENDERERS["sachidjun"] is render_sachidjun
    assert render_png(game) == render_sachidjun(game)


def test_start_is_a_valid_png_of_the_right_size():
    png = render_png(Sachidjun())
    image = opened(png)
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT)
    assert 800 <= WIDTH <= 1000 and HEIGHT <= 1000
    assert len(png) < MAX_BYTES


@pytest.mark.parametrize("name", list(_positions()))
def test_every_feature_renders_small(name: str):
    png = render_png(_positions()[name])
    assert opened(png).size == (WIDTH, HEIGHT)
    assert len(png) < MAX_BYTES


def test_the_positions_are_what_their_names_say():
    positions = _positions()
    assert positions["tie"].ties() == ["NW"]
    assert positions["offer pending"].offer is not None
    assert positions["dice rolled"].dice == [3, 5] and used_pips(positions["dice rolled"]) == 3
    assert used_pips(positions["doubles"]) == 2
    assert positions["capture"].prisoners[VR] == [1, 0]
    assert positions["three seats"].seats == 3 and positions["four seats"].seats == 4
    assert positions["resigned"].is_over
    assert any(sum(c) for c in positions["few sub-turns"].cells)


def test_same_position_gives_same_bytes():
    assert render_png(random_game(4, 25)) == render_png(random_game(4, 25))
    assert render_png(with_offer()) == render_png(with_offer())


def test_different_positions_give_different_bytes():
    pictures = [render_png(game) for game in _positions().values()]
    assert len(set(pictures)) == len(pictures)


def test_each_feature_changes_the_picture():
    base = position({"W3": {VR: 2}}, role=TR)
    plain = render_png(base)
    assert render_png(position({"W3": {VR: 3}}, role=TR)) != plain  # stack count
    assert render_png(position({"W3": {VR: 2}}, captured={(VR, TR): 1}, role=TR)) != plain
    assert render_png(position({"W3": {VR: 2}, "NW": {VR: 2, TC: 2}}, role=TR)) != render_png(
        position({"W3": {VR: 2}, "NW": {VR: 4}, "N1": {TC: 2}}, role=TR)
    )
    rolled = position({"W3": {VR: 1}})
    before = render_png(rolled)
    rolled.roll((3, 5))
    after_roll = render_png(rolled)
    rolled.push("W3-W6")
    assert len({before, after_roll, render_png(rolled)}) == 3  # dice unused, then one used
    offer = with_offer()
    quiet = position({"W3": {VR: 2}, "N5": {TR: 1}}, captured={(VR, TR): 1, (TR, VC): 1})
    assert render_png(offer) != render_png(quiet)


def test_seat_counts_render_differently():
    two, three, four = (random_game(7, 10, seats=s) for s in (2, 3, 4))
    assert len({render_png(two), render_png(three), render_png(four)}) == 3


def test_board_geometry_follows_the_rulings():
    # The corners are the šake, with SW bottom left and the ring running clockwise.
    assert cell_box(INDEX["SW"]) == (
        BOARD_X,
        BOARD_Y + 3 * SQUARE,
        BOARD_X + SQUARE,
        BOARD_Y + BOARD,
    )
    assert cell_box(INDEX["NW"])[:2] == (BOARD_X, BOARD_Y)
    assert cell_box(INDEX["NE"])[2:] == (BOARD_X + BOARD, BOARD_Y + SQUARE)
    assert cell_box(INDEX["SE"])[2:] == (BOARD_X + BOARD, BOARD_Y + BOARD)
    # Each edge square holds four čike; the 36 cells tile the ring without overlap.
    area = 0.0
    for cell in range(36):
        x0, y0, x1, y1 = cell_box(cell)
        area += (x1 - x0) * (y1 - y0)
        if cell % 9:
            assert min(x1 - x0, y1 - y0) == pytest.approx(SQUARE / 4)
    assert area == pytest.approx(12 * SQUARE * SQUARE)
    assert cell_box(INDEX["W1"])[3] == cell_box(INDEX["SW"])[1]  # W1 just above SW
    assert cell_box(INDEX["N1"])[0] == cell_box(INDEX["NW"])[2]  # N1 just east of NW
    assert cell_box(INDEX["E1"])[1] == cell_box(INDEX["NE"])[3]  # E1 just below NE
    assert cell_box(INDEX["S1"])[2] == cell_box(INDEX["SE"])[0]  # S1 just west of SE
    # The moras: veradi b2 (light) and c2 (dark) below, tameg b3 (dark) and c3 (light) above.
    assert mora_box(VR) == (
        BOARD_X + SQUARE,
        BOARD_Y + 2 * SQUARE,
        BOARD_X + 2 * SQUARE,
        BOARD_Y + 3 * SQUARE,
    )
    assert mora_box(VC)[0] == mora_box(TR)[0] == BOARD_X + 2 * SQUARE
    assert mora_box(TC)[1] == mora_box(TR)[1] == BOARD_Y + SQUARE
    for cell in range(36):  # the move lane stays inside its cell
        x, y = lane_point(cell)
        x0, y0, x1, y1 = cell_box(cell)
        assert x0 < x < x1 and y0 < y < y1
    assert len(CELLS) == 36


def test_the_empty_board_is_cached():
    assert _background() is _background()
    render_png(Sachidjun())
    assert _background().size == (WIDTH, HEIGHT)  # kept at final size


def test_shown_moves_are_the_whole_last_sub_turn():
    game = position({"W3": {VR: 1}, "W5": {VR: 1}})
    game.roll((3, 5))
    game.push("W3-W6")
    assert shown_moves(game) == (VR, ["W3-W6"], [3, 5])
    game.push("W5-N1")
    assert game.role == TR and not game.played
    assert shown_moves(game) == (VR, ["W3-W6", "W5-N1"], [3, 5])
    assert footer_lines(game)[0] == "Veradi raža rolled 3-5 and played W3-W6 W5-N1."
    assert shown_moves(Sachidjun()) == (None, [], None)


def test_footer_names_offers_captures_and_font_safe_text():
    assert "Offer pending from Veradi to Tameg: give(1r)+get(1c)" in footer_lines(with_offer())
    capture = footer_lines(_positions()["capture"])[0]
    assert "captured a tameg raža" in capture
    assert all("—" not in line for line in footer_lines(random_game(1, 12)))


def test_letters_with_carons_are_drawn_not_boxes():
    # The bundled font lacks č, š and ž: they are drawn as the base letter and a caron, so
    # they differ from the plain letter and keep its width.
    for accented, plain in (("čadra", "cadra"), ("raža", "raza"), ("Šači", "Saci")):
        assert text_length(accented, 20) == text_length(plain, 20)
        mask, _, top = text_mask(accented, 20, "lm", False)
        plain_mask, _, plain_top = text_mask(plain, 20, "lm", False)
        assert mask.tobytes() != plain_mask.tobytes()
        assert top <= plain_top


def test_a_marked_cell_or_mora_gets_a_green_frame_under_the_pieces():
    from render.common import MILL
    from render.sachidjun import MARK_WIDTH

    game = Sachidjun()
    plain = Image.open(io.BytesIO(render_png(game))).convert("RGB")
    marked = Image.open(io.BytesIO(render_png(game, marks=["W3", "c2"]))).convert("RGB")
    for box in (cell_box(INDEX["W3"]), mora_box(2)):
        x0, y0, x1, _ = box
        top = (round((x0 + x1) / 2), round(y0 + 1 + MARK_WIDTH / 2))
        assert marked.getpixel(top) == MILL and plain.getpixel(top) != MILL
    x0, y0, x1, _ = cell_box(INDEX["W4"])  # not marked
    assert marked.getpixel((round((x0 + x1) / 2), round(y0 + 1 + MARK_WIDTH / 2))) != MILL


@pytest.mark.parametrize("mark", ["W9", "a1", "M", "sw"])
def test_a_mark_that_names_no_cell_or_mora_is_refused(mark):
    with pytest.raises(ValueError, match="no cell or mora"):
        render_png(Sachidjun(), marks=[mark])
