"""Poron Jikaida and Pastang: what a capture wins once the other side has taken back, and
the moves that lose no material to a simple exchange (issue 35).

- ``capture_gain(game, s, t)``: the static exchange evaluation of the capture from ``s``
  on ``t``: the piece taken, less what the other side then wins taking back on ``t``, the
  two sides taking in turn, each with its least valuable piece that can, each free to stop
  (stand pat) when taking on would lose. The King takes only where nothing can take it
  back (it may not move into Kaida). The pieces that can take are the engine's
  (``Jikaida.attackers``: plain moves, leaps, vaults, double moves, the Pallan's powers),
  found again after each capture, so that a piece behind another, or a vault line changed
  by the exchange, is seen.
- ``threat(game, side)``: the most ``side`` wins with one capture now.
- ``safe_moves(game, moves)``: the moves that lose no material to a simple exchange: each
  move's balance is the material it wins at once less the opponent's threat after it;
  the moves more than ``TOLERANCE`` below the better of 0 and the best balance are dropped.
  So where a piece hangs only the moves that save it (or win more) stay, and where every
  move loses some, the ones that lose least.

Pins are not considered (a pinned piece still takes back), nor promotions in an exchange.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.jikaida import KA, PK, C, D, H, J, K, P, S

# A player's values of the pieces, in Swods (also the evaluation's, ``search.evaluate``).
VALUES = {K: 0.0, P: 12.0, KA: 9.0, C: 8.0, J: 5.0, H: 3.5, PK: 3.5, D: 2.0, S: 1.0}
PASTANG_VALUES = {K: 0.0, D: 3.0, S: 1.0}
# The King in an exchange: it takes last, and taking it back would end the game.
KING_IN_EXCHANGE = 1000.0
# How much below the best balance (or below 0, whichever is less) a move may be and stay.
TOLERANCE = 0.5


def piece_values(game: Any) -> dict[int, float]:
    return PASTANG_VALUES if game.pastang else VALUES


def _worth(values: dict[int, float], piece: int) -> float:
    kind = piece & 15
    return KING_IN_EXCHANGE if kind == K else values.get(kind, 1.0)


def capture_gain(game: Any, s: int, t: int) -> float:
    """What the side of the piece on ``s`` wins by taking the enemy piece on ``t``, once the
    exchange on ``t`` is over (see the module's text): at most the piece taken, negative
    when the capturer is lost for less."""
    values = piece_values(game)
    board = list(game.board)
    gains = [_worth(values, board[t])]
    board[t], board[s] = board[s], 0
    side = 1 - (board[t] >> 4)
    while True:
        taker = _least_valuable_taker(game, board, t, side, values)
        if taker is None:
            break
        gains.append(_worth(values, board[t]) - gains[-1])
        board[t], board[taker] = board[taker], 0
        side = 1 - side
    # Each side, from the last capture back, stops where taking on would lose.
    while len(gains) > 1:
        answer = gains.pop()
        gains[-1] = -max(-gains[-1], answer)
    return gains[0]


def _least_valuable_taker(
    game: Any, board: list[int], t: int, side: int, values: dict[int, float]
) -> int | None:
    """The square of ``side``'s least valuable piece that can take on ``t`` (the King
    only where nothing of the other side could then take it), or None."""
    takers = game.attackers(t, side, board)
    if not takers:
        return None
    taker = min(takers, key=lambda p: (_worth(values, board[p]), p))
    if board[taker] & 15 == K:
        after = list(board)
        after[t], after[taker] = after[taker], 0
        if game.attackers(t, 1 - side, after):
            return None
    return taker


def threat(game: Any, side: int, pairs: Sequence[tuple[int, int]] | None = None) -> float:
    """The most ``side`` wins with one capture now (0 when no capture wins anything), over
    ``pairs`` (from, to) or else every capture it could make."""
    values = piece_values(game)
    board = game.board
    if pairs is None:
        pairs = game.capture_pairs(side)
    by_victim = sorted(pairs, key=lambda pair: -_worth(values, board[pair[1]]))
    best = 0.0
    for s, t in by_victim:
        if _worth(values, board[t]) <= best:
            break  # no capture further on can win more than its victim
        best = max(best, capture_gain(game, s, t))
    return best


def material(game: Any, side: int) -> float:
    """``side``'s pieces less its opponent's, in Swods (Kings not counted)."""
    values = piece_values(game)
    total = 0.0
    for v in game.board:
        if v:
            worth = values.get(v & 15, 1.0)
            total += worth if v >> 4 == side else -worth
    return total


def move_balance(game: Any, move: str, standing: float | None = None) -> float:
    """What ``move`` wins at once (the piece it takes, a promotion) less what the opponent
    then wins with one capture (``threat``; in Kaida, among its legal moves only).
    ``standing``: the mover's ``material`` before the move, where already known."""
    mover = game.turn
    after = game.sketch(move)
    if standing is None:
        standing = material(game, mover)
    gained = material(after, mover) - standing
    answers = legal_captures(after) if after.in_kaida() else None
    return gained - threat(after, 1 - mover, answers)


def legal_captures(game: Any) -> list[tuple[int, int]]:
    """The side to move's legal captures of enemy pieces, as (from, to)."""
    parse, board, side = game.geo.parse, game.board, game.turn
    pairs = []
    for move in game.legal_moves():
        if "x" not in move:
            continue
        source, target = move.split("=", 1)[0].split("x", 1)
        s, t = parse(source), parse(target)
        if s is not None and t is not None and board[t] >> 4 != side:
            pairs.append((s, t))
    return pairs


def safe_moves(game: Any, moves: Sequence[str]) -> list[str]:
    """The ``moves`` that lose no material to a simple exchange (see the module's text), in
    their order; all of them where the balances cannot tell them apart."""
    standing = material(game, game.turn)
    balances = [move_balance(game, move, standing) for move in moves]
    floor = min(max(balances), 0.0) - TOLERANCE
    return [move for move, balance in zip(moves, balances, strict=True) if balance >= floor]
