import asyncio
import os
import random

import pytest

from bot.storage import open_store
from bot.storage.migrations import SQLITE as MIGRATIONS
from bot.storage.rows import StoreError, decode_state, encode_state
from bot.storage.sqlite import QUERIES, Store, split_sql
from games import Shax
from games.base import LogEntry

from .conftest import START, raw_sql

TABLES = {"games", "challenges", "seats", "jobs", "bot_values", "guild_settings", "vacations"}
GUILD, OTHER_GUILD = 1, 2


def shax_state(*moves: str) -> str:
    game = Shax()
    for move in moves:
        game.push(move)
    return game.to_json()


async def insert_game(store: Store, players=(11, 22), guild_id=GUILD, **columns) -> int:
    values = {
        "guild_id": guild_id,
        "channel_id": 2,
        "kind": "shax",
        "variants": (),
        "players": players,
        "state": shax_state(),
        "created_at": START,
        "updated_at": START,
    }
    return await store.insert_game(**(values | columns))


async def test_migrations_create_the_schema(db_path):
    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS)
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("synchronous") == 2  # FULL: see SYNCHRONOUS in the store
        assert await store.pragma("foreign_keys") == 1
        assert await store.pragma("busy_timeout") == 5000
    names = {row[0] for row in raw_sql(db_path, "SELECT name FROM sqlite_master")}
    assert names >= TABLES and "moves" not in names  # each move is in its game's state


async def test_states_are_stored_compressed_and_text_still_reads(store, db_path):
    state = shax_state("d2", "a1", "g7")
    game_id = await insert_game(store, state=state)
    [(kind, size)] = raw_sql(db_path, "SELECT typeof(state), length(state) FROM games")
    assert kind == "blob" and size < len(state) / 2
    assert decode_state(encode_state(state)) == state
    assert (await store.get_game(game_id)).state == state
    raw_sql(db_path, "UPDATE games SET state = ? WHERE id = ?", (shax_state("d2"), game_id))
    assert (await store.get_game(game_id)).state == shax_state("d2")  # as written by hand
    assert [move.move for move in await store.moves(game_id)] == ["d2"]


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
    with pytest.raises(StoreError, match="cannot upgrade the database .* no such table"):
        await Store.open(db_path, broken)
    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS)
    names = {row[0] for row in raw_sql(db_path, "SELECT name FROM sqlite_master")}
    assert "half" not in names


async def test_memory_database_works():
    async with await Store.open(":memory:") as store:
        game_id = await insert_game(store)
        assert (await store.get_game(game_id)).kind == "shax"
        assert [game.id for game in await store.games_of_user(GUILD, 11)] == [game_id]


def test_split_sql_keeps_semicolons_inside_strings_and_triggers_whole():
    script = "INSERT INTO t VALUES ('a;b');\nCREATE TABLE u (x);\n"
    assert split_sql(script) == ["INSERT INTO t VALUES ('a;b');", "CREATE TABLE u (x);"]
    trigger = "CREATE TRIGGER t AFTER INSERT ON u BEGIN\n  DELETE FROM u;\n  SELECT 1;\nEND;\n"
    assert split_sql(trigger) == [trigger.strip()]


# ---- writing games -------------------------------------------------------------------


async def test_update_game_checks_the_version_and_the_moves_come_from_the_log(store):
    game_id = await insert_game(store)
    entries = [(1, LogEntry(0, move="d2"))]
    assert await store.update_game(game_id, 1, new_log_entries=entries, state=shax_state("d2"))
    assert not await store.update_game(game_id, 1, state=shax_state("a1"))
    row = await store.get_game(game_id)
    assert (row.version, row.state) == (2, shax_state("d2"))
    assert [(m.game_id, m.ply, m.seat, m.move, m.dice) for m in await store.moves(game_id)] == [
        (game_id, 1, 0, "d2", None)
    ]


