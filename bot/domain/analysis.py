"""Post-game analysis (issue 34): ``/game analysis``, the Analysis button of a finished
board, and ``idzeva analyse``. The judging is ``search/analysis.py``; the chart
``render/analysis_chart.py``; this module runs them and keeps the result.

- Only finished games. Anyone who may see the game may ask (its players, and whoever sees
  its channel in that server, as for ``/game replay``): a finished game is public there.
- The analysis runs in the service's analysis workers (``analysis_workers``: one process
  at low priority beside the move workers, so that it never holds up a move), in steps of
  ``STEP`` turns; each step is stored (``analyses`` table), so progress can be shown
  and a process killed in the middle leaves the steps done for whoever asks next.
- At most one analysis at a time per process (a lock), and never the same game twice: in
  this process the askers of one game wait on the same run; across processes the run
  holds a claim (``Outbox.claim``, renewed at every step; another process waits for the
  result in the store and takes over when the claim runs out). Once stored, the result is
  shown again without computing.
- The seed is the game's id: the same game gives the same analysis everywhere.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.domain.jobs import Outbox
from bot.domain.records import record_of_row
from bot.domain.takebacks import GameRowOf
from bot.domain.views import NotAllowed
from bot.runtime.workers import Workers
from bot.storage import GameStore
from bot.storage.rows import GameRow
from games import Game
from games.record import GameRecord
from render import render_png
from render.analysis_chart import SwingMark, win_chance_chart
from search.analysis import (
    Analysis,
    Judged,
    Turn,
    assemble,
    boundary_count,
    judge_range,
    position_after,
)

STEP = 4  # turns judged per worker job: progress shown, and kept, every STEP turns
LOW_PRIORITY = 10  # the analysis worker's niceness (moves run at the usual 0)
CLAIM_SECONDS = 300.0  # a run's claim, renewed at every step (a step takes seconds)
WAIT_POLL_SECONDS = 2.0  # another process's run: how often the store is read for it

Progress = Callable[[int, int], Awaitable[None]]


@dataclass(frozen=True)
class SwingBoard:
    """A swing, as shown: the board after the move played, and what it says."""

    caption: str
    image: bytes


@dataclass(frozen=True)
class Report:
    """A finished analysis as the cogs show it."""

    game_id: int
    title: str
    summary: str  # a few lines: average losses, and the swings named
    chart: bytes
    boards: tuple[SwingBoard, ...]


# ---- plain words -------------------------------------------------------------------------


def percent(share: float) -> str:
    return f"{round(share * 100)}%"


def turn_words(turn: Turn) -> str:
    return " ".join(turn.played)


def swing_caption(analysis: Analysis, turn: Turn, number: int) -> str:
    """``2. Black, move 7: played c3-d3 (win chance 100% -> 0%); better d5-c5 xa1.``"""
    side = analysis.seat_names[turn.seat]
    return (
        f"{number}. {side}, move {turn.ply + 1}: played {turn_words(turn)} (win chance"
        f" {percent(turn.best_share)} -> {percent(turn.share)}); better {' '.join(turn.best)}."
    )


def numbered_swings(analysis: Analysis) -> list[tuple[int, Turn]]:
    """Every side's largest swings, numbered in the order of the game."""
    turns = [turn for seat in range(len(analysis.seat_names)) for turn in analysis.swings(seat)]
    turns.sort(key=lambda turn: turn.ply)
    return list(enumerate(turns, start=1))


def summary_text(analysis: Analysis) -> str:
    """Each side's average loss per turn and its largest swings, in a few lines."""
    lines = []
    for seat, name in enumerate(analysis.seat_names):
        loss = analysis.average_loss(seat)
        shown = "no turn played" if loss is None else f"average loss {percent(loss)} a turn"
        lines.append(f"**{name}**: {shown}")
    swings = numbered_swings(analysis)
    if swings:
        lines.append("Largest swings:")
        lines += [swing_caption(analysis, turn, number) for number, turn in swings]
    else:
        lines.append("No swing: every turn played was as good as the bot's.")
    return "\n".join(lines)


# ---- the jobs (run in a worker) ------------------------------------------------------------


