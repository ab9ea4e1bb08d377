"""Chebache rules, one test (or a few) per ruling of shared/rules/chebache.md.

Every expected value below was worked out by hand from the rulings and the board table,
never by running the engine. Spaces are each player's own path numbers (S, 1..17, F).
Positions are written {space: stack} per player with stacks bottom to top as runs ("2",
"K", "1K"); pieces not placed stay in Start, or go to Finish when the spec names "S".
Useful physical identities (from the table): White 5 = Black 17 = I(cd,34); White 17 =
Black 5 = I(cd,12); White 15 = Black 3 = I(bc,12); White 1 = Black 13 = I(ab,34);
White 13 = Black 1; White 3 = Black 15; 7, 9, 11 are the same for both.
"""

from __future__ import annotations

import pytest

import games
from games import DiceSpec, IllegalMove
from games.chebache import KINGS, PATHS, Chebache

W, B = 0, 1

TABLE = """
S a1 a4
1 I(ab,12) I(ab,34)
2 b2 b3
3 I(bc,12) I(bc,34)
4 c1 c4
5 I(cd,12) I(cd,34)
6 d2 d3
7 I(cd,23) I(cd,23)
8 c3 c2
9 I(bc,23) I(bc,23)
10 b2 b3
11 I(ab,23) I(ab,23)
12 a3 a2
13 I(ab,34) I(ab,12)
14 b4 b1
15 I(bc,34) I(bc,12)
16 c3 c2
17 I(cd,34) I(cd,12)
F d4 d1
"""


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, Chebache.key, Chebache)


def at(white, black, dice=None, turn=W) -> Chebache:
    return Chebache.from_position(white, black, turn=turn, dice=dice)


def play(game: Chebache, moves: str) -> Chebache:
    for move in moves.split():
        game.push(move)
    return game


def where(game: Chebache, seat: int) -> dict[int, int]:
    """Path space -> number of ``seat``'s pieces there (Kings included)."""
    b = game.board
    found: dict[int, int] = {}
    for p in b.mine(seat):
        found[b.pos[p]] = found.get(b.pos[p], 0) + 1
    return found


# ---- board and paths ------------------------------------------------------------------


def test_paths_follow_the_rulings_table():
    def name(space: str) -> str:
        return f"I({space[:2]},{space[2:]})" if len(space) == 4 else space

    for line in TABLE.strip().splitlines():
        space, black, white = line.split()
        n = {"S": 0, "F": 18}.get(space)
        n = int(space) if n is None else n
        assert name(PATHS[B][n]) == black
        assert name(PATHS[W][n]) == white


def test_x4_at_17_white_5_is_black_17():
    # The text: "[3 3]; 2(2X5), 2(8X5); X4@17 ... the opponent's number for the same space is 17"
    assert PATHS[W][5] == PATHS[B][17] == "cd34"
    assert PATHS[W][17] == PATHS[B][5] == "cd12"


def test_squares_visited_twice_are_one_space_and_each_colour_uses_its_own_squares():
    for seat in (W, B):
        assert PATHS[seat][2] == PATHS[seat][10]
        assert PATHS[seat][8] == PATHS[seat][16]
    white = {PATHS[W][n] for n in range(0, 19, 2)}
    black = {PATHS[B][n] for n in range(0, 19, 2)}
    assert len(white) == len(black) == 8 and not white & black
    assert "a4" in white and "a1" in black  # a4 light (White's), a1 dark (Black's)
    odd = {PATHS[W][n] for n in range(1, 18, 2)}
    assert odd == {PATHS[B][n] for n in range(1, 18, 2)} and len(odd) == 9


def test_setup_everything_in_start_white_rolls_two_d6():
    game = Chebache()
    assert Chebache.key == "chebache" and Chebache.seat_names == ("White", "Black")
    assert where(game, W) == {0: 13} and where(game, B) == {0: 13}
    assert game.to_move == W and game.dice_needed() == DiceSpec(2, 6)
    assert game.legal_moves() == []
    assert game.position_line(W) == "W: 12K@S" and game.position_line(B) == "B: 12K@S"


