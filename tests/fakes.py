"""Test doubles shared by the service and SimCord tests: a clock to move, seeded dice."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

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
    """Dice from a seeded generator; remembers every roll asked for."""

    seed: int = 7
    calls: list[DiceSpec] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def __call__(self, spec: DiceSpec) -> tuple[int, ...]:
        self.calls.append(spec)
        return tuple(self.rng.randint(1, spec.sides) for _ in range(spec.count))


@dataclass
class QueuedRoller(SeededRoller):
    """The seeded roller, which first deals any queued dice; remembers what it rolled. One
    instance can serve every bot of a test (restarts included)."""

    queued: list[tuple[int, ...]] = field(default_factory=list)
    rolled: list[tuple[int, ...]] = field(default_factory=list)

    def __call__(self, spec: DiceSpec) -> tuple[int, ...]:
        if self.queued:
            self.calls.append(spec)
            dice = self.queued.pop(0)
        else:
            dice = super().__call__(spec)
        self.rolled.append(dice)
        return dice
