"""SQLite through aiosqlite: the connections, transactions and upgrades of the store
(bot/storage/sql.py holds its queries and methods, the same on PostgreSQL).

Two connections per ``Store`` on a file: one writes, one reads (an in-memory database has
the one). An ``asyncio.Lock`` serialises the writer's transactions; they run inside
``BEGIN IMMEDIATE`` so that two processes sharing the file queue up on SQLite's write lock.

- The schema is bot/storage/migrations.py (``SQLITE``); its version is ``PRAGMA
  user_version``. The upgrade to schema 3 compresses the states stored as text (a text
  value written by hand, or before schema 3, still reads as it is); an upgrade that freed
  most of the file gives the space back (``VACUUM``).
- ``seats`` has one row per (game, player), copied from ``games`` by triggers, with the
  game's guild, status and last update: a player's games are an index range, however many
  finished games the server holds.
- Every query the bot runs on each action has an index (tests check the query plans).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.storage.migrations import COMPRESSED_SINCE, RATED_SINCE, SQLITE, refuse_newer
from bot.storage.rows import StoreError, StoreUnavailable, encode_state
from bot.storage.sql import Dialect, SqlStore, queries, rate_finished

log = logging.getLogger(__name__)

# synchronous = FULL. In WAL mode NORMAL syncs the log only at checkpoints, so a power cut or
# an operating-system crash (not a crash of the bot: the system still writes what it was
# given) can lose the last commits: a move already shown to the players, with the next
# player's mention, would be gone after the restart, and the board in Discord would disagree
# with the database. FULL syncs the log at every commit. Its cost, measured by `make bench`
# (bench/storage.py, on a real file of this 2-core machine's disk, modes alternating): a
# game's update takes 0.2-1.3 ms with NORMAL and 0.5-6.5 ms with FULL (the fsync varies
# with the machine's load); whole Shax moves (engine, write, rendering) averaged 26.4, 47.3
# and 28.9 ms with NORMAL against 28.2, 40.4 and 33.3 ms with FULL in three runs on a busy
# machine: a few milliseconds at most, within the noise. Even at 6.5 ms a write, one
# connection commits 150 moves a second, above the load target (about 125 actions/s), and
# look-ups go through their own connection, which does not wait for a commit (with one
# connection, a look-up during writes took 2.4-6.3 ms at p50 with FULL against 1.6-2.0 with
# NORMAL; with two, 1.1-1.7 ms both ways): durability is worth its milliseconds.
SYNCHRONOUS = "FULL"

DIALECT = Dialect(
    listed_state="''",  # read as it is: text
    union_member="SELECT * FROM ({})",  # SQLite takes no parentheses around a UNION's part
    for_update="",  # a write transaction holds the whole database (BEGIN IMMEDIATE)
    skip_locked="",
    greatest="MAX",
    no_limit=-1,
    lock_ratings="",
)
QUERIES = queries(DIALECT)


class SqliteConnection:
    """An aiosqlite connection as the shared code uses it (bot/storage/sql.py)."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await _run(self._db, sql, params)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())


