"""Pure rules engines, one module per game, all behind ``games.base.Game``."""

from __future__ import annotations

import json
from typing import Any

from .base import DiceSpec, Game, IllegalMove, LogEntry, Outcome
from .chebache import Chebache
from .jikaida import Jikaida
from .sachidjun import Sachidjun
from .shax import Shax
from .tchela import Tchela

GAMES: dict[str, type[Game]] = {
    cls.key: cls for cls in (Shax, Tchela, Sachidjun, Chebache, Jikaida)
}

__all__ = [
    "GAMES",
    "DiceSpec",
    "Game",
    "IllegalMove",
    "LogEntry",
    "Outcome",
    "game_class",
    "load_game",
    "new_game",
]


def game_class(name: str) -> type[Game]:
    """Look a game up by key, title or alias (case-insensitive)."""
    wanted = name.strip().lower()
    for cls in GAMES.values():
        if wanted in (cls.key, cls.title.lower(), *cls.aliases):
            return cls
    raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")


def new_game(
    name: str, variants: list[str] | tuple[str, ...] = (), seats: int | None = None
) -> Game:
    return game_class(name)(variants, seats)


def load_game(data: str | dict[str, Any]) -> Game:
    """Rebuild any game from ``Game.to_json()`` output (or its parsed dict).

    Anything that is not a well-formed saved game raises ValueError (json errors included).
    """
    try:
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise ValueError("not a saved game")
        return game_class(data["game"]).from_dict(data)
    except ValueError:
        raise
    except RecursionError:  # JSON nested a few thousand levels deep
        raise ValueError("not a saved game: nested too deeply") from None
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise ValueError(f"damaged saved game: {error!r}") from error