def test_first_roll_moves_from_start_king_included():
    game = Chebache()
    game.roll((5, 2))
    assert game.legal_moves() == ["K(S/2)", "K(S/5)", "S/2", "S/5"]
    play(game, "S/5 K(S/2)")
    assert game.to_move == B and game.dice_needed() is not None
    assert game.turn_log() == ["1W: [5 2]; S/5, K(S/2)"]
    assert game.position_line(W) == "W: 11@S, K@2, 1@5"


# ---- Phase I: dice -------------------------------------------------------------------


def test_doubles_give_four_moves():
    game = Chebache()
    game.roll((3, 3))
    play(game, "S/3 S/3 S/3")
    assert game.to_move == W and game.board.dice == [3]
    game.push("S/3")
    assert game.to_move == B


def test_one_piece_may_take_both_dice():
    game = at({2: "1"}, {}, dice=(5, 2))
    play(game, "2/7 7/9")
    assert game.board.pos[game.board.stacks["bc23"][0]] == 9


def test_backward_only_from_a_tivit_or_with_the_king():
    game = at({8: "1", 6: "1", 12: "K"}, {}, dice=(2, 1))
    legal = game.legal_moves()
    assert "8\\6" in legal and "8\\7" in legal
    assert "6\\4" not in legal and "6\\5" not in legal
    assert "K(12\\10)" in legal and "K(12\\11)" in legal


def test_never_back_into_start():
    game = at({2: "1"}, {}, dice=(2, 1))
    legal = game.legal_moves()
    assert "2\\1" in legal
    assert not [m for m in legal if m.startswith("2\\") and m != "2\\1"]


def test_no_return_to_stay():
    # A lone King on 6 (the rest in Finish) with [1 1]: after 6/7, 7/8, 8\7 the last 1
    # could only go 7/8 or back to 6, where it started the turn.
    game = at({"S": "0", 6: "K"}, {}, dice=(1, 1))
    play(game, "K(6/7) K(7/8) K(8\\7)")
    assert game.legal_moves() == ["K(7/8)"]


def test_passing_the_starting_space_is_fine_and_2_to_10_is_not_a_return():
    game = at({"S": "0", 2: "1"}, {}, dice=(4, 4))
    game.push("2/6")
    assert "6/10" in game.legal_moves()  # path 10 is b3 again, but not space 2


def test_stacking_limit_and_passing_over_a_full_stack():
    game = at({5: "4", 3: "1"}, {}, dice=(5, 4))
    legal = game.legal_moves()
    assert "S/5" not in legal and "K(S/5)" not in legal
    assert "3/7" in legal  # passes over the full stack on 5
    king = at({5: "1K"}, {}, dice=(5, 1))
    assert "S/5" in king.legal_moves()  # King counts 2: 1 + 2 + 1 = 4
    assert "K(S/5)" not in king.legal_moves()  # 1 + 2 + 2 = 5


def test_only_the_top_piece_moves_and_a_covered_king_waits():
    covered = at({4: "K1"}, {}, dice=(2, 1))
    assert not [m for m in covered.legal_moves() if m.startswith("K(4")]
    assert "4/6" in covered.legal_moves()
    on_top = at({4: "1K"}, {}, dice=(2, 1))
    assert "K(4/6)" in on_top.legal_moves() and "4/6" not in on_top.legal_moves()


# ---- intersections and attacks ---------------------------------------------------------


def test_single_attack_sends_the_defender_to_start():
    game = at({3: "1"}, {17: "1"}, dice=(2, 6))
    assert "3X5" in game.legal_moves() and "3/5" not in game.legal_moves()
    game.push("3X5")
    assert where(game, B)[0] == 13
    assert game.board.controller("cd34") == W
    assert game.current["events"] == ["X1@17"]


def test_attack_that_cannot_be_completed_is_not_offered():
    # Two Black pieces on W5; White has two pieces on 3 and the rest in Finish. With [2 5]
    # only one attacker can reach 5, so 3X5 is not legal.
    game = at({"S": "0", 3: "2"}, {17: "2"}, dice=(2, 5))
    assert game.legal_moves() == ["3/8"]


