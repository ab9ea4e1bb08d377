"""Random Shax playouts (both variants) checking invariants after every action."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.shax import ADJACENT, MILLS, PIECES_EACH, POINTS, Shax

MAX_PLIES = 3000  # threefold repetition guarantees an end long before this
VARIANTS = st.sampled_from([(), ("two-removals",)])


def check_round_trip(game: Shax) -> None:
    loaded = games.load_game(game.to_json())
    assert loaded.to_json() == game.to_json()
    assert loaded.legal_moves() == game.legal_moves()
    assert loaded.to_move == game.to_move
    assert loaded.outcome == game.outcome


def steps(board: dict[str, int], seat: int) -> set[str]:
    return {f"{p}-{q}" for p, s in board.items() if s == seat for q in ADJACENT[p] - set(board)}


def after(board: dict[str, int], move: str) -> dict[str, int]:
    origin, target = move.split("-")
    board = dict(board)
    board[target] = board.pop(origin)
    return board


def expected_moves(game: Shax) -> set[str]:
    """The legal moves by the rulings, computed independently of the engine."""
    board, nominal = game.board, game.nominal
    if game.stage == "placement":
        return set(POINTS) - set(board)
    if game.stage == "removal":
        return {"x" + p for p, s in board.items() if s != nominal}
    if steps(board, nominal):
        return steps(board, nominal)
    # Blocked: the opponent must free the nominal player if it can, else move anyhow.
    anyhow = steps(board, 1 - nominal)
    freeing = {m for m in anyhow if steps(after(board, m), nominal)}
    return freeing or anyhow


def check_position(game: Shax, removed: list[int]) -> None:
    legal = game.legal_moves()
    assert (legal == []) == game.is_over
    assert (game.to_move is None) == game.is_over
    for seat in (0, 1):
        assert game.count(seat) + game.in_hand[seat] + removed[seat] == PIECES_EACH
    for move in legal:
        assert " " not in move
        assert game.parse_move(move) == move
    if not game.is_over:
        assert set(legal) == expected_moves(game)
        blocked = game.stage == "movement" and not steps(game.board, game.nominal)
        assert game.to_move == (1 - game.nominal if blocked else game.nominal)
    if game.is_over:
        assert game.outcome is not None and sum(game.outcome.score) == 1.0


def check_step(game: Shax, move: str, seat: int, nominal_before: int) -> None:
    """After a step: the mover's own mill means its removal; a forced move never removes."""
    if game.is_over or "-" not in move:
        return
    target = move.split("-")[1]
    mill = any(target in m and all(game.board.get(q) == seat for q in m) for m in MILLS)
    if seat == nominal_before and mill:
        assert (game.stage, game.nominal) == ("removal", seat)
    elif seat == nominal_before:
        assert (game.stage, game.nominal) == ("movement", 1 - seat)
    else:  # freeing or forced move: the turn goes back to the blocked player
        assert (game.stage, game.nominal) == ("movement", nominal_before)


def playout(rng: random.Random, variants: tuple[str, ...], round_trip_rate: float) -> Shax:
    game = Shax(variants)
    removed = [0, 0]
    check_position(game, removed)
    while not game.is_over:
        assert game.ply < MAX_PLIES
        seat, nominal_before = game.to_move, game.nominal
        move = game.push(rng.choice(game.legal_moves()))
        check_step(game, move, seat, nominal_before)
        if move.startswith("x"):
            removed[1 - seat] += 1
        check_position(game, removed)
        if rng.random() < round_trip_rate:
            check_round_trip(game)
    check_round_trip(game)
    return game


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), VARIANTS)
def test_random_playouts_keep_the_invariants(rng, variants):
    game = playout(rng, variants, round_trip_rate=0.05)
    assert game.outcome.reason in {"opponent reduced to two pieces", "threefold repetition"}
    if game.outcome.winners:
        loser = 1 - game.outcome.winners[0]
        assert game.count(loser) == 2


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False), VARIANTS)
def test_replaying_the_log_rebuilds_the_game(rng, variants):
    game = playout(rng, variants, round_trip_rate=0.0)
    again = Shax(variants)
    again.replay(game.log)
    assert again.to_json() == game.to_json()
