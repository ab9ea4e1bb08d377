"""Tournaments in a server, as the service runs them: sign-ups, rounds, games, results.

- ``create``: anyone the server's settings allow (``ServerSettings.tournament_role``);
  ``join`` / ``leave`` while the event signs up (one open event per game and player);
  ``add_bot``: the organiser enters the bot at a level; ``start``: the organiser, a member
  with Manage Server, or the clock at ``starts_at``.
- Every game of a round starts at once (``_start_games``), with the event's time per move
  and its name and round in the game's options (the board shows them). A game that ends
  writes its board's result (``game_over``, called by the service whenever a game ends, and
  by ``tick`` for a result a stopped process did not write). When the last result of a
  round is written, the next round is paired and written (``_advance``): once, because the
  store writes a round with the event's move to it, compare-and-set, and the pairing itself
  is claimed in the outbox (bot/domain/jobs.py) so two processes do not both compute it.
- What the channel is told (the round's pairings with mentions, each new game's board, the
  final table's winner) are jobs of the outbox written due now: the next tick of any
  process posts each once (the cog asks for one at once after a command or a move).
- ``withdraw``: the player's running game is resigned, their later round-robin games are
  forfeits, Swiss stops pairing them, a knockout passes them over; ``cancel``: the
  organiser or Manage Server.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import unicodedata
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from bot.config import Settings
from bot.domain import bot_seats, clocks
from bot.domain.actions import game_class_named, new_game
from bot.domain.jobs import Outbox
from bot.domain.server_settings import ServerSettings
from bot.domain.tournaments.knockout import bracket, stages_for
from bot.domain.tournaments.model import Bye, Entrant, NoPairing, Pairing, Result, records
from bot.domain.tournaments.round_robin import round_robin
from bot.domain.tournaments.standings import Standing, standings
from bot.domain.tournaments.swiss import default_rounds, pair_swiss
from bot.domain.views import NotAllowed, NotFound, Notice, ServiceError
from bot.storage import GameStore
from bot.storage.rating_model import rating_game
from bot.storage.tournament_rows import (
    CANCELLED,
    FINISHED,
    FORMATS,
    RUNNING,
    SIGNUP,
    BoardRow,
    EntryRow,
    TournamentRow,
)
from games import Game
from search import LEVELS

TOURNAMENT = "tournament"  # a game's option: {"id", "name", "round"}
NAME_LIMIT = 40
MOST_PLAYERS = 1000
MOST_SWISS_ROUNDS = 20
MOST_HOURS_AHEAD = 30 * 24
BYE_POINTS = {"swiss": 1.0}  # a round robin's rest is worth nothing
CYCLES = {"round-robin": 1, "double-round-robin": 2}
FORMAT_NAMES = {
    "round-robin": "round robin",
    "double-round-robin": "double round robin",
    "swiss": "Swiss",
    "knockout": "knockout",
}
MOST_ROUNDS_AT_ONCE = 50
TABLES_KEPT = 16  # events whose table is kept (the latest asked for)

RulesOf = Callable[[int], Awaitable[ServerSettings]]
TurnColumns = Callable[[int, dict[str, Any], int | None, float], Awaitable[dict[str, Any]]]
Resign = Callable[[int, int, int], Awaitable[Any]]  # (game, user, guild)


@dataclass(frozen=True)
class TournamentView:
    """An event as the cogs show it."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    name: str
    kind: str
    title: str  # the game's
    format: str
    status: str
    round: int
    rounds: int | None
    organiser_id: int
    players: tuple[int, ...]  # in the order they signed up
    withdrawn: tuple[int, ...]
    max_players: int | None
    starts_at: float | None
    time: int

    @property
    def format_name(self) -> str:
        return FORMAT_NAMES[self.format]

    def lines(self) -> list[str]:
        """The sign-up message's text."""
        state = {
            SIGNUP: "Signing up: press Join",
            RUNNING: f"Running: round {self.round}"
            + (f" of {self.rounds}" if self.rounds and self.format != "knockout" else ""),
            "finished": "Finished",
            CANCELLED: "Cancelled",
        }[self.status]
        limit = f" (at most {self.max_players})" if self.max_players else ""
        starts = f", starts <t:{int(self.starts_at)}:R>" if self.starts_at else ""
        who = ", ".join(f"<@{p}>" for p in self.players) or "nobody yet"
        return [
            f"**{self.name}**: {self.title}, {self.format_name}, "
            f"{clocks.describe(self.time)} per move",
            f"Organiser: <@{self.organiser_id}>{starts}. {state}.",
            f"Players ({len(self.players)}){limit}: {who}",
        ]