def test_attackers_short_of_the_defenders_may_not_move_on():
    game = at({3: "2"}, {17: "2"}, dice=(2, 2))
    game.push("3X5")
    assert game.board.pending == {"cd34"}
    assert game.board.controller("cd34") == B  # the defender keeps control meanwhile
    assert not [m for m in game.legal_moves() if m.startswith("5")]
    game.push("3X5")
    assert game.board.pending == set() and game.board.controller("cd34") == W
    assert where(game, B)[0] == 13


def test_the_texts_example_2_2x5_2_8x5_x4_at_17():
    game = at({"S": "0", 2: "2", 8: "2"}, {17: "4"}, dice=(3, 3))
    play(game, "2X5 2X5 8X5 8X5")
    assert game.to_move == B  # nothing to jump: the turn ends by itself
    assert game.turn_log() == ["1W: [3 3]; 2X5, 2X5, 8X5, 8X5; X4@17"]
    assert where(game, B)[0] == 13 and where(game, W)[5] == 4


def test_the_texts_king_attacking_second_ends_on_top():
    # "2X5, K(11X5)": 1 + 2 = 3 attackers' worth against Black's 3 pieces on its 17.
    game = at({2: "1", 11: "K"}, {17: "3"}, dice=(3, 6))
    play(game, "2X5 K(11X5)")
    stack = game.board.stacks["cd34"]
    assert stack[-1] == KINGS[W] and len(stack) == 2
    assert where(game, B)[0] == 13
    other = at({2: "1", 11: "K"}, {17: "3"}, dice=(3, 6))
    play(other, "K(11X5) 2X5")
    assert other.board.stacks["cd34"][0] == KINGS[W]  # the King is covered


def test_king_may_not_attack_a_king_but_may_attack_pieces_counting_two():
    game = at({3: "K"}, {17: "K"}, dice=(2, 1))
    assert "K(3X5)" not in game.legal_moves()
    game = at({3: "K"}, {17: "2"}, dice=(2, 1))
    game.push("K(3X5)")
    assert where(game, B)[0] == 13 and game.board.controller("cd34") == W


def test_lone_king_captured_by_two_pieces_flips_on_top():
    game = at({3: "2"}, {17: "K", 4: "1"}, dice=(2, 2))
    play(game, "3X5 3X5")
    b = game.board
    assert b.owner[KINGS[B]] == W and b.pos[KINGS[B]] == 5
    stack = b.stacks["cd34"]
    assert stack[-1] == KINGS[B] and len(stack) == 3
    assert game.current["events"] == ["XK@17", "K(B->W@5)"]


def test_a_king_captured_this_turn_may_not_return_to_its_capture_point():
    # White holds Black's King on White 17 = Black 5. Black takes it with 3X5 3X5; its
    # turn-start space is now the capture point, Black 5. After K(5/7) the last 2 may not
    # bring it back there (K(7\5)); it may go on to 7/9.
    game = at({"S": "12", "F": "K", 17: "K"}, {3: "2"}, dice=(2, 2), turn=B)
    play(game, "3X5 3X5 K(5/7)")
    legal = game.legal_moves()
    assert "K(7\\5)" not in legal
    assert "K(7/9)" in legal
    with pytest.raises(IllegalMove):
        game.push("K(7\\5)")


def test_a_captured_king_compares_in_its_new_owners_numbers():
    # Black's King held by White on White 3 = Black 15 (I(bc,34)). Black takes it with
    # 9X15 9X15, then K(15\9). The last 6: K(9\3) ends on Black 3 = I(bc,12), not the
    # capture point (its old owner's number 3 means nothing now): legal. K(9/15) ends on
    # the capture point: illegal.
    game = at({"S": "12", "F": "K", 3: "K"}, {9: "2"}, dice=(6, 6), turn=B)
    play(game, "9X15 9X15 K(15\\9)")
    legal = game.legal_moves()
    assert "K(9\\3)" in legal
    assert "K(9/15)" not in legal
    game.push("K(9\\3)")
    assert game.board.turn == W
    assert game.board.owner[KINGS[B]] == B and game.board.pos[KINGS[B]] == 3


def test_a_captured_king_that_does_not_move_may_stay_on_its_capture_point():
    # "counts ... as not yet moved": after 3X5 3X5 the King sits on Black 5 and the other
    # two dice bring pieces out of Start; the turn ends with the King where it was taken.
    game = at({"S": "12", "F": "K", 17: "K"}, {3: "2"}, dice=(2, 2), turn=B)
    play(game, "3X5 3X5 S/2 S/2")
    assert game.board.turn == W
    assert game.board.owner[KINGS[B]] == B and game.board.pos[KINGS[B]] == 5


