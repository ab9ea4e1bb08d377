"""Board pictures: ``render_png(game)`` returns PNG bytes for any supported game."""

from __future__ import annotations

from collections.abc import Callable, Iterable
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

__all__ = ["MARKING", "RENDERERS", "render_png", "render_shax"]


# The renderers that draw marks (``marks=``: the places a lesson speaks of, each game's
# names for them: Shax points ``d2``; Chebache squares ``c4`` and intersections ``bc34``;
# Tchela holes ``9`` and stores ``s``/``s1``/``s2`` of the player to move, ``N15``/``S9`` for
# a named side; Šačidjun cells ``W3``, ``SW`` and moras ``b2``; Jikaida squares ``c4``);
# the others draw the position without them.
MARKING: frozenset[str] = frozenset({"shax", "chebache", "tchela", "sachidjun", "jikaida"})


def render_png(game: Game, marks: Iterable[str] = ()) -> bytes:
    """The position of ``game`` as PNG bytes, drawn by the renderer for its kind of game,
    with ``marks`` highlighted where the renderer draws marks (``ValueError`` for a mark
    that names no place on its board)."""
    try:
        renderer = RENDERERS[game.key]
    except KeyError:
        raise KeyError(f"no renderer for {game.title}") from None
    marks = tuple(marks)
    if marks and game.key in MARKING:
        return renderer(game, marks=marks)
    return renderer(game)
