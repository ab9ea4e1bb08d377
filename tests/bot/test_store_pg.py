"""The PostgreSQL store on a real server (pgserver): what differs from SQLite.

The shared behaviour (games, seats, challenges, the service on top) runs on both backends
through the ``store`` fixture; here: migrations and the schema version, several stores
(as several processes would hold) racing on one game, the query plans, opening by URL.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import migrations, open_store, sqlite_path
from bot.storage.migrations import POSTGRES as MIGRATIONS
from bot.storage.postgres import QUERIES, PostgresStore, display_url, numbered
from bot.storage.rows import StoreError
from bot.storage.sqlite import Store

from .conftest import START, in_thread
from .test_store import GUILD, insert_game, one_line, shax_state


@pytest.fixture
def pg_url(pg_server):
    """A fresh database, migrated (copied from the template)."""
    url = in_thread(pg_server.new_database)
    yield url
    in_thread(pg_server.drop_database, url)


@pytest.fixture
def empty_url(pg_server):
    """A fresh database with no schema at all."""
    url = in_thread(pg_server.new_database, None)
    yield url
    in_thread(pg_server.drop_database, url)


async def sql(url: str, query: str, *args):
    """Run SQL on the database directly, as another process would."""
    db = await asyncpg.connect(url)
    try:
        return await db.fetch(query, *args)
    finally:
        await db.close()


async def tables(url: str) -> set[str]:
    rows = await sql(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    return {row[0] for row in rows}


async def test_migrations_are_numbered_as_sqlites_and_the_version_is_in_the_database(empty_url):
    latest = len(MIGRATIONS)
    assert latest == len(migrations.SQLITE)
    async with await PostgresStore.open(empty_url) as store:
        assert await store.schema_version() == latest
    assert await sql(empty_url, "SELECT version FROM idzeva_schema") == [(latest,)]
    assert await tables(empty_url) == {
        "games",
        "seats",
        "challenges",
        "jobs",
        "bot_values",
        "idzeva_schema",
        "game_events",
        "notify_prefs",
        "ratings",
        "rating_history",
        "guild_settings",
        "vacations",
        "player_names",
        "learn_progress",
        "tournaments",
        "tournament_players",
        "tournament_games",
        "game_analyses",
        "puzzle_answers",
        "server_puzzles",
    }


def test_the_shared_sql_is_numbered_for_postgresql():
    assert numbered("UPDATE t SET a = ? WHERE id = ? AND b = ?") == (
        "UPDATE t SET a = $1 WHERE id = $2 AND b = $3"
    )
    assert numbered("SELECT * FROM t WHERE a = ?1 AND b >= ?2 LIMIT ?1") == (
        "SELECT * FROM t WHERE a = $1 AND b >= $2 LIMIT $1"
    )
    assert numbered("SELECT '{}' FROM t") == "SELECT '{}' FROM t"


async def test_a_new_migration_runs_once_and_a_failing_one_rolls_back(empty_url):
    async with await PostgresStore.open(empty_url):
        pass
    migrations = [*MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT;"]
    for _ in range(2):  # the second open must not try to add the column again
        async with await PostgresStore.open(empty_url, migrations) as store:
            assert await store.schema_version() == len(migrations)
    broken = [*migrations, "CREATE TABLE half (x INTEGER);\nSELECT * FROM no_such_table;"]
    with pytest.raises(StoreError) as caught:
        await PostgresStore.open(empty_url, broken)
    shown = display_url(empty_url)
    assert one_line(caught) == (
        f"cannot upgrade the database {shown} to schema version {len(broken)}:"
        ' relation "no_such_table" does not exist'
    )
    assert "half" not in await tables(empty_url)
    assert await sql(empty_url, "SELECT version FROM idzeva_schema") == [(len(migrations),)]


async def test_processes_starting_together_migrate_once(empty_url):
    stores = await asyncio.gather(*(PostgresStore.open(empty_url) for _ in range(4)))
    for store in stores:
        assert await store.schema_version() == len(MIGRATIONS)
        await store.close()
    assert await sql(empty_url, "SELECT version FROM idzeva_schema") == [(len(MIGRATIONS),)]


async def test_a_database_from_a_newer_bot_is_refused(empty_url):
    async with await PostgresStore.open(empty_url, [*MIGRATIONS, "CREATE TABLE later (x INT);"]):
        pass
    with pytest.raises(StoreError) as caught:
        await PostgresStore.open(empty_url)
    assert one_line(caught) == (
        f"the database {display_url(empty_url)} has schema version {len(MIGRATIONS) + 1},"
        f" newer than this bot's {len(MIGRATIONS)}:"
        " run the newer bot"
    )


async def test_no_server_is_one_line_without_the_password():
    url = "postgresql://idzeva:hunter2@127.0.0.1:9/idzeva"  # port 9 (discard): nothing listens
    with pytest.raises(StoreError) as caught:
        await open_store(url)
    text = one_line(caught)
    assert text.startswith("cannot connect to the database postgresql://idzeva:***@127.0.0.1:9/")
    assert "hunter2" not in text


async def test_a_missing_database_is_refused(pg_server):
    url = pg_server.url("no_such_database")
    with pytest.raises(StoreError) as caught:
        await open_store(url)
    assert one_line(caught) == (
        f'cannot connect to the database {url}: database "no_such_database" does not exist'
    )


async def test_open_store_picks_the_backend_from_the_url(tmp_path, empty_url):
    assert sqlite_path("sqlite:///idzeva.db") == "idzeva.db"
    assert sqlite_path("sqlite:////srv/idzeva.db") == "/srv/idzeva.db"
    assert sqlite_path("./idzeva.db") == "./idzeva.db"
    with pytest.raises(StoreError) as caught:
        sqlite_path("mysql://localhost/idzeva")
    assert one_line(caught) == (
        "IDZEVA_DB names an unknown kind of database (mysql://): use a file path,"
        " sqlite:///path or postgresql://..."
    )
    store = await open_store(f"sqlite:///{tmp_path / 'x.db'}")
    assert isinstance(store, Store) and (tmp_path / "x.db").exists()
    await store.close()
    store = await open_store(empty_url, check=True)
    assert isinstance(store, PostgresStore)
    await store.close()
    assert await tables(empty_url) >= {"games", "seats", "challenges"}


# ---- several processes on one database -------------------------------------------------


async def test_two_stores_racing_on_one_game_never_both_win(pg_url):
    """Two processes (each its own pool) send the same turn's move at once: exactly one
    is applied, every time, and the record holds each move once."""
    moves = ["d2", "a1", "g7", "d7", "a4", "g4", "b2", "f2"]
    async with await open_store(pg_url) as first, await open_store(pg_url) as second:
        game_id = await insert_game(first)
        for version in range(1, len(moves) + 1):
            state = shax_state(*moves[:version])
            results = await asyncio.gather(
                first.update_game(game_id, version, state=state, updated_at=START + version),
                second.update_game(game_id, version, state=state, updated_at=START + version),
            )
            assert sorted(results) == [False, True]
        assert (await second.get_game(game_id)).version == len(moves) + 1
        assert [move.move for move in await first.moves(game_id)] == moves


async def test_many_racing_writers_one_winner_per_version(store):
    """Ten writers on one pool (ten connections) race for each version of a game."""
    game_id = await insert_game(store)
    for version in range(1, 4):
        results = await asyncio.gather(
            *(store.update_game(game_id, version, state=f"{version}-{n}") for n in range(10))
        )
        assert results.count(True) == 1
    assert (await store.get_game(game_id)).version == 4


async def test_a_reminder_is_marked_by_exactly_one_process(pg_url):
    async with await open_store(pg_url) as first, await open_store(pg_url) as second:
        game_ids = [await insert_game(first, remind_at=START - 1) for _ in range(20)]
        due = await second.games_to_remind(START)
        assert [row.id for row in due] == game_ids
        results = await asyncio.gather(
            *(
                store.mark_reminded(row.id, row.version, 0, 1, None)
                for row in due
                for store in (first, second)
            )
        )
        assert [results[2 * n] + results[2 * n + 1] for n in range(20)] == [1] * 20
        assert await first.games_to_remind(START) == []
        # A move after the reminder (a new version) does not let an old scan mark it again.
        assert await first.update_game(game_ids[0], 1, reminded=0)
        assert not await second.mark_reminded(game_ids[0], 1, 0, 1, None)


async def test_a_locked_game_is_skipped_not_waited_for(pg_url):
    """While one process holds a game's row (a move in progress), another's reminder does
    not wait for it: it reports "not marked" at once, and the next tick tries again."""
    async with await open_store(pg_url) as store:
        game_id = await insert_game(store, remind_at=START - 1)
        holder = await asyncpg.connect(pg_url)
        try:
            transaction = holder.transaction()
            await transaction.start()
            await holder.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            marked = await asyncio.wait_for(store.mark_reminded(game_id, 1, 0, 1, None), 5)
            assert marked is False
            await transaction.rollback()
        finally:
            await holder.close()
        assert await store.mark_reminded(game_id, 1, 0, 1, None)


# ---- the seats trigger and the query plans ---------------------------------------------


async def test_seats_follow_games_changed_outside_the_store(pg_url):
    async with await open_store(pg_url) as store:
        game_id = await insert_game(store, players=(11, 22))
        await sql(
            pg_url,
            "UPDATE games SET players = '[11, 33]', status = 'finished' WHERE id = $1",
            game_id,
        )
        assert await store.games_of_user(GUILD, 22, include_finished=True) == []
        [row] = await store.games_of_user(GUILD, 33, include_finished=True)
        assert (row.id, row.status) == (game_id, "finished")
        await sql(pg_url, "DELETE FROM games WHERE id = $1", game_id)
        assert await sql(pg_url, "SELECT COUNT(*) FROM seats") == [(0,)]


PLAN_PARAMS = {
    "get_game": (1,),
    "game_version": (1,),
    "games_of_user": (GUILD, 11, 20),
    "active_games_of_user": (GUILD, 11, None),
    "game_in_thread": (GUILD, 77),
    "games_to_remind": (START,),
    "games_claimable": (START,),
    "moves": (1,),
    "get_challenge": (1,),
    "challenges_expired": (START,),
    "games_timed_out": (START,),
    "guild_settings": (7,),
    "vacation": (7, 11, 2027),
    "active_vacation": (7, 11, START),
    "rematch_of": (1,),
    "game_events": (1,),
    "notify_pref": (1, 11),
    "digests_due": (START,),
    "standings_of_user": (GUILD, 11),
    "rating_changes": (1,),
    "leaderboard": (GUILD, "shax", 5, 10),
    "leaderboard_place": (GUILD, "shax", 5, 1.0, 1.0, 11),
    "leaderboard_counts": (5, GUILD, "shax"),
    "guild_standings": (GUILD,),
    "overall_top": (GUILD, 5, 10),
    "overall_place": (GUILD, 1.0, 1.0, 11, 5),
    "overall_counts": (5, GUILD),
    "recent_changes": (GUILD, 11, 10),
    "recent_changes_in_game": (GUILD, 11, "shax", 10),
    "rating_points": (GUILD, 11, "shax", 200),
    "rating_since": (GUILD, 11, "shax", START),
    "ratings_since": (START, GUILD, 11),
    "finished_games": (START, START, 1, 100),
}

# The index each query must use (by name), on a table too big to scan.
PLAN_INDEXES = {
    "get_game": "games_pkey",
    "game_version": "games_pkey",
    "games_of_user": "seats_by_user",
    "active_games_of_user": "seats_by_user",
    "game_in_thread": "games_by_thread",
    "games_to_remind": "games_to_remind",
    "games_claimable": "games_to_claim",
    "moves": "games_pkey",
    "get_challenge": "challenges_pkey",
    "challenges_expired": "challenges_by_status",
    "games_timed_out": "games_to_time_out",
    "guild_settings": "guild_settings_pkey",
    "vacation": "vacations_pkey",
    "active_vacation": "vacations_pkey",
    "rematch_of": "challenges_rematch",
    "game_events": "game_events_by_game",
    "notify_pref": "notify_prefs_pkey",
    "digests_due": "notify_prefs_digest",
    "standings_of_user": "ratings_pkey",
    "rating_changes": "rating_history_pkey",
    "leaderboard": "ratings_board",
    "leaderboard_place": ("ratings_board", "ratings_pkey"),  # a bitmap of both, maybe
    "leaderboard_counts": "ratings_board",
    "guild_standings": ("ratings_pkey", "ratings_board"),  # both lead with the guild
    "overall_top": "ratings_board",  # each game's top, as "leaderboard"
    "overall_place": "ratings_board",  # each game's range of scores above the player's
    "overall_counts": ("ratings_pkey", "ratings_board"),
    "recent_changes": "history_of_user",
    "recent_changes_in_game": ("history_of_user_game", "history_of_user"),
    "rating_points": ("history_of_user_game", "history_of_user"),
    "rating_since": ("history_of_user_game", "history_of_user"),
    # A seek per game in the player's ratings (this test's history is all Shax).
    "ratings_since": ("history_of_user_game", "history_of_user"),
    "finished_games": "games_finished_in_order",  # the server puzzles' miner
}


async def test_every_hot_query_uses_its_index(pg_url):
    # 20,000 games (a third active, reminded long ago, their time-out far ahead) and 5,000
    # challenges, most settled; 5,000 servers' settings and 20,000 players' vacations.
    await sql(
        pg_url,
        "INSERT INTO games (guild_id, channel_id, thread_id, kind, players, state, status,"
        " result, created_at, updated_at, remind_at, reminded, claim_at, claim_notified,"
        " timeout_at)"
        " SELECT 1 + n % 50, 2, n, 'shax', '[' || n || ', ' || (n + 1) || ']', '\\x00',"
        " CASE WHEN n % 3 = 0 THEN 'active' ELSE 'finished' END, NULL, n, n, NULL, 2, n, 1,"
        f" {START} + n FROM generate_series(1, 20000) AS n",
    )
    await sql(
        pg_url,
        "INSERT INTO guild_settings (guild_id, settings, updated_at)"
        " SELECT n, '{}', n FROM generate_series(1, 5000) AS n",
    )
    await sql(
        pg_url,
        "INSERT INTO vacations (guild_id, user_id, year, used, started_at, until)"
        " SELECT n % 50, n, 2026 + n % 2, 3, n, n + 3 FROM generate_series(1, 20000) AS n",
    )
    await sql(
        pg_url,
        "INSERT INTO challenges (guild_id, channel_id, kind, challenger_id, opponent_id, first,"
        " status, created_at, expires_at)"
        " SELECT 1, 2, 'shax', n, n + 1, 'me',"
        " CASE WHEN n % 100 = 0 THEN 'pending' ELSE 'declined' END, n, n + 60"
        " FROM generate_series(1, 5000) AS n",
    )
    await sql(  # and rematches of most games, all settled but one in a hundred
        pg_url,
        "INSERT INTO challenges (guild_id, channel_id, kind, challenger_id, opponent_id, first,"
        " status, created_at, expires_at, rematch_of)"
        " SELECT 1, 2, 'shax', n, n + 1, 'me',"
        " CASE WHEN n % 100 = 0 THEN 'pending' ELSE 'expired' END, n, n + 60, n"
        " FROM generate_series(1, 20000) AS n",
    )
    # 40,000 events (two per game) and 5,000 players' settings, a few with a digest.
    await sql(
        pg_url,
        "INSERT INTO game_events (game_id, version, at, kind, seat, ply)"
        " SELECT 1 + n % 20000, 1, n, 'entry', n % 2, n / 20000"
        " FROM generate_series(0, 39999) AS n",
    )
    await sql(
        pg_url,
        "INSERT INTO notify_prefs (guild_id, user_id, route, digest, digest_next)"
        " SELECT n % 50, n, 'dm', CASE WHEN n % 100 = 0 THEN 1 ELSE 0 END, n * 1000"
        " FROM generate_series(1, 5000) AS n",
    )
    # 30,000 ratings (50 guilds, 6 games) and 40,000 rated results.
    await sql(
        pg_url,
        "INSERT INTO ratings (guild_id, user_id, game, mu, sigma, score, games, wins, draws,"
        " losses, streak, best_streak, updated_at)"
        " SELECT 1 + n % 50, n / 6, (ARRAY['shax', 'tchela', 'sachidjun', 'chebache',"
        " 'jikaida', 'pastang'])[1 + n % 6], 25, 8, 1, n % 20, 0, 0, 0, 0, 0, n"
        " FROM generate_series(1, 30000) AS n ON CONFLICT DO NOTHING",
    )
    await sql(
        pg_url,
        "INSERT INTO rating_history (game_id, user_id, guild_id, game, outcome, mu_before,"
        " sigma_before, mu, sigma, finished_at)"
        " SELECT n / 2, n % 997, 1 + n % 50, 'shax', 'win', 25, 8, 26, 7, n"
        " FROM generate_series(1, 40000) AS n ON CONFLICT DO NOTHING",
    )
    await sql(pg_url, "ANALYZE")
    assert set(PLAN_PARAMS) == set(QUERIES) == set(PLAN_INDEXES)
    async with await open_store(pg_url) as store:
        for name, params in PLAN_PARAMS.items():
            plan = " | ".join(await store.query_plan(name, params))
            assert "Seq Scan" not in plan, (name, plan)
            wanted = PLAN_INDEXES[name]
            names = wanted if isinstance(wanted, tuple) else (wanted,)
            shown = plan.replace("Index Only", "Index")
            assert any(
                f"using {index} " in shown or f"Index Scan on {index} " in shown for index in names
            ), (name, plan)
        plan = " | ".join(await store.query_plan("games_of_user", PLAN_PARAMS["games_of_user"]))
        assert "Sort" not in plan  # read in the index's order, then LIMIT
        for name in (
            "leaderboard",
            "overall_top",
            "recent_changes",
            "recent_changes_in_game",
            "rating_points",
        ):
            plan = " | ".join(await store.query_plan(name, PLAN_PARAMS[name]))
            assert "Sort" not in plan, (name, plan)


async def test_running_games_get_a_time_out_on_the_upgrade_to_the_clock_schema(empty_url):
    from .test_store_upgrade import check_clock_schema, write_schema_4_games

    async with await PostgresStore.open(empty_url, MIGRATIONS[:4]) as store:
        game_ids = await write_schema_4_games(store)
    async with await PostgresStore.open(empty_url) as store:
        await check_clock_schema(store, game_ids)
