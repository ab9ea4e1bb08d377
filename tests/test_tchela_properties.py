"""Random Tchela playouts (every variant) checking invariants after every move.

The legal moves are compared with a small reference model written from the rulings
independently of the engine: named places ("1".."16", "s1", "s2") in a plain list.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.tchela import Tchela

MAX_PLIES = 3000  # random games end in a few hundred plies at most (see the report)
VARIANTS = st.sampled_from([(), ("two-stores",), ("4x6",), ("4x6", "two-stores")])


# ---- reference model ------------------------------------------------------------------


def sowing_order(game: Tchela) -> list[int | str]:
    """Hole numbers and store names in sowing order."""
    width, stores = game.layout.width, game.layout.stores
    order: list[int | str] = []
    for hole in range(1, 2 * width + 1):
        order.append(hole)
        if hole == width:
            order.append("s1")
        if stores == 2 and hole == width + width // 2:
            order.append("s2")
    return order


def board_of(game: Tchela, seat: int) -> dict[int | str, int]:
    board: dict[int | str, int] = {h + 1: c for h, c in enumerate(game.holes(seat))}
    board.update({f"s{i + 1}": c for i, c in enumerate(game.stores(seat))})
    return board


def ref_sow(board, order, start, accept, limit):
    """Sow from ``start`` (picked up here); returns (end, offered stores, safeguard)."""
    hand, board[start] = board[start], 0
    at, passed, offered, advanced = order.index(start), set(), set(), 0
    while True:
        while hand:
            at = (at + 1) % len(order)
            place = order[at]
            if isinstance(place, str):
                if place in passed:
                    continue
                passed.add(place)
                if board[place] == 0:
                    offered.add(place)
                    if place in accept:
                        board[place] = 1
                        hand -= 1
                        if not hand:
                            return place, offered, False
                continue
            board[place] += 1
            advanced += 1
            hand -= 1
        if board[place] == 1:
            return place, offered, False
        if advanced >= limit:
            return place, offered, True
        hand, board[place] = board[place], 0


def ref_pairs(board, start, holes):
    take = start
    while True:
        target = take % holes + 1
        board[target] += board[take]
        board[take] = 0
        take = target % holes + 1
        if board[take] == 0:
            return target


def ref_sowings(game: Tchela, seat: int) -> dict[str, tuple]:
    """Move text -> (end, safeguard) for every sowing of ``seat`` now."""
    holes = game.layout.holes
    order = sowing_order(game)
    names = [p for p in order if isinstance(p, str)]
    limit = 20 * holes
    board = board_of(game, seat)
    opening = not game.opened[seat] and any(board[h] for h in range(1, holes + 1))
    starts = [p for p in order if board[p] and (not opening or isinstance(p, int))]
    found = {}
    for start in starts:
        for size in range(len(names) + 1):
            for accept in combinations(names, size):
                copy = dict(board)
                sown = ref_pairs(copy, start, holes) if opening else start
                end, offered, stopped = ref_sow(copy, order, sown, set(accept), limit)
                if not set(accept) <= offered:
                    continue
                found[spell(game, start, accept, opening)] = (end, stopped)
    return found


def spell(game: Tchela, start, accept, opening) -> str:
    one = game.layout.stores == 1
    text = ("s" if one else start) if isinstance(start, str) else str(start)
    if opening:
        text = "open" + text
    if accept:
        text += "+" + ("s" if one else "".join(accept))
    return text


def expected_moves(game: Tchela) -> set[str]:
    seat = game.to_move
    moves = set(ref_sowings(game, seat))
    holes = game.layout.holes
    board = board_of(game, seat)
    lone = board[holes - 1] == 1 and board[holes] == 0
    if game.opened[seat] and lone and (board[1] == 0 or board[2] == 0):
        facing = game.layout.width + 2  # the opponent's hole facing our hole 2W - 1
        threats = ref_sowings(game, 1 - seat).values()
        if any(end == facing and not stopped for end, stopped in threats):
            moves |= {f"{holes - 1}>{t}" for t in (1, 2) if board[t] == 0}
    return moves


# ---- invariants -----------------------------------------------------------------------


def total(game: Tchela) -> int:
    return 24 if "4x6" in game.variant_set else 32


def check_position(game: Tchela) -> None:
    legal = game.legal_moves()
    assert (legal == []) == game.is_over
    assert (game.to_move is None) == game.is_over
    on_board = sum(game.on_board(seat) for seat in (0, 1))
    assert on_board + sum(game.captured) == total(game)
    assert all(c in (0, 1) for seat in (0, 1) for c in game.stores(seat))
    for move in legal:
        assert " " not in move
        assert game.parse_move(move) == move
    if not game.is_over:
        assert set(legal) == expected_moves(game)
    else:
        assert game.outcome is not None and sum(game.outcome.score) == 1.0


def check_trace(game: Tchela, seat: int, move: str, captured_before: list[int]) -> None:
    trace = game.last
    assert trace["seat"] == seat and trace["move"] == move
    taken = sum(count for _, count in trace["captured"])
    assert game.captured[seat] - captured_before[seat] == taken
    assert game.captured[1 - seat] == captured_before[1 - seat]
    if trace["kind"] == "skip":
        return
    assert trace["drops"][-1] == trace["end"]
    holes_sown = [d for d in trace["drops"] if isinstance(d, int)]
    assert len(holes_sown) == trace["advanced"]
    assert len(trace["drops"]) == trace["count"] + sum(c for _, c in trace["relays"])
    if isinstance(trace["end"], str) or trace["safeguard"]:
        assert trace["captured"] == []
    if trace["safeguard"]:
        assert trace["advanced"] >= 20 * game.layout.holes
        assert game.holes(seat)[trace["end"] - 1] >= 2


def check_round_trip(game: Tchela) -> None:
    loaded = games.load_game(game.to_json())
    assert loaded.to_json() == game.to_json()
    assert loaded.legal_moves() == game.legal_moves()
    assert loaded.to_move == game.to_move and loaded.outcome == game.outcome


def check_distinct_results(game: Tchela) -> None:
    """Spellings of one start (store choices) never lead to the same position."""
    by_start: dict[str, set[str]] = {}
    for move in game.legal_moves():
        twin = game.copy()
        twin.push(move)
        key = twin._position_key()
        seen = by_start.setdefault(move.partition("+")[0], set())
        assert key not in seen
        seen.add(key)


def playout(rng: random.Random, variants, round_trip_rate: float, distinct_rate: float = 0.0):
    game = Tchela(variants)
    check_position(game)
    while not game.is_over:
        assert game.ply < MAX_PLIES
        if rng.random() < distinct_rate:
            check_distinct_results(game)
        seat, before = game.to_move, list(game.captured)
        move = game.push(rng.choice(game.legal_moves()))
        check_trace(game, seat, move, before)
        check_position(game)
        if rng.random() < round_trip_rate:
            check_round_trip(game)
    check_round_trip(game)
    return game


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), VARIANTS)
def test_random_playouts_keep_the_invariants(rng, variants):
    game = playout(rng, variants, round_trip_rate=0.05, distinct_rate=0.05)
    assert game.outcome.reason in {"no legal move", "threefold repetition"}
    if game.outcome.winners:
        loser = 1 - game.outcome.winners[0]
        assert game.on_board(loser) == 0


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False), VARIANTS)
def test_replaying_the_log_rebuilds_the_game(rng, variants):
    game = playout(rng, variants, round_trip_rate=0.0)
    again = Tchela(variants)
    again.replay(game.log)
    assert again.to_json() == game.to_json()


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False), VARIANTS)
def test_describe_move_never_changes_the_game(rng, variants):
    game = Tchela(variants)
    for _ in range(rng.randint(0, 40)):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_moves()))
    before = game.to_json()
    for move in game.legal_moves():
        text = game.describe_move(move)
        assert text and ("—" in text)
    assert game.to_json() == before
