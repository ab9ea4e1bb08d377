"""The route of a Poron Jikaida move (``Jikaida.route`` and ``game.last``), for renderers.

Expected routes are worked out by hand from shared/rules/jikaida.md (files a..l west to
east, ranks 1..18 south to north; fronts between f|g, 6|7 and 12|13). Where a test needs
one route only, the position is built so that exactly one way leads to the square; the
preference tests build two ways and check the simpler one wins. Pieces listed in a position
have already moved unless named in ``unmoved``.
"""

from __future__ import annotations

import random

import pytest

from games.jikaida import Jikaida

# Far corners, out of every line used below; the Deldar keeps Blue from being a bare King
# (a bare King not to move has lost: the position would be over).
KINGS = {"l1": "YK", "l18": "BK", "l17": "BD"}


def pos(pieces: dict[str, str], unmoved=(), variant="poron", kings=True) -> Jikaida:
    data = {
        "variant": variant,
        "turn": "yellow",
        "pieces": {**(KINGS if kings else {}), **pieces},
        "unmoved": list(unmoved),
    }
    return Jikaida.from_position(data)


def way(route: list[str], kind: str, vaulted: tuple[str, ...] = ()) -> dict:
    return {"route": route, "vaulted": list(vaulted), "kind": kind}


# ---- plain moves ---------------------------------------------------------------------


def test_plain_step_slide_and_leap_at_the_start():
    game = Jikaida()
    assert game.route("c3-c4") == way(["c3", "c4"], "step")
    assert game.route("c3-c6") == way(["c3", "c6"], "slide")  # the unmoved Swod's bonus
    assert game.route("c3-f6") == way(["c3", "f6"], "slide")
    kapt = pos({"e5": "YKa"})
    assert kapt.route("e5-f7") == way(["e5", "f7"], "leap")


def test_last_move_record_of_a_plain_step():
    game = Jikaida()
    game.push("Mortil C3-Mortil C4")
    assert game.last == {
        "move": "c3-c4",
        "side": 0,
        "text": "Swod Mortil C3 → Mortil C4 (c3-c4)",
        "from": "c3",
        "to": "c4",
        "route": ["c3", "c4"],
        "vaulted": [],
        "kind": "step",
        "captured": None,
        "promotion": None,
    }


# ---- vaults --------------------------------------------------------------------------


def test_swod_vault_over_three_pieces_lands_beyond_them():
    game = pos({"c5": "YS", "c6": "YS", "c7": "BS", "c8": "BD"})
    assert game.route("c5-c9") == way(["c5", "c9"], "vault", ("c6", "c7", "c8"))
    game.push("c5~c9")
    assert game.last["route"] == ["c5", "c9"]
    assert game.last["vaulted"] == ["c6", "c7", "c8"]
    assert game.last["kind"] == "vault"
    assert game.last["captured"] is None


def test_swod_vault_capturing_the_fourth_piece():
    game = pos({"c5": "YS", "c6": "YS", "c7": "BS", "c8": "BD", "c9": "BH"})
    game.push("c5xc9")
    assert game.last["route"] == ["c5", "c9"]
    assert game.last["vaulted"] == ["c6", "c7", "c8"]
    assert game.last["kind"] == "vault"
    assert game.last["captured"] == "BH"


def test_start_pallan_vaults_along_its_back_rank_taking_its_own_chuktar():
    game = Jikaida()  # g1 Pallan; f1 Ka, e1 Pk, d1 Pk, c1 H, b1 J, a1 C
    game.push("g1xa1")
    assert game.last["route"] == ["g1", "a1"]
    assert game.last["vaulted"] == ["f1", "e1", "d1", "c1", "b1"]
    assert game.last["kind"] == "vault"
    assert game.last["captured"] == "YC"


def test_pastang_vault_over_two():
    game = pos({"c1": "YD", "c2": "YS", "c3": "BS", "f6": "BD"}, variant="pastang", kings=False)
    assert game.route("c1-c4") == way(["c1", "c4"], "vault", ("c2", "c3"))


# ---- opening double moves ------------------------------------------------------------


def test_deldar_opening_double_move():
    # First part exactly two squares: only c2-e4 leaves f5 one straight step away.
    game = pos({"c2": "YD"}, unmoved=["c2"])
    assert game.route("c2-f5") == way(["c2", "e4", "f5"], "double")
    game.push("c2-f5")
    assert game.last["route"] == ["c2", "e4", "f5"]
    assert game.last["kind"] == "double"


def test_deldar_plain_move_preferred_to_a_double_reaching_the_same_square():
    # c3 is one plain step, and also c2-c4 then one step back.
    game = pos({"c2": "YD"}, unmoved=["c2"])
    assert game.route("c2-c3") == way(["c2", "c3"], "step")
    assert game.route("c2-c4") == way(["c2", "c4"], "slide")


def test_paktun_double_leap():
    # e5-g6 crosses f|g, g6-i7 crosses 6|7: one front each; (2,1)+(2,1) has one split only.
    game = pos({"e5": "YPk"}, unmoved=["e5"])
    assert game.route("e5-i7") == way(["e5", "g6", "i7"], "double")


