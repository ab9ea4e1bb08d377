"""SQLite storage through aiosqlite: games (with their record), seats and challenges.

One connection per ``Store``; an ``asyncio.Lock`` serialises its statements and transactions.
Writes run inside ``BEGIN IMMEDIATE`` so that two processes sharing the file queue up on
SQLite's write lock, and ``update_game`` only succeeds for the version it read.

Where things live (schema version 3):
- A game's record is stored once, in the log of its ``state`` (``Game.to_json()``): loading
  a game is one row and one parse, and replaying it is ``new_game(...).replay(log)``. The
  state is stored zlib-compressed (``encode_state``: JSON this repetitive shrinks about five
  times, for 0.05-0.2 ms per write); ``GameRow.state`` is always the JSON text, and a text
  value written by hand (or before schema 3) reads as it is.
- ``seats`` has one row per (game, player), copied from ``games`` by triggers, with the
  game's guild, status and last update: a player's games are an index range, however many
  finished games the server holds.
- Every query the bot runs on each action has an index (tests check the query plans).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.storage.rating_model import TOTAL, Change, RatingJob, Standing, job_from_state, rated_games
from bot.storage.rows import (
    NOTIFY_COLUMNS,
    ChallengeRow,
    GameEvent,
    GameRow,
    MoveRow,
    NotifyRow,
    StoreError,
    VacationRow,
    decode_state,
    encode_state,
    known_columns,
)
from games.base import LogEntry

log = logging.getLogger(__name__)

MIGRATIONS: list[str] = [
    # 1: the initial schema.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        message_id INTEGER,
        kind TEXT NOT NULL,
        variants TEXT NOT NULL DEFAULT '[]',
        players TEXT NOT NULL,
        state TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        turn_started_at REAL,
        remind_at REAL,
        reminded INTEGER NOT NULL DEFAULT 0,
        claim_at REAL,
        claim_notified INTEGER NOT NULL DEFAULT 0,
        draw_offer_seat INTEGER
    );
    CREATE INDEX games_by_guild ON games (guild_id, status);
    CREATE INDEX games_by_thread ON games (guild_id, thread_id);
    CREATE INDEX games_by_deadline ON games (status, remind_at, claim_at);

    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT,
        dice TEXT,
        created_at REAL NOT NULL,
        UNIQUE (game_id, ply)
    );

    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        kind TEXT NOT NULL,
        variants TEXT NOT NULL DEFAULT '[]',
        challenger_id INTEGER NOT NULL,
        opponent_id INTEGER NOT NULL,
        first TEXT NOT NULL CHECK (first IN ('me', 'them', 'random')),
        status TEXT NOT NULL DEFAULT 'pending'
            CHECK (status IN ('pending', 'accepted', 'declined', 'expired')),
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        game_id INTEGER REFERENCES games (id)
    );
    CREATE INDEX challenges_by_status ON challenges (status, expires_at);
    """,
    # 2: team challenges (Šačidjun: a partner on each side, every invited player accepts)
    # and game-specific challenge options (e.g. the colour the challenger plays).
    """
    ALTER TABLE challenges ADD COLUMN partners TEXT NOT NULL DEFAULT '[null, null]';
    ALTER TABLE challenges ADD COLUMN accepted TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE challenges ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: each move stored once, and look-ups that do not grow with history.
    # - The moves table repeated every entry of the state's log (and its unique index
    #   repeated it again): the log, written in the same transaction, is the record. Every
    #   game stays replayable from its own state; ``Store.moves`` reads the log. After this
    #   script, the upgrade compresses the existing states (``_compress_states``).
    # - seats: a player's games by (guild, user, status), kept by triggers (whichever
    #   connection writes, with or without foreign_keys).
    # - Deadlines: partial indexes holding only the games still waiting for a notice.
    """
    DROP TABLE moves;

    CREATE TABLE seats (
        game_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_user ON seats (guild_id, user_id, status, updated_at DESC, game_id DESC);
    INSERT OR IGNORE INTO seats (game_id, user_id, guild_id, status, updated_at)
        SELECT games.id, player.value, games.guild_id, games.status, games.updated_at
        FROM games, json_each(games.players) AS player;
    CREATE TRIGGER seats_of_new_game AFTER INSERT ON games BEGIN
        INSERT OR IGNORE INTO seats (game_id, user_id, guild_id, status, updated_at)
            SELECT NEW.id, value, NEW.guild_id, NEW.status, NEW.updated_at
            FROM json_each(NEW.players);
    END;
    CREATE TRIGGER seats_follow_game AFTER UPDATE OF status, updated_at ON games BEGIN
        UPDATE seats SET status = NEW.status, updated_at = NEW.updated_at
            WHERE game_id = NEW.id;
    END;
    CREATE TRIGGER seats_of_deleted_game AFTER DELETE ON games BEGIN
        DELETE FROM seats WHERE game_id = OLD.id;
    END;
    CREATE TRIGGER seats_of_changed_players AFTER UPDATE OF players, guild_id ON games BEGIN
        DELETE FROM seats WHERE game_id = NEW.id;
        INSERT OR IGNORE INTO seats (game_id, user_id, guild_id, status, updated_at)
            SELECT NEW.id, value, NEW.guild_id, NEW.status, NEW.updated_at
            FROM json_each(NEW.players);
    END;

    DROP INDEX games_by_guild;
    DROP INDEX games_by_deadline;
    CREATE INDEX games_to_remind ON games (remind_at) WHERE status = 'active' AND reminded = 0;
    CREATE INDEX games_to_claim ON games (claim_at)
        WHERE status = 'active' AND claim_notified = 0;
    """,
    # 4: per-game settings (a JSON object), copied from the challenge's options when it is
    # accepted: what the players chose for this game (colour, and later time per move,
    # rated or not, bot levels). One column for all of them: none is searched by.
    """
    ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    """,
    # 5: several processes (bot/domain/jobs.py, bot/app.py).
    # - jobs: the outbox of once-only work (a reminder, a claim notice, an expired
    #   challenge), one row per key; a process holds a job while ``lease_until`` is ahead,
    #   sends it, then sets ``done_at``. A job whose lease ran out undone is taken again.
    # - bot_values: small named values shared by every process (the command tree's hash).
    """
    CREATE TABLE jobs (
        key TEXT PRIMARY KEY,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        owner TEXT NOT NULL,
        lease_until REAL NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 1,
        done_at REAL
    ) WITHOUT ROWID;
    CREATE INDEX jobs_due ON jobs (lease_until) WHERE done_at IS NULL;
    CREATE INDEX jobs_done ON jobs (done_at) WHERE done_at IS NOT NULL;

    CREATE TABLE bot_values (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at REAL NOT NULL
    ) WITHOUT ROWID;
    """,
    # 6: open challenges and rematches (bot/domain/challenges.py).
    # - opponent_id may be NULL: an open challenge, which the first to accept takes (the
    #   accepting transaction writes their id). SQLite cannot drop a NOT NULL, so the table is
    #   rebuilt with the same columns (nothing refers to challenges; its index is made again).
    # - seats: the players per seat, fixed by the challenge (a rematch: the previous game's
    #   players with the sides swapped); NULL when the seats are chosen on acceptance.
    # - rematch_of: the finished game a rematch replays. At most one rematch of a game is
    #   pending or accepted at a time: a unique partial index, so two clicks at the same
    #   instant make one challenge (``insert_rematch``).
    """
    CREATE TABLE challenges_new (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        kind TEXT NOT NULL,
        variants TEXT NOT NULL DEFAULT '[]',
        challenger_id INTEGER NOT NULL,
        opponent_id INTEGER,
        first TEXT NOT NULL CHECK (first IN ('me', 'them', 'random')),
        status TEXT NOT NULL DEFAULT 'pending'
            CHECK (status IN ('pending', 'accepted', 'declined', 'expired')),
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        game_id INTEGER REFERENCES games (id),
        partners TEXT NOT NULL DEFAULT '[null, null]',
        accepted TEXT NOT NULL DEFAULT '[]',
        options TEXT NOT NULL DEFAULT '{}',
        seats TEXT,
        rematch_of INTEGER REFERENCES games (id)
    );
    INSERT INTO challenges_new (
        id, guild_id, channel_id, message_id, kind, variants, challenger_id, opponent_id,
        first, status, created_at, expires_at, game_id, partners, accepted, options
    )
        SELECT id, guild_id, channel_id, message_id, kind, variants, challenger_id,
            opponent_id, first, status, created_at, expires_at, game_id, partners, accepted,
            options
        FROM challenges;
    DROP TABLE challenges;
    ALTER TABLE challenges_new RENAME TO challenges;
    CREATE INDEX challenges_by_status ON challenges (status, expires_at);
    CREATE UNIQUE INDEX challenges_rematch ON challenges (rematch_of)
        WHERE rematch_of IS NOT NULL AND status IN ('pending', 'accepted');
    """,
    # 7: a game's event history (``bot/domain/events.py``): the time of every logged action, draw
    # offers and takebacks with their answers, written in the same transaction as the action.
    # And where each player wants "your turn" to reach them in a server (``bot/domain/notify.py``):
    # thread, DM, both or off, whether a DM failed already (told once), the daily digest.
    """
    CREATE TABLE game_events (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        at REAL NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        ply INTEGER NOT NULL DEFAULT 0,
        data TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX game_events_by_game ON game_events (game_id, id);

    CREATE TABLE notify_prefs (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        route TEXT NOT NULL DEFAULT 'thread' CHECK (route IN ('thread', 'dm', 'both', 'off')),
        digest INTEGER NOT NULL DEFAULT 0,
        dm_failed INTEGER NOT NULL DEFAULT 0,
        digest_day TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX notify_prefs_digest ON notify_prefs (digest_day) WHERE digest = 1;
    """,
    # 8: ratings (bot/domain/ratings.py).
    RATINGS_MIGRATION := """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        score REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        best_streak INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id, game)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings (guild_id, game, score DESC, user_id);

    CREATE TABLE rating_history (
        game_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX history_of_user
        ON rating_history (guild_id, user_id, finished_at DESC, game_id DESC);
    CREATE INDEX history_of_user_game
        ON rating_history (guild_id, user_id, game, finished_at DESC, game_id DESC);
    """,
    # 9: correspondence clocks (bot/domain/clocks.py). ``reminded`` counts this turn's reminders
    # and ``remind_at`` is the next one (NULL: none left); ``timeout_at``: when the bot ends
    # the game on time; ``paused_until``: the mover's vacation holds the clock until then.
    # Games already running end on time a day after their deadline. A server's settings
    # (one JSON object, bot/domain/server_settings.py) and each player's vacations per year.
    """
    ALTER TABLE games ADD COLUMN timeout_at REAL;
    ALTER TABLE games ADD COLUMN paused_until REAL;
    UPDATE games SET remind_at = NULL WHERE reminded <> 0;
    UPDATE games SET timeout_at = claim_at + 86400 WHERE status = 'active' AND claim_at IS NOT NULL;
    DROP INDEX games_to_remind;
    CREATE INDEX games_to_remind ON games (remind_at) WHERE status = 'active';
    CREATE INDEX games_to_time_out ON games (timeout_at) WHERE status = 'active';
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}',
        updated_at REAL NOT NULL,
        updated_by INTEGER
    );
    CREATE TABLE vacations (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        year INTEGER NOT NULL,
        used INTEGER NOT NULL DEFAULT 0,
        started_at REAL,
        until REAL,
        PRIMARY KEY (guild_id, user_id, year)
    );
    """,
    # 10: the daily digest at the hour each player chose, in their time zone (bot/domain/notify.py).
    # ``digest_next`` is when the next one is due (Unix seconds; 0: at once); sending it moves
    # it on, compare-and-set, so a digest goes once whatever the processes. Players who had
    # the digest keep its time: midnight UTC, the next after the day ``digest_day`` marked.
    """
    DROP INDEX notify_prefs_digest;
    ALTER TABLE notify_prefs ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 8
        CHECK (digest_hour BETWEEN 0 AND 23);
    ALTER TABLE notify_prefs ADD COLUMN digest_zone TEXT NOT NULL DEFAULT 'UTC';
    ALTER TABLE notify_prefs ADD COLUMN digest_next INTEGER NOT NULL DEFAULT 0;
    UPDATE notify_prefs SET digest_hour = 0, digest_next = CASE WHEN digest_day = '' THEN 0
        ELSE CAST(strftime('%s', digest_day, '+1 day') AS INTEGER) END;
    ALTER TABLE notify_prefs DROP COLUMN digest_day;
    CREATE INDEX notify_prefs_digest ON notify_prefs (digest_next) WHERE digest = 1;
    """,
]
# The schema version from which games are rated; the upgrade to it rates the games already
# finished, in order (``_rate_finished``). Found by position: migrations may be renumbered.
RATED_SINCE = MIGRATIONS.index(RATINGS_MIGRATION) + 1

# Migration 3 and its triggers use json_each: built into SQLite since 3.38 (and in most
# builds before).

# synchronous = FULL. In WAL mode NORMAL syncs the log only at checkpoints, so a power cut or
# an operating-system crash (not a crash of the bot: the system still writes what it was
# given) can lose the last commits: a move already shown to the players, with the next
# player's mention, would be gone after the restart, and the board in Discord would disagree
# with the database. FULL syncs the log at every commit. Its cost, measured by `make bench`
# (bench/storage.py, on a real file of this 2-core machine's disk, modes alternating): a
# game's update takes 0.2-1.3 ms with NORMAL and 0.5-6.5 ms with FULL (the fsync varies
# with the machine's load); whole Shax moves (engine, write, rendering) averaged 26.4, 47.3
# and 28.9 ms with NORMAL against 28.2, 40.4 and 33.3 ms with FULL in three runs on a busy
# machine: a few milliseconds at most, within the noise. Even at 6.5 ms a write, one
# connection commits 150 moves a second, above the load target (about 125 actions/s), and
# look-ups go through their own connection, which does not wait for a commit (with one
# connection, a look-up during writes took 2.4-6.3 ms at p50 with FULL against 1.6-2.0 with
# NORMAL; with two, 1.1-1.7 ms both ways): durability is worth its milliseconds.
SYNCHRONOUS = "FULL"

# A player's games as lists show them: a finished game (with its result) comes without its
# state, which lists do not need and which is by far the largest part of the row.
_LISTED_GAME = (
    "games.id, games.guild_id, games.channel_id, games.thread_id, games.message_id,"
    " games.kind, games.variants, games.players, games.version, games.status, games.result,"
    " games.created_at, games.updated_at, games.turn_started_at, games.remind_at,"
    " games.reminded, games.claim_at, games.claim_notified, games.draw_offer_seat,"
    " games.options, games.timeout_at, games.paused_until,"
    " CASE WHEN games.status = 'finished' AND games.result IS NOT NULL THEN ''"
    " ELSE games.state END AS state"
)

# Every key a rating has (not the tallies' ``*``), as SQL literals.
RATED_GAMES = ", ".join(f"'{key}'" for key in rated_games())

# The queries run on every action (listing, thread look-ups, the deadline tick), by name:
# the methods below use them, and the tests check that each one's plan uses an index.
QUERIES = {
    "get_game": "SELECT * FROM games WHERE id = ?",
    "game_version": "SELECT guild_id, version FROM games WHERE id = ?",
    "games_of_user": (
        f"SELECT {_LISTED_GAME} FROM seats JOIN games ON games.id = seats.game_id"
        " WHERE seats.guild_id = ? AND seats.user_id = ?"
        " ORDER BY seats.status, seats.updated_at DESC, seats.game_id DESC LIMIT ?"
    ),
    "active_games_of_user": (
        f"SELECT {_LISTED_GAME} FROM seats JOIN games ON games.id = seats.game_id"
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
        "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at"
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
        "SELECT COUNT(*), COALESCE(SUM(games >= ?), 0) FROM ratings WHERE guild_id = ? AND game = ?"
    ),
    "guild_standings": "SELECT * FROM ratings WHERE guild_id = ? AND game <> '*'",
    # The overall leaderboard: its top is each game's top (as ``leaderboard``), merged in
    # Python; the caller's place and the counts are counted here, not read out
    # (bot/domain/ratings.py, ``load_leaderboard``). The counts read the server's ratings in the
    # table's order (guild, user, game), one group per player.
    "overall_top": " UNION ALL ".join(
        "SELECT * FROM (SELECT * FROM ratings WHERE guild_id = ?1 AND game = "
        f"'{key}' AND games >= ?2 ORDER BY score DESC, user_id LIMIT ?3)"
        for key in rated_games()
    ),
    "overall_place": (
        "SELECT COUNT(DISTINCT user_id) FROM ratings"
        f" WHERE guild_id = ? AND game IN ({RATED_GAMES}) AND score >= ?"
        " AND (score > ? OR user_id < ?) AND games >= ?"
    ),
    "overall_counts": (
        "SELECT COUNT(*), COALESCE(SUM(ranked), 0) FROM (SELECT MAX(games >= ?) AS ranked"
        f" FROM ratings WHERE guild_id = ? AND game IN ({RATED_GAMES})"
        " GROUP BY user_id) AS players"
    ),
    "recent_changes": (
        "SELECT rating_history.*, games.channel_id, games.thread_id, games.message_id"
        " FROM rating_history JOIN games ON games.id = rating_history.game_id"
        " WHERE rating_history.guild_id = ? AND rating_history.user_id = ?"
        " ORDER BY rating_history.finished_at DESC, rating_history.game_id DESC LIMIT ?"
    ),
    "recent_changes_in_game": (
        "SELECT rating_history.*, games.channel_id, games.thread_id, games.message_id"
        " FROM rating_history JOIN games ON games.id = rating_history.game_id"
        " WHERE rating_history.guild_id = ? AND rating_history.user_id = ?"
        " AND rating_history.game = ?"
        " ORDER BY rating_history.finished_at DESC, rating_history.game_id DESC LIMIT ?"
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


class _Rollback(Exception):
    """Raised inside ``Store._write`` to roll the transaction back quietly."""


class Store:
    """Two connections to a database file: one writes (its transactions wait for each other
    on ``_lock``), one reads. In WAL mode a reader never waits for a writer, so look-ups
    (autocomplete, boards, lists) do not queue behind a commit and its fsync; each read sees
    every commit made before it started. An in-memory database has the one connection."""

    def __init__(self, db: aiosqlite.Connection, reader: aiosqlite.Connection | None = None):
        self._db = db
        self._lock = asyncio.Lock()
        self._reader = reader or db
        self._read_lock = asyncio.Lock() if reader is not None else self._lock

    @classmethod
    async def open(
        cls,
        path: str,
        migrations: Sequence[str] = MIGRATIONS,
        *,
        check: bool = False,
        synchronous: str = SYNCHRONOUS,
    ) -> Self:
        """Connect, configure and migrate. ``":memory:"`` gives a private in-memory database.

        A database that cannot be used (missing folder, not an SQLite file, read-only, an
        upgrade that fails; with ``check``, a failed ``PRAGMA quick_check``) raises
        ``StoreError`` with one line saying so.
        """
        _check_path(path)
        try:
            # isolation_level=None: no implicit transactions, we issue BEGIN/COMMIT ourselves.
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}: {error}") from error
        try:
            db.row_factory = sqlite3.Row
            await _configure(db, path, synchronous)
            if check:
                await _quick_check(db, path)
            to_rate = await _upgrade(db, path, migrations)
            reader = await _open_reader(path) if _is_file(path) else None
        except BaseException:
            await db.close()
            raise
        store = cls(db, reader)
        if to_rate:
            try:
                rated = await rate_finished(store)
            except BaseException:
                await store.close()
                raise
            log.info("database %s: rated %d finished games", path, rated)
        return store

    async def close(self) -> None:
        if self._reader is not self._db:
            await self._reader.close()
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- plumbing ------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; raise ``_Rollback`` inside to undo it without an error."""
        async with self._lock:
            try:
                await _run(self._db, "BEGIN IMMEDIATE")
                yield self._db
            except _Rollback:
                await _rollback(self._db)
            except BaseException:
                await _rollback(self._db)
                raise
            else:
                await _run(self._db, "COMMIT")

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._read_lock, self._reader.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._read_lock, self._reader.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def pragma(self, name: str) -> Any:
        """A PRAGMA on the writing connection (the one whose settings matter)."""
        async with self._lock, self._db.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    # ---- games ---------------------------------------------------------------

    async def insert_game(self, **columns: Any) -> int:
        async with self._write() as db:
            return await _insert(db, "games", _game_columns(columns))

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._fetchone(QUERIES["get_game"], (game_id,))
        return GameRow.from_row(row) if row else None

    async def game_version(self, game_id: int) -> tuple[int, int] | None:
        """(guild_id, version) of a game: a cheap check for caches."""
        row = await self._fetchone(QUERIES["game_version"], (game_id,))
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
        the finished game's rating job, applied in the same transaction (``_rate``).
        """
        del new_log_entries  # already in the state's log: each move is stored once
        _check_columns(columns, GAME_COLUMNS)
        columns = _game_columns(columns)
        rows = [event.columns(game_id, expected_version) for event in events]
        assignments = "".join(f"{name} = ?, " for name in columns)
        sql = f"UPDATE games SET {assignments}version = version + 1 WHERE id = ? AND version = ?"
        params = [*map(_encode, columns.values()), game_id, expected_version]
        async with self._write() as db:
            cursor = await _run(db, sql, params)
            if cursor.rowcount != 1:
                return False
            for row in rows:
                await _insert(db, "game_events", row)
            if ratings is not None:
                await _rate(db, ratings)
            return True

    async def add_game_events(
        self, game_id: int, expected_version: int, events: Iterable[GameEvent]
    ) -> bool:
        """Store ``events`` that change no position (a takeback asked or declined), only if
        the game is still at ``expected_version``: one transaction, so that an event never
        follows a move it did not see."""
        rows = [event.columns(game_id, expected_version) for event in events]
        async with self._write() as db:
            async with db.execute(
                "SELECT 1 FROM games WHERE id = ? AND version = ?", (game_id, expected_version)
            ) as cursor:
                if await cursor.fetchone() is None:
                    return False
            for row in rows:
                await _insert(db, "game_events", row)
            return True

    async def game_events(self, game_id: int) -> list[GameEvent]:
        """The game's events, oldest first."""
        rows = await self._fetchall(QUERIES["game_events"], (game_id,))
        return [GameEvent.from_row(row) for row in rows]

    # ---- notification settings -------------------------------------------------

    async def notify_pref(self, guild_id: int, user_id: int) -> NotifyRow | None:
        row = await self._fetchone(QUERIES["notify_pref"], (guild_id, user_id))
        return NotifyRow.from_row(row) if row else None

    async def set_notify_pref(self, guild_id: int, user_id: int, **columns: Any) -> None:
        """Create or change a player's notification settings (``NOTIFY_COLUMNS``)."""
        _check_columns(columns, NOTIFY_COLUMNS)
        values = {name: int(v) if isinstance(v, bool) else v for name, v in columns.items()}
        names = ", ".join(["guild_id", "user_id", *values])
        marks = ", ".join("?" for _ in range(2 + len(values)))
        updates = ", ".join(f"{name} = excluded.{name}" for name in values) or "route = route"
        sql = (
            f"INSERT INTO notify_prefs ({names}) VALUES ({marks})"
            f" ON CONFLICT (guild_id, user_id) DO UPDATE SET {updates}"
        )
        async with self._write() as db:
            await _run(db, sql, [guild_id, user_id, *values.values()])

    async def mark_dm_failed(self, guild_id: int, user_id: int) -> bool:
        """Note that a DM to the player failed; True only the first time (to say so once)."""
        async with self._write() as db:
            cursor = await _run(
                db,
                "UPDATE notify_prefs SET dm_failed = 1"
                " WHERE guild_id = ? AND user_id = ? AND dm_failed = 0",
                (guild_id, user_id),
            )
            return cursor.rowcount == 1

    async def digests_due(self, now: int) -> list[NotifyRow]:
        """Players who asked for a daily digest whose next one is due at ``now``."""
        rows = await self._fetchall(QUERIES["digests_due"], (now,))
        return [NotifyRow.from_row(row) for row in rows]

    async def mark_digest_sent(self, guild_id: int, user_id: int, due: int, following: int) -> bool:
        """Move the player's digest due at ``due`` on to ``following``; False if another
        process did first (or the player changed it meanwhile): then it is not sent."""
        async with self._write() as db:
            cursor = await _run(
                db,
                "UPDATE notify_prefs SET digest_next = ? WHERE guild_id = ? AND user_id = ?"
                " AND digest = 1 AND digest_next = ?",
                (following, guild_id, user_id, due),
            )
            return cursor.rowcount == 1

    # ---- ratings -------------------------------------------------------------

    async def rate_game(self, job: RatingJob) -> bool:
        """Apply ``job`` alone (the upgrade's rating of old games); False if it was rated."""
        return await self.rate_games([job]) == 1

    async def rate_games(self, jobs: Sequence[RatingJob]) -> int:
        """Apply ``jobs`` in order, in one transaction; returns how many were not rated yet."""
        async with self._write() as db:
            return sum([await _rate(db, job) for job in jobs])

    async def rating_changes(self, game_id: int) -> list[Change]:
        rows = await self._fetchall(QUERIES["rating_changes"], (game_id,))
        return [_change(row) for row in rows]

    async def standings_of_user(self, guild_id: int, user_id: int) -> list[Standing]:
        """The user's rows (per game, and ``TOTAL``)."""
        rows = await self._fetchall(QUERIES["standings_of_user"], (guild_id, user_id))
        return [_standing(row) for row in rows]

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[Standing]:
        rows = await self._fetchall(QUERIES["leaderboard"], (guild_id, game, min_games, limit))
        return [_standing(row) for row in rows]

    async def leaderboard_place(self, standing: Standing, min_games: int) -> int:
        """1 + how many ranked players of the game are above ``standing``."""
        row = await self._fetchone(
            QUERIES["leaderboard_place"],
            (
                standing.guild_id,
                standing.game,
                min_games,
                standing.score,
                standing.score,
                standing.user_id,
            ),
        )
        return 1 + int(row[0])

    async def leaderboard_counts(self, guild_id: int, game: str, min_games: int) -> tuple[int, int]:
        """(players with a rating in the game, those with ``min_games`` or more)."""
        row = await self._fetchone(QUERIES["leaderboard_counts"], (min_games, guild_id, game))
        return int(row[0]), int(row[1])

    async def guild_standings(self, guild_id: int) -> list[Standing]:
        """Every rating in the guild (what the overall leaderboard is drawn from: the tests'
        reference; the leaderboard itself uses ``overall_*``)."""
        rows = await self._fetchall(QUERIES["guild_standings"], (guild_id,))
        return [_standing(row) for row in rows]

    async def overall_top(self, guild_id: int, min_games: int, limit: int) -> list[Standing]:
        """Each game's ``leaderboard`` (its ``limit`` best ranked players), in one query."""
        rows = await self._fetchall(QUERIES["overall_top"], (guild_id, min_games, limit))
        return [_standing(row) for row in rows]

    async def overall_place(self, best: Standing, min_games: int) -> int:
        """1 + how many players have a ranked rating in some game above ``best`` (the
        player's best ranked rating): the player's place on the overall leaderboard."""
        row = await self._fetchone(
            QUERIES["overall_place"],
            (best.guild_id, best.score, best.score, best.user_id, min_games),
        )
        return 1 + int(row[0])

    async def overall_counts(self, guild_id: int, min_games: int) -> tuple[int, int]:
        """(players with a rating in some game, those with ``min_games`` or more in one)."""
        row = await self._fetchone(QUERIES["overall_counts"], (min_games, guild_id))
        return int(row[0]), int(row[1])

    async def recent_changes(
        self, guild_id: int, user_id: int, game: str | None, limit: int
    ) -> list[tuple[Change, tuple[int, int | None, int | None]]]:
        """The user's last rated games (with each game's channel, thread and message)."""
        if game is None:
            rows = await self._fetchall(QUERIES["recent_changes"], (guild_id, user_id, limit))
        else:
            rows = await self._fetchall(
                QUERIES["recent_changes_in_game"], (guild_id, user_id, game, limit)
            )
        return [
            (_change(row), (row["channel_id"], row["thread_id"], row["message_id"])) for row in rows
        ]

    async def rating_points(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[tuple[float, float]]:
        """(finished_at, mu after) of the user's last ``limit`` games in ``game``, oldest
        first."""
        rows = await self._fetchall(QUERIES["rating_points"], (guild_id, user_id, game, limit))
        return [(row[0], row[1]) for row in reversed(rows)]

    async def rating_since(
        self, guild_id: int, user_id: int, game: str, since: float
    ) -> float | None:
        """The user's mu before their first game in ``game`` since ``since`` (None: none)."""
        row = await self._fetchone(QUERIES["rating_since"], (guild_id, user_id, game, since))
        return None if row is None else row[0]

    async def finished_games(self, after: tuple[float, int], limit: int) -> list[GameRow]:
        """Finished games in the order they ended, after ``(updated_at, id)`` (the upgrade's
        rating of old games)."""
        rows = await self._fetchall(
            "SELECT * FROM games WHERE status = 'finished' AND (updated_at > ?"
            " OR (updated_at = ? AND id > ?)) ORDER BY updated_at, id LIMIT ?",
            (after[0], after[0], after[1], limit),
        )
        return [GameRow.from_row(row) for row in rows]

    async def set_game_fields(self, game_id: int, **columns: Any) -> bool:
        """Record where the game is shown (thread, message) without bumping the version."""
        _check_columns(columns, {"thread_id", "message_id"})
        return await self._update_where("games", game_id, columns, {})

    async def mark_notified(self, game_id: int, version: int, flag: str) -> bool:
        """Set ``reminded`` or ``claim_notified`` once for this version of the game."""
        if flag not in ("reminded", "claim_notified"):
            raise ValueError(flag)
        return await self._update_where(
            "games", game_id, {flag: 1}, {"version": version, flag: 0, "status": "active"}
        )

    async def mark_reminded(
        self, game_id: int, version: int, sent: int, now_sent: int, next_at: float | None
    ) -> bool:
        """Count a reminder once: ``reminded`` goes from ``sent`` to ``now_sent`` and the next
        one is due at ``next_at``, for this version of the game only."""
        return await self._update_where(
            "games",
            game_id,
            {"reminded": now_sent, "remind_at": next_at},
            {"version": version, "reminded": sent, "status": "active"},
        )

    async def shift_clock(
        self, game_id: int, version: int, delta: float, paused_until: float | None
    ) -> bool:
        """Move the turn's deadlines by ``delta`` seconds (a vacation starts or ends) and set
        ``paused_until``, for this version of the game only; the version stays (the board's
        buttons stay valid)."""
        moved = ", ".join(f"{name} = {name} + ?" for name in CLOCK_COLUMNS)
        sql = (
            f"UPDATE games SET {moved}, paused_until = ?"
            " WHERE id = ? AND version = ? AND status = 'active'"
        )
        params = [*(delta for _ in CLOCK_COLUMNS), paused_until, game_id, version]
        async with self._write() as db:
            cursor = await _run(db, sql, params)
            return cursor.rowcount == 1

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's record, from the log in its state (ValueError if that is damaged)."""
        row = await self._fetchone(QUERIES["moves"], (game_id,))
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
        query = "games_of_user" if include_finished else "active_games_of_user"
        rows = await self._fetchall(QUERIES[query], (guild_id, user_id, _limit(limit)))
        return [GameRow.from_row(row) for row in rows]

    async def game_in_thread(self, guild_id: int, thread_id: int) -> GameRow | None:
        row = await self._fetchone(QUERIES["game_in_thread"], (guild_id, thread_id))
        return GameRow.from_row(row) if row else None

    async def games_to_remind(self, now: float) -> list[GameRow]:
        rows = await self._fetchall(QUERIES["games_to_remind"], (now,))
        return [GameRow.from_row(row) for row in rows]

    async def games_claimable(self, now: float) -> list[GameRow]:
        rows = await self._fetchall(QUERIES["games_claimable"], (now,))
        return [GameRow.from_row(row) for row in rows]

    async def games_timed_out(self, now: float) -> list[GameRow]:
        rows = await self._fetchall(QUERIES["games_timed_out"], (now,))
        return [GameRow.from_row(row) for row in rows]

    # ---- server settings and vacations ------------------------------------------

    async def guild_settings(self, guild_id: int) -> str | None:
        """The server's settings (JSON), or None when it never changed them."""
        row = await self._fetchone(QUERIES["guild_settings"], (guild_id,))
        return row[0] if row else None

    async def put_guild_settings(
        self, guild_id: int, settings: str, *, now: float, user_id: int
    ) -> None:
        async with self._write() as db:
            await _run(
                db,
                "INSERT INTO guild_settings (guild_id, settings, updated_at, updated_by)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " settings = excluded.settings, updated_at = excluded.updated_at,"
                " updated_by = excluded.updated_by",
                (guild_id, settings, now, user_id),
            )

    async def vacation(self, guild_id: int, user_id: int, year: int) -> VacationRow | None:
        row = await self._fetchone(QUERIES["vacation"], (guild_id, user_id, year))
        return VacationRow.from_row(row) if row else None

    async def active_vacation(self, guild_id: int, user_id: int, now: float) -> VacationRow | None:
        row = await self._fetchone(QUERIES["active_vacation"], (guild_id, user_id, now))
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
            await _run(
                db,
                "INSERT OR IGNORE INTO vacations (guild_id, user_id, year, used)"
                " VALUES (?, ?, ?, 0)",
                (guild_id, user_id, year),
            )
            cursor = await _run(
                db,
                "UPDATE vacations SET used = used + ?, started_at = ?, until = ?"
                " WHERE guild_id = ? AND user_id = ? AND year = ? AND used + ? <= ?"
                " AND (until IS NULL OR until <= ?)",
                (days, now, until, guild_id, user_id, year, days, allowance, now),
            )
            return cursor.rowcount == 1

    async def end_vacation(
        self, guild_id: int, user_id: int, year: int, *, until: float, now: float, refund: int
    ) -> bool:
        """End the vacation running until ``until`` at ``now``, giving back ``refund`` days."""
        async with self._write() as db:
            cursor = await _run(
                db,
                "UPDATE vacations SET used = MAX(0, used - ?), until = ?"
                " WHERE guild_id = ? AND user_id = ? AND year = ? AND until = ?",
                (refund, now, guild_id, user_id, year, until),
            )
            return cursor.rowcount == 1

    async def query_plan(self, name: str, params: Sequence[Any]) -> list[str]:
        """``EXPLAIN QUERY PLAN`` of one of ``QUERIES``: one line per step."""
        rows = await self._fetchall(f"EXPLAIN QUERY PLAN {QUERIES[name]}", params)
        return [row["detail"] for row in rows]

    # ---- challenges ----------------------------------------------------------

    async def insert_challenge(self, **columns: Any) -> int:
        async with self._write() as db:
            return await _insert(db, "challenges", columns)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._fetchone(QUERIES["get_challenge"], (challenge_id,))
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
            where["accepted"] = _encode(tuple(expected_accepted))
        return await self._update_where("challenges", challenge_id, columns, where)

    async def accept_challenge(
        self, challenge_id: int, now: float, *, taken_by: int | None = None, **game_columns: Any
    ) -> int | None:
        """Create the game and mark the challenge accepted, atomically. ``taken_by``: the
        player who takes an open challenge (written as its opponent, only if it is still open).

        Returns the new game id, or None when the challenge is no longer pending or expired
        (or, open, was taken by someone else).
        """
        async with self._write() as db:
            game_id = await _insert(db, "games", _game_columns(game_columns))
            take = ", opponent_id = ?" if taken_by is not None else ""
            still_open = " AND opponent_id IS NULL" if taken_by is not None else ""
            taker = (taken_by,) if taken_by is not None else ()
            cursor = await _run(
                db,
                f"UPDATE challenges SET status = 'accepted', game_id = ?{take}"
                f" WHERE id = ? AND status = 'pending' AND expires_at > ?{still_open}",
                (game_id, *taker, challenge_id, now),
            )
            if cursor.rowcount != 1:
                raise _Rollback
            return game_id
        return None

    async def challenges_expired(self, now: float) -> list[ChallengeRow]:
        rows = await self._fetchall(QUERIES["challenges_expired"], (now,))
        return [ChallengeRow.from_row(row) for row in rows]

    async def insert_rematch(self, **columns: Any) -> int | None:
        """Insert a challenge with ``rematch_of``; None (nothing written) when that game
        already has a rematch pending or accepted (the unique index decides, atomically)."""
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        sql = (
            f"INSERT INTO challenges ({names}) VALUES ({marks}) ON CONFLICT DO NOTHING RETURNING id"
        )
        values = [_encode(value) for value in columns.values()]
        async with self._write() as db, db.execute(sql, values) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row[0])

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch of ``game_id`` that is pending or accepted, if any."""
        row = await self._fetchone(QUERIES["rematch_of"], (game_id,))
        return ChallengeRow.from_row(row) if row else None

    # ---- helpers -------------------------------------------------------------

    async def _update_where(
        self, table: str, row_id: int, columns: dict[str, Any], where: dict[str, Any]
    ) -> bool:
        if not columns:
            return await self._exists(table, row_id)
        assignments = ", ".join(f"{name} = ?" for name in columns)
        conditions = "".join(f" AND {name} = ?" for name in where)
        sql = f"UPDATE {table} SET {assignments} WHERE id = ?{conditions}"
        values = [_encode(value) for value in columns.values()]
        async with self._write() as db:
            cursor = await _run(db, sql, [*values, row_id, *where.values()])
            return cursor.rowcount == 1

    # ---- jobs (bot/domain/jobs.py) and shared values -----------------------------------------

    async def add_job(self, key: str, payload: str, now: float, owner: str, lease: float) -> bool:
        """A new job held by ``owner`` until ``now + lease``; False when ``key`` exists."""
        async with self._write() as db:
            cursor = await _run(
                db,
                "INSERT INTO jobs (key, payload, created_at, owner, lease_until)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                (key, payload, now, owner, now + lease),
            )
            return cursor.rowcount == 1

    async def take_jobs(
        self, owner: str, now: float, lease: float, limit: int, max_attempts: int
    ) -> list[tuple[str, str]]:
        """Take undone jobs whose lease ran out (their holder died or gave up): each is
        held by ``owner`` until ``now + lease``. One writer at a time (BEGIN IMMEDIATE), so
        two processes never take the same job."""
        async with (
            self._write() as db,
            db.execute(
                "UPDATE jobs SET owner = ?, lease_until = ?, attempts = attempts + 1"
                " WHERE key IN (SELECT key FROM jobs WHERE done_at IS NULL AND lease_until <= ?"
                " AND attempts < ? ORDER BY lease_until LIMIT ?) RETURNING key, payload",
                (owner, now + lease, now, max_attempts, limit),
            ) as cursor,
        ):
            return [(row[0], row[1]) for row in await cursor.fetchall()]

    async def claim_job(self, key: str, now: float, owner: str, lease: float) -> bool:
        """Hold ``key`` until ``now + lease``: True when nobody held it, or its holder's
        lease ran out, or ``owner`` held it already. A claim is a job the outbox never sends
        (done from the start: ``take_jobs`` skips it, ``purge_jobs`` forgets it)."""
        async with self._write() as db:
            cursor = await _run(
                db,
                "INSERT INTO jobs (key, payload, created_at, owner, lease_until, done_at)"
                " VALUES (?, '{}', ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE"
                " SET owner = excluded.owner, lease_until = excluded.lease_until,"
                " attempts = jobs.attempts + 1, done_at = excluded.done_at"
                " WHERE jobs.lease_until <= excluded.created_at OR jobs.owner = excluded.owner",
                (key, now, owner, now + lease, now),
            )
            return cursor.rowcount == 1

    async def finish_job(self, key: str, now: float) -> None:
        async with self._write() as db:
            await _run(
                db, "UPDATE jobs SET done_at = ? WHERE key = ? AND done_at IS NULL", (now, key)
            )

    async def purge_jobs(self, before: float) -> int:
        """Forget jobs done before ``before``."""
        async with self._write() as db:
            cursor = await _run(db, "DELETE FROM jobs WHERE done_at < ?", (before,))
            return cursor.rowcount

    async def get_value(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM bot_values WHERE key = ?", (key,))
        return None if row is None else row[0]

    async def put_value(self, key: str, value: str, now: float) -> None:
        async with self._write() as db:
            await _run(
                db,
                "INSERT INTO bot_values (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at",
                (key, value, now),
            )

    async def _exists(self, table: str, row_id: int) -> bool:
        return await self._fetchone(f"SELECT 1 FROM {table} WHERE id = ?", (row_id,)) is not None


async def migrate(db: aiosqlite.Connection, migrations: Sequence[str] = MIGRATIONS) -> int:
    """Apply the migrations past ``PRAGMA user_version``; migration N sets it to N."""
    if await _user_version(db) >= len(migrations):
        return await _user_version(db)
    for number, script in enumerate(migrations, start=1):
        try:
            await _run(db, "BEGIN IMMEDIATE")
            # Re-read inside the write lock: another process may have migrated meanwhile.
            if await _user_version(db) < number:
                for statement in split_sql(script):
                    await _run(db, statement)
                await _run(db, f"PRAGMA user_version = {number:d}")
        except BaseException:
            await _rollback(db)
            raise
        await _run(db, "COMMIT")
    return await _user_version(db)


def _is_file(path: str) -> bool:
    """False for SQLite's special names: in-memory and temporary databases, URIs."""
    return path not in ("", ":memory:") and not path.startswith("file:")


def _check_path(path: str) -> None:
    """Refuse, with one line, a database the bot could not write (before SQLite tries)."""
    if not _is_file(path):
        return
    file = Path(path)
    folder = file.parent
    if not folder.is_dir():
        raise StoreError(f"cannot open the database {path}: the folder {folder} does not exist")
    if file.is_dir():
        raise StoreError(f"cannot open the database {path}: it is a folder, not a file")
    # The write bits too: root may write any file, but a file made read-only on purpose
    # (chmod a-w, a backup mounted for reading) must not be changed behind its owner.
    if file.exists() and (
        not os.access(file, os.R_OK | os.W_OK) or not file.stat().st_mode & 0o222
    ):
        raise StoreError(f"the database {path} is read-only: the bot must be able to write it")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(
            f"cannot use the database {path}: the folder {folder} is not writable"
            " (SQLite keeps its write-ahead log beside the file)"
        )


async def _configure(db: aiosqlite.Connection, path: str, synchronous: str) -> None:
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
    try:
        await _run(db, "PRAGMA busy_timeout = 5000")
        async with db.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        await _run(db, f"PRAGMA synchronous = {synchronous.upper()}")
        await _run(db, "PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise StoreError(f"{path} is not an SQLite database (IDZEVA_DB names it)") from error
        raise StoreError(f"cannot open the database {path}: {error}") from error
    mode = str(row[0]).lower() if row else "unknown"
    if _is_file(path) and mode != "wal":
        raise StoreError(f"cannot use the database {path}: it stays in {mode} journal mode")


async def _open_reader(path: str) -> aiosqlite.Connection:
    """The reading connection: query_only, so that no statement can write through it."""
    try:
        reader = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open the database {path}: {error}") from error
    try:
        reader.row_factory = sqlite3.Row
        await _run(reader, "PRAGMA busy_timeout = 5000")
        await _run(reader, "PRAGMA query_only = ON")
    except BaseException:
        await reader.close()
        raise
    return reader


async def _quick_check(db: aiosqlite.Connection, path: str) -> None:
    """``PRAGMA quick_check``: the structure of every page, in about the time of a read."""
    try:
        async with db.execute("PRAGMA quick_check") as cursor:
            rows = [str(row[0]) for row in await cursor.fetchall()]
    except sqlite3.DatabaseError as error:
        rows = [str(error)]
    if rows == ["ok"]:
        return
    lines = [line for row in rows for line in row.splitlines() if not line.startswith("***")]
    first = lines[0] if lines else "no answer"
    raise StoreError(
        f"the database {path} is damaged (quick_check: {first}): restore it from a backup"
    )


async def _upgrade(db: aiosqlite.Connection, path: str, migrations: Sequence[str]) -> bool:
    """Migrate; then, when the upgrade freed most of the file (schema 3 dropped the copy of
    every move), give the space back at once. True when the upgrade reached
    ``RATED_SINCE``: the games already finished are to be rated (``rate_finished``)."""
    try:
        before = await _user_version(db)
        if before > len(migrations):
            raise StoreError(
                f"the database {path} has schema version {before}, newer than this bot's"
                f" {len(migrations)}: run the newer bot"
            )
        after = await migrate(db, migrations)
        if before < COMPRESSED_SINCE <= after:
            await _compress_states(db)
        to_rate = before < RATED_SINCE <= after
        if after == before or not _is_file(path):
            return to_rate
        async with db.execute("PRAGMA freelist_count") as cursor:
            free = (await cursor.fetchone())[0]
        async with db.execute("PRAGMA page_count") as cursor:
            pages = (await cursor.fetchone())[0]
    except sqlite3.Error as error:
        raise StoreError(
            f"cannot upgrade the database {path} to schema version {len(migrations)}: {error}"
        ) from error
    if free * 2 > pages:
        try:
            await _run(db, "VACUUM")
        except sqlite3.Error as error:  # e.g. no room for the copy: the file stays as it is
            log.warning("database %s upgraded; VACUUM failed: %s", path, error)
    return to_rate


COMPRESSED_SINCE = 3  # the schema version from which states are written compressed


async def _compress_states(db: aiosqlite.Connection, batch: int = 500) -> int:
    """Compress the states stored as text, a batch per transaction (an interrupted upgrade
    leaves text states, which read as well). Returns how many were compressed."""
    done, last = 0, 0
    while True:
        await _run(db, "BEGIN IMMEDIATE")
        try:
            async with db.execute(
                "SELECT id, state FROM games WHERE id > ? AND typeof(state) = 'text'"
                " ORDER BY id LIMIT ?",
                (last, batch),
            ) as cursor:
                rows = list(await cursor.fetchall())
            await db.executemany(
                "UPDATE games SET state = ? WHERE id = ?",
                [(encode_state(row[1]), row[0]) for row in rows],
            )
        except BaseException:
            await _rollback(db)
            raise
        await _run(db, "COMMIT")
        if not rows:
            return done
        done += len(rows)
        last = rows[-1][0]


def split_sql(script: str) -> list[str]:
    """Split a script into complete statements (sqlite3.complete_statement decides)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buffer.strip()[:60]!r}")
    return statements


async def _run(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
    """Execute one statement and close its cursor at once.

    An unclosed cursor (even of a PRAGMA that returns a row) keeps its statement "in
    progress", and COMMIT then fails; closing explicitly does not depend on when Python
    happens to collect the cursor. Returns the closed cursor for rowcount/lastrowid.
    """
    async with db.execute(sql, params) as cursor:
        return cursor


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back if a transaction is open (BEGIN itself may have failed or been cancelled)."""
    with contextlib.suppress(sqlite3.OperationalError):  # no transaction is active
        await _run(db, "ROLLBACK")


async def _user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def _insert(db: aiosqlite.Connection, table: str, columns: dict[str, Any]) -> int:
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    values = [_encode(value) for value in columns.values()]
    cursor = await _run(db, f"INSERT INTO {table} ({names}) VALUES ({marks})", values)
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _encode(value: Any) -> Any:
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


def _limit(limit: int | None) -> int:
    """SQLite reads a negative LIMIT as no limit."""
    if limit is None:
        return -1
    if limit < 0:
        raise ValueError(f"limit must not be negative, not {limit}")
    return limit


# ---- ratings ------------------------------------------------------------------------

STANDING_COLUMNS = (
    "guild_id, user_id, game, mu, sigma, score, games, wins, draws, losses, streak,"
    " best_streak, updated_at"
)
CHANGE_COLUMNS = (
    "game_id, user_id, guild_id, game, outcome, mu_before, sigma_before, mu, sigma, finished_at"
)


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


def _standing(row: Any) -> Standing:
    return Standing(**known_columns(Standing, row))


def _change(row: Any) -> Change:
    return Change(**known_columns(Change, row))


async def _rate(db: aiosqlite.Connection, job: RatingJob) -> bool:
    """Inside a write transaction: read the players' standings, rate, write. False (nothing
    written) when the game is rated already."""
    async with db.execute(
        "SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (job.game_id,)
    ) as cursor:
        if await cursor.fetchone() is not None:
            return False
    marks = ", ".join("?" for _ in job.people)
    async with db.execute(
        f"SELECT * FROM ratings WHERE guild_id = ? AND user_id IN ({marks}) AND game IN (?, ?)",
        (job.guild_id, *job.people, job.game, TOTAL),
    ) as cursor:
        current = {(row["game"], row["user_id"]): _standing(row) for row in await cursor.fetchall()}
    standings, changes = job.compute(current)
    await db.executemany(
        f"INSERT OR REPLACE INTO ratings ({STANDING_COLUMNS}) VALUES ({', '.join('?' * 13)})",
        [standing_values(s) for s in standings],
    )
    await db.executemany(
        f"INSERT INTO rating_history ({CHANGE_COLUMNS}) VALUES ({', '.join('?' * 10)})",
        [change_values(c) for c in changes],
    )
    return True


async def rate_finished(store: Any, batch: int = 500) -> int:
    """Rate the games already finished, in the order they ended (the upgrade to
    ``RATED_SINCE``; either store), a batch per transaction. A game rated already is skipped.
    Returns how many were rated."""
    done, after = 0, (float("-inf"), 0)
    while rows := await store.finished_games(after, batch):
        jobs = [job_from_state(row, row.state, row.updated_at) for row in rows]
        done += await store.rate_games([job for job in jobs if job is not None])
        after = (rows[-1].updated_at, rows[-1].id)
    return done
