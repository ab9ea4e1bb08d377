"""Shax rules, one test per ruling of shared/rules/shax.md.

Every expected value below was worked out by hand from the rulings and the board picture,
never by running the engine. Board reference (files a..g west to east, ranks 1..7):

    7 a7-----------d7-----------g7
    6 |   b6-------d6-------f6   |
    5 |   |   c5---d5---e5   |   |
    4 a4---b4---c4       e4---f4---g4
    3 |   |   c3---d3---e3   |   |
    2 |   b2-------d2-------f2   |
    1 a1-----------d1-----------g1
"""

from __future__ import annotations

import re

import pytest

from games import IllegalMove
from games.shax import ADJACENT, MILLS, POINTS, Shax

WHITE, BLACK = 0, 1

# ---- hand-made placement sequences (White places on odd plies, Black on even) -----------

# Colouring with no line of three for anybody:
#   White a1 a4 g7 g4 b6 d6 f2 d2 c3 c4 e5 e4 / Black a7 d7 g1 d1 b2 b4 f6 f4 c5 d5 e3 d3
NO_MILL = "a1 a7 a4 d7 g7 g1 g4 d1 b6 b2 d6 b4 f2 f6 d2 f4 c3 c5 c4 d5 e5 e3 e4 d3"

# Colouring with exactly two lines: White a1-a4-a7, Black g7-g4-g1.
#   White a1 a4 a7 b4 d1 d6 f6 f2 c3 c5 e4 d3 / Black g7 g4 g1 d7 d2 b2 b6 f4 c4 d5 e5 e3
# Black closes g7-g4-g1 at ply 6, White closes a1-a4-a7 later, at ply 23.
BLACK_FIRST = "a1 g7 a4 g4 b4 g1 d1 d7 d6 d2 f6 b2 f2 b6 c3 f4 c5 c4 e4 d5 d3 e5 a7 e3"
# The same colouring, but White closes a1-a4-a7 at ply 5 and Black g7-g4-g1 at ply 24.
WHITE_FIRST = "a1 g7 a4 g4 a7 d7 b4 d2 d1 b2 d6 b6 f6 f4 f2 c4 c3 d5 c5 e5 e4 e3 d3 g1"


def points(text: str) -> set[str]:
    return set(text.split())


NO_MILL_WHITE = points("a1 a4 g7 g4 b6 d6 f2 d2 c3 c4 e5 e4")
NO_MILL_BLACK = points("a7 d7 g1 d1 b2 b4 f6 f4 c5 d5 e3 d3")
TWO_MILLS_WHITE = points("a1 a4 a7 b4 d1 d6 f6 f2 c3 c5 e4 d3")
TWO_MILLS_BLACK = points("g7 g4 g1 d7 d2 b2 b6 f4 c4 d5 e5 e3")


def play(game: Shax, moves: str) -> Shax:
    for move in moves.split():
        game.push(move)
    return game


def placed(sequence: str, variants: tuple[str, ...] = ()) -> Shax:
    return play(Shax(variants), sequence)


def position(
    white: str, black: str, nominal: int = WHITE, stage: str = "movement", variants=()
) -> Shax:
    """A movement position loaded through ``Shax.from_dict``; it counts as seen once."""
    board = {p: "W" for p in white.split()} | {p: "B" for p in black.split()}
    assert len(board) == len(white.split()) + len(black.split())
    state = {
        "board": board,
        "in_hand": [0, 0],
        "nominal": nominal,
        "stage": stage,
        "first_mill": None,
        "first_remover": None,
        "placement_removals_left": 0,
        "positions": {},
    }
    game = Shax.from_dict(
        {"game": "shax", "variants": list(variants), "seats": 2, "state": state, "log": []}
    )
    game._record_position()  # the loaded position is its own first occurrence
    return game


def pieces(game: Shax, seat: int) -> set[str]:
    return {p for p, s in game.board.items() if s == seat}


def removals(points) -> list[str]:
    return sorted("x" + p for p in points)


def assert_illegal(game: Shax, move: str, *reason_words: str) -> IllegalMove:
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        game.push(move)
    for word in reason_words:
        assert word in info.value.reason
    assert game.to_json() == before  # nothing changed
    return info.value


