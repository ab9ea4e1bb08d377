"""Positions for renderer tests: a seeded random walk through one game."""

from __future__ import annotations

import random

import games


def random_walk(key: str, count: int, seed: int, keep: float = 1.0) -> list[games.Game]:
    """``count`` positions of seeded random play in ``key`` (dice from the same
    generator), a new game begun whenever one ends: every position after a move, or each
    with chance ``keep``."""
    rng = random.Random(seed)
    out: list[games.Game] = []
    game = games.new_game(key)
    while len(out) < count:
        if game.is_over:
            game = games.new_game(key)
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
            continue
        game.push(rng.choice(game.legal_moves()))
        if keep >= 1.0 or rng.random() < keep:
            out.append(game.copy())
    return out