async def test_moves_read_rolls_and_moves_from_the_log(store):
    state = '{"game":"shax","log":[{"seat":0,"dice":[3,4]},{"seat":0,"move":"x"}]}'
    game_id = await insert_game(store, state=state)
    other = await insert_game(store)
    assert [(m.ply, m.seat, m.move, m.dice) for m in await store.moves(game_id)] == [
        (1, 0, None, (3, 4)),
        (2, 0, "x", None),
    ]
    assert await store.moves(other) == []


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
    moves = ["d2", "a1", "g7", "d7", "a4"]  # legal in turn from the start (White, Black, ...)
    async with await Store.open(db_path) as first, await Store.open(db_path) as second:
        game_id = await insert_game(first)
        for version in range(1, 6):
            state = shax_state(*moves[:version])
            results = await asyncio.gather(
                first.update_game(game_id, version, state=state),
                second.update_game(game_id, version, state=state),
            )
            assert sorted(results) == [False, True]
        assert (await second.get_game(game_id)).version == 6
        assert [move.move for move in await first.moves(game_id)] == moves


# ---- seats: a player's games ---------------------------------------------------------


async def test_games_of_user_come_from_the_seats(store):
    old = await insert_game(store, players=(11, 22), updated_at=START + 1)
    new = await insert_game(store, players=(33, 11), updated_at=START + 2)
    finished = await insert_game(store, players=(11, 33), updated_at=START + 3)
    assert await store.update_game(
        finished, 1, status="finished", result="White wins", updated_at=START + 4
    )
    elsewhere = await insert_game(store, players=(11, 22), guild_id=OTHER_GUILD)

    def ids(rows):
        return [row.id for row in rows]

    assert ids(await store.games_of_user(GUILD, 11)) == [new, old]
    assert ids(await store.games_of_user(GUILD, 11, include_finished=True)) == [new, old, finished]
    assert ids(await store.games_of_user(GUILD, 11, include_finished=True, limit=2)) == [new, old]
    assert ids(await store.games_of_user(GUILD, 33, include_finished=True)) == [new, finished]
    assert ids(await store.games_of_user(OTHER_GUILD, 11)) == [elsewhere]
    # Listed, a finished game comes with its result and without its state (the bulk of it).
    listed = {row.id: row for row in await store.games_of_user(GUILD, 33, include_finished=True)}
    assert (listed[finished].result, listed[finished].state) == ("White wins", "")
    assert listed[new].state == shax_state()
    assert (await store.get_game(finished)).state == shax_state()
    assert await store.games_of_user(GUILD, 44) == []
    # A move brings a game to the top; the seats follow the game's row.
    assert await store.update_game(old, 1, updated_at=START + 5)
    assert ids(await store.games_of_user(GUILD, 22)) == [old]
    assert ids(await store.games_of_user(GUILD, 11)) == [old, new]
    with pytest.raises(ValueError):
        await store.games_of_user(GUILD, 11, limit=-1)


async def test_seats_follow_games_changed_outside_the_store(store, db_path):
    game_id = await insert_game(store, players=(11, 22))
    raw_sql(
        db_path,
        "UPDATE games SET players = '[11, 33]', status = 'finished' WHERE id = ?",
        (game_id,),
    )
    assert await store.games_of_user(GUILD, 22, include_finished=True) == []
    [row] = await store.games_of_user(GUILD, 33, include_finished=True)
    assert (row.id, row.status) == (game_id, "finished")
    raw_sql(db_path, "DELETE FROM games WHERE id = ?", (game_id,))
    assert raw_sql(db_path, "SELECT COUNT(*) FROM seats") == [(0,)]


async def test_accepting_a_challenge_seats_the_players(store):
    challenge = await store.insert_challenge(
        guild_id=GUILD,
        channel_id=2,
        kind="shax",
        challenger_id=11,
        opponent_id=22,
        first="me",
        created_at=START,
        expires_at=START + 60,
    )
    game_id = await store.accept_challenge(
        challenge,
        START,
        guild_id=GUILD,
        channel_id=2,
        kind="shax",
        players=(22, 11),
        state=shax_state(),
        created_at=START,
        updated_at=START,
    )
    assert [row.id for row in await store.games_of_user(GUILD, 22)] == [game_id]
    assert [row.id for row in await store.games_of_user(GUILD, 11)] == [game_id]


