"""Upgrading a database written at schema version 2 (each move stored twice: in the state's
log and in the moves table) to version 3 (the log only, a view for queries, seats)."""

from __future__ import annotations

import json
import random
import sqlite3

from bot.config import Settings
from bot.domain.service import GameService
from bot.storage.migrations import POSTGRES as PG_MIGRATIONS
from bot.storage.migrations import SQLITE as MIGRATIONS
from bot.storage.postgres import PostgresStore
from bot.storage.rows import decode_state
from bot.storage.sqlite import Store
from games import GAMES, Game, load_game, new_game

from .conftest import START, fake_renderer, in_thread, raw_sql

GUILD = 1_100_000_000_000_000_001
PLAYERS = [1_234_567_890_123_456_781 + n for n in range(6)]


def random_game(key: str, actions: int, rng: random.Random, seats: int | None = None) -> Game:
    """A game after up to ``actions`` seeded random rolls and moves (fewer if it ends)."""
    game = new_game(key, (), seats)
    for _ in range(actions):
        if game.is_over:
            break
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
        else:
            game.push(rng.choice(game.legal_moves()))
    return game


def old_games() -> list[Game]:
    rng = random.Random(12)
    games = [new_game("shax")]  # no move yet
    for key in GAMES:
        games.append(random_game(key, 12, rng))
        games.append(random_game(key, 60 if key == "jikaida" else 400, rng))
    games.append(random_game("sachidjun", 30, rng, seats=4))
    resigned = random_game("tchela", 9, rng)
    resigned.resign(resigned.to_move or 0)
    games.append(resigned)
    return games


def write_schema_2(db_path: str, games: list[Game]) -> None:
    """What the schema-2 store wrote: the game row, then a moves row per log entry."""
    with sqlite3.connect(db_path) as db:
        for number, game in enumerate(games):
            players = [PLAYERS[(number + seat) % len(PLAYERS)] for seat in range(game.seats)]
            finished = game.is_over
            cursor = db.execute(
                "INSERT INTO games (guild_id, channel_id, kind, variants, players, state,"
                " version, status, result, created_at, updated_at)"
                " VALUES (?, 3, ?, '[]', ?, ?, ?, ?, ?, ?, ?)",
                (
                    GUILD,
                    game.key,
                    json.dumps(players),
                    game.to_json(),
                    1 + len(game.log),
                    "finished" if finished else "active",
                    game.result_text() if finished else None,
                    START,
                    START + number,
                ),
            )
            db.executemany(
                "INSERT INTO moves (game_id, ply, seat, move, dice, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        cursor.lastrowid,
                        ply,
                        entry.seat,
                        entry.move,
                        json.dumps(list(entry.dice)) if entry.dice is not None else None,
                        START + ply,
                    )
                    for ply, entry in enumerate(game.log, start=1)
                ],
            )
    db.close()


async def test_every_game_upgrades_loads_the_same_and_replays(db_path):
    async with await Store.open(db_path, MIGRATIONS[:2]) as store:
        assert await store.pragma("user_version") == 2
    games = old_games()
    assert any(game.is_over for game in games) and any(not game.is_over for game in games)
    write_schema_2(db_path, games)
    rows_before = raw_sql(db_path, "SELECT id, state, version, status, players FROM games")
    moves_before = raw_sql(db_path, "SELECT game_id, ply, seat, move, dice FROM moves")
    assert len(moves_before) == sum(len(game.log) for game in games) > 500

    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS)
        service = GameService(store, settings=Settings(), renderer=fake_renderer)
        for (game_id, state, version, status, players), game in zip(
            rows_before, games, strict=True
        ):
            row = await store.get_game(game_id)
            assert (row.state, row.version, row.status) == (state, version, status)
            loaded = load_game(row.state)
            assert loaded.to_json() == game.to_json()
            assert await service.legal_moves(game_id, GUILD) == game.legal_moves()
            # Replayable: the record alone, from the start position, gives the same game.
            replayed = new_game(game.key, (), game.seats)
            replayed.replay(move.entry for move in await store.moves(game_id))
            if game.outcome is None or game.outcome.reason != "resignation":
                assert replayed.to_json() == game.to_json()
            else:
                assert replayed.log == game.log and not replayed.is_over
            for user in json.loads(players):
                listed = await store.games_of_user(GUILD, user, include_finished=True)
                assert game_id in [listed_row.id for listed_row in listed]
        moves_after = [
            (move.game_id, move.ply, move.seat, move.move, move.dice)
            for game_id, *_ in rows_before
            for move in await store.moves(game_id)
        ]
    assert moves_after == [
        (g, p, s, m, tuple(json.loads(d)) if d else None) for g, p, s, m, d in moves_before
    ]
    assert raw_sql(db_path, "SELECT name FROM sqlite_master WHERE name = 'moves'") == []
    # The upgrade compressed every state, and kept its text exactly.
    stored = raw_sql(db_path, "SELECT typeof(state), state FROM games ORDER BY id")
    assert [kind for kind, _ in stored] == ["blob"] * len(games)
    assert [decode_state(state) for _, state in stored] == [row[1] for row in rows_before]
    seats = raw_sql(db_path, "SELECT COUNT(*) FROM seats")[0][0]
    assert seats == sum(game.seats for game in games)