# ---- board ----------------------------------------------------------------------------

HAND_ADJACENCY = {
    # outer square
    "a1": "a4 d1",
    "a4": "a1 a7 b4",
    "a7": "a4 d7",
    "d7": "a7 g7 d6",
    "g7": "d7 g4",
    "g4": "g7 g1 f4",
    "g1": "g4 d1",
    "d1": "g1 a1 d2",
    # middle square
    "b2": "b4 d2",
    "b4": "b2 b6 a4 c4",
    "b6": "b4 d6",
    "d6": "b6 f6 d7 d5",
    "f6": "d6 f4",
    "f4": "f6 f2 g4 e4",
    "f2": "f4 d2",
    "d2": "f2 b2 d1 d3",
    # inner square
    "c3": "c4 d3",
    "c4": "c3 c5 b4",
    "c5": "c4 d5",
    "d5": "c5 e5 d6",
    "e5": "d5 e4",
    "e4": "e5 e3 f4",
    "e3": "e4 d3",
    "d3": "e3 c3 d2",
}

HAND_MILLS = [
    "a1 a4 a7", "a7 d7 g7", "g7 g4 g1", "g1 d1 a1",  # outer square sides
    "b2 b4 b6", "b6 d6 f6", "f6 f4 f2", "f2 d2 b2",  # middle square sides
    "c3 c4 c5", "c5 d5 e5", "e5 e4 e3", "e3 d3 c3",  # inner square sides
    "a4 b4 c4", "d7 d6 d5", "g4 f4 e4", "d1 d2 d3",  # the four spokes
]  # fmt: skip


def test_board_has_the_24_named_points():
    expected = set(HAND_ADJACENCY)
    assert len(expected) == 24
    assert set(POINTS) == expected
    assert len(POINTS) == 24


def test_adjacency_is_along_drawn_lines_only():
    assert {p: set(q) for p, q in ADJACENT.items()} == {
        p: set(q.split()) for p, q in HAND_ADJACENCY.items()
    }


def test_neighbours_of_d2_are_f2_b2_d1_d3():
    assert ADJACENT["d2"] == {"f2", "b2", "d1", "d3"}


def test_no_diagonals():
    for corner, inward in [("a1", "b2"), ("b2", "c3"), ("g7", "f6"), ("f6", "e5")]:
        assert inward not in ADJACENT[corner]


def test_sixteen_mills_twelve_sides_and_four_spokes():
    assert len(MILLS) == 16
    assert {frozenset(m) for m in MILLS} == {frozenset(m.split()) for m in HAND_MILLS}


# ---- placement ------------------------------------------------------------------------


def test_white_places_first_then_players_alternate():
    game = Shax()
    assert game.to_move == WHITE
    assert game.phase == "placement"
    game.push("d2")
    assert game.to_move == BLACK
    game.push("d3")
    assert game.to_move == WHITE
    assert [e.seat for e in game.log] == [WHITE, BLACK]
    assert pieces(game, WHITE) == {"d2"} and pieces(game, BLACK) == {"d3"}


def test_placement_on_any_empty_point_only():
    game = play(Shax(), "d2")
    assert game.legal_moves() == sorted(set(POINTS) - {"d2"})
    assert_illegal(game, "d2", "occupied")


def test_twelve_each_until_all_24_points_are_full():
    game = Shax()
    moves = NO_MILL.split()
    play(game, " ".join(moves[:23]))
    assert game.phase == "placement"
    assert game.legal_moves() == ["d3"]  # the last empty point, for Black's 12th piece
    assert game.in_hand == [0, 1]
    game.push("d3")
    assert len(game.board) == 24
    assert game.in_hand == [0, 0]
    assert pieces(game, WHITE) == NO_MILL_WHITE
    assert pieces(game, BLACK) == NO_MILL_BLACK
    assert game.phase == "removal"


def test_mill_during_placement_removes_nothing():
    game = placed("a1 g7 a4 g4 a7")  # White closes a1-a4-a7
    assert game.phase == "placement"
    assert game.to_move == BLACK
    assert pieces(game, BLACK) == {"g7", "g4"}
    assert game.legal_moves() == sorted(set(POINTS) - {"a1", "a4", "a7", "g7", "g4"})