# ---- query plans: every hot query uses an index ---------------------------------------

PLAN_PARAMS = {
    "get_game": (1,),
    "game_version": (1,),
    "games_of_user": (GUILD, 11, 20),
    "active_games_of_user": (GUILD, 11, -1),
    "game_in_thread": (GUILD, 77),
    "games_to_remind": (START,),
    "games_claimable": (START,),
    "moves": (1,),
    "get_challenge": (1,),
    "challenges_expired": (START,),
    "games_timed_out": (START,),
    "guild_settings": (GUILD,),
    "vacation": (GUILD, 11, 2027),
    "active_vacation": (GUILD, 11, START),
    "rematch_of": (1,),
    "game_events": (1,),
    "notify_pref": (GUILD, 11),
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


@pytest.mark.sqlite_only  # SQLite's plans; PostgreSQL's: test_store_pg.py
async def test_every_hot_query_uses_an_index(store, store_url):
    for number in range(30):  # enough rows that a scan would be a real choice
        status = "finished" if number % 3 else "active"
        await insert_game(store, players=(number, number + 1), status=status, thread_id=number)
    # 30,000 ratings (50 servers of 100 players, 6 games each) and 40,000 rated results: with
    # the planner's statistics, the ratings queries choose as on a real server.
    async with store._write() as db:
        await db.execute(
            "WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < 29999)"
            " INSERT INTO ratings (guild_id, user_id, game, mu, sigma, score, games,"
            " wins, draws, losses, streak, best_streak, updated_at)"
            f" SELECT {GUILD} + (n / 6) % 50, n / 300, CASE n % 6 WHEN 0 THEN 'shax'"
            " WHEN 1 THEN 'tchela' WHEN 2 THEN 'sachidjun' WHEN 3 THEN 'chebache'"
            " WHEN 4 THEN 'jikaida' ELSE 'pastang' END, 25, 8, n % 97, n % 20, 0, 0, 0, 0, 0, n"
            " FROM s"
        )
        await db.execute(
            "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 40000)"
            " INSERT OR IGNORE INTO rating_history (game_id, user_id, guild_id, game, outcome,"
            " mu_before, sigma_before, mu, sigma, finished_at)"
            f" SELECT n / 2, n % 997, {GUILD} + n % 50, 'shax', 'win', 25, 8, 26, 7, n FROM s"
        )
        await db.execute("ANALYZE")
    # A new store: a connection reads the statistics when it opens.
    async with await open_store(store_url) as store:
        assert set(PLAN_PARAMS) == set(QUERIES)
        for name, params in PLAN_PARAMS.items():
            plan = await store.query_plan(name, params)
            text = " | ".join(plan)
            # A scan of a table (not of a subquery's rows, nor of json_each's virtual table).
            scans = [s for s in plan if s.startswith("SCAN ") and s.split()[1] in ALL_TABLES]
            assert not scans, (name, text)
            assert any(
                "USING INDEX" in step
                or "USING COVERING INDEX" in step
                or "USING INTEGER PRIMARY KEY" in step
                or "USING PRIMARY KEY" in step
                for step in plan
            ), (name, text)
        plan = " | ".join(await store.query_plan("games_of_user", PLAN_PARAMS["games_of_user"]))
        assert "seats_by_user" in plan and "TEMP B-TREE" not in plan  # read in order, then LIMIT
        assert "games_to_remind" in " ".join(await store.query_plan("games_to_remind", (START,)))
        assert "games_to_claim" in " ".join(await store.query_plan("games_claimable", (START,)))
        for name in (
            "leaderboard",
            "overall_top",
            "overall_counts",
            "recent_changes",
            "recent_changes_in_game",
            "rating_points",
        ):
            plan = " | ".join(await store.query_plan(name, PLAN_PARAMS[name]))
            assert "TEMP B-TREE" not in plan, (name, plan)  # read in order (then LIMIT)
        assert "games_to_time_out" in " ".join(await store.query_plan("games_timed_out", (START,)))
        for name, wanted in RATING_INDEXES.items():  # docs/deploy.md quotes these plans
            plan = " | ".join(await store.query_plan(name, PLAN_PARAMS[name]))
            indexes = wanted if isinstance(wanted, tuple) else (wanted,)
            assert any(f"USING {index} (guild_id=?" in plan for index in indexes), (name, plan)
        # The overall place: each game's range of scores above the player's, not every rating.
        plan = " | ".join(await store.query_plan("overall_place", PLAN_PARAMS["overall_place"]))
        assert "(guild_id=? AND game=? AND score>?)" in plan


@pytest.mark.sqlite_only  # SQLite's plans; PostgreSQL's: test_store_pg.py
async def test_deadline_scans_seek_their_own_index_without_statistics(store, store_url):
    """A database analysed before an index came has no statistics for it, and SQLite then
    guesses: the deadline scans must not be able to take the finished games' index (keyed on
    ``status``, it read every active game and sorted them: 4.2 ms at 10,000 active games)."""
    for number in range(30):
        status = "finished" if number % 3 else "active"
        await insert_game(store, players=(number, number + 1), status=status, thread_id=number)
    async with store._write() as db:
        await db.execute("ANALYZE")
        # The statistics of a server with 10,000 active games (as bench/scale.py's), taken
        # before the finished games' index came.
        await db.execute("DELETE FROM sqlite_stat1 WHERE idx = 'games_finished_in_order'")
        for index, stat in (
            ("games_to_remind", "10001 1"),
            ("games_to_claim", "10001 1"),
            ("games_to_time_out", "10001 5001"),
        ):
            await db.execute("UPDATE sqlite_stat1 SET stat = ? WHERE idx = ?", (stat, index))
    async with await open_store(store_url) as store:
        for name, index in (
            ("games_to_remind", "games_to_remind"),
            ("games_claimable", "games_to_claim"),
            ("games_timed_out", "games_to_time_out"),
        ):
            plan = " | ".join(await store.query_plan(name, (START,)))
            assert f"USING INDEX {index}" in plan and "TEMP B-TREE" not in plan, (name, plan)
        plan = " | ".join(await store.query_plan("finished_games", PLAN_PARAMS["finished_games"]))
        assert "games_finished_in_order" in plan and "TEMP B-TREE" not in plan, plan


ALL_TABLES = {
    "games", "seats", "moves", "challenges", "jobs", "bot_values", "game_events", "notify_prefs",
    "ratings", "rating_history", "guild_settings", "vacations",
}  # fmt: skip

# The index each ratings query uses (/game stats, /game leaderboard).
RATING_INDEXES = {
    "standings_of_user": "PRIMARY KEY",
    "leaderboard": "INDEX ratings_board",
    "leaderboard_place": "INDEX ratings_board",
    # A count over the game's ratings: from the index, or the server's range of the table
    # (it is clustered on the primary key) when the planner finds that cheaper.
    "leaderboard_counts": ("INDEX ratings_board", "PRIMARY KEY"),
    "overall_top": "INDEX ratings_board",
    "overall_place": "INDEX ratings_board",
    "overall_counts": "PRIMARY KEY",
    "recent_changes": "INDEX history_of_user",
    "recent_changes_in_game": "INDEX history_of_user_game",
    "rating_points": "INDEX history_of_user_game",
    "rating_since": "INDEX history_of_user_game",
    "ratings_since": "INDEX history_of_user_game",  # a seek per game in the player's ratings
}


# ---- start-up checks: one clear line ----------------------------------------------------


def one_line(error: pytest.ExceptionInfo) -> str:
    text = str(error.value)
    assert "\n" not in text and "Traceback" not in text
    return text


async def test_a_missing_folder_is_refused(tmp_path):
    path = str(tmp_path / "nowhere" / "idzeva.db")
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    assert one_line(caught) == (
        f"cannot open the database {path}: the folder {tmp_path / 'nowhere'} does not exist"
    )
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize(
    "content", [b"hello, world\n" * 50, b"not sqlite", b"SQLite format 2\0" * 8]
)
async def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(db_path, content):
    with open(db_path, "wb") as file:
        file.write(content)
    with pytest.raises(StoreError) as caught:
        await Store.open(db_path)
    assert one_line(caught) == f"{db_path} is not an SQLite database (IDZEVA_DB names it)"
    with open(db_path, "rb") as file:
        assert file.read() == content


async def test_a_folder_is_not_a_database(tmp_path):
    with pytest.raises(StoreError) as caught:
        await Store.open(str(tmp_path))
    assert one_line(caught) == f"cannot open the database {tmp_path}: it is a folder, not a file"


async def test_a_read_only_file_is_refused(db_path):
    async with await Store.open(db_path) as store:
        await insert_game(store)
    os.chmod(db_path, 0o444)
    try:
        with pytest.raises(StoreError) as caught:
            await Store.open(db_path)
    finally:
        os.chmod(db_path, 0o644)
    assert (
        one_line(caught) == f"the database {db_path} is read-only: the bot must be able to write it"
    )


async def damage(db_path: str) -> None:
    """Fill a database with a few pages of games, then scribble over one of its pages."""
    async with await Store.open(db_path) as store:
        for number in range(200):
            noise = random.Random(number).randbytes(300).hex()  # does not compress
            await insert_game(store, players=(number, number + 1), state=noise)
        page_size = await store.pragma("page_size")
        pages = await store.pragma("page_count")
    assert pages > 20
    with open(db_path, "r+b") as file:
        file.seek(page_size * (pages - 3) + 8)
        file.write(b"\xff" * 64)


async def test_a_damaged_database_fails_the_quick_check(db_path):
    await damage(db_path)
    async with await Store.open(db_path):  # without the check, opening does not read it
        pass
    with pytest.raises(StoreError) as caught:
        await Store.open(db_path, check=True)
    text = one_line(caught)
    assert text.startswith(f"the database {db_path} is damaged (quick_check: ")
    assert text.endswith("): restore it from a backup")


async def test_a_database_from_a_newer_bot_is_refused(db_path):
    async with await Store.open(db_path, [*MIGRATIONS, "CREATE TABLE later (x);"]):
        pass
    with pytest.raises(StoreError) as caught:
        await Store.open(db_path)
    assert one_line(caught) == (
        f"the database {db_path} has schema version {len(MIGRATIONS) + 1},"
        f" newer than this bot's {len(MIGRATIONS)}: run the newer bot"
    )


async def test_a_sound_database_passes_the_check(db_path):
    async with await Store.open(db_path, check=True) as store:
        await insert_game(store)
    async with await Store.open(db_path, check=True) as store:
        assert len(await store.games_of_user(GUILD, 11)) == 1


@pytest.mark.sqlite_only  # SQLite's second, read-only connection (PostgreSQL: MVCC)
async def test_reads_do_not_wait_for_a_write_in_progress(store):
    game_id = await insert_game(store)
    async with store._write() as db:  # a move being committed (its fsync, with FULL)
        await db.execute("UPDATE games SET version = version + 1 WHERE id = ?", (game_id,))
        row = await asyncio.wait_for(store.get_game(game_id), timeout=2)
        assert row.version == 1  # the last committed state, not the one being written
    assert (await store.get_game(game_id)).version == 2  # committed: the next read sees it


async def test_a_memory_database_reads_through_its_one_connection():
    async with await Store.open(":memory:") as store:
        game_id = await insert_game(store)
        assert await store.update_game(game_id, 1, state=shax_state("d2"))
        assert (await store.get_game(game_id)).version == 2
