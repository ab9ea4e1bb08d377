"""Cheap copies of game positions for the search.

``Game.copy()`` goes through JSON (milliseconds for a long Chebache or Šačidjun game); a
search copies the position once per iteration, so it copies the engines' own mutable fields
here instead. Every game not listed falls back to ``Game.copy()``. tests/test_search.py plays
random games on such copies and checks each stays equal to a JSON copy and leaves its
original alone.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

from games import Game


def _shax(game: Any) -> None:
    game.board = dict(game.board)
    game.in_hand = list(game.in_hand)
    game.positions = Counter(game.positions)


def _tchela(game: Any) -> None:
    game.sides = [list(side) for side in game.sides]
    game.captured = list(game.captured)
    game.opened = list(game.opened)
    game.safeguard_plies = list(game.safeguard_plies)
    game.positions = Counter(game.positions)
    # ``last`` is replaced, never changed, by a move.


def _sachidjun(game: Any) -> None:
    game.cells = [list(cell) for cell in game.cells]
    game.home = list(game.home)
    game.prisoners = [list(p) for p in game.prisoners]
    game.dice = list(game.dice) if game.dice is not None else None
    game.options = [list(o) for o in game.options]
    game.used = list(game.used)
    game.played = list(game.played)
    game.landed = list(game.landed)
    game.refused = list(game.refused)
    game.offer = dict(game.offer) if game.offer is not None else None
    if game.last is not None:  # the end of a sub-turn appends to last["resolved"]
        game.last = copy.deepcopy(game.last)
    # The sub-turn solver is a memo keyed by the whole search state: safe to share.


def _chebache(game: Any) -> None:
    game.board = game.board.copy()
    game.roll_dice = list(game.roll_dice)
    game.history = list(game.history)  # finished turns are appended, never changed
    if game.current is not None:
        game.current = copy.deepcopy(game.current)


FIELDS: dict[str, Callable[[Any], None]] = {
    "shax": _shax,
    "tchela": _tchela,
    "sachidjun": _sachidjun,
    "chebache": _chebache,
}


def clone(game: Game, keep_log: bool = True) -> Game:
    """An independent copy of ``game``. Without ``keep_log`` the copy forgets its record
    (the log, Chebache's turn history): nothing a rule reads, and cheaper to copy again."""
    fields = FIELDS.get(game.key)
    if fields is None:
        twin = game.copy()
    else:
        twin = copy.copy(game)
        fields(twin)
        twin.log = list(game.log)
    if not keep_log:
        twin.log = []
        if game.key == "chebache":
            twin.history = []  # type: ignore[attr-defined]
    return twin
