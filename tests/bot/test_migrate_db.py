"""``idzeva migrate-db``: an SQLite bot's data into PostgreSQL, copied then verified."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3

import asyncpg
import pytest

from bot.cli.main import main
from bot.cli.migrate_db import rating_differences
from bot.storage.postgres import PostgresStore
from bot.storage.rows import GameEvent, LearnRow
from bot.storage.sql import rate_finished
from bot.storage.sqlite import Store
from bot.storage.tournament_rows import BoardRow
from games import Shax

from .conftest import START, in_thread
from .test_store_upgrade import GUILD, PLAYERS, old_games

LEARNER = LearnRow(PLAYERS[1], "shax", ("board", "placement"), "mills", 2, 1)


@pytest.fixture
def pg_url(pg_server):
    url = in_thread(pg_server.new_database)
    yield url
    in_thread(pg_server.drop_database, url)


async def fill(db_path: str) -> list[int]:
    """Every game of ``old_games()`` (some finished, one resigned) and two challenges."""
    game_ids = []
    async with await Store.open(db_path) as store:
        for number, game in enumerate(old_games()):
            players = [PLAYERS[(number + seat) % len(PLAYERS)] for seat in range(game.seats)]
            finished = game.is_over
            game_ids.append(
                await store.insert_game(
                    guild_id=GUILD,
                    channel_id=3,
                    thread_id=100 + number,
                    kind=game.key,
                    players=players,
                    state=game.to_json(),
                    status="finished" if finished else "active",
                    result=game.result_text() if finished else None,
                    created_at=START,
                    updated_at=START + number,
                    remind_at=START + 3600.5,
                )
            )
        for status in ("pending", "accepted"):
            await store.insert_challenge(
                guild_id=GUILD,
                channel_id=3,
                kind="tchela",
                challenger_id=PLAYERS[0],
                opponent_id=PLAYERS[1],
                first="random",
                status=status,
                created_at=START,
                expires_at=START + 60,
                game_id=game_ids[0] if status == "accepted" else None,
                partners=(PLAYERS[2], None),
                options={"colour": "white"},
            )
        # A notice not yet sent (its process stopped before), one sent, the command hash.
        await store.add_job("reminder:1:1", '{"text": "your turn"}', START, "a", 120.0)
        await store.add_job("reminder:2:1", '{"text": "sent"}', START, "a", 120.0)
        await store.finish_job("reminder:2:1", START + 1)
        await store.put_value("commands:global", "abc123", START)
        # The history of game 1 (a draw offered, declined) and one player's notices.
        for kind, seat in (("draw-offer", 0), ("draw-decline", 1)):
            event = GameEvent(kind, seat, 0, START)
            assert await store.add_game_events(game_ids[0], 1, [event])
        await store.set_notify_pref(GUILD, PLAYERS[1], route="dm", digest=True)
        await store.put_guild_settings(GUILD, '{"threads": false}', now=START, user_id=PLAYERS[0])
        await store.book_vacation(
            GUILD, PLAYERS[1], 2027, days=3, allowance=30, now=START, until=START + 3 * 86400
        )
        await store.put_player_name(GUILD, PLAYERS[0], "Alice", START)
        await store.put_learn_progress(LEARNER, START)
        # A tournament running its first round, on game 1.
        event_id = await store.insert_tournament(
            guild_id=GUILD,
            channel_id=3,
            organiser_id=PLAYERS[0],
            name="Cup",
            kind="shax",
            format="swiss",
            created_at=START,
            updated_at=START,
        )
        for player in PLAYERS[:2]:
            await store.join_tournament(event_id, player, START)
        board = BoardRow(event_id, 1, 1, PLAYERS[0], PLAYERS[1], game_ids[0])
        await store.start_tournament(event_id, [(PLAYERS[0], 1.0)], 2, [board], START)
        await store.add_puzzle_answer(PLAYERS[0], "shax:1", True, START)
        # The finished games rated, as the bot rates them when they end.
        assert await rate_finished(store) > 0
    return game_ids


async def count_rows(db_path: str, *tables: str) -> list[int]:
    db = sqlite3.connect(db_path)
    try:
        return [db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables]
    finally:
        db.close()


async def migrate(db_path: str, url: str) -> tuple[int, str]:
    """The command as typed (in a thread: it runs its own event loop)."""
    out = io.StringIO()
    code = await asyncio.to_thread(main, ["migrate-db", "--from", db_path, "--to", url], out)
    return code, out.getvalue()


async def test_everything_is_copied_and_every_game_replays(db_path, pg_url):
    game_ids = await fill(db_path)
    games = len(old_games())
    seats = sum(game.seats for game in old_games())
    ratings, history = await count_rows(db_path, "ratings", "rating_history")
    assert ratings > 0 and history > 0
    code, text = await migrate(db_path, pg_url)
    assert (code, text) == (
        0,
        f"copied {games} games, 2 jobs, 1 bot_values, 2 challenges, 2 game_events,"
        f" 1 notify_prefs, {ratings} ratings, {history} rating_history, 1 guild_settings,"
        " 1 vacations, 1 player_names, 1 learn_progress, 1 tournaments, 2 tournament_players,"
        " 1 tournament_games, 0 game_analyses, 1 puzzle_answers, 0 server_puzzles\n"
        f"verified: {games} games replay to their state\n",
    )
    async with await Store.open(db_path) as before, await PostgresStore.open(pg_url) as after:
        for game_id in game_ids:
            assert await after.get_game(game_id) == await before.get_game(game_id)
        for user in PLAYERS:
            assert await after.games_of_user(GUILD, user, include_finished=True) == (
                await before.games_of_user(GUILD, user, include_finished=True)
            )
        assert await after.guild_settings(GUILD) == '{"threads": false}'
        assert await after.player_names(GUILD, PLAYERS) == {PLAYERS[0]: "Alice"}
        assert await after.learn_progress(PLAYERS[1]) == [LEARNER]
        assert await after.vacation(GUILD, PLAYERS[1], 2027) == await before.vacation(
            GUILD, PLAYERS[1], 2027
        )
        assert (await after.vacation(GUILD, PLAYERS[1], 2027)).used == 3
        for challenge_id in (1, 2):
            assert await after.get_challenge(challenge_id) == await before.get_challenge(
                challenge_id
            )
        assert await after.get_value("commands:global") == "abc123"
        # The unsent notice is still to send, by whichever process takes it first.
        assert await after.take_jobs("b", START + 120, 120.0, 10, 5) == [
            ("reminder:1:1", '{"text": "your turn"}')
        ]
        assert await after.game_events(game_ids[0]) == await before.game_events(game_ids[0])
        assert [e.kind for e in await after.game_events(game_ids[0])] == [
            "draw-offer",
            "draw-decline",
        ]
        assert await after.notify_pref(GUILD, PLAYERS[1]) == await before.notify_pref(
            GUILD, PLAYERS[1]
        )
        # The ratings are copied as they are: nothing left to rate.
        assert await rate_finished(after) == 0
        key = lambda s: (s.user_id, s.game)  # noqa: E731
        assert sorted(await after.guild_standings(GUILD), key=key) == sorted(
            await before.guild_standings(GUILD), key=key
        )
        # New rows continue after the copied ids.
        new_id = await after.insert_game(
            guild_id=GUILD,
            channel_id=3,
            kind="shax",
            players=PLAYERS[:2],
            state=Shax().to_json(),
            created_at=START,
            updated_at=START,
        )
        assert new_id == max(game_ids) + 1
    db = await asyncpg.connect(pg_url)
    try:
        assert await db.fetchval("SELECT COUNT(*) FROM seats") == seats + 2
    finally:
        await db.close()


async def test_a_database_that_is_not_empty_is_left_alone(db_path, pg_url):
    await fill(db_path)
    assert (await migrate(db_path, pg_url))[0] == 0
    assert await migrate(db_path, pg_url) == (1, "")
    db = await asyncpg.connect(pg_url)
    try:
        assert await db.fetchval("SELECT COUNT(*) FROM games") == len(old_games())
    finally:
        await db.close()


async def test_a_game_whose_record_does_not_give_its_state_is_reported(db_path, pg_url):
    game_ids = await fill(db_path)
    # A Shax state whose log says one move while its board shows another position.
    game = Shax()
    game.push(game.legal_moves()[0])
    data = json.loads(game.to_json())
    data["log"] = []
    async with await Store.open(db_path) as store:
        assert await store.update_game(game_ids[0], 1, state=json.dumps(data))
    code, text = await migrate(db_path, pg_url)
    assert code == 1
    assert text.splitlines()[-1] == (
        f"problem: game {game_ids[0]}: its record replays to another position than its stored state"
    )


def test_the_target_must_be_postgresql(db_path, capsys):
    assert main(["migrate-db", "--from", db_path, "--to", "other.db"]) == 2
    assert capsys.readouterr().err == "idzeva: --to must be a postgresql:// URL, not 'other.db'\n"


async def test_ratings_are_copied_as_they_are_not_computed_again(db_path, pg_url):
    """Games rated in another order than (updated_at, id) (a clock step back, two processes
    committing out of clock order) have other ratings than a recomputation gives."""
    await fill(db_path)
    db = sqlite3.connect(db_path)
    with db:  # as if another order had rated them: every rating and history row moved
        db.execute("UPDATE ratings SET mu = mu + 1.25, score = score + 0.5")
        db.execute("UPDATE rating_history SET mu = mu - 0.75")
    select = {
        "ratings": "SELECT * FROM ratings ORDER BY guild_id, user_id, game",
        "rating_history": "SELECT * FROM rating_history ORDER BY game_id, user_id",
    }
    before = {table: db.execute(query).fetchall() for table, query in select.items()}
    db.close()
    assert (await migrate(db_path, pg_url))[0] == 0
    target = await asyncpg.connect(pg_url)
    try:
        for table, query in select.items():
            assert [tuple(row) for row in await target.fetch(query)] == before[table]
    finally:
        await target.close()


async def test_a_rating_that_differs_after_the_copy_is_reported_field_by_field(db_path, pg_url):
    await fill(db_path)
    assert (await migrate(db_path, pg_url))[0] == 0
    source = sqlite3.connect(db_path)
    target = await asyncpg.connect(pg_url)
    try:
        guild, user, game, mu = source.execute(
            "SELECT guild_id, user_id, game, mu FROM ratings ORDER BY user_id, game LIMIT 1"
        ).fetchone()
        await target.execute(
            "UPDATE ratings SET mu = 10.5 WHERE guild_id = $1 AND user_id = $2 AND game = $3",
            guild,
            user,
            game,
        )
        game_id, history_user = source.execute(
            "SELECT game_id, user_id FROM rating_history ORDER BY game_id, user_id LIMIT 1"
        ).fetchone()
        await target.execute(
            "DELETE FROM rating_history WHERE game_id = $1 AND user_id = $2", game_id, history_user
        )
        assert await rating_differences(source, target, "ratings") == [
            f"ratings {(guild, user, game)}: mu {mu!r} became 10.5"
        ]
        assert await rating_differences(source, target, "rating_history") == [
            f"rating_history {(game_id, history_user)}: missing in PostgreSQL"
        ]
    finally:
        source.close()
        await target.close()


async def test_a_target_holding_only_ratings_is_refused(db_path, pg_url, capsys):
    await fill(db_path)
    async with await PostgresStore.open(pg_url):
        pass  # the schema, empty
    target = await asyncpg.connect(pg_url)
    try:
        await target.execute(
            "INSERT INTO ratings VALUES (1, 2, 'shax', 25, 8, 1, 1, 1, 0, 0, 1, 1, 0)"
        )
    finally:
        await target.close()
    assert await migrate(db_path, pg_url) == (1, "")
    target = await asyncpg.connect(pg_url)
    try:
        assert await target.fetchval("SELECT COUNT(*) FROM games") == 0
        assert await target.fetchval("SELECT COUNT(*) FROM ratings") == 1
    finally:
        await target.close()


@pytest.mark.parametrize("content", [None, b"", b"not a database at all, just text\n" * 200])
def test_a_source_that_is_missing_or_not_ours_is_refused(tmp_path, pg_url, capsys, content):
    path = tmp_path / "typo.db"
    if content is not None:
        path.write_bytes(content)
    assert main(["migrate-db", "--from", str(path), "--to", pg_url]) == 2
    error = capsys.readouterr().err
    assert error.startswith("idzeva: ") and error.count("\n") == 1
    assert str(path) in error
    if content is None:
        assert not path.exists()
    else:
        assert path.read_bytes() == content