def test_paktun_double_leap_of_the_rulings_with_the_other_middle_blocked():
    # e5-h8 could go by f7 or by g6 (rulings: e5-g6-h8); a Yellow Swod on f7 leaves g6.
    game = pos({"e5": "YPk", "f7": "YS"}, unmoved=["e5"])
    assert game.route("e5-h8") == way(["e5", "g6", "h8"], "double")


# ---- Pallan powers -------------------------------------------------------------------


def test_pallan_orthogonal_front_turn():
    # c5 north across 6|7, turn on c7 (first square beyond the front) to the north-east.
    game = pos({"c5": "YP"})
    assert game.route("c5-e9") == way(["c5", "c7", "e9"], "turn")
    game.push("c5-e9")
    assert game.last["route"] == ["c5", "c7", "e9"]
    assert game.last["kind"] == "turn"


def test_pallan_diagonal_front_turn():
    # c5 north-east to d6 (last square before 6|7), turn north: d7..d12.
    game = pos({"c5": "YP"})
    assert game.route("c5-d10") == way(["c5", "d6", "d10"], "turn")


def test_pallan_move_then_vault():
    # c3-e3 (slide east, no capture), then north over e4 e5 e6, landing on e7.
    game = pos({"c3": "YP", "e4": "YS", "e5": "BS", "e6": "BS"})
    assert game.route("c3-e7") == way(["c3", "e3", "e7"], "move-vault", ("e4", "e5", "e6"))


def test_pallan_plain_leap_preferred_to_move_then_vault():
    # d5 is a knight leap from c3, and also c3-d1 (leap) then a vault over d2 d3 d4.
    game = pos({"c3": "YP", "d2": "YS", "d3": "YS", "d4": "YS"})
    assert game.route("c3-d5") == way(["c3", "d5"], "leap")


def test_pallan_bent_vault():
    # North over c4 c5, bend at c5 to the north-east over d6, land on e7 (3 pieces).
    game = pos({"c3": "YP", "c4": "YS", "c5": "BS", "d6": "BD"})
    assert game.route("c3-e7") == way(["c3", "c5", "e7"], "bent-vault", ("c4", "c5", "d6"))
    game.push("c3-e7")
    assert game.last["kind"] == "bent-vault"
    assert game.last["route"] == ["c3", "c5", "e7"]
    assert game.last["vaulted"] == ["c4", "c5", "d6"]


def test_pallan_bent_vault_capture_right_after_the_bend():
    # Over c4 c5 c6, bend at c6 to the east, take the Jiktar on d6 (3 pieces passed).
    game = pos({"c3": "YP", "c4": "YS", "c5": "YS", "c6": "YS", "d6": "BJ"})
    assert game.route("c3xd6") == way(["c3", "c6", "d6"], "bent-vault", ("c4", "c5", "c6"))
    game.push("c3xd6")
    assert game.last["captured"] == "BJ"


# ---- Fluttember and promotion --------------------------------------------------------


def test_fluttember_route_is_king_square_then_partner():
    game = Jikaida()
    assert game.route("h1<>f1") == way(["h1", "f1"], "fluttember")
    game.push("f1<>h1")
    assert game.last["route"] == ["h1", "f1"]
    assert game.last["kind"] == "fluttember"
    assert game.last["vaulted"] == [] and game.last["captured"] is None


def test_promotion_is_recorded():
    game = pos({"c17": "YS", "d18": "BJ"})
    game.push("c17xd18=kapt")
    assert game.last["route"] == ["c17", "d18"]
    assert game.last["kind"] == "step"
    assert game.last["captured"] == "BJ"
    assert game.last["promotion"] == "Ka"


def test_route_of_a_non_move_is_an_error():
    with pytest.raises(ValueError):
        Jikaida().route("c4-c5")  # no piece on c4


# ---- every legal move has a route ----------------------------------------------------


def check_routes(game: Jikaida) -> None:
    g = game.geo
    for move in game.legal_moves():
        if "<>" in move:
            continue
        head = move.split("=")[0].replace("x", "-")
        s, t = (g.parse(q) for q in head.split("-"))
        found = game._route(s, t)
        assert found is not None, move
        squares, vaulted, kind = found
        assert squares[0] == s and squares[-1] == t
        assert len(squares) == (3 if kind in ("double", "turn", "move-vault", "bent-vault") else 2)
        if "vault" in kind:
            assert len(vaulted) >= game.line_min and all(game.board[q] for q in vaulted)
        else:
            assert vaulted == []


@pytest.mark.parametrize(("seed", "variants"), [(1, ()), (2, ()), (3, ("pastang",))])
def test_every_legal_move_of_random_games_has_a_route(seed, variants):
    rng = random.Random(seed)
    game = Jikaida(variants)
    for _ply in range(30):
        if game.is_over:
            break
        check_routes(game)
        game.push(rng.choice(game.legal_moves()))
