"""Poron Jikaida and Pastang rules, one test per ruling of shared/rules/jikaida.md.

Every expected value below was worked out by hand from the rulings (board: files a..l west
to east, ranks 1..18 south to north; fronts between f|g, 6|7 and 12|13), never by running
the engine. Unless a test says otherwise pieces listed in a position have already moved.
"""

from __future__ import annotations

import pytest

from games import IllegalMove
from games.jikaida import Jikaida

YELLOW, BLUE = 0, 1

# Kings out of the way in the far eastern corners (their lines touch nothing tested), and a
# Blue Deldar by its King: a position whose side not to move is a bare King is already over.
KINGS = {"l1": "YK", "l18": "BK", "l17": "BD"}


def pos(pieces: dict[str, str], turn: str = "yellow", unmoved=(), kings=True, **extra) -> Jikaida:
    data = {"variant": "poron", "turn": turn, "pieces": {**(KINGS if kings else {}), **pieces}}
    data["unmoved"] = list(unmoved)
    data.update(extra)
    return Jikaida.from_position(data)


def targets(game: Jikaida, square: str) -> set[str]:
    """Destination squares of the legal moves from ``square`` (promotion suffixes dropped)."""
    out = set()
    for move in game.legal_moves():
        if "<>" in move:
            continue
        head = move.split("=")[0]
        for sep in "-x":
            if sep in head:
                a, b = head.split(sep)
                if a == square:
                    out.add(b)
    return out


def squares(text: str) -> set[str]:
    return set(text.split())


# ---- board, coordinates, initial array ------------------------------------------------


def test_drin_notation_is_read_as_global_squares():
    game = Jikaida()
    assert game.normalize("Mortil C3-Mortil C4") == "c3-c4"
    assert game.normalize("mortil c3 mortil c6") == "c3-c6"
    assert game.normalize("Zhantil A3-Zhantil A4") == "g3-g4"


@pytest.mark.parametrize(
    ("drin", "square"),
    [("Mortil A1", "a1"), ("Zhantil A1", "g1"), ("Leem F6", "l12"), ("Chavonth F6", "l18")],
)
def test_drin_names(drin, square):
    game = Jikaida()
    s = game.geo.parse(square)
    assert game.geo.drin_name(s) == drin


def test_initial_array():
    codes = Jikaida().piece_codes()
    back_y = "C J H Pk Pk Ka P K Ka H J C".split()
    back_b = "C J H Ka P K Ka Pk Pk H J C".split()
    for i, f in enumerate("abcdefghijkl"):
        assert codes[f"{f}1"] == "Y" + back_y[i]
        assert codes[f"{f}2"] == "YD" and codes[f"{f}3"] == "YS"
        assert codes[f"{f}18"] == "B" + back_b[i]
        assert codes[f"{f}17"] == "BD" and codes[f"{f}16"] == "BS"
    assert len(codes) == 72


def test_kings_stand_on_their_own_colour():
    game = Jikaida()
    assert game.is_light("h1") and game.is_light("l1") and game.is_light("a18")
    assert not game.is_light("f18")


def test_start_moves_are_swods_pallan_and_fluttember():
    # Swods: a3 6, b3 7, c3 8, d3..i3 9 each, j3 8, k3 7, l3 6 = 96. Every other Yellow
    # piece but the Pallan is boxed in (no line of 3 to vault). Fluttember with all four.
    game = Jikaida()
    legal = game.legal_moves()
    swod = [m for m in legal if m[1:3] in ("3-", "3x")]
    assert len(swod) == 96
    assert {m for m in legal if "<>" in m} == {"h1<>a1", "h1<>f1", "h1<>i1", "h1<>l1"}
    others = {m[:2] for m in legal if m[1:3] not in ("3-", "3x") and "<>" not in m}
    assert others == {"g1"}
    # The back-rank vault of the settled details; never the own King.
    assert {"g1xa1", "g1xb1", "g1xc1"} <= set(legal)
    assert "g1xh1" not in legal


