"""The rating model the store applies (OpenSkill's Weng-Lin, Plackett-Luce): the rows of
``ratings`` and ``rating_history`` (``Standing``, ``Change``), a finished game's ``RatingJob``
and ``rate``, which turns the players' current standings into the new ones.

Pure code, below the store: the store applies a job in the transaction that writes the game's
final move (``update_game(..., ratings=job)``), and rates old games on upgrade
(``job_from_state``). What the commands show (leaderboards, stats) is ``bot/domain/ratings.py``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from bot.storage.rows import GameRow
    from games import Game

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
BASE, SCALE = 1500.0, 60.0  # shown = BASE + SCALE * (mu - mu0)
PROVISIONAL_SIGMA = 5.0  # shown with "?" until sigma falls below (about 15 games)
TOTAL = "*"  # the standings row holding a player's tallies over all games (no rating)

# The bot opponent plays at a fixed rating per game and level, with a small sigma (a
# confident anchor): the one fitted from the arena's results (``bot_rating``), or, in a game
# with no fit for the level, these defaults.
BOT_ANCHORS = {"easy": 1200.0, "normal": 1500.0, "hard": 1800.0}
BOT_SIGMA = 1.0
BOT_RATINGS = "bot_ratings.json"  # package data, made by `make docs` (bench/bot_ratings.py)


def rating_game(kind: str, variants: Sequence[str]) -> str:
    """The key a game is rated under: its kind, except Pastang apart from Poron Jikaida."""
    if kind == "jikaida" and "pastang" in variants:
        return "pastang"
    return kind


def rated_games() -> list[str]:
    """Every key a rating can have, in the games' order (Pastang after Poron Jikaida)."""
    from games import GAMES

    keys: list[str] = []
    for key in GAMES:
        keys.append(key)
        if key == "jikaida":
            keys.append("pastang")
    return keys


def bot_rating(game: str, level: str) -> float:
    """The bot's rating at ``level`` in ``game`` (a ``rating_game`` key): fitted from the
    arena (bot_ratings.json), else ``BOT_ANCHORS``."""
    return float(_fitted_bot_ratings().get(game, {}).get(level, BOT_ANCHORS[level]))


@cache
def _fitted_bot_ratings() -> dict[str, dict[str, float]]:
    text = resources.files(__package__).joinpath(BOT_RATINGS).read_text(encoding="utf-8")
    return json.loads(text)["ratings"]


def shown(mu: float) -> int:
    """A mu as the one number players see."""
    return round(BASE + SCALE * (mu - MODEL.mu))


def mu_of(rating: float) -> float:
    return MODEL.mu + (rating - BASE) / SCALE


def conservative(mu: float, sigma: float) -> float:
    """What tables are ordered by: mu - 3 sigma (a new player: 0)."""
    return mu - 3 * sigma


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


# ---- what the store reads and writes ---------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One row of ``ratings``: a player's rating and tallies in one game (or, with game
    ``TOTAL``, over all games: tallies only, mu and sigma unused)."""

    guild_id: int
    game: str
    user_id: int
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0  # wins in a row up to now
    best_streak: int = 0
    updated_at: float = 0.0

    @property
    def score(self) -> float:
        return conservative(self.mu, self.sigma)

    @property
    def rating(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.sigma)

    def counted(self, outcome: str, now: float) -> Standing:
        won = outcome == "win"
        streak = self.streak + 1 if won else 0
        return Standing(
            self.guild_id,
            self.game,
            self.user_id,
            self.mu,
            self.sigma,
            self.games + 1,
            self.wins + won,
            self.draws + (outcome == "draw"),
            self.losses + (outcome == "loss"),
            streak,
            max(self.best_streak, streak),
            now,
        )


@dataclass(frozen=True)
class Change:
    """One row of ``rating_history``: a player's result in one rated game."""

    game_id: int
    guild_id: int
    game: str
    user_id: int
    outcome: str  # win | draw | loss
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    finished_at: float

    @property
    def before(self) -> int:
        return shown(self.mu_before)

    @property
    def after(self) -> int:
        return shown(self.mu)

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class Player:
    user_id: int
    level: str | None = None  # the bot opponent's level: a fixed anchor


