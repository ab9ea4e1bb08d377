"""Board pictures: ``render_png(game)`` returns PNG bytes for any supported game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Game

from .chebache import render_chebache
from .jikaida import render_jikaida
from .sachidjun import render_sachidjun
from .shax import render_shax
from .tchela import render_tchela

Renderer = Callable[[Any], bytes]

RENDERERS: dict[str, Renderer] = {"shax": render_shax, "tchela": render_tchela}
RENDERERS["chebache"] = render_chebache
RENDERERS["sachidjun"] = render_sachidjun
RENDERERS["jikaida"] = render_jikaida

__all__ = ["RENDERERS", "render_png", "render_shax"]


def render_png(game: Game) -> bytes:
    """The position of ``game`` as PNG bytes, drawn by the renderer for its kind of game."""
    try:
        renderer = RENDERERS[game.key]
    except KeyError:
        raise KeyError(f"no renderer for {game.title}") from None
    return renderer(game)