def chart_png(analysis: Analysis) -> bytes:
    """The win-chance chart: seat 0's side's share across the game, the swings numbered."""
    marks = [
        SwingMark(
            turn.ply + len(turn.played),
            analysis.share(turn.seat, turn.share),  # as seat 0's side's share
            0 if analysis.teams[turn.seat] == analysis.teams[0] else 1,
            str(number),
        )
        for number, turn in numbered_swings(analysis)
    ]
    names = analysis.seat_names
    first = " & ".join(n for s, n in enumerate(names) if analysis.teams[s] == analysis.teams[0])
    others = " & ".join(n for s, n in enumerate(names) if analysis.teams[s] != analysis.teams[0])
    title = f"{analysis.title}: {first}'s win chance"
    return win_chance_chart(analysis.points, marks, title, (first, others or "the others"))


def swing_boards(
    record: GameRecord, analysis: Analysis, renderer: Callable[[Game], bytes] = render_png
) -> tuple[SwingBoard, ...]:
    """The board after each swing's move (the renderer marks the last move), captioned."""
    return tuple(
        SwingBoard(swing_caption(analysis, turn, number), renderer(position_after(record, turn)))
        for number, turn in numbered_swings(analysis)
    )


def report_job(game_id: int, record_json: str, analysis_json: str) -> Report:
    """The pictures and words of a stored analysis (a job for the worker pool)."""
    record = GameRecord.from_dict(json.loads(record_json))
    analysis = Analysis.from_json(analysis_json)
    return Report(
        game_id,
        analysis.title,
        summary_text(analysis),
        chart_png(analysis),
        swing_boards(record, analysis),
    )


def record_job(row: GameRow) -> tuple[str, int]:
    """The finished game's record (JSON) and how many boundaries its analysis judges."""
    record = record_of_row(row)
    return record.to_json(), boundary_count(record)


def judge_step(
    record_json: str, first: int, stop: int, seed: int, size: int | None
) -> list[Judged]:
    """``search.analysis.judge_range`` at low priority: in a worker process, it first lowers
    its own priority (the analysis workers run nothing else); in a thread (tests, tools)
    it leaves the process alone."""
    lower_priority_in_worker()
    return judge_range(record_json, first, stop, seed, size)


def lower_priority_in_worker() -> None:
    """``lower_priority`` in a worker process (whose pool runs only low-priority work);
    nothing in a thread, where the process is the bot's own."""
    if multiprocessing.parent_process() is not None:
        lower_priority()


def lower_priority() -> None:
    """This process ``LOW_PRIORITY`` steps nicer than its parent (the fork server, as nice
    as the bot), once: the move workers keep the bot's priority."""
    wanted = os.getpriority(os.PRIO_PROCESS, os.getppid()) + LOW_PRIORITY
    current = os.nice(0)
    if current < wanted:
        os.nice(wanted - current)


def assemble_job(record_json: str, judged: list[Judged], seed: int, size: int | None) -> str:
    record = GameRecord.from_dict(json.loads(record_json))
    return assemble(record, judged, seed, size).to_json()


def judged_to_json(judged: list[Judged]) -> str:
    return json.dumps([[j.value, list(j.best), j.best_value] for j in judged])


def judged_from_json(text: str) -> list[Judged]:
    return [Judged(value, tuple(best), best_value) for value, best, best_value in json.loads(text)]


# ---- the service's side ----------------------------------------------------------------------