@dataclass(frozen=True)
class TableView:
    event: TournamentView
    rows: list[Standing]


@dataclass(frozen=True)
class KeptTable:
    """An event's table as computed for one state (status, round, version), and the results
    of the rounds that are over (``closed_round`` and before), which no longer change."""

    state: tuple[str, int, int]
    table: TableView
    closed_round: int
    results: tuple[Result, ...]
    byes: tuple[Bye, ...]


@dataclass(frozen=True)
class RoundView:
    event: TournamentView
    number: int
    boards: list[BoardRow]


class Tournaments:
    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        outbox: Outbox,
        settings: Settings,
        *,
        bot_user_id: int | None,
        rules_of: RulesOf,
        turn_columns: TurnColumns,
        resign: Resign,
    ):
        self._store = store
        self._clock = clock
        self._outbox = outbox
        self._settings = settings
        self.bot_user_id = bot_user_id
        self._rules_of = rules_of
        self._turn_columns = turn_columns
        self._resign = resign
        self._tables: dict[int, KeptTable] = {}

    # ---- sign-up -------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        kind: str,
        format: str,
        roles: Collection[int] = (),
        manager: bool = False,
        parent_channel_id: int | None = None,
        variants: Sequence[str] = (),
        rounds: int | None = None,
        time: Any = None,
        rated: bool = True,
        max_players: int | None = None,
        starts_in_hours: int | None = None,
        name: str | None = None,
    ) -> TournamentView:
        rules = await self._rules_of(guild_id)
        if not rules.may_create_tournaments(roles, manager):
            raise NotAllowed(
                f"Only members with <@&{rules.tournament_role}> (or Manage Server) create"
                " tournaments in this server."
            )
        refusal = rules.challenge_refusal(kind, (channel_id, parent_channel_id or channel_id))
        if refusal:
            raise NotAllowed(refusal.replace("Challenges are", "Tournaments are"))
        if format not in FORMATS:
            raise ServiceError(f"The format is one of {', '.join(FORMATS)}.")
        cls = game_class_named(kind)
        if 2 not in cls.seat_counts:
            raise ServiceError(f"{cls.title} has no two-player game.")
        chosen = tuple(sorted(set(variants)))
        new_game(cls, chosen, 2)  # the variants are checked
        if rounds is not None and format != "swiss":
            raise ServiceError("`rounds` is for Swiss events; the other formats' follow.")
        if rounds is not None and not 1 <= rounds <= MOST_SWISS_ROUNDS:
            raise ServiceError(f"A Swiss event has 1 to {MOST_SWISS_ROUNDS} rounds.")
        if max_players is not None and not 2 <= max_players <= MOST_PLAYERS:
            raise ServiceError(f"`max_players` is 2 to {MOST_PLAYERS:,}.")
        if starts_in_hours is not None and not 1 <= starts_in_hours <= MOST_HOURS_AHEAD:
            raise ServiceError(f"`starts` is 1 to {MOST_HOURS_AHEAD} hours from now.")
        try:
            seconds = (
                clocks.parse_time(time)
                if time is not None
                else int(rules.time or self._settings.claim_after)
            )
        except clocks.ClockError as error:
            raise ServiceError(str(error)) from None
        title = tidy_name(name) or f"{cls.title} {FORMAT_NAMES[format]}"
        now = self._clock()
        event_id = await self._store.insert_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            name=title,
            kind=cls.key,
            variants=chosen,
            format=format,
            rounds=rounds,
            options={"time": seconds, "grace": rules.grace, "rated": bool(rated)},
            max_players=max_players,
            starts_at=None if starts_in_hours is None else now + 3600 * starts_in_hours,
            created_at=now,
            updated_at=now,
        )
        return await self.view(event_id, guild_id)

    async def set_message(self, event_id: int, message_id: int) -> None:
        await self._store.update_tournament(event_id, message_id=message_id)

    async def join(self, event_id: int, guild_id: int, user_id: int) -> TournamentView:
        row = await self._event(event_id, guild_id)
        if user_id == self.bot_user_id:
            raise NotAllowed("The organiser enters me with `/tournament join player:` and a level.")
        await self._check_signing_up(row)
        for other in await self._store.open_tournaments_of_user(guild_id, user_id, row.kind):
            if other.id == row.id:
                raise NotAllowed(f"You are in **{row.name}** already.")
            raise NotAllowed(
                f"You are in **{other.name}** (#{other.id}), another {row_title(other)} event:"
                " one at a time per game."
            )
        if not await self._store.join_tournament(event_id, user_id, self._clock()):
            await self._check_signing_up(await self._event(event_id, guild_id))
            raise NotAllowed(f"**{row.name}** is full ({row.max_players} players).")
        return await self.view(event_id, guild_id)

    async def add_bot(
        self, event_id: int, guild_id: int, user_id: int, level: str, *, manager: bool = False
    ) -> TournamentView:
        """The organiser enters the bot (``bot_user_id``) at ``level``."""
        row = await self._event(event_id, guild_id)
        self._check_organiser(row, user_id, manager)
        if self.bot_user_id is None:
            raise ServiceError("The bot cannot play here.")
        if level not in LEVELS:
            raise ServiceError(f"The level is one of {', '.join(LEVELS)}.")
        await self._check_signing_up(row)
        if not await self._store.join_tournament(
            event_id, self.bot_user_id, self._clock(), level=level
        ):
            await self._check_signing_up(await self._event(event_id, guild_id))
            raise NotAllowed(f"I am in **{row.name}** already, or it is full.")
        return await self.view(event_id, guild_id)

    async def leave(self, event_id: int, guild_id: int, user_id: int) -> TournamentView:
        row = await self._event(event_id, guild_id)
        if row.status != SIGNUP:
            raise NotAllowed(
                f"**{row.name}** has started: `/tournament withdraw` leaves a running event."
            )
        if not await self._store.leave_tournament(event_id, user_id):
            await self._check_signing_up(await self._event(event_id, guild_id))
            raise NotAllowed(f"You are not signed up for **{row.name}**.")
        return await self.view(event_id, guild_id)

    # ---- running -------------------------------------------------------------------

    async def start(
        self, event_id: int, guild_id: int, user_id: int | None, *, manager: bool = False
    ) -> RoundView:
        """Start the event (``user_id`` None: its time came): seeds, round 1, its games."""
        row = await self._event(event_id, guild_id)
        if user_id is not None:
            self._check_organiser(row, user_id, manager)
        await self._check_signing_up(row)
        entries = await self._store.tournament_players(event_id)
        if len(entries) < 2:
            raise NotAllowed(f"**{row.name}** needs at least 2 players to start.")
        seeds = await self._seeds(row, entries)
        field = [Entrant(player, rating) for player, rating in seeds]
        # Pairing is CPU work (a Swiss round of 1,000 players takes about 0.4 s): off the loop.
        rounds, first = await asyncio.to_thread(self._first_round, row, field)
        if not await self._store.start_tournament(event_id, seeds, rounds, first, self._clock()):
            raise NotAllowed(f"**{row.name}** has started already.")
        started = await self._event(event_id, guild_id)
        await self._start_games(started, announce=True)
        await self._advance(event_id)  # a first round of byes and forfeits only
        return await self.round_view(event_id, guild_id, 1)

    async def withdraw(
        self, event_id: int, guild_id: int, user_id: int, *, by: int | None = None,
        manager: bool = False,
    ) -> TournamentView:  # fmt: skip
        """The player leaves a running event (``by``: the organiser withdrawing them)."""
        row = await self._event(event_id, guild_id)
        if by is not None and by != user_id:
            self._check_organiser(row, by, manager)
        if row.status != RUNNING:
            raise NotAllowed(
                f"**{row.name}** is not running: `/tournament leave` before it starts."
            )
        if not await self._store.withdraw_player(event_id, user_id):
            raise NotAllowed(f"<@{user_id}> is not playing in **{row.name}**.")
        for board in await self._store.tournament_boards(event_id, row.round):
            if board.finished or user_id not in (board.white_id, board.black_id):
                continue
            if board.game_id is not None:
                with contextlib.suppress(ServiceError):  # ended meanwhile: its result is in
                    await self._resign(board.game_id, user_id, guild_id)
            else:
                await self._store.record_result(
                    event_id, board.round, board.board, forfeit_points(board, {user_id}),
                    forfeit=True,
                )  # fmt: skip
        await self._advance(event_id)
        return await self.view(event_id, guild_id)

    async def player_left(self, guild_id: int, user_id: int) -> list[TournamentView]:
        """The player has left the server (the cogs found it out): off the sign-up of the
        events here that sign up, withdrawn from the running ones by the withdrawal's rule
        (their running game resigned, later ones forfeits, Swiss no longer pairs them), with a
        line in each event's channel. The events changed."""
        changed = []
        for row in await self._store.open_tournaments_of_user(guild_id, user_id):
            if row.status == SIGNUP:
                if not await self._store.leave_tournament(row.id, user_id):
                    continue
                said = f"is off the sign-up of **{row.name}**"
            else:
                try:
                    await self.withdraw(row.id, guild_id, user_id)
                except NotAllowed:  # withdrawn meanwhile, or the event ended
                    continue
                said = f"is withdrawn from **{row.name}**: their games left are lost"
            text = f"<@{user_id}> has left the server and {said}."
            await self._announce(row, f"left:{row.id}:{user_id}", text)
            changed.append(await self.view(row.id, guild_id))
        return changed

    async def cancel(
        self, event_id: int, guild_id: int, user_id: int, *, manager: bool = False
    ) -> TournamentView:
        row = await self._event(event_id, guild_id)
        self._check_organiser(row, user_id, manager)
        if row.status not in (SIGNUP, RUNNING) or not await self._store.update_tournament(
            event_id, expected_status=row.status, status=CANCELLED, updated_at=self._clock()
        ):
            raise NotAllowed(f"**{row.name}** is over already.")
        await self._announce(
            row, f"cancel:{event_id}", f"**{row.name}** is cancelled by <@{user_id}>."
        )
        return await self.view(event_id, guild_id)

    async def game_over(self, game_id: int, game: Game) -> None:
        """A game has ended: its board's result, then the event moves on if the round is
        complete. Nothing when the game is not a tournament's."""
        board = await self._store.board_of_game(game_id)
        if board is None:
            return
        points = white_points(game)
        await self._store.record_result(board.tournament_id, board.round, board.board, points)
        await self._advance(board.tournament_id)

    async def tick(self) -> None:
        """What a stopped process left, and the events whose time to start came."""
        from games import load_game

        for board, _ in await self._store.boards_ended_unrecorded():
            row = await self._store.get_game(board.game_id or 0)
            if row is not None:
                await self.game_over(row.id, load_game(row.state))
        for row in await self._store.tournaments_running():
            await self._advance(row.id)
        for row in await self._store.tournaments_to_start(self._clock()):
            try:
                await self.start(row.id, row.guild_id, None)
            except ServiceError as refused:
                await self._store.update_tournament(
                    row.id, expected_status=SIGNUP, status=CANCELLED, updated_at=self._clock()
                )
                await self._announce(
                    row, f"cancel:{row.id}", f"**{row.name}** could not start: {refused.message}"
                )

    # ---- reading -------------------------------------------------------------------

    async def view(self, event_id: int, guild_id: int) -> TournamentView:
        row = await self._event(event_id, guild_id)
        return event_view(row, await self._store.tournament_players(event_id))

    async def events(self, guild_id: int, everything: bool = False) -> list[TournamentView]:
        statuses = (SIGNUP, RUNNING, "finished", CANCELLED) if everything else (SIGNUP, RUNNING)
        rows = await self._store.tournaments_of_guild(guild_id, statuses)
        return [event_view(row, ()) for row in rows]

    async def round_view(self, event_id: int, guild_id: int, number: int | None) -> RoundView:
        row = await self._event(event_id, guild_id)
        shown = row.round if number is None else number
        if not 1 <= shown <= max(row.round, 1):
            raise NotFound(f"**{row.name}** has no round {shown} yet.")
        boards = await self._store.tournament_boards(event_id, shown)
        return RoundView(await self.view(event_id, guild_id), shown, boards)

    async def table(self, event_id: int, guild_id: int) -> TableView:
        """The table. Computed again only when the event has changed (its status, round or
        version: a sign-up, a result, a withdrawal), else one read of the event; and then
        only the boards of the rounds still open are read (a 1,000-player Swiss has 500 a
        round): the results of the rounds before are kept."""
        row = await self._event(event_id, guild_id)
        state = (row.status, row.round, row.version)
        kept = self._tables.pop(event_id, None)
        if kept is None or kept.state != state:
            kept = await self._computed_table(row, kept)
        self._tables[event_id] = kept  # the latest asked for last
        while len(self._tables) > TABLES_KEPT:
            self._tables.pop(next(iter(self._tables)))
        return kept.table

    async def _computed_table(self, row: TournamentRow, before: KeptTable | None) -> KeptTable:
        closed = before.closed_round if before is not None else 0
        results, byes = (list(before.results), list(before.byes)) if before else ([], [])
        fresh = await self._store.tournament_boards(row.id, from_round=closed + 1)
        more_results, more_byes = results_of(fresh)
        results += more_results
        byes += more_byes
        entries = await self._store.tournament_players(row.id)
        table = TableView(event_view(row, entries), table_of(row, entries, results, byes))
        # Every result of the rounds before the one in play is in: an event moves on only
        # then (a cancelled event's last round may still get results from its games).
        closed = row.round if row.status == FINISHED else row.round - 1
        return KeptTable(
            state=(row.status, row.round, row.version),
            table=table,
            closed_round=closed,
            results=tuple(r for r in results if r.round <= closed),
            byes=tuple(b for b in byes if b.round <= closed),
        )

    async def results_of(self, guild_id: int, user_id: int, limit: int = 5) -> list[str]:
        """The player's latest finished events, one line each (``/game stats``):
        "Autumn Shax (Shax round robin): 1st of 4, 3 points"."""
        lines = []
        for row in await self._store.finished_tournaments_of_user(guild_id, user_id, limit):
            entries = await self._store.tournament_players(row.id)
            table = event_table(row, entries, await self._store.tournament_boards(row.id))
            mine = next((s for s in table if s.player == user_id), None)
            if mine is None:
                continue
            lines.append(
                f"{row.name} ({row_title(row)} {FORMAT_NAMES[row.format]}):"
                f" {ordinal(mine.place)} of {len(table)}, {points_text(mine.points)}"
                f" {'point' if mine.points == 1 else 'points'}"
                + (" (withdrew)" if mine.withdrawn else "")
            )
        return lines

    # ---- internals -----------------------------------------------------------------

    async def _event(self, event_id: int, guild_id: int) -> TournamentRow:
        row = await self._store.get_tournament(event_id)
        if row is None or row.guild_id != guild_id:
            raise NotFound(f"There is no tournament #{event_id} in this server.")
        return row

    async def _check_signing_up(self, row: TournamentRow) -> None:
        if row.status != SIGNUP:
            raise NotAllowed(f"Sign-ups for **{row.name}** are closed.")

    def _check_organiser(self, row: TournamentRow, user_id: int, manager: bool) -> None:
        if user_id != row.organiser_id and not manager:
            raise NotAllowed(
                f"Only the organiser, <@{row.organiser_id}>, or Manage Server may do that."
            )

    async def _seeds(
        self, row: TournamentRow, entries: Sequence[EntryRow]
    ) -> list[tuple[int, float]]:
        """Each player's rating in the event's game (0 without one), best first; the earlier
        sign-up first among equals."""
        game = rating_game(row.kind, row.variants)
        rated = []
        for order, entry in enumerate(entries):
            found = await self._store.standings_of_user(row.guild_id, entry.user_id)
            rating = next((s.score for s in found if s.game == game), 0.0)
            rated.append((-rating, order, entry.user_id, rating))
        return [(user, rating) for _, _, user, rating in sorted(rated)]

    def _first_round(self, row: TournamentRow, field: list[Entrant]) -> tuple[int, list[BoardRow]]:
        """The rounds planned and round 1's boards."""
        players = [e.player for e in field]
        if row.format in CYCLES:
            schedule = round_robin(players, CYCLES[row.format])
            return len(schedule), schedule_boards(row, 1, schedule[0])
        if row.format == "knockout":
            state = bracket(players, [])
            return stages_for(len(players)), pairing_boards(row.id, 1, state.next_games, None, 0)
        most = len(players) - 1 if len(players) % 2 == 0 else len(players)
        rounds = min(row.rounds or default_rounds(len(players)), most)
        found = pair_swiss(field, records(players, [], []))
        return rounds, pairing_boards(row.id, 1, found.pairings, found.bye, 1.0)

    async def _advance(self, event_id: int) -> None:
        """Start the games of the round in play that have none; when its last result is in,
        pair the next round (or end the event). Safe to call any number of times, from any
        process."""
        for _ in range(MOST_ROUNDS_AT_ONCE):
            row = await self._store.get_tournament(event_id)
            if row is None or row.status != RUNNING:
                return
            boards = await self._store.tournament_boards(event_id)
            current = [b for b in boards if b.round == row.round]
            if not all(b.finished for b in current):
                await self._start_games(row)
                return
            if not await self._outbox.claim(f"tournament:{event_id}:after:{row.round}"):
                return  # another process is pairing it
            entries = await self._store.tournament_players(event_id)
            following = await asyncio.to_thread(self._next_round, row, entries, boards)
            now = self._clock()
            if following is None:
                if await self._store.finish_tournament(event_id, row.round, now):
                    await self._announce_winner(row, entries, boards)
                return
            if not await self._store.add_round(event_id, row.round + 1, following, now):
                return
            await self._start_games(await self._event(event_id, row.guild_id), announce=True)

    def _next_round(
        self, row: TournamentRow, entries: Sequence[EntryRow], boards: Sequence[BoardRow]
    ) -> list[BoardRow] | None:
        """The next round's boards, or None when the event is over."""
        seeds = [e.user_id for e in sorted(entries, key=lambda e: -e.rating)]
        withdrawn = {e.user_id for e in entries if e.withdrawn}
        number = row.round + 1
        results, byes = results_of(boards)
        if row.format in CYCLES:
            schedule = round_robin(seeds, CYCLES[row.format])
            if number > len(schedule):
                return None
            return schedule_boards(row, number, schedule[number - 1], withdrawn)
        if row.format == "knockout":
            state = bracket(seeds, results, withdrawn)
            if not state.next_games:
                return None
            return pairing_boards(row.id, number, state.next_games, None, 0)
        if number > (row.rounds or 0):
            return None
        field = [Entrant(e.user_id, e.rating) for e in entries if not e.withdrawn]
        try:
            found = pair_swiss(field, records([e.player for e in field], results, byes))
        except NoPairing:
            return None
        return pairing_boards(row.id, number, found.pairings, found.bye, 1.0)

    async def _start_games(self, row: TournamentRow, *, announce: bool = False) -> None:
        """Start every game of the round in play that has none; each new game is posted by
        the outbox (once), and the round's pairings when it was just written (``announce``)
        or a game of it started here (a process stopped before): not again at every tick,
        where the outbox, which forgets its jobs after a week, would post a long round's
        pairings anew."""
        boards = await self._store.tournament_boards(row.id, row.round)
        cls = game_class_named(row.kind)
        entries = {e.user_id: e for e in await self._store.tournament_players(row.id)}
        for board in boards:
            if board.is_bye or board.finished or board.game_id is not None:
                continue
            players = (board.white_id, board.black_id or 0)
            game = new_game(cls, row.variants, 2)
            now = self._clock()
            options = dict(row.options)
            options[TOURNAMENT] = {"id": row.id, "name": row.name, "round": row.round}
            bot_level = next((entries[p].level for p in players if entries[p].level), None)
            if bot_level is not None:
                options[bot_seats.LEVEL] = bot_level
            options = bot_seats.game_options(options, players, self.bot_user_id)
            mover = None if game.to_move is None else players[game.to_move]
            game_id = await self._store.start_board_game(
                row.id,
                row.round,
                board.board,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                kind=row.kind,
                variants=row.variants,
                players=players,
                state=game.to_json(),
                version=1,
                status="active",
                created_at=now,
                updated_at=now,
                options=options,
                **await self._turn_columns(row.guild_id, options, mover, now),
            )
            if game_id is not None:
                announce = True
                text = (
                    f"**{row.name}**, round {row.round}, board {board.board}: "
                    f"<@{players[0]}> ({cls.seat_names[0]}) against <@{players[1]}>"
                    f" ({cls.seat_names[1]})"
                )
                await self._post(row, f"tournament_game:{game_id}", text, game_id, players[0])
        if announce:
            text = round_text(row, boards, cls.seat_names)
            await self._announce(row, f"round:{row.id}:{row.round}", text)

    async def _announce_winner(
        self, row: TournamentRow, entries: Sequence[EntryRow], boards: Sequence[BoardRow]
    ) -> None:
        table = event_table(row, entries, boards)
        top = [s for s in table if s.place == 1]
        who = " and ".join(f"<@{s.player}>" for s in top)
        text = f"**{row.name}** is over: {who} {'win' if len(top) > 1 else 'wins'}"
        text += f" with {points_text(top[0].points)} points!" if top else "!"
        text += " `/tournament standings` shows the final table."
        await self._announce(row, f"winner:{row.id}", text)

    async def _announce(self, row: TournamentRow, key: str, text: str) -> None:
        await self._post(row, f"tournament:{key}", text, None, row.organiser_id)

    async def _post(
        self, row: TournamentRow, key: str, text: str, game_id: int | None, user_id: int
    ) -> None:
        notice = Notice(
            kind="tournament_game" if game_id is not None else TOURNAMENT,
            game_id=game_id,
            challenge_id=None,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            thread_id=None,
            message_id=None,
            user_id=user_id,
            text=text,
        )
        payload = {name: value for name, value in vars(notice).items() if name != "key"}
        await self._outbox.add_due(key, payload)


