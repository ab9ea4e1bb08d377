"""Positions for tests: a seeded random walk through one game, and a game played as the
search plays with its kept moves checked."""

from __future__ import annotations

import random
from collections.abc import Callable

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


def play_checking_kept_moves(
    game: games.Game,
    rng: random.Random,
    interject: Callable[[games.Game, random.Random], bool] = lambda game, rng: False,
    max_plies: int = 5000,
) -> games.Game:
    """Play ``game`` to its end as the search plays (``push_legal`` on copies, dice from
    ``rng``), checking at every move that the moves it keeps for its position are the moves
    a game loaded from that position works out anew, and that a copy's move leaves them as
    they were. ``interject``: an action of its own before a move (True when it played one).
    Fails once the game passes ``max_plies``. Returns the finished game."""
    from search.fastcopy import clone

    while not game.is_over:
        assert game.ply < max_plies
        if interject(game, rng):
            continue
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
            continue
        moves = game.legal_moves()
        assert games.load_game(game.to_json()).legal_moves() == moves
        for move in moves:
            clone(game, keep_log=False).push_legal(move)
        assert game.legal_moves() == moves
        game = clone(game, keep_log=False)
        game.push_legal(rng.choice(moves))
    assert game.legal_moves() == []
    return game
