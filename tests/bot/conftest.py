"""Fixtures for the storage and service tests: a database, a fake clock and renderer.

Every test that uses ``store`` (or ``service``) runs twice, on SQLite and on PostgreSQL
(``tests/conftest.py``).
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.config import Settings
from bot.domain.service import BoardView, GameService
from bot.storage import open_store
from bot.storage.rows import decode_state
from games import Shax
from tests.conftest import in_thread  # noqa: F401  (re-exported for the store tests)
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


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "idzeva.db")


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
