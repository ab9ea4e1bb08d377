"""Poron Jikaida and Pastang tactics (issue 35): the pieces that can take on a square, the
static exchange evaluation, and the moves that lose material to a simple exchange, refused
at every level.

Values (search.jikaida_tactics.VALUES): Pallan 12, Kapt 9, Chuktar 8, Jiktar 5, Hikdar and
Paktun 3.5, Deldar 2, Swod 1; in Pastang Deldar 3, Swod 1. Every expected value below is
worked out by hand from the rules (docs/rules/jikaida.md), not from running the code.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.jikaida import Jikaida
from search.jikaida_tactics import capture_gain, move_balance, safe_moves, threat
from search.mcts import Search

LEVELS = ("easy", "normal", "hard")
SMALL = 60  # iterations: the refused moves are not searched at all, whatever the size


def at(pieces: dict[str, str], turn: str, variant: str | None = None) -> Jikaida:
    data = {"turn": turn, "pieces": pieces, "unmoved": []}
    if variant:
        data["variant"] = variant
    return Jikaida.from_position(data)


def gain(game: Jikaida, move: str) -> float:
    source, target = move.split("x")
    return capture_gain(game, game.geo.parse(source), game.geo.parse(target))


# The three blunders of issue 35, each a guarded piece taken by a bigger piece.
#
# Blue's Pallan h9 takes the Deldar j6 (a diagonal approach h9-i8-j7, turning south at j7,
# the last square before the front); the Kapt h4 guards j6 along the diagonal h4-i5-j6
# (all in Zhantil) and takes the Pallan back: 2 - 12 = -10. The Yellow Swod h6 blocks the
# Kapt's way up the h-file to the Pallan (and is guarded by it: h9xh6 is 1 - 12).
PALLAN = ({"a1": "YK", "h4": "YKa", "j6": "YD", "h6": "YS", "h9": "BP", "l18": "BK"}, "blue")
# Yellow's Chuktar f10 takes the Paktun f16 up the f-file (one front crossed); Blue's Kapt
# g18 leaps back onto f16 (one front): 3.5 - 8 = -4.5.
CHUKTAR = ({"a1": "YK", "f10": "YC", "f16": "BPk", "g18": "BKa", "l18": "BK"}, "yellow")
# Blue's Kapt d9 takes the Swod d3 down the d-file (one front); Yellow's Paktun c1 leaps
# back onto d3: 1 - 9 = -8.
KAPT = ({"h1": "YK", "c1": "YPk", "d3": "YS", "d9": "BKa", "l18": "BK"}, "blue")
BLUNDERS = [(PALLAN, "h9xj6", -10.0), (CHUKTAR, "f10xf16", -4.5), (KAPT, "d9xd3", -8.0)]


@pytest.mark.parametrize(("position", "move", "value"), BLUNDERS)
def test_the_blunders_of_issue_35_lose_what_the_exchange_says(position, move, value):
    game = at(*position)
    assert move in game.legal_moves()
    assert gain(game, move) == value
    assert move_balance(game, move) == value  # nothing else is lost or won
    assert move not in safe_moves(game, game.legal_moves())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("position", "move", "value"), BLUNDERS)
def test_no_level_takes_a_guarded_piece_with_a_bigger_one(level, position, move, value):
    game = at(*position)
    for seed in range(2):
        assert Search(level, seed=seed, iterations=SMALL).choose(game).move != move


def test_a_good_capture_is_still_taken_at_every_level():
    # Yellow's Deldar c5 takes the Jiktar d6 (one step, inside Mortil); Blue's Swod e7 takes
    # it back (a Blue Swod takes diagonally forward, south, across the front): 5 - 2 = +3.
    # The Yellow Swods a2 and b2 keep Yellow from being a bare King after the exchange.
    pieces = {"a1": "YK", "a2": "YS", "b2": "YS", "c5": "YD", "d6": "BJ", "e7": "BS", "l18": "BK"}
    game = at(pieces, "yellow")
    assert gain(game, "c5xd6") == 3.0
    assert "c5xd6" in safe_moves(game, game.legal_moves())
    for level in LEVELS:
        assert Search(level, seed=1, iterations=SMALL).choose(game).move == "c5xd6", level


def test_the_exchange_takes_back_with_the_least_valuable_piece_first():
    # PALLAN with a Blue Deldar on k7 (it touches the front: it steps back to j6) and a
    # Yellow Deldar on j4 (two steps up to j6). Pallan takes Deldar (+2 for Blue), Deldar
    # j4 takes the Pallan (+12 for Yellow), Deldar k7 takes that Deldar (+2 for Blue), the
    # Kapt takes it (+2 for Yellow): Blue 2 - 12 + 2 - 2 = -10, and Blue's stopping after
    # the Pallan is lost is no better (2 - 12 = -10). Had the Kapt taken first, Blue's
    # Deldar would have won it: 2 - 12 + 9 - 2 = -3.
    pieces, turn = PALLAN
    game = at(pieces | {"k7": "BD", "j4": "YD"}, turn)
    assert gain(game, "h9xj6") == -10.0
    # Only the Kapt guarding j6 (no Yellow Deldar): 2 - 12 + 9 = -1 (Yellow takes the
    # Pallan, 12 for 2, even though it then loses the Kapt).
    game = at(pieces | {"k7": "BD"}, turn)
    assert gain(game, "h9xj6") == -1.0


def test_the_king_takes_back_only_where_nothing_can_take_it():
    # PALLAN's Deldar j6 with the Yellow King on k5 instead of the Kapt: the King takes the
    # Pallan back (2 - 12) unless Blue's Deldar i7 guards j6 (one step back across the
    # front it touches; then the Pallan wins the Deldar: +2).
    pieces = {"a1": "YS", "k5": "YK", "j6": "YD", "h9": "BP", "l18": "BK"}
    assert gain(at(pieces, "blue"), "h9xj6") == -10.0
    assert gain(at(pieces | {"i7": "BD"}, "blue"), "h9xj6") == 2.0


def test_a_vault_takes_back_in_pastang():
    # Pastang (a line of 2 is enough): Blue's Deldar b5 takes the Swod a4 (one diagonal
    # step); Yellow's Deldar a1 vaults over the Swods a2 and a3 and takes it on a4 (the
    # third piece of the line): 1 - 3 = -2. The Swod a3 takes only diagonally forward (b4).
    pieces = {"a1": "YD", "a2": "YS", "a3": "YS", "a4": "YS", "b5": "BD", "f6": "BS"}
    game = at(pieces, "blue", "pastang")
    assert game.attackers(game.geo.parse("a4"), 0) == [game.geo.parse("a1")]
    assert gain(game, "b5xa4") == -2.0
    assert "b5xa4" not in safe_moves(game, game.legal_moves())


def test_a_hanging_piece_is_saved():
    # Yellow's Jiktar d5 is attacked by Blue's Swod e6 (a Blue Swod takes d5 and f5): the
    # King's moves leave it to be taken (-5) and so does d5-f5. The Jiktar's other moves
    # (d5 touches no front: the d-file from d1 to d6, rank 5 from a5 to e5) save it.
    game = at({"a1": "YK", "d5": "YJ", "e6": "BS", "l18": "BK"}, "yellow")
    assert threat(game, 1) == 5.0
    kept = set(safe_moves(game, game.legal_moves()))
    assert kept == {f"d5-{t}" for t in ("d6", "d4", "d3", "d2", "d1", "c5", "b5", "a5", "e5")}


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_the_attackers_are_the_move_generators_captures(seed, pastang):
    # Every piece the backward test finds can take on the square by one of its moves, and
    # every capture the move generator lists is found (a Propt Swod safe from Swods).
    rng = random.Random(seed)
    game = Jikaida(["pastang"] if pastang else [])
    for _ in range(rng.randrange(10, 120)):
        if game.is_over:
            break
        game.push_legal(rng.choice(game.legal_moves()))
    for side in (0, 1):
        reach: dict[int, set[int]] = {}
        for s, t in game.capture_pairs(side):
            reach.setdefault(t, set()).add(s)
        for t, v in enumerate(game.board):
            if v and v >> 4 != side:
                assert set(game.attackers(t, side)) == reach.get(t, set())


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_a_sketch_makes_the_move_on_the_board_as_playing_it_does(seed, pastang):
    rng = random.Random(seed)
    game = Jikaida(["pastang"] if pastang else [])
    for _ in range(rng.randrange(0, 80)):
        if game.is_over:
            break
        moves = game.legal_moves()
        for move in rng.sample(moves, min(5, len(moves))):
            played = game.copy()
            played.push_legal(move)
            sketch = game.sketch(move)
            assert (sketch.board, sketch.unmoved, sketch.turn) == (
                played.board,
                played.unmoved,
                played.turn,
            )
            assert sketch.fluttember == played.fluttember
        game.push_legal(rng.choice(moves))


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_the_filter_keeps_the_best_balanced_moves_and_never_all_go(seed, pastang):
    rng = random.Random(seed)
    game = Jikaida(["pastang"] if pastang else [])
    for _ in range(rng.randrange(0, 100)):
        if game.is_over:
            break
        game.push_legal(rng.choice(game.legal_moves()))
    if game.is_over:
        return
    moves = game.legal_moves()
    kept = safe_moves(game, moves)
    balances = {move: move_balance(game, move) for move in moves}
    best = max(balances.values())
    assert kept and set(kept) <= set(moves)
    assert {m for m in moves if balances[m] == best} <= set(kept)
    assert all(balances[m] >= min(best, 0.0) - 0.5 for m in kept)
    assert all(balances[m] < min(best, 0.0) - 0.5 for m in set(moves) - set(kept))
