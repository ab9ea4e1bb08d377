"""Random Chebache playouts with random dice, checking invariants after every action.

Random games end well inside ``MAX_PLIES`` (a few hundred actions; the longest seen while
writing this was about 500 for 40 seeded games), either by a player bringing everything
home or by a trapped King.
"""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.chebache import FINISH, KINGS, LIMIT, PATHS, START, Chebache
from tests.positions import play_checking_kept_moves

MAX_PLIES = 3000


def check_position(game: Chebache) -> None:
    b = game.board
    # Conservation: 26 pieces, 12 ordinary per colour, Kings with whoever holds them.
    for seat in (0, 1):
        mine = b.mine(seat)
        plain = [p for p in mine if p not in KINGS]
        assert len(plain) == 12
        assert len(mine) == 12 + sum(1 for k in KINGS if b.owner[k] == seat)
    assert len(b.mine(0)) + len(b.mine(1)) == 26
    # Every piece on the board is in exactly the stack of its physical space.
    seen = []
    for space, stack in b.stacks.items():
        assert stack
        for p in stack:
            assert START < b.pos[p] < FINISH and PATHS[b.owner[p]][b.pos[p]] == space
            seen.append(p)
        if space not in b.pending:
            assert len({b.owner[p] for p in stack}) == 1
            assert sum(2 if p in KINGS else 1 for p in stack) <= LIMIT
    assert len(seen) == len(set(seen))
    assert sorted(seen) == sorted(p for p in range(26) if START < b.pos[p] < FINISH)
    legal = game.legal_moves()
    if game.is_over:
        assert legal == [] and game.to_move is None
    elif game.dice_needed() is None:
        assert legal, "a turn with no choice should have ended by itself"
        for move in legal:
            assert " " not in move and game.parse_move(move) == move


def check_turn_end(game: Chebache, mover: int) -> None:
    """Right after ``mover``'s turn: no attack left half done, nothing of the mover left
    under an opponent's Chebache (it went back to Start), a roll is due."""
    assert game.board.pending == set()
    assert game.threatened(mover) == []
    assert game.dice_needed() is not None and game.phase == "roll"
    assert game.history[-1]["seat"] == mover


def playout(rng: random.Random, round_trip_rate: float) -> Chebache:
    game = Chebache()
    while not game.is_over:
        assert game.ply < MAX_PLIES
        mover = game.to_move
        if game.dice_needed() is not None:
            game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            game.push(rng.choice(game.legal_moves()))
        check_position(game)
        if not game.is_over and game.to_move != mover:
            check_turn_end(game, mover)
        if rng.random() < round_trip_rate:
            loaded = Chebache.from_dict(json.loads(game.to_json()))
            assert loaded.to_json() == game.to_json()
            assert loaded.legal_moves() == game.legal_moves()
    return game


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_random_playouts_keep_the_invariants(seed):
    rng = random.Random(seed)
    game = playout(rng, round_trip_rate=0.05)
    assert game.outcome.reason in {
        "all pieces in Finish",
        "King trapped in Chebache",
        "the last piece in play was a captured King",
    }
    if game.outcome.reason == "all pieces in Finish":
        winner = game.outcome.winners[0]
        assert all(game.board.pos[p] == FINISH for p in game.board.mine(winner))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32))
