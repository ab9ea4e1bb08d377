"""Which store ``IDZEVA_DB`` names, and the interface both stores offer the service.

- ``postgresql://...`` (or ``postgres://...``): ``PostgresStore`` (bot/storage/postgres.py, asyncpg:
  ``pip install 'idzeva[postgres]'``), for several processes sharing one database.
- a path, ``:memory:`` or ``sqlite:///path``: ``Store`` (bot/storage/sqlite.py), the default.

Both are ``SqlStore`` (bot/storage/sql.py: every query and method, written once); the backend
modules hold their connections, transactions and upgrades. The schema is one numbered list,
bot/storage/migrations.py. What the store returns: bot/storage/rows.py and, for ratings,
bot/storage/rating_model.py. The package imports nothing above it (``bot.domain``, cogs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bot.storage.rating_model import Change, RatingJob, Standing
from bot.storage.rows import (
    AnalysisRow,
    ChallengeRow,
    GameEvent,
    GameRow,
    LearnRow,
    MoveRow,
    NotifyRow,
    StoreError,
    VacationRow,
)
from bot.storage.sqlite import Store
from bot.storage.tournament_rows import BoardRow, EntryRow, TournamentRow
from games.base import LogEntry

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


class GameStore(Protocol):
    """What the service and the bot use of a store (``Store`` and ``PostgresStore``)."""

    async def close(self) -> None: ...

    async def insert_game(self, **columns: Any) -> int: ...

    async def get_game(self, game_id: int) -> GameRow | None: ...

    async def game_version(self, game_id: int) -> tuple[int, int] | None: ...

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        new_log_entries: Iterable[tuple[int, LogEntry]] = (),
        events: Iterable[GameEvent] = (),
        ratings: RatingJob | None = None,
        **columns: Any,
    ) -> bool: ...

    async def add_game_events(
        self, game_id: int, expected_version: int, events: Iterable[GameEvent]
    ) -> bool: ...

    async def game_events(self, game_id: int) -> list[GameEvent]: ...

    async def notify_pref(self, guild_id: int, user_id: int) -> NotifyRow | None: ...

    async def set_notify_pref(self, guild_id: int, user_id: int, **columns: Any) -> None: ...

    async def mark_dm_failed(self, guild_id: int, user_id: int) -> bool: ...

    async def digests_due(self, now: int) -> list[NotifyRow]: ...

    async def mark_digest_sent(
        self, guild_id: int, user_id: int, due: int, following: int
    ) -> bool: ...

    # Ratings (bot/domain/ratings.py): written with a game's final move; read by /game stats and
    # /game leaderboard.
    async def rate_game(self, job: RatingJob) -> bool: ...

    async def rate_games(self, jobs: Sequence[RatingJob]) -> int: ...

    async def rating_changes(self, game_id: int) -> list[Change]: ...

    async def standings_of_user(self, guild_id: int, user_id: int) -> list[Standing]: ...

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[Standing]: ...

    async def leaderboard_place(self, standing: Standing, min_games: int) -> int: ...

    async def leaderboard_counts(
        self, guild_id: int, game: str, min_games: int
    ) -> tuple[int, int]: ...

    async def guild_standings(self, guild_id: int) -> list[Standing]: ...

    async def overall_top(self, guild_id: int, min_games: int, limit: int) -> list[Standing]: ...

    async def overall_place(self, best: Standing, min_games: int) -> int: ...

    async def overall_counts(self, guild_id: int, min_games: int) -> tuple[int, int]: ...

    async def recent_changes(
        self, guild_id: int, user_id: int, game: str | None, limit: int
    ) -> list[tuple[Change, tuple[int, int | None, int | None]]]: ...

    async def rating_points(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[tuple[float, float]]: ...

    async def rating_since(
        self, guild_id: int, user_id: int, game: str, since: float
    ) -> float | None: ...

    async def ratings_since(
        self, guild_id: int, user_id: int, since: float
    ) -> dict[str, float]: ...

    async def finished_games(self, after: tuple[float, int], limit: int) -> list[GameRow]: ...

    async def set_game_fields(self, game_id: int, **columns: Any) -> bool: ...

    async def mark_notified(self, game_id: int, version: int, flag: str) -> bool: ...

    async def moves(self, game_id: int) -> list[MoveRow]: ...

    async def games_of_user(
        self,
        guild_id: int,
        user_id: int,
        *,
        include_finished: bool = False,
        limit: int | None = None,
    ) -> list[GameRow]: ...

    async def game_in_thread(self, guild_id: int, thread_id: int) -> GameRow | None: ...

    async def games_to_remind(self, now: float) -> list[GameRow]: ...

    async def games_claimable(self, now: float) -> list[GameRow]: ...

    async def games_timed_out(self, now: float) -> list[GameRow]: ...

    async def mark_reminded(
        self, game_id: int, version: int, sent: int, now_sent: int, next_at: float | None
    ) -> bool: ...

    async def shift_clock(
        self, game_id: int, version: int, delta: float, paused_until: float | None
    ) -> bool: ...

    async def guild_settings(self, guild_id: int) -> str | None: ...

    async def put_guild_settings(
        self, guild_id: int, settings: str, *, now: float, user_id: int
    ) -> None: ...

    async def vacation(self, guild_id: int, user_id: int, year: int) -> VacationRow | None: ...

    async def active_vacation(
        self, guild_id: int, user_id: int, now: float
    ) -> VacationRow | None: ...

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
    ) -> bool: ...

    async def end_vacation(
        self, guild_id: int, user_id: int, year: int, *, until: float, now: float, refund: int
    ) -> bool: ...

    async def query_plan(self, name: str, params: Sequence[Any]) -> list[str]: ...

    async def insert_challenge(self, **columns: Any) -> int: ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...

    async def update_challenge(
        self,
        challenge_id: int,
        *,
        expected_status: str | None = None,
        expected_accepted: Sequence[int] | None = None,
        **columns: Any,
    ) -> bool: ...

    async def accept_challenge(
        self, challenge_id: int, now: float, *, taken_by: int | None = None, **game_columns: Any
    ) -> int | None: ...

    async def challenges_expired(self, now: float) -> list[ChallengeRow]: ...

    # Once-only work shared by several processes (bot/domain/jobs.py) and small shared values.
    async def add_job(
        self, key: str, payload: str, now: float, owner: str, lease: float
    ) -> bool: ...

    async def take_jobs(
        self, owner: str, now: float, lease: float, limit: int, max_attempts: int
    ) -> list[tuple[str, str]]: ...

    async def take_named_jobs(
        self, keys: Sequence[str], owner: str, now: float, lease: float
    ) -> list[tuple[str, str]]: ...

    async def claim_job(self, key: str, now: float, owner: str, lease: float) -> bool: ...

    async def finish_job(self, key: str, now: float) -> None: ...

    async def purge_jobs(self, before: float) -> int: ...

    async def get_value(self, key: str) -> str | None: ...

    async def put_value(self, key: str, value: str, now: float) -> None: ...

    async def put_value_once(self, key: str, value: str, now: float) -> str: ...

    # Post-game analyses (bot/domain/analysis.py): progress and result, per game.
    async def get_analysis(self, game_id: int) -> AnalysisRow | None: ...

    async def put_analysis(
        self, game_id: int, judged: str, done: int, total: int, result: str | None, now: float
    ) -> None: ...

    async def mark_analysis_posted(self, game_id: int, now: float) -> bool: ...

    async def insert_rematch(self, **columns: Any) -> int | None: ...

    async def rematch_of(self, game_id: int) -> ChallengeRow | None: ...

    async def put_player_name(self, guild_id: int, user_id: int, name: str, now: float) -> bool: ...

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]: ...

    async def learn_progress(self, user_id: int) -> list[LearnRow]: ...

    async def put_learn_progress(self, row: LearnRow, now: float) -> None: ...
    async def add_puzzle_answer(
        self, user_id: int, puzzle: str, solved: bool, now: float
    ) -> bool: ...

    async def puzzle_answers(self, user_id: int) -> list[tuple[str, bool, float]]: ...

    async def daily_puzzle_settings(self) -> list[tuple[int, str]]: ...

    async def add_server_puzzles(
        self, guild_id: int, game_id: int, puzzles: Sequence[tuple[int, str, str]], now: float
    ) -> int: ...

    async def server_puzzles(self, guild_id: int) -> list[tuple[int, int, str]]: ...

    async def server_puzzle(self, game_id: int, entry: int) -> tuple[int, str, str] | None: ...
    # Tournaments (bot/domain/tournaments/; bot/storage/tournament_store.py): events, sign-ups,
    # rounds written once, results.
    async def insert_tournament(self, **columns: Any) -> int: ...

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournaments_of_guild(
        self, guild_id: int, statuses: Sequence[str] = ("signup", "running"), limit: int = 25
    ) -> list[TournamentRow]: ...

    async def tournaments_to_start(self, now: float) -> list[TournamentRow]: ...

    async def tournaments_running(self) -> list[TournamentRow]: ...

    async def update_tournament(
        self, tournament_id: int, *, expected_status: str | None = None, **columns: Any
    ) -> bool: ...

    async def join_tournament(
        self, tournament_id: int, user_id: int, now: float, *, level: str | None = None
    ) -> bool: ...

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool: ...

    async def tournament_players(self, tournament_id: int) -> list[EntryRow]: ...

    async def open_tournaments_of_user(
        self, guild_id: int, user_id: int, kind: str | None = None
    ) -> list[TournamentRow]: ...

    async def finished_tournaments_of_user(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[TournamentRow]: ...

    async def withdraw_player(self, tournament_id: int, user_id: int) -> bool: ...

    async def start_tournament(
        self,
        tournament_id: int,
        seeds: Sequence[tuple[int, float]],
        rounds: int,
        boards: Iterable[BoardRow],
        now: float,
    ) -> bool: ...

    async def add_round(
        self, tournament_id: int, number: int, boards: Iterable[BoardRow], now: float
    ) -> bool: ...

    async def finish_tournament(
        self, tournament_id: int, last_round: int, now: float, status: str = "finished"
    ) -> bool: ...

    async def tournament_boards(
        self, tournament_id: int, round_number: int | None = None, *, from_round: int = 1
    ) -> list[BoardRow]: ...

    async def board_of_game(self, game_id: int) -> BoardRow | None: ...

    async def start_board_game(
        self, tournament_id: int, round_number: int, board: int, **game_columns: Any
    ) -> int | None: ...

    async def record_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        white_points: float,
        *,
        forfeit: bool = False,
    ) -> bool: ...

    async def boards_ended_unrecorded(self, limit: int = 100) -> list[tuple[BoardRow, str]]: ...


def is_postgres(url: str) -> bool:
    return url.strip().lower().startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str) -> str:
    """The file an SQLite ``IDZEVA_DB`` names: ``sqlite:///rel.db`` is ``rel.db``,
    ``sqlite:////abs/x.db`` is ``/abs/x.db``; anything else is a path already."""
    url = url.strip()
    if url.lower().startswith(SQLITE_SCHEME):
        return url[len(SQLITE_SCHEME) :] or ":memory:"
    if "://" in url:
        scheme = url.split("://", 1)[0]
        raise StoreError(
            f"IDZEVA_DB names an unknown kind of database ({scheme}://): use a file path,"
            " sqlite:///path or postgresql://..."
        )
    return url


async def open_store(url: str, *, check: bool = False) -> GameStore:
    """Open (creating or upgrading) the store ``url`` names; ``StoreError`` says what is
    wrong, in one line."""
    if is_postgres(url):
        try:
            from bot.storage.postgres import PostgresStore
        except ImportError as error:
            raise StoreError(
                "IDZEVA_DB names a PostgreSQL database, which needs asyncpg:"
                " pip install 'idzeva[postgres]'"
            ) from error
        return await PostgresStore.open(url.strip(), check=check)
    return await Store.open(sqlite_path(url), check=check)
