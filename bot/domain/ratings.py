"""Ratings per player, per server and per game: OpenSkill's Weng-Lin model (Plackett-Luce).

- What is rated apart: each game (``RATED_GAMES``), Pastang apart from Poron Jikaida; every
  other variant shares its game's rating. A team game (Šačidjun's pairs, its 3-player game
  of one against a pair) is rated team against team: the engine's ``team_of`` groups seats.
- Which games: every finished game unless its options say ``"rated": false`` (a friendly
  game); a game where one person sits on both sides, or with nobody but the bot, is not
  rated either.
- The bot opponent (``options["bot_levels"]``: seat -> level) plays at a fixed rating per
  game and level (``bot_rating``: fitted from the arena's bot games by ``make docs``), never
  updated by the games people play: the bot's strength at a level is set by its code, so a
  fixed point keeps the scale from drifting, the same in every server, and the bot's row is
  never a point of contention between games finishing at once.
- Shown as one number: ``1500 + 60 * (mu - 25)`` (a new player shows 1500; one mu point is
  60 rating points, so a new player's first win against a new player is worth about +158),
  marked provisional (``?``) while sigma is above ``PROVISIONAL_SIGMA``; tables are ordered
  by the conservative estimate ``mu - 3 sigma``, on the same scale, so that one lucky game
  does not top them.
- The model (``Standing``, ``Change``, ``RatingJob``, ``rate``) is
  ``bot/storage/rating_model.py``, below the store; this module shows and reads ratings back.
- The store applies a ``RatingJob`` in the transaction that writes the game's final move
  (``update_game(..., ratings=job)``): it reads the players' standings there, under its
  write lock, calls ``job.compute`` and writes the new standings and one history row per
  player. A game rated once is never rated again (its history rows say so).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.storage.rating_model import MODEL, TOTAL, Change, Standing, is_provisional, shown

if TYPE_CHECKING:
    from bot.storage import GameStore

MIN_GAMES = 5  # on the leaderboards from this many rated games


def rated_game_title(key: str) -> str:
    if key == "pastang":
        return "Pastang"
    from games import GAMES

    cls = GAMES.get(key)
    return cls.title if cls else key


def label(mu: float, sigma: float) -> str:
    """``1623`` or ``1658?`` (provisional)."""
    return f"{shown(mu)}{'?' if is_provisional(sigma) else ''}"


# ---- what the commands show ----------------------------------------------------------


@dataclass(frozen=True)
class RecentGame:
    game_id: int
    game: str
    outcome: str
    delta: int
    finished_at: float
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None


@dataclass(frozen=True)
class Stats:
    user_id: int
    game: str | None  # None: over all games
    total: Standing | None  # the tallies (of the game, or over all games)
    ratings: tuple[Standing, ...]  # per game played, most played first
    month_change: dict[str, int]  # game -> rating change over the last 30 days
    recent: tuple[RecentGame, ...]
    chart_game: str | None  # the game whose rating is charted
    points: tuple[tuple[float, int], ...]  # (time, rating after) for the chart
    tournaments: tuple[str, ...] = ()  # the latest events played to their end, a line each

    @property
    def most_played(self) -> str | None:
        return self.ratings[0].game if self.ratings else None


@dataclass(frozen=True)
class BoardLine:
    place: int
    user_id: int
    game: str
    rating: str  # label(): "1623" or "1658?"
    games: int


@dataclass(frozen=True)
class Leaderboard:
    game: str | None  # None: the overall view (each player's best game)
    top: tuple[BoardLine, ...]
    mine: BoardLine | None  # the caller's place, when ranked
    my_games: int  # the caller's rated games (in this game, or in all)
    ranked: int
    left_out: int  # players below MIN_GAMES
    min_games: int = MIN_GAMES


def month_change(now_mu: float, first_in_window: float | None) -> int:
    """The change over the window: the rating now less the one before its first game."""
    return 0 if first_in_window is None else shown(now_mu) - shown(first_in_window)


def rank_lines(
    rows: Sequence[Standing], caller: int, top: int = 10
) -> tuple[tuple[BoardLine, ...], BoardLine | None, int]:
    """Places for rows already filtered to ranked players; for the overall view each
    player's best game only. Ordered by the conservative estimate, then mu, then user."""
    best: dict[int, Standing] = {}
    for row in rows:
        held = best.get(row.user_id)
        if held is None or _best(row) < _best(held):
            best[row.user_id] = row
    ordered = sorted(best.values(), key=_key)
    lines = [
        BoardLine(place, r.user_id, r.game, label(r.mu, r.sigma), r.games)
        for place, r in enumerate(ordered, start=1)
    ]
    mine = next((line for line in lines if line.user_id == caller), None)
    return tuple(lines[:top]), mine, len(lines)


def _key(row: Standing) -> tuple[float, int]:
    """The leaderboards' order (the store's too): conservative estimate, then user id."""
    return (-row.score, row.user_id)


def _best(row: Standing) -> tuple[float, int, str]:
    """A player's best game: the leaderboards' order, then (for two games rated the same)
    the game's key in alphabetical order."""
    return (*_key(row), row.game)


def sign(delta: int) -> str:
    return f"+{delta}" if delta > 0 else ("±0" if delta == 0 else f"−{-delta}")


