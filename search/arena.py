"""Bot against bot: whole games between two levels (or a uniformly random player, or one of
the outside players of ``search.yardsticks``), seats alternating, with the share of the
points, a 95% Wilson interval and the time per turn (a bot's reply).
Used by ``idzeva arena`` and ``bench/arena.py``."""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games import Game

from .evaluate import WEIGHTED
from .mcts import LEVELS, Level, Search
from .yardsticks import YARDSTICKS

RANDOM = "random"
# Each level with the weights fitted by self-play for the weighted evaluations (the dice
# games) instead of the hand-set ones, to measure what the fitting is worth:
# ``normal_fitted``.
FITTED_LEVELS: dict[str, Level] = {
    f"{name}_fitted": dataclasses.replace(
        level, name=f"{name}_fitted", fitted_weights=frozenset(WEIGHTED)
    )
    for name, level in LEVELS.items()
}
PLAYERS = (*LEVELS, RANDOM, *YARDSTICKS, *FITTED_LEVELS)
# A game still running after this many moves is scored as a draw (none of the games has
# reached it against the bot; random against random can wander in Poron Jikaida).
# (game, variants, seats): every game and variant the bot plays (arena and tests).
SETUPS = [
    ("shax", (), 2),
    ("shax", ("two-removals",), 2),
    ("tchela", (), 2),
    ("tchela", ("4x6",), 2),
    ("tchela", ("two-stores",), 2),
    ("sachidjun", (), 2),
    ("sachidjun", (), 3),
    ("sachidjun", ("tameg-pair",), 3),
    ("sachidjun", (), 4),
    ("chebache", (), 2),
    ("jikaida", ("pastang",), 2),
    ("jikaida", (), 2),
]
MAX_PLIES = 3000
PLY_LIMIT = "ply limit"  # the ending of a game stopped at MAX_PLIES (scored as a draw)


