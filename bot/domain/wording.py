"""Counts in words, as every message shows them: ``1 game``, ``2 games``, ``1.5 hours``."""

from __future__ import annotations


def noun(count: float, word: str, many: str | None = None) -> str:
    """The word for ``count`` of them: singular for exactly one, else ``many`` (default: the
    word and an s): ``noun(1, "game")`` -> ``"game"``, ``noun(0, "game")`` -> ``"games"``."""
    if count == 1:
        return word
    return many if many is not None else f"{word}s"


def plural(count: float, word: str, many: str | None = None) -> str:
    """The count and its word: ``plural(1, "game")`` -> ``"1 game"``, ``plural(2.5, "day")``
    -> ``"2.5 days"``."""
    return f"{count:g} {noun(count, word, many)}"