def change_lines(changes: Sequence[Change]) -> str:
    """The final board's ratings field: one line per player."""
    return "\n".join(
        f"<@{c.user_id}>: {c.before} → {label(c.mu, c.sigma)} ({sign(c.delta)})" for c in changes
    )


def chart_points(rows: Sequence[tuple[float, float]]) -> tuple[tuple[float, int], ...]:
    return tuple((when, shown(mu)) for when, mu in rows if math.isfinite(mu))


# ---- reading them back (the store's queries, all on indexes) ---------------------------

MONTH = 30 * 24 * 3600.0
RECENT = 5  # recent games listed by /game stats
CHART_POINTS = 200  # the chart's last games


async def load_stats(
    store: GameStore, guild_id: int, user_id: int, game: str | None, now: float
) -> Stats:
    """``/game stats``: the user's tallies, ratings (with their change over 30 days), recent
    games and the chart's points (of ``game``, or of the most played one)."""
    rows = await store.standings_of_user(guild_id, user_id)
    total = next((r for r in rows if r.game == (game or TOTAL)), None)
    played = sorted(
        (r for r in rows if r.game != TOTAL and (game is None or r.game == game)),
        key=lambda r: (-r.games, r.game),
    )
    month_start = await store.ratings_since(guild_id, user_id, now - MONTH)
    changes = {row.game: month_change(row.mu, month_start.get(row.game)) for row in played}
    recent = [
        RecentGame(
            change.game_id,
            change.game,
            change.outcome,
            change.delta,
            change.finished_at,
            guild_id,
            *where,
        )
        for change, where in await store.recent_changes(guild_id, user_id, game, RECENT)
    ]
    chart_game = played[0].game if played else None
    points: tuple[tuple[float, int], ...] = ()
    if chart_game is not None:
        history = await store.rating_points(guild_id, user_id, chart_game, CHART_POINTS + 1)
        if len(history) <= CHART_POINTS:  # the whole history: start from the first rating
            first = await store.rating_since(guild_id, user_id, chart_game, float("-inf"))
            start = history[0][0] if history else now
            history = [(start, first if first is not None else MODEL.mu), *history]
        points = chart_points(history)
    return Stats(user_id, game, total, tuple(played), changes, tuple(recent), chart_game, points)


async def load_leaderboard(
    store: GameStore,
    guild_id: int,
    user_id: int,
    game: str | None,
    min_games: int = MIN_GAMES,
) -> Leaderboard:
    """``/game leaderboard``: the top 10 of ``game`` (or each player's best game, for the
    overall view), the caller's place, and how many players have too few games."""
    if game is None:
        return await _overall(store, guild_id, user_id, min_games)
    best = await store.leaderboard(guild_id, game, min_games, 10)
    top = tuple(
        BoardLine(place, r.user_id, r.game, label(r.mu, r.sigma), r.games)
        for place, r in enumerate(best, start=1)
    )
    everyone, ranked = await store.leaderboard_counts(guild_id, game, min_games)
    mine = None
    own = next(
        (r for r in await store.standings_of_user(guild_id, user_id) if r.game == game), None
    )
    if own is not None and own.games >= min_games:
        place = await store.leaderboard_place(own, min_games)
        mine = BoardLine(place, user_id, game, label(own.mu, own.sigma), own.games)
    my_games = own.games if own else 0
    return Leaderboard(game, top, mine, my_games, ranked, everyone - ranked, min_games)


async def _overall(
    store: GameStore, guild_id: int, user_id: int, min_games: int, top: int = 10
) -> Leaderboard:
    """The overall view, each player at their best game, without reading every rating of the
    server: the top ``top`` players overall are among each game's top ``top`` (a player's row
    in their best game has only players above them overall above it there), so the top is
    merged from each game's (``store.overall_top``: each game's ``leaderboard``, on the
    ``ratings_board`` index, in one query); the caller's place and the counts are counted in
    the database. The three look-ups that do not depend on each other are asked at once (on
    PostgreSQL, on three connections of the pool: one round trip's wait instead of three)."""
    candidates, standings, (players, ranked) = await asyncio.gather(
        store.overall_top(guild_id, min_games, top),
        store.standings_of_user(guild_id, user_id),
        store.overall_counts(guild_id, min_games),
    )
    lines, _, _ = rank_lines(candidates, user_id, top)
    own = [r for r in standings if r.game != TOTAL]
    ranked_own = [r for r in own if r.games >= min_games]
    mine = None
    if ranked_own:
        best = min(ranked_own, key=_best)
        place = await store.overall_place(best, min_games)
        mine = BoardLine(place, user_id, best.game, label(best.mu, best.sigma), best.games)
    my_games = sum(r.games for r in own)
    return Leaderboard(None, lines, mine, my_games, ranked, players - ranked, min_games)


def rating_fields(
    options: Mapping[str, Any], changes: Sequence[Change]
) -> tuple[tuple[str, str], ...]:
    """The final board's field: each player's rating change, or that it was friendly."""
    if changes:
        return (("Ratings", change_lines(changes)),)
    if options.get("rated", True) is False:
        return (("Ratings", "Friendly game: not rated"),)
    return ()
