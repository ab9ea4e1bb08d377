"""Game records: every game kept as a versioned JSON document, replayed move by move.

A record holds what a position cannot: who played, every move in the game's notation with
the dice rolled before it, how the game ended and when. Loading a record replays it from
the start through the engine, so a record edited by hand or meant for another game is
refused with the ply and the reason (``RecordError``). The format is described in
``docs/records.md``; ``RECORD_VERSION`` changes whenever a reader of an older version
could misread a newer record.

Pure: no I/O, no Discord, no Pillow. ``text_record`` gives the plain move list with a
short header, PGN-like, for reading.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Game, IllegalMove, Outcome

RECORD_FORMAT = "idzeva-record"
RECORD_VERSION = 2  # 2: events (draw offers, takebacks and their answers) with times
EVENT_KINDS = (
    "draw-offer",
    "draw-accept",
    "draw-decline",
    "takeback-ask",
    "takeback-accept",
    "takeback-decline",
    "hint",
)
HINT = "hint"  # a player took a hint (``/game hint``): the record counts them per side
MAX_PLIES = 100_000  # far beyond any real game; a guard against a runaway file


class RecordError(ValueError):
    """A record that cannot be replayed. ``ply`` is the move it fails at (1-based), or None
    when the record is wrong as a whole (format, game, variants)."""

    def __init__(self, reason: str, ply: int | None = None):
        self.reason = reason
        self.ply = ply
        super().__init__(f"ply {ply}: {reason}" if ply is not None else reason)


@dataclass(frozen=True)
class Player:
    """Who sat at ``seat``: a name and a Discord id when known (offline games have none)."""

    seat: int
    name: str | None = None
    id: int | None = None


@dataclass(frozen=True)
class RecordedMove:
    """Ply ``ply`` (1-based): ``seat`` played ``move``, after the rolls in ``dice``."""

    ply: int
    seat: int
    move: str
    dice: tuple[tuple[int, ...], ...] = ()
    at: str | None = None  # ISO 8601 UTC time, where known


@dataclass
class GameRecord:
    """A whole game as the record format stores it (see ``docs/records.md``)."""

    game: str
    variants: tuple[str, ...] = ()
    seats: int = 2
    players: tuple[Player, ...] = ()
    start: dict[str, Any] | None = None  # the engine state the game began from, if not the usual
    moves: list[RecordedMove] = field(default_factory=list)
    dice_after: tuple[tuple[int, ...], ...] = ()  # rolls made after the last move
    result: Outcome | None = None
    events: list[dict[str, Any]] = field(default_factory=list)  # draw offers, takebacks
    started_at: str | None = None
    ended_at: str | None = None

    # ---- JSON -------------------------------------------------------------------------

    def to_dict(self, game: Game | None = None) -> dict[str, Any]:
        """The JSON document. ``game`` (the replayed game) adds the seat names and title."""
        cls = _game_class(self.game)
        names = (game or self.new_game()).seat_names
        players = {p.seat: p for p in self.players}
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "title": cls.title,
            "variants": sorted(self.variants),
            "seats": self.seats,
            "players": [
                {
                    "seat": seat,
                    "side": names[seat] if seat < len(names) else f"Seat {seat + 1}",
                    "name": players[seat].name if seat in players else None,
                    "id": players[seat].id if seat in players else None,
                }
                for seat in range(self.seats)
            ],
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "start": self.start,
            "moves": [_move_dict(move) for move in self.moves],
            "dice_after": [list(roll) for roll in self.dice_after],
            "events": list(self.events),
            "result": self.result.to_dict() if self.result else None,
        }
        return data

    def to_json(self, game: Game | None = None) -> str:
        """The document as text: a field a line, a move (player, event) a line."""
        lines = []
        for key, value in self.to_dict(game).items():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                items = ",\n".join("  " + _compact(item) for item in value)
                lines.append(f"{json.dumps(key)}: [\n{items}\n ]")
            else:
                lines.append(f"{json.dumps(key)}: {_compact(value)}")
        return "{\n " + ",\n ".join(lines) + "\n}\n"

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read the document's fields (no replay yet: ``replay`` checks the moves)."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f'not a game record (no "format": "{RECORD_FORMAT}")')
        version = data.get("version")
        if not _is_whole_number(version):  # a bool is an int to Python, not to JSON
            raise RecordError(f"the record's version must be a whole number, not {version!r}")
        if not 1 <= version <= RECORD_VERSION:
            raise RecordError(
                f"record version {version!r} is not one this program reads (1..{RECORD_VERSION})"
            )
        try:
            return cls._read(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise RecordError(f"damaged record: {error!r}") from None

    @classmethod
    def _read(cls, data: dict[str, Any]) -> GameRecord:
        game = data["game"]
        _game_class(game)
        variants = tuple(_strings(data.get("variants", []), "variants"))
        seats = data.get("seats")
        if seats is not None and not _is_whole_number(seats):
            raise RecordError(f"seats must be a number, not {seats!r}")
        players = tuple(
            Player(int(p["seat"]), p.get("name"), _optional_int(p.get("id")))
            for p in data.get("players", [])
        )
        moves: list[RecordedMove] = []
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list):
            raise RecordError("moves must be a list")
        if len(raw_moves) > MAX_PLIES:
            raise RecordError(f"more than {MAX_PLIES} moves")
        for index, raw in enumerate(raw_moves, start=1):
            if not isinstance(raw, dict) or not isinstance(raw.get("move"), str):
                raise RecordError('a move entry needs a "move" string', index)
            if raw.get("ply", index) != index:
                raise RecordError(f"numbered {raw.get('ply')!r}, expected {index}", index)
            seat = raw.get("seat")
            if not _is_whole_number(seat):
                raise RecordError(f"seat must be a number, not {seat!r}", index)
            dice = _rolls(raw.get("dice", []), index)
            moves.append(RecordedMove(index, seat, raw["move"], dice, raw.get("at")))
        result = data.get("result")
        outcome = None if result is None else _declared_outcome(result)
        events = _events(data.get("events", []))
        return cls(
            game=game,
            variants=variants,
            seats=seats if seats is not None else _game_class(game).seat_counts[0],
            players=players,
            start=data.get("start"),
            moves=moves,
            dice_after=_rolls(data.get("dice_after", []), len(moves) + 1),
            result=outcome,
            events=list(events),
            started_at=data.get("started_at"),
            ended_at=data.get("ended_at"),
        )

    # ---- replay -----------------------------------------------------------------------

    def new_game(self) -> Game:
        """The position the record starts from."""
        cls = _game_class(self.game)
        try:
            game = cls(self.variants, self.seats)
        except ValueError as error:
            raise RecordError(str(error)) from None
        if self.start is not None:
            try:
                game = cls.from_dict(
                    {
                        "game": cls.key,
                        "variants": sorted(self.variants),
                        "seats": self.seats,
                        "state": self.start,
                    }
                )
                game.legal_moves()
            except Exception as error:  # any damage in the start position refuses it
                raise RecordError(f"damaged start position: {error!r}"[:300]) from None
        return game

    def replay(self, upto: int | None = None, *, start: tuple[int, Game] | None = None) -> Game:
        """The game after ``upto`` moves (all of them by default, with the result); raises
        RecordError naming the ply where the record stops making sense. Before the last
        move, the dice of the next move are already rolled. ``start``: (ply, game) as an
        earlier ``replay(ply)`` left it, to go on from there instead of from the start."""
        total = len(self.moves)
        last = total if upto is None else max(0, min(upto, total))
        done, game = start if start is not None else (0, self.new_game())
        if not 0 <= done <= last or (start is not None and done == total):
            raise ValueError(f"cannot replay from ply {done} to ply {last}")
        rolled = start is not None  # the dice of move done + 1 are on the board already
        for recorded in self.moves[done:last]:
            _replay_move(game, recorded, rolled)
            rolled = False
        if last < total:
            if not rolled:
                for roll in self.moves[last].dice:
                    _roll(game, roll, last + 1)
            return game
        for roll in self.dice_after:
            _roll(game, roll, last + 1)
        self._check_result(game)
        return game

    def _check_result(self, game: Game) -> None:
        """The declared result must be what the moves give, or, when they do not end the
        game, an ending it can have without them (``endings_outside_moves``)."""
        ply = len(self.moves)
        declared = self.result
        if game.outcome is not None:
            if declared is None:
                raise RecordError(
                    f"the game ended ({game.result_text()}) but the record has no result", ply
                )
            if declared != game.outcome:
                raise RecordError(
                    f"the record's result ({_outcome_words(game, declared)}) is not what "
                    f"the moves give ({_outcome_words(game, game.outcome)})",
                    ply,
                )
            return
        if declared is not None:
            game.outcome = _ending_outside_moves(game, declared, ply)


def endings_outside_moves(game: Game) -> list[Outcome]:
    """How ``game`` (not over) can still end without another move, each as its engine
    scores it: a resignation by any seat, an agreed draw, or a timeout claimed by a seat of
    a team that is not to move (as the bot allows claims)."""

    def ended(finish: Callable[[Game], None]) -> Outcome:
        trial = game.copy()
        finish(trial)
        assert trial.outcome is not None
        return trial.outcome

    mover = game.to_move
    waiting = [
        seat
        for seat in range(game.seats)
        if mover is None or game.team_of(seat) != game.team_of(mover)
    ]
    endings = [ended(lambda trial, seat=seat: trial.resign(seat)) for seat in range(game.seats)]
    endings.append(ended(lambda trial: trial.agree_draw()))
    endings += [ended(lambda trial, seat=seat: trial.claim_timeout(seat)) for seat in waiting]
    return list(dict.fromkeys(endings))  # partners resigning end the game alike


def _ending_outside_moves(game: Game, declared: Outcome, ply: int) -> Outcome:
    """The engine's outcome equal to ``declared`` among ``endings_outside_moves(game)``;
    RecordError saying what the record could have declared otherwise."""
    endings = endings_outside_moves(game)
    if declared in endings:
        return endings[endings.index(declared)]
    words = _outcome_words(game, declared)
    alike = sorted(
        (ending for ending in endings if ending.reason == declared.reason),
        key=lambda ending: ending.winners,
    )
    if not alike:
        reasons = [repr(reason) for reason in dict.fromkeys(e.reason for e in endings)]
        raise RecordError(
            f"the record's result ({words}) is not what the moves give: they do not end the "
            f"game, so its result can only be a {', '.join(reasons[:-1])} or {reasons[-1]}",
            ply,
        )
    options = " or ".join(_outcome_words(game, ending) for ending in alike)
    raise RecordError(
        f"the record's result ({words}) is not what {declared.reason!r} gives here ({options})",
        ply,
    )


# ---- building records -----------------------------------------------------------------


def record_from_game(
    game: Game,
    *,
    origin: Game | None = None,
    players: Sequence[Player] = (),
    started_at: str | None = None,
    ended_at: str | None = None,
    events: Iterable[dict[str, Any]] = (),
    move_times: Sequence[str | None] = (),
) -> GameRecord:
    """The record of ``game`` (its log and outcome). ``origin``: the position its log starts
    from when that is not the usual start (a position file); ``move_times``: one ISO time
    per move, where known."""
    start = None
    if origin is not None:
        usual = type(game)(game.variant_set, game.seats)
        if origin._state() != usual._state():
            start = json.loads(json.dumps(origin._state()))
    moves: list[RecordedMove] = []
    rolls: list[tuple[int, ...]] = []
    for entry in game.log:
        if entry.dice is not None:
            rolls.append(tuple(entry.dice))
            continue
        assert entry.move is not None
        ply = len(moves) + 1
        at = move_times[ply - 1] if ply - 1 < len(move_times) else None
        moves.append(RecordedMove(ply, entry.seat, entry.move, tuple(rolls), at))
        rolls = []
    return GameRecord(
        game=game.key,
        variants=tuple(sorted(game.variant_set)),
        seats=game.seats,
        players=tuple(players),
        start=start,
        moves=moves,
        dice_after=tuple(rolls),
        result=game.outcome,
        events=list(events),
        started_at=started_at,
        ended_at=ended_at,
    )


def load_record(data: str | bytes | dict[str, Any]) -> tuple[GameRecord, Game]:
    """Parse and replay a record (JSON text or parsed); RecordError if it does not replay."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as error:
            raise RecordError(f"not JSON: {error}") from None
    record = GameRecord.from_dict(data)
    return record, record.replay()


