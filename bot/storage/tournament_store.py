"""The store's tournaments (migration 13), written once for SQLite and PostgreSQL: a part
of ``SqlStore`` (bot/storage/sql.py), on its connections.

What makes a round paired once, whatever the processes: a round's boards are written in the
transaction that moves the event's ``round`` on, compare-and-set (``add_round``); a game is
started for a board in the transaction that sets the board's ``game_id`` if it has none
(``start_board_game``); a result is written only over no result (``record_result``).

A sign-up, a sign-up taken back, a withdrawal and a result each move the event's ``version``
on in the transaction that writes them: with its status and round, it says whether a table
computed earlier still stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.storage.tournament_rows import (
    BOARD_COLUMNS,
    ENTRY_COLUMNS,
    RUNNING,
    SIGNUP,
    BoardRow,
    EntryRow,
    TournamentRow,
)

TOURNAMENT_COLUMNS = frozenset(["message_id", "status", "rounds", "updated_at", "starts_at"])
OPEN = (SIGNUP, RUNNING)


class TournamentStore:
    """Mixed into ``SqlStore``: uses its ``_read``, ``_write``, ``_statement``, ``dialect``."""

    def _read(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    def _statement(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _insert(self, db: Any, table: str, columns: dict[str, Any]) -> int:
        """Insert one row (lists and dicts as JSON, a game's state compressed); its id."""
        raise NotImplementedError

    async def insert_tournament(self, **columns: Any) -> int:
        async with self._statement() as db:
            return await self._insert(db, "tournaments", columns)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        async with self._read() as db:
            row = await db.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return TournamentRow.from_row(row) if row else None

    async def tournaments_of_guild(
        self, guild_id: int, statuses: Sequence[str] = OPEN, limit: int = 25
    ) -> list[TournamentRow]:
        """The server's events in those statuses, newest first."""
        marks = ", ".join("?" for _ in statuses)
        async with self._read() as db:
            rows = await db.fetchall(
                f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks})"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, *statuses, limit),
            )
        return [TournamentRow.from_row(row) for row in rows]

    async def tournaments_to_start(self, now: float) -> list[TournamentRow]:
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT * FROM tournaments WHERE status = 'signup' AND starts_at <= ?"
                " ORDER BY starts_at",
                (now,),
            )
        return [TournamentRow.from_row(row) for row in rows]

    async def tournaments_running(self) -> list[TournamentRow]:
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT * FROM tournaments WHERE status = 'running' ORDER BY id"
            )
        return [TournamentRow.from_row(row) for row in rows]

    async def update_tournament(
        self, tournament_id: int, *, expected_status: str | None = None, **columns: Any
    ) -> bool:
        """Set ``columns``; with ``expected_status``, only if the status is still that."""
        unknown = set(columns) - TOURNAMENT_COLUMNS
        if unknown or not columns:
            raise ValueError(f"cannot set column(s) {sorted(unknown)}")
        sets = ", ".join(f"{name} = ?" for name in columns)
        where = " AND status = ?" if expected_status is not None else ""
        params = [*columns.values(), tournament_id]
        params += [expected_status] if expected_status is not None else []
        async with self._statement() as db:
            return (
                await db.execute(f"UPDATE tournaments SET {sets} WHERE id = ?{where}", params) == 1
            )

    # ---- sign-ups --------------------------------------------------------------------

    async def join_tournament(
        self, tournament_id: int, user_id: int, now: float, *, level: str | None = None
    ) -> bool:
        """Sign ``user_id`` up, in one transaction holding the event: only while it signs
        up, under its ``max_players``, and once. False when nothing was written."""
        async with self._write() as db:
            event = await db.fetchone(
                "SELECT max_players FROM tournaments WHERE id = ? AND status = 'signup'"
                f"{self.dialect.for_update}",  # type: ignore[attr-defined]
                (tournament_id,),
            )
            if event is None:
                return False
            if event[0] is not None:
                count = await db.fetchone(
                    "SELECT COUNT(*) FROM tournament_players WHERE tournament_id = ?",
                    (tournament_id,),
                )
                if count is not None and count[0] >= event[0]:
                    return False
            joined = await db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, joined_at, level)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (tournament_id, user_id, now, level),
            )
            return await _changed(db, tournament_id, joined)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Take back a sign-up, while the event signs up."""
        async with self._write() as db:
            left = await db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?"
                " AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup')",
                (tournament_id, user_id, tournament_id),
            )
            return await _changed(db, tournament_id, left)

    async def tournament_players(self, tournament_id: int) -> list[EntryRow]:
        """The sign-ups in the order they came."""
        async with self._read() as db:
            rows = await db.fetchall(
                f"SELECT {ENTRY_COLUMNS} FROM tournament_players WHERE tournament_id = ?"
                " ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        return [EntryRow.from_row(row) for row in rows]

    async def open_tournaments_of_user(
        self, guild_id: int, user_id: int, kind: str | None = None
    ) -> list[TournamentRow]:
        """The events here, signing up or running, that the player is in (and has not left)."""
        game = " AND tournaments.kind = ?" if kind is not None else ""
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT tournaments.* FROM tournament_players JOIN tournaments"
                " ON tournaments.id = tournament_players.tournament_id"
                " WHERE tournament_players.user_id = ? AND tournament_players.withdrawn = 0"
                " AND tournaments.guild_id = ? AND tournaments.status IN ('signup', 'running')"
                f"{game} ORDER BY tournaments.id",
                (user_id, guild_id, *([kind] if kind is not None else [])),
            )
        return [TournamentRow.from_row(row) for row in rows]

    async def finished_tournaments_of_user(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[TournamentRow]:
        """The events here that the player played to their end, the latest first."""
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT tournaments.* FROM tournament_players JOIN tournaments"
                " ON tournaments.id = tournament_players.tournament_id"
                " WHERE tournament_players.user_id = ? AND tournaments.guild_id = ?"
                " AND tournaments.status = 'finished'"
                " ORDER BY tournaments.updated_at DESC, tournaments.id DESC LIMIT ?",
                (user_id, guild_id, limit),
            )
        return [TournamentRow.from_row(row) for row in rows]

    async def withdraw_player(self, tournament_id: int, user_id: int) -> bool:
        async with self._write() as db:
            withdrawn = await db.execute(
                "UPDATE tournament_players SET withdrawn = 1"
                " WHERE tournament_id = ? AND user_id = ? AND withdrawn = 0",
                (tournament_id, user_id),
            )
            return await _changed(db, tournament_id, withdrawn)

    # ---- rounds ----------------------------------------------------------------------

    async def start_tournament(
        self,
        tournament_id: int,
        seeds: Sequence[tuple[int, float]],
        rounds: int,
        boards: Iterable[BoardRow],
        now: float,
    ) -> bool:
        """Signing up -> running at round 1: each player's seed rating, the rounds planned
        and round 1's boards, in one transaction; False when it was not signing up."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournaments SET status = 'running', round = 1, rounds = ?,"
                " updated_at = ? WHERE id = ? AND status = 'signup' AND round = 0",
                (rounds, now, tournament_id),
            )
            if changed != 1:
                return False
            await db.executemany(
                "UPDATE tournament_players SET rating = ? WHERE tournament_id = ? AND user_id = ?",
                [(rating, tournament_id, user) for user, rating in seeds],
            )
            await _insert_boards(db, boards)
            return True

    async def add_round(
        self, tournament_id: int, number: int, boards: Iterable[BoardRow], now: float
    ) -> bool:
        """Round ``number``'s boards, written with the event moving on to it from the round
        before (compare-and-set): False, nothing written, when another process did it."""
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE tournaments SET round = ?, updated_at = ?"
                " WHERE id = ? AND status = 'running' AND round = ?",
                (number, now, tournament_id, number - 1),
            )
            if changed != 1:
                return False
            await _insert_boards(db, boards)
            return True

    async def finish_tournament(
        self, tournament_id: int, last_round: int, now: float, status: str = "finished"
    ) -> bool:
        """Running (at ``last_round``) -> finished, once."""
        async with self._statement() as db:
            return (
                await db.execute(
                    "UPDATE tournaments SET status = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'running' AND round = ?",
                    (status, now, tournament_id, last_round),
                )
                == 1
            )

    async def tournament_boards(
        self, tournament_id: int, round_number: int | None = None, *, from_round: int = 1
    ) -> list[BoardRow]:
        """Every board of the event (or of one round, or of the rounds from ``from_round``
        on), in round and board order."""
        which = " AND round = ?" if round_number is not None else " AND round >= ?"
        async with self._read() as db:
            rows = await db.fetchall(
                f"SELECT {BOARD_COLUMNS} FROM tournament_games WHERE tournament_id = ?{which}"
                " ORDER BY round, board",
                (tournament_id, from_round if round_number is None else round_number),
            )
        return [BoardRow.from_row(row) for row in rows]

    async def board_of_game(self, game_id: int) -> BoardRow | None:
        async with self._read() as db:
            row = await db.fetchone(
                f"SELECT {BOARD_COLUMNS} FROM tournament_games WHERE game_id = ?", (game_id,)
            )
        return BoardRow.from_row(row) if row else None

    async def start_board_game(
        self, tournament_id: int, round_number: int, board: int, **game_columns: Any
    ) -> int | None:
        """Insert the board's game and set its ``game_id``, in one transaction, if it has
        none yet; the new game's id, or None (started already)."""
        async with self._write() as db:
            free = await db.fetchone(
                "SELECT 1 FROM tournament_games WHERE tournament_id = ? AND round = ?"
                " AND board = ? AND game_id IS NULL AND white_points IS NULL"
                f"{self.dialect.for_update}",  # type: ignore[attr-defined]
                (tournament_id, round_number, board),
            )
            if free is None:
                return None
            game_id = await self._insert(db, "games", game_columns)
            await db.execute(
                "UPDATE tournament_games SET game_id = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ?",
                (game_id, tournament_id, round_number, board),
            )
            return game_id

    async def record_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        white_points: float,
        *,
        forfeit: bool = False,
    ) -> bool:
        """The board's result, written once (over no result)."""
        async with self._write() as db:
            written = await db.execute(
                "UPDATE tournament_games SET white_points = ?, forfeit = ?"
                " WHERE tournament_id = ? AND round = ? AND board = ? AND white_points IS NULL",
                (white_points, int(forfeit), tournament_id, round_number, board),
            )
            return await _changed(db, tournament_id, written)

    async def boards_ended_unrecorded(self, limit: int = 100) -> list[tuple[BoardRow, str]]:
        """Boards whose game has finished but whose result is not written yet (a process
        stopped in between), with the game's ``result``."""
        async with self._read() as db:
            rows = await db.fetchall(
                f"SELECT {', '.join('tournament_games.' + c for c in BOARD_COLUMNS.split(', '))},"
                " games.result AS game_result FROM tournament_games"
                " JOIN games ON games.id = tournament_games.game_id"
                " WHERE tournament_games.white_points IS NULL AND games.status = 'finished'"
                " LIMIT ?",
                (limit,),
            )
        return [(BoardRow.from_row(row), row["game_result"]) for row in rows]


async def _changed(db: Any, tournament_id: int, rows_written: int) -> bool:
    """Whether one row was written; if so the event's version moves on, in the same
    transaction."""
    if rows_written != 1:
        return False
    await db.execute("UPDATE tournaments SET version = version + 1 WHERE id = ?", (tournament_id,))
    return True


async def _insert_boards(db: Any, boards: Iterable[BoardRow]) -> None:
    marks = ", ".join("?" for _ in BOARD_COLUMNS.split(", "))
    await db.executemany(
        f"INSERT INTO tournament_games ({BOARD_COLUMNS}) VALUES ({marks})",
        [board.values() for board in boards],
    )
