"""What the store keeps of tournaments (migration 13), as plain values."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.rows import known_columns

FORMATS = ("round-robin", "double-round-robin", "swiss", "knockout")
SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None  # the sign-up message
    organiser_id: int
    name: str
    kind: str  # the game
    variants: tuple[str, ...]
    format: str
    rounds: int | None  # the rounds planned (set at the start)
    options: dict[str, Any]  # the games' options: time, grace, rated...
    status: str
    round: int  # the round in play; 0 while signing up
    max_players: int | None
    starts_at: float | None
    created_at: float
    updated_at: float
    version: int = 0  # moved on by every sign-up, result and withdrawal

    @classmethod
    def from_row(cls, row: Any) -> TournamentRow:
        data = known_columns(cls, row)
        data["variants"] = tuple(json.loads(data["variants"]))
        data["options"] = dict(json.loads(data["options"]))
        return cls(**data)


@dataclass(frozen=True)
class EntryRow:
    """A player signed up for an event."""

    tournament_id: int
    user_id: int
    joined_at: float
    rating: float  # the seed: the player's rating when the event started
    level: str | None  # the bot's level, when the player is the bot
    withdrawn: bool

    @classmethod
    def from_row(cls, row: Any) -> EntryRow:
        """From a row selected as ``ENTRY_COLUMNS`` (in that order: a 1,000-player event's
        sign-ups are read for each table computed)."""
        event, user, joined, rating, level, withdrawn = tuple(row)[:6]
        return cls(event, user, joined, rating, level, bool(withdrawn))


@dataclass(frozen=True)
class BoardRow:
    """One board of a round: a pairing (``black_id`` None: a bye), its game, its result."""

    tournament_id: int
    round: int
    board: int
    white_id: int
    black_id: int | None
    game_id: int | None = None
    white_points: float | None = None  # None until the game ends
    forfeit: bool = False

    @classmethod
    def from_row(cls, row: Any) -> BoardRow:
        """From a row selected as ``BOARD_COLUMNS`` (in that order: an event's thousands of
        boards are read at once for its table)."""
        event, number, board, white, black, game, points, forfeit = tuple(row)[:8]
        return cls(event, number, board, white, black, game, points, bool(forfeit))

    @property
    def is_bye(self) -> bool:
        return self.black_id is None

    @property
    def finished(self) -> bool:
        return self.white_points is not None

    def values(self) -> tuple[Any, ...]:
        return (
            self.tournament_id, self.round, self.board, self.white_id, self.black_id,
            self.game_id, self.white_points, int(self.forfeit),
        )  # fmt: skip


BOARD_COLUMNS = "tournament_id, round, board, white_id, black_id, game_id, white_points, forfeit"
ENTRY_COLUMNS = "tournament_id, user_id, joined_at, rating, level, withdrawn"
