"""PostgreSQL through asyncpg: the connections, transactions and upgrades of the store
(bot/storage/sql.py holds its queries and methods, the same on SQLite).

Several bot processes (shards), possibly on several machines, share one database; the rows
come back as the same ``GameRow`` / ``ChallengeRow``: the service does not know which store
it talks to.

- The schema is bot/storage/migrations.py (``POSTGRES``, numbered as SQLite's); its version
  is the one row of ``idzeva_schema``. Each migration runs in its own transaction under an
  advisory lock, so processes starting together upgrade once.
- Every write is one statement or one transaction: ``update_game`` succeeds only for the
  version it read (``UPDATE ... WHERE version = $n``: of two processes racing on a game,
  the second waits for the first's row lock, re-reads the row and changes nothing).
- Once-only work (``mark_notified``: a reminder, a claim notice) takes the row with
  ``FOR UPDATE SKIP LOCKED``: a process never waits behind another that holds the game, and
  the flag is set by exactly one of them.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.migrations import POSTGRES, RATED_SINCE, refuse_newer
from bot.storage.rows import StoreError, StoreUnavailable, encode_state
from bot.storage.sql import Dialect, SqlStore, queries, rate_finished

DIALECT = Dialect(
    # A listed finished game's state: "" (compressed, as every state is).
    listed_state=f"'\\x{encode_state('').hex()}'::BYTEA",
    union_member="({})",
    for_update=" FOR UPDATE",
    skip_locked=" FOR UPDATE SKIP LOCKED",
    greatest="GREATEST",
    no_limit=None,
    lock_ratings="SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
)
QUERIES = queries(DIALECT)

# Taken (per transaction) by every migration: processes starting together upgrade in turn.
MIGRATION_LOCK = 0x1D2E7A  # an arbitrary constant, the same in every process


@functools.cache
def numbered(sql: str) -> str:
    """The shared SQL's placeholders in PostgreSQL's form: ``?`` is the next ``$n``, ``?N``
    is ``$N`` (a statement uses one form or the other)."""
    count = itertools.count(1)
    return re.sub(r"\?(\d*)", lambda found: f"${found.group(1) or next(count)}", sql)


class PgConnection:
    """A pool (each call on a connection of its own) or one connection, as the shared code
    uses it (bot/storage/sql.py)."""

    def __init__(self, db: asyncpg.Pool | asyncpg.Connection):
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._db.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(numbered(sql), rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        return await self._db.fetchrow(numbered(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        return await self._db.fetch(numbered(sql), *params)


def display_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresStore(SqlStore):
    """The store on a pool of asyncpg connections."""

    dialect = DIALECT
    queries = QUERIES

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool = pool
        self.url = url

    @classmethod
    async def open(
        cls,
        url: str,
        migrations: Sequence[str] = POSTGRES,
        *,
        check: bool = False,
        min_size: int = 1,
        max_size: int = 10,
    ) -> Self:
        """Connect and migrate. A database that cannot be used (no server, refused, an
        upgrade that fails, a newer schema) raises ``StoreError`` with one line. ``check``
        also reads every table once (PostgreSQL checks its pages as it reads them)."""
        shown = display_url(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise StoreError(f"cannot connect to the database {shown}: {message}") from error
        try:
            to_rate = await _upgrade(pool, shown, migrations)
            if check:
                await _check(pool, shown)
            store = cls(pool, url)
            if to_rate:
                await rate_finished(store)
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self._pool.acquire() as db:
            return await _schema_version(db)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[PgConnection]:
        yield PgConnection(self._pool)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[PgConnection]:
        """One write transaction, rolled back if the block raises."""
        with machine_failures_unavailable():
            async with self._pool.acquire() as db, db.transaction():
                yield PgConnection(db)

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[PgConnection]:
        with machine_failures_unavailable():
            yield PgConnection(self._pool)

    async def _explain(self, sql: str, params: Sequence[Any]) -> list[str]:
        """``EXPLAIN``: one line per line of the plan."""
        return [row[0] for row in await self._fetchall(f"EXPLAIN {sql}", params)]


# The server's resources (SQLSTATE class 53: a full disk is 53100 ``DiskFullError``) and
# system errors (class 58: an I/O error): the machine's fault, not the statement's.
MACHINE_FAILURES = (asyncpg.InsufficientResourcesError, asyncpg.PostgresSystemError)


@contextlib.contextmanager
def machine_failures_unavailable() -> Iterator[None]:
    """A write the machine could not make becomes ``StoreUnavailable`` (cause chained)."""
    try:
        yield
    except MACHINE_FAILURES as error:
        raise StoreUnavailable(f"could not write to the database: {error}") from error


def _count(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1``."""
    return int(status.rsplit(" ", 1)[-1])


async def _schema_version(db: asyncpg.Connection) -> int:
    exists = await db.fetchval("SELECT to_regclass('idzeva_schema') IS NOT NULL")
    if not exists:
        return 0
    return int(await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM idzeva_schema"))


async def migrate(db: asyncpg.Connection, migrations: Sequence[str] = POSTGRES) -> int:
    """Apply the migrations past the stored version, each in a transaction of its own."""
    for number, script in enumerate(migrations, start=1):
        if await _schema_version(db) >= number:
            continue
        async with db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute("CREATE TABLE IF NOT EXISTS idzeva_schema (version INTEGER NOT NULL)")
            # Re-read under the lock: another process may have migrated meanwhile.
            if await _schema_version(db) < number:
                await db.execute(script)
                await db.execute("DELETE FROM idzeva_schema")
                await db.execute("INSERT INTO idzeva_schema (version) VALUES ($1)", number)
    return await _schema_version(db)


async def _upgrade(pool: asyncpg.Pool, shown: str, migrations: Sequence[str]) -> bool:
    """Migrate; True when the upgrade reached ``RATED_SINCE`` (old games to rate)."""
    async with pool.acquire() as db:
        try:
            before = await _schema_version(db)
            refuse_newer(before, migrations, shown)
            after = await migrate(db, migrations)
            return before < RATED_SINCE <= after
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreError(
                f"cannot upgrade the database {shown} to schema version {len(migrations)}:"
                f" {str(error).splitlines()[0]}"
            ) from error


async def _check(pool: asyncpg.Pool, shown: str) -> None:
    """Read every row of the tables (PostgreSQL verifies each page it reads)."""
    try:
        async with pool.acquire() as db:
            for table in ("games", "seats", "challenges", "game_events", "notify_prefs"):
                await db.fetchval(f"SELECT COUNT(*) FROM (SELECT * FROM {table}) AS rows")
    except asyncpg.PostgresError as error:
        raise StoreError(
            f"the database {shown} is damaged ({str(error).splitlines()[0]}):"
            " restore it from a backup"
        ) from error