def test_unmoved_swod_opening():
    game = Jikaida()
    assert targets(game, "c3") == squares("c4 c5 c6 b4 a5 d4 e5 f6")
    assert targets(game, "f3") == squares("f4 f5 f6 e4 d5 c6 g4 h5 i6")


def test_blue_first_variant_and_set_first():
    assert Jikaida(["blue-first"]).to_move == BLUE
    game = Jikaida()
    game.set_first(BLUE)
    assert game.to_move == BLUE
    assert "c16-c15" in game.legal_moves()


# ---- pieces and fronts ------------------------------------------------------------------


def test_deldar_touching_only_the_vertical_front():
    # f5 touches f|g only: it may cross into Zhantil but not north over 6|7.
    game = pos({"f5": "YD"})
    assert targets(game, "f5") == squares("f6 e6 e5 d5 e4 d3 f4 f3 g4 h3 g5 h5 g6")


def test_deldar_at_the_junction_crosses_two_fronts_diagonally():
    game = pos({"f6": "YD"})
    assert {"g7", "h8", "f7", "f8", "g6", "h6"} <= targets(game, "f6")


def test_deldar_in_the_middle_of_a_drin_stays_in():
    game = pos({"b4": "YD", "b5": "BS"})
    # b6 is behind the capture on b5.
    assert targets(game, "b4") == squares("b5 a5 c5 d6 a4 c4 d4 a3 b3 b2 c3 d2")


def test_jiktar_slide_stops_before_a_front_it_does_not_touch():
    game = pos({"c6": "YJ"})
    assert targets(game, "c6") == squares("c7 c8 c9 c10 c11 c12 c5 c4 c3 c2 c1 a6 b6 d6 e6 f6")


def test_hikdar_not_touching_a_front_stays_in_its_drin():
    game = pos({"c3": "YH"})
    assert targets(game, "c3") == squares("d4 e5 f6 b4 a5 b2 a1 d2 e1")


def test_chuktar_crosses_one_front_only():
    game = pos({"a1": "YC"})
    t = targets(game, "a1")
    assert {"a12", "k1", "f6"} <= t  # l1 holds the own King
    assert "a13" not in t  # a second front
    assert "g7" not in t  # the junction counts as two


def test_paktun_leap_across_two_fronts_is_illegal():
    game = pos({"f5": "YPk"})
    assert targets(game, "f5") == squares("h6 h4 g3 e3 d4 d6 e7")  # not g7: two fronts


def test_paktun_double_leap_opening():
    game = pos({"e5": "YPk"}, unmoved=["e5"])
    t = targets(game, "e5")
    assert "h8" in t  # e5-g6-h8, one front each
    assert "e5" not in t


def test_paktun_capture_ends_the_move():
    # The only first leaps from a1 are b3 and c2; b3 holds an enemy, c2 is empty.
    game = pos({"a1": "YPk", "b3": "BD"}, unmoved=["a1"])
    t = targets(game, "a1")
    # b3 (capture, ends), c2, then from c2: a3 b4 d4 e3 e1 (a1 is the start square);
    # never the second leaps from b3 (a5 c5 c1 d2).
    assert t == squares("b3 c2 a3 b4 d4 e3 e1")


def test_king_steps_one_square_across_fronts():
    game = pos({"f6": "YK", "l18": "BK", "a17": "BS"}, kings=False)
    assert targets(game, "f6") == squares("e5 e6 e7 f5 f7 g5 g6 g7")


def test_swod_moves_and_captures():
    game = pos({"c4": "YS", "c5": "BD", "d5": "BS", "b5": "BD"})
    # straight blocked by c5, no straight capture; b5 taken; d5 is Propt (c5 is a Deldar)
    assert targets(game, "c4") == squares("b5")
    game = pos({"c4": "YS", "d5": "BS", "b5": "BD"})
    assert targets(game, "c4") == squares("c5 b5 d5")


