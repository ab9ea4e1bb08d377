"""The Poron Jikaida and Pastang picture: a valid, small, deterministic PNG for the start
positions, a vault, a position in Kaida, a finished game and a Pallan's destinations, with
the board colours of the rulings (light squares where file index + rank index is odd)."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from games.jikaida import Jikaida
from render import RENDERERS, render_png
from render.jikaida import (
    DARK_SQUARE,
    LIGHT_SQUARE,
    PASTANG,
    PORON,
    destinations,
    footer_text,
    last_route,
    render_jikaida,
    square_xy,
)

MAX_BYTES = 300_000


def at(pieces: dict[str, str], turn: str = "yellow", variant: str = "poron") -> Jikaida:
    return Jikaida.from_position({"variant": variant, "turn": turn, "pieces": pieces})


def play(game: Jikaida, moves: str) -> Jikaida:
    for move in moves.split():
        game.push(move)
    return game


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def finished() -> Jikaida:
    game = play(Jikaida(), "e3-e5")
    game.resign(1)
    return game


@cache
def _positions() -> dict[str, Jikaida]:
    kings = {"h1": "YK", "f18": "BK"}
    return {
        "start": Jikaida(),
        "pastang start": Jikaida(["pastang"]),
        "vault": play(Jikaida(), "b3-c4 k16-j15 e3-e5 j18-j14"),
        "pastang vault": play(Jikaida(["pastang"]), "c2-c4 d5-d3 f1xb5"),
        "kaida": play(at({**kings, "c5": "YC", "b9": "BC", "a17": "BS"}, "blue"), "b9-b1"),
        "front turn": play(at({**kings, "c3": "YP", "k9": "BJ"}), "c3-f10"),
        "bent vault": play(
            at({**kings, "c3": "YP", "d4": "YS", "e5": "BS", "e6": "BD", "e7": "BS"}), "c3xe7"
        ),
        "finished": finished(),
    }


@cache
def _png(name: str) -> bytes:
    return render_png(_positions()[name])


def pixel(png: bytes, point: tuple[float, float]) -> tuple[int, int, int]:
    return opened(png).getpixel((round(point[0]), round(point[1])))


def near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Equal up to the palette reduction's rounding."""
    return all(abs(x - y) <= 4 for x, y in zip(a, b, strict=True))


def test_dispatch_picks_the_jikaida_renderer():
    game = _positions()["vault"]
    assert RENDERERS["jikaida"] is render_jikaida
    assert render_png(game) == render_jikaida(game)


@pytest.mark.parametrize("name", ["start", "pastang start"])
def test_start_positions_are_valid_portrait_pngs(name: str):
    png = _png(name)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < MAX_BYTES
    lay = PASTANG if "pastang" in name else PORON
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (lay.width, lay.height)
    assert lay.height > lay.width


def test_board_sizes():
    assert (PORON.files, PORON.ranks) == (12, 18)
    assert PORON.right - PORON.left == 12 * PORON.cell and PORON.cell >= 44
    assert (PASTANG.files, PASTANG.ranks) == (6, 6)


@pytest.mark.parametrize("name", list(_positions()))
def test_every_position_renders(name: str):
    png = _png(name)
    lay = PASTANG if _positions()[name].pastang else PORON
    assert opened(png).size == (lay.width, lay.height)
    assert len(png) < MAX_BYTES


def test_same_position_same_bytes_and_positions_differ():
    assert render_png(play(Jikaida(), "e3-e5")) == render_png(play(Jikaida(), "e3-e5"))
    pictures = [_png(name) for name in _positions()]
    assert len(set(pictures)) == len(pictures)


def test_the_positions_are_what_their_names_say():
    positions = _positions()
    assert positions["vault"].last["vaulted"] == ["j17", "j16", "j15"]
    assert positions["kaida"].in_kaida()
    assert positions["front turn"].last["kind"] == "turn"
    assert positions["bent vault"].last["kind"] == "bent-vault"
    assert positions["finished"].outcome is not None