class Store(SqlStore):
    """Two connections to a database file: one writes (its transactions wait for each other
    on ``_lock``), one reads. In WAL mode a reader never waits for a writer, so look-ups
    (autocomplete, boards, lists) do not queue behind a commit and its fsync; each read sees
    every commit made before it started. An in-memory database has the one connection."""

    dialect = DIALECT
    queries = QUERIES

    def __init__(self, db: aiosqlite.Connection, reader: aiosqlite.Connection | None = None):
        self._db = db
        self._lock = asyncio.Lock()
        self._reader = reader or db
        self._read_lock = asyncio.Lock() if reader is not None else self._lock

    @classmethod
    async def open(
        cls,
        path: str,
        migrations: Sequence[str] = SQLITE,
        *,
        check: bool = False,
        synchronous: str = SYNCHRONOUS,
    ) -> Self:
        """Connect, configure and migrate. ``":memory:"`` gives a private in-memory database.

        A database that cannot be used (missing folder, not an SQLite file, read-only, an
        upgrade that fails; with ``check``, a failed ``PRAGMA quick_check``) raises
        ``StoreError`` with one line saying so.
        """
        _check_path(path)
        db = await _connect(path)
        try:
            await _configure(db, path, synchronous)
            if check:
                await _quick_check(db, path)
            to_rate = await _upgrade(db, path, migrations)
            reader = await _open_reader(path) if _is_file(path) else None
        except BaseException:
            await db.close()
            raise
        store = cls(db, reader)
        if to_rate:
            try:
                rated = await rate_finished(store)
            except BaseException:
                await store.close()
                raise
            log.info("database %s: rated %d finished games", path, rated)
        return store

    async def close(self) -> None:
        if self._reader is not self._db:
            await self._reader.close()
        await self._db.close()

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[SqliteConnection]:
        async with self._read_lock:
            yield SqliteConnection(self._reader)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[SqliteConnection]:
        """One write transaction, rolled back if the block raises."""
        async with self._lock:
            try:
                await _run(self._db, "BEGIN IMMEDIATE")
                yield SqliteConnection(self._db)
                await _run(self._db, "COMMIT")
            except BaseException as error:
                await _rollback(self._db)
                if is_machine_failure(error):
                    raise StoreUnavailable(f"could not write to the database: {error}") from error
                raise

    def _statement(self) -> contextlib.AbstractAsyncContextManager[SqliteConnection]:
        """One writer: a statement is a transaction of its own."""
        return self._write()

    async def _explain(self, sql: str, params: Sequence[Any]) -> list[str]:
        """``EXPLAIN QUERY PLAN``: one line per step."""
        rows = await self._fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
        return [row["detail"] for row in rows]

    async def pragma(self, name: str) -> Any:
        """A PRAGMA on the writing connection (the one whose settings matter)."""
        async with self._lock, self._db.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None


async def migrate(db: aiosqlite.Connection, migrations: Sequence[str] = SQLITE) -> int:
    """Apply the migrations past ``PRAGMA user_version``; migration N sets it to N."""
    if await _user_version(db) >= len(migrations):
        return await _user_version(db)
    for number, script in enumerate(migrations, start=1):
        try:
            await _run(db, "BEGIN IMMEDIATE")
            # Re-read inside the write lock: another process may have migrated meanwhile.
            if await _user_version(db) < number:
                for statement in split_sql(script):
                    await _run(db, statement)
                await _run(db, f"PRAGMA user_version = {number:d}")
        except BaseException:
            await _rollback(db)
            raise
        await _run(db, "COMMIT")
    return await _user_version(db)


def _is_file(path: str) -> bool:
    """False for SQLite's special names: in-memory and temporary databases, URIs."""
    return path not in ("", ":memory:") and not path.startswith("file:")


def _check_path(path: str) -> None:
    """Refuse, with one line, a database the bot could not write (before SQLite tries)."""
    if not _is_file(path):
        return
    file = Path(path)
    folder = file.parent
    if not folder.is_dir():
        raise StoreError(f"cannot open the database {path}: the folder {folder} does not exist")
    if file.is_dir():
        raise StoreError(f"cannot open the database {path}: it is a folder, not a file")
    # The write bits too: root may write any file, but a file made read-only on purpose
    # (chmod a-w, a backup mounted for reading) must not be changed behind its owner.
    if file.exists() and (
        not os.access(file, os.R_OK | os.W_OK) or not file.stat().st_mode & 0o222
    ):
        raise StoreError(f"the database {path} is read-only: the bot must be able to write it")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"cannot use the database {path}: the folder {folder} is not writable"
            " (SQLite keeps its write-ahead log beside the file)"
        )


