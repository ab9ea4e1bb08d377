"""``idzeva migrate-db --from SQLITE_PATH --to POSTGRES_URL``: move a bot's data to PostgreSQL.

Stop the bot first. A source that does not exist or holds no idzeva schema is refused (and
never created). The SQLite file is opened as the bot opens it (brought to the current
schema), then every table of ours (games, whose state holds the whole record, challenges,
events, settings, the outbox, the ratings and their history as they are: never computed
again) is copied, ids kept, into a PostgreSQL database where every table of ours is empty,
in one transaction: a failed copy leaves the target empty. Seats follow the games by
trigger. Then it verifies, from the target: the counts of each table, every rating and
rating history row field by field, every game's row, and that every game's record replayed
from the start position gives its stored state (a game ended outside its moves, by
resignation, a claim or an agreed draw, replays to the same record, unfinished).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from urllib.request import pathname2url

import asyncpg

from bot.storage.postgres import PostgresStore, display_url
from bot.storage.rows import StoreError, decode_state, encode_state
from bot.storage.sqlite import Store
from games import load_game, new_game

# Filled by the games' triggers on either side: never copied, only counted.
DERIVED_TABLES = ("seats",)
# The ratings, compared row by row after the copy: each table's key is its first columns.
RATING_TABLES = {"ratings": 3, "rating_history": 2}
BATCH = 1000


class NotOurDatabase(StoreError):
    """The source is missing or holds no idzeva schema: nothing to migrate."""


def check_source(sqlite_path: str) -> None:
    """Refuse a source that does not exist or is not one of our databases, without
    creating or changing it."""
    if not os.path.isfile(sqlite_path):
        raise NotOurDatabase(f"no database at {sqlite_path}: nothing copied")
    try:
        db = sqlite3.connect(f"file:{pathname2url(os.path.abspath(sqlite_path))}?mode=ro", uri=True)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = our_tables(db)
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise NotOurDatabase(f"{sqlite_path} is not an SQLite database ({error})") from None
    if version == 0 or "games" not in tables:
        raise NotOurDatabase(f"{sqlite_path} holds no idzeva data: nothing copied")


def our_tables(db: sqlite3.Connection) -> list[str]:
    """The tables the migrations created, as the (current) schema of ``db`` lists them."""
    rows = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY rowid"
    )
    return [name for (name,) in rows]


@dataclass
class MigrationReport:
    counts: dict[str, int] = field(default_factory=dict)  # rows copied per table
    replayed: int = 0  # games whose record replays to their stored state
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        copied = ", ".join(f"{count} {table}" for table, count in self.counts.items())
        lines = [f"copied {copied}", f"verified: {self.replayed} games replay to their state"]
        return lines + [f"problem: {problem}" for problem in self.problems]


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def _rows(db: sqlite3.Connection, table: str, columns: list[str]):
    """The table's rows in id order, a batch at a time (states re-encoded, compressed)."""
    state = columns.index("state") if "state" in columns else None
    if "id" not in columns:  # notify_prefs: small, keyed by (guild, user)
        yield from map(list, db.execute(f"SELECT {', '.join(columns)} FROM {table}"))
        return
    last = 0
    while True:
        rows = db.execute(
            f"SELECT {', '.join(columns)} FROM {table} WHERE id > ? ORDER BY id LIMIT ?",
            (last, BATCH),
        ).fetchall()
        if not rows:
            return
        for row in rows:
            values = list(row)
            if state is not None:
                values[state] = encode_state(decode_state(values[state]))
            yield values
        last = rows[-1][0]