def test_nobody_made_a_mill_so_black_removes():
    # "If nobody completed a mill, Black removes one."
    game = placed(NO_MILL)
    assert game.to_move == BLACK
    assert game.legal_moves() == removals(NO_MILL_WHITE)


def test_first_mill_maker_removes_white():
    game = placed(WHITE_FIRST)
    assert game.to_move == WHITE
    assert game.phase == "removal"
    assert game.legal_moves() == removals(TWO_MILLS_BLACK)


def test_only_the_first_mill_counts_even_if_the_other_player_makes_one_later():
    # Black closes g7-g4-g1 at ply 6; White's a1-a4-a7 at ply 23 does not take over.
    game = placed(BLACK_FIRST)
    assert game.to_move == BLACK
    assert game.phase == "removal"


def test_any_opponent_piece_may_be_removed_in_a_mill_or_not():
    game = placed(BLACK_FIRST)
    legal = game.legal_moves()
    assert legal == removals(TWO_MILLS_WHITE)
    assert {"xa1", "xa4", "xa7"} <= set(legal)  # White's mill a1-a4-a7
    assert_illegal(game, "xg7", "opponent")  # own piece
    assert_illegal(game, "a4-a1")  # the removal is mandatory: no step instead


def test_the_remover_moves_first():
    game = placed(NO_MILL)
    game.push("xd2")
    assert game.phase == "movement"
    assert game.to_move == BLACK
    # d2's neighbours: f2 White, b2 Black, d1 Black, d3 Black.
    assert game.legal_moves() == ["b2-d2", "d1-d2", "d3-d2"]
    assert len(pieces(game, WHITE)) == 11


def test_first_mill_maker_moves_first_after_removing():
    game = placed(WHITE_FIRST)
    game.push("xg1")
    assert game.to_move == WHITE
    # g1's neighbours: g4 Black, d1 White.
    assert game.legal_moves() == ["d1-g1"]
    game.push("d1-g1")
    assert game.to_move == BLACK  # no mill: g7 and g4 are Black, d1 now empty


def test_default_variant_has_a_single_removal_after_placement():
    game = play(placed(NO_MILL), "xd2")
    assert game.phase == "movement"
    assert not any(m.startswith("x") for m in game.legal_moves())


def test_two_removals_the_other_player_removes_then_first_remover_moves():
    game = placed(NO_MILL, ("two-removals",))
    assert game.to_move == BLACK
    game.push("xd2")
    assert game.phase == "removal"
    assert game.to_move == WHITE
    assert game.legal_moves() == removals(NO_MILL_BLACK)
    game.push("xd1")
    assert game.phase == "movement"
    assert game.to_move == BLACK  # "The player who removed the (first) piece moves first."
    # Empty d2 (f2 W, b2 B, d3 B) and d1 (g1 B, a1 W).
    assert game.legal_moves() == ["b2-d2", "d3-d2", "g1-d1"]


def test_two_removals_after_a_white_first_mill():
    game = placed(WHITE_FIRST, ("two-removals",))
    game.push("xg1")
    assert game.to_move == BLACK
    assert game.legal_moves() == removals(TWO_MILLS_WHITE)
    game.push("xd1")
    assert game.to_move == WHITE
    # Empty g1 (g4 B) and d1 (a1 W, d2 B).
    assert game.legal_moves() == ["a1-d1"]


# ---- movement -------------------------------------------------------------------------


def test_one_step_to_an_adjacent_empty_point_no_flying_even_with_three():
    game = position("a1 b6 e3", "d1 d7 f4 c4")
    assert game.legal_moves() == ["a1-a4", "b6-b4", "b6-d6", "e3-d3", "e3-e4"]
    assert_illegal(game, "a1-g7", "no flying")
    assert_illegal(game, "a1-d1")  # occupied
    assert_illegal(game, "b6-b2")  # two steps
    assert_illegal(game, "a1-b2")  # no diagonal
    assert_illegal(game, "d1-d2", "not your piece")