def test_propt_swod_cannot_be_taken_by_a_swod():
    game = pos({"c4": "YS", "d5": "BS", "e6": "BD", "c3": "YD"})
    assert "d5" not in targets(game, "c4")
    game = pos({"c4": "YS", "d5": "BS", "e6": "BD", "d3": "YD"})
    assert "d5" in targets(game, "d3")


def test_unmoved_swod_diagonal_capture_at_distance_two():
    game = pos({"c3": "YS", "e5": "BD"}, unmoved=["c3"])
    assert targets(game, "c3") == squares("c4 c5 c6 b4 a5 d4 e5")


def test_unmoved_deldar_double_move():
    game = pos({"c2": "YD"}, unmoved=["c2"])
    t = targets(game, "c2")
    assert {"c6", "a6", "e6", "c4", "e4", "a4"} <= t
    assert "c2" not in t


def test_deldar_double_stops_on_capture():
    game = pos({"c2": "YD", "c4": "BS"}, unmoved=["c2"])
    t = targets(game, "c2")
    # c2-c4 captures and ends; c5 is out of reach (c6 comes via e4 or a4).
    assert "c4" in t and "c5" not in t


# ---- vaulting -----------------------------------------------------------------------------


def test_vault_over_three_pieces_lands_beyond():
    game = pos({"c1": "YJ", "c2": "YD", "c3": "BD", "c4": "YS"})
    assert "c5" in targets(game, "c1")


def test_vault_captures_from_the_fourth_piece():
    game = pos({"c1": "YJ", "c2": "YD", "c3": "BD", "c4": "YS", "c5": "BD"})
    t = targets(game, "c1")
    assert "c5" in t and "c6" in t
    assert "c3" not in t  # third piece: not capturable


def test_vault_ignores_fronts():
    game = pos({"c5": "YH", "c6": "BD", "c7": "BD", "c8": "BD"})
    assert "c9" in targets(game, "c5")


def test_swod_vaults_forward_only():
    game = pos({"c6": "YS", "c5": "YD", "c4": "YD", "c3": "YD"})
    assert "c2" not in targets(game, "c6")
    game = pos({"c1": "YS", "c2": "YD", "c3": "YD", "c4": "YD"})
    assert "c5" in targets(game, "c1")


def test_swod_vault_may_not_take_a_propt_swod():
    base = {"c2": "YD", "c3": "YD", "c4": "YD", "c5": "BS", "d6": "BD"}
    game = pos({"c1": "YS", **base})
    assert "c5" not in targets(game, "c1")
    game = pos({"c1": "YJ", **base})
    assert "c5" in targets(game, "c1")


# ---- the Pallan -------------------------------------------------------------------------


def test_pallan_orthogonal_approach_turn():
    game = pos({"c4": "YP"})
    t = targets(game, "c4")
    assert {"e9", "f10", "a9", "b8"} <= t
    assert "g11" not in t


def test_pallan_diagonal_approach_turn_at_the_junction():
    game = pos({"c3": "YP"})
    t = targets(game, "c3")
    assert {"f10", "f12", "j6"} <= t
    assert "f13" not in t


def test_pallan_diagonal_approach_turn_along_the_front():
    game = pos({"a2": "YP"})
    t = targets(game, "a2")
    assert {"e10", "f6"} <= t
    assert "g6" not in t


def test_pallan_no_turn_off_the_board():
    game = Jikaida.from_position(
        {"variant": "poron", "turn": "yellow", "pieces": {"g1": "YP", "a1": "YK", "a18": "BK"}}
    )
    assert "l7" not in targets(game, "g1")


def test_pallan_move_then_vault():
    game = pos({"b1": "YP", "d2": "YD", "d3": "YD", "d4": "YD", "d5": "BD"})
    t = targets(game, "b1")
    assert {"d5", "d6"} <= t


