"""Our plain reference for Shax random playouts: the rulings (``shared/rules/shax.md``,
default variant) written out the plain way, with none of the engine's machinery: no
``Game`` base, no checking of moves, no caches; the legal moves computed afresh when asked
and the repetition key built from the whole board every action.

It lists the same moves in the same order as the engine (sorted canonical strings), so from
the same seed it plays the very same games: ``bench.engines`` times both over those games
and prints the engine's speed as a ratio of this one's (issue 33: at least 1.2x), and
tests/test_shax_plain.py checks that the games agree move for move.
"""

from __future__ import annotations

import random
from collections import Counter

from games.shax import ADJACENT, MILLS_THROUGH, PIECES_EACH, POINTS

WHITE, BLACK = 0, 1


class PlainShax:
    """One Shax game, the default variant, played with canonical moves from ``legal()``."""

    def __init__(self) -> None:
        self.board: dict[str, int] = {}
        self.in_hand = [PIECES_EACH, PIECES_EACH]
        self.nominal = WHITE
        self.stage = "placement"
        self.first_mill: int | None = None
        self.first_remover = BLACK
        self.removals_due = 0
        self.winner: int | None = None
        self.over = False
        self.seen: Counter[tuple] = Counter()
        self.seen[self.key()] += 1

    def key(self) -> tuple:
        cells = tuple(self.board.get(p, -1) for p in POINTS)
        return cells, self.nominal, self.stage

    def steps(self, seat: int) -> list[str]:
        return [
            f"{p}-{q}"
            for p, s in self.board.items()
            if s == seat
            for q in ADJACENT[p]
            if q not in self.board
        ]

    def makes_mill(self, point: str, seat: int) -> bool:
        return any(
            all(q == point or self.board.get(q) == seat for q in mill)
            for mill in MILLS_THROUGH[point]
        )

    def frees(self, move: str, mover: int) -> bool:
        origin, target = move.split("-")
        board = dict(self.board)
        board[target] = board.pop(origin)
        saved, self.board = self.board, board
        try:
            return bool(self.steps(self.nominal))
        finally:
            self.board = saved

    def legal(self) -> list[str]:
        if self.over:
            return []
        if self.stage == "placement":
            return [p for p in POINTS if p not in self.board]
        if self.stage == "removal":
            return sorted(f"x{p}" for p, s in self.board.items() if s != self.nominal)
        own = self.steps(self.nominal)
        if own:
            return sorted(own)
        # Blocked: the opponent must free the nominal player if it can, else move anyhow.
        anyhow = self.steps(1 - self.nominal)
        freeing = [m for m in anyhow if self.frees(m, 1 - self.nominal)]
        return sorted(freeing or anyhow)

    def play(self, move: str) -> None:
        if self.stage == "placement":
            self.place(move)
        elif self.stage == "removal":
            self.remove(move[1:])
        else:
            self.step(move)
        if self.over:
            return
        self.seen[self.key()] += 1
        if self.seen[self.key()] >= 3:
            self.over = True  # threefold repetition: a draw
        elif self.stage == "movement" and not self.steps(0) and not self.steps(1):
            self.over = True  # neither player can move: a draw

    def place(self, point: str) -> None:
        seat = self.nominal
        if self.first_mill is None and self.makes_mill(point, seat):
            self.first_mill = seat
        self.board[point] = seat
        self.in_hand[seat] -= 1
        if len(self.board) < len(POINTS):
            self.nominal = 1 - seat
            return
        self.stage = "removal"
        self.nominal = BLACK if self.first_mill is None else self.first_mill
        self.first_remover = self.nominal
        self.removals_due = 1

    def remove(self, point: str) -> None:
        remover = self.nominal
        del self.board[point]
        if sum(1 for s in self.board.values() if s != remover) <= 2:
            self.over, self.winner = True, remover
            return
        self.stage = "movement"
        if self.removals_due:
            self.removals_due = 0
            self.nominal = self.first_remover
        else:
            self.nominal = 1 - remover

    def step(self, move: str) -> None:
        origin, target = move.split("-")
        mover = self.board.pop(origin)
        self.board[target] = mover
        if mover != self.nominal:
            return  # a forced or freeing move: no removal, the turn goes back
        if self.makes_mill(target, mover):
            self.stage = "removal"
        else:
            self.nominal = 1 - mover


def plain_playout(rng: random.Random, max_plies: int) -> list[str]:
    """One random game (a move drawn uniformly from the sorted legal moves, as the engine's
    playouts draw them) to its end or ``max_plies`` actions: the moves played."""
    game = PlainShax()
    moves: list[str] = []
    while len(moves) < max_plies:
        legal = game.legal()
        if not legal:
            break
        move = rng.choice(legal)
        game.play(move)
        moves.append(move)
    return moves