def test_a_step_without_a_mill_passes_the_turn():
    game = position("a1 b6 e3", "d1 d7 f4 c4")
    game.push("a1-a4")
    assert game.to_move == BLACK
    assert game.phase == "movement"


def test_a_mill_by_a_move_gives_the_mover_a_removal_before_the_turn_passes():
    game = position("a1 a4 d7", "f6 f4 f2 c4")
    game.push("d7-a7")  # closes a1-a4-a7
    assert game.phase == "removal"
    assert game.to_move == WHITE
    # Any piece, including f4 in Black's mill f6-f4-f2.
    assert game.legal_moves() == ["xc4", "xf2", "xf4", "xf6"]
    game.push("xf4")
    assert game.to_move == BLACK
    assert game.phase == "movement"
    assert pieces(game, BLACK) == {"f6", "f2", "c4"}
    assert game.moves() == ["d7-a7", "xf4"]
    assert [e.seat for e in game.log] == [WHITE, WHITE]


def test_one_step_can_never_close_two_mills_so_one_removal():
    # "Forming two mills at once still removes one." On this board a step into p comes from
    # a neighbour q that lies on one of the two lines through p, so at most one line closes.
    for p in POINTS:
        for q in ADJACENT[p]:
            assert sum(1 for m in MILLS if p in m and q not in m) <= 1


def test_a_double_mill_in_placement_is_just_the_first_mill():
    # White's g1 closes a1-d1-g1 and g7-g4-g1 at once: nothing is removed then.
    game = placed("a1 b2 d1 b4 g7 c3 g4 c4 g1")
    assert game.phase == "placement"
    assert len(game.board) == 9


def test_opening_and_closing_the_same_mill_counts_again():
    game = position("a1 a4 a7", "c4 e4 f6 g1")
    game.push("a7-d7")  # opens a1-a4-a7
    assert game.to_move == BLACK
    game.push("e4-e5")
    game.push("d7-a7")  # closes it again
    assert game.phase == "removal"
    assert game.legal_moves() == ["xc4", "xe5", "xf6", "xg1"]


def test_reduced_to_two_pieces_loses_at_once_before_blocking():
    # Black's a1 and g1 will have no move, but the loss comes first.
    game = position("a4 d1 g4 e5 e3 f4", "a1 g1 c4")
    game.push("f4-e4")  # closes e5-e4-e3
    assert game.legal_moves() == ["xa1", "xc4", "xg1"]
    game.push("xc4")
    assert game.is_over
    assert game.outcome.winners == (WHITE,)
    assert game.outcome.reason == "opponent reduced to two pieces"
    assert game.outcome.score == (1.0, 0.0)
    assert game.to_move is None
    assert game.legal_moves() == []


# ---- blocking -------------------------------------------------------------------------


def test_blocked_right_after_the_placement_removal():
    # Black removes a1: the only empty point, next to White's a4 and d1. Black cannot move.
    game = play(placed(BLACK_FIRST), "xa1")
    assert game.to_move == WHITE
    assert game.phase == "movement (blocked)"
    assert "Black is blocked" in game.status_line()
    # a4-a1 empties a4, whose neighbours a7, b4 are White: not freeing.
    # d1-a1 empties d1, next to Black's g1 and d2: freeing, so it is the only legal move.
    assert game.legal_moves() == ["d1-a1"]
    assert_illegal(game, "a4-a1", "freeing")


def test_a_mill_formed_by_a_freeing_move_removes_nothing():
    game = play(placed(BLACK_FIRST), "xa1")
    game.push("d1-a1")  # closes a1-a4-a7 for White, but it is a freeing move
    assert game.phase == "movement"
    assert game.to_move == BLACK  # the turn goes back to the blocked player
    assert len(pieces(game, BLACK)) == 12
    assert game.legal_moves() == ["d2-d1", "g1-d1"]


# Black a1 d1 g1 is walled in by White a4 g4 d2, which are themselves walled in by White.
WALLED_WHITE = "a4 g4 d2 a7 b4 g7 f4 f2 b2 d3 e5 e3"
WALLED_BLACK = "a1 d1 g1"