@dataclass
class Tally:
    """Results from player A's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0  # A's share of the points, summed over games
    times: dict[str, list[float]] = field(default_factory=dict)  # player -> seconds per turn
    # player -> CPU seconds per turn (the same turns): what the search cost, whatever the
    # load; wall time above it is time spent waiting for a core.
    cpu: dict[str, list[float]] = field(default_factory=dict)
    plies: list[int] = field(default_factory=list)
    # how the games ended: the engine's reason, or PLY_LIMIT -> games
    endings: dict[str, int] = field(default_factory=dict)
    # the last game: "won", "drew" or "lost" (for A), how it ended and at which ply
    last: str = ""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def share(self) -> float:
        return self.points / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.games)

    def add(self, other: Tally) -> None:
        """Fold in another part of the same match (games played in another process)."""
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.points += other.points
        for player, spent in other.times.items():
            self.times.setdefault(player, []).extend(spent)
        for player, spent in other.cpu.items():
            self.cpu.setdefault(player, []).extend(spent)
        self.plies.extend(other.plies)
        for reason, count in other.endings.items():
            self.endings[reason] = self.endings.get(reason, 0) + count
        self.last = other.last or self.last

    def mean_time(self, player: str) -> float:
        times = self.times.get(player, [])
        return sum(times) / len(times) if times else 0.0

    def p95(self, player: str) -> float:
        return percentile(self.times.get(player, []), 0.95)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (draws count as half a success)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def chooser(
    player: str, seed: int, iterations: int | None = None, clock: bool = False
) -> Callable[[Game], list[str]]:
    """A function giving ``player``'s moves for its whole turn from a position, as the bot
    plays on Discord (``Search.choose_turn``: one search for the turn): by the level's
    search size alone (``clock``: also within its time, as on Discord; ``iterations``: a
    size of its own). The random player and the outside players make one move at a time."""
    if player == RANDOM:
        rng = random.Random(seed)
        return lambda game: [rng.choice(game.legal_moves())]
    if player in YARDSTICKS:
        rng = random.Random(seed)
        play = YARDSTICKS[player]
        return lambda game: [play(game, rng)]
    level = LEVELS.get(player) or FITTED_LEVELS.get(player)
    if level is None:
        raise ValueError(f"unknown player {player!r}; one of: {', '.join(PLAYERS)}")
    rng = random.Random(seed)
    return lambda game: Search(level, rng.getrandbits(32), iterations, clock=clock).choose_turn(
        game
    )


def play_game(
    make: Callable[[], Game],
    seat_players: list[str],
    seed: int,
    times: dict[str, list[float]] | None = None,
    iterations: int | None = None,
    clock: bool = False,
    cpu: dict[str, list[float]] | None = None,
) -> Game:
    """Play one whole game; ``seat_players[s]`` moves for seat ``s``. Dice come from a
    ``random.Random(seed)``. ``times`` gets each player's time per turn where the turn had
    a choice (what a player waits for the bot's reply), and ``cpu`` the CPU time of the
    same turns (this process's: the arena plays one game at a time in a process)."""
    game = make()
    dice = random.Random(seed)
    movers = {
        s: chooser(player, seed * 31 + s + 1, iterations, clock)
        for s, player in enumerate(seat_players)
    }
    while not game.is_over and game.ply < MAX_PLIES:
        spec = game.dice_needed()
        if spec is not None:
            game.roll([dice.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        seat = game.to_move
        assert seat is not None
        started, started_cpu = time.perf_counter(), time.process_time()
        moves = movers[seat](game)
        spent = time.perf_counter() - started
        spent_cpu = time.process_time() - started_cpu
        choice = False
        for move in moves:
            choice = choice or len(game.legal_moves()) > 1
            game.push(move)
        if times is not None and choice:
            times.setdefault(seat_players[seat], []).append(spent)
        if cpu is not None and choice:
            cpu.setdefault(seat_players[seat], []).append(spent_cpu)
    if not game.is_over:
        game.agree_draw()
    return game


def points_share(game: Game, team: int) -> float:
    """``team``'s share of the points the game gave (Poron Jikaida's half-point wins count
    whole: 1/2 to 0); 1/2 when nobody scored."""
    assert game.outcome is not None
    score = game.outcome.score
    ours = max(score[s] for s in range(game.seats) if game.team_of(s) == team)
    theirs = max(score[s] for s in range(game.seats) if game.team_of(s) != team)
    return ours / (ours + theirs) if ours + theirs else 0.5


def seats_for(game: Game, a: str, b: str, a_first_team: bool) -> list[str]:
    """Players per seat: A plays every seat of one team (seat 0's, or the other)."""
    team0 = game.team_of(0)
    return [(a if (game.team_of(s) == team0) == a_first_team else b) for s in range(game.seats)]


def arena(
    make: Callable[[], Game],
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    progress: Callable[[int, Tally], None] | None = None,
    iterations: int | None = None,
    clock: bool = False,
    first: int = 0,
) -> Tally:
    """``games`` games of A against B, A taking seat 0's team in even games. Each level
    searches its own size per move (``mcts.Level.nodes``), so that the result does not
    depend on the machine's load; ``clock`` also holds it to its time, as on Discord."""
    tally = Tally()
    for index in range(first, first + games):
        a_first = index % 2 == 0
        probe = make()
        seats = seats_for(probe, a, b, a_first)
        game = play_game(
            make, seats, seed * 1_000_003 + index, tally.times, iterations, clock, tally.cpu
        )
        assert game.outcome is not None
        team_a = game.team_of(0) if a_first else 1 - game.team_of(0)
        tally.points += points_share(game, team_a)
        tally.plies.append(game.ply)
        stopped = game.ply >= MAX_PLIES and not game.outcome.winners
        ending = PLY_LIMIT if stopped else game.outcome.reason
        tally.endings[ending] = tally.endings.get(ending, 0) + 1
        winners = {game.team_of(s) for s in game.outcome.winners}
        if not winners:
            tally.draws += 1
            result = "drew"
        elif team_a in winners:
            tally.wins += 1
            result = "won"
        else:
            tally.losses += 1
            result = "lost"
        tally.last = f"{result} ({ending}, ply {game.ply})"
        if progress:
            progress(tally.games, tally)
    return tally
