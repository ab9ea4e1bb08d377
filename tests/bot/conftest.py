"""Fixtures for the storage and service tests: a database, a fake clock and renderer.

Every test that uses ``store`` (or ``service``) runs twice: on an SQLite file and on a fresh
PostgreSQL database (``tests/pg.py``: one server per session). A test that also asks for
``db_path`` reads or writes the SQLite file directly, and runs on SQLite only (as does one
marked ``sqlite_only``).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading

import pytest

from bot.config import Settings
from bot.service import BoardView, GameService
from bot.storage import open_store
from bot.store import decode_state
from games import Shax
from tests import pg
from tests.fakes import START, FakeClock, QueuedRoller  # noqa: F401  (START re-exported)

HOUR = 3600.0
DAY = 24 * HOUR
# Realistically large Discord snowflakes (they must survive JSON and SQLite's json_each).
GUILD, OTHER_GUILD, CHANNEL = (
    1_100_000_000_000_000_001,
    1_100_000_000_000_000_002,
    1_200_000_000_000_000_003,
)
ALICE, BOB, CAROL = 1_234_567_890_123_456_781, 1_234_567_890_123_456_782, 1_234_567_890_123_456_783


def fake_renderer(game) -> bytes:
    return b"PNG"


BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = "db_path" in metafunc.fixturenames or bool(
            metafunc.definition.get_closest_marker("sqlite_only")
        )
        metafunc.parametrize("backend", BACKENDS[:1] if sqlite_only else BACKENDS)


def in_thread(function, *args):
    """Run ``function(*args)`` (a coroutine function) to the end in a thread of its own: sync
    fixtures run beside the tests' event loop, which must not be touched."""
    result: list = []

    def run() -> None:
        try:
            result.append(("ok", asyncio.run(function(*args))))
        except BaseException as error:  # handed to the caller
            result.append(("error", error))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    [(outcome, value)] = result
    if outcome == "error":
        raise value
    return value


@pytest.fixture(scope="session")
def pg_server():
    """PostgreSQL 16 (pgserver) in a temporary folder, for the whole run; stopped at the end."""
    try:
        server = pg.start()
    except Exception as error:
        pytest.fail(f"PostgreSQL (pgserver) could not start: {error!r}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "idzeva.db")


@pytest.fixture
def store_url(backend, tmp_path, request):
    """What IDZEVA_DB would say: the SQLite file, or a fresh migrated PostgreSQL database."""
    if backend == "sqlite":
        yield str(tmp_path / "idzeva.db")
        return
    server = request.getfixturevalue("pg_server")
    url = in_thread(server.new_database)
    yield url
    in_thread(server.drop_database, url)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def roller() -> QueuedRoller:
    """Seeded dice; a test may queue the exact rolls it needs (``roller.queued``)."""
    return QueuedRoller()


@pytest.fixture
async def store(store_url):
    store = await open_store(store_url)
    yield store
    await store.close()


@pytest.fixture
def service(store, clock, roller) -> GameService:
    return GameService(
        store, settings=Settings(), clock=clock, roller=roller, renderer=fake_renderer
    )


async def start_game(
    service: GameService, kind: str = "shax", first: str = "me", guild_id: int = GUILD
) -> BoardView:
    """ALICE challenges BOB; BOB accepts. With first="me", ALICE plays seat 0."""
    challenge = await service.create_challenge(
        guild_id=guild_id,
        channel_id=CHANNEL,
        kind=kind,
        challenger_id=ALICE,
        opponent_id=BOB,
        first=first,
    )
    return await service.accept_challenge(challenge.challenge_id, BOB)


def shax_result(finish) -> str:
    """The engine's own result text after ``finish(game)`` (wording belongs to the engine)."""
    game = Shax()
    finish(game)
    return game.result_text()


def stored_log(db_path: str) -> list[tuple]:
    """(game, ply, seat, move, dice) of every logged action, read from the file directly:
    the record is the log inside each game's stored state."""
    entries = []
    for game_id, state in raw_sql(db_path, "SELECT id, state FROM games ORDER BY id"):
        for ply, entry in enumerate(json.loads(decode_state(state))["log"], start=1):
            dice = tuple(entry["dice"]) if "dice" in entry else None
            entries.append((game_id, ply, entry["seat"], entry.get("move"), dice))
    return entries


def raw_sql(db_path: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Run SQL on the file directly, as another process would."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute(sql, params).fetchall()
    db.close()
    return rows