@dataclass(frozen=True)
class RatingJob:
    """A finished game to rate: its sides (teams of players) and their places (0 = won;
    every side 0 for a draw)."""

    game_id: int
    guild_id: int
    game: str
    finished_at: float
    teams: tuple[tuple[Player, ...], ...]
    ranks: tuple[int, ...]
    people: tuple[int, ...] = field(init=False)  # the rated users (no bot), sorted

    def __post_init__(self) -> None:
        users = {p.user_id for team in self.teams for p in team if p.level is None}
        object.__setattr__(self, "people", tuple(sorted(users)))

    def compute(
        self, current: Mapping[tuple[str, int], Standing]
    ) -> tuple[list[Standing], list[Change]]:
        """The new standings (per game and ``TOTAL``) and history rows, from the players'
        current standings (``(game, user) -> Standing``; a missing one is a new player)."""
        return rate(self, current)


def rate(
    job: RatingJob, current: Mapping[tuple[str, int], Standing]
) -> tuple[list[Standing], list[Change]]:
    def standing(game: str, user: int) -> Standing:
        return current.get((game, user)) or Standing(job.guild_id, game, user)

    teams = [
        [
            MODEL.create_rating([mu_of(bot_rating(job.game, p.level)), BOT_SIGMA])
            if p.level is not None
            else MODEL.create_rating(
                [standing(job.game, p.user_id).mu, standing(job.game, p.user_id).sigma]
            )
            for p in team
        ]
        for team in job.teams
    ]
    new = MODEL.rate(teams, ranks=list(job.ranks))
    best = min(job.ranks)
    draw = all(rank == best for rank in job.ranks)
    standings: list[Standing] = []
    changes: list[Change] = []
    for team, rank, after in zip(job.teams, job.ranks, new, strict=True):
        outcome = "draw" if draw else ("win" if rank == best else "loss")
        for player, rated in zip(team, after, strict=True):
            if player.level is not None:
                continue  # an anchor: not updated
            old = standing(job.game, player.user_id)
            counted = old.counted(outcome, job.finished_at)
            standings.append(_with_rating(counted, rated.mu, rated.sigma))
            standings.append(standing(TOTAL, player.user_id).counted(outcome, job.finished_at))
            changes.append(
                Change(
                    job.game_id,
                    job.guild_id,
                    job.game,
                    player.user_id,
                    outcome,
                    old.mu,
                    old.sigma,
                    rated.mu,
                    rated.sigma,
                    job.finished_at,
                )
            )
    return standings, changes


def _with_rating(standing: Standing, mu: float, sigma: float) -> Standing:
    values = {name: getattr(standing, name) for name in standing.__dataclass_fields__}
    return Standing(**(values | {"mu": mu, "sigma": sigma}))


def is_rated(options: Mapping[str, Any]) -> bool:
    """Whether a game (or challenge) with these options is rated: unless ``"rated": false``."""
    return options.get("rated", True) is not False


def job_for(row: GameRow, game: Game, finished_at: float) -> RatingJob | None:
    """The rating job of a game that has just ended, or None when it is not rated
    (friendly, not over, the same person on two sides, nobody but the bot)."""
    if game.outcome is None or not is_rated(row.options):
        return None
    levels = _bot_levels(row.options)
    sides: dict[int, list[Player]] = {}
    for seat, user in enumerate(row.players):
        team = game.team_of(seat)
        player = Player(user, levels.get(seat))
        if all(other.user_id != user for other in sides.get(team, [])):
            sides.setdefault(team, []).append(player)
    order = sorted(sides)
    teams = tuple(tuple(sides[team]) for team in order)
    people = [p.user_id for team in teams for p in team if p.level is None]
    if len(teams) < 2 or not people or len(people) != len(set(people)):
        return None
    winners = {game.team_of(seat) for seat in game.outcome.winners}
    ranks = tuple(0 if not winners or team in winners else 1 for team in order)
    return RatingJob(
        game_id=row.id,
        guild_id=row.guild_id,
        game=rating_game(row.kind, row.variants),
        finished_at=finished_at,
        teams=teams,
        ranks=ranks,
    )


def job_from_state(row: GameRow, state: str, finished_at: float) -> RatingJob | None:
    """``job_for`` from a stored state (the upgrade rates old games this way)."""
    from games import load_game

    try:
        game = load_game(state)
    except (ValueError, KeyError):
        return None
    return job_for(row, game, finished_at)


def _bot_levels(options: Mapping[str, Any]) -> dict[int, str]:
    levels = options.get("bot_levels") or {}
    if not isinstance(levels, Mapping):
        return {}
    found: dict[int, str] = {}
    for seat, level in levels.items():
        if str(seat).isdigit():  # a level this bot does not know: the middle one
            found[int(seat)] = level if level in BOT_ANCHORS else "normal"
    return found