def is_record(data: Any) -> bool:
    """Does this parsed JSON claim to be a game record (rather than a saved position)?"""
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT


# ---- the readable move list -----------------------------------------------------------


def score_text(score: Sequence[float]) -> str:
    """``1-0``, ``½-½``, ``1-0-1-0``."""
    return "-".join("½" if s == 0.5 else f"{s:g}" for s in score)


def text_record(record: GameRecord, game: Game | None = None) -> str:
    """The move list with a short header, one ply a line: ``12. White [3 5] a1-b2``."""
    cls = _game_class(record.game)
    game = game or record.new_game()
    names = game.seat_names
    players = {p.seat: p for p in record.players}
    header = [("Game", cls.title), ("Variants", ", ".join(sorted(record.variants)) or "-")]
    for seat in range(record.seats):
        side = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        header.append((side, (players[seat].name if seat in players else None) or "?"))
    if record.started_at:
        header.append(("Started", record.started_at))
    if record.ended_at:
        header.append(("Ended", record.ended_at))
    if record.start is not None:
        header.append(("Start", "from a set position"))
    header.append(("Result", score_text(record.result.score) if record.result else "*"))
    if record.result:
        header.append(("Reason", record.result.reason))
    header.append(("Plies", str(len(record.moves))))
    hints = hint_counts(record.events, record.seats)
    if any(hints):
        side_names = [
            names[seat] if seat < len(names) else f"Seat {seat + 1}" for seat in range(record.seats)
        ]
        header.append(
            ("Hints", ", ".join(f"{n} {count}" for n, count in zip(side_names, hints, strict=True)))
        )
    lines = [f'[{key} "{value}"]' for key, value in header]
    lines.append("")
    width = len(str(len(record.moves)))
    # Events after the move they follow (``ply``: moves played then); a takeback's undone
    # moves are not in the list, so its event shows where the game went on from.
    by_ply: dict[int, list[dict[str, Any]]] = {}
    for index, event in enumerate(record.events):
        ply = event.get("ply")
        if isinstance(event.get("to_ply"), int) and _accepted(record.events, index):
            ply = event["to_ply"]
        by_ply.setdefault(ply if isinstance(ply, int) else len(record.moves), []).append(event)
    lines += [_event_words(e, names) for e in by_ply.pop(0, [])]
    for move in record.moves:
        side = names[move.seat] if 0 <= move.seat < len(names) else f"Seat {move.seat + 1}"
        dice = "".join(f"[{' '.join(map(str, roll))}] " for roll in move.dice)
        lines.append(f"{move.ply:>{width}}. {side}: {dice}{move.move}")
        lines += [_event_words(e, names) for e in by_ply.pop(move.ply, [])]
    if record.dice_after:
        lines.append(
            "   then rolled " + " ".join(f"[{' '.join(map(str, r))}]" for r in record.dice_after)
        )
    for ply in sorted(by_ply):  # past the last move (a hand-written record)
        lines += [_event_words(e, names) for e in by_ply[ply]]
    if record.result:
        lines.append(f"   {_result_words(game, record.result)}")
    return "\n".join(lines) + "\n"