def test_pallan_bent_vault():
    game = pos({"a1": "YP", "b2": "YD", "c3": "YD", "c4": "BD"})
    t = targets(game, "a1")
    assert "c5" in t and "c4" not in t
    game = pos({"a1": "YP", "b2": "YD", "c3": "YD", "c4": "BD", "c5": "BD"})
    assert {"c5", "c6"} <= targets(game, "a1")


def test_pallan_takes_friendly_pieces_but_not_its_king():
    game = pos({"a1": "YP", "a3": "YD", "b2": "YK", "l18": "BK", "l17": "BD"}, kings=False)
    t = targets(game, "a1")
    assert "a3" in t and "b2" not in t


# ---- Kaida and legality -----------------------------------------------------------------


def test_pinned_piece_moves_only_along_the_pin():
    game = pos({"e1": "YK", "e2": "YJ", "e5": "BJ", "l18": "BK"}, kings=False)
    assert targets(game, "e2") == squares("e3 e4 e5")


def test_king_may_not_step_into_kaida():
    game = pos({"e1": "YK", "d5": "BJ", "l18": "BK"}, kings=False)
    assert targets(game, "e1") == squares("e2 f1 f2")


def test_vault_attack_is_kaida():
    game = pos(
        {"e1": "YK", "e2": "YS", "e3": "YS", "e4": "YS", "e5": "BD", "l18": "BK"},
        kings=False,
    )
    assert game.in_kaida()
    assert ("Warning", "Kaida! The Yellow King is attacked") in game.summary()
    assert game.status_line().endswith("Kaida!")


# ---- end of the game ----------------------------------------------------------------


def test_hyrkaida_is_worth_one():
    game = pos({"a18": "BK", "l12": "BS", "b13": "YC", "c14": "YC", "l1": "YK"}, kings=False)
    game.push("c14-a14")
    assert game.outcome is not None
    assert game.outcome.winners == (YELLOW,)
    assert game.outcome.reason == "Hyrkaida" and game.outcome.score == (1.0, 0.0)


def test_tikaida_is_worth_half():
    game = pos(
        {
            "a18": "BK",
            "b10": "YC",
            "d14": "YC",
            "l1": "YK",
            "l2": "BS",
            "k1": "YS",
            "k2": "YD",
        },
        kings=False,
    )
    game.push("d14-c15")
    assert game.outcome is not None
    assert game.outcome.reason == "Tikaida"
    assert game.outcome.winners == (YELLOW,) and game.outcome.score == (0.5, 0.0)


def test_nikaida_bare_king_loses_after_one_turn():
    game = pos({"l1": "YK", "a10": "YD", "a18": "BK", "a11": "BS"}, kings=False)
    game.push("a10xa11")
    assert game.outcome is None
    game.push("a18-a17")
    assert game.outcome is not None
    assert game.outcome.winners == (YELLOW,) and game.outcome.score == (0.5, 0.0)


def test_nikaida_draw_when_the_bare_king_takes_the_last_piece():
    game = pos({"l1": "YK", "b14": "YD", "a17": "BK", "b16": "BS"}, kings=False)
    game.push("b14xb16")
    assert game.in_kaida(BLUE)
    game.push("a17xb16")
    assert game.outcome is not None
    assert game.outcome.is_draw and game.outcome.score == (0.5, 0.5)


# ---- promotion and Fluttember ----------------------------------------------------------


def test_promotion_choices_and_default():
    game = pos({"c17": "YS", "d18": "BD"})
    t = {m for m in game.legal_moves() if m.startswith("c17")}
    kinds = "P Ka C J H Pk D".split()
    assert t == {f"c17{way}={p}" for p in kinds for way in ("-c18", "xd18", "-b18")}
    assert game.normalize("c17-c18") == "c17-c18=P"
    assert game.normalize("Wersting C5-Wersting C6=kapt") == "c17-c18=Ka"
    game.push("c17-c18=Ka")
    assert game.piece_codes()["c18"] == "YKa"