# ---- pure helpers ----------------------------------------------------------------------


def tidy_name(name: str | None) -> str:
    """An event's name as shown: printable, one line, no mentions, at most ``NAME_LIMIT``."""
    if not name:
        return ""
    kept = "".join(c if unicodedata.category(c)[0] not in "CZ" or c == " " else " " for c in name)
    kept = re.sub(r"\s+", " ", kept).strip()
    kept = kept.replace("@", "@\u200b").replace("`", "'").replace("*", "").replace("_", " ")
    kept = kept.replace("<", "‹").replace(">", "›")
    return kept[:NAME_LIMIT].strip()


def row_title(row: TournamentRow) -> str:
    return game_class_named(row.kind).title


def event_view(row: TournamentRow, entries: Sequence[EntryRow]) -> TournamentView:
    return TournamentView(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        name=row.name,
        kind=row.kind,
        title=row_title(row),
        format=row.format,
        status=row.status,
        round=row.round,
        rounds=row.rounds,
        organiser_id=row.organiser_id,
        players=tuple(e.user_id for e in entries),
        withdrawn=tuple(e.user_id for e in entries if e.withdrawn),
        max_players=row.max_players,
        starts_at=row.starts_at,
        time=int(row.options.get("time", 0)),
    )


def white_points(game: Game) -> float:
    """White's (the first seat's) points: 1 won, 1/2 drawn (or no winner), 0 lost."""
    outcome = game.outcome
    if outcome is None or not outcome.winners:
        return 0.5
    return 1.0 if game.team_of(0) in {game.team_of(s) for s in outcome.winners} else 0.0