async def _configure(db: aiosqlite.Connection, path: str, synchronous: str) -> None:
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
    try:
        await _run(db, "PRAGMA busy_timeout = 5000")
        async with db.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        await _run(db, f"PRAGMA synchronous = {synchronous.upper()}")
        await _run(db, "PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise StoreError(f"{path} is not an SQLite database (IDZEVA_DB names it)") from error
        raise StoreError(f"cannot open the database {path}: {error}") from error
    mode = str(row[0]).lower() if row else "unknown"
    if _is_file(path) and mode != "wal":
        raise StoreError(f"cannot use the database {path}: it stays in {mode} journal mode")


async def _connect(path: str) -> aiosqlite.Connection:
    try:
        # isolation_level=None: no implicit transactions, we issue BEGIN/COMMIT ourselves.
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open the database {path}: {error}") from error
    db.row_factory = sqlite3.Row
    return db


async def _open_reader(path: str) -> aiosqlite.Connection:
    """The reading connection: query_only, so that no statement can write through it."""
    reader = await _connect(path)
    try:
        await _run(reader, "PRAGMA busy_timeout = 5000")
        await _run(reader, "PRAGMA query_only = ON")
    except BaseException:
        await reader.close()
        raise
    return reader


async def _quick_check(db: aiosqlite.Connection, path: str) -> None:
    """``PRAGMA quick_check``: the structure of every page, in about the time of a read."""
    try:
        async with db.execute("PRAGMA quick_check") as cursor:
            rows = [str(row[0]) for row in await cursor.fetchall()]
    except sqlite3.DatabaseError as error:
        rows = [str(error)]
    if rows == ["ok"]:
        return
    lines = [line for row in rows for line in row.splitlines() if not line.startswith("***")]
    first = lines[0] if lines else "no answer"
    raise StoreError(
        f"the database {path} is damaged (quick_check: {first}): restore it from a backup"
    )


async def _upgrade(db: aiosqlite.Connection, path: str, migrations: Sequence[str]) -> bool:
    """Migrate; then, when the upgrade freed most of the file (schema 3 dropped the copy of
    every move), give the space back at once. True when the upgrade reached
    ``RATED_SINCE``: the games already finished are to be rated (``rate_finished``)."""
    try:
        before = await _user_version(db)
        refuse_newer(before, migrations, path)
        after = await migrate(db, migrations)
        if before < COMPRESSED_SINCE <= after:
            await _compress_states(db)
        to_rate = before < RATED_SINCE <= after
        if after == before or not _is_file(path):
            return to_rate
        async with db.execute("PRAGMA freelist_count") as cursor:
            free = (await cursor.fetchone())[0]
        async with db.execute("PRAGMA page_count") as cursor:
            pages = (await cursor.fetchone())[0]
    except sqlite3.Error as error:
        raise StoreError(
            f"cannot upgrade the database {path} to schema version {len(migrations)}: {error}"
        ) from error
    if free * 2 > pages:
        try:
            await _run(db, "VACUUM")
        except sqlite3.Error as error:  # e.g. no room for the copy: the file stays as it is
            log.warning("database %s upgraded; VACUUM failed: %s", path, error)
    return to_rate


async def _compress_states(db: aiosqlite.Connection, batch: int = 500) -> int:
    """Compress the states stored as text, a batch per transaction (an interrupted upgrade
    leaves text states, which read as well). Returns how many were compressed."""
    done, last = 0, 0
    while True:
        await _run(db, "BEGIN IMMEDIATE")
        try:
            async with db.execute(
                "SELECT id, state FROM games WHERE id > ? AND typeof(state) = 'text'"
                " ORDER BY id LIMIT ?",
                (last, batch),
            ) as cursor:
                rows = list(await cursor.fetchall())
            await db.executemany(
                "UPDATE games SET state = ? WHERE id = ?",
                [(encode_state(row[1]), row[0]) for row in rows],
            )
        except BaseException:
            await _rollback(db)
            raise
        await _run(db, "COMMIT")
        if not rows:
            return done
        done += len(rows)
        last = rows[-1][0]


def split_sql(script: str) -> list[str]:
    """Split a script into complete statements (sqlite3.complete_statement decides)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buffer.strip()[:60]!r}")
    return statements


async def _run(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
    """Execute one statement and close its cursor at once.

    An unclosed cursor (even of a PRAGMA that returns a row) keeps its statement "in
    progress", and COMMIT then fails; closing explicitly does not depend on when Python
    happens to collect the cursor. Returns the closed cursor for rowcount/lastrowid.
    """
    async with db.execute(sql, params) as cursor:
        return cursor


# SQLite's messages for a write the machine could not make (SQLITE_FULL, SQLITE_IOERR).
MACHINE_FAILURES = ("database or disk is full", "disk i/o error")


def is_machine_failure(error: BaseException) -> bool:
    return isinstance(error, sqlite3.OperationalError) and any(
        message in str(error).lower() for message in MACHINE_FAILURES
    )


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open (BEGIN itself may have failed or been cancelled)."""
    with contextlib.suppress(sqlite3.OperationalError):  # no transaction is active
        await _run(db, "ROLLBACK")


async def _user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0
