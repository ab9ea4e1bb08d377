"""What the game service returns (views of games, challenges and notices) and raises
(refusals with a player-facing message): plain data, shared by the service, the modules it
calls (``deadlines.py``, ``actions.py``, ``challenges.py``... in ``bot/domain/``) and the
cogs, which import them from ``bot.domain.service``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Fields = tuple[tuple[str, str], ...]

STALE_MESSAGE = "The board changed; here is the current one."

# ---- views ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardView:
    """Everything a cog needs to show a game."""

    game_id: int
    kind: str
    title: str
    version: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    players: tuple[int, ...]  # user id per seat
    seat_names: tuple[str, ...]
    to_move_user: int | None  # None when finished
    status: str  # game.status_line()
    last_action: str | None  # e.g. "d2-d3 xg7"; None at the start
    fields: Fields  # game.summary(), plus variants and a pending draw offer
    finished: bool
    result: str | None  # game.result_text() once over
    image: bytes  # PNG (b"" if rendering failed; the failure is logged)
    dice_needed: str | None  # e.g. "2d8" when a roll is due
    legal_count: int
    note: str | None = None  # what just happened that the position alone does not tell
    answers: tuple[tuple[str, str], ...] = ()  # (move, label) to offer as buttons
    bot_levels: tuple[tuple[int, str], ...] = ()  # (seat, level) of seats the bot plays
    clock: str | None = None  # "<@1> moves <t:...:R>", or the mover's vacation
    back_from_vacation: bool = False  # this action ended its player's vacation


@dataclass(frozen=True)
class ChallengeView:
    challenge_id: int
    kind: str
    title: str
    variants: tuple[str, ...]
    challenger_id: int
    opponent_id: int | None  # None: open to anyone in the channel (bot/domain/challenges.py)
    first: str
    status: str  # pending | accepted | declined | expired
    expires_at: float
    guild_id: int
    channel_id: int
    message_id: int | None
    teams: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # with partners, if any
    invited: tuple[int, ...] = ()  # everyone who must accept: opponent, then partners
    accepted: tuple[int, ...] = ()  # invited players who accepted so far
    options: tuple[tuple[str, str], ...] = ()
    draws_sides: bool = False  # sides and colours are drawn by dice on acceptance
    time: int | None = None  # seconds per move (``options["time"]``)
    seats: tuple[int, ...] = ()  # players per seat when the challenge fixes them (a rematch)
    seat_names: tuple[str, ...] = ()  # the names of those seats
    rematch_of: int | None = None  # the game this challenge replays

    @property
    def is_open(self) -> bool:
        return self.opponent_id is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.challenger_id, *self.invited)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return tuple(user for user in self.invited if user not in self.accepted)


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    kind: str
    title: str
    players: tuple[int, ...]
    status: str
    finished: bool
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    to_move_user: int | None


@dataclass(frozen=True)
class Notice:
    """Something ``tick()`` found that the bot must post."""

    kind: str  # "reminder" | "claimable" | "timed_out" | "challenge_expired" | "vacation"
    # | "digest" (a DM)
    game_id: int | None
    challenge_id: int | None
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    user_id: int  # who to mention
    text: str
    key: str = ""  # its job in the outbox (bot/domain/jobs.py): what it is for, sent once


# ---- errors --------------------------------------------------------------------------


class ServiceError(Exception):
    """A refusal with a short, player-facing ``message`` (shown ephemerally)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """No such game or challenge (in this guild)."""


class NotAllowed(ServiceError):
    """Wrong player, not your turn, not your challenge, self or bot challenge."""


class IllegalMoveError(ServiceError):
    def __init__(self, message: str, legal: Iterable[str] = ()):
        super().__init__(message)
        self.legal: tuple[str, ...] = tuple(legal)

    def __reduce__(self) -> tuple[Any, ...]:  # raised in a worker process, keeps ``legal``
        return type(self), (self.message, self.legal)


class RollDue(IllegalMoveError):
    """A move sent while the dice must be rolled first."""


class StaleBoard(ServiceError):
    def __init__(self, board: BoardView, message: str = STALE_MESSAGE):
        super().__init__(message)
        self.board = board


class SaveFailed(ServiceError):
    """The store could not write the action for the machine's sake (a full disk): nothing
    of it happened; the player may try again shortly."""


class CorruptGame(ServiceError):
    """A stored state that fails to load."""


class RenderFailed(Exception):
    """Rendering failed in a worker; the message is the worker's traceback (for the log)."""