def test_fluttember_swaps_once():
    game = Jikaida()
    assert game.normalize("a1<>h1") == "h1<>a1"
    game.push("h1<>a1")
    codes = game.piece_codes()
    assert codes["a1"] == "YK" and codes["h1"] == "YC"
    game.push("c16-c15")
    assert not [m for m in game.legal_moves() if "<>" in m]


def test_no_fluttember_out_of_kaida():
    game = pos({"h1": "YK", "f1": "YKa", "h5": "BJ", "l18": "BK"}, kings=False)
    assert not [m for m in game.legal_moves() if "<>" in m]


def test_illegal_move_reason():
    game = Jikaida()
    with pytest.raises(IllegalMove):
        game.push("c3-c7")


# ---- Pastang --------------------------------------------------------------------------


def test_pastang_start():
    codes = Jikaida(["pastang"]).piece_codes()
    assert [codes[f"{f}1"] for f in "abcdef"] == ["YD", "YS", "YD", "YD", "YS", "YD"]
    assert [codes[f"{f}6"] for f in "abcdef"] == ["BD", "BS", "BD", "BD", "BS", "BD"]
    assert all(codes[f"{f}2"] == "YS" and codes[f"{f}5"] == "BS" for f in "abcdef")


def test_pastang_lines_of_two_and_deldar_promotion():
    game = Jikaida.from_position(
        {
            "variant": "pastang",
            "turn": "yellow",
            "pieces": {"a1": "YD", "a2": "BS", "a3": "BS", "e5": "YS", "c5": "BS"},
        }
    )
    t = targets(game, "a1")
    assert "a4" in t  # a line of two
    assert [m for m in game.legal_moves() if m.startswith("e5")] == [
        "e5-d6=D",
        "e5-e6=D",
        "e5-f6=D",
    ]


def test_pastang_last_side_standing_wins_one():
    game = Jikaida.from_position(
        {"variant": "pastang", "turn": "yellow", "pieces": {"c3": "YD", "c4": "BS"}}
    )
    game.push("c3xc4")
    assert game.outcome is not None
    assert game.outcome.winners == (YELLOW,) and game.outcome.score == (1.0, 0.0)


def test_pallan_single_change_no_turn_then_vault():
    # c4-c7 crosses 6|7, turns NE to d8 and meets the enemy e9: a capture; vaulting on over
    # e9 f10 g11 to h12 would be a second change.
    game = pos({"c4": "YP", "e9": "BD", "f10": "BD", "g11": "BD"})
    t = targets(game, "c4")
    assert "e9" in t and "h12" not in t


def test_fluttember_not_onto_an_attacked_square():
    game = pos({"h1": "YK", "f1": "YKa", "a1": "YC", "f5": "BJ", "l18": "BK"}, kings=False)
    assert {m for m in game.legal_moves() if "<>" in m} == {"h1<>a1"}


def test_deldar_double_each_part_obeys_the_front_rule_from_its_start():
    # e4 touches no front: no first part across f|g; e6 touches 6|7, so the second part may
    # go north into Neemu (e7, e8, f7) but not on into Leem (g8).
    game = pos({"e4": "YD"}, unmoved=["e4"])
    t = targets(game, "e4")
    assert {"e8", "e7", "f7"} <= t
    assert not {"g8", "g6", "g4"} & t


def test_no_bonus_after_returning_to_the_start_square():
    game = pos({"c2": "YD", "a17": "BS"}, unmoved=["c2"])
    assert "c6" in targets(game, "c2")
    game.push("c2-c4")
    game.push("a17-a16")
    game.push("c4-c2")
    game.push("a16-a15")
    assert "c6" not in targets(game, "c2")
    assert game.last == {
        "move": "a16-a15",
        "side": BLUE,
        "text": "Swod Wersting A4 → Wersting A3 (a16-a15)",
        "from": "a16",
        "to": "a15",
        "route": ["a16", "a15"],
        "vaulted": [],
        "kind": "step",
        "captured": None,
        "promotion": None,
    }