def test_square_colours_follow_the_rulings():
    png = _png("start")  # ranks 4..15 are empty: a4 light (0 + 3 is odd), b4 dark
    light, dark = pixel(png, square_xy(PORON, "a4")), pixel(png, square_xy(PORON, "b4"))
    assert light != dark
    assert near(light, LIGHT_SQUARE) and near(dark, DARK_SQUARE)
    # l1 and a18 are light: their corners (outside the piece disc) show the light colour
    for square in ("l1", "a18"):
        x, y = square_xy(PORON, square)
        corner = (x + PORON.cell / 2 - 4, y - PORON.cell / 2 + 4)
        assert near(pixel(png, corner), LIGHT_SQUARE)
    assert near(pixel(_png("pastang start"), square_xy(PASTANG, "a4")), LIGHT_SQUARE)


def test_last_move_tints_its_squares_and_draws_the_route():
    before = at({"h1": "YK", "f18": "BK", "c3": "YP", "k9": "BJ"})
    after = play(at({"h1": "YK", "f18": "BK", "c3": "YP", "k9": "BJ"}), "c3-f10")
    plain = render_png(before)
    moved = render_png(after)
    x, y = square_xy(PORON, "c3")
    corner = (x - PORON.cell / 2 + 6, y + PORON.cell / 2 - 6)
    assert pixel(plain, corner) != pixel(moved, corner)  # the from square is tinted
    # the route turns on c7 (a white dot) on its way to f10
    assert last_route(after) == ["c3", "c7", "f10"]
    assert pixel(plain, square_xy(PORON, "c7")) != pixel(moved, square_xy(PORON, "c7"))


def test_route_falls_back_to_from_and_to():
    game = play(Jikaida(), "e3-e5")
    game.last = {k: v for k, v in game.last.items() if k not in ("route", "vaulted", "kind")}
    assert last_route(game) == ["e3", "e5"]
    assert opened(render_png(game)).size == (PORON.width, PORON.height)
    assert last_route(Jikaida()) == []


def test_kaida_glows_red_round_the_king():
    game = _positions()["kaida"]
    x, y = square_xy(PORON, "h1")
    edge = (x, y - PORON.radius - 3)  # just outside the King's disc
    r, g, b = pixel(_png("kaida"), edge)
    assert r > 150 and r > g + 60 and r > b + 60
    assert "Kaida" in game.status_line()


def test_dots_mark_destinations():
    game = at({"h1": "YK", "f18": "BK", "c3": "YP", "k9": "BJ"})
    dots = destinations(game, "c3")
    assert dots["f10"] == "turn" and dots["c7"] == "slide"
    marked = render_jikaida(game, {"a9": "turn"})
    assert marked != render_jikaida(game)
    assert pixel(marked, square_xy(PORON, "a9")) != pixel(
        render_jikaida(game), square_xy(PORON, "a9")
    )


def test_footer_text():
    assert footer_text(Jikaida()) == "No moves yet."
    text = footer_text(_positions()["vault"])
    assert text.startswith("Last: Blue Hikdar") and text.endswith("(j18-j14) · vault")
    assert "→" not in text


@pytest.mark.parametrize(("variants", "lay"), [([], PORON), (["pastang"], PASTANG)])
def test_a_marked_square_gets_a_green_frame(variants, lay):
    from render.jikaida import MARK_EDGE, MARK_WIDTH, ROUTE, file_rank

    game = Jikaida(variants)
    plain = Image.open(io.BytesIO(render_png(game))).convert("RGB")
    marked = Image.open(io.BytesIO(render_png(game, marks=["c4"]))).convert("RGB")
    x0, y0, x1, _ = lay.box(*file_rank("c4"))
    top = (round((x0 + x1) / 2), round(y0 + 1 + MARK_EDGE + MARK_WIDTH / 2))
    assert marked.getpixel(top) == ROUTE and plain.getpixel(top) != ROUTE
    x0, y0, x1, _ = lay.box(*file_rank("d4"))  # not marked
    assert marked.getpixel((round((x0 + x1) / 2), round(y0 + 1 + MARK_EDGE + 2))) != ROUTE


@pytest.mark.parametrize(("variants", "square"), [([], "m1"), ([], "a19"), (["pastang"], "a7")])
def test_a_mark_off_the_board_is_refused(variants, square):
    with pytest.raises(ValueError, match=f"no square '{square}'"):
        render_png(Jikaida(variants), marks=[square])
