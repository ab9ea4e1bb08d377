"""Šačidjun rules, one test (or a few) per ruling of shared/rules/sachidjun.md.

Every expected value below was worked out by hand from the rulings, never by running the
engine. The ring, clockwise from SW: W1..W8, NW, N1..N8, NE, E1..E8, SE, S1..S8 (S8 is next
to SW). Raža go clockwise, čadra anticlockwise. Entry šake: veradi raža SW, tameg raža NE,
veradi čadra SE, tameg čadra NW. Roles (sub-turns): VR, TR, VC, TC = 0, 1, 2, 3.
Positions are written {cell: {role: count}}; pieces not placed are in their mora unless
listed as captured.
"""

from __future__ import annotations

import pytest

import games
from games import IllegalMove
from games.sachidjun import CELLS, INDEX, Sachidjun

VR, TR, VC, TC = 0, 1, 2, 3
RAZA, CADRA = 0, 1


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setitem(games.GAMES, Sachidjun.key, Sachidjun)


def position(
    cells: dict[str, dict[int, int]] | None = None,
    *,
    captured: dict[tuple[int, int], int] | None = None,
    role: int = VR,
    seats: int = 2,
    variants: tuple[str, ...] = (),
    empty_run: int = 0,
) -> Sachidjun:
    """A hand-made position. ``captured`` maps (captor mora role, victim role) -> count; the
    victim's colour is its role's colour. Every piece not on the ring or captured is home."""
    board = [[0, 0, 0, 0] for _ in range(36)]
    for name, counts in (cells or {}).items():
        for r, n in counts.items():
            board[INDEX[name]][r] += n
    prisoners = [[0, 0] for _ in range(4)]
    lost = [0, 0, 0, 0]
    for (mora, victim), n in (captured or {}).items():
        assert mora % 2 != victim % 2
        prisoners[mora][victim // 2] += n
        lost[victim] += n
    home = [8 - sum(c[r] for c in board) - lost[r] for r in range(4)]
    assert min(home) >= 0
    state = {
        "cells": board,
        "home": home,
        "prisoners": prisoners,
        "role": role,
        "dice": None,
        "options": [],
        "used": [0] * 36,
        "played": [],
        "landed": [],
        "empty_run": empty_run,
        "offer": None,
        "last": None,
    }
    return Sachidjun.from_dict(
        {
            "game": "sachidjun",
            "variants": list(variants),
            "seats": seats,
            "state": state,
            "log": [],
        }
    )


def at(game: Sachidjun, cell: str) -> list[int]:
    return game.cells[INDEX[cell]]


def total(game: Sachidjun) -> int:
    track = sum(sum(c) for c in game.cells)
    return track + sum(game.home) + sum(sum(p) for p in game.prisoners)


def assert_illegal(game: Sachidjun, move: str, *words: str) -> IllegalMove:
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        game.push_line(move)
    for word in words:
        assert word in info.value.reason
    assert game.to_json() == before
    return info.value


# ---- board, names, seats ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sachidjun", "sachi", "šači", "šačidjun", "Šačidjun", "SACHI"])
def test_registry_names(registry, name):
    assert games.game_class(name) is Sachidjun


def test_the_ring_of_36_cells():
    assert len(CELLS) == 36
    assert CELLS[0] == "SW" and CELLS[1] == "W1" and CELLS[8] == "W8"
    assert CELLS[9] == "NW" and CELLS[10] == "N1" and CELLS[18] == "NE"
    assert CELLS[19] == "E1" and CELLS[27] == "SE" and CELLS[28] == "S1" and CELLS[35] == "S8"


def test_start_all_pieces_home_veradi_raza_rolls_first():
    game = Sachidjun()
    assert game.home == [8, 8, 8, 8]
    assert all(sum(c) == 0 for c in game.cells)
    assert game.to_move == 0 and game.role == VR
    assert str(game.dice_needed()) == "2d8"
    assert game.legal_moves() == []
    assert game.status_line() == "Veradi raža to roll"


def test_each_colour_enters_by_its_own_šake_in_its_own_direction():
    # Roll 1-2: options {1, 2} (two pieces from the mora) or {3} (one piece).
    game = Sachidjun()
    game.roll((1, 2))
    assert game.legal_moves() == ["M-SW", "M-W1", "M-W2"]  # SW, then north
    game.push("M-W2")  # one piece 3: the roll is used up
    assert game.to_move == 1 and game.role == TR and game.dice_needed() is not None
    game.roll((1, 2))
    assert game.legal_moves() == ["M-E1", "M-E2", "M-NE"]  # NE, then south
    game.push("M-E2")
    assert game.to_move == 0 and game.role == VC
    game.roll((1, 2))
    assert game.legal_moves() == ["M-E7", "M-E8", "M-SE"]  # SE, then north
    game.push("M-E7")
    game.roll((2, 1))
    assert game.role == TC and game.to_move == 1
    assert game.legal_moves() == ["M-NW", "M-W7", "M-W8"]  # NW, then south
    game.push("M-NW")
    assert game.legal_moves() == ["M-W8"]  # the 2 by another piece (the mora ones)
    game.push("M-W8")
    assert game.role == VR
    assert at(game, "W2")[VR] == 1 and at(game, "E2")[TR] == 1 and at(game, "E7")[VC] == 1
    assert at(game, "NW")[TC] == 1 and at(game, "W8")[TC] == 1
    assert total(game) == 32


# ---- dice -------------------------------------------------------------------------------


def test_doubles_offer_d_2d_4d_never_3d():
    game = Sachidjun()
    game.roll((2, 2))
    # d = 2 (M-W1), 2d = 4 (M-W3), 4d = 8 (M-W7); 3d = 6 would be M-W5.
    assert game.legal_moves() == ["M-W1", "M-W3", "M-W7"]
    assert_illegal(game, "M-W5")


def test_doubles_four_times_d_by_four_different_pieces():
    game = Sachidjun()
    game.roll((2, 2))
    game.push("M-W1")
    # Left: {d, d, d} or {d, 2d}. The piece on W1 has moved; W1-W3 would move it again.
    assert game.legal_moves() == ["M-W1", "M-W3"]
    assert_illegal(game, "W1-W3")
    game.push_line("M-W1 M-W1 M-W1")
    assert at(game, "W1")[VR] == 4 and game.home[VR] == 4
    assert game.role == TR and game.dice is None


def test_doubles_d_d_and_2d_and_two_times_2d():
    game = Sachidjun()
    game.roll((3, 3))
    game.push_line("M-W2 M-W5")  # d then 2d: {d, 2d} left -> now {d}
    assert game.legal_moves() == ["M-W2"]
    game.push("M-W2")
    assert game.role == TR
    game = Sachidjun()
    game.roll((3, 3))
    game.push_line("M-W5 M-W5")  # 2d twice
    assert game.role == TR and at(game, "W5")[VR] == 2


def test_non_doubles_one_piece_a_plus_b_does_not_touch_down_at_a():
    # VR alone on W1 (the rest captured); a lone tameg raža on W4, two on W6.
    # Roll 3-5: W1+3 = W4 captures, W1+5 = W6 is held, W1+8 = NW passes both.
    game = position(
        {"W1": {VR: 1}, "W4": {TR: 1}, "W6": {TR: 2}},
        captured={(TR, VR): 7},
    )
    game.roll((3, 5))
    # One piece: {3, 5} can never be played whole; {8} can, so it must be.
    assert game.legal_moves() == ["W1-NW"]
    game.push("W1-NW")
    assert at(game, "W4")[TR] == 1  # passed, not captured
    assert at(game, "NW")[VR] == 1 and game.prisoners[VR] == [0, 0]
    assert game.role == TR


def test_roll_used_as_fully_as_possible_both_dice_over_one():
    # VR on W1 and W2; tameg holds W6, N2 and N3 (two each). Roll 4-6.
    # W1+4 = W5 ok, W1+6 = W7 ok (passes one held čika), W2+4 = W6 held, W2+6 = W8 ok;
    # W1+10 = N2 held, W2+10 = N3 held. Only W1 4 + W2 6 plays the whole roll.
    game = position(
        {"W1": {VR: 1}, "W2": {VR: 1}, "W6": {TR: 2}, "N2": {TC: 2}, "N3": {TR: 2}},
        captured={(TR, VR): 6},
    )
    game.roll((4, 6))
    assert game.legal_moves() == ["W1-W5", "W2-W8"]
    assert_illegal(game, "W1-W7")  # then the 4 could not be played
    game.push("W1-W5")
    assert game.legal_moves() == ["W2-W8"]


def test_the_most_pips_when_no_option_is_whole():
    # VR alone on W1; N2 held (W1+10). {4, 6} needs two pieces. 6 (W7) beats 4 (W5).
    cells = {"W1": {VR: 1}, "N2": {TR: 2}}
    game = position(cells, captured={(TR, VR): 7})
    game.roll((4, 6))
    assert game.legal_moves() == ["W1-W7"]
    game.push("W1-W7")
    assert game.role == TR  # nothing more can be played
    # With W7 held as well, only the 4 is left.
    game = position(cells | {"W7": {TC: 2}}, captured={(TR, VR): 7})
    game.roll((4, 6))
    assert game.legal_moves() == ["W1-W5"]


def test_a_roll_with_no_legal_move_passes_at_once_and_is_recorded():
    # Raža may not pass two held čike in a row: VR alone on W1, tameg holds W3 and W4.
    # Roll 4-6: every size (4, 6, 10) passes W3 and W4.
    game = position({"W1": {VR: 1}, "W3": {TR: 2}, "W4": {TC: 2}}, captured={(TR, VR): 7})
    game.roll((4, 6))
    assert game.role == TR and game.to_move == 1 and game.dice is None
    assert game.log[-1].dice == (4, 6) and game.log[-1].seat == 0
    assert game.last_pass == {"role": VR, "dice": [4, 6]}
    assert game.empty_run == 1
    assert game.moves() == []


# ---- passing and holding ----------------------------------------------------------------


def test_raza_may_pass_one_held_čika_but_not_two_in_a_row():
    # Only W3 held, W4 a single piece: W1+10 = N2 passes W3 and W4 legally.
    game = position({"W1": {VR: 1}, "W3": {TR: 2}, "W4": {TC: 1}}, captured={(TR, VR): 7})
    game.roll((4, 6))
    assert game.legal_moves() == ["W1-N2"]


def test_cadra_passes_two_held_čike_but_not_three():
    # VC alone on E8, moving to E7, E6, E5, ...; tameg holds E7 and E6. Roll 4-6:
    # E8-4 = E4, E8-6 = E2, E8-10 = N7 (passes E7..E1, NE, N8). {10} is whole.
    cells = {"E8": {VC: 1}, "E7": {TR: 2}, "E6": {TC: 2}}
    game = position(cells, captured={(TC, VC): 7}, role=VC)
    game.roll((4, 6))
    assert game.legal_moves() == ["E8-N7"]
    # Hold E5 too: three in a row, every move passes them.
    game = position(cells | {"E5": {TR: 2}}, captured={(TC, VC): 7}, role=VC)
    game.roll((4, 6))
    assert game.role == TC and game.last_pass == {"role": VC, "dice": [4, 6]}


def test_held_šake_blocks_landing_passing_and_entry():
    # Four tameg pieces on SW: VR can neither enter (M-SW lands, M-W1 passes) nor pass
    # from S8. VR: 1 on S8, the rest home. Every move passes or lands on SW -> pass.
    game = position({"SW": {TR: 2, TC: 2}, "S8": {VR: 1}})
    game.roll((1, 2))
    assert game.role == TR and game.last_pass == {"role": VR, "dice": [1, 2]}


def test_three_on_a_šake_do_not_hold_it():
    game = position({"SW": {TR: 3}, "S8": {VR: 1}})
    game.roll((1, 2))
    # Land on SW (joins a combat, written with -) or pass it.
    assert game.legal_moves() == ["M-SW", "M-W1", "M-W2", "S8-SW", "S8-W1", "S8-W2"]


def test_friends_share_points_and_never_hold_against_each_other():
    # Two veradi čadra on W3, W4: no obstacle for veradi raža.
    game = position({"W1": {VR: 1}, "W3": {VC: 2}, "W4": {VC: 2}}, captured={(TR, VR): 7})
    game.roll((1, 2))
    assert game.legal_moves() == ["W1-W4"]  # {3} whole (one piece); lands on friends
    game.push("W1-W4")
    assert at(game, "W4") == [1, 0, 2, 0]


# ---- captures -----------------------------------------------------------------------------


def test_capture_on_a_čika_goes_to_the_captors_mora():
    game = position({"W1": {VR: 1}, "W4": {TR: 1}}, captured={(TR, VR): 6})
    game.roll((3, 5))  # W1+3 = W4 (capture), M+5 = W4 (capture) by another piece, ...
    assert "W1xW4" in game.legal_moves()
    assert game.normalize("w1-w4") == "W1xW4"
    game.push("W1-W4")
    assert game.moves() == ["W1xW4"]
    assert at(game, "W4") == [1, 0, 0, 0]
    assert game.prisoners[VR] == [1, 0]  # a tameg raža in the veradi light mora
    assert game.last["captured"] == "tameg raža"


def test_cadra_captures_into_the_dark_mora():
    # VC on E8 lands on E5 (3) where a lone tameg čadra stands.
    game = position({"E8": {VC: 1}, "E5": {TC: 1}}, captured={(TC, VC): 7}, role=VC)
    game.roll((1, 2))
    assert game.legal_moves() == ["E8xE5"]
    game.push("E8-E5")
    assert game.prisoners[VC] == [0, 1] and game.prisoners[VR] == [0, 0]


def test_a_lone_piece_on_a_šake_is_captured_at_once():
    game = position({"W6": {VR: 1}, "NW": {TC: 1}}, captured={(TR, VR): 7})
    game.roll((1, 2))  # W6+3 = NW
    assert game.legal_moves() == ["W6xNW"]
    game.push("W6xNW")
    assert at(game, "NW") == [1, 0, 0, 0] and game.prisoners[VR] == [0, 1]
    assert game.ties() == []


def test_šake_combat_tie_stands_then_is_resolved_by_a_later_landing():
    # Two tameg raža on NW; VR on W6 and W7 land 3 and 2: two against two, a tie.
    game = position({"NW": {TR: 2}, "W6": {VR: 1}, "W7": {VR: 1}}, captured={(TR, VR): 6})
    game.roll((2, 3))
    assert "W6-NW" in game.legal_moves() and "W7-NW" in game.legal_moves()
    game.push_line("W6-NW W7-NW")
    assert at(game, "NW") == [2, 2, 0, 0]
    assert game.ties() == ["NW"] and game.role == TR
    assert game.last["resolved"] == [{"cell": "NW", "result": "tie", "count": 2}]


def test_standing_tie_resolved_in_favour_of_more_pieces():
    # A 2-2 tie on NW; VR on W8 lands 1 more, another VR enters with the 2: 3 against 2.
    game = position({"NW": {VR: 2, TR: 2}, "W8": {VR: 1}}, captured={(TR, VR): 2})
    assert game.ties() == ["NW"]
    game.roll((1, 2))
    game.push("W8-NW")
    assert game.ties() == []  # pending until the sub-turn ends
    assert at(game, "NW") == [3, 2, 0, 0]
    game.push("M-W1")
    assert at(game, "NW") == [3, 0, 0, 0]
    # Veradi has only raža there: the light mora takes them.
    assert game.prisoners[VR] == [2, 0]
    assert game.ties() == [] and game.role == TR


def test_šake_combat_newcomers_fewer_are_captured():
    game = position({"NW": {TR: 2, TC: 1}, "W8": {VR: 1}})
    game.roll((1, 2))
    game.push_line("W8-NW M-W1")  # 1 against 3
    assert at(game, "NW") == [0, 2, 0, 1]
    # Tameg has more raža than čadra on NW: the tameg light mora.
    assert game.prisoners[TR] == [1, 0]
    assert total(game) == 32


def test_combat_captures_go_to_the_light_mora_on_an_equal_split():
    # NE: 1 veradi čadra beside 2 tameg čadra. VR lands N8+1 and N7+2: veradi 2 raža +
    # 1 čadra = 3 against 2; veradi has most raža there, so its light mora takes them.
    game = position(
        {"NE": {VC: 1, TC: 2}, "N7": {VR: 1}, "N8": {VR: 1}},
        captured={(TR, VR): 6},
    )
    game.roll((1, 2))
    game.push_line("N8-NE N7-NE")
    assert at(game, "NE") == [2, 0, 1, 0]
    assert game.prisoners[VR] == [0, 2]
    game = position(
        {"NE": {VC: 2, TC: 3}, "N7": {VR: 1}, "N8": {VR: 1}},
        captured={(TR, VR): 6},
    )
    game.roll((1, 2))
    game.push_line("N8-NE N7-NE")  # 2 raža + 2 čadra vs 3: equal split -> light mora
    assert game.prisoners[VR] == [0, 3] and game.prisoners[VC] == [0, 0]


# ---- notation and lines -------------------------------------------------------------------


def test_normalize_case_and_capture_mark():
    game = position({"W1": {VR: 1}, "W4": {TR: 1}}, captured={(TR, VR): 6})
    game.roll((3, 5))
    assert game.normalize("m-w2") == "M-W2"
    assert game.normalize("W1-W4") == "W1xW4"
    assert game.normalize("w1xw4") == "W1xW4"
    assert game.normalize("M x W2") == "M-W2"


def test_whole_turn_on_one_line_equals_moves_one_at_a_time():
    cells = {"W2": {VR: 1}}
    one = position(cells)
    one.roll((1, 5))
    assert one.push_line("M-SW W2-W7") == ["M-SW", "W2-W7"]
    two = position(cells)
    two.roll((1, 5))
    two.push("M-SW")
    two.push("W2-W7")
    assert one.to_json() == two.to_json()
    assert one.role == TR


def test_a_bad_line_changes_nothing():
    game = position({"W2": {VR: 1}})
    game.roll((1, 5))
    error = assert_illegal(game, "M-SW W2-W8")
    assert "move 2 of 2" in error.reason


# ---- the end ------------------------------------------------------------------------------


def test_win_by_capturing_every_opponent_piece_stops_the_roll():
    game = position(
        {"W1": {VR: 1}, "W4": {TR: 1}},
        captured={(VR, TR): 7, (VC, TC): 8},
    )
    game.roll((3, 5))
    game.push("W1xW4")
    assert game.is_over and game.outcome.winners == (0,)
    assert "captured every tameg piece" in game.outcome.reason
    assert game.legal_moves() == [] and game.to_move is None


def test_using_the_roll_fully_outranks_a_winning_capture():
    # VR alone on W1, the last tameg piece alone on W4. Roll 3-5: W1xW4 would win, but
    # one piece cannot play {3, 5}; {8} (W1-NW, passing W4) is whole and must be played.
    game = position(
        {"W1": {VR: 1}, "W4": {TR: 1}},
        captured={(TR, VR): 7, (VR, TR): 7, (VC, TC): 8},
    )
    game.roll((3, 5))
    assert game.legal_moves() == ["W1-NW"]
    assert_illegal(game, "W1xW4")
    game.push("W1-NW")
    assert not game.is_over


def test_win_by_shutting_the_opponent_in_its_moras():
    # Every tameg piece home; veradi holds NE (4) and has 3 on NW; W8+1 makes NW four.
    game = position({"NE": {VR: 4}, "NW": {VR: 3}, "W8": {VR: 1}})
    assert not game.is_over
    game.roll((1, 2))
    assert "W8-NW" in game.legal_moves()
    game.push("W8-NW")
    assert game.is_over and game.outcome.winners == (0,)
    assert "shut in" in game.outcome.reason
    assert game.status_line().startswith("Veradi wins")


def test_no_shut_in_win_while_an_opponent_piece_is_on_the_track():
    game = position({"NE": {VR: 4}, "NW": {VR: 3}, "W8": {VR: 1}, "S3": {TC: 1}})
    game.roll((1, 2))
    game.push("W8-NW")
    assert not game.is_over


def test_four_sub_turns_in_a_row_without_a_move_tie_the_game():
    # VR: everything home, SW held by four tameg čadra. TR: every piece captured.
    cells = {"SW": {TC: 4}}
    game = position(cells, captured={(VR, TR): 8})
    game.roll((1, 2))
    game.roll((3, 4))
    assert game.empty_run == 2 and game.role == VC
    game.roll((1, 2))  # veradi čadra can enter at SE
    assert game.role == VC and game.empty_run == 2
    game.push("M-E7")  # a move breaks the run
    assert game.empty_run == 0
    game = position(cells, captured={(VR, TR): 8}, empty_run=3)
    game.roll((5, 6))
    assert game.is_over and game.outcome.is_draw
    assert "four sub-turns" in game.outcome.reason


def test_resign_and_agreed_draw_come_from_the_base_class():
    game = Sachidjun(seats=4)
    game.resign(3)  # tameg čadra gives up for its side
    assert game.outcome.winners == (0, 2)
    game = Sachidjun()
    game.agree_draw()
    assert game.outcome.is_draw


# ---- seats ---------------------------------------------------------------------------------


def roll_and_play_first(game: Sachidjun) -> int:
    seat, role = game.to_move, game.role
    game.roll((1, 2))
    while game.role == role:
        game.push(game.legal_moves()[0])
    return seat


def test_four_seats_one_per_colour_and_side():
    game = Sachidjun(seats=4)
    assert game.seat_names == ("Veradi raža", "Tameg raža", "Veradi čadra", "Tameg čadra")
    assert [roll_and_play_first(game) for _ in range(5)] == [0, 1, 2, 3, 0]
    assert game.status_line() == "Tameg raža to roll"
    assert game.seats_of_side(0) == (0, 2)


def test_three_seats_veradi_is_the_pair_by_default():
    game = Sachidjun(seats=3)
    assert game.seat_names == ("Veradi raža", "Tameg", "Veradi čadra")
    assert [roll_and_play_first(game) for _ in range(5)] == [0, 1, 2, 1, 0]


def test_three_seats_tameg_pair_variant():
    game = Sachidjun(["tameg-pair"], seats=3)
    assert game.seat_names == ("Veradi", "Tameg raža", "Tameg čadra")
    assert [roll_and_play_first(game) for _ in range(5)] == [0, 1, 0, 2, 0]
    with pytest.raises(ValueError):
        Sachidjun(["tameg-pair"], seats=2)


def test_a_win_names_every_seat_of_the_side():
    game = position(
        {"W1": {VR: 1}, "W4": {TR: 1}},
        captured={(VR, TR): 7, (VC, TC): 8},
        seats=4,
    )
    game.roll((3, 5))
    game.push("W1xW4")
    assert game.outcome.winners == (0, 2)
    assert game.status_line() == (
        "Veradi (Veradi raža and Veradi čadra) wins: veradi captured every tameg piece"
    )


def test_text_board_describe_and_summary():
    game = position({"NW": {VR: 2, TR: 2}, "W8": {VR: 1}, "E4": {TC: 3}}, captured={(TR, VR): 2})
    board = game.text_board()
    for name in ("SW", "W1", "W8", "NW", "N1", "N8", "NE", "E1", "E8", "SE", "S1", "S8"):
        assert name in board
    assert "R2r2" in board and "c3" in board
    assert "b2 veradi raža: 3" in board and "c3 tameg raža: 6" in board
    assert "holds 2 raža, 0 čadra" in board  # the two veradi raža in the tameg light mora
    assert "standing ties: NW" in board
    game.roll((1, 2))
    assert game.describe_move("W8-NW") == "raža from W8 1 to NW — joins the šake combat"
    assert game.describe_move("M-W1") == "raža from the mora 2 to W1"
    fields = dict(game.summary())
    assert fields["Dice"] == "1 2 — 3 pips left"
    assert fields["Veradi"] == "11 in mora · 3 on the track · 2 captured"
    assert fields["Tameg"] == "11 in mora · 5 on the track · 0 captured"
    assert fields["Standing ties"] == "NW"


# ---- redemption ----------------------------------------------------------------------------


def prisoners_position(**kwargs) -> Sachidjun:
    # Veradi holds one tameg raža; tameg holds two veradi čadra.
    return position(
        {"W3": {VR: 1}},
        captured={(VR, TR): 1, (TR, VC): 2},
        **kwargs,
    )


def test_exchange_offer_before_rolling_accepted():
    game = prisoners_position()
    assert game.push("offer:give(1r)+get(2c)") == "offer:give(1r)+get(2c)"
    assert game.to_move == 1 and game.phase == "redemption"
    assert game.dice_needed() is None
    assert game.legal_moves() == ["accept", "refuse"]
    game.push("accept")
    assert game.prisoners == [[0, 0]] * 4
    assert game.home[TR] == 8 and game.home[VC] == 8
    assert game.to_move == 0 and str(game.dice_needed()) == "2d8"
    assert [entry.seat for entry in game.log] == [0, 1]
    assert total(game) == 32


def test_offer_refused_is_final_and_the_game_goes_on():
    game = prisoners_position()
    game.roll((1, 2))
    game.push("OFFER:give(1R)+get(1c)")
    game.push("refuse")
    assert game.to_move == 0 and game.prisoners[VR] == [1, 0]
    assert_illegal(game, "offer:give(1r)+get(1c)", "refused")
    game.push("W3-W6")
    assert game.role == TR


def test_position_offer_sends_named_pieces_home():
    game = prisoners_position()
    game.push("offer:home(rW3)+get(1c)")
    game.push("accept")
    assert at(game, "W3")[VR] == 0 and game.home[VR] == 8 and game.home[VC] == 7
    assert game.prisoners[TR] == [0, 1]


def test_offers_expire_with_the_first_move_and_ask_only_what_is_held():
    game = prisoners_position()
    assert_illegal(game, "offer:give(2r)+get(1c)", "give")  # veradi holds only one
    assert_illegal(game, "offer:home(rW4)+get(1c)", "W4")
    game.roll((1, 2))
    game.push("M-SW")
    assert_illegal(game, "offer:give(1r)+get(1c)", "first move")
    game.push("M-W1")  # the 2 by another piece from the mora
    assert game.offer is None and game.role == TR


@pytest.mark.parametrize(
    "offer",
    [
        "offer:give(1x)+get(1c)",
        "offer:give(one,raza)+get(1c)",  # /sachi offer give:"one raza"
        "offer:give(\N{GAME DIE})+get(1c)",
        "offer:give(1r)+get(1x)",
        "offer:give(1r)+get()",
        "offer:give(1r)+get(" + "1" * 5000 + "c)",  # past Python's int limit
        "offer:give(1r)+get(1000c)",
        "offer:give(1r)+get(" + "x" * 5000 + ")",
        "offer:home(\N{GAME DIE})+get(1c)",
        "offer:home(one,raza)+get(1c)",
        "offer:home(rW3)+get(1x)",
    ],
)
def test_malformed_offers_are_answered_with_the_offer_notation(offer):
    # Veradi holds a tameg raža and tameg two veradi čadra: the checks of what is held come
    # after the notation, which must refuse each of these.
    assert_illegal(prisoners_position(), offer, "offer:give(2r,1c)+get(1r)")


def test_four_seats_an_offer_names_its_opponent():
    game = prisoners_position(seats=4)
    assert_illegal(game, "offer:give(1r)+get(1c)", "@r")
    game.push("offer:give(1r)+get(1c)@c")
    assert game.to_move == 3
    game.push("refuse")
    assert game.to_move == 0


def test_offers_are_in_the_log_and_replay():
    start = prisoners_position()
    game = start.copy()
    game.push("offer:give(1r)+get(1c)")
    game.push("refuse")
    game.roll((1, 2))
    game.push("offer:home(rW3)+get(2c)")
    assert game.copy().to_json() == game.to_json()  # a pending offer survives JSON
    game.push("accept")
    assert [str(e) for e in game.log] == [
        "offer:give(1r)+get(1c)",
        "refuse",
        "[1 2]",
        "offer:home(rW3)+get(2c)",
        "accept",
    ]
    again = start.copy()
    again.replay(game.log)
    assert again.to_json() == game.to_json()
    assert game.home[VR] == 8 and game.home[VC] == 8 and game.to_move == 0
    assert "M-W2" in game.legal_moves()  # the roll still stands; pieces re-enter normally


def test_a_redemption_that_leaves_no_legal_move_passes_the_sub_turn():
    # VR: one piece on W3, seven captured; SW held by four tameg raža. After the roll,
    # VR sends W3 home for one raža back: both then sit behind the held SW.
    game = position({"W3": {VR: 1}, "SW": {TR: 4}}, captured={(TR, VR): 7, (VR, TR): 1})
    game.roll((1, 2))
    game.push("offer:home(rW3)+get(1r)")
    game.push("accept")
    assert game.home[VR] == 2 and game.role == TR and game.dice is None
    assert game.last_pass == {"role": VR, "dice": [1, 2]} and game.empty_run == 1


def test_four_real_empty_sub_turns_in_a_row():
    # Veradi raža on E5, E7, E8 (two each) with four tameg čadra holding SE just past them;
    # tameg raža all captured; veradi čadra all home behind the held SE; the tameg čadra on
    # SE meet held E8, E7 (2 in a row: may pass) and E5.
    cells = {"E5": {VR: 2}, "E7": {VR: 2}, "E8": {VR: 2}, "SE": {TC: 4}}
    captured = {(TR, VR): 2, (VR, TR): 8, (VC, TC): 4}
    game = position(cells, captured=captured)
    game.roll((4, 5))  # 4, 5, 9 from E5/E7/E8 all land on or pass the held SE
    game.roll((3, 6))  # tameg raža: nothing left to move
    game.roll((2, 7))  # veradi čadra: SE is held
    assert game.empty_run == 3 and game.role == TC and not game.is_over
    twin = game.copy()
    twin.roll((1, 2))  # 3 from SE lands on the free E6
    assert twin.legal_moves() == ["SE-E6"] and twin.empty_run == 3
    game.roll((1, 1))  # 1 -> E8, 2 -> E7, 4 -> E5: all held
    assert game.is_over and game.outcome.is_draw
    assert game.outcome.reason == "four sub-turns in a row without a legal move"
    assert [entry.dice for entry in game.log] == [(4, 5), (3, 6), (2, 7), (1, 1)]


# ---- menus, seats and the line rule ---------------------------------------------------------


def test_whole_sub_turns_for_the_menu_one_per_result():
    # Start, roll 3-5: single moves M-W2 (3), M-W4 (5), M-W7 (8). Whole sub-turns: two pieces
    # enter (3 and 5) -> "M-W2 M-W4" once (M-W4 M-W2 gives the same position); the 8 alone is
    # a single move, not a line.
    game = Sachidjun()
    assert game.line_choices() == []  # no roll yet
    game.roll((3, 5))
    assert game.line_choices() == [("M-W2 M-W4", "whole sub-turn: 3 + 5")]


def test_whole_sub_turn_lines_use_the_whole_roll_and_count_captures():
    # VR on W1 (seven more at home); lone tameg raža on W4 and W7. Roll 3-3, all by different
    # pieces: 4x3 = four entries (M-W2) or three and W1xW4; 2x6 = M-W5 twice or M-W5 and
    # W1xW7; 3+3+6 = W1xW7 with two entries, or M-W5 with two of {M-W2, M-W2, W1xW4};
    # 12 is one piece (a single move, not a line). One line per resulting position.
    game = position({"W1": {VR: 1}, "W4": {TR: 1}, "W7": {TR: 1}})
    game.roll((3, 3))
    lines = dict(game.line_choices())
    assert lines == {
        "M-W2 M-W2 M-W2 M-W2": "whole sub-turn: 3 + 3 + 3 + 3",
        "M-W2 M-W2 M-W2 W1xW4": "whole sub-turn: 3 + 3 + 3 + 3, 1 capture",
        "M-W2 M-W2 M-W5": "whole sub-turn: 3 + 3 + 6",
        "M-W2 M-W2 W1xW7": "whole sub-turn: 3 + 3 + 6, 1 capture",
        "M-W2 W1xW4 M-W5": "whole sub-turn: 3 + 3 + 6, 1 capture",
        "M-W5 M-W5": "whole sub-turn: 6 + 6",
        "M-W5 W1xW7": "whole sub-turn: 6 + 6, 1 capture",
    }
    for line in lines:
        trial = game.copy()
        trial.push_line(line)  # every line offered really plays, and ends the sub-turn
        assert trial.role == TR


def test_a_line_ends_where_the_game_is_won():
    # The last tameg piece is a čadra alone on W3; VR rolls 4-5: M-W3 (4) captures it and wins;
    # the 5 typed after it is not played ("the rest of the roll is then not played").
    game = position({"W3": {TC: 1}}, captured={(VR, TR): 8, (VC, TC): 7})
    game.roll((4, 5))
    assert game.push_line("M-W3 M-W4") == ["MxW3"]
    assert game.is_over and game.outcome.winners == (0,)
    assert game.moves() == ["MxW3"]


def test_offers_do_not_wait_for_the_roll_and_are_answered_by_buttons():
    game = prisoners_position()
    assert not game.waits_for_roll("offer:give(1r)+get(1c)")
    assert game.waits_for_roll("M-SW")
    assert game.answer_choices() == []
    game.push("offer:give(1r)+get(1c)")
    assert game.answer_choices() == [("accept", "Accept the offer"), ("refuse", "Refuse the offer")]
    assert game.mover_name() == "Tameg"  # the seat addressed answers
    game.push("refuse")
    assert game.mover_name() == "Veradi raža"
    assert dict(game.summary())["Last move"] == (
        "Tameg refused the redemption offer `give(1r)+get(1c)`"
    )


def test_seating_and_teams():
    assert Sachidjun.seating((1,), (2,)) == ((1, 2), ())
    assert Sachidjun.seating((1, 3), (2, 4)) == ((1, 2, 3, 4), ())
    assert Sachidjun.seating((1, 3), (2,)) == ((1, 2, 3), ())
    assert Sachidjun.seating((1,), (2, 4)) == ((1, 2, 4), ("tameg-pair",))
    four = Sachidjun(seats=4)
    assert [four.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert four.team_seats(2) == (0, 2)
    pair = Sachidjun(["tameg-pair"], 3)
    assert [pair.team_of(s) for s in range(3)] == [0, 1, 1]
