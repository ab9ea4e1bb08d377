"""A server's own settings: where challenges may be made, threads, clocks, games, vacations.

Stored as one JSON object per server (the ``guild_settings`` table); what is missing or
unreadable there falls back to the defaults, so a setting added later needs no migration.
Pure: the service reads and writes the table and calls these functions.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any

from bot.domain import clocks
from bot.domain.wording import plural
from games import GAMES

MAX_CHANNELS = 25


class Refused(ValueError):
    """The server's settings refuse a challenge; ``str()`` says why, for players."""


@dataclass(frozen=True)
class ServerSettings:
    channels: tuple[int, ...] = ()  # where challenges may be made; () means anywhere
    threads: bool = True  # each game gets its own thread
    time: int | None = None  # default time per move (seconds); None: the bot's own
    grace: int = clocks.DEFAULT_GRACE  # after the time is out, until the bot ends the game
    disabled: tuple[str, ...] = ()  # game kinds that cannot be challenged
    vacation_days: int = clocks.VACATION_ALLOWANCE  # a player's allowance per year
    tournament_role: int | None = None  # who may create tournaments: None everyone, else a role

    def may_create_tournaments(self, roles: Iterable[int], manager: bool) -> bool:
        """Members with Manage Server always; others when everyone may, or with the role."""
        return manager or self.tournament_role is None or self.tournament_role in set(roles)

    daily_puzzle: int | None = None  # the channel of the daily puzzle (bot/domain/puzzles/)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str | None) -> ServerSettings:
        """The stored settings; a value that is missing or damaged keeps its default."""
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        found = cls()
        channels = data.get("channels")
        if isinstance(channels, list) and all(_is_id(c) for c in channels):
            found = replace(found, channels=tuple(channels[:MAX_CHANNELS]))
        if isinstance(data.get("threads"), bool):
            found = replace(found, threads=data["threads"])
        for key, parse in (("time", clocks.parse_time), ("grace", clocks.parse_grace)):
            with contextlib.suppress(clocks.ClockError):
                found = replace(found, **{key: parse(data.get(key))})
        disabled = data.get("disabled")
        if isinstance(disabled, list):
            found = replace(found, disabled=tuple(sorted(k for k in disabled if k in GAMES)))
        if _is_id(data.get("tournament_role")):
            found = replace(found, tournament_role=data["tournament_role"])
        days = data.get("vacation_days")
        if isinstance(days, int) and not isinstance(days, bool) and 0 <= days <= 365:
            found = replace(found, vacation_days=days)
        if _is_id(data.get("daily_puzzle")):
            found = replace(found, daily_puzzle=data["daily_puzzle"])
        return found

    def challenge_refusal(self, kind: str, channel_ids: Iterable[int]) -> str | None:
        """Why a challenge to ``kind`` may not be made in the channel (``channel_ids``: the
        channel, and the parent of a thread), or None."""
        if kind in self.disabled:
            title = GAMES[kind].title if kind in GAMES else kind
            return f"{title} is turned off in this server."
        if self.channels and not set(channel_ids) & set(self.channels):
            where = ", ".join(f"<#{c}>" for c in self.channels)
            return f"Challenges are made in {where} in this server."
        return None

    def challenge_options(
        self, kind: str, channel_ids: Iterable[int], options: dict[str, Any], default_time: float
    ) -> dict[str, Any]:
        """A new challenge's options with its clock: the time per move chosen (checked) or
        the server's (else ``default_time``), and the server's grace. ``Refused`` when the
        server does not allow the game there; ``clocks.ClockError`` for a time not offered."""
        refusal = self.challenge_refusal(kind, channel_ids)
        if refusal:
            raise Refused(refusal)
        chosen = dict(options)
        if chosen.get("time") is not None:
            chosen["time"] = clocks.parse_time(chosen["time"])
        chosen.setdefault("time", int(self.time or default_time))
        chosen["grace"] = self.grace
        return chosen

    def lines(self) -> list[str]:
        """The settings, as ``/idzeva settings`` shows them."""
        where = ", ".join(f"<#{c}>" for c in self.channels) or "any channel"
        enabled = [cls.title for key, cls in GAMES.items() if key not in self.disabled]
        off = [GAMES[key].title for key in self.disabled]
        return [
            f"Challenges: {where}",
            f"Threads for games: {'yes' if self.threads else 'no'}",
            "Default time per move: "
            + (clocks.describe(self.time) if self.time else "the bot's (3 days unless set)"),
            f"Time-out grace: {clocks.describe(self.grace)} (then the bot ends the game)",
            f"Games on: {', '.join(enabled) or 'none'}"
            + (f"; off: {', '.join(off)}" if off else ""),
            f"Vacation: {plural(self.vacation_days, 'day')} a year per player",
            "Tournaments created by: "
            + (f"<@&{self.tournament_role}>" if self.tournament_role else "everyone"),
            "Daily puzzle: "
            + (f"in <#{self.daily_puzzle}>" if self.daily_puzzle else "off (daily_puzzle:)"),
        ]


