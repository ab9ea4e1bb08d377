"""The one interface every game engine implements.

A ``Game`` is a mutable position plus its history, in the spirit of python-chess's
``Board``: ``legal_moves()`` lists canonical move strings, ``push()`` applies one,
``outcome`` says how the game ended. Engines are pure: no I/O, no Discord, no Pillow.

Subclasses implement the rules through a handful of hooks (``_legal``, ``_apply``,
``_state``/``_load_state``, ``to_move``, ``phase``, ``text_board``); everything shared
(dice, resignation, draws by agreement, the log, JSON) lives here once.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self


class IllegalMove(ValueError):
    """A move that cannot be played now. ``str()`` is a short sentence for players."""

    def __init__(self, move: str, reason: str, legal: Iterable[str] = ()):
        self.move = move
        self.reason = reason
        self.legal = tuple(legal)
        super().__init__(f"{move!r}: {reason}")


@dataclass(frozen=True)
class DiceSpec:
    """A roll the game needs before the next move: ``count`` dice of ``sides`` sides."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` is empty for a draw; ``score`` has one entry per seat."""

    winners: tuple[int, ...]
    reason: str
    score: tuple[float, ...]

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason, "score": list(self.score)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(tuple(data["winners"]), data["reason"], tuple(data["score"]))


@dataclass(frozen=True)
class LogEntry:
    """One action in the game record: a move by ``seat``, or a roll of ``dice`` for ``seat``."""

    seat: int
    move: str | None = None
    dice: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.dice is not None:
            return "[" + " ".join(map(str, self.dice)) + "]"
        return self.move or ""

    def to_dict(self) -> dict[str, Any]:
        if self.dice is not None:
            return {"seat": self.seat, "dice": list(self.dice)}
        return {"seat": self.seat, "move": self.move}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LogEntry:
        dice = data.get("dice")
        return cls(data["seat"], data.get("move"), tuple(dice) if dice is not None else None)


