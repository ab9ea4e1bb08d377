"""The Tchela picture: a valid, small, deterministic PNG for every kind of last move, on every
combination of variants, with the board geometry a player expects."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from games.tchela import NORTH, SOUTH, Tchela, layout_for
from render import RENDERERS, render_png
from render.tchela import (
    HEIGHT,
    ROW_Y,
    WIDTH,
    _background,
    geometry,
    last_drops,
    last_move_text,
    last_pickups,
    render_tchela,
)

MAX_BYTES = 150_000
VARIANTS = [(), ("4x6",), ("two-stores",), ("4x6", "two-stores")]

# A travelling wave that the 20-lap safeguard stops (see tests/test_tchela_rules.py).
WAVE = {2: 1, 4: 1, 6: 1, 8: 2, 9: 1, 11: 1, 13: 1, 14: 2, 16: 1}
# One counter each, round and round: the third time round is a draw by repetition.
CYCLE = "1 10 2 11 3 12 4 13 5 14 6 15 7 16 8+s 1 s 2 9 3 10 4 11 5 12 6 13 7 14 8 15>1 9"


def position(
    south: dict[int, int],
    north: dict[int, int],
    *,
    stores: tuple[list[int], list[int]] | None = None,
    turn: int = SOUTH,
    variants: tuple[str, ...] = (),
) -> Tchela:
    """A hand-made main-phase position, holes written {hole number: counters}."""
    layout = layout_for(frozenset(variants))

    def row(spec: dict[int, int]) -> list[int]:
        return [spec.get(hole, 0) for hole in range(1, layout.holes + 1)]

    state = {
        "holes": [row(south), row(north)],
        "stores": [list(s) for s in (stores or ([0] * layout.stores, [0] * layout.stores))],
        "captured": [0, 0],
        "turn": turn,
        "opened": [True, True],
        "last": None,
        "safeguard_plies": [],
        "positions": {},
    }
    data = {"game": "tchela", "variants": list(variants), "seats": 2, "state": state, "log": []}
    return Tchela.from_dict(data)


def played(moves: str, variants: tuple[str, ...] = (), game: Tchela | None = None) -> Tchela:
    game = game if game is not None else Tchela(variants)
    for move in moves.split():
        game.push(move)
    return game


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@cache
def _positions() -> dict[str, Tchela]:
    """One game per kind of last move (built once; rendering never changes a game)."""
    resigned = played("open1")
    resigned.resign(NORTH)
    return {
        "start": Tchela(),
        "open": played("open1"),
        "open with store and capture": played("open10 open5+s"),
        "hole with relays": played("open14 open11 14 15 16 8+s 2 14 3+s"),
        "relay over two laps": played("1", game=position({1: 17}, {3: 1}, stores=([1], [0]))),
        "store sown and refilled": played(
            "s+s", game=position({h: 1 for h in range(1, 17)}, {1: 1}, stores=([1], [0]))
        ),
        "skip": played("15>1", game=position({15: 1, 5: 1}, {9: 1, 3: 1})),
        "capture": played("10", game=position({10: 2, 3: 1}, {13: 3, 4: 2, 1: 1})),
        "safeguard": played("14", game=position(WAVE, {10: 2, 7: 1, 1: 1}, stores=([1], [0]))),
        "north captures": played("9", game=position({15: 2, 2: 1}, {9: 1, 2: 2}, turn=NORTH)),
        "won": played("9", game=position({15: 1}, {9: 1, 4: 1}, turn=NORTH)),
        "resigned": resigned,
        "repetition": repeated(),
    }


def repeated() -> Tchela:
    game = position({1: 1}, {10: 1})
    moves = CYCLE.split() * 3
    while not game.is_over:
        game.push(moves.pop(0))
    return game


def test_dispatch_picks_the_tchela_renderer():
    game = played("open1")
    assert RENDERERS["tchela"] is render_tchela
    assert render_png(game) == render_tchela(game)


def test_start_position_is_a_valid_png_960_wide():
    image = opened(render_png(Tchela()))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) == (960, HEIGHT)
    assert 700 <= HEIGHT <= 900


def test_same_position_gives_same_bytes():
    moves = "open14 open11 14 15 16 8+s 2 14 3+s"
    assert render_png(played(moves)) == render_png(played(moves))


def test_different_positions_give_different_bytes():
    assert render_png(played("open1")) != render_png(played("open2"))
    assert render_png(Tchela()) != render_png(played("open1"))


def test_the_positions_are_what_their_names_say():
    positions = _positions()
    kinds = {name: game.last["kind"] for name, game in positions.items() if game.last}
    assert kinds["open"] == "open"
    assert kinds["store sown and refilled"] == "store"
    assert kinds["skip"] == "skip"
    assert positions["relay over two laps"].last["laps"] > 2
    assert positions["capture"].last["captured"] == [[13, 3], [4, 2]]
    assert positions["north captures"].last["captured"] == [[15, 2], [2, 1]]
    assert positions["safeguard"].last["safeguard"]
    assert positions["open with store and capture"].last["captured"] == [[15, 2]]
    assert positions["won"].outcome.winners == (NORTH,)
    assert positions["resigned"].outcome.winners == (SOUTH,)
    assert positions["repetition"].outcome.is_draw


@pytest.mark.parametrize("name", list(_positions()))
def test_every_kind_of_last_move_renders(name: str):
    png = render_png(_positions()[name])
    assert opened(png).size == (WIDTH, HEIGHT)
    assert len(png) < MAX_BYTES


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "default")
def test_every_variant_renders_start_opening_and_main_phase(variants):
    game = Tchela(variants)
    pictures = [render_png(game)]
    while game.ply < 6 and not game.is_over:
        game.push(game.legal_moves()[-1])  # store choices sort last: they get exercised
        pictures.append(render_png(game))
    assert len(set(pictures)) == len(pictures)
    for png in pictures:
        assert opened(png).size == (WIDTH, HEIGHT)
        assert len(png) < MAX_BYTES


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "default")
def test_every_place_is_on_the_picture_and_holes_do_not_overlap(variants):
    layout = layout_for(frozenset(variants))
    geo = geometry(layout)
    for seat in (SOUTH, NORTH):
        centres = [geo.hole_xy(seat, hole) for hole in range(1, layout.holes + 1)]
        assert len(set(centres)) == layout.holes
        for x, _ in centres:
            assert geo.radius + 10 < x < WIDTH - geo.radius - 10
        for store in range(1, layout.stores + 1):
            x0, y0, x1, y1 = geo.store_box(seat, store)
            assert 0 < x0 < x1 < WIDTH and 0 < y0 < y1 < HEIGHT
            for x, y in centres:  # a store never covers a hole
                assert not (x0 - geo.radius < x < x1 + geo.radius and y0 < y < y1)
    assert geo.pitch > 2 * geo.radius


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "default")
def test_board_orientation(variants):
    layout = layout_for(frozenset(variants))
    geo = geometry(layout)
    width = layout.width
    # South at the bottom, its hole 1 at the left; North on top, its hole 1 at the right.
    assert geo.hole_xy(SOUTH, 1) == (geo.column_x(0), ROW_Y[SOUTH, "outer"])
    assert geo.hole_xy(NORTH, 1) == (geo.column_x(width - 1), ROW_Y[NORTH, "outer"])
    assert ROW_Y[NORTH, "outer"] < ROW_Y[NORTH, "inner"] < ROW_Y[SOUTH, "inner"]
    assert ROW_Y[SOUTH, "inner"] < ROW_Y[SOUTH, "outer"]
    # Facing holes share a column, and so does the outer hole behind.
    for hole in range(width, 2 * width):
        facing = layout.facing(hole)
        x = geo.hole_xy(SOUTH, hole + 1)[0]
        assert geo.hole_xy(NORTH, facing + 1)[0] == x
        assert geo.hole_xy(NORTH, layout.behind(facing) + 1)[0] == x
    # Store 1 sits at the right end of South's rows, the left end of North's.
    assert geo.store_box(SOUTH, 1)[0] > geo.hole_xy(SOUTH, width)[0]
    assert geo.store_box(NORTH, 1)[2] < geo.hole_xy(NORTH, width)[0]


def test_the_empty_board_is_cached_per_layout():
    default, small = layout_for(frozenset()), layout_for(frozenset({"4x6"}))
    assert _background(default) is _background(default)
    assert _background(default) is not _background(small)
    render_png(Tchela())
    assert _background(default).size == (WIDTH, HEIGHT)  # kept at final size


def test_drop_marks_keep_the_last_drop_and_count_visits():
    game = _positions()["relay over two laps"]
    drops = last_drops(game.last["drops"])
    assert drops[2] == (33, 3)  # hole 2: drops 1, 17 and 33 (the end)
    assert drops[16] == (31, 2)
    assert last_drops([9, "s1", 10]) == {9: (1, 1), "s1": (2, 1), 10: (3, 1)}
    assert last_pickups([[4, 2], [6, 3], [4, 5]]) == {4: 5, 6: 3}


def test_last_move_text_names_the_mover_and_safeguard_and_laps():
    positions = _positions()
    assert last_move_text(positions["capture"]) == (
        "South played 10: hole 10, sow 2, ends in hole 12, captures 5."
    )
    assert "safeguard" in last_move_text(positions["safeguard"])
    assert "(33 drops" in last_move_text(positions["relay over two laps"])
    assert "—" not in last_move_text(positions["skip"])  # the bundled font has no em dash
    assert last_move_text(Tchela(["4x6"])).startswith("No move yet")


@pytest.mark.parametrize(
    ("mark", "seat", "place"),
    [("9", SOUTH, 9), ("N15", NORTH, 15), ("S16", SOUTH, 16), ("s", SOUTH, "s1")],
)
def test_a_mark_names_a_hole_or_store_of_the_player_to_move_unless_a_side_is_named(
    mark, seat, place
):
    from render.tchela import mark_place

    assert mark_place(Tchela(), mark) == (seat, place)


@pytest.mark.parametrize("mark", ["17", "0", "s2", "N", "x9", "s3"])
def test_a_mark_that_names_no_hole_or_store_is_refused(mark):
    with pytest.raises(ValueError, match="no hole or store"):
        render_png(Tchela(), marks=[mark])


def test_two_stores_name_their_stores_s1_and_s2():
    from render.tchela import mark_place

    game = Tchela(["two-stores"])
    assert mark_place(game, "s2") == (SOUTH, "s2")
    with pytest.raises(ValueError):
        mark_place(game, "s")


def test_a_marked_hole_gets_a_green_ring():
    from render.common import MILL
    from render.tchela import MARK_WIDTH, geometry

    game = Tchela()
    plain = Image.open(io.BytesIO(render_png(game))).convert("RGB")
    marked = Image.open(io.BytesIO(render_png(game, marks=["N15"]))).convert("RGB")
    geo = geometry(game.layout)
    x, y = geo.hole_xy(NORTH, 15)
    ring = (round(x), round(y - geo.radius - 6 + MARK_WIDTH / 2))  # the ring's top
    assert marked.getpixel(ring) == MILL and plain.getpixel(ring) != MILL
