"""What the store reads and writes, as plain values: a game's row, a challenge's, a
player's notification settings and vacations, a game's record and events; how a game's state
is stored (``encode_state``); and ``StoreError``. Both stores return these same rows.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field, fields
from typing import Any

from games.base import LogEntry

NAME_LIMIT = 32  # the longest player name kept: Discord's limit for a nickname


class StoreError(Exception):
    """The database cannot be used: ``str()`` is one line for whoever runs the bot."""


class StoreUnavailable(StoreError):
    """A write failed for the machine's sake (a full disk, an I/O error), not the caller's:
    the transaction was rolled back; trying again later may work. The cause is chained."""


def encode_state(state: str) -> bytes:
    """How a game's state is stored: its JSON, zlib-compressed (level 1: fast, and most of
    the gain)."""
    return zlib.compress(state.encode("utf-8"), 1)


def decode_state(value: str | bytes) -> str:
    """The JSON text of a stored state; text (written before schema 3, or by hand) as is."""
    if isinstance(value, bytes):
        return zlib.decompress(value).decode("utf-8")
    return value


# ---- game events (bot/domain/events.py) ----

ENTRY = "entry"
DRAW_OFFER, DRAW_ACCEPT, DRAW_DECLINE = "draw-offer", "draw-accept", "draw-decline"
TAKEBACK_ASK, TAKEBACK_ACCEPT, TAKEBACK_DECLINE = (
    "takeback-ask",
    "takeback-accept",
    "takeback-decline",
)
HINT = "hint"  # a player took a hint (bot/domain/hints.py); the same word as games.record.HINT
KINDS = frozenset(
    [
        ENTRY,
        DRAW_OFFER,
        DRAW_ACCEPT,
        DRAW_DECLINE,
        TAKEBACK_ASK,
        TAKEBACK_ACCEPT,
        TAKEBACK_DECLINE,
        HINT,
    ]
)


@dataclass(frozen=True)
class GameEvent:
    """One event of a game. ``version``: the game's version when it happened (before the
    action it goes with); ``at``: seconds since the epoch (the service's clock)."""

    kind: str
    seat: int | None
    ply: int
    at: float
    version: int = 0
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None  # set once stored; orders a game's events
    game_id: int | None = None

    def columns(self, game_id: int, version: int) -> dict[str, Any]:
        """The row to insert for ``game_id`` at ``version``."""
        if self.kind not in KINDS:
            raise ValueError(f"unknown game event {self.kind!r}")
        return {
            "game_id": game_id,
            "version": version,
            "at": self.at,
            "kind": self.kind,
            "seat": self.seat,
            "ply": self.ply,
            "data": dict(self.data),
        }

    @classmethod
    def from_row(cls, row: Any) -> GameEvent:
        return cls(
            kind=row["kind"],
            seat=row["seat"],
            ply=row["ply"],
            at=row["at"],
            version=row["version"],
            data=dict(json.loads(row["data"])),
            id=row["id"],
            game_id=row["game_id"],
        )


# ---- rows ----


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    kind: str
    variants: tuple[str, ...]
    players: tuple[int, ...]
    state: str  # Game.to_json(); "" for a finished game listed by games_of_user
    version: int
    status: str
    result: str | None
    created_at: float
    updated_at: float
    turn_started_at: float | None
    remind_at: float | None
    reminded: int
    claim_at: float | None
    claim_notified: int
    draw_offer_seat: int | None
    options: dict[str, Any]  # per-game settings, from the challenge (migration 4)
    timeout_at: float | None = None  # the bot ends the game on time (migration 6)
    paused_until: float | None = None  # the mover's vacation holds the clock until then

    @classmethod
    def from_row(cls, row: Any) -> GameRow:
        data = known_columns(cls, row)
        data["variants"] = tuple(json.loads(data["variants"]))
        data["players"] = tuple(json.loads(data["players"]))
        data["options"] = dict(json.loads(data["options"]))
        data["state"] = decode_state(data["state"])
        return cls(**data)


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    kind: str
    variants: tuple[str, ...]
    challenger_id: int
    opponent_id: int | None  # None: an open challenge, until someone takes it (migration 6)
    first: str
    status: str
    created_at: float
    expires_at: float
    game_id: int | None
    partners: tuple[int | None, int | None]  # the challenger's partner, the opponent's
    accepted: tuple[int, ...]  # invited players who have accepted so far
    options: dict[str, Any]
    seats: tuple[int, ...] | None = None  # players per seat, fixed by the challenge (rematch)
    rematch_of: int | None = None  # the finished game this challenge replays

    @classmethod
    def from_row(cls, row: Any) -> ChallengeRow:
        data = known_columns(cls, row)
        data["variants"] = tuple(json.loads(data["variants"]))
        data["partners"] = tuple(json.loads(data["partners"]))
        data["accepted"] = tuple(json.loads(data["accepted"]))
        data["options"] = dict(json.loads(data["options"]))
        if data["seats"] is not None:
            data["seats"] = tuple(json.loads(data["seats"]))
        return cls(**data)

    @property
    def is_open(self) -> bool:
        """Open to anyone in the channel: nobody has taken it yet."""
        return self.opponent_id is None

    @property
    def invited(self) -> tuple[int, ...]:
        """Everyone who must accept: the opponent, then the partners named."""
        return tuple(user for user in (self.opponent_id, *self.partners) if user is not None)

    @property
    def teams(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(challenger and partner, opponent and partner)."""
        mine, theirs = self.partners
        opponent = () if self.opponent_id is None else (self.opponent_id,)
        return (
            (self.challenger_id, *([mine] if mine else [])),
            (*opponent, *([theirs] if theirs else [])),
        )


@dataclass(frozen=True)
class AnalysisRow:
    """A game's post-game analysis (bot/domain/analysis.py): the turns judged so far
    (JSON), ``done`` of ``total``, and the whole analysis (JSON) once finished."""

    game_id: int
    judged: str
    done: int
    total: int
    result: str | None


@dataclass(frozen=True)
class VacationRow:
    """A player's vacations in a server for one year: the days booked, and the latest."""

    guild_id: int
    user_id: int
    year: int
    used: int  # days taken this year (the unused part of a vacation ended early refunded)
    started_at: float | None
    until: float | None

    @classmethod
    def from_row(cls, row: Any) -> VacationRow:
        return cls(**known_columns(cls, row))


@dataclass(frozen=True)
class MoveRow:
    """One entry of a game's record (read from the log in its state)."""

    game_id: int
    ply: int
    seat: int
    move: str | None
    dice: tuple[int, ...] | None

    @property
    def entry(self) -> LogEntry:
        """As the engine logs it: ``game.replay(row.entry for row in rows)``."""
        return LogEntry(self.seat, self.move, self.dice)


@dataclass(frozen=True)
class NotifyRow:
    """Where "your turn" reaches a player in a server (``bot/domain/notify.py``)."""

    guild_id: int
    user_id: int
    route: str  # thread | dm | both | off
    digest: bool  # a daily DM listing the games where it is their turn
    dm_failed: bool  # a DM failed once (the player was told; notices fall back to threads)
    digest_hour: int  # the digest comes at this hour (0-23) of the player's day
    digest_zone: str  # in this IANA time zone ("UTC", "Europe/Berlin")
    digest_next: int  # when the next digest is due (Unix seconds; 0: at once)

    @classmethod
    def from_row(cls, row: Any) -> NotifyRow:
        names = ("guild_id", "user_id", "route", "digest_hour", "digest_zone", "digest_next")
        data = {name: row[name] for name in names}
        return cls(**data, digest=bool(row["digest"]), dm_failed=bool(row["dm_failed"]))


@dataclass(frozen=True)
class LearnRow:
    """A learner's place in a course of /game learn (``bot/domain/learn/progress.py``)."""

    user_id: int
    course: str
    done: tuple[str, ...]  # the lessons completed, in the order they were
    lesson: str  # the lesson of the step to show next ('' before the first)
    step: int  # that step's index in its lesson
    tries: int  # wrong answers given to that step
    # When the learner last moved in the course: the store's to keep (``put_learn_progress``
    # takes the time apart), so two rows of the same place compare equal.
    updated_at: float = field(default=0.0, compare=False)

    @classmethod
    def from_row(cls, row: Any) -> LearnRow:
        names = ("user_id", "course", "lesson", "step", "tries", "updated_at")
        done = tuple(json.loads(row["done"]))
        return cls(**{name: row[name] for name in names}, done=done)


NOTIFY_COLUMNS = frozenset(
    ["route", "digest", "dm_failed", "digest_hour", "digest_zone", "digest_next"]
)


def known_columns(cls: type, row: Any) -> dict[str, Any]:
    """The row's values for the dataclass fields (later migrations may add columns)."""
    return {field.name: row[field.name] for field in fields(cls)}
