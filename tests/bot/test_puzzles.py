"""Puzzles through the service and the store (issue 34, ``bot/domain/puzzles/``): the open
puzzle, the first answer counted (solved, failed, the streak), a refusal that changes
nothing, all kept across a restart; the daily puzzle posted once per server and day."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.config import Settings
from bot.domain import puzzles
from bot.domain.jobs import Outbox
from bot.domain.service import GameService, NotAllowed

from .conftest import ALICE, BOB, CHANNEL, DAY, GUILD, fake_renderer


def restarted(store, clock) -> GameService:
    """Another process on the same database (a restart)."""
    return GameService(
        store,
        settings=Settings(),
        clock=clock,
        renderer=fake_renderer,
        outbox=Outbox(store, clock, owner="other"),
    )


async def test_the_store_keeps_the_first_answer_only(store):
    assert await store.add_puzzle_answer(ALICE, "shax:1", True, 10.0) is True
    assert await store.add_puzzle_answer(ALICE, "shax:1", False, 11.0) is False
    assert await store.add_puzzle_answer(ALICE, "tchela:2", False, 12.0) is True
    assert await store.puzzle_answers(ALICE) == [("shax:1", True, 10.0), ("tchela:2", False, 12.0)]
    assert await store.puzzle_answers(BOB) == []


async def test_solved_then_failed_counts_and_streak_survive_a_restart(service, store, clock):
    first = await service.puzzle(ALICE, "shax", guild_id=GUILD)
    assert first.puzzle_id == "shax:1" and first.image == b"PNG"
    assert first.stats == puzzles.Stats() and first.answered is None
    again = await service.puzzle(ALICE, guild_id=GUILD)  # the open one, until answered
    assert again.puzzle_id == "shax:1"
    solution = puzzles.puzzle_of("shax:1").solutions[0]
    verdict = await service.answer_puzzle(ALICE, solution)
    assert verdict.solved and verdict.counted and verdict.stats.streak == 1

    service = restarted(store, clock)
    second = await service.puzzle(ALICE, "shax", guild_id=GUILD)
    assert second.puzzle_id == "shax:2" and second.stats.solved == 1
    clock.advance(60)
    verdict = await service.answer_puzzle(ALICE, puzzles.wrong_turn("shax:2"))
    assert not verdict.solved and verdict.counted
    assert verdict.why and verdict.solution in puzzles.puzzle_of("shax:2").solutions
    assert verdict.stats == puzzles.Stats(solved=1, failed=1, streak=0, best_streak=1)
    # Answering again (the solution now) counts nothing.
    late = await service.answer_puzzle(ALICE, verdict.solution)
    assert late.solved and not late.counted and late.stats.failed == 1


async def test_a_refused_answer_changes_nothing(service, store):
    with pytest.raises(NotAllowed, match="no puzzle open"):
        await service.answer_puzzle(BOB, "a1")
    await service.puzzle(BOB, "shax", guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not legal here"):
        await service.answer_puzzle(BOB, "x" * 500)
    with pytest.raises(NotAllowed, match="no puzzles for"):
        await service.puzzle(BOB, "chess", guild_id=GUILD)
    assert await store.puzzle_answers(BOB) == []


async def test_the_autocomplete_offers_the_open_puzzles_turns(service):
    assert await service.puzzle_choices(ALICE, "") == []
    await service.puzzle(ALICE, "shax", guild_id=GUILD)
    choices = await service.puzzle_choices(ALICE, "")
    assert 0 < len(choices) <= 25
    solution = puzzles.puzzle_of("shax:1").solutions[0]
    assert solution in [turn for turn, _label in await service.puzzle_choices(ALICE, solution)]


async def test_the_daily_puzzle_is_posted_once_per_server_and_day(service, store, clock):
    assert [n for n in await service.tick() if n.kind == "daily_puzzle"] == []
    await service.change_server_settings(GUILD, ALICE, manager=True, daily_puzzle=CHANNEL)
    settings = await service.server_settings(GUILD)
    assert settings.daily_puzzle == CHANNEL
    assert "Daily puzzle: in" in "\n".join(settings.lines())
    posted = [n for n in await service.tick() if n.kind == "daily_puzzle"]
    assert [(n.guild_id, n.channel_id) for n in posted] == [(GUILD, CHANNEL)]
    assert "/game puzzle game:daily" in posted[0].text
    assert [n for n in await service.tick() if n.kind == "daily_puzzle"] == []
    other = restarted(store, clock)  # another process, the same day: nothing again
    assert [n for n in await other.tick() if n.kind == "daily_puzzle"] == []
    day_one = await service.puzzle(BOB, "daily", guild_id=GUILD)
    today = time.strftime("%Y-%m-%d", time.gmtime(clock()))
    assert day_one.puzzle_id == puzzles.daily_id(GUILD, today)
    clock.advance(DAY)
    posted = [n for n in await other.tick() if n.kind == "daily_puzzle"]
    assert [n.guild_id for n in posted] == [GUILD]  # the next day's, by either process
    await service.change_server_settings(GUILD, ALICE, manager=True, daily_puzzle_off=True)
    clock.advance(DAY)
    assert [n for n in await service.tick() if n.kind == "daily_puzzle"] == []


async def test_the_daily_post_names_its_puzzle_for_its_board(service, store, clock):
    await service.change_server_settings(GUILD, ALICE, manager=True, daily_puzzle=CHANNEL)
    [post] = [n for n in await service.tick() if n.kind == "daily_puzzle"]
    today = time.strftime("%Y-%m-%d", time.gmtime(clock()))
    assert puzzles.daily_of_job(post.key) == (GUILD, today)
    assert await service.daily_puzzle_picture(post) == b"PNG"  # the service's renderer
    assert puzzles.daily_of_job("reminder:12:7") is None
    assert puzzles.daily_of_job("daily-puzzle:x:2026-11-29") is None


async def test_racing_writers_of_a_value_once_all_read_the_first(store):
    values = [f"shax:{n}" for n in range(1, 11)]
    kept = await asyncio.gather(*(store.put_value_once("k", v, 10.0) for v in values))
    assert len(set(kept)) == 1 and kept[0] in values
    assert await store.get_value("k") == kept[0]
    assert await store.put_value_once("k", "tchela:1", 11.0) == kept[0]


async def test_a_deploy_adding_puzzles_keeps_the_days_puzzle(service, store, clock, monkeypatch):
    """The day's puzzle is chosen among the shipped ones; once posted or shown it stays,
    even if a new deploy's larger sets would choose another that day."""
    await service.change_server_settings(GUILD, ALICE, manager=True, daily_puzzle=CHANNEL)
    [post] = [n for n in await service.tick() if n.kind == "daily_puzzle"]
    today = time.strftime("%Y-%m-%d", time.gmtime(clock()))
    first = puzzles.daily_id(GUILD, today)
    assert puzzles.title_of_puzzle(first) in post.text
    other = "tchela:1" if first != "tchela:1" else "shax:1"
    monkeypatch.setattr(puzzles, "daily_id", lambda guild_id, day: other)  # the new deploy
    deployed = restarted(store, clock)
    assert (await deployed.puzzle(BOB, "daily", guild_id=GUILD)).puzzle_id == first
    clock.advance(DAY)
    assert (await deployed.puzzle(BOB, "daily", guild_id=GUILD)).puzzle_id == other
    [post] = [n for n in await deployed.tick() if n.kind == "daily_puzzle"]
    assert puzzles.title_of_puzzle(other) in post.text