def forfeit_points(board: BoardRow, absent: Collection[int]) -> float:
    """White's points of a game not played because ``absent`` players withdrew."""
    white_out, black_out = board.white_id in absent, board.black_id in absent
    if white_out and black_out:
        return 0.5
    return 0.0 if white_out else 1.0


def pairing_boards(
    event_id: int, number: int, pairings: Sequence[Pairing], bye: int | None, bye_points: float
) -> list[BoardRow]:
    boards = [
        BoardRow(event_id, number, index, p.white, p.black) for index, p in enumerate(pairings, 1)
    ]
    if bye is not None:
        boards.append(BoardRow(event_id, number, len(boards) + 1, bye, None, None, bye_points))
    return boards


def schedule_boards(
    row: TournamentRow,
    number: int,
    scheduled: tuple[list[Pairing], int | None],
    withdrawn: Collection[int] = (),
) -> list[BoardRow]:
    """A round robin's round: the games of players who withdrew are forfeits."""
    games, rests = scheduled
    boards = pairing_boards(row.id, number, games, rests, BYE_POINTS.get(row.format, 0.0))
    return [
        BoardRow(
            b.tournament_id,
            b.round,
            b.board,
            b.white_id,
            b.black_id,
            None,
            forfeit_points(b, withdrawn),
            True,
        )  # fmt: skip
        if not b.is_bye and {b.white_id, b.black_id} & set(withdrawn)
        else b
        for b in boards
    ]