# ---- schema 6: the correspondence clocks ------------------------------------------------

DAY = 86400.0


async def write_schema_4_games(store) -> list[int]:
    """Three games as schema 4 stored them: one waiting for its reminder, one reminded
    already, one finished."""
    from games import Shax

    common = {
        "guild_id": GUILD,
        "channel_id": 3,
        "kind": "shax",
        "players": PLAYERS[:2],
        "state": Shax().to_json(),
        "created_at": START,
        "updated_at": START,
        "turn_started_at": START,
    }
    return [
        await store.insert_game(**common, remind_at=START + DAY, claim_at=START + 7 * DAY),
        await store.insert_game(
            **common, remind_at=START + DAY, reminded=1, claim_at=START + 2 * DAY
        ),
        await store.insert_game(**common, status="finished", result="Draw: agreed"),
    ]


async def check_clock_schema(store, game_ids: list[int]) -> None:
    """Running games end on time a day after their deadline; a turn reminded already waits
    for no other reminder; the bot's clock then ends them on time."""
    waiting, reminded, finished = [await store.get_game(game_id) for game_id in game_ids]
    assert (waiting.remind_at, waiting.timeout_at) == (START + DAY, START + 8 * DAY)
    assert (reminded.remind_at, reminded.reminded, reminded.timeout_at) == (
        None,
        1,
        START + 3 * DAY,
    )
    assert (finished.timeout_at, finished.paused_until) == (None, None)
    clock = [START + 8 * DAY]
    service = GameService(
        store, settings=Settings(), clock=lambda: clock[0], renderer=fake_renderer
    )
    ended = [n.game_id for n in await service.tick() if n.kind == "timed_out"]
    assert sorted(ended) == game_ids[:2]


async def test_running_games_get_a_time_out_on_the_upgrade_to_the_clock_schema(db_path):
    async with await Store.open(db_path, MIGRATIONS[:4]) as store:
        game_ids = await write_schema_4_games(store)
    async with await Store.open(db_path) as store:
        await check_clock_schema(store, game_ids)


# ---- migration 11: players' names ----------------------------------------------------------

NAMES_AT = next(n for n, script in enumerate(MIGRATIONS) if "player_names" in script)
PG_NAMES_AT = next(n for n, script in enumerate(PG_MIGRATIONS) if "player_names" in script)


async def check_names_after_upgrade(store, game_id: int) -> None:
    """The game written before is there, unnamed; names are kept from now on."""
    game = await store.get_game(game_id)
    assert list(game.players) == PLAYERS[:2]
    assert await store.player_names(GUILD, game.players) == {}
    assert await store.put_player_name(GUILD, PLAYERS[0], "Alice", START) is True
    assert await store.player_names(GUILD, game.players) == {PLAYERS[0]: "Alice"}


async def test_an_sqlite_database_upgrades_to_keep_players_names(db_path):
    async with await Store.open(db_path, MIGRATIONS[:NAMES_AT]) as old:
        assert await old.pragma("user_version") == NAMES_AT
        [game_id, *_] = await write_schema_4_games(old)
    async with await Store.open(db_path) as store:
        assert await store.pragma("user_version") == len(MIGRATIONS) >= NAMES_AT + 1
        await check_names_after_upgrade(store, game_id)


async def test_a_postgresql_database_upgrades_to_keep_players_names(pg_server):
    url = in_thread(pg_server.new_database, None)
    try:
        async with await PostgresStore.open(url, PG_MIGRATIONS[:PG_NAMES_AT]) as old:
            [game_id, *_] = await write_schema_4_games(old)
        async with await PostgresStore.open(url) as store:
            assert await store.schema_version() == len(PG_MIGRATIONS)
            await check_names_after_upgrade(store, game_id)
    finally:
        in_thread(pg_server.drop_database, url)