def test_king_with_two_pieces_taken_by_four_the_texts_example():
    # "[3 3]; 3(2X5), 8X5; X2K@17; K(B->W@5); -2@5"
    game = at({"S": "0", 2: "3", 8: "1"}, {17: "2K", 4: "1"}, dice=(3, 3))
    play(game, "2X5 2X5 2X5")
    assert game.board.pending == {"cd34"}  # 3 < 4
    game.push("8X5")
    b = game.board
    assert b.owner[KINGS[B]] == W
    assert [p in KINGS for p in b.stacks["cd34"]] == [False, False, True]
    assert where(game, W)[0] == 2  # the last two attackers are sacrificed
    assert where(game, B)[0] == 9 + 2  # 9 never left, the 2 defenders came back
    assert game.turn_log() == ["1W: [3 3]; 2X5, 2X5, 2X5, 8X5; X2K@17; K(B->W@5); -2@5"]


def test_both_kings_stacked_are_captured_by_four_who_all_go_back():
    game = at({5: "KK"}, {15: "4"}, dice=(2, 2), turn=B)
    play(game, "15X17 15X17 15X17 15X17")
    b = game.board
    assert b.owner[KINGS[W]] == b.owner[KINGS[B]] == B
    assert b.pos[KINGS[W]] == b.pos[KINGS[B]] == 17
    assert len(b.stacks["cd34"]) == 2
    assert where(game, B)[0] == 13 - 1  # 11 never left, the 4 attackers came back
    assert game.history[0]["events"] == ["XKK@5", "K(W->B@17)", "-4@17"]


def test_capturing_the_last_piece_in_play_a_king_is_a_draw():
    game = at({3: "2"}, {"S": "0", 17: "K"}, dice=(2, 2))
    play(game, "3X5 3X5")
    assert game.is_over and game.outcome.is_draw


# ---- Chebaches --------------------------------------------------------------------------


def test_chebache_table_and_restricted_landing():
    # White on 1, 2, 3 is Chebache A: it controls Black's 14 (b4).
    game = at({1: "1", 2: "1", 3: "1"}, {12: "1"}, dice=(2, 4), turn=B)
    assert game.chebaches()[W] == ["A"] and game.controlled_spaces(B) == [14]
    legal = game.legal_moves()
    assert "12/14" not in legal and "12/16" in legal  # passing over is fine


def test_every_letter_controls_the_table_space():
    expected = {"A": 14, "B": 16, "C": 12, "D": 8, "E": 10, "F": 6, "G": 2, "H": 4}
    for index, letter in enumerate("ABCDEFGH"):
        k = 2 * index + 2
        for seat in (W, B):
            spec = {k - 1: "1", k: "1", k + 1: "1"}
            game = at(spec if seat == W else {}, spec if seat == B else {})
            assert game.chebaches()[seat] == [letter]
            assert game.controlled_spaces(1 - seat) == [expected[letter]]


def test_a_centre_at_path_10_completes_a_with_1_and_3():
    game = at({1: "1", 10: "1", 3: "1"}, {})
    assert game.chebaches()[W] == ["A"]


def test_threatened_piece_left_in_chebache_goes_back_to_start():
    game = at({1: "1", 2: "1", 3: "1"}, {14: "1", 4: "1"}, dice=(1, 2), turn=B)
    assert ("Warning", "CHEBACHE! Black's space 14 threatened") in game.summary()
    play(game, "S/1 S/2")
    assert game.to_move == W
    assert where(game, B).get(14) is None and where(game, B)[0] == 9 + 1  # 9 + the trapped
    assert game.history[-1]["trapped"] == ["-1@14"]
    assert game.turn_log()[-1] == "1B: [1 2]; S/1, S/2; -1@14; <B14>"


def test_threatened_piece_may_escape():
    game = at({1: "1", 2: "1", 3: "1"}, {14: "1", 4: "1"}, dice=(1, 2), turn=B)
    play(game, "14/16 S/1")  # (14/15 would attack White's 3)
    assert where(game, B)[16] == 1