def test_no_freeing_move_means_any_move_no_removal_and_blocked_player_stays_nominal():
    game = position(WALLED_WHITE, WALLED_BLACK, nominal=BLACK)
    assert game.to_move == WHITE
    assert game.legal_moves() == [
        "a7-d7", "b4-b6", "b4-c4", "d3-c3", "e3-e4",
        "e5-d5", "e5-e4", "f4-e4", "f4-f6", "g7-d7",
    ]  # fmt: skip
    game.push("f4-e4")  # closes e5-e4-e3: a forced move, so no removal
    assert game.phase == "movement (blocked)"
    assert len(pieces(game, BLACK)) == 3
    # Black is still blocked, so White moves again; now g4-f4 frees g1 and is the only move.
    assert game.to_move == WHITE
    assert game.legal_moves() == ["g4-f4"]
    game.push("g4-f4")
    assert game.to_move == BLACK
    assert game.legal_moves() == ["g1-g4"]
    game.push("g1-g4")
    assert game.to_move == WHITE
    assert [e.seat for e in game.log] == [WHITE, WHITE, BLACK]


def test_with_no_freeing_move_an_illegal_step_is_not_blamed_on_freeing():
    game = position(WALLED_WHITE, WALLED_BLACK, nominal=BLACK)
    err = assert_illegal(game, "e5-c5", "no flying")
    assert "freeing" not in err.reason
    assert_illegal(game, "d1-d2", "not your piece")  # Black's piece, though Black is nominal


def test_blocked_right_after_a_mill_removal():
    # White closes e5-e4-e3 and removes c5, Black's only mobile piece.
    game = position(WALLED_WHITE, WALLED_BLACK + " c5", nominal=WHITE)
    game.push("f4-e4")
    game.push("xc5")
    assert not game.is_over  # three Black pieces remain
    assert game.to_move == WHITE
    assert game.phase == "movement (blocked)"
    assert game.legal_moves() == ["g4-f4"]


def test_neither_player_unable_to_move_needs_a_full_board():
    # "If neither player can move, the game is drawn." The board graph is connected, so any
    # position with an empty point has a piece next to one: in movement (at most 23 pieces)
    # somebody can always move. The draw can never be reached; check the connectivity.
    seen, todo = {"a1"}, ["a1"]
    while todo:
        for q in ADJACENT[todo.pop()] - seen:
            seen.add(q)
            todo.append(q)
    assert seen == set(POINTS)


# ---- draws ----------------------------------------------------------------------------


def test_threefold_repetition_is_declared_on_the_third_occurrence():
    game = position("a1 c3 e5", "g1 b2 f6")
    shuffle = "a1-a4 g1-g4 a4-a1 g4-g1"
    play(game, shuffle)  # start position, second time
    play(game, shuffle.rsplit(" ", 1)[0])
    assert not game.is_over  # every other position has occurred twice
    game.push("g4-g1")  # start position, third time
    assert game.is_over
    assert game.outcome.reason == "threefold repetition"
    assert game.outcome.winners == ()
    assert game.outcome.score == (0.5, 0.5)
    assert game.legal_moves() == []


def test_threefold_repetition_counts_forced_moves():
    game = position(WALLED_WHITE, WALLED_BLACK, nominal=BLACK)
    play(game, "e5-d5 d5-e5 e5-d5")  # forced moves by White, Black stays nominal
    assert not game.is_over
    game.push("d5-e5")
    assert game.outcome.reason == "threefold repetition"
    assert [e.seat for e in game.log] == [WHITE] * 4


def test_the_player_to_move_is_part_of_the_position():
    # Same board with White nominal (the start) and with Black nominal (after White's forced
    # move back) are two different positions, so the draw comes one ply later.
    game = position(WALLED_WHITE, WALLED_BLACK, nominal=WHITE)
    play(game, "e5-d5 d5-e5 e5-d5 d5-e5")  # 1 normal move, then forced: Black is walled in
    assert not game.is_over
    game.push("e5-d5")  # board after e5-d5 with Black nominal: third time
    assert game.outcome.reason == "threefold repetition"


