"""SimCord fixtures: the real bot against an in-memory Discord, with a movable clock."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
import simcord

from bot.app import create_bot
from bot.config import Settings
from games import DiceSpec

START = 1_800_000_000.0  # a fixed epoch second for deterministic deadlines


@dataclass
class FakeClock:
    now: float = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class SeededRoller:
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def __call__(self, spec: DiceSpec) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, spec.sides) for _ in range(spec.count))


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


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "idzeva.db")


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(db_path, clock):
    """Builds a fresh bot on the same database and clock (a restart uses a new one)."""
    settings = Settings(db_path=db_path)

    def build():
        return create_bot(settings, clock=clock, roller=SeededRoller())

    return build


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