def change(settings: ServerSettings, **changes: Any) -> ServerSettings:
    """The settings with ``changes`` (each checked); ``ValueError`` says what is wrong.

    ``allow_channel`` / ``disallow_channel``: a channel id to add to / take from the list;
    ``any_channel``: True empties it; ``enable`` / ``disable``: a game kind; ``threads``,
    ``time``, ``grace``, ``vacation_days``: the new value; ``tournament_role``: the role
    that may create tournaments, ``tournaments_by_everyone``: True lets everyone;
    ``daily_puzzle``: a channel id for the daily puzzle, ``daily_puzzle_off``: True stops it."""
    new = settings
    if changes.get("any_channel"):
        new = replace(new, channels=())
    added = changes.get("allow_channel")
    if added is not None:
        if added not in new.channels and len(new.channels) >= MAX_CHANNELS:
            raise ValueError(f"At most {MAX_CHANNELS} channels can be listed.")
        new = replace(new, channels=tuple(dict.fromkeys((*new.channels, added))))
    removed = changes.get("disallow_channel")
    if removed is not None:
        if removed not in new.channels:
            raise ValueError(f"<#{removed}> is not in the list of challenge channels.")
        new = replace(new, channels=tuple(c for c in new.channels if c != removed))
    if changes.get("threads") is not None:
        new = replace(new, threads=bool(changes["threads"]))
    if changes.get("time") is not None:
        new = replace(new, time=clocks.parse_time(changes["time"]))
    if changes.get("grace") is not None:
        new = replace(new, grace=clocks.parse_grace(changes["grace"]))
    for key, off in (("enable", False), ("disable", True)):
        kind = changes.get(key)
        if kind is None:
            continue
        if kind not in GAMES:
            raise ValueError(f"There is no game called {str(kind)[:20]!r}.")
        others = [k for k in new.disabled if k != kind]
        new = replace(new, disabled=tuple(sorted([*others, kind] if off else others)))
    if changes.get("tournaments_by_everyone"):
        new = replace(new, tournament_role=None)
    role = changes.get("tournament_role")
    if role is not None:
        if not _is_id(role):
            raise ValueError("That is not a role of this server.")
        new = replace(new, tournament_role=role)
    days = changes.get("vacation_days")
    if days is not None:
        if not (isinstance(days, int) and 0 <= days <= clocks.MAX_ALLOWANCE):
            raise ValueError(f"The vacation allowance is 0 to {clocks.MAX_ALLOWANCE} days.")
        new = replace(new, vacation_days=days)
    if changes.get("daily_puzzle") is not None:
        new = replace(new, daily_puzzle=changes["daily_puzzle"])
    if changes.get("daily_puzzle_off"):
        new = replace(new, daily_puzzle=None)
    return new


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63
