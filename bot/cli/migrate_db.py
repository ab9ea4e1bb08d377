"""``idzeva migrate-db --from SQLITE_PATH --to POSTGRES_URL``: move a bot's data to PostgreSQL.

Stop the bot first. The SQLite file is opened as the bot opens it (brought to the current
schema), then every game (its state holds its whole record: each move and roll), seat,
challenge, game event and notification setting is copied, ids kept, into an empty
PostgreSQL database, in one transaction: a failed copy leaves the target empty. Then it
verifies, from the target: the counts of each table, every game's row, and that every
game's record replayed from the start position gives its stored state (a game ended
outside its moves, by resignation, a claim or an agreed draw, replays to the same record,
unfinished).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

import asyncpg

from bot.storage.postgres import PostgresStore, display_url
from bot.storage.rows import StoreError, decode_state, encode_state
from bot.storage.sql import rate_finished
from bot.storage.sqlite import Store
from games import load_game, new_game

TABLES = ("games", "challenges", "game_events", "notify_prefs")
# No ids: notices not yet sent and the command hash (schema 5), server settings and
# vacations (schema 9), players' names (schema 11).
KEYED_TABLES = ("jobs", "bot_values", "guild_settings", "vacations", "player_names")
BATCH = 1000


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
    """Copy, then verify; ``StoreError`` when the copy cannot be made (the report lists
    what the verification found wrong, if anything)."""
    shown = display_url(postgres_url)
    # Bring the file to the current schema, as the bot would when it starts.
    source_store = await Store.open(sqlite_path, check=True)
    await source_store.close()
    target = await PostgresStore.open(postgres_url)
    await target.close()
    report = MigrationReport()
    source = sqlite3.connect(sqlite_path)
    try:
        db = await asyncpg.connect(postgres_url)
        try:
            for table in (*TABLES, "seats", *KEYED_TABLES):
                if await db.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise StoreError(f"the database {shown} is not empty ({table}): nothing copied")
            async with db.transaction():
                for table in TABLES:
                    known = {
                        row[0]
                        for row in await db.fetch(
                            "SELECT column_name FROM information_schema.columns"
                            " WHERE table_name = $1",
                            table,
                        )
                    }
                    columns = [name for name in _columns(source, table) if name in known]
                    records = list(_rows(source, table, columns))
                    await db.copy_records_to_table(table, records=records, columns=columns)
                    report.counts[table] = len(records)
                    if "id" not in columns:
                        continue
                    await db.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                    )
                for table in KEYED_TABLES:  # the outbox's jobs, shared values: no ids
                    columns = _columns(source, table)
                    records = source.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
                    await db.copy_records_to_table(table, records=records, columns=columns)
                    report.counts[table] = len(records)
        finally:
            await db.close()
        # Ratings are not copied but computed again from the copied games, in the order
        # they ended: the same games in the same order give the same ratings.
        rated = await PostgresStore.open(postgres_url)
        try:
            await rate_finished(rated)
        finally:
            await rated.close()
        await _verify(source, postgres_url, report)
    finally:
        source.close()
    return report


async def _verify(source: sqlite3.Connection, postgres_url: str, report: MigrationReport) -> None:
    db = await asyncpg.connect(postgres_url)
    try:
        for table in (*TABLES, "seats", *KEYED_TABLES):
            here = source.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            there = await db.fetchval(f"SELECT COUNT(*) FROM {table}")
            if here != there:
                report.problems.append(f"{table}: {here} rows in SQLite, {there} in PostgreSQL")
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
