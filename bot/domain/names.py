"""Players' display names per server (issue 37): what records and leaderboards call them.

A player's name is kept when they act on a game (a challenge, an accept, a move, a button...),
as Discord shows it on that server, tidied (``tidy_name``): names are user input. The store
writes only a changed name, and ``PlayerNames`` skips even the query while the name is the
one it last kept. A name only labels a player: games are always reached by ids.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence

from bot.storage import GameStore
from bot.storage.rows import NAME_LIMIT

# Marks that reorder the text around them (right-to-left overrides, isolates, marks).
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
KEPT_NAMES = 10_000  # names remembered in memory before the memory starts over


def tidy_name(name: str) -> str | None:
    """The name on one line (each run of spaces, tabs or line breaks one space), without
    control or direction marks, at most ``NAME_LIMIT`` characters; None when nothing is left."""
    kept = "".join(
        char
        for char in re.sub(r"\s+", " ", name)
        if char not in BIDI_CONTROLS and unicodedata.category(char) not in ("Cc", "Zl", "Zp")
    )
    return kept.strip()[:NAME_LIMIT].strip() or None


class PlayerNames:
    """The names kept in the store, with the ones this process last kept remembered."""

    def __init__(self, store: GameStore, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock
        # (guild, user) -> the name last kept; None: not a player (nothing kept for them).
        self._known: dict[tuple[int, int], str | None] = {}

    async def remember(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep a player's name on the server (they challenge, accept...), unless it is the
        one this process last kept."""
        tidy = tidy_name(name)
        key = (guild_id, user_id)
        if tidy is None or self._known.get(key) == tidy:
            return
        await self._store.put_player_name(guild_id, user_id, tidy, self._clock())
        if len(self._known) >= KEPT_NAMES:
            self._known.clear()
        self._known[key] = tidy

    async def refresh(
        self, guild_id: int, user_id: int, name: str, is_player: Callable[[], Awaitable[bool]]
    ) -> None:
        """Keep the name of whoever acts, if they are a player (``is_player``, asked once
        per process): a bystander's is not kept. Costs nothing while the name is unchanged."""
        key = (guild_id, user_id)
        if key not in self._known:
            player = await is_player()
            self._known.setdefault(key, "" if player else None)  # "": a player, name unknown
        if self._known.get(key) is not None:
            await self.remember(guild_id, user_id, name)

    async def of(
        self, guild_id: int, user_ids: Sequence[int], fresh: Mapping[int, str] | None = None
    ) -> dict[int, str]:
        """The names of those players on the server (the unknown left out): the kept ones,
        or the ``fresh`` ones (known now), tidied, where given."""
        names = await self._store.player_names(guild_id, user_ids)
        for user_id, name in (fresh or {}).items():
            if (tidy := tidy_name(name)) is not None:
                names[user_id] = tidy
        return names
