"""The store, written once for SQLite and PostgreSQL: every query and every method the
service calls (``GameStore``), on top of three ways to reach the database that each backend
provides (bot/storage/sqlite.py, bot/storage/postgres.py):

- ``_read()``: a connection for look-ups;
- ``_write()``: one transaction (SQLite: ``BEGIN IMMEDIATE`` on the one writing connection;
  PostgreSQL: a pooled connection's transaction), committed when the block ends;
- ``_statement()``: one writing statement that commits by itself.

SQL is written with ``?`` placeholders (``?N`` where a value is used again by number);
PostgreSQL's connection numbers them (``$1``). What the dialects write differently is a field
of ``Dialect``, named where it is used. Guarantees, whichever the backend:

- ``update_game`` only succeeds for the version it read (``UPDATE ... WHERE version = ?``).
- Once-only work (``mark_notified``, ``mark_reminded``, ``take_jobs``) takes its rows with
  the dialect's ``skip_locked`` (PostgreSQL: a process never waits behind another that
  holds the row; SQLite: one writer at a time anyway).
- States are stored zlib-compressed (``encode_state``); JSON columns are text, so a
  compare-and-set on them (``expected_accepted``) compares the same encoding.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

from bot.storage.rating_model import (
    TOTAL,
    Change,
    RatingJob,
    Standing,
    job_from_state,
    rated_games,
)
from bot.storage.rows import (
    NAME_LIMIT,
    NOTIFY_COLUMNS,
    AnalysisRow,
    ChallengeRow,
    GameEvent,
    GameRow,
    LearnRow,
    MoveRow,
    NotifyRow,
    VacationRow,
    decode_state,
    encode_state,
    known_columns,
)
from bot.storage.tournament_store import TournamentStore
from games.base import LogEntry


@dataclass(frozen=True)
class Dialect:
    """What SQLite and PostgreSQL write differently in the shared queries."""

    listed_state: str  # a finished game's state in lists (SQL): "", in the stored form
    union_member: str  # one ``LIMIT``-ed SELECT of a UNION ALL; ``{}`` is the SELECT
    for_update: str  # appended to a SELECT that locks the rows it reads until commit
    skip_locked: str  # appended to a SELECT taking rows another process may hold
    greatest: str  # the two-argument maximum
    no_limit: int | None  # a LIMIT value meaning "all"
    # A statement taking the lock (its one parameter, a name) that serialises the rating of
    # a guild's games; "": the write transaction serialises them already.
    lock_ratings: str


class Row(Protocol):
    def __getitem__(self, key: int | str) -> Any: ...


class Connection(Protocol):
    """What the shared code asks of a backend's connection (``?`` placeholders)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


# Every key a rating has (not the tallies' ``*``), as SQL literals.
RATED_GAMES = ", ".join(f"'{key}'" for key in rated_games())


