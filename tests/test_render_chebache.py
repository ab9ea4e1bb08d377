"""The Chebache picture: a valid, small, deterministic PNG for every feature of the position
(stacks, a flipped King, a standing Chebache with a threat, Phase II and a jump, the dice, a
finished game), with the board geometry of the rulings."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from games.chebache import BLACK, KINGS, PATHS, WHITE, Chebache
from render import RENDERERS, render_png
from render.chebache import (
    BOARD_LEFT,
    BOARD_TOP,
    CELL,
    HEIGHT,
    WIDTH,
    _background,
    chebache_marks,
    controlled_square,
    dice_state,
    footer_text,
    king_text,
    parse_move,
    render_chebache,
    render_paths,
    shown_turn,
    space_xy,
)

MAX_BYTES = 200_000


def at(white, black, dice=None, turn=WHITE) -> Chebache:
    return Chebache.from_position(white, black, turn=turn, dice=dice)


def play(game: Chebache, moves: str) -> Chebache:
    for move in moves.split():
        game.push(move)
    return game


def rolled(game: Chebache, dice: tuple[int, int]) -> Chebache:
    game.roll(dice)
    return game


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@cache
def _positions() -> dict[str, Chebache]:
    return {
        "start": Chebache(),
        "rolled": rolled(Chebache(), (3, 5)),
        "stacks": play(at({4: "3", 6: "1K", 9: "2"}, {3: "1", 14: "K1"}, dice=(1, 2)), "S/1"),
        "attack pending": play(at({3: "2"}, {17: "K", 4: "1"}, dice=(2, 2)), "3X5"),
        "king captured": play(at({3: "2"}, {17: "K", 4: "1"}, dice=(2, 2)), "3X5 3X5"),
        "chebache threat": at({1: "1", 2: "1", 3: "1"}, {14: "1", 4: "1"}, dice=(1, 2), turn=BLACK),
        "phase II": play(at({6: "2", 7: "1"}, {}, dice=(1, 2)), "S/1 S/2"),
        "jumped": play(at({6: "2", 7: "1"}, {}, dice=(1, 2)), "S/1 S/2 2(6^8)"),
        "doubles": play(at({}, {}, dice=(4, 4)), "S/4"),
        "finished": play(at({"S": "0", 17: "1"}, {4: "1"}, dice=(1, 3)), "17/F"),
    }


@cache
def _png(name: str) -> bytes:
    return render_png(_positions()[name])


def test_dispatch_picks_the_chebache_renderer():
    game = _positions()["stacks"]
    assert RENDERERS["chebache"] is render_chebache
    assert render_png(game) == render_chebache(game)


def test_start_position_is_a_valid_png_about_960_wide():
    image = opened(_png("start"))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT)
    assert 800 <= WIDTH <= 1000 and 600 <= HEIGHT <= 900


def test_same_position_gives_same_bytes():
    one = play(at({3: "2"}, {17: "K", 4: "1"}, dice=(2, 2)), "3X5 3X5")
    two = play(at({3: "2"}, {17: "K", 4: "1"}, dice=(2, 2)), "3X5 3X5")
    assert render_png(one) == render_png(two)


def test_different_positions_give_different_bytes():
    pictures = [_png(name) for name in _positions()]
    assert len(set(pictures)) == len(pictures)


def test_the_positions_are_what_their_names_say():
    positions = _positions()
    b = positions["stacks"].board
    assert [p in KINGS for p in b.stacks["d3"]] == [False, True]
    assert positions["attack pending"].board.pending == {"cd34"}
    assert positions["king captured"].board.owner[KINGS[BLACK]] == WHITE
    threat = positions["chebache threat"]
    assert threat.chebaches()[WHITE] == ["A"] and threat.threatened(BLACK) == [14]
    assert positions["phase II"].stage == "jump"
    assert positions["jumped"].history[-1]["jump"] == "2(6^8)"
    assert len(positions["doubles"].board.dice) == 3
    assert positions["finished"].outcome.winners == (WHITE,)


@pytest.mark.parametrize("name", list(_positions()))
def test_every_feature_renders(name: str):
    png = _png(name)
    assert opened(png).size == (WIDTH, HEIGHT)
    assert len(png) < MAX_BYTES


def test_show_path_false_hides_the_path_only():
    game = _positions()["stacks"]
    assert render_chebache(game, show_path=False) != render_chebache(game)
    over = _positions()["finished"]  # nobody to move: no path either way
    assert render_chebache(over, show_path=False) == render_chebache(over)


def test_the_empty_board_is_cached_per_path():
    assert _background((WHITE,)) is _background((WHITE,))
    assert _background((WHITE,)) is not _background((BLACK,))
    assert _background(()).size == (WIDTH, HEIGHT)  # kept at final size


def test_paths_picture():
    png = render_paths()
    assert opened(png).size == (WIDTH, HEIGHT)
    assert len(png) < MAX_BYTES
    assert png == render_paths()


def test_board_geometry_follows_the_rulings():
    # rank 4 on top, a-file on the left; intersections on the grid points
    assert space_xy("a4") == (BOARD_LEFT + CELL / 2, BOARD_TOP + CELL / 2)
    assert space_xy("d1") == (BOARD_LEFT + 3.5 * CELL, BOARD_TOP + 3.5 * CELL)
    assert space_xy("ab34") == (BOARD_LEFT + CELL, BOARD_TOP + CELL)
    assert space_xy("cd12") == (BOARD_LEFT + 3 * CELL, BOARD_TOP + 3 * CELL)
    assert space_xy("bc23") == (BOARD_LEFT + 2 * CELL, BOARD_TOP + 2 * CELL)
    # every path step goes between a square and one of its own corners
    for seat in (WHITE, BLACK):
        for a, b in zip(PATHS[seat], PATHS[seat][1:], strict=False):
            (xa, ya), (xb, yb) = space_xy(a), space_xy(b)
            assert abs(xa - xb) == abs(ya - yb) == CELL / 2


def test_chebache_marks_and_controlled_square():
    game = _positions()["chebache threat"]
    assert chebache_marks(game) == [(WHITE, "A", "ab34", "b3", "bc34")]
    assert controlled_square(WHITE, "A") == "b4"
    assert controlled_square(BLACK, "C") == "a2"  # C controls across the board


def test_dice_state_marks_used_and_left():
    assert dice_state(_positions()["doubles"]) == [(4, False), (4, True), (4, True), (4, True)]
    assert dice_state(_positions()["phase II"]) == [(1, False), (2, False)]
    assert dice_state(_positions()["rolled"]) == [(3, True), (5, True)]


def test_highlighted_turn_and_texts():
    positions = _positions()
    assert shown_turn(positions["start"]) is None
    assert shown_turn(positions["rolled"]) is None
    label, record = shown_turn(positions["jumped"])
    assert label == "Last turn" and record["jump"] == "2(6^8)"
    assert shown_turn(positions["phase II"])[0] == "This turn"
    assert footer_text(positions["king captured"]).endswith("XK@17; K(B->W@5)")
    assert parse_move("K(4/10)") == (4, 10, "/")
    assert parse_move("SX3") == (0, 3, "X")
    assert parse_move("14/F") == (14, 18, "/")
    assert parse_move("8\\6") == (8, 6, "\\")
    assert parse_move("1K(4^6)") == (4, 6, "^")
    assert parse_move("pass") is None
    assert king_text(positions["king captured"], WHITE) == "King in Start, Black's King on 5"
    assert king_text(positions["king captured"], BLACK) == "King taken by White"


def test_marked_squares_get_a_gold_frame_and_intersections_a_gold_ring():
    from render.chebache import GOLD, MARK_INSET, MARK_RADIUS, MARK_WIDTH, square_box

    start = Chebache()  # White to roll, nothing on the board
    plain = Image.open(io.BytesIO(render_png(start))).convert("RGB")
    marked = Image.open(io.BytesIO(render_png(start, marks=["c2", "bc34"]))).convert("RGB")
    x0, y0, x1, _ = square_box("c2")
    frame = (round((x0 + x1) / 2), round(y0 + MARK_INSET + MARK_WIDTH / 2))  # top edge
    assert marked.getpixel(frame) == GOLD and plain.getpixel(frame) != GOLD
    x, y = space_xy("bc34")
    ring = (round(x), round(y + MARK_RADIUS - MARK_WIDTH / 2))  # below the point
    assert marked.getpixel(ring) == GOLD and plain.getpixel(ring) != GOLD
    x0, y0, x1, _ = square_box("b2")  # not marked
    assert marked.getpixel((round((x0 + x1) / 2), round(y0 + MARK_INSET + 2))) != GOLD


def test_a_mark_that_names_no_space_is_refused():
    with pytest.raises(ValueError, match="no space 'e5'"):
        render_png(Chebache(), marks=["e5"])
    with pytest.raises(ValueError, match="no space 'I\\(bc,23\\)'"):
        render_png(Chebache(), marks=["I(bc,23)"])
