"""Issue 37: a write the machine cannot make (a full disk, an I/O error). The player is told
privately "Could not save your move: try again shortly.", nothing of the move happened, the
admin gets a log line with the game and the cause; once there is room again, play goes on."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.domain.service import ServiceError
from bot.domain.views import SaveFailed
from bot.storage.postgres import PgConnection
from bot.storage.rows import StoreUnavailable
from bot.storage.sqlite import SqliteConnection

from .conftest import ALICE, BOB, GUILD, start_game

ROOT = Path(__file__).resolve().parents[2]
NOT_SAVED = "Could not save your move: try again shortly."

# What each backend raises when the disk is full, or cannot be written: SQLite's messages for
# SQLITE_FULL and SQLITE_IOERR; PostgreSQL's SQLSTATE 53100 ("could not extend file") and
# 58030 (class 58, a system error).
MACHINE_FAILURES = {
    ("sqlite", "full"): lambda: sqlite3.OperationalError("database or disk is full"),
    ("sqlite", "io"): lambda: sqlite3.OperationalError("disk I/O error"),
    ("postgres", "full"): lambda: asyncpg.DiskFullError(
        'could not extend file "base/16384/16385": No space left on device'
    ),
    ("postgres", "io"): lambda: asyncpg.PostgresIOError(
        'could not write to file "pg_wal/xlogtemp.123": Input/output error'
    ),
}
CONNECTIONS = {"sqlite": SqliteConnection, "postgres": PgConnection}


def fail_once_inside_the_write(monkeypatch, backend: str, error: Exception) -> None:
    """The move's event (inserted after its game row was updated, in the same transaction)
    fails once with ``error``, as the database would raise it."""
    connection = CONNECTIONS[backend]
    fetchone = connection.fetchone
    failures = [error]

    async def failing(self, sql, params=()):
        if sql.startswith("INSERT INTO game_events") and failures:
            raise failures.pop()
        return await fetchone(self, sql, params)

    monkeypatch.setattr(connection, "fetchone", failing)


@pytest.mark.parametrize("failure", ["full", "io"])
async def test_a_move_the_disk_cannot_take_is_refused_and_undone(
    service, store, backend, failure, monkeypatch, caplog
):
    board = await start_game(service)
    await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    before = await store.get_game(board.game_id)
    events = await store.game_events(board.game_id)
    cause = MACHINE_FAILURES[backend, failure]()
    fail_once_inside_the_write(monkeypatch, backend, cause)

    with caplog.at_level(logging.ERROR), pytest.raises(SaveFailed) as refused:
        await service.move(board.game_id, BOB, "d3", guild_id=GUILD)

    assert isinstance(refused.value, ServiceError)  # answered privately, as every refusal
    assert refused.value.message == NOT_SAVED
    assert isinstance(refused.value.__cause__, StoreUnavailable)
    assert refused.value.__cause__.__cause__ is cause
    # The game row was updated before the event failed: rolled back with it.
    assert await store.get_game(board.game_id) == before
    assert await store.game_events(board.game_id) == events
    # One line for whoever runs the bot: the call (with the game) and the cause.
    [logged] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert logged.getMessage().startswith(f"move({board.game_id}, {BOB}, 'd3'")
    assert str(cause) in logged.getMessage()

    after = await service.move(board.game_id, BOB, "d3", guild_id=GUILD)
    assert after.version == before.version + 1
    assert len(await store.game_events(board.game_id)) == len(events) + 1


def test_a_database_file_that_cannot_grow_refuses_the_move_until_it_can(tmp_path):
    """A real limit on the file's size (tests/bot/full_disk_child.py), in a process of its
    own: the next commit cannot be appended to the write-ahead log."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.bot.full_disk_child", str(tmp_path / "idzeva.db")],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["wal_size_while_full"] == seen["wal_size"]  # the limit held: nothing appended
    assert seen["refused"] is not None, "the move was saved past the limit"
    assert seen["refused"]["message"] == NOT_SAVED
    assert seen["refused"]["cause"] in (
        "OperationalError('disk I/O error')",
        "OperationalError('database or disk is full')",
    )
    assert seen["unchanged"]
    assert seen["counts_before_retry"] == seen["counts_before"]  # no row anywhere
    assert seen["version_after_retry"] == seen["version_before"] + 1
    assert seen["events_after_retry"] == seen["events_before"] + 1
    assert seen["counts_after_retry"]["game_events"] == seen["counts_before"]["game_events"] + 1
    # The admin's line, on the child's standard error.
    [logged] = done.stderr.splitlines()
    assert logged.startswith(f"ERROR bot.domain.service: move({seen['game_id']}, {BOB}, 'd3'")
    assert logged.endswith(seen["refused"]["cause"].split("'")[1])


async def test_a_move_saved_while_the_vacation_cannot_be_ended_stands(
    service, store, clock, monkeypatch, caplog
):
    # Alice moves during her vacation: the move is written first, then her vacation ends.
    # When only the second write fails, the move is not "not saved": it stands, its board is
    # shown, the vacation runs on (she may end it by hand) and the admin gets a log line.
    board = await start_game(service)
    await service.start_vacation(GUILD, ALICE, 3)
    vacations = type(service._vacations)  # the failure injected where it happens

    async def cannot_end(self, guild_id, user_id):
        raise StoreUnavailable("the disk is full") from sqlite3.OperationalError(
            "database or disk is full"
        )

    monkeypatch.setattr(vacations, "end", cannot_end)
    with caplog.at_level(logging.ERROR):
        moved = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)

    assert moved.version == board.version + 1
    assert not moved.back_from_vacation
    assert (await store.get_game(board.game_id)).version == board.version + 1
    [logged] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert logged.getMessage() == (
        f"vacation of {ALICE} not ended after their move in game {board.game_id}: "
        "database or disk is full"
    )