def test_breaking_the_chebache_by_attack_saves_the_piece():
    # Black 12 -> 13 attacks White's 1 (I(ab,34) = Black 13).
    game = at({1: "1", 2: "1", 3: "1"}, {14: "1", 12: "1"}, dice=(1, 2), turn=B)
    play(game, "12X13 S/2")
    assert where(game, B)[14] == 1 and game.chebaches()[W] == []


def test_king_trapped_loses():
    game = at({1: "1", 2: "1", 3: "1"}, {14: "K"}, dice=(1, 2), turn=B)
    play(game, "S/1 S/2")
    assert game.outcome.winners == (W,) and "King" in game.outcome.reason


# ---- Finish, start-first, completion ---------------------------------------------------


def test_finish_needs_an_exact_count_far_from_home():
    game = at({14: "1"}, {}, dice=(4, 5))
    assert "14/F" in game.legal_moves()
    game = at({14: "1"}, {}, dice=(6, 5))
    assert "14/F" not in game.legal_moves()


def test_finish_with_a_larger_die_when_all_are_within_five():
    game = at({"S": "0", 14: "1", 16: "1"}, {}, dice=(6, 5))
    legal = game.legal_moves()
    assert "14/F" in legal and "16/F" not in legal  # only the furthest piece
    game.push("14/F")
    assert game.board.dice == [6]  # the smallest die that works was used
    game.push("16/F")
    assert game.outcome.winners == (W,)


def test_start_first_after_a_piece_reached_finish():
    game = at({"S": "1", 4: "1"}, {}, dice=(3, 1))
    assert game.legal_moves() == ["S/1", "S/3"]


def test_start_first_covers_a_king_in_start():
    game = at({"S": "K", 4: "1"}, {}, dice=(3, 1))
    assert game.legal_moves() == ["K(S/1)", "K(S/3)"]


def test_forfeit_end_when_only_backward_moves_remain_near_home():
    # White 12 and 16, Black blocks W15 (its 3) with two: 12X15 can't be completed.
    game = at({"S": "0", 12: "1", 16: "1"}, {3: "2"}, dice=(3, 3))
    assert game.legal_moves() == ["16\\13", "end"]
    game.push("end")
    assert game.to_move == B


def test_a_roll_with_no_playable_move_passes_the_turn():
    game = at({"S": "1"}, {13: "4"}, dice=(1, 1))
    assert game.to_move == B and game.dice_needed() is not None
    assert game.turn_log() == ["1W: [1 1]"]


# ---- Phase II ----------------------------------------------------------------------------


def test_jump_after_a_complete_phase_one():
    game = at({6: "2", 7: "1"}, {}, dice=(1, 2))
    play(game, "S/1 S/2")
    assert game.phase == "phase II"
    assert game.legal_moves() == ["2(6^8)", "6^8", "pass"]
    game.push("2(6^8)")
    assert where(game, W)[8] == 2 and game.to_move == B
    assert game.turn_log() == ["1W: [1 2]; S/1, S/2; 2(6^8)"]


def test_jump_sequence_lists_every_landing():
    game = at({6: "1", 7: "1", 9: "1"}, {}, dice=(1, 2))
    play(game, "S/1 S/2")
    assert {"6^8", "6^10"} <= set(game.legal_moves())


def test_backward_jumps_stop_after_a_square_but_go_on_after_a_tivit():
    game = at({12: "K", 11: "1", 9: "1", 7: "1", 5: "1"}, {}, dice=(1, 2))
    play(game, "S/1 S/2")
    jumps = {m for m in game.legal_moves() if m.startswith("K(12")}
    # 12 -> 10 (Tivit) -> 8 (Tivit) -> 6 (Square): stop there although 5 is held too.
    assert jumps == {"K(12^10)", "K(12^8)", "K(12^6)"}


def test_no_jump_into_finish_and_stacking_limit_on_landing():
    game = at({16: "1", 17: "1", 4: "3", 5: "1", 6: "2"}, {}, dice=(1, 2))
    play(game, "S/1 S/2")
    legal = game.legal_moves()
    assert not [m for m in legal if m.startswith("16^") or "(16^" in m]
    assert "2(4^6)" in legal and "3(4^6)" not in legal  # 3 + 2 on 6 would be 5


