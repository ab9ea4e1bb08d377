"""Issue 37, Discord: a move the database cannot write (a full disk) is answered privately,
posts nothing and changes nothing; the next try goes through. The clock's loop, meeting the
same, logs it and does the work later."""

from __future__ import annotations

import sqlite3

from bot.domain.jobs import LEASE_SECONDS
from bot.storage.rows import StoreUnavailable

from .helpers import (
    TICK,
    boards,
    challenge,
    footer,
    latest_board,
    play,
    refused,
    start_game,
    updated,
)

NOT_SAVED = "Could not save your move: try again shortly."


def fail_once(store, method: str) -> None:
    """The store's ``method`` cannot write, once, as with a full disk."""
    original = getattr(store, method)
    calls = []

    async def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            full = sqlite3.OperationalError("database or disk is full")
            raise StoreUnavailable(f"could not write to the database: {full}") from full
        return await original(*args, **kwargs)

    setattr(store, method, failing)


async def test_a_move_the_disk_cannot_take_is_refused_privately_and_changes_nothing(
    world, no_logged_errors
):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    board, shown = latest_board(match.where), len(match.where.history())
    fail_once(w.env.bot.store, "update_game")

    result = await w.bob.slash(match.where, "shax move", move="d3")

    assert refused(result, NOT_SAVED) == NOT_SAVED  # private, and all that is said
    assert len(match.where.history()) == shown  # no board, no notice
    assert latest_board(match.where).id == board.id
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"
    [logged] = [r.getMessage() for r in no_logged_errors.records]
    assert logged.startswith(f"move({match.game_id}, {w.bob.id}, 'd3'")
    assert logged.endswith("not saved: database or disk is full")
    no_logged_errors.records.clear()

    await play(match, ["d3"])
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 3"
    assert len(boards(match.where)) == 3


async def test_the_clock_meeting_a_full_disk_logs_it_and_goes_on(world, no_logged_errors):
    w = world
    start = w.clock.now
    updated(
        await w.bob.click(await challenge(w.alice, w.bob, w.channel, time=3600), label="Accept")
    )
    [thread] = w.channel.threads
    fail_once(w.env.bot.store, "mark_reminded")

    w.clock.now = start + 30 * 60  # half the hour: a reminder is due
    await w.env.advance_time(TICK)
    assert [m for m in thread.history() if "it is your turn" in m.content] == []
    logged = [r.getMessage() for r in no_logged_errors.records]
    assert logged[0].startswith("tick(") and logged[0].endswith("database or disk is full")
    assert logged[1:] == ["deadline check failed"]
    no_logged_errors.records.clear()

    # The reminder's job was written before the failed write: it is sent, once, when its
    # lease runs out (bot/domain/jobs.py), and the game is marked reminded then.
    w.clock.now += LEASE_SECONDS
    await w.env.advance_time(TICK)
    await w.env.advance_time(TICK)
    assert len([m for m in thread.history() if "it is your turn" in m.content]) == 1