class Analyses:
    """The service's post-game analyses, over its store, clock, outbox and workers;
    ``workers``: where an analysis runs (one low-priority process in the bot);
    ``render_workers``: where its pictures are drawn (the move workers);
    ``iterations``: a fixed search size per position (tests) instead of the analysis's;
    ``poll``: how often another process's run is looked for in the store (seconds)."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        outbox: Outbox,
        workers: Workers,
        render_workers: Workers,
        *,
        game_row: GameRowOf,
        iterations: int | None = None,
        poll: float = WAIT_POLL_SECONDS,
    ):
        self._store = store
        self._clock = clock
        self._outbox = outbox
        self._workers = workers
        self._render_workers = render_workers
        self._game_row = game_row
        self._iterations = iterations
        self._poll = poll
        self._one_at_a_time = asyncio.Lock()
        self._running: dict[int, asyncio.Task[str]] = {}
        self._watchers: dict[int, list[Progress]] = {}
        self.runs = 0  # analyses computed by this process (each game's at most once)

    async def report(self, game_id: int, guild_id: int, progress: Progress | None = None) -> Report:
        """The game's analysis, computed once and kept; ``progress(done, total)`` while it
        runs. ``NotAllowed`` for a game not finished."""
        row = await self._game_row(game_id, guild_id)
        if row.status != "finished":
            raise NotAllowed(f"Game #{game_id} is not over: the analysis is for finished games.")
        record_json, total = await self._render_workers.run(record_job, row)
        stored = await self._store.get_analysis(game_id)
        result = stored.result if stored is not None else None
        if result is None:
            result = await self._run_once(game_id, record_json, total, progress)
        return await self._render_workers.run(report_job, game_id, record_json, result)

    async def _run_once(
        self, game_id: int, record_json: str, total: int, progress: Progress | None
    ) -> str:
        """The analysis's JSON, from this process's run of the game (started here if none)."""
        watchers = self._watchers.setdefault(game_id, [])
        if progress is not None:
            watchers.append(progress)
        task = self._running.get(game_id)
        if task is None:
            task = asyncio.create_task(self._run(game_id, record_json, total))
            self._running[game_id] = task
            task.add_done_callback(lambda _: self._forget(game_id))
        try:
            return await asyncio.shield(task)
        finally:
            if progress is not None and progress in watchers:
                watchers.remove(progress)

    def _forget(self, game_id: int) -> None:
        self._running.pop(game_id, None)
        self._watchers.pop(game_id, None)

    async def _tell(self, game_id: int, done: int, total: int) -> None:
        for watcher in list(self._watchers.get(game_id, ())):
            try:
                await watcher(done, total)
            except Exception:  # a message that cannot be edited stops nothing
                continue

    async def _run(self, game_id: int, record_json: str, total: int) -> str:
        """Run the game's analysis here (one at a time in this process), or wait for
        another process's run while it holds the claim; the analysis's JSON."""
        key = f"analysis:{game_id}"
        async with self._one_at_a_time:
            while not await self._outbox.claim(key, CLAIM_SECONDS):
                stored = await self._store.get_analysis(game_id)  # another process's run
                if stored is not None and stored.result is not None:
                    return stored.result
                if stored is not None:
                    await self._tell(game_id, stored.done, stored.total)
                await asyncio.sleep(self._poll)
            stored = await self._store.get_analysis(game_id)
            if stored is not None and stored.result is not None:
                return stored.result
            kept = judged_from_json(stored.judged) if stored is not None else []
            judged = await self._judge_rest(game_id, key, record_json, total, kept)
            self.runs += 1
            seed, size = game_id, self._iterations
            result = await self._workers.run(assemble_job, record_json, judged, seed, size)
            await self._store.put_analysis(
                game_id, judged_to_json(judged), total, total, result, self._clock()
            )
            await self._tell(game_id, total, total)
            return result

    async def _judge_rest(
        self, game_id: int, key: str, record_json: str, total: int, judged: list[Judged]
    ) -> list[Judged]:
        """The boundaries after those ``judged`` already, ``STEP`` at a time in the analysis
        worker, each step kept and told, the claim renewed; all of them judged."""
        judged = list(judged)
        while len(judged) < total:
            await self._tell(game_id, len(judged), total)
            step = (record_json, len(judged), len(judged) + STEP, game_id, self._iterations)
            judged += await self._workers.run(judge_step, *step)
            await self._store.put_analysis(
                game_id, judged_to_json(judged), len(judged), total, None, self._clock()
            )
            await self._outbox.claim(key, CLAIM_SECONDS)  # still at it
        return judged

    async def mark_posted(self, game_id: int) -> bool:
        """Whether the game's analysis is to be posted in its thread now: True once."""
        return await self._store.mark_analysis_posted(game_id, self._clock())

    async def close(self) -> None:
        """Stop the analysis workers when they are the analyses' own."""
        if self._workers is not self._render_workers:
            await self._workers.close()