def test_the_phase_is_part_of_the_position():
    # The start (White to move, movement) is given as seen twice already. White opens
    # d1-d2-d3, Black steps into d2 and blocks every White piece, Black's freeing move leaves
    # d2 again, and White closes the mill: the same board, White nominal, but a removal.
    game = position("d1 d2 d3", "a1 g1 c3 e3 b2 f4")
    game._record_position()
    assert game.legal_moves() == ["d2-f2"]
    play(game, "d2-f2 b2-d2")
    assert game.to_move == BLACK  # White is blocked
    play(game, "d2-b2 f2-d2")
    assert not game.is_over
    assert game.phase == "removal"
    assert game.legal_moves() == ["xa1", "xb2", "xc3", "xe3", "xf4", "xg1"]


def test_a_real_game_counts_its_start_position():
    game = Shax()
    assert sum(game.positions.values()) == 1
    game.push("d2")
    assert sum(game.positions.values()) == 2


# ---- notation -------------------------------------------------------------------------

CANONICAL = re.compile(r"^(x?[a-g][1-7]|[a-g][1-7]-[a-g][1-7])$")


def test_canonical_notation_and_accepted_spellings():
    game = Shax()
    assert game.push(" D2 ") == "d2"
    game = position("a1 a4 d7", "f6 f4 f2 c4")
    assert game.push("D7 - A7") == "d7-a7"
    assert game.push("x F4") == "xf4"
    assert game.moves() == ["d7-a7", "xf4"]
    assert game.last_move().move == "xf4"


def test_legal_moves_are_canonical_and_have_no_space():
    games = [
        Shax(),
        placed(NO_MILL),
        play(placed(NO_MILL), "xd2"),
        play(placed(BLACK_FIRST), "xa1"),
        position(WALLED_WHITE, WALLED_BLACK, nominal=BLACK),
    ]
    for game in games:
        assert game.legal_moves()
        for move in game.legal_moves():
            assert " " not in move
            assert CANONICAL.match(move)
            assert game.parse_move(move) == move


# ---- illegal moves and the end of the game --------------------------------------------


def test_illegal_moves_raise_with_a_reason_and_change_nothing():
    game = play(Shax(), "d2")
    err = assert_illegal(game, "d2-d3", "empty point")
    assert err.legal == tuple(game.legal_moves())
    assert str(err)
    assert_illegal(game, "z9")
    assert_illegal(game, "")
    assert game.ply == 1


def test_a_finished_game_has_no_legal_moves():
    game = Shax()
    game.resign(WHITE)
    assert game.legal_moves() == []
    assert game.to_move is None
    assert_illegal(game, "d2", "over")


def test_resignation():
    game = play(Shax(), "d2")
    game.resign(WHITE)
    assert game.outcome.winners == (BLACK,)
    assert game.outcome.reason == "resignation"
    assert game.outcome.score == (0.0, 1.0)
    assert game.status_line() == "Black wins: resignation"


def test_resignation_in_movement():
    game = position("a1 b6 e3", "d1 d7 f4 c4")
    game.resign(BLACK)
    assert game.outcome.winners == (WHITE,)
    assert game.outcome.score == (1.0, 0.0)


def test_draw_by_agreement():
    game = play(placed(NO_MILL), "xd2")
    game.agree_draw()
    assert game.outcome.is_draw
    assert game.outcome.winners == ()
    assert game.outcome.score == (0.5, 0.5)
    assert game.status_line() == "Draw: agreed by both players"


def test_claim_timeout():
    game = play(Shax(), "d2 d3")
    game.claim_timeout(BLACK)
    assert game.outcome.winners == (BLACK,)
    assert game.outcome.reason == "timeout"
    assert game.outcome.score == (0.0, 1.0)


def test_nothing_ends_a_finished_game_again():
    game = Shax()
    game.agree_draw()
    with pytest.raises(IllegalMove):
        game.resign(WHITE)
    with pytest.raises(IllegalMove):
        game.claim_timeout(WHITE)
    assert game.outcome.reason == "agreed by both players"


def test_status_lines():
    game = Shax()
    assert game.status_line() == "White to place (12 in hand)"
    game = placed(NO_MILL)
    assert game.status_line() == "Black to remove a piece"
    game.push("xd2")
    assert game.status_line() == "Black to move"
    game = play(placed(BLACK_FIRST), "xa1")
    assert game.status_line() == "Black is blocked: White must free it"
