"""The service's CPU-bound work (engines, rendering), off the event loop.

``Workers`` runs jobs in a process pool sized to the machine, so that loading games,
generating legal moves and rendering boards use every core while the event loop only does
I/O (Discord, SQLite). The pool is spawned on first use and shut down with the service.
``Workers(0)`` runs the same jobs in a thread of this process instead: for tests, whose
injected renderers need not be picklable, and where a pool is not wanted.

The jobs are top-level functions over picklable values (a ``GameRow``, an action built with
``functools.partial`` from a top-level function, a renderer that is a top-level function),
and each does all the work of one request in one round trip: a move is load, apply, next
menu and render. What the service keeps of a version of a game is a ``Snapshot``: the menu
(legal moves, their descriptions) and everything a board shows, but the image.

Dice are never rolled here: the service rolls them in the main process (its roller may be a
seeded one under test) and sends them in the action.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from games import Game
from games.base import DiceSpec, LogEntry

if TYPE_CHECKING:
    from bot.storage.rows import GameRow

T = TypeVar("T")
Renderer = Callable[[Game], bytes]
Fields = tuple[tuple[str, str], ...]
Choices = tuple[tuple[str, str], ...]  # (canonical move, description) per menu entry
# An action on a loaded game: mutates it (or raises a ServiceError), returns extra columns.
Action = Callable[["GameRow", Game, float], dict[str, Any]]

# Imported once by the fork server, so that every worker starts with them loaded.
PRELOAD = ["games", "render", "bot.domain.service"]


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
    game = _load(row, legal)
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
    from bot.domain.service import ServiceError

    game = _load(row, legal)
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


def history(row: GameRow) -> list[str]:
    """The game record, then the result if over (see ``GameService.history``)."""
    from bot.domain.service import _history_line

    game = _load(row, None)
    turn_log = getattr(game, "turn_log", None)
    if callable(turn_log):
        lines = [str(line) for line in turn_log()]
    else:
        lines = [_history_line(ply, game, e) for ply, e in enumerate(game.log, start=1)]
    if game.is_over:
        lines.append(game.result_text())
    return lines


def echo(value: T) -> T:
    """Nothing: measures the pool's round trip."""
    return value


def _load(row: GameRow, legal: tuple[str, ...] | None) -> Game:
    """The game of a stored row. Without ``legal`` the legal moves are generated (a damaged
    position often fails only there); with the list known for this version they are not."""
    from bot.domain.actions import _parse_game

    if legal is None:
        return _parse_game(row)
    game = _parse_game(row, full_check=False)
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
    from bot.domain.service import last_action, natural_key

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


# ---- the pool ------------------------------------------------------------------------


class Workers:
    """Where the service's jobs run: ``processes`` worker processes (None: one per core),
    or, with 0, a thread of this process."""

    def __init__(self, processes: int | None = None):
        if processes is None:
            processes = max(1, os.cpu_count() or 1)
        if processes < 0:
            raise ValueError(f"workers must be 0 (threads) or more, not {processes}")
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        if not self.processes:
            return await asyncio.to_thread(job, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), job, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the jobs are pure, so start a new pool
            # and try once more.
            self._discard()
            return await loop.run_in_executor(self._executor(), job, *args)

    def pids(self) -> list[int]:
        """The worker processes running now (none before the first job)."""
        pool = self._pool
        return [] if pool is None else sorted(pool._processes)  # noqa: SLF001

    async def close(self) -> None:
        """Stop the workers (a later job starts a new pool)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A fork server, not fork: the bot's process has threads (SQLite, asyncio's
            # executor) that a forked child must not inherit mid-operation.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context)
        return self._pool

    def _discard(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