def results_of(boards: Sequence[BoardRow]) -> tuple[list[Result], list[Bye]]:
    results, byes = [], []
    for b in boards:
        if b.white_points is None:
            continue
        if b.black_id is None:
            byes.append(Bye(b.round, b.white_id, b.white_points))
        else:
            results.append(Result(b.round, b.white_id, b.black_id, b.white_points, b.forfeit))
    return results, byes


def event_table(
    row: TournamentRow, entries: Sequence[EntryRow], boards: Sequence[BoardRow]
) -> list[Standing]:
    return table_of(row, entries, *results_of(boards))


def table_of(
    row: TournamentRow,
    entries: Sequence[EntryRow],
    results: Sequence[Result],
    byes: Sequence[Bye],
) -> list[Standing]:
    field = [Entrant(e.user_id, e.rating) for e in entries]
    withdrawn = {e.user_id for e in entries if e.withdrawn}
    first = None
    if row.format == "knockout" and row.status != SIGNUP:
        seeds = [e.player for e in sorted(field, key=lambda e: -e.rating)]
        first = bracket(seeds, results, withdrawn).reached
    return standings(field, results, byes, withdrawn=withdrawn, first=first)


def ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def points_text(points: float) -> str:
    whole = int(points)
    return f"{whole}½" if points - whole else str(whole)


def round_text(row: TournamentRow, boards: Sequence[BoardRow], seat_names: Sequence[str]) -> str:
    lines = [f"**{row.name}**, round {row.round}" + (f" of {row.rounds}" if row.rounds and
             row.format != "knockout" else "") + ":"]  # fmt: skip
    for b in boards:
        if b.is_bye:
            lines.append(f"{b.board}. <@{b.white_id}>: a bye ({points_text(b.white_points or 0)})")
        elif b.forfeit:
            lines.append(
                f"{b.board}. <@{b.white_id}> against <@{b.black_id}>: not played (withdrawn)"
            )
        else:
            lines.append(
                f"{b.board}. <@{b.white_id}> ({seat_names[0]}) against <@{b.black_id}>"
                f" ({seat_names[1]})"
            )
    return "\n".join(lines)