def test_replaying_the_log_rebuilds_the_game(seed):
    rng = random.Random(seed)
    game = playout(rng, round_trip_rate=0.0)
    again = Chebache()
    again.replay(game.log)
    assert again.to_json() == game.to_json()
    log = game.turn_log(positions=True)
    assert len(log) == 3 * len(game.history)
    turn = re.compile(r"\d+[WB]: \[\d \d\](; \S.*)?")
    for index, line in enumerate(log):
        kind = index % 3
        if kind == 0:
            assert turn.fullmatch(line), line
            assert line.startswith(f"{index // 3 + 1}{'WB'[game.history[index // 3]['seat']]}:")
        else:
            assert re.fullmatch(r"[WB]: (K*\d*K*\d*K*\d*@(S|F|\d+)(, |$))+", line), line


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32))
def test_describe_move_and_summary_never_change_the_game(seed):
    rng = random.Random(seed)
    game = Chebache()
    for _ in range(rng.randint(0, 120)):
        if game.is_over:
            break
        if game.dice_needed() is not None:
            game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            game.push(rng.choice(game.legal_moves()))
    before = game.to_json()
    for move in game.legal_moves():
        assert game.describe_move(move).startswith(move + " — ")
    game.summary()
    game.text_board()
    game.status_line()
    assert game.to_json() == before


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32))
def test_kept_moves_match_moves_worked_out_afresh(seed):
    """A position's moves are worked out once and kept until the board changes: at every
    action of a game played as the search plays (``push_legal`` on copies), they are the
    moves a game loaded from the same position works out from nothing."""
    play_checking_kept_moves(Chebache(), random.Random(seed), max_plies=MAX_PLIES)


# White with 1-1-1 left of a double 1, after SX1: its piece 10 entered onto its 1 (the
# intersection ab34) against two Black pieces, an attack still pending (seed 172013 of the
# test above, ply 140).
ATTACK_PENDING = (
    '{"owner":[0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1],"pos":[5,3,9,7,18,5,5'
    ',8,5,16,1,9,2,18,18,14,14,11,3,11,11,13,13,14,11,3],"stacks":{"ab23":[24,19,17,20],"'
    'ab34":[21,22,10],"b3":[12],"b4":[15,23,16],"bc12":[25,18],"bc23":[11,2],"bc34":[1],"'
    'c2":[9,7],"cd23":[3],"cd34":[6,8,0,5]},"turn":0,"stage":"move","dice":[1,1,1],"roll"'
    ':[1,1],"start":[5,3,9,7,18,5,5,8,5,16,0,9,2,18,18,14,14,11,3,11,11,13,13,14,11,3],"m'
    'oved":[10],"exempt":[],"pending":["ab34"],"history":[],"current":{"seat":0,"dice":[1'
    ',1],"moves":["SX1"],"events":[],"jump":""}}'
)


def _finishes(board) -> bool:
    """Whether the turn can end legally from ``board``, by trying every continuation
    (``Board.can_finish`` without its memo or its shortcuts)."""
    if board.clean() or board.won(board.turn):
        return True
    for _text, piece, there, die, _back in board.playable():
        after = board.copy()
        after.apply_move(piece, there, die)
        if _finishes(after):
            return True
    return not board.pending and not board.dice and bool(board.jumps())


def test_a_position_s_moves_do_not_depend_on_the_order_its_stacks_were_made_in():
    # The look-ahead's memo once keyed positions by their pieces alone: two ways to the
    # same pieces that had moved different ones were one entry, and the stacks' order
    # decided which was tried first. Made in play (ab34 formed after bc23 and bc34), the
    # position offered 6 moves; loaded from its record (stacks sorted), 8. Every
    # continuation tried without the memo leaves 7: 9/10 cannot end the turn (nothing
    # can then finish the attack), K(2/3) can.
    state = json.loads(ATTACK_PENDING)
    expected = set()
    board = Chebache.from_dict(
        {"game": "chebache", "variants": [], "seats": 2, "state": state}
    ).board
    for text, piece, there, die, _back in board.playable():
        after = board.copy()
        after.apply_move(piece, there, die)
        if _finishes(after):
            expected.add(text)
    assert "9/10" not in expected and {"K(2/3)", "K(2X1)"} <= expected and len(expected) == 7
    played_order = ["bc23", "bc34", "ab34", "ab23", "cd34", "bc12", "c2", "b3", "b4", "cd23"]
    for order in (sorted(state["stacks"]), played_order):
        state["stacks"] = {space: state["stacks"][space] for space in order}
        game = Chebache.from_dict({"game": "chebache", "variants": [], "seats": 2, "state": state})
        assert list(game.board.stacks) == order
        assert set(game.legal_moves()) == expected
