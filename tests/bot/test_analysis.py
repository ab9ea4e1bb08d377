"""Post-game analyses through the service and the store (issue 34, bot/domain/analysis.py):
only finished games, computed once (even asked twice at once), kept with the game, and
resumed from the steps kept when a process died in the middle. A small fixed search
(``Settings.bot_iterations``)."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.config import Settings
from bot.domain import analysis, engine_jobs
from bot.domain.jobs import Outbox
from bot.domain.service import GameService, NotAllowed
from bot.runtime.workers import Workers
from search.analysis import Analysis

from .conftest import ALICE, BOB, GUILD, fake_renderer, start_game

ITERATIONS = 8


def make_service(store, clock, roller) -> GameService:
    return GameService(
        store,
        settings=Settings(bot_iterations=ITERATIONS),
        clock=clock,
        roller=roller,
        renderer=fake_renderer,
    )


@pytest.fixture
def service(store, clock, roller) -> GameService:
    return make_service(store, clock, roller)


async def finished_shax(service: GameService) -> int:
    """Alice (White) and Bob place six pieces, then Bob resigns."""
    board = await start_game(service)
    for user, move in [(ALICE, "a1"), (BOB, "d2"), (ALICE, "a4"), (BOB, "f4"), (ALICE, "g7")]:
        board = await service.move(board.game_id, user, move, guild_id=GUILD)
    await service.resign(board.game_id, BOB, guild_id=GUILD)
    return board.game_id


async def test_the_store_keeps_progress_then_the_result_which_nothing_replaces(store):
    assert await store.get_analysis(7) is None
    await store.put_analysis(7, "[[0.5, [], null]]", 1, 3, None, 100.0)
    row = await store.get_analysis(7)
    assert (row.game_id, row.judged, row.done, row.total, row.result) == (
        7,
        "[[0.5, [], null]]",
        1,
        3,
        None,
    )
    await store.put_analysis(7, "[1, 2, 3]", 3, 3, '{"done": true}', 101.0)
    await store.put_analysis(7, "[]", 0, 3, None, 102.0)  # a late step of a second run
    row = await store.get_analysis(7)
    assert (row.done, row.result) == (3, '{"done": true}')
    assert await store.mark_analysis_posted(7, 103.0) is True
    assert await store.mark_analysis_posted(7, 104.0) is False  # posted once
    assert await store.mark_analysis_posted(8, 104.0) is False  # no analysis: nothing to post


async def test_only_a_finished_game_is_analysed(service):
    board = await start_game(service)
    with pytest.raises(NotAllowed, match="not over"):
        await service.analysis(board.game_id, guild_id=GUILD)


async def test_asked_twice_at_once_it_is_computed_once_and_kept(service, store):
    game_id = await finished_shax(service)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    first, second = await asyncio.gather(
        service.analysis(game_id, guild_id=GUILD, progress=progress),
        service.analysis(game_id, guild_id=GUILD),
    )
    assert first == second
    assert service._analyses.runs == 1  # noqa: SLF001
    total = 6  # five turns and the end
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    kept = await store.get_analysis(game_id)
    assert kept.done == kept.total == total and kept.result is not None
    assert Analysis.from_json(kept.result).points[-1][0] == 5
    assert first.chart.startswith(b"\x89PNG") and "average loss" in first.summary
    again = await service.analysis(game_id, guild_id=GUILD)
    assert again == first and service._analyses.runs == 1  # noqa: SLF001


async def test_a_run_killed_in_the_middle_is_resumed_from_its_kept_steps(store, clock, roller):
    service = make_service(store, clock, roller)
    game_id = await finished_shax(service)
    # A process claimed the analysis, kept its first step, and died: its claim lapses.
    dead = Outbox(store, clock, owner="dead-process")
    assert await dead.claim(f"analysis:{game_id}", analysis.CLAIM_SECONDS)
    marked = [analysis.Judged(0.123, ("d2",), 0.25)] * analysis.STEP
    await store.put_analysis(
        game_id, analysis.judged_to_json(marked), analysis.STEP, 6, None, clock()
    )
    clock.advance(analysis.CLAIM_SECONDS + 1)
    restarted = make_service(store, clock, roller)
    report = await restarted.analysis(game_id, guild_id=GUILD)
    kept = Analysis.from_json((await store.get_analysis(game_id)).result)
    assert [point[1] for point in kept.points[: analysis.STEP]] == [0.123] * analysis.STEP
    assert kept.points[analysis.STEP][1] != 0.123  # the rest was judged after the restart
    assert report.game_id == game_id


def niceness_of_a_step(record_json: str) -> int:
    """In a worker: one analysis step, then how much nicer than its parent it runs."""
    analysis.judge_step(record_json, 0, 1, 0, 4)
    return os.nice(0) - os.getpriority(os.PRIO_PROCESS, os.getppid())


async def test_an_analysis_step_in_a_worker_runs_nicer_than_the_bot():
    from tests.test_analysis import blunder_record

    workers = Workers(1, preload=engine_jobs.PRELOAD)
    try:
        lowered = await workers.run(niceness_of_a_step, blunder_record().to_json())
    finally:
        await workers.close()
    assert lowered == min(analysis.LOW_PRIORITY, 19 - os.nice(0))


async def test_two_processes_asking_at_once_compute_it_once(service, store, clock):
    game_id = await finished_shax(service)

    async def game_row(game_id: int, guild_id: int):
        return await store.get_game(game_id)

    def process(owner: str) -> analysis.Analyses:
        outbox = Outbox(store, clock, owner=owner)
        workers = Workers(0)
        return analysis.Analyses(
            store, clock, outbox, workers, workers, game_row=game_row, iterations=8, poll=0.001
        )

    first, second = process("one"), process("two")
    shown = await asyncio.gather(first.report(game_id, GUILD), second.report(game_id, GUILD))
    assert shown[0] == shown[1]
    assert first.runs + second.runs == 1