def test_describe_capture_and_promotion():
    game = pos({"c17": "YS", "d18": "BD"})
    assert (
        game.describe_move("c17xd18=Ka")
        == "Swod Wersting C5 → takes Deldar Wersting D6, promotes to Kapt (c17xd18=Ka)"
    )


def test_status_line_keeps_the_worth_and_resignation_scores_one():
    game = pos({"a18": "BK", "l12": "BS", "b13": "YC", "c14": "YC", "l1": "YK"}, kings=False)
    game.push("c14-a14")
    assert game.status_line() == "Yellow wins: Hyrkaida (worth 1)"
    game = Jikaida()
    game.resign(YELLOW)
    assert game.outcome is not None and game.outcome.score == (0.0, 1.0)


def test_illegal_reason_names_kaida():
    game = pos({"e1": "YK", "d5": "BJ", "l18": "BK"}, kings=False)
    with pytest.raises(IllegalMove) as info:
        game.push("e1-d1")
    assert info.value.reason == "that move would leave your King in Kaida"


@pytest.mark.parametrize(
    ("attacker", "king", "unmoved", "kaida"),
    [
        ("e6 BD", "e2", True, True),  # e6-e4, then e4-e2: the Deldar's double move
        ("e6 BD", "e2", False, False),
        ("e5 BPk", "h8", True, True),  # e5-g6-h8: the Paktun's double leap
        ("e5 BPk", "h8", False, False),
        ("c4 BP", "e9", False, True),  # c4-c7, turn, d8-e9: a Pallan front turn
    ],
)
def test_kaida_counts_bonuses_and_pallan_powers(attacker, king, unmoved, kaida):
    square, code = attacker.split()
    game = pos(
        {square: code, king: "YK", "a3": "YS", "l18": "BK"},
        kings=False,
        unmoved=[square] if unmoved else [],
    )
    assert game.in_kaida(YELLOW) is kaida


def test_pastang_no_legal_move_loses_one_point():
    # Yellow's only piece a5: a6 is occupied, b6 is a Swod Propt by the Deldar a6, and no line
    # of two lies ahead (a6 and b6 are on the last rank).
    game = Jikaida.from_position(
        {
            "variant": "pastang",
            "turn": "blue",
            "pieces": {"a5": "YS", "a6": "BD", "b6": "BS", "f1": "BD"},
        }
    )
    assert game.normalize("a5-a6") == "a5xa6=D"
    game.push("f1-f2")
    assert game.outcome is not None
    assert game.outcome.winners == (BLUE,) and game.outcome.score == (0.0, 1.0)


# ---- input forms (rulings, "Notation": input also accepts ...) -----------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("c3-c4", "c3-c4"),
        ("C3-C4", "c3-c4"),  # global squares in any case
        ("c3 c4", "c3-c4"),
        ("Mortil C3-Mortil C4", "c3-c4"),  # drin notation
        ("mortil c3 - mortil c6", "c3-c6"),
        ("MortilC3-MortilC5", "c3-c5"),
        ("Mortil C3-c4", "c3-c4"),  # mixed notation
        ("Zhantil A3-A4", "g3-g4"),  # a bare upper-case square is read in the drin named
        ("Zhantil A3-a4", "g3-a4"),  # ... a lower-case one is global (not a move here)
        ("g1~a1", "g1xa1"),  # ~ for a vault
        ("g1~b1", "g1xb1"),
        ("f1<>h1", "h1<>f1"),  # Fluttember either way round
        ("Zhantil B1<>Mortil F1", "h1<>f1"),
        ("Mortil C3", "Mortil C3"),  # one square is not a move: left as typed (illegal)
    ],
)
def test_input_forms_at_the_start(typed, canonical):
    assert Jikaida().normalize(typed) == canonical