async def migrate_db(sqlite_path: str, postgres_url: str) -> MigrationReport:
    """Copy, then verify; ``StoreError`` when the copy cannot be made (``NotOurDatabase``
    when the source is not ours; the report lists what the verification found wrong)."""
    check_source(sqlite_path)
    # Bring the file to the current schema, as the bot would when it starts.
    source_store = await Store.open(sqlite_path, check=True)
    await source_store.close()
    target = await PostgresStore.open(postgres_url)
    await target.close()
    report = MigrationReport()
    source = sqlite3.connect(sqlite_path)
    try:
        tables = our_tables(source)
        db = await asyncpg.connect(postgres_url)
        try:
            await _refuse_filled(db, tables, display_url(postgres_url))
            async with db.transaction():
                for table in tables:
                    if table not in DERIVED_TABLES:
                        report.counts[table] = await _copy(source, db, table)
        finally:
            await db.close()
        await _verify(source, postgres_url, tables, report)
    finally:
        source.close()
    return report


async def _refuse_filled(db: asyncpg.Connection, tables: list[str], shown: str) -> None:
    for table in tables:
        if await db.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise StoreError(f"the database {shown} is not empty ({table}): nothing copied")


async def _copy(source: sqlite3.Connection, db: asyncpg.Connection, table: str) -> int:
    """Copy one table as it is (ids kept, the id sequence moved past them); its row count."""
    known = {
        row[0]
        for row in await db.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $1", table
        )
    }
    columns = [name for name in _columns(source, table) if name in known]
    records = list(_rows(source, table, columns))
    await db.copy_records_to_table(table, records=records, columns=columns)
    if "id" in columns:
        await db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )
    return len(records)


async def _verify(
    source: sqlite3.Connection, postgres_url: str, tables: list[str], report: MigrationReport
) -> None:
    db = await asyncpg.connect(postgres_url)
    try:
        for table in tables:
            here = source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            there = await db.fetchval(f"SELECT COUNT(*) FROM {table}")
            if here != there:
                report.problems.append(f"{table}: {here} rows in SQLite, {there} in PostgreSQL")
        for table in RATING_TABLES:
            report.problems += await rating_differences(source, db, table)
    finally:
        await db.close()
    store = await PostgresStore.open(postgres_url)
    try:
        for game_id, state, version in source.execute(
            "SELECT id, state, version FROM games ORDER BY id"
        ):
            row = await store.get_game(game_id)
            if row is None or (row.state, row.version) != (decode_state(state), version):
                report.problems.append(f"game {game_id}: not copied as it was")
                continue
            problem = await _replay_problem(store, row)
            if problem:
                report.problems.append(f"game {game_id}: {problem}")
            else:
                report.replayed += 1
    finally:
        await store.close()


async def rating_differences(
    source: sqlite3.Connection, db: asyncpg.Connection, table: str
) -> list[str]:
    """Every row of ``table`` compared field by field, matched on its key (its first
    columns, ``RATING_TABLES``): one line per row that differs or is missing on a side."""
    columns = _columns(source, table)
    key_size = RATING_TABLES[table]
    select = f"SELECT {', '.join(columns)} FROM {table}"
    here = {tuple(row[:key_size]): tuple(row) for row in source.execute(select)}
    there = {tuple(row[:key_size]): tuple(row) for row in await db.fetch(select)}
    problems = []
    for key in sorted(here.keys() | there.keys()):
        before, after = here.get(key), there.get(key)
        if before == after:
            continue
        if before is None or after is None:
            side = "SQLite" if before is None else "PostgreSQL"
            problems.append(f"{table} {key}: missing in {side}")
            continue
        fields = ", ".join(
            f"{name} {old!r} became {new!r}"
            for name, old, new in zip(columns, before, after, strict=True)
            if old != new
        )
        problems.append(f"{table} {key}: {fields}")
    return problems


async def _replay_problem(store: PostgresStore, row) -> str | None:
    try:
        stored = load_game(row.state)
        replayed = new_game(row.kind, row.variants, len(row.players))
        replayed.replay(move.entry for move in await store.moves(row.id))
    except Exception as error:  # an engine error on a damaged record: reported, not raised
        return f"does not replay ({type(error).__name__}: {error})"
    if replayed.to_json() == stored.to_json():
        return None
    if replayed.log == stored.log and stored.is_over and not replayed.is_over:
        return None  # resigned, claimed or drawn by agreement: ended outside its moves
    return "its record replays to another position than its stored state"
