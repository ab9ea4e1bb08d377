"""The puzzles' judge (issue 34, ``search.puzzles``) on hand-worked positions."""

from __future__ import annotations

from games import new_game
from search.puzzles import DECIDES, complete_turns, judge, play_turn, state_key


def test_the_first_mill_in_shax_is_the_puzzle_and_the_only_solution():
    # White g1, Black c5, White d1, Black c4: White's a1 completes g1-d1-a1, the first mill
    # (its maker removes first once placement ends: "the first mill decides"); no other
    # point completes a line for either side, so every other placement leaves it open.
    game = new_game("shax")
    for move in ("g1", "c5", "d1", "c4"):
        game.push(move)
    puzzle = judge(game, confirm=False)
    assert puzzle is not None
    assert (puzzle.kind, puzzle.solutions, puzzle.seat) == (DECIDES, ("a1",), 0)
    assert puzzle.reason == "completes a mill at g1-d1-a1"
    assert puzzle.solution_states() == {state_key(play_turn(game.copy(), "a1"))}


def test_no_puzzle_where_every_move_is_alike():
    assert judge(new_game("shax"), confirm=False) is None  # the empty board: 24 equal points


def test_a_shax_turn_is_its_move_and_its_removal():
    game = new_game("shax")
    for move in ("g1", "c5", "d1", "c4"):
        game.push(move)
    turns = complete_turns(game)
    assert turns is not None
    assert len(turns) == 24 - 4  # a placement on every empty point, none with a removal yet
