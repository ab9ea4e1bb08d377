"""The domain's CPU-bound work (engines, rendering): the top-level jobs the service runs in
its worker pool (``bot/runtime/workers.py``), off the event loop.

The jobs are top-level functions over picklable values (a ``GameRow``, an action built with
``functools.partial`` from a top-level function of ``actions.py``, a renderer that is a
top-level function), and each does all the work of one request in one round trip: a move is
load, apply, next menu and render. What the service keeps of a version of a game is a
``Snapshot``: the menu (legal moves, their descriptions) and everything a board shows, but the
image.

Dice are never rolled here: the service rolls them in the main process (its roller may be a
seeded one under test) and sends them in the action.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain import events as game_events
from bot.domain.actions import natural_key, parse_game
from bot.domain.views import Fields, ServiceError
from bot.runtime import workers
from bot.storage.rows import GameEvent, GameRow
from games import Game
from games.base import DiceSpec, LogEntry

Renderer = Callable[[Game], bytes]
Choices = tuple[tuple[str, str], ...]  # (canonical move, description) per menu entry
# An action on a loaded game: mutates it (or raises a ServiceError), returns extra columns.
Action = Callable[[GameRow, Game, float], dict[str, Any]]

# What a worker of the service's pool imports once, in the fork server (``Workers(preload=)``):
# the engines, the renderer and these jobs.
PRELOAD = (*workers.PRELOAD, __name__)


# ---- what the jobs return ------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """One stored version of a game as the service shows and checks it."""

    state: str  # the game's JSON (the main process loads it only to search the menu)
    title: str
    seat_names: tuple[str, ...]  # one per seat
    to_move: int | None
    mover: str  # game.mover_name()
    status: str
    last_action: str | None
    summary: Fields
    is_over: bool
    result: str | None
    dice_needed: DiceSpec | None
    legal: tuple[str, ...]
    choices: Choices  # menu: legal moves in natural order, then whole turns; () once over
    answers: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Shown:
    snapshot: Snapshot
    image: bytes  # b"" when not asked for or when rendering failed
    render_error: str | None = None  # the worker's traceback when rendering failed


@dataclass(frozen=True)
class Applied:
    """An action applied: the columns to write, the new log entries, the new version."""

    columns: dict[str, Any]  # the action's columns, the new state, the result once over
    entries: list[tuple[int, LogEntry]]  # (ply, entry) logged by the action
    before: int | None  # the seat to move before the action
    shown: Shown


# ---- the jobs (run in a worker) ------------------------------------------------------


def show(row: GameRow, legal: tuple[str, ...] | None, renderer: Renderer | None) -> Shown:
    """The game's snapshot, and its board when ``renderer`` is given. ``legal``: the legal
    moves the service already knows for this version (spares generating them again)."""
    game = load(row, legal)
    return _shown(game, renderer)


def apply(
    row: GameRow,
    action: Action,
    now: float,
    legal: tuple[str, ...] | None,
    renderer: Renderer,
) -> Applied:
    """Load the stored version (with its known legal moves, if any), apply ``action``, and
    return what to write and show: one round trip per move."""
    game = load(row, legal)
    if game.is_over:
        raise ServiceError(f"This game is over: {game.result_text()}.")
    before, logged = game.to_move, len(game.log)
    columns = dict(action(row, game, now))
    shown = _shown(game, renderer)
    columns["state"] = shown.snapshot.state
    if game.is_over:
        columns |= {"status": "finished", "result": game.result_text(), "draw_offer_seat": None}
    entries = list(enumerate(game.log[logged:], start=logged + 1))
    return Applied(columns, entries, before, shown)


def history(row: GameRow, events: Sequence[GameEvent] = ()) -> list[str]:
    """The game record with its draw offers and takebacks among the moves, in the order they
    happened, then the result if over (see ``GameService.history``)."""
    game = load(row, None)
    turn_log = getattr(game, "turn_log", None)
    if callable(turn_log):
        lines = [str(line) for line in turn_log()]
        firsts = [index for index, entry in enumerate(game.log) if entry.dice is not None]
        if len(firsts) != len(lines):  # turns not told by their rolls: events go last
            firsts = [len(game.log)] * len(lines)
    else:
        lines = [history_line(ply, game, e) for ply, e in enumerate(game.log, start=1)]
        firsts = list(range(len(game.log)))
    lines = _with_events(lines, firsts, game, events)
    if game.is_over:
        lines.append(game.result_text())
    return lines


def _with_events(
    lines: list[str], firsts: list[int], game: Game, events: Sequence[GameEvent]
) -> list[str]:
    """``lines`` (each starting with the log entry ``firsts[i]``) with the events other than
    entries put in by time: each before the first line whose first entry was logged after it
    (ordered by the events' ids, which are the order they were written)."""
    logged = game_events.entry_events(events, len(game.log))
    shown = []
    for event in events:
        text = game_events.history_text(event, game.seat_names)
        if text is not None and event.id is not None:
            shown.append((event.id, text))
    merged: list[str] = []
    for line, first in zip(lines, firsts, strict=True):
        entry = logged[first] if first < len(logged) else None
        if entry is not None and entry.id is not None:
            merged += [text for at, text in shown if at < entry.id]
            shown = [(at, text) for at, text in shown if at > entry.id]
        merged.append(line)
    return merged + [text for _, text in shown]


def load(row: GameRow, legal: tuple[str, ...] | None) -> Game:
    """The game of a stored row. Without ``legal`` the legal moves are generated (a damaged
    position often fails only there); with the list known for this version they are not."""
    if legal is None:
        return parse_game(row)
    game = parse_game(row, full_check=False)
    game._legal_cache = list(legal)  # the same state gave this list: sorted, canonical
    return game


def _shown(game: Game, renderer: Renderer | None) -> Shown:
    snapshot = snapshot_of(game)
    if renderer is None:
        return Shown(snapshot, b"")
    try:
        return Shown(snapshot, renderer(game))
    except Exception:
        return Shown(snapshot, b"", traceback.format_exc())


def snapshot_of(game: Game) -> Snapshot:
    legal = tuple(game.legal_moves())
    choices: Choices = ()
    if not game.is_over:
        moves = sorted(legal, key=natural_key)
        choices = tuple((move, game.describe_move(move)) for move in moves)
        choices += tuple(game.line_choices())
    return Snapshot(
        state=game.to_json(),
        title=game.title,
        seat_names=tuple(game.seat_names[: game.seats]),
        to_move=game.to_move,
        mover=game.mover_name(),
        status=game.status_line(),
        last_action=last_action(game.log),
        summary=tuple(game.summary()),
        is_over=game.is_over,
        result=game.result_text() if game.is_over else None,
        dice_needed=game.dice_needed(),
        legal=legal,
        choices=choices,
        answers=tuple(game.answer_choices()),
    )


# ---- what the log shows ------------------------------------------------------------


def last_action(entries: Sequence[LogEntry]) -> str | None:
    """The last logged action, joined with what led to it by the same seat.

    A removal (``x...``) is shown after the move that made the mill, and moves after the
    roll they used, the whole turn since the roll: ``"d2-d3 xg7"``, ``"[3 5] 13-8 8-5"``.
    """
    if not entries:
        return None
    turn = [entries[-1]]
    for entry in reversed(entries[:-1]):
        if turn[0].dice is not None or entry.seat != turn[0].seat:
            break
        turn.insert(0, entry)
    if turn[0].dice is not None:
        return " ".join(str(entry) for entry in turn)
    shown = [entries[-1]]
    for entry in reversed(entries[:-1]):
        latest = shown[0]
        is_removal = (latest.move or "").startswith("x")
        if entry.seat != latest.seat or not (entry.dice is not None or is_removal):
            break
        shown.insert(0, entry)
    return " ".join(str(entry) for entry in shown)


def history_line(ply: int, game: Game, entry: LogEntry) -> str:
    name = game.seat_names[entry.seat]
    if entry.dice is not None:
        return f"{ply}. {name} rolls {entry}"
    return f"{ply}. {name} {entry.move}"