class Game(ABC):
    """Base class of every engine. Seats are numbered 0..seats-1."""

    key: ClassVar[str]  # registry name, e.g. "shax"
    title: ClassVar[str]  # display name, e.g. "Shax"
    aliases: ClassVar[tuple[str, ...]] = ()
    variants: ClassVar[dict[str, str]] = {}  # variant name -> one-line description
    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    seat_names: ClassVar[tuple[str, ...]] = ("First", "Second")
    rules_summary: ClassVar[str] = ""  # a few lines of plain text for players
    # Games whose turn has several moves (e.g. one per die) accept a whole turn at once,
    # moves separated by spaces: "M-SW W2-W7". Others read spaces as part of one move.
    accepts_move_lines: ClassVar[bool] = False
    # The variant that lets the second seat move first, where the game has one.
    second_seat_first: ClassVar[str | None] = None

    def __init__(self, variants: Iterable[str] = (), seats: int | None = None):
        chosen = frozenset(variants)
        unknown = chosen - set(self.variants)
        if unknown:
            known = ", ".join(sorted(self.variants)) or "none"
            raise ValueError(f"unknown variant {sorted(unknown)[0]!r} for {self.title} ({known})")
        seats = self.seat_counts[0] if seats is None else seats
        if seats not in self.seat_counts:
            raise ValueError(f"{self.title} is played by {self.seat_counts} seats, not {seats}")
        self.variant_set: frozenset[str] = chosen
        self.seats: int = seats
        self.log: list[LogEntry] = []
        self.outcome: Outcome | None = None
        self._legal_cache: list[str] | None = None
        self._setup()

    # ---- hooks for engines -------------------------------------------------

    @abstractmethod
    def _setup(self) -> None:
        """Set up the start position (variants and seats are known)."""

    @abstractmethod
    def _legal(self) -> list[str]:
        """Canonical legal moves of the player to move (the game is not over)."""

    @abstractmethod
    def _apply(self, move: str) -> None:
        """Apply a canonical move known to be legal; set ``self.outcome`` if it ends the game."""

    @abstractmethod
    def _state(self) -> dict[str, Any]:
        """The position as JSON-able data (everything but log, outcome, variants, seats)."""

    @abstractmethod
    def _load_state(self, data: dict[str, Any]) -> None:
        """Inverse of ``_state``."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must act now, or None once the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """A short word for players: "placement", "movement", ..."""

    @abstractmethod
    def text_board(self) -> str:
        """A plain-text picture of the position."""

    def normalize(self, text: str) -> str:
        """Turn what a player typed into canonical form (before the legality check)."""
        return text.strip()

    def _roll_needed(self) -> DiceSpec | None:
        """Dice games: the roll needed before the next move (None when none is)."""
        return None

    def _apply_roll(self, dice: tuple[int, ...]) -> None:
        raise NotImplementedError(f"{self.title} uses no dice")

    def _illegal_reason(self, move: str) -> str:
        """Why ``move`` is not legal now; engines may say more than the default."""
        return "not a legal move here"

    # ---- the public interface ---------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def ply(self) -> int:
        """Number of moves played (rolls not counted)."""
        return sum(1 for entry in self.log if entry.move is not None)

    def dice_needed(self) -> DiceSpec | None:
        """The roll to make before anyone may move, or None."""
        return None if self.is_over else self._roll_needed()

    def roll(self, dice: Iterable[int]) -> None:
        """Record a roll made by the caller (the server rolls; tests pass fixed dice)."""
        dice = tuple(int(d) for d in dice)
        spec = self.dice_needed()
        if spec is None:
            raise IllegalMove(str(list(dice)), "no roll is needed now")
        if len(dice) != spec.count or not all(1 <= d <= spec.sides for d in dice):
            raise IllegalMove(str(list(dice)), f"a roll here is {spec}")
        seat = self.to_move
        assert seat is not None
        self._apply_roll(dice)
        self.log.append(LogEntry(seat, dice=dice))
        self._legal_cache = None

    def legal_moves(self) -> list[str]:
        """Sorted canonical legal moves; empty once the game is over or while a roll is due."""
        if self.is_over or self.dice_needed() is not None:
            return []
        if self._legal_cache is None:
            self._legal_cache = sorted(self._legal())
        return list(self._legal_cache)

    def parse_move(self, text: str) -> str:
        """The canonical form of ``text`` if it is legal now; raises IllegalMove otherwise."""
        if self.is_over:
            raise IllegalMove(text, "the game is over")
        spec = self.dice_needed()
        if spec is not None:
            raise IllegalMove(text, f"roll the dice first ({spec})")
        move = self.normalize(text)
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMove(text, self._illegal_reason(move), legal)
        return move

    def push(self, text: str) -> str:
        """Play a move (any accepted spelling); returns its canonical form."""
        move = self.parse_move(text)
        self.push_legal(move)
        return move

    def push_legal(self, move: str) -> None:
        """Play ``move``, a canonical move taken from ``legal_moves()`` of this very
        position, without checking it again: the search's fast path (in Tchela checking a
        move sows every hole once more). Anything a player sends goes through ``push``."""
        seat = self.to_move
        assert seat is not None
        self._apply(move)
        self.log.append(LogEntry(seat, move=move))
        self._legal_cache = None

    def push_line(self, text: str) -> list[str]:
        """Play what a player typed: one move, or (where the game allows) several separated by
        spaces, all or nothing. Returns the canonical moves played.

        A move that ends the game ends the line: the moves typed after it are not played
        (the rest of the turn is void once the game is won)."""
        parts = text.split()
        if not self.accepts_move_lines or len(parts) <= 1:
            return [self.push(text)]
        trial = self.copy()
        played = 0
        for index, part in enumerate(parts, start=1):
            if trial.is_over:
                break
            try:
                trial.push(part)
            except IllegalMove as error:
                reason = f"move {index} of {len(parts)}: {error.reason}"
                raise IllegalMove(part, reason, error.legal) from None
            played = index
        return [self.push(part) for part in parts[:played]]

    def resign(self, seat: int) -> None:
        """``seat`` gives up; in a 2-seat game the other seat wins."""
        others = tuple(s for s in range(self.seats) if s != seat)
        self._finish(others, "resignation")

    def agree_draw(self) -> None:
        self._finish((), "agreed by both players")

    def claim_timeout(self, winner: int) -> None:
        """The waiting seat claims the win (with its team) after the opponent let the clock
        run out."""
        self._finish(self.team_seats(winner), "timeout")

    def team_of(self, seat: int) -> int:
        """The team a seat plays for; each seat is its own team unless a game says otherwise
        (Šačidjun: a side may be two seats)."""
        return seat

    def team_seats(self, seat: int) -> tuple[int, ...]:
        """``seat`` and its partners."""
        team = self.team_of(seat)
        return tuple(s for s in range(self.seats) if self.team_of(s) == team)

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        if self.is_over:
            raise IllegalMove(reason, "the game is over")
        self.outcome = self._outcome(winners, reason)
        self._legal_cache = None

    def _outcome(self, winners: tuple[int, ...], reason: str) -> Outcome:
        """An Outcome scoring 1 per winner (split on a draw)."""
        if winners:
            score = tuple(1.0 if s in winners else 0.0 for s in range(self.seats))
        else:
            score = tuple(1.0 / self.seats for _ in range(self.seats))
        return Outcome(tuple(winners), reason, score)

    def moves(self) -> list[str]:
        """The moves played so far, in order (rolls left out)."""
        return [entry.move for entry in self.log if entry.move is not None]

    def last_move(self) -> LogEntry | None:
        for entry in reversed(self.log):
            if entry.move is not None:
                return entry
        return None

    def status_line(self) -> str:
        """One line for players: whose turn and phase, or the result."""
        if self.outcome is not None:
            return self.result_text()
        seat = self.to_move
        assert seat is not None
        return f"{self.seat_names[seat]} to {self._action_word()} ({self.phase})"

    def describe_move(self, move: str) -> str:
        """A short human reading of a legal move for menus, e.g. "hole 7: sow 3, ends in 12"."""
        return move

    def summary(self) -> list[tuple[str, str]]:
        """(label, value) pairs describing the position for players, e.g. pieces in hand."""
        return [("Phase", self.phase)]

    def waits_for_roll(self, text: str) -> bool:
        """Whether this action must wait for a due roll (every move, unless a game says
        otherwise)."""
        return True

    def search_choices(
        self, choices: Sequence[tuple[str, str]], typed: str
    ) -> list[tuple[str, str]]:
        """The (move, description) menu entries matching what a player typed, best first.
        Games may read typing their own way (Poron Jikaida: piece names, drin squares)."""
        return filter_choices(choices, typed)

    def line_choices(self) -> list[tuple[str, str]]:
        """Whole turns (several moves, spaced) to offer in menus beside the single legal
        moves, as (line, description); none unless the game has multi-move turns."""
        return []

    def answer_choices(self) -> list[tuple[str, str]]:
        """Moves that answer a question (e.g. accept or refuse an offer), as (move, label):
        shown as buttons on the board; none by default."""
        return []

    def mover_name(self) -> str:
        """Who acts now, for messages like "White rolled 3 5"."""
        seat = self.to_move
        return self.seat_names[seat] if seat is not None else "Nobody"

    def _action_word(self) -> str:
        return "roll" if self.dice_needed() is not None else "move"

    def result_text(self) -> str:
        if self.outcome is None:
            return "in progress"
        if self.outcome.is_draw:
            return f"Draw: {self.outcome.reason}"
        names = " and ".join(self.seat_names[s] for s in self.outcome.winners)
        return f"{names} wins: {self.outcome.reason}"

    # ---- serialization -----------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.key,
            "variants": sorted(self.variant_set),
            "seats": self.seats,
            "state": self._state(),
            "log": [entry.to_dict() for entry in self.log],
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if data.get("game") != cls.key:
            raise ValueError(f"not a {cls.title} game: {data.get('game')!r}")
        game = cls(data.get("variants", ()), data.get("seats"))
        game._load_state(data["state"])
        game.log = [LogEntry.from_dict(e) for e in data.get("log", [])]
        outcome = data.get("outcome")
        game.outcome = Outcome.from_dict(outcome) if outcome else None
        return game

    def copy(self) -> Self:
        return type(self).from_dict(json.loads(self.to_json()))

    def replay(self, entries: Iterable[LogEntry]) -> None:
        """Apply logged entries (moves and rolls) from this position."""
        for entry in entries:
            if entry.dice is not None:
                self.roll(entry.dice)
            elif entry.move is not None:
                self.push(entry.move)


def filter_choices(choices: Sequence[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """The (move, description) pairs matching ``typed``: moves that start with it first, then
    moves that contain it, then moves whose description contains it. A trailing space asks
    for the rest of a turn: only whole turns that go on from the moves typed."""
    compact = typed.strip().lower().replace(" ", "")
    words = " ".join(typed.lower().split())
    if words and typed[-1:].isspace():
        return [(move, text) for move, text in choices if move.lower().startswith(words + " ")]
    starts: list[tuple[str, str]] = []
    contains: list[tuple[str, str]] = []
    described: list[tuple[str, str]] = []
    for move, description in choices:
        canonical = move.lower()
        if canonical.startswith(compact) or canonical.startswith(words):
            starts.append((move, description))
        elif compact in canonical:
            contains.append((move, description))
        elif words in description.lower():
            described.append((move, description))
    return starts + contains + described