def queries(dialect: Dialect) -> dict[str, str]:
    """The queries run on every action (listing, thread look-ups, the deadline tick), by
    name: the store's methods use them, and the tests check that each one's plan uses an
    index (``query_plan``)."""
    # A player's games as lists show them: a finished game (with its result) comes without
    # its state, which lists do not need and which is by far the largest part of the row.
    listed_game = (
        "games.id, games.guild_id, games.channel_id, games.thread_id, games.message_id,"
        " games.kind, games.variants, games.players, games.version, games.status,"
        " games.result, games.created_at, games.updated_at, games.turn_started_at,"
        " games.remind_at, games.reminded, games.claim_at, games.claim_notified,"
        " games.draw_offer_seat, games.options, games.timeout_at, games.paused_until,"
        " CASE WHEN games.status = 'finished' AND games.result IS NOT NULL THEN"
        f" {dialect.listed_state} ELSE games.state END AS state"
    )
    changes_with_game = (
        "SELECT rating_history.*, games.channel_id, games.thread_id, games.message_id"
        " FROM rating_history JOIN games ON games.id = rating_history.game_id"
        " WHERE rating_history.guild_id = ? AND rating_history.user_id = ?"
    )
    newest_changes = " ORDER BY rating_history.finished_at DESC, rating_history.game_id DESC"
    return {
        "get_game": "SELECT * FROM games WHERE id = ?",
        "game_version": "SELECT guild_id, version FROM games WHERE id = ?",
        "games_of_user": (
            f"SELECT {listed_game} FROM seats JOIN games ON games.id = seats.game_id"
            " WHERE seats.guild_id = ? AND seats.user_id = ?"
            " ORDER BY seats.status, seats.updated_at DESC, seats.game_id DESC LIMIT ?"
        ),
        "active_games_of_user": (
            f"SELECT {listed_game} FROM seats JOIN games ON games.id = seats.game_id"
            " WHERE seats.guild_id = ? AND seats.user_id = ? AND seats.status = 'active'"
            " ORDER BY seats.updated_at DESC, seats.game_id DESC LIMIT ?"
        ),
        "game_in_thread": (
            "SELECT * FROM games WHERE guild_id = ? AND thread_id = ?"
            " ORDER BY status = 'finished', id DESC LIMIT 1"
        ),
        "games_to_remind": (
            "SELECT * FROM games WHERE status = 'active' AND remind_at <= ? ORDER BY remind_at"
        ),
        "games_timed_out": (
            "SELECT * FROM games WHERE status = 'active' AND timeout_at <= ? ORDER BY timeout_at"
        ),
        "games_claimable": (
            "SELECT * FROM games WHERE status = 'active' AND claim_notified = 0"
            " AND claim_at <= ? ORDER BY claim_at"
        ),
        "moves": "SELECT state FROM games WHERE id = ?",
        "game_events": "SELECT * FROM game_events WHERE game_id = ? ORDER BY id",
        "notify_pref": "SELECT * FROM notify_prefs WHERE guild_id = ? AND user_id = ?",
        "digests_due": (
            "SELECT * FROM notify_prefs WHERE digest = 1 AND digest_next <= ? ORDER BY digest_next"
        ),
        "get_challenge": "SELECT * FROM challenges WHERE id = ?",
        "challenges_expired": (
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= ?"
            " ORDER BY expires_at"
        ),
        "guild_settings": "SELECT settings FROM guild_settings WHERE guild_id = ?",
        "vacation": "SELECT * FROM vacations WHERE guild_id = ? AND user_id = ? AND year = ?",
        "active_vacation": (
            "SELECT * FROM vacations WHERE guild_id = ? AND user_id = ? AND until > ?"
            " ORDER BY until DESC LIMIT 1"
        ),
        "rematch_of": (
            "SELECT * FROM challenges WHERE rematch_of = ? AND rematch_of IS NOT NULL"
            " AND status IN ('pending', 'accepted')"
        ),
        # Ratings: /game stats and /game leaderboard, and the final board's changes.
        "standings_of_user": "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ?",
        "rating_changes": "SELECT * FROM rating_history WHERE game_id = ? ORDER BY user_id",
        "leaderboard": (
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?"
            " ORDER BY score DESC, user_id LIMIT ?"
        ),
        "leaderboard_place": (
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?"
            " AND score >= ? AND (score > ? OR user_id < ?)"
        ),
        "leaderboard_counts": (
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN games >= ? THEN 1 ELSE 0 END), 0)"
            " FROM ratings WHERE guild_id = ? AND game = ?"
        ),
        "guild_standings": "SELECT * FROM ratings WHERE guild_id = ? AND game <> '*'",
        # The overall leaderboard: its top is each game's top (as ``leaderboard``), merged
        # in Python; the caller's place and the counts are counted here, not read out
        # (bot/domain/ratings.py, ``load_leaderboard``). The counts read the server's ratings
        # in the table's order (guild, user, game), one group per player.
        "overall_top": " UNION ALL ".join(
            dialect.union_member.format(
                f"SELECT * FROM ratings WHERE guild_id = ?1 AND game = '{key}'"
                " AND games >= ?2 ORDER BY score DESC, user_id LIMIT ?3"
            )
            for key in rated_games()
        ),
        "overall_place": (
            "SELECT COUNT(DISTINCT user_id) FROM ratings"
            f" WHERE guild_id = ? AND game IN ({RATED_GAMES}) AND score >= ?"
            " AND (score > ? OR user_id < ?) AND games >= ?"
        ),
        "overall_counts": (
            "SELECT COUNT(*), COALESCE(SUM(ranked), 0) FROM"
            " (SELECT MAX(CASE WHEN games >= ? THEN 1 ELSE 0 END) AS ranked"
            f" FROM ratings WHERE guild_id = ? AND game IN ({RATED_GAMES})"
            " GROUP BY user_id) AS players"
        ),
        "recent_changes": f"{changes_with_game}{newest_changes} LIMIT ?",
        "recent_changes_in_game": (
            f"{changes_with_game} AND rating_history.game = ?{newest_changes} LIMIT ?"
        ),
        "rating_points": (
            "SELECT finished_at, mu FROM rating_history"
            " WHERE guild_id = ? AND user_id = ? AND game = ?"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?"
        ),
        "rating_since": (
            "SELECT mu_before FROM rating_history"
            " WHERE guild_id = ? AND user_id = ? AND game = ? AND finished_at >= ?"
            " ORDER BY finished_at, game_id LIMIT 1"
        ),
        # ``rating_since`` for each game the player has a rating in, in one query (issue
        # 33: /game stats made one per game): an index seek per game, whatever the history.
        "ratings_since": (
            "SELECT game, (SELECT mu_before FROM rating_history AS history"
            " WHERE history.guild_id = ratings.guild_id AND history.user_id = ratings.user_id"
            " AND history.game = ratings.game AND history.finished_at >= ?"
            " ORDER BY history.finished_at, history.game_id LIMIT 1) AS mu_before"
            f" FROM ratings WHERE guild_id = ? AND user_id = ? AND game <> '{TOTAL}'"
        ),
        "finished_games": (
            # ``updated_at >= ?`` alone bounds the index's range (an OR would not).
            "SELECT * FROM games WHERE status = 'finished' AND updated_at >= ?"
            " AND (updated_at > ? OR id > ?) ORDER BY updated_at, id LIMIT ?"
        ),
    }


# Columns ``update_game`` may set (``version`` is bumped by the store itself).
GAME_COLUMNS = frozenset(
    [
        "thread_id",
        "message_id",
        "state",
        "status",
        "result",
        "updated_at",
        "turn_started_at",
        "remind_at",
        "reminded",
        "claim_at",
        "claim_notified",
        "draw_offer_seat",
        "timeout_at",
        "paused_until",
    ]
)
# The deadline columns a vacation moves (``shift_clock``), without a new version.
CLOCK_COLUMNS = ("turn_started_at", "remind_at", "claim_at", "timeout_at")
CHALLENGE_COLUMNS = frozenset(["message_id", "status", "game_id", "accepted"])
NOTICE_FLAGS = ("reminded", "claim_notified")
NAMED_JOBS_AT_ONCE = 500  # keys in one statement (SQLite's limit of parameters is 32,766)


