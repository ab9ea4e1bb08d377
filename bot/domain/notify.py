"""Where "your turn" reaches a player (issue 16): per player and per server, in the
``notify_prefs`` table (migration 7).

- ``thread`` (the default): the board's mention in the game's thread, as always.
- ``dm``: a direct message instead (the board in the thread names the player without pinging).
- ``both``: the mention and the DM. ``off``: neither (the board is still posted).
- A DM that fails (DMs closed) falls back to the thread; the player is told so once
  (``dm_failed``, reset when they choose again).
- ``digest``: once a day, at the hour the player chose in their time zone (8:00 UTC unless
  they say otherwise), a DM listing the games of this server where it is their turn, sent by
  the deadline tick. ``digest_next`` is when it is due; sending moves it on to the next day's
  hour, compare-and-set, so it goes once even with several bots on one database. A bot that
  was down sends one digest when it is back, not one per missed day.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import time as clock_time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.domain.views import GameSummary, Notice, ServiceError
from bot.domain.wording import plural
from bot.storage import GameStore

GamesOf = Callable[[int, int], Awaitable[list[GameSummary]]]  # (guild, user) -> their games

ROUTES = ("thread", "dm", "both", "off")
DEFAULT_ROUTE = "thread"
DIGEST_GAMES = 20  # games listed in one digest (the most recent first)
DEFAULT_HOUR, DEFAULT_ZONE = 8, "UTC"  # the columns' defaults (migration 10)


@dataclass(frozen=True)
class NotifySettings:
    route: str
    digest: bool
    dm_failed: bool
    hour: int = DEFAULT_HOUR  # the digest's hour in ``zone``
    zone: str = DEFAULT_ZONE
    next_digest: int = 0  # when the next digest is due (Unix seconds), if ``digest``


@functools.cache
def time_zones() -> dict[str, str]:
    """Every IANA time zone this machine knows, by its lower-case name."""
    return {name.lower(): name for name in available_timezones()}


def time_zone(text: str) -> str:
    """The IANA name ``text`` spells (any case, spaces for underscores); ValueError if none."""
    name = time_zones().get(text.strip().replace(" ", "_").lower())
    if name is None:
        raise ValueError(text)
    return name


COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Moscow",
    "Africa/Mogadishu",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "Australia/Sydney",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Sao_Paulo",
)


def zone_suggestions(text: str, limit: int = 25) -> list[str]:
    """Time zones for the autocomplete: a few common ones for nothing typed, else those whose
    name holds ``text``, the ones whose place begins with it first."""
    needle = text.strip().replace(" ", "_").lower()
    if not needle:
        return list(COMMON_ZONES[:limit])

    def place_first(name: str) -> tuple[bool, str]:
        place = name.lower().rsplit("/", 1)[-1]
        return (not (place.startswith(needle) or name.lower().startswith(needle)), name)

    found = [name for lower, name in time_zones().items() if needle in lower]
    return sorted(found, key=place_first)[:limit]


def zone_info(zone: str) -> ZoneInfo:
    """The stored zone; UTC where this machine does not know it (a zone chosen on another
    machine of the deployment, with another time-zone database): one player's odd zone must
    not stop the digest scan for everyone."""
    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_ZONE)


def next_digest(after: float, hour: int, zone: str) -> int:
    """The first moment after ``after`` that is ``hour``:00 in ``zone`` (Unix seconds).
    On a day that skips that hour (summer time begins), the moment the clock jumps to."""
    tz = zone_info(zone)
    day = datetime.fromtimestamp(after, tz).date()
    for date in (day, day + timedelta(days=1)):
        moment = datetime.combine(date, clock_time(hour), tzinfo=tz).timestamp()
        if moment > after:
            return int(moment)
    raise AssertionError("a day always has the hour after today's")


def day_of(moment: float, zone: str) -> str:
    """The player's day of ``moment``, as their digest names it: ``2026-11-25``."""
    return datetime.fromtimestamp(moment, zone_info(zone)).strftime("%Y-%m-%d")


async def settings(store: GameStore, guild_id: int, user_id: int) -> NotifySettings:
    row = await store.notify_pref(guild_id, user_id)
    if row is None:
        return NotifySettings(DEFAULT_ROUTE, False, False)
    return NotifySettings(
        row.route, row.digest, row.dm_failed, row.digest_hour, row.digest_zone, row.digest_next
    )


async def change(
    store: GameStore,
    guild_id: int,
    user_id: int,
    now: float,
    choice: NotifyChoice,
) -> NotifySettings:
    """Set what the player chose (each part may be None: unchanged). A digest switched on, or
    moved to another hour or zone, comes next at that hour."""
    columns: dict[str, object] = {}
    if choice.route is not None:
        if choice.route not in ROUTES:
            shown = str(choice.route).replace("`", "")[:20]
            raise ServiceError(f"`{shown}` is not a choice: thread, dm, both or off.")
        columns |= {"route": choice.route, "dm_failed": False}  # told again if DMs fail
    if choice.hour is not None:
        if not 0 <= choice.hour <= 23:
            raise ServiceError("The digest's hour is 0 to 23.")
        columns["digest_hour"] = choice.hour
    if choice.zone is not None:
        try:
            columns["digest_zone"] = time_zone(choice.zone)
        except ValueError:
            shown = str(choice.zone).replace("`", "")[:40]
            raise ServiceError(
                f"`{shown}` is not a time zone I know: pick one from the list, such as "
                "`Europe/Berlin` or `America/New_York`."
            ) from None
    if choice.digest is not None:
        columns["digest"] = bool(choice.digest)
    if choice.digest or choice.hour is not None or choice.zone is not None:
        before = await settings(store, guild_id, user_id)
        hour = before.hour if choice.hour is None else choice.hour
        zone = str(columns.get("digest_zone", before.zone))
        columns["digest_next"] = next_digest(now, hour, zone)
    if columns:
        await store.set_notify_pref(guild_id, user_id, **columns)
    return await settings(store, guild_id, user_id)


@dataclass(frozen=True)
class NotifyChoice:
    """What a player chose in ``/game notify`` (None: unchanged)."""

    route: str | None = None
    digest: bool | None = None
    hour: int | None = None
    zone: str | None = None


async def dm_failed(store: GameStore, guild_id: int, user_id: int) -> bool:
    """Note a failed DM; True the first time (the player is told once)."""
    if await store.notify_pref(guild_id, user_id) is None:
        await store.set_notify_pref(guild_id, user_id)
    return await store.mark_dm_failed(guild_id, user_id)


async def digests(store: GameStore, games_of: GamesOf, now: float) -> list[Notice]:
    """The day's digests not sent yet: one notice per player and server with a game where it
    is their turn (marked sent first, so a digest goes at most once a day). ``games_of``: a
    player's active games in a server (the service's ``list_games``)."""
    notices = []
    for pref in await store.digests_due(int(now)):
        following = next_digest(now, pref.digest_hour, pref.digest_zone)
        sent = await store.mark_digest_sent(
            pref.guild_id, pref.user_id, pref.digest_next, following
        )
        if not sent:
            continue
        day = day_of(now, pref.digest_zone)
        games = await games_of(pref.guild_id, pref.user_id)
        mine = [g for g in games if g.to_move_user == pref.user_id][:DIGEST_GAMES]
        if not mine:
            continue
        lines = [f"Your turn in {plural(len(mine), 'game')} ({day}):"]
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
