"""SimCord fixtures: the real bot against an in-memory Discord, with a movable clock."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest
import simcord

from bot.app import create_bot
from bot.config import Settings
from tests.fakes import FakeClock, QueuedRoller

# The bot opponent's search size in these tests: a quick move, the same on every machine.
BOT_ITERATIONS = 30


@dataclass
class World:
    """A running bot in a server with two players and a bystander."""

    env: simcord.Env
    clock: FakeClock
    make_bot: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object

    async def restart(self) -> None:
        """Stop the bot and start a new one on the same database, as a redeploy would."""
        old = self.env.bot
        await self.env.restart_bot(self.make_bot())
        if old.store is not None:  # SimCord detaches the old bot without closing it
            await old.store.close()
            old.store = None


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_logged_errors():
    """Fail on any error the bot only logged.

    SimCord re-raises what reaches the command tree's error handler, but discord.py swallows
    (and logs) exceptions in persistent-button callbacks, and the deadline loop logs its own
    failures: those would otherwise pass unnoticed. Autouse, so it is torn down after the env.
    """
    recorder = _Recorder()
    root = logging.getLogger()
    root.addHandler(recorder)
    try:
        yield recorder
    finally:
        root.removeHandler(recorder)
    logged = [
        f"{r.name}: {r.getMessage()}\n{logging.Formatter().formatException(r.exc_info)}"
        if r.exc_info
        else f"{r.name}: {r.getMessage()}"
        for r in recorder.records
    ]
    assert not logged, "the bot logged errors:\n" + "\n".join(logged)


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "idzeva.db")


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def dice() -> QueuedRoller:
    """The bots' dice: seeded, after any rolls a test queues (``dice.queued``). One roller
    serves every bot of a test, restarts included."""
    return QueuedRoller()


@pytest.fixture
async def make_bot(store_url, clock, dice):
    """Builds a fresh bot on the same database and clock (a restart uses a new one). Each
    test runs on SQLite and on PostgreSQL (``tests/conftest.py``); one that asks for
    ``db_path`` reads the SQLite file, and runs on SQLite only.

    SimCord detaches a bot without calling ``close()``, so the stores are closed here, after
    the env has shut down: an open aiosqlite connection is a non-daemon thread that would keep
    pytest from exiting (after a failure the traceback keeps the bot alive).
    """
    # Workers in a thread (a pool: test_worker_processes). No GIF at each game's end (its test turns
    # it on: tests/discord/test_records.py), no puzzle miner's loop. The bot opponent searches a
    # fixed, small tree.
    settings = Settings(
        db_path=store_url,
        workers=0,
        game_gifs=False,
        bot_iterations=BOT_ITERATIONS,
        server_puzzles=False,  # its test mines when it means to (tests/discord/test_puzzles.py)
    )
    built = []

    def build():
        bot = create_bot(settings, clock=clock, roller=dice)
        built.append(bot)
        return bot

    yield build
    for bot in built:
        if bot.store is not None:
            await bot.store.close()
            bot.store = None


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@pytest.fixture
def world(simcord_env, clock, make_bot):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    return World(env, clock, make_bot, guild, channel, alice, bob, carol)


# SimCord waits this long for the bot to go idle after each action (its default is 5 s). A
# passing test never waits it out: settling ends when the bot is idle. Under a loaded
# machine a whole game's GIF, rendered in the settle of the last move, took longer than 5 s.
SETTLE_TIMEOUT_S = 30.0


# How often SimCord looks again while the bot still has work it does not count as idle (its
# default: every 50 ms). A view with a timeout that the bot sent (a picker, a confirmation)
# keeps a task that SimCord counts as idle only on its second look, so every later action
# waited the whole interval once: 488 times 50 ms in the hostile-input test alone (24 of its
# 35 s, with the machine idle). Looking more often changes nothing of when the bot is idle.
SETTLE_POLL_S = 0.005


@pytest.fixture(autouse=True)
def quick_settle_polls(monkeypatch):
    """SimCord's settling, polled every ``SETTLE_POLL_S``: the interval has no public setting
    (``Env.settle(idle=...)`` only for a test's own settle, not the one after each action).
    Fails, rather than going on slowly, if SimCord renames the method."""
    settle = simcord.Env._settle_internal

    async def polled_often(self, *, idle: float = SETTLE_POLL_S, **options):
        return await settle(self, idle=min(idle, SETTLE_POLL_S), **options)

    monkeypatch.setattr(simcord.Env, "_settle_internal", polled_often)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "discord" in item.path.parts and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT_S))