def test_turning_squares_are_accepted_and_identify_the_move_by_its_ends():
    # c5-c7-e9 is the Pallan's real front turn; c5-d6-e9 is no route of this piece (d6 is
    # before the front and e9 is not on a 45-degree turn from it), but from/to name one
    # legal move, so it is accepted too (see Jikaida.normalize).
    game = pos({"c5": "YP"})
    assert game.parse_move("c5-c7-e9") == "c5-e9"
    assert game.parse_move("Mortil C5-Neemu C1-Neemu E3") == "c5-e9"
    assert game.parse_move("c5-d6-e9") == "c5-e9"
    with pytest.raises(IllegalMove):
        game.parse_move("c5-c7-f9")  # no legal move c5-f9


def test_paktun_double_leap_typed_with_its_middle_square():
    game = pos({"e5": "YPk"}, unmoved=["e5"])
    assert game.push("e5-g6-h8") == "e5-h8"


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("c17-c18", "c17-c18=P"),  # default Pallan
        ("c17-c18=ka", "c17-c18=Ka"),
        ("c17-c18=KA", "c17-c18=Ka"),
        ("c17-c18=pk", "c17-c18=Pk"),
        ("c17-c18=Paktun", "c17-c18=Pk"),
        ("c17-c18=hikdar", "c17-c18=H"),
        ("c17-c18Ka", "c17-c18=Ka"),  # the promotion straight after the square
        ("c17-c18 jiktar", "c17-c18=J"),
        ("c17-c18(d)", "c17-c18=D"),
        ("c17xd18=chuktar", "c17xd18=C"),
        ("Wersting C5-Wersting C6=Kapt", "c17-c18=Ka"),
        ("Wersting C5-C6 pallan", "c17-c18=P"),
    ],
)
def test_promotion_input_forms(typed, canonical):
    game = pos({"c17": "YS", "d18": "BJ"})
    assert game.parse_move(typed) == canonical


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("c17-c18=K", "never a King"),
        ("c17-c18=king", "never a King"),
        ("l1-k1=P", "only a Swod reaching the last rank promotes"),
        ("c17-c18 kaptt", "write a move as from-to"),
    ],
)
def test_bad_promotions_are_refused_with_a_reason(typed, reason):
    game = pos({"c17": "YS", "d18": "BJ"})
    with pytest.raises(IllegalMove) as error:
        game.parse_move(typed)
    assert reason in error.value.reason


# ---- loaded positions (Settled details: "judged exactly as if reached in play") --------


def loaded(pieces: dict[str, str], turn: str = "yellow", variant: str = "poron", **extra):
    """A position file as a user writes it: no "unmoved" list unless given."""
    return Jikaida.from_position({"variant": variant, "turn": turn, "pieces": pieces, **extra})


def test_loaded_bare_king_not_to_move_has_already_lost_by_nikaida():
    # The example: Blue has only its King and Yellow (to move) has a Deldar.
    game = loaded({"a1": "YK", "c3": "YD", "f18": "BK"})
    assert game.is_over and game.legal_moves() == []
    assert game.outcome.winners == (YELLOW,)
    assert game.outcome.reason == "Nikaida" and game.outcome.score == (0.5, 0.0)


def test_loaded_bare_king_to_move_still_has_its_one_turn():
    game = loaded({"a1": "YK", "c3": "YD", "f18": "BK"}, turn="blue")
    assert not game.is_over
    assert "f18-e18" in game.legal_moves()
    game.push("f18-e18")  # the bare King's one turn: now it has lost
    assert game.outcome.winners == (YELLOW,) and game.outcome.reason == "Nikaida"


def test_loaded_two_bare_kings_draw():
    game = loaded({"a1": "YK", "f18": "BK"})
    assert game.outcome.is_draw and game.outcome.score == (0.5, 0.5)


@pytest.mark.parametrize("turn", ["yellow", "blue"])
def test_loaded_pastang_side_without_pieces_has_lost(turn):
    game = loaded({"c3": "YD", "e1": "YS"}, turn=turn, variant="pastang")
    assert game.is_over and game.legal_moves() == []
    assert game.outcome.winners == (YELLOW,) and game.outcome.score == (1.0, 0.0)


