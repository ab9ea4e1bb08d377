"""Reading numbers the user (or a button's custom id) hands us: game and challenge numbers.

One rule everywhere, in commands, autocomplete and button ids alike: a number is ASCII digits
only (``²`` and ``٣`` are digits to Python, not to us) and fits SQLite's integer, at most
2**63 - 1; anything else is "not a game number", answered like any other refusal.
"""

from __future__ import annotations

from bot.service import ServiceError

MAX_ID = 2**63 - 1  # SQLite's largest integer
ID_PATTERN = r"[0-9]{1,19}"  # for DynamicItem templates; parse_id still checks the range


def parse_id(text: str) -> int | None:
    """The number ``text`` spells, or None when it is not a plain number we can store."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    number = int(text)
    return number if number <= MAX_ID else None


def parse_game_option(text: str) -> int:
    """The ``game`` option: ``12`` (what the autocomplete sends) or ``#12``; nothing else, so
    ``1 OR 1=1`` is not game 1."""
    word = text.strip()
    number = parse_id(word[1:] if word.startswith("#") else word)
    if number is None:
        shown = text.strip().replace("`", "")[:20] or "(nothing)"
        raise ServiceError(f"`{shown}` is not a game number; pick one from the list.")
    return number