def test_no_jump_while_start_first_applies():
    # Three pieces in Start and the rest in Finish: after S/1 and S/2 one is still in Start.
    game = at({"S": "3", 6: "1", 7: "1"}, {}, dice=(1, 2))
    play(game, "S/1 S/2")
    assert game.to_move == B


def test_no_jump_onto_a_space_under_a_chebache():
    # Black's B (its 3, 4, 5) controls White's 16 = c2, which is also White's 8.
    game = at({6: "1", 7: "1"}, {3: "1", 4: "1", 5: "1"}, dice=(1, 2))
    assert game.controlled_spaces(W) == [16]
    assert "6/8" not in game.legal_moves()  # 6 + 2 would land on c2
    play(game, "S/1 S/2")
    assert game.to_move == B  # 6^8 is refused, so there is no jump at all


def test_stack_notation_with_a_king():
    game = at({4: "1K", 5: "1"}, {}, dice=(1, 2))
    play(game, "S/1 S/2")
    assert {"1K(4^6)", "K(4^6)"} <= set(game.legal_moves())


def test_no_jump_without_using_every_die():
    # The forfeit gives up dice, so no Phase II follows although 12^14 (over White's 13)
    # would be a jump. 13/16 is blocked by the full stack on 16.
    game = at({"S": "0", 12: "1", 13: "1", 16: "4"}, {3: "2"}, dice=(3, 3))
    assert game.legal_moves() == ["16\\13", "end"]
    game.push("end")
    assert game.to_move == B


def test_a_returned_piece_may_be_carried_away_by_the_jump():
    # [1 1]: the King goes 6/7, 7\6, 6/7, 7\6 and is back on 6 after Phase I; K(6^8) over
    # White's 7 carries it away, so the last move is legal and "pass" is not.
    game = at({"S": "0", 6: "K", 7: "1"}, {}, dice=(1, 1))
    play(game, "K(6/7) K(7\\6) K(6/7)")
    assert "K(7\\6)" in game.legal_moves()
    game.push("K(7\\6)")
    assert game.phase == "phase II"
    assert game.legal_moves() == ["K(6^8)"]


def test_jump_out_of_a_side_chebache():
    # Black on its 5, 6, 7 is Chebache C: it controls White's 12 (a2). White holds 13.
    def setup() -> Chebache:
        game = at({12: "1", 13: "1"}, {5: "1", 6: "1", 7: "1"}, dice=(1, 2))
        assert game.controlled_spaces(W) == [12]
        assert ("Warning", "CHEBACHE! White's space 12 threatened") in game.summary()
        return play(game, "S/1 S/2")

    game = setup()
    game.push("12^14")
    assert where(game, W)[14] == 1
    stays = setup()
    stays.push("pass")
    assert 12 not in where(stays, W)
    assert stays.turn_log() == ["1W: [1 2]; S/1, S/2; -1@12; <W12>"]


def test_end_is_not_offered_while_a_piece_is_short_of_12():
    # As in the forfeit test, plus a piece on 11: not every piece is at 12 or beyond (and
    # 11/14 is a forward move).
    game = at({"S": "0", 11: "1", 12: "1", 13: "1", 16: "3"}, {3: "2"}, dice=(3, 3))
    assert "end" not in game.legal_moves()


def test_turn_log_with_position_lines():
    game = Chebache()
    game.roll((5, 2))
    play(game, "S/5 S/2")
    assert game.turn_log(positions=True) == [
        "1W: [5 2]; S/5, S/2",
        "W: 10K@S, 1@2, 1@5",
        "B: 12K@S",
    ]


def test_illegal_move_is_refused_without_change(registered):
    game = at({2: "1"}, {}, dice=(5, 2))
    before = game.to_json()
    with pytest.raises(IllegalMove):
        game.push("2/8")
    assert game.to_json() == before
    assert game.push("2 / 7".replace(" ", "")) == "2/7"
    assert games.load_game(game.to_json()).to_json() == game.to_json()


def test_move_lines_and_spellings():
    game = Chebache()
    game.roll((5, 2))
    assert game.push_line("s/5 k(s/2)") == ["S/5", "K(S/2)"]
