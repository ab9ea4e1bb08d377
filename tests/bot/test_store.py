import asyncio
import sqlite3

import pytest

from bot.store import MIGRATIONS, Store, split_sql
from games.base import LogEntry

from .conftest import START, raw_sql

TABLES = {"games", "moves", "challenges"}


async def insert_game(store: Store) -> int:
    return await store.insert_game(
        guild_id=1,
        channel_id=2,
        kind="shax",
        variants=(),
        players=(11, 22),
        state="{}",
        created_at=START,
        updated_at=START,
    )


async def test_migrations_create_the_schema(db_path):
    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS)
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("foreign_keys") == 1
        assert await store.pragma("busy_timeout") == 5000
    names = {row[0] for row in raw_sql(db_path, "SELECT name FROM sqlite_master")}
    assert names >= TABLES


async def test_reopening_is_a_no_op_and_keeps_data(db_path):
    async with await Store.open(db_path) as store:
        game_id = await insert_game(store)
    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS)
        row = await store.get_game(game_id)
        assert row is not None and row.players == (11, 22) and row.version == 1


async def test_a_new_migration_runs_once(db_path):
    migrations = [*MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT;"]
    async with await Store.open(db_path):
        pass
    for _ in range(2):  # the second open must not try to add the column again
        async with await Store.open(db_path, migrations) as store:
            assert await store.pragma("user_version") == len(migrations)
    columns = {row[1] for row in raw_sql(db_path, "PRAGMA table_info(games)")}
    assert "note" in columns


async def test_a_failing_migration_rolls_back(db_path):
    broken = [*MIGRATIONS, "CREATE TABLE half (x);\nSELECT * FROM no_such_table;"]
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(db_path, broken)
    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS)
    names = {row[0] for row in raw_sql(db_path, "SELECT name FROM sqlite_master")}
    assert "half" not in names


async def test_memory_database_works():
    async with await Store.open(":memory:") as store:
        game_id = await insert_game(store)
        assert (await store.get_game(game_id)).kind == "shax"


def test_split_sql_keeps_semicolons_inside_strings():
    script = "INSERT INTO t VALUES ('a;b');\nCREATE TABLE u (x);\n"
    assert split_sql(script) == ["INSERT INTO t VALUES ('a;b');", "CREATE TABLE u (x);"]


async def test_update_game_checks_the_version_and_writes_moves(store):
    game_id = await insert_game(store)
    entries = [(1, LogEntry(0, move="d2")), (2, LogEntry(1, dice=(3, 4)))]
    assert await store.update_game(game_id, 1, new_log_entries=entries, state="{1}")
    assert not await store.update_game(
        game_id, 1, new_log_entries=[(3, LogEntry(0, move="a1"))], state="{2}"
    )
    row = await store.get_game(game_id)
    assert (row.version, row.state) == (2, "{1}")
    moves = await store.moves(game_id)
    assert [(m.ply, m.seat, m.move, m.dice) for m in moves] == [
        (1, 0, "d2", None),
        (2, 1, None, (3, 4)),
    ]


async def test_update_game_rolls_back_when_a_move_row_clashes(store):
    game_id = await insert_game(store)
    assert await store.update_game(game_id, 1, new_log_entries=[(1, LogEntry(0, move="d2"))])
    with pytest.raises(sqlite3.IntegrityError):
        await store.update_game(game_id, 2, new_log_entries=[(1, LogEntry(0, move="a1"))])
    assert (await store.get_game(game_id)).version == 2


async def test_update_game_refuses_unknown_columns(store):
    game_id = await insert_game(store)
    with pytest.raises(ValueError):
        await store.update_game(game_id, 1, version=7)


async def test_concurrent_updates_on_one_connection(store):
    game_id = await insert_game(store)
    results = await asyncio.gather(*(store.update_game(game_id, 1, state=str(i)) for i in range(5)))
    assert results.count(True) == 1
    assert (await store.get_game(game_id)).version == 2


async def test_two_stores_on_one_file_never_both_win(db_path):
    async with await Store.open(db_path) as first, await Store.open(db_path) as second:
        game_id = await insert_game(first)
        for version in range(1, 6):
            entry = [(version, LogEntry(0, move=f"m{version}"))]
            results = await asyncio.gather(
                first.update_game(game_id, version, new_log_entries=entry, state="first"),
                second.update_game(game_id, version, new_log_entries=entry, state="second"),
            )
            assert sorted(results) == [False, True]
        assert (await second.get_game(game_id)).version == 6
        assert len(await first.moves(game_id)) == 5