class SqlStore(TournamentStore):
    """``GameStore`` on a backend's connections (``_read``, ``_write``, ``_statement``);
    its tournaments in bot/storage/tournament_store.py."""

    dialect: ClassVar[Dialect]
    queries: ClassVar[dict[str, str]]

    def _read(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    def _statement(self) -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    async def _explain(self, sql: str, params: Sequence[Any]) -> list[str]:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- plumbing ------------------------------------------------------------

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._read() as db:
            return await db.fetchone(sql, params)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._read() as db:
            return await db.fetchall(sql, params)

    async def _one(self, name: str, *params: Any) -> Row | None:
        return await self._fetchone(self.queries[name], params)

    async def _all(self, name: str, *params: Any) -> list[Row]:
        return await self._fetchall(self.queries[name], params)

    async def _changes_one(self, sql: str, *params: Any) -> bool:
        """Run one writing statement; True when it changed exactly one row."""
        async with self._statement() as db:
            return await db.execute(sql, params) == 1

    async def _insert(self, db: Connection, table: str, columns: dict[str, Any]) -> int:
        return await insert(db, table, _game_columns(columns) if table == "games" else columns)

    async def query_plan(self, name: str, params: Sequence[Any]) -> list[str]:
        """The plan of one of ``queries``: one line per step."""
        return await self._explain(self.queries[name], params)

    # ---- games ---------------------------------------------------------------

    async def insert_game(self, **columns: Any) -> int:
        async with self._statement() as db:
            return await insert(db, "games", _game_columns(columns))

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one("get_game", game_id)
        return GameRow.from_row(row) if row else None

    async def game_version(self, game_id: int) -> tuple[int, int] | None:
        """(guild_id, version) of a game: a cheap check for caches."""
        row = await self._one("game_version", game_id)
        return (row[0], row[1]) if row else None

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        new_log_entries: Iterable[tuple[int, LogEntry]] = (),
        events: Iterable[GameEvent] = (),
        ratings: RatingJob | None = None,
        **columns: Any,
    ) -> bool:
        """Write ``columns`` and bump the version if it is still ``expected_version``, with
        the game's ``events`` (``bot/domain/events.py``) in the same transaction.

        Returns False, changing nothing, when the version moved on. ``new_log_entries``
        (``(ply, entry)`` pairs) is accepted for callers written for schema 2, which stored
        each move a second time; the record is the log inside ``state`` now. ``ratings``:
        the finished game's rating job, applied in the same transaction (``rate``).
        """
        del new_log_entries  # already in the state's log: each move is stored once
        _check_columns(columns, GAME_COLUMNS)
        columns = _game_columns(columns)
        rows = [event.columns(game_id, expected_version) for event in events]
        assignments = "".join(f"{name} = ?, " for name in columns)
        sql = f"UPDATE games SET {assignments}version = version + 1 WHERE id = ? AND version = ?"
        params = [*map(to_column, columns.values()), game_id, expected_version]
        if not rows and ratings is None:
            return await self._changes_one(sql, *params)
        async with self._write() as db:
            if await db.execute(sql, params) != 1:
                return False
            for row in rows:
                await insert(db, "game_events", row)
            if ratings is not None:
                await rate(db, ratings, self.dialect)
            return True

    async def add_game_events(
        self, game_id: int, expected_version: int, events: Iterable[GameEvent]
    ) -> bool:
        """Store ``events`` that change no position (a takeback asked or declined), only if
        the game is still at ``expected_version``: one transaction holding the game's row,
        so that an event never follows a move it did not see."""
        rows = [event.columns(game_id, expected_version) for event in events]
        async with self._write() as db:
            found = await db.fetchone(
                f"SELECT 1 FROM games WHERE id = ? AND version = ?{self.dialect.for_update}",
                (game_id, expected_version),
            )
            if found is None:
                return False
            for row in rows:
                await insert(db, "game_events", row)
            return True

    async def game_events(self, game_id: int) -> list[GameEvent]:
        """The game's events, oldest first."""
        return [GameEvent.from_row(row) for row in await self._all("game_events", game_id)]

    async def finished_games(self, after: tuple[float, int], limit: int) -> list[GameRow]:
        """Finished games in the order they ended, after ``(updated_at, id)`` (the upgrade's
        rating of old games)."""
        rows = await self._all("finished_games", after[0], after[0], after[1], limit)
        return [GameRow.from_row(row) for row in rows]

    async def set_game_fields(self, game_id: int, **columns: Any) -> bool:
        """Record where the game is shown (thread, message) without bumping the version."""
        _check_columns(columns, {"thread_id", "message_id"})
        return await self._update_where("games", game_id, columns, {})

    async def mark_notified(self, game_id: int, version: int, flag: str) -> bool:
        """Set ``reminded`` or ``claim_notified`` once for this version of the game: the
        process that takes the row sets it."""
        if flag not in NOTICE_FLAGS:
            raise ValueError(flag)
        return await self._changes_one(
            f"UPDATE games SET {flag} = 1 WHERE id = (SELECT id FROM games WHERE id = ?"
            f" AND version = ? AND {flag} = 0 AND status = 'active'{self.dialect.skip_locked})",
            game_id,
            version,
        )

    async def mark_reminded(
        self, game_id: int, version: int, sent: int, now_sent: int, next_at: float | None
    ) -> bool:
        """Count a reminder once: ``reminded`` goes from ``sent`` to ``now_sent`` and the next
        one is due at ``next_at``, for this version of the game only."""
        return await self._changes_one(
            "UPDATE games SET reminded = ?, remind_at = ? WHERE id = (SELECT id FROM games"
            " WHERE id = ? AND version = ? AND reminded = ? AND status = 'active'"
            f"{self.dialect.skip_locked})",
            now_sent,
            next_at,
            game_id,
            version,
            sent,
        )

    async def shift_clock(
        self, game_id: int, version: int, delta: float, paused_until: float | None
    ) -> bool:
        """Move the turn's deadlines by ``delta`` seconds (a vacation starts or ends) and set
        ``paused_until``, for this version of the game only; the version stays (the board's
        buttons stay valid)."""
        moved = ", ".join(f"{name} = {name} + ?" for name in CLOCK_COLUMNS)
        return await self._changes_one(
            f"UPDATE games SET {moved}, paused_until = ?"
            " WHERE id = ? AND version = ? AND status = 'active'",
            *(delta for _ in CLOCK_COLUMNS),
            paused_until,
            game_id,
            version,
        )

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's record, from the log in its state (ValueError if that is damaged)."""
        row = await self._one("moves", game_id)
        if row is None:
            return []
        log_entries = json.loads(decode_state(row["state"])).get("log", [])
        return [
            MoveRow(game_id, ply, entry.seat, entry.move, entry.dice)
            for ply, entry in enumerate(map(LogEntry.from_dict, log_entries), start=1)
        ]

    async def games_of_user(
        self,
        guild_id: int,
        user_id: int,
        *,
        include_finished: bool = False,
        limit: int | None = None,
    ) -> list[GameRow]:
        """The user's games in the guild: active ones first, most recently changed first.
        With ``limit``, only that many (an index range: the cost does not grow with the
        number of finished games). A finished game comes with its ``result`` and an empty
        ``state`` (``get_game`` loads the whole game)."""
        if limit is not None and limit < 0:
            raise ValueError(f"limit must not be negative, not {limit}")
        query = "games_of_user" if include_finished else "active_games_of_user"
        shown = self.dialect.no_limit if limit is None else limit
        return [GameRow.from_row(row) for row in await self._all(query, guild_id, user_id, shown)]

    async def game_in_thread(self, guild_id: int, thread_id: int) -> GameRow | None:
        row = await self._one("game_in_thread", guild_id, thread_id)
        return GameRow.from_row(row) if row else None

    async def games_to_remind(self, now: float) -> list[GameRow]:
        return [GameRow.from_row(row) for row in await self._all("games_to_remind", now)]

    async def games_claimable(self, now: float) -> list[GameRow]:
        return [GameRow.from_row(row) for row in await self._all("games_claimable", now)]

    async def games_timed_out(self, now: float) -> list[GameRow]:
        return [GameRow.from_row(row) for row in await self._all("games_timed_out", now)]

    # ---- notification settings -------------------------------------------------

    async def notify_pref(self, guild_id: int, user_id: int) -> NotifyRow | None:
        row = await self._one("notify_pref", guild_id, user_id)
        return NotifyRow.from_row(row) if row else None

    async def set_notify_pref(self, guild_id: int, user_id: int, **columns: Any) -> None:
        """Create or change a player's notification settings (``NOTIFY_COLUMNS``)."""
        _check_columns(columns, NOTIFY_COLUMNS)
        values = {name: int(v) if isinstance(v, bool) else v for name, v in columns.items()}
        names = ", ".join(["guild_id", "user_id", *values])
        marks = ", ".join("?" for _ in range(2 + len(values)))
        updates = ", ".join(f"{name} = excluded.{name}" for name in values)
        action = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
        async with self._statement() as db:
            await db.execute(
                f"INSERT INTO notify_prefs ({names}) VALUES ({marks})"
                f" ON CONFLICT (guild_id, user_id) {action}",
                [guild_id, user_id, *values.values()],
            )

    async def mark_dm_failed(self, guild_id: int, user_id: int) -> bool:
        """Note that a DM to the player failed; True only the first time (to say so once)."""
        return await self._changes_one(
            "UPDATE notify_prefs SET dm_failed = 1"
            " WHERE guild_id = ? AND user_id = ? AND dm_failed = 0",
            guild_id,
            user_id,
        )

    async def digests_due(self, now: int) -> list[NotifyRow]:
        """Players who asked for a daily digest whose next one is due at ``now``."""
        return [NotifyRow.from_row(row) for row in await self._all("digests_due", now)]

    async def mark_digest_sent(self, guild_id: int, user_id: int, due: int, following: int) -> bool:
        """Move the player's digest due at ``due`` on to ``following``; False if another
        process did first (or the player changed it meanwhile): then it is not sent."""
        return await self._changes_one(
            "UPDATE notify_prefs SET digest_next = ? WHERE guild_id = ? AND user_id = ?"
            " AND digest = 1 AND digest_next = ?",
            following,
            guild_id,
            user_id,
            due,
        )

    # ---- ratings -------------------------------------------------------------

    async def rate_game(self, job: RatingJob) -> bool:
        """Apply ``job`` alone (the upgrade's rating of old games); False if it was rated."""
        return await self.rate_games([job]) == 1

    async def rate_games(self, jobs: Sequence[RatingJob]) -> int:
        """Apply ``jobs`` in order, in one transaction; returns how many were not rated yet."""
        async with self._write() as db:
            return sum([await rate(db, job, self.dialect) for job in jobs])

    async def rating_changes(self, game_id: int) -> list[Change]:
        return [to_change(row) for row in await self._all("rating_changes", game_id)]

    async def standings_of_user(self, guild_id: int, user_id: int) -> list[Standing]:
        """The user's rows (per game, and ``TOTAL``)."""
        rows = await self._all("standings_of_user", guild_id, user_id)
        return [to_standing(row) for row in rows]

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[Standing]:
        rows = await self._all("leaderboard", guild_id, game, min_games, limit)
        return [to_standing(row) for row in rows]

    async def leaderboard_place(self, standing: Standing, min_games: int) -> int:
        """1 + how many ranked players of the game are above ``standing``."""
        row = await self._one(
            "leaderboard_place",
            standing.guild_id,
            standing.game,
            min_games,
            standing.score,
            standing.score,
            standing.user_id,
        )
        return 1 + int(row[0])

    async def leaderboard_counts(self, guild_id: int, game: str, min_games: int) -> tuple[int, int]:
        """(players with a rating in the game, those with ``min_games`` or more)."""
        row = await self._one("leaderboard_counts", min_games, guild_id, game)
        return int(row[0]), int(row[1])

    async def guild_standings(self, guild_id: int) -> list[Standing]:
        """Every rating in the guild (what the overall leaderboard is drawn from: the tests'
        reference; the leaderboard itself uses ``overall_*``)."""
        return [to_standing(row) for row in await self._all("guild_standings", guild_id)]

    async def overall_top(self, guild_id: int, min_games: int, limit: int) -> list[Standing]:
        """Each game's ``leaderboard`` (its ``limit`` best ranked players), in one query."""
        rows = await self._all("overall_top", guild_id, min_games, limit)
        return [to_standing(row) for row in rows]

    async def overall_place(self, best: Standing, min_games: int) -> int:
        """1 + how many players have a ranked rating in some game above ``best`` (the
        player's best ranked rating): the player's place on the overall leaderboard."""
        row = await self._one(
            "overall_place", best.guild_id, best.score, best.score, best.user_id, min_games
        )
        return 1 + int(row[0])

    async def overall_counts(self, guild_id: int, min_games: int) -> tuple[int, int]:
        """(players with a rating in some game, those with ``min_games`` or more in one)."""
        row = await self._one("overall_counts", min_games, guild_id)
        return int(row[0]), int(row[1])

    async def recent_changes(
        self, guild_id: int, user_id: int, game: str | None, limit: int
    ) -> list[tuple[Change, tuple[int, int | None, int | None]]]:
        """The user's last rated games (with each game's channel, thread and message)."""
        if game is None:
            rows = await self._all("recent_changes", guild_id, user_id, limit)
        else:
            rows = await self._all("recent_changes_in_game", guild_id, user_id, game, limit)
        return [
            (to_change(row), (row["channel_id"], row["thread_id"], row["message_id"]))
            for row in rows
        ]

    async def rating_points(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[tuple[float, float]]:
        """(finished_at, mu after) of the user's last ``limit`` games in ``game``, oldest
        first."""
        rows = await self._all("rating_points", guild_id, user_id, game, limit)
        return [(row[0], row[1]) for row in reversed(rows)]

    async def rating_since(
        self, guild_id: int, user_id: int, game: str, since: float
    ) -> float | None:
        """The user's mu before their first game in ``game`` since ``since`` (None: none)."""
        row = await self._one("rating_since", guild_id, user_id, game, since)
        return None if row is None else row[0]

    async def ratings_since(self, guild_id: int, user_id: int, since: float) -> dict[str, float]:
        """``rating_since`` of each game the user has a rating in: game -> mu before their
        first game in it since ``since`` (games they have not played since are left out)."""
        rows = await self._all("ratings_since", since, guild_id, user_id)
        return {row[0]: row[1] for row in rows if row[1] is not None}

    # ---- server settings and vacations ------------------------------------------

    async def guild_settings(self, guild_id: int) -> str | None:
        """The server's settings (JSON), or None when it never changed them."""
        row = await self._one("guild_settings", guild_id)
        return row[0] if row else None

    async def put_guild_settings(
        self, guild_id: int, settings: str, *, now: float, user_id: int
    ) -> None:
        async with self._statement() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at, updated_by)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " settings = excluded.settings, updated_at = excluded.updated_at,"
                " updated_by = excluded.updated_by",
                (guild_id, settings, now, user_id),
            )

    async def vacation(self, guild_id: int, user_id: int, year: int) -> VacationRow | None:
        row = await self._one("vacation", guild_id, user_id, year)
        return VacationRow.from_row(row) if row else None

    async def active_vacation(self, guild_id: int, user_id: int, now: float) -> VacationRow | None:
        row = await self._one("active_vacation", guild_id, user_id, now)
        return VacationRow.from_row(row) if row else None

    async def book_vacation(
        self,
        guild_id: int,
        user_id: int,
        year: int,
        *,
        days: int,
        allowance: int,
        now: float,
        until: float,
    ) -> bool:
        """Start a vacation of ``days`` until ``until``, if the year's allowance has room and
        no vacation is running (checked in the same statement: two clicks book once)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO vacations (guild_id, user_id, year, used) VALUES (?, ?, ?, 0)"
                " ON CONFLICT DO NOTHING",
                (guild_id, user_id, year),
            )
            booked = await db.execute(
                "UPDATE vacations SET used = used + ?, started_at = ?, until = ?"
                " WHERE guild_id = ? AND user_id = ? AND year = ? AND used + ? <= ?"
                " AND (until IS NULL OR until <= ?)",
                (days, now, until, guild_id, user_id, year, days, allowance, now),
            )
            return booked == 1

    async def end_vacation(
        self, guild_id: int, user_id: int, year: int, *, until: float, now: float, refund: int
    ) -> bool:
        """End the vacation running until ``until`` at ``now``, giving back ``refund`` days."""
        return await self._changes_one(
            f"UPDATE vacations SET used = {self.dialect.greatest}(0, used - ?), until = ?"
            " WHERE guild_id = ? AND user_id = ? AND year = ? AND until = ?",
            refund,
            now,
            guild_id,
            user_id,
            year,
            until,
        )

    # ---- challenges ----------------------------------------------------------

    async def insert_challenge(self, **columns: Any) -> int:
        async with self._statement() as db:
            return await insert(db, "challenges", columns)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one("get_challenge", challenge_id)
        return ChallengeRow.from_row(row) if row else None

    async def update_challenge(
        self,
        challenge_id: int,
        *,
        expected_status: str | None = None,
        expected_accepted: Sequence[int] | None = None,
        **columns: Any,
    ) -> bool:
        """Set ``columns``; with ``expected_status`` (``expected_accepted``), only if the
        status (the list of acceptances) is still that."""
        _check_columns(columns, CHALLENGE_COLUMNS)
        where: dict[str, Any] = {}
        if expected_status is not None:
            where["status"] = expected_status
        if expected_accepted is not None:
            where["accepted"] = to_column(tuple(expected_accepted))
        return await self._update_where("challenges", challenge_id, columns, where)

    async def accept_challenge(
        self, challenge_id: int, now: float, *, taken_by: int | None = None, **game_columns: Any
    ) -> int | None:
        """Create the game and mark the challenge accepted, in one transaction holding the
        challenge. ``taken_by``: the player who takes an open challenge (written as its
        opponent, only if it is still open).

        Returns the new game id, or None when the challenge is no longer pending or expired
        (or, open, was taken by someone else).
        """
        still_open = " AND opponent_id IS NULL" if taken_by is not None else ""
        async with self._write() as db:
            pending = await db.fetchone(
                "SELECT id FROM challenges WHERE id = ? AND status = 'pending'"
                f" AND expires_at > ?{still_open}{self.dialect.for_update}",
                (challenge_id, now),
            )
            if pending is None:
                return None
            game_id = await insert(db, "games", _game_columns(game_columns))
            await db.execute(
                "UPDATE challenges SET status = 'accepted', game_id = ?,"
                " opponent_id = COALESCE(?, opponent_id) WHERE id = ?",
                (game_id, taken_by, challenge_id),
            )
            return game_id

    async def challenges_expired(self, now: float) -> list[ChallengeRow]:
        rows = await self._all("challenges_expired", now)
        return [ChallengeRow.from_row(row) for row in rows]

    async def insert_rematch(self, **columns: Any) -> int | None:
        """Insert a challenge with ``rematch_of``; None (nothing written) when that game
        already has a rematch pending or accepted (the unique index decides, atomically)."""
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        async with self._statement() as db:
            row = await db.fetchone(
                f"INSERT INTO challenges ({names}) VALUES ({marks})"
                " ON CONFLICT DO NOTHING RETURNING id",
                [to_column(value) for value in columns.values()],
            )
        return None if row is None else int(row[0])

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch of ``game_id`` that is pending or accepted, if any."""
        row = await self._one("rematch_of", game_id)
        return ChallengeRow.from_row(row) if row else None

    # ---- jobs (bot/domain/jobs.py) and shared values -----------------------------------------

    async def add_job(self, key: str, payload: str, now: float, owner: str, lease: float) -> bool:
        """A new job held by ``owner`` until ``now + lease``; False when ``key`` exists."""
        return await self._changes_one(
            "INSERT INTO jobs (key, payload, created_at, owner, lease_until)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
            key,
            payload,
            now,
            owner,
            now + lease,
        )

    async def take_jobs(
        self, owner: str, now: float, lease: float, limit: int, max_attempts: int
    ) -> list[tuple[str, str]]:
        """Take undone jobs whose lease ran out (their holder died or gave up): each is
        held by ``owner`` until ``now + lease``. Two processes never take the same job
        (SQLite: one writer at a time; PostgreSQL: ``skip_locked``, so processes taking at
        once share them out without waiting for each other)."""
        async with self._statement() as db:
            rows = await db.fetchall(
                "UPDATE jobs SET owner = ?, lease_until = ?, attempts = attempts + 1"
                " WHERE key IN (SELECT key FROM jobs WHERE done_at IS NULL AND lease_until <= ?"
                f" AND attempts < ? ORDER BY lease_until LIMIT ?{self.dialect.skip_locked})"
                " RETURNING key, payload",
                (owner, now + lease, now, max_attempts, limit),
            )
        return [(row[0], row[1]) for row in rows]

    async def take_named_jobs(
        self, keys: Sequence[str], owner: str, now: float, lease: float
    ) -> list[tuple[str, str]]:
        """Take those of the jobs ``keys`` that are undone and held by nobody (written due,
        or their holder's lease ran out), as ``take_jobs`` does."""
        taken: list[tuple[str, str]] = []
        for start in range(0, len(keys), NAMED_JOBS_AT_ONCE):
            chunk = keys[start : start + NAMED_JOBS_AT_ONCE]
            marks = ", ".join("?" for _ in chunk)
            async with self._statement() as db:
                rows = await db.fetchall(
                    "UPDATE jobs SET owner = ?, lease_until = ?, attempts = attempts + 1"
                    f" WHERE key IN ({marks}) AND done_at IS NULL AND lease_until <= ?"
                    " RETURNING key, payload",
                    (owner, now + lease, *chunk, now),
                )
            taken += [(row[0], row[1]) for row in rows]
        return taken

    async def claim_job(self, key: str, now: float, owner: str, lease: float) -> bool:
        """Hold ``key`` until ``now + lease``: True when nobody held it, or its holder's
        lease ran out, or ``owner`` held it already. A claim is a job the outbox never sends
        (done from the start: ``take_jobs`` skips it, ``purge_jobs`` forgets it). One
        statement: of two processes claiming at once, the second finds it held."""
        return await self._changes_one(
            "INSERT INTO jobs (key, payload, created_at, owner, lease_until, done_at)"
            " VALUES (?, '{}', ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE"
            " SET owner = excluded.owner, lease_until = excluded.lease_until,"
            " attempts = jobs.attempts + 1, done_at = excluded.done_at"
            " WHERE jobs.lease_until <= excluded.created_at OR jobs.owner = excluded.owner",
            key,
            now,
            owner,
            now + lease,
            now,
        )

    async def finish_job(self, key: str, now: float) -> None:
        await self._changes_one(
            "UPDATE jobs SET done_at = ? WHERE key = ? AND done_at IS NULL", now, key
        )

    async def purge_jobs(self, before: float) -> int:
        """Forget jobs done before ``before``."""
        async with self._statement() as db:
            return await db.execute("DELETE FROM jobs WHERE done_at < ?", (before,))

    async def get_value(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM bot_values WHERE key = ?", (key,))
        return None if row is None else row[0]

    async def put_value(self, key: str, value: str, now: float) -> None:
        async with self._statement() as db:
            await db.execute(
                "INSERT INTO bot_values (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at",
                (key, value, now),
            )

    async def put_value_once(self, key: str, value: str, now: float) -> str:
        """The key's value: the one kept already, else ``value``, kept from now on (of
        processes writing at once, the first write wins and every one reads it). Read
        first: once kept, asking again writes nothing."""
        kept = await self.get_value(key)
        if kept is not None:
            return kept
        async with self._statement() as db:
            await db.execute(
                "INSERT INTO bot_values (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO NOTHING",
                (key, value, now),
            )
        kept = await self.get_value(key)
        assert kept is not None  # bot_values rows are never deleted
        return kept

    # ---- players' names ------------------------------------------------------

    async def put_player_name(self, guild_id: int, user_id: int, name: str, now: float) -> bool:
        """Keep the player's display name on the server, its first ``NAME_LIMIT`` characters;
        True when that changed what was kept (an unchanged name writes nothing)."""
        return await self._changes_one(
            "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,"
            " updated_at = excluded.updated_at WHERE player_names.name <> excluded.name",
            guild_id,
            user_id,
            name[:NAME_LIMIT],
            now,
        )

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The kept names of those players on the server, by user id (the unknown left out)."""
        users = list(dict.fromkeys(user_ids))
        if not users:  # PostgreSQL reads "IN ()" as an error
            return {}
        rows = await self._fetchall(
            "SELECT user_id, name FROM player_names"
            f" WHERE guild_id = ? AND user_id IN ({_marks(len(users))})",
            (guild_id, *users),
        )
        return {row[0]: row[1] for row in rows}

    # ---- lessons -------------------------------------------------------------

    async def learn_progress(self, user_id: int) -> list[LearnRow]:
        """The learner's place in each course they began."""
        rows = await self._fetchall(
            "SELECT * FROM learn_progress WHERE user_id = ? ORDER BY course", (user_id,)
        )
        return [LearnRow.from_row(row) for row in rows]

    async def put_learn_progress(self, row: LearnRow, now: float) -> None:
        """Keep the learner's place in the course (the row replaces the one kept)."""
        async with self._statement() as db:
            await db.execute(
                "INSERT INTO learn_progress (user_id, course, done, lesson, step, tries,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id, course) DO UPDATE SET done = excluded.done,"
                " lesson = excluded.lesson, step = excluded.step, tries = excluded.tries,"
                " updated_at = excluded.updated_at",
                (
                    row.user_id,
                    row.course,
                    json.dumps(list(row.done)),
                    row.lesson,
                    row.step,
                    row.tries,
                    now,
                ),
            )

    # ---- post-game analyses (bot/domain/analysis.py) -------------------------

    async def get_analysis(self, game_id: int) -> AnalysisRow | None:
        row = await self._fetchone(
            "SELECT game_id, judged, done, total, result FROM game_analyses WHERE game_id = ?",
            (game_id,),
        )
        return None if row is None else AnalysisRow(*row)

    async def put_analysis(
        self, game_id: int, judged: str, done: int, total: int, result: str | None, now: float
    ) -> None:
        """Keep the analysis's progress (or its result); a finished one is never replaced."""
        async with self._statement() as db:
            await db.execute(
                "INSERT INTO game_analyses (game_id, judged, done, total, result, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
                " SET judged = excluded.judged, done = excluded.done, total = excluded.total,"
                " result = excluded.result, updated_at = excluded.updated_at"
                " WHERE game_analyses.result IS NULL",
                (game_id, judged, done, total, result, now),
            )

    async def mark_analysis_posted(self, game_id: int, now: float) -> bool:
        """Mark the finished analysis posted in the game's thread: True the first time only
        (compare-and-set: of two processes, one)."""
        return await self._changes_one(
            "UPDATE game_analyses SET posted_at = ? WHERE game_id = ?"
            " AND result IS NOT NULL AND posted_at IS NULL",
            now,
            game_id,
        )

    # ---- puzzles -------------------------------------------------------------

    async def add_puzzle_answer(self, user_id: int, puzzle: str, solved: bool, now: float) -> bool:
        """Keep the player's first answer to a puzzle; False when one was kept already."""
        return await self._changes_one(
            "INSERT INTO puzzle_answers (user_id, puzzle, solved, answered_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            user_id,
            puzzle,
            int(solved),
            now,
        )

    async def daily_puzzle_settings(self) -> list[tuple[int, str]]:
        """(server, settings) of the servers whose settings name a daily puzzle channel."""
        rows = await self._fetchall(
            "SELECT guild_id, settings FROM guild_settings WHERE settings LIKE ?",
            ('%"daily_puzzle": %',),
        )
        return [(row[0], row[1]) for row in rows]

    async def puzzle_answers(self, user_id: int) -> list[tuple[str, bool, float]]:
        """The player's answers: (puzzle, solved, when), the first answered first."""
        rows = await self._fetchall(
            "SELECT puzzle, solved, answered_at FROM puzzle_answers WHERE user_id = ?"
            " ORDER BY answered_at, puzzle",
            (user_id,),
        )
        return [(row[0], bool(row[1]), row[2]) for row in rows]

    async def add_server_puzzles(
        self, guild_id: int, game_id: int, puzzles: Sequence[tuple[int, str, str]], now: float
    ) -> int:
        """Keep a finished game's puzzles for its server, each ``(entry, set_name, puzzle
        JSON)``; those kept already (the game mined again) are left. How many were new."""
        added = 0
        async with self._write() as db:
            for entry, set_name, text in puzzles:
                added += await db.execute(
                    "INSERT INTO server_puzzles (game_id, entry, guild_id, set_name, puzzle,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (game_id, entry, guild_id, set_name, text, now),
                )
        return added

    async def server_puzzles(self, guild_id: int) -> list[tuple[int, int, str]]:
        """The server's own puzzles, ``(game, entry, set_name)``, the first kept first."""
        rows = await self._fetchall(
            "SELECT game_id, entry, set_name FROM server_puzzles WHERE guild_id = ?"
            " ORDER BY created_at, game_id, entry",
            (guild_id,),
        )
        return [(row[0], row[1], row[2]) for row in rows]

    async def server_puzzle(self, game_id: int, entry: int) -> tuple[int, str, str] | None:
        """``(server, set_name, puzzle JSON)`` of a server's puzzle, None if there is none."""
        row = await self._fetchone(
            "SELECT guild_id, set_name, puzzle FROM server_puzzles WHERE game_id = ? AND entry = ?",
            (game_id, entry),
        )
        return None if row is None else (row[0], row[1], row[2])

    # ---- helpers -------------------------------------------------------------

    async def _update_where(
        self, table: str, row_id: int, columns: dict[str, Any], where: dict[str, Any]
    ) -> bool:
        """Set ``columns`` of the row ``row_id`` if its ``where`` columns still hold those
        values; with no columns, whether the row exists."""
        if not columns:
            found = await self._fetchone(f"SELECT 1 FROM {table} WHERE id = ?", (row_id,))
            return found is not None
        assignments = ", ".join(f"{name} = ?" for name in columns)
        conditions = "".join(f" AND {name} = ?" for name in where)
        return await self._changes_one(
            f"UPDATE {table} SET {assignments} WHERE id = ?{conditions}",
            *map(to_column, columns.values()),
            row_id,
            *where.values(),
        )


async def insert(db: Connection, table: str, columns: dict[str, Any]) -> int:
    """Insert one row; its id."""
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    values = [to_column(value) for value in columns.values()]
    row = await db.fetchone(f"INSERT INTO {table} ({names}) VALUES ({marks}) RETURNING id", values)
    assert row is not None
    return int(row[0])


def to_column(value: Any) -> Any:
    """Lists, tuples and dicts (variants, players, options) are stored as JSON."""
    if isinstance(value, list | tuple):
        return json.dumps(list(value))
    return json.dumps(value) if isinstance(value, dict) else value


def _check_columns(columns: dict[str, Any], allowed: Iterable[str]) -> None:
    unknown = set(columns) - set(allowed)
    if unknown:
        raise ValueError(f"cannot set column(s) {sorted(unknown)}")


def _game_columns(columns: dict[str, Any]) -> dict[str, Any]:
    if isinstance(columns.get("state"), str):
        return columns | {"state": encode_state(columns["state"])}
    return columns


# ---- ratings ------------------------------------------------------------------------

STANDING_COLUMNS = (
    "guild_id, user_id, game, mu, sigma, score, games, wins, draws, losses, streak,"
    " best_streak, updated_at"
)
CHANGE_COLUMNS = (
    "game_id, user_id, guild_id, game, outcome, mu_before, sigma_before, mu, sigma, finished_at"
)
STANDING_KEY = ("guild_id", "user_id", "game")
# The lock taken by every transaction that rates a game of a guild (the game's ratings and
# the players' tallies over all games), with the guild's id.
RATINGS_LOCK = "idzeva-ratings:"


def standing_values(s: Standing) -> tuple[Any, ...]:
    return (
        s.guild_id, s.user_id, s.game, s.mu, s.sigma, s.score, s.games, s.wins, s.draws,
        s.losses, s.streak, s.best_streak, s.updated_at,
    )  # fmt: skip


def change_values(c: Change) -> tuple[Any, ...]:
    return (
        c.game_id, c.user_id, c.guild_id, c.game, c.outcome, c.mu_before, c.sigma_before,
        c.mu, c.sigma, c.finished_at,
    )  # fmt: skip


def to_standing(row: Row) -> Standing:
    return Standing(**known_columns(Standing, row))


def to_change(row: Row) -> Change:
    return Change(**known_columns(Change, row))


def _marks(count: int) -> str:
    return ", ".join("?" * count)


async def rate(db: Connection, job: RatingJob, dialect: Dialect) -> bool:
    """Inside a write transaction (and the dialect's rating lock: two games of a guild
    ending at once are rated one after the other, each reading what the other wrote): read
    the players' standings, rate, write. False (nothing written) when the game is rated
    already."""
    if dialect.lock_ratings:
        await db.fetchone(dialect.lock_ratings, (f"{RATINGS_LOCK}{job.guild_id}",))
    if await db.fetchone("SELECT 1 FROM rating_history WHERE game_id = ?", (job.game_id,)):
        return False
    current: dict[tuple[str, int], Standing] = {}
    if job.people:  # else nobody to read (and PostgreSQL reads "IN ()" as an error)
        rows = await db.fetchall(
            "SELECT * FROM ratings WHERE guild_id = ?"
            f" AND user_id IN ({_marks(len(job.people))}) AND game IN (?, ?)",
            (job.guild_id, *job.people, job.game, TOTAL),
        )
        current = {(row["game"], row["user_id"]): to_standing(row) for row in rows}
    standings, changes = job.compute(current)
    names = STANDING_COLUMNS.replace(" ", "").split(",")
    updates = ", ".join(f"{name} = excluded.{name}" for name in names if name not in STANDING_KEY)
    await db.executemany(
        f"INSERT INTO ratings ({STANDING_COLUMNS}) VALUES ({_marks(len(names))})"
        f" ON CONFLICT ({', '.join(STANDING_KEY)}) DO UPDATE SET {updates}",
        [standing_values(s) for s in standings],
    )
    await db.executemany(
        f"INSERT INTO rating_history ({CHANGE_COLUMNS}) VALUES ({_marks(10)})",
        [change_values(c) for c in changes],
    )
    return True


async def rate_finished(store: SqlStore, batch: int = 500) -> int:
    """Rate the games already finished, in the order they ended (the upgrade to
    ``RATED_SINCE``; either store), a batch per transaction. A game rated already is skipped.
    Returns how many were rated."""
    done, after = 0, (float("-inf"), 0)
    while rows := await store.finished_games(after, batch):
        jobs = [job_from_state(row, row.state, row.updated_at) for row in rows]
        done += await store.rate_games([job for job in jobs if job is not None])
        after = (rows[-1].updated_at, rows[-1].id)
    return done