def test_without_an_unmoved_list_pieces_on_their_own_initial_squares_are_unmoved():
    # c3 is a Yellow Swod square: the three-square bonus. i4 is no Swod square: one step.
    game = loaded({"c3": "YS", "i4": "YS", **KINGS})
    assert targets(game, "c3") == squares("c4 c5 c6 b4 a5 d4 e5 f6")
    assert targets(game, "i4") == squares("i5 h5 j5")
    # c2 is a Yellow Deldar square (the double move reaches c6); c3 is not a Deldar's.
    game = loaded({"c2": "YD", "i3": "YD", **KINGS})
    assert "c6" in targets(game, "c2")
    assert targets(game, "i3") == squares("i4 i5 i2 i1 h3 g3 j3 k3 h4 g5 j4 k5 h2 g1 j2 k1")


def test_initial_squares_count_for_their_own_side_only():
    # Blue's Swod on c16 is unmoved (forward is south); a Yellow Swod there is not.
    game = loaded({"c16": "BS", "k2": "YD", **KINGS}, turn="blue")
    assert targets(game, "c16") == squares("c15 c14 c13 b15 a14 d15 e14 f13")
    game = loaded({"c16": "YS", **KINGS})
    assert targets(game, "c16") == squares("c17 b17 d17")


def test_with_an_unmoved_list_only_the_listed_squares_count():
    game = loaded({"c3": "YS", "i4": "YS", **KINGS}, unmoved=["i4"])
    assert targets(game, "c3") == squares("c4 b4 d4")
    assert targets(game, "i4") == squares("i5 i6 i7 h5 g6 f7 j5 k6 l7")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"pieces": {"h1": "YK", "c3": "YS"}}, "blue has no King"),
        ({"pieces": {"f18": "BK"}}, "yellow has no King"),
        ({"pieces": {}}, "yellow has no King"),
        ({"pieces": {"h1": "YK", " h1": "YS", "f18": "BK"}}, "two pieces on h1"),
        ({"pieces": {"h1": "YK", "H1 ": "YS", "f18": "BK"}}, "two pieces on h1"),
        ({"pieces": {"h1": "YK", "f18": "BK", "c3": 5}}, "unknown piece"),
        ({"pieces": {"h1": "YK", "f18": "BK", "c3": None}}, "unknown piece"),
        ({"pieces": {"h1": "YK", "f18": "BK", "c3": ["YS"]}}, "unknown piece"),
        ({"pieces": {"h1": "YK", "f18": "BK", "c3": "YS" * 3000}}, "unknown piece 'YSYSYSYSYS"),
        ({"pieces": {"h1": "YK", "f18": "BK", "c3" * 3000: "YS"}}, "no square 'c3c3c3"),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "turn": "x" * 5000}, '"turn" is'),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "variant": ["x"] * 5000}, '"variant" is'),
        ({"pieces": {"h1": "YK", "f18": "BK", "c\u0663": "YS"}}, "no square"),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "unmoved": [["c3"]]}, "no square"),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "fluttember": {"blue": "no"}}, '"fluttember"'),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "note": [[[[["deep"]]]]]}, "nested deeper"),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "last": "e3-e5"}, '"last"'),
        ({"pieces": {"h1": "YK", "f18": "BK"}, "last": {"side": 0}}, '"last"'),
        ({"variant": "pastang", "pieces": {"a1": "YK", "f6": "BD"}}, "unknown piece 'YK'"),
        ({"variant": "pastang", "pieces": {}}, "no pieces on the board"),
        # Blue's Chuktar could take Yellow's King: Yellow cannot have moved into Kaida.
        (
            {"turn": "blue", "pieces": {"h1": "YK", "a1": "YD", "h9": "BC", "f18": "BK"}},
            "yellow's King can be taken",
        ),
    ],
)
def test_what_is_not_a_position_is_refused_in_one_line(data, message):
    with pytest.raises(ValueError) as error:
        Jikaida.from_position(data)
    text = str(error.value)
    assert message in text and "\n" not in text and len(text) < 200
