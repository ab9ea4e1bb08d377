"""The bot opponent: one Monte Carlo tree search for every game (depends on ``games`` only).

``best_move(game, level, seed)`` returns one of ``game.legal_moves()``. Levels: ``easy``,
``normal`` (default), ``hard``; see ``search.mcts.LEVELS``.
"""

from __future__ import annotations

from .evaluate import evaluate
from .mcts import (
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    Search,
    SearchResult,
    best_move,
    bot_turn,
    share_of,
)

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Level",
    "Search",
    "SearchResult",
    "best_move",
    "bot_turn",
    "evaluate",
    "share_of",
]