# ---- helpers --------------------------------------------------------------------------


def _game_class(key: Any) -> type[Game]:
    from . import GAMES  # the registry imports this module's siblings

    if not isinstance(key, str) or key not in GAMES:
        raise RecordError(f"unknown game {key!r}; known: {', '.join(sorted(GAMES))}")
    return GAMES[key]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _move_dict(move: RecordedMove) -> dict[str, Any]:
    data: dict[str, Any] = {"ply": move.ply, "seat": move.seat, "move": move.move}
    if move.dice:
        data["dice"] = [list(roll) for roll in move.dice]
    if move.at is not None:
        data["at"] = move.at
    return data


def _strings(values: Any, what: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise RecordError(f"{what} must be a list of names")
    return values


def _events(values: Any) -> list[dict[str, Any]]:
    """The record's events, checked field by field (they are shown, never replayed)."""
    if not isinstance(values, list):
        raise RecordError("events must be a list")
    if len(values) > MAX_PLIES:
        raise RecordError(f"more than {MAX_PLIES} events")
    checked = []
    for number, event in enumerate(values, start=1):
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise RecordError(f'event {number} needs an "event" name')
        for key in ("ply", "seat", "asker", "to_ply"):
            value = event.get(key)
            if value is not None and not _is_whole_number(value):
                raise RecordError(f"event {number}: {key} must be a number, not {value!r}")
        if event.get("at") is not None and not isinstance(event["at"], str):
            raise RecordError(f"event {number}: at must be a time in ISO 8601")
        undone = event.get("undone")
        if undone is not None:
            _strings(undone, f"event {number}: undone")
        checked.append(dict(event))
    return checked


def _accepted(events: Sequence[dict[str, Any]], index: int) -> bool:
    """Is event ``index`` an accepted takeback (or the request that was accepted)?"""
    kind = events[index].get("event")
    if kind == "takeback-accept":
        return True
    if kind != "takeback-ask":
        return False
    answers = (e.get("event") for e in events[index + 1 :])
    return next((a for a in answers if str(a).startswith("takeback-")), None) == "takeback-accept"


def _event_words(event: dict[str, Any], names: Sequence[str]) -> str:
    """``   (Black accepts the takeback: White's c4 undone, 2027-01-15T08:05:00Z)``."""
    text = event_text(event, names)
    if event.get("at"):
        text += f", {event['at']}"
    return f"   ({text})"


def hint_counts(events: Iterable[dict[str, Any]], seats: int) -> tuple[int, ...]:
    """The hints each seat took (its ``hint`` events), seat by seat."""
    counts = [0] * seats
    for event in events:
        seat = event.get("seat")
        if event.get("event") == HINT and _is_whole_number(seat) and 0 <= seat < seats:
            counts[seat] += 1
    return tuple(counts)


def event_text(event: dict[str, Any], names: Sequence[str]) -> str:
    """An event of the record (as ``events`` lists it) in words, naming the sides by
    ``names``: ``Black accepts the takeback: White's d2-d3 xg7 undone``."""

    def side(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event.get("event", "event")
    words = {
        "draw-offer": "offers a draw",
        "draw-accept": "accepts the draw",
        "draw-decline": "declines the draw",
        "takeback-ask": "asks for a takeback",
        "takeback-decline": "declines the takeback",
        HINT: "takes a hint",
    }
    if kind == "takeback-accept":
        undone = " ".join(event.get("undone") or [])
        text = f"{side(event.get('seat'))} accepts the takeback: {side(event.get('asker'))}'s"
        text += f" {undone} undone" if undone else " move undone"
    else:
        text = f"{side(event.get('seat'))} {words.get(kind, kind)}"
    return text


def _is_whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _optional_int(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RecordError(f"a player id must be a number, not {value!r}")
    return int(value)


def _rolls(values: Any, ply: int) -> tuple[tuple[int, ...], ...]:
    if not isinstance(values, list):
        raise RecordError("dice must be a list of rolls, e.g. [[3, 5]]", ply)
    rolls = []
    for roll in values:
        if not isinstance(roll, list) or not all(_is_whole_number(d) for d in roll):
            raise RecordError(f"a roll must be a list of numbers, not {roll!r}", ply)
        rolls.append(tuple(roll))
    return tuple(rolls)


def _roll(game: Game, roll: tuple[int, ...], ply: int) -> None:
    if game.is_over:
        raise RecordError(f"roll {list(roll)} after the game ended ({game.result_text()})", ply)
    try:
        game.roll(roll)
    except IllegalMove as error:
        raise RecordError(f"roll {list(roll)}: {error.reason}", ply) from None


def _replay_move(game: Game, recorded: RecordedMove, rolled: bool = False) -> None:
    ply = recorded.ply
    for roll in () if rolled else recorded.dice:
        _roll(game, roll, ply)
    if game.is_over:
        raise RecordError(
            f"move {recorded.move!r} after the game ended ({game.result_text()})", ply
        )
    spec = game.dice_needed()
    if spec is not None:
        raise RecordError(f"move {recorded.move!r}: a {spec} roll is due first", ply)
    if recorded.seat != game.to_move:
        mover = game.seat_names[game.to_move] if game.to_move is not None else "nobody"
        raise RecordError(
            f"move {recorded.move!r} is given to seat {recorded.seat}, but {mover} "
            f"(seat {game.to_move}) is to move",
            ply,
        )
    try:
        game.push(recorded.move)
    except IllegalMove as error:
        raise RecordError(f"move {recorded.move!r}: {error.reason}", ply) from None
    except Exception as error:  # an engine choking on a hand-edited move refuses it
        raise RecordError(f"move {recorded.move!r}: {error!r}"[:300], ply) from None


def _declared_outcome(result: Any) -> Outcome:
    """The record's ``result`` field, its types checked (whether it is true: on replay)."""
    if not isinstance(result, dict):
        raise RecordError("the result must be an object with winners, reason and score")
    winners, reason, score = result["winners"], result["reason"], result["score"]
    if not isinstance(winners, list) or not all(_is_whole_number(s) for s in winners):
        raise RecordError(f"the result's winners must be a list of seat numbers, not {winners!r}")
    if not isinstance(reason, str):
        raise RecordError("the result's reason must be text")
    if not isinstance(score, list) or not all(_is_number(points) for points in score):
        raise RecordError(f"the result's score must be a list of numbers, not {score!r}")
    return Outcome(tuple(winners), reason, tuple(score))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _outcome_words(game: Game, outcome: Outcome) -> str:
    """``Black wins: resignation, 0-1``."""
    return f"{_result_words(game, outcome)}, {score_text(outcome.score)}"


def _result_words(game: Game, outcome: Outcome) -> str:
    if outcome.is_draw:
        return f"Draw: {outcome.reason}"
    names = " and ".join(
        game.seat_names[s] if 0 <= s < len(game.seat_names) else f"Seat {s + 1}"
        for s in outcome.winners
    )
    return f"{names} wins: {outcome.reason}"


__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "Player",
    "RecordError",
    "RecordedMove",
    "endings_outside_moves",
    "is_record",
    "load_record",
    "record_from_game",
    "score_text",
    "text_record",
]
