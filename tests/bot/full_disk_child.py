"""A disk that fills up under a real SQLite file, in a process of its own (the file-size limit,
``RLIMIT_FSIZE``, holds for the whole process: never set it in pytest's). For
tests/bot/test_full_disk.py; run as ``python -m tests.bot.full_disk_child FILE``.

A game is started and a move played; then no file of the process may grow past the size
the write-ahead log has reached, so the next commit, which appends to the log, cannot be
written (CPython ignores ``SIGXFSZ``: the write fails with ``EFBIG``, which SQLite reports
as a disk I/O error or a full disk). A move is tried, and tried again once the limit is
lifted. Prints one JSON object saying what happened; logs go to standard error.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import sqlite3
import sys

from bot.config import Settings
from bot.domain.service import GameService
from bot.domain.views import SaveFailed
from bot.storage import open_store
from tests.bot.conftest import ALICE, BOB, GUILD, fake_renderer, start_game
from tests.fakes import FakeClock, QueuedRoller

FIRST_MOVE, REFUSED_MOVE = "d2", "d3"  # White places on d2; Black's d3 meets the full disk


def row_counts(path: str) -> dict[str, int]:
    """How many rows each table holds, read from the file as another process would."""
    with sqlite3.connect(path) as db:
        tables = [
            name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        counts = {
            table: db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables
        }
    db.close()
    return counts


def limit_file_size(size: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))


def lift_file_size_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))


async def main(path: str) -> dict:
    store = await open_store(path)
    service = GameService(
        store, settings=Settings(), clock=FakeClock(), roller=QueuedRoller(), renderer=fake_renderer
    )
    try:
        # No checkpoint from here on: the log only grows, so every commit appends to it.
        await store.pragma("wal_autocheckpoint = 0")
        board = await start_game(service)
        await service.move(board.game_id, ALICE, FIRST_MOVE, guild_id=GUILD)
        before = await store.get_game(board.game_id)
        events_before = await store.game_events(board.game_id)
        counts_before = row_counts(path)
        wal = os.path.getsize(path + "-wal")

        limit_file_size(wal)
        try:
            await service.move(board.game_id, BOB, REFUSED_MOVE, guild_id=GUILD)
            refused = None
        except SaveFailed as error:
            refused = {
                "class": type(error).__name__,
                "message": error.message,
                "cause": repr(error.__cause__.__cause__),
            }
        unchanged = (
            await store.get_game(board.game_id) == before
            and await store.game_events(board.game_id) == events_before
        )
        wal_while_full = os.path.getsize(path + "-wal")
        lift_file_size_limit()

        counts_before_retry = row_counts(path)
        after = await service.move(board.game_id, BOB, REFUSED_MOVE, guild_id=GUILD)
        return {
            "game_id": board.game_id,
            "wal_size": wal,
            "wal_size_while_full": wal_while_full,
            "refused": refused,
            "unchanged": unchanged,
            "version_before": before.version,
            "events_before": len(events_before),
            "counts_before": counts_before,
            "counts_before_retry": counts_before_retry,
            "version_after_retry": after.version,
            "events_after_retry": len(await store.game_events(board.game_id)),
            "counts_after_retry": row_counts(path),
        }
    finally:
        await service.close()
        await store.close()


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    print(json.dumps(asyncio.run(main(sys.argv[1]))))
