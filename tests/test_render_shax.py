"""The Shax picture: a valid, small, deterministic PNG for every kind of last action."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

import games
from games.shax import Shax
from render import RENDERERS, render_png
from render.shax import highlighted_actions, mills_to_show, render_shax

MAX_BYTES = 150_000

# Full board after placement; White made the first mill, so White removes and moves first.
FULL_BOARD = "d7 f2 e3 e4 f6 g7 c3 b6 g4 d5 d3 g1 a7 a4 d6 c5 b4 a1 e5 b2 f4 d1 c4 d2"
# ... White removes e4, steps e3-e4 into the g4-f4-e4 mill and removes a1.
MILL_AND_REMOVAL = FULL_BOARD + " xe4 e3-e4 xa1"
# White removes g4 and steps g1-g4: every Black piece is stuck, White must free one.
BLOCKED = "c4 f4 f2 b4 d6 f6 a7 a1 g7 c5 d7 c3 d1 e4 g1 g4 e5 d2 e3 b2 b6 d5 a4 d3 xg4 g1-g4"
# A whole game: Black's last mill leaves White two pieces.
WON = (
    "a7 e4 a4 a1 g1 g4 d6 c4 d2 d1 c3 d7 e5 b4 d3 b2 c5 f4 f6 e3 d5 g7 f2 b6 xg1 g4-g1 xc5 "
    "d5-c5 g1-g4 xd3 d6-d5 xg7 g4-g1 xe5 d5-e5 g1-g4 xe5 f6-d6 g4-g1 xc3 d2-d3 d7-g7 a7-d7 "
    "g7-g4 xd6 f2-d2 e4-e5 d7-d6 f4-f6 d3-c3 f6-f4 d2-d3 e3-e4 xa4 d3-e3 a1-a4 xd6 c3-d3 "
    "a4-a7 d3-d2 a7-a4 xe3"
)


def played(moves: str, variants: tuple[str, ...] = ()) -> Shax:
    game = games.new_game("shax", variants)
    assert isinstance(game, Shax)
    for move in moves.split():
        game.push(move)
    return game


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_dispatch_picks_the_shax_renderer():
    game = played("d2")
    assert RENDERERS["shax"] is render_shax
    assert render_png(game) == render_shax(game)


def test_start_position_is_a_valid_png_about_800_wide():
    image = opened(render_png(games.new_game("shax")))
    assert image.format == "PNG"
    assert 760 <= image.width <= 840
    assert 700 <= image.height <= 1100


def test_full_board_is_small():
    png = render_png(played(FULL_BOARD))
    assert opened(png).format == "PNG"
    assert len(png) < MAX_BYTES


def test_same_position_gives_same_bytes():
    assert render_png(played(MILL_AND_REMOVAL)) == render_png(played(MILL_AND_REMOVAL))


def test_different_positions_give_different_bytes():
    assert render_png(played("d2")) != render_png(played("d3"))


def test_a_removal_brings_along_the_mill_move_and_its_mill():
    game = played(MILL_AND_REMOVAL)
    actions = highlighted_actions(game)
    assert [move for _, move in actions] == ["e3-e4", "xa1"]
    assert mills_to_show(game, actions) == [("g4", "f4", "e4")]


def test_a_pending_removal_shows_the_mill_already():
    game = played(FULL_BOARD + " xe4 e3-e4")
    assert game.stage == "removal"
    assert mills_to_show(game, highlighted_actions(game)) == [("g4", "f4", "e4")]


def test_a_plain_step_shows_no_mill():
    game = played(MILL_AND_REMOVAL + " d1-a1")
    assert mills_to_show(game, highlighted_actions(game)) == []


def test_a_freeing_move_shows_no_mill():
    game = played(BLOCKED)
    game.push(game.legal_moves()[0])
    actions = highlighted_actions(game)
    assert len(actions) == 1
    assert mills_to_show(game, actions) == []


@cache
def _positions() -> dict[str, Shax]:
    """One game per kind of last action (built once; rendering never changes a game)."""
    freed = played(BLOCKED)
    freed.push(freed.legal_moves()[0])
    resigned = played(MILL_AND_REMOVAL)
    resigned.resign(0)
    agreed = played("d2 d3")
    agreed.agree_draw()
    return {
        "start": played(""),
        "placement": played("d2 d3 d1"),
        "placement removal": played(FULL_BOARD + " xe4"),
        "two removals": played(FULL_BOARD + " xe4 xd3", ("two-removals",)),
        "step": played(MILL_AND_REMOVAL + " d1-a1"),
        "pending removal": played(FULL_BOARD + " xe4 e3-e4"),
        "mill and removal": played(MILL_AND_REMOVAL),
        "blocked": played(BLOCKED),
        "freeing move": freed,
        "won by reduction": played(WON),
        "resigned": resigned,
        "draw by agreement": agreed,
    }


@pytest.mark.parametrize("name", list(_positions()))
def test_every_kind_of_last_action_renders(name: str):
    game = _positions()[name]
    png = render_png(game)
    assert opened(png).width == 800
    assert len(png) < MAX_BYTES


def test_the_positions_are_what_their_names_say():
    positions = _positions()
    assert positions["blocked"].blocked
    assert positions["blocked"].to_move == 0
    assert positions["won by reduction"].outcome is not None
    assert positions["won by reduction"].outcome.reason == "opponent reduced to two pieces"
    assert positions["two removals"].stage == "movement"
    assert positions["step"].stage == "movement"
    assert positions["pending removal"].stage == "removal"
    freed = positions["freeing move"]
    assert freed.last_move().seat != freed.nominal


def test_marked_points_get_a_green_ring_and_a_wrong_name_is_refused():
    from render.common import MILL
    from render.shax import MARK_RADIUS, MARK_WIDTH, point_xy

    plain = Image.open(io.BytesIO(render_png(Shax()))).convert("RGB")
    marked = Image.open(io.BytesIO(render_png(Shax(), marks=["d3"]))).convert("RGB")
    x, y = point_xy("d3")
    inside = MARK_RADIUS - MARK_WIDTH / 2  # the middle of the ring's width
    ring = (round(x), round(y - inside))  # above d3, where no line runs
    assert marked.getpixel(ring) == MILL and plain.getpixel(ring) != MILL
    far = point_xy("c5")
    assert marked.getpixel((round(far[0]), round(far[1] + inside))) != MILL
    with pytest.raises(ValueError, match="no point 'd4'"):
        render_png(Shax(), marks=["d4"])
