"""Where "your turn" reaches a player (issue 16): per player and per server, in the
``notify_prefs`` table (migration 7).

- ``thread`` (the default): the board's mention in the game's thread, as always.
- ``dm``: a direct message instead (the board in the thread names the player without pinging).
- ``both``: the mention and the DM. ``off``: neither (the board is still posted).
- A DM that fails (DMs closed) falls back to the thread; the player is told so once
  (``dm_failed``, reset when they choose again).
- ``digest``: once a day (UTC), a DM listing the games of this server where it is their
  turn, sent by the deadline tick; ``digest_day`` marks it sent (at most once a day, even
  with several bots on one database).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .service import GameService, Notice

ROUTES = ("thread", "dm", "both", "off")
DEFAULT_ROUTE = "thread"
DIGEST_GAMES = 20  # games listed in one digest (the most recent first)


@dataclass(frozen=True)
class NotifySettings:
    route: str
    digest: bool
    dm_failed: bool


def day_of(moment: float) -> str:
    """The UTC day of ``moment``, as the digest marks it: ``2026-11-25``."""
    return time.strftime("%Y-%m-%d", time.gmtime(moment))


async def settings(service: GameService, guild_id: int, user_id: int) -> NotifySettings:
    row = await service._store.notify_pref(guild_id, user_id)
    if row is None:
        return NotifySettings(DEFAULT_ROUTE, False, False)
    return NotifySettings(row.route, row.digest, row.dm_failed)


async def change(
    service: GameService,
    guild_id: int,
    user_id: int,
    route: str | None,
    digest: bool | None,
) -> NotifySettings:
    """Set what the player chose (either may be None: unchanged)."""
    from .service import ServiceError

    columns: dict[str, object] = {}
    if route is not None:
        if route not in ROUTES:
            shown = str(route).replace("`", "")[:20]
            raise ServiceError(f"`{shown}` is not a choice: thread, dm, both or off.")
        columns |= {"route": route, "dm_failed": False}  # a new choice: told again if DMs fail
    if digest is not None:
        columns["digest"] = bool(digest)
    if columns:
        await service._store.set_notify_pref(guild_id, user_id, **columns)
    return await settings(service, guild_id, user_id)


async def dm_failed(service: GameService, guild_id: int, user_id: int) -> bool:
    """Note a failed DM; True the first time (the player is told once)."""
    store = service._store
    if await store.notify_pref(guild_id, user_id) is None:
        await store.set_notify_pref(guild_id, user_id)
    return await store.mark_dm_failed(guild_id, user_id)


async def digests(service: GameService, now: float) -> list[Notice]:
    """The day's digests not sent yet: one notice per player and server with a game where it
    is their turn (marked sent first, so a digest goes at most once a day)."""
    from .service import Notice

    day = day_of(now)
    notices = []
    for pref in await service._store.digests_due(day):
        if not await service._store.mark_digest_sent(pref.guild_id, pref.user_id, day):
            continue
        games = await service.list_games(pref.guild_id, pref.user_id)
        mine = [g for g in games if g.to_move_user == pref.user_id][:DIGEST_GAMES]
        if not mine:
            continue
        lines = [f"Your turn in {len(mine)} game{'s' if len(mine) > 1 else ''} ({day}):"]
        for game in mine:
            link = "https://discord.com/channels/{}/{}{}".format(
                game.guild_id,
                game.thread_id or game.channel_id,
                f"/{game.message_id}" if game.message_id else "",
            )
            lines.append(f"- {game.title} #{game.game_id}: {game.status} {link}")
        notices.append(
            Notice(
                kind="digest",
                game_id=None,
                challenge_id=None,
                guild_id=pref.guild_id,
                channel_id=mine[0].channel_id,
                thread_id=None,
                message_id=None,
                user_id=pref.user_id,
                text="\n".join(lines),
            )
        )
    return notices
