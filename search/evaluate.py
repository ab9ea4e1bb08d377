"""Per-game evaluation of positions, for playouts cut off before the game ends.

``evaluate(game, strong)`` is the expected share of the points for the team of seat 0,
between 0 and 1, read from public engine state only. Each game's function returns a margin
in "pieces" for seat 0's team (positive is good) that a logistic squashes; ``strong``
(0, 1 or 2; ``True`` is 1) adds the finer terms (threats, safety, structure) the ``easy``
level (0) goes without, and at 2 (``hard``) those that look a move deeper where a game has
them (Poron Jikaida: the captures the mover can make and the answers they allow).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from games import Game
from games.chebache import FINISH, KINGS, PATHS
from games.jikaida import BLUE, KA, PK, YELLOW, C, D, H, J, K, P, S
from games.sachidjun import IS_SAKE, RING
from games.shax import ADJACENT, MILLS

# ---- Shax ----------------------------------------------------------------------------


def _shax_threats(board: dict[str, int], seat: int) -> int:
    """Lines of two ``seat`` pieces whose empty third point a third ``seat`` piece can step
    onto: mills made next move."""
    threats = 0
    for line in MILLS:
        mine = [p for p in line if board.get(p) == seat]
        if len(mine) != 2:
            continue
        (hole,) = [p for p in line if p not in mine]
        if hole in board:
            continue
        if any(board.get(q) == seat and q not in line for q in ADJACENT[hole]):
            threats += 1
    return threats


def _shax(game: Any, strong: bool) -> float:
    board = game.board
    material = (game.count(0) + game.in_hand[0]) - (game.count(1) + game.in_hand[1])
    margin = 1.0 * material
    if game.stage == "placement" and game.first_mill is not None:
        margin += 0.8 if game.first_mill == 0 else -0.8
    if game.stage == "removal":  # the remover is about to take a piece
        margin += 0.9 if game.nominal == 0 else -0.9
    if strong and game.stage != "placement":
        margin += 0.4 * (_shax_threats(board, 0) - _shax_threats(board, 1))
        mobility = len(game.steps(0)) - len(game.steps(1))
        margin += 0.05 * mobility
    return margin * 0.8


# ---- Tchela --------------------------------------------------------------------------


def _tchela(game: Any, strong: bool) -> float:
    mine, theirs = game.on_board(0), game.on_board(1)
    margin = (mine - theirs) / 2.0
    if strong:
        # Tempo: the side to move can take its best capture now, the other side only
        # threatens one (the mover may move the target or strike first).
        mover = game.turn
        sign = 1 if mover == 0 else -1
        margin += sign * (0.4 * game.best_capture(mover))
        margin -= sign * (0.15 * game.best_capture(1 - mover))
        # Counters in a store are safe.
        holes = game.layout.holes
        margin += 0.1 * (sum(game.sides[0][holes:]) - sum(game.sides[1][holes:]))
    return margin * 0.6


# ---- Šačidjun ------------------------------------------------------------------------


FINER_SACHIDJUN = False


def _sachidjun(game: Any, strong: bool) -> float:
    team = game.team_of(0)
    other = 1 - team
    # Pieces captured count most; the shut-in win needs both gates held.
    material = game.captured_of(other) - game.captured_of(team)
    margin = 1.0 * material
    # The finer terms below lost ground in the first arena (normal with them 3-7 against
    # easy without them, 10 games): kept for study, off until they are tuned.
    if strong and FINER_SACHIDJUN:
        blots = [0, 0]
        held = [0, 0]
        for cell in range(RING):
            for side in (0, 1):
                n = game.side_count(cell, side)
                if n == 1 and not IS_SAKE[cell] and game.side_count(cell, 1 - side) == 0:
                    blots[side] += 1
                elif n >= 2:
                    held[side] += 1
        margin -= 0.25 * (blots[team] - blots[other])
        margin += 0.1 * (held[team] - held[other])
        # Pieces still in their moras are safe but do nothing.
        home = [game.home[s] + game.home[s + 2] for s in (0, 1)]
        margin -= 0.03 * (home[team] - home[other])
    return margin * 0.5


# ---- Chebache ------------------------------------------------------------------------


def _chebache(game: Any, strong: bool) -> float:
    board = game.board
    progress = [0, 0]
    finished = [0, 0]
    for piece in range(26):
        seat = board.owner[piece]
        progress[seat] += board.pos[piece]
        finished[seat] += board.pos[piece] == FINISH
    margin = (progress[0] - progress[1]) / 12.0
    if strong:
        margin += 0.3 * (finished[0] - finished[1])
        # Pieces standing under an enemy Chebache at the end of their own turn go back.
        for seat in (0, 1):
            guarded = board.controlled_against(seat)
            lost = sum(
                board.pos[p]
                for p in board.mine(seat)
                if 0 < board.pos[p] < FINISH and PATHS[seat][board.pos[p]] in guarded
            )
            margin -= (lost / 24.0) * (1 if seat == 0 else -1)
        for king in KINGS:  # holding both Kings: one more piece to bring home
            margin += 0.5 if board.owner[king] == 0 else -0.5
    return margin * 0.35


# ---- Poron Jikaida and Pastang -------------------------------------------------------

VALUES = {K: 0.0, P: 12.0, KA: 9.0, C: 8.0, J: 5.0, H: 3.5, PK: 3.5, D: 2.0, S: 1.0}
PASTANG_VALUES = {K: 0.0, D: 3.0, S: 1.0}


# hard's Poron Jikaida terms: the share of the mover's best capture counted now, and of the
# capture its opponent threatens
EXCHANGE_NOW = 0.7
EXCHANGE_NEXT = 0.2


def _exchange(game: Any, side: int, values: dict[int, float]) -> float:
    """The most ``side`` wins with one capture now: the piece taken, less the capturer
    where the other side could take back on that square (a King never steps into that)."""
    board = game.board
    best = 0.0
    for s, t, answered in game.captures(side):
        attacker = board[s] & 15
        if answered and attacker == K:
            continue
        gain = values.get(board[t] & 15, 1.0)
        if answered:
            gain -= values.get(attacker, 1.0)
        best = max(best, gain)
    return best


def _jikaida(game: Any, strong: int) -> float:
    values = PASTANG_VALUES if game.pastang else VALUES
    material = [0.0, 0.0]
    for v in game.board:
        if v:
            material[v >> 4] += values.get(v & 15, 1.0)
    margin = material[YELLOW] - material[BLUE]
    if game.pastang and strong:
        # Swods on their way to promotion (to a Deldar, 2 more than a Swod, on the last
        # rank): a tenth of a Swod per rank gained.
        rank, last = game.geo.rank, game.geo.h - 1
        for s, v in enumerate(game.board):
            if v & 15 == S:
                margin += 0.1 * rank[s] if v >> 4 == YELLOW else -0.1 * (last - rank[s])
    if not game.pastang and strong:
        # King safety: a King in Kaida, and the friendly pieces around each King.
        neighbours = game.geo.king
        for side, sign in ((YELLOW, 1), (BLUE, -1)):
            k = game.king_square(side)
            if k is None:
                continue
            guards = sum(1 for t in neighbours[k] if game.board[t] and game.board[t] >> 4 == side)
            margin += sign * 0.3 * min(guards, 4)
        if game.outcome is None and game.in_kaida(game.turn):
            margin += -1.5 if game.turn == YELLOW else 1.5
    if strong >= 2 and not game.pastang and game.outcome is None:
        # hard: the capture the mover can make now, net of the answer it allows, and (less)
        # the one its opponent threatens (the mover may move the piece away or strike first).
        # Not in Pastang: there hard with it lost 0-1-4 to normal without it (same size).
        mover = game.turn
        sign = 1 if mover == YELLOW else -1
        margin += sign * EXCHANGE_NOW * _exchange(game, mover, values)
        margin -= sign * EXCHANGE_NEXT * _exchange(game, 1 - mover, values)
    return margin * (0.25 if game.pastang else 0.12)


EVALUATORS: dict[str, Callable[[Any, bool], float]] = {
    "shax": _shax,
    "tchela": _tchela,
    "sachidjun": _sachidjun,
    "chebache": _chebache,
    "jikaida": _jikaida,
}


def margin(game: Game, strong: int = True) -> float:
    """The margin for seat 0's team, in the game's own rough units (0 when even)."""
    function = EVALUATORS.get(game.key)
    return function(game, strong) if function else 0.0


def evaluate(game: Game, strong: int = True) -> float:
    """Expected result for seat 0's team, strictly between what a loss and what a win are
    worth (``terminal_value``): no position unplayed is worth more than winning it. In
    Poron Jikaida a half-point win (3/4) still beats any position."""
    if game.outcome is not None:
        return terminal_value(game)
    x = max(-30.0, min(30.0, margin(game, strong)))
    low, high = SPAN.get(game.key, (0.05, 0.95))
    return low + (high - low) / (1.0 + math.exp(-x))


SPAN = {"jikaida": (0.27, 0.73)}


def terminal_value(game: Game) -> float:
    """The result of a finished game for seat 0's team: 1 win, 0 loss, 1/2 draw; Poron
    Jikaida's half-point wins (Tikaida, Nikaida) count 3/4."""
    assert game.outcome is not None
    score = game.outcome.score
    team = game.team_of(0)
    ours = max(score[s] for s in range(game.seats) if game.team_of(s) == team)
    theirs = max((score[s] for s in range(game.seats) if game.team_of(s) != team), default=0)
    return max(0.0, min(1.0, (1.0 + ours - theirs) / 2.0))
