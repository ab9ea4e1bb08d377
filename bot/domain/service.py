"""The game service: everything the cogs do, as plain async methods over the store.

Every change to a game is one optimistic transaction: read the row at version v, apply the
action to the engine in memory, then write the new state ``WHERE version = v``. A writer that
lost the race gets ``StaleBoard`` with the current board; nothing is half-written.

The service is the facade on top of the modules that hold each capability (all in
``bot/domain/``), which never import it: what it returns and raises is in ``views.py``
(importable from here too), the engine side (loading a game, the players' actions) in
``actions.py``, the jobs it runs in its worker pool in ``engine_jobs.py``, seats and rematches
in ``challenges.py``, the clock's work (``tick``) in ``deadlines.py``, takebacks in
``takebacks.py``, hints in ``hints.py``, lessons in ``learn/``. The bot player
(``opponent.py``) sits above it and plays through it.
"""

from __future__ import annotations

import functools
import inspect
import logging
import random
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.config import Settings
from bot.domain import (
    analysis,
    board_images,
    boards,
    challenges,
    clocks,
    engine_jobs,
    hints,
    notify,
    puzzles,
    ratings,
    records,
    takebacks,
)
from bot.domain.actions import (
    NEW_TURN,
    answer_draw_action,
    claim_timeout_action,
    move_action,
    offer_draw_action,
    parse_game,
    require_turn,
    resign_action,
    roll_action,
    turn_action,
)
from bot.domain.actions import natural_key as natural_key
from bot.domain.deadlines import Deadlines
from bot.domain.engine_jobs import Action, Renderer, Snapshot
from bot.domain.jobs import Outbox
from bot.domain.learn import Learning, Place
from bot.domain.learn.pictures import step_picture
from bot.domain.names import PlayerNames
from bot.domain.puzzles.server import ServerPuzzles
from bot.domain.server_settings import ServerSettings, change
from bot.domain.tournaments.events import RoundView, TableView, Tournaments, TournamentView
from bot.domain.vacations import Vacations
from bot.domain.views import (
    BoardView,
    ChallengeView,
    CorruptGame,
    Fields,
    GameSummary,
    NotAllowed,
    NotFound,
    Notice,
    RenderFailed,
    SaveFailed,
    ServiceError,
    StaleBoard,
)
from bot.domain.views import IllegalMoveError as IllegalMoveError
from bot.domain.views import RollDue as RollDue
from bot.runtime.workers import Workers
from bot.storage import GameStore
from bot.storage.rating_model import job_for
from bot.storage.rows import ENTRY, GameEvent, GameRow, StoreUnavailable
from games import Game, load_game
from games.base import DiceSpec

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Roller = Callable[[DiceSpec], Sequence[int]]

LEGAL_CACHE_SIZE = 512


# ---- defaults ------------------------------------------------------------------------

_system_random = random.SystemRandom()


def system_roller(spec: DiceSpec) -> tuple[int, ...]:
    return tuple(_system_random.randint(1, spec.sides) for _ in range(spec.count))


def default_renderer(game: Game) -> bytes:
    from render import render_png  # lazy: the renderer is optional at import time

    return render_png(game)


# ---- the service ---------------------------------------------------------------------


# What each action is called when the store could not write it (a full disk): "Could not save
# your move: try again shortly." Any other method: "that".
UNSAVED = {
    "create_challenge": "your challenge",
    "accept_challenge": "your acceptance",
    "decline_challenge": "your refusal",
    "rematch": "your rematch",
    "move": "your move",
    "play_turn": "your move",
    "roll": "your roll",
    "resign": "your resignation",
    "offer_draw": "your draw offer",
    "answer_draw": "your answer",
    "ask_takeback": "your takeback request",
    "answer_takeback": "your answer",
    "hint": "your hint",
    "claim_timeout": "your claim",
    "set_notify": "your notification settings",
    "change_server_settings": "the server settings",
    "start_vacation": "your vacation",
    "create_tournament": "your tournament",
    "join_tournament": "your sign-up",
    "leave_tournament": "your leaving",
    "start_tournament": "the tournament's start",
    "withdraw_from_tournament": "your withdrawal",
    "cancel_tournament": "the cancellation",
}


def refuses_unsaved(cls: type) -> type:
    """Every public coroutine of ``cls`` answers a write the store could not make
    (``StoreUnavailable``: rolled back, nothing happened) with ``SaveFailed``, shown to the
    player privately, and logs it with the call and its cause for whoever runs the bot."""
    for name, method in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(method):
            setattr(cls, name, _refusing_unsaved(method, UNSAVED.get(name, "that")))
    return cls


def _refusing_unsaved(method: Callable[..., Awaitable[Any]], what: str):
    @functools.wraps(method)
    async def refusing(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except StoreUnavailable as error:
            log.error(
                "%s%r not saved: %s", method.__name__, (*args, kwargs), error.__cause__ or error
            )
            raise SaveFailed(f"Could not save {what}: try again shortly.") from error

    return refusing


@refuses_unsaved
class GameService:
    def __init__(
        self,
        store: GameStore,
        *,
        settings: Settings,
        clock: Clock = time.time,
        roller: Roller | None = None,
        renderer: Renderer | None = None,
        workers: Workers | None = None,
        outbox: Outbox | None = None,
        analysis_workers: Workers | None = None,
        bot_user_id: int | None = None,
    ):
        """``workers``: where engine work and rendering run (default: a thread, for tests and
        tools; the bot passes a process pool, which needs a top-level ``renderer``).
        ``outbox``: the once-only notices, shared with other processes (bot/domain/jobs.py).
        ``analysis_workers``: where post-game analyses run (the bot: one process at low
        priority, beside ``workers``; default: ``workers``).
        ``bot_user_id``: the bot's own user, which may be challenged (bot/domain/opponent.py)."""
        self._store = store
        self.bot_user_id = bot_user_id
        self._settings = settings
        self._clock = clock
        self._roller = roller or system_roller
        self._renderer = renderer or default_renderer
        self._workers = workers or Workers(0)
        self._outbox = outbox or Outbox(store, clock)
        # Per (game, version): the menu and the board but its image, then the game itself
        # loaded here for menu searches (only when someone types).
        self._snapshots: OrderedDict[tuple[int, int], Snapshot] = OrderedDict()
        self._search_games: OrderedDict[tuple[int, int], Game] = OrderedDict()
        self._lesson_pictures: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
        # Per (game, version): its board, drawn once (bot/domain/board_images.py).
        self._images = board_images.BoardImages()
        self._vacations = Vacations(store, clock, lambda row: self._mover_and_waiting(row)[0])
        self._challenges = challenges.Challenges(
            store,
            clock,
            settings,
            bot_user_id=bot_user_id,
            roll=self._roll,
            rules_of=self.server_settings,
            turn_columns=self._turn_columns,
            started=self._started,
        )
        self._takebacks = takebacks.Takebacks(
            store, clock, self._workers, game_row=self._game_row, apply=self._apply
        )
        self._hints = hints.Hints(
            store,
            clock,
            self._workers,
            game_row=self._game_row,
            iterations=settings.bot_iterations,
        )
        self._analyses = analysis.Analyses(
            store,
            clock,
            self._outbox,
            analysis_workers or self._workers,
            self._workers,
            game_row=self._game_row,
            iterations=settings.bot_iterations,
        )
        self._deadlines = Deadlines(
            store,
            clock,
            self._outbox,
            bot_user_id=bot_user_id,
            time_of=self._time_of,
            mover_and_waiting=self._mover_and_waiting,
            apply=self._apply,
        )
        self._names = PlayerNames(store, clock)
        self._learning = Learning(store, clock)
        self._tournaments = Tournaments(
            store,
            clock,
            self._outbox,
            settings,
            bot_user_id=bot_user_id,
            rules_of=self.server_settings,
            turn_columns=self._turn_columns,
            resign=lambda game_id, user_id, guild_id: self.resign(
                game_id, user_id, guild_id=guild_id
            ),
        )
        self._puzzles = puzzles.Puzzles(store, clock, self._workers, self._outbox, self._renderer)
        self._server_puzzles = ServerPuzzles(
            store,
            clock,
            self._outbox,
            analysis_workers or self._workers,
            iterations=settings.bot_iterations,
        )

    @property
    def learning(self) -> Learning:
        """The learners' courses and progress (``bot/domain/learn/``)."""
        return self._learning

    async def lesson_picture(self, place: Place) -> bytes:
        """The picture of a lesson step, its marks highlighted: rendered in a worker once,
        then remembered (a learner who tries again sees the same picture)."""
        key = (place.course.id, place.lesson.id, place.index)
        picture = _recall(self._lesson_pictures, key)
        if picture is None:
            picture = await self._workers.run(step_picture, place.step)
            _remember(self._lesson_pictures, key, picture)
        return picture

    async def close(self) -> None:
        """Stop the worker processes, if any."""
        await self._workers.close()
        await self._analyses.close()

    # ---- challenges (bot/domain/challenges.py) -----------------------------------

    async def create_challenge(self, **request: Any) -> ChallengeView:
        """A challenge to ``opponent_id``, or an open one: the keyword arguments and checks of
        ``Challenges.create`` (guild_id, channel_id, kind, challenger_id, opponent_id...)."""
        return await self._challenges.create(**request)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._challenges.set_message(challenge_id, message_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeView:
        return await self._challenges.get(challenge_id)

    async def accept_challenge(self, challenge_id: int, user_id: int) -> BoardView | ChallengeView:
        """The game's board once everyone invited has accepted, else the challenge."""
        return await self._challenges.accept(challenge_id, user_id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> ChallengeView:
        """The challenged player declines (or the challenger withdraws)."""
        return await self._challenges.decline(challenge_id, user_id)

    async def rematch(self, game_id: int, user_id: int, *, guild_id: int) -> ChallengeView:
        """A player of the finished game asks for its rematch."""
        return await self._challenges.rematch(await self._game_row(game_id, guild_id), user_id)

    # ---- where the game is shown ---------------------------------------------------

    async def set_game_location(
        self, game_id: int, *, thread_id: int | None, message_id: int | None
    ) -> None:
        if not await self._store.set_game_fields(
            game_id, thread_id=thread_id, message_id=message_id
        ):
            raise NotFound(f"There is no game #{game_id}.")

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        if not await self._store.set_game_fields(game_id, message_id=message_id):
            raise NotFound(f"There is no game #{game_id}.")

    # ---- reading games -------------------------------------------------------------

    async def board(self, game_id: int, guild_id: int, *, with_image: bool = True) -> BoardView:
        row = await self._game_row(game_id, guild_id)
        return await self._show(row, with_image=with_image)

    async def legal_moves(self, game_id: int, guild_id: int) -> list[str]:
        """Cached per (game, version): autocomplete calls this on every keystroke."""
        found = await self._store.game_version(game_id)
        if found is None or found[0] != guild_id:
            raise _game_not_found(game_id)
        snapshot = _recall(self._snapshots, (game_id, found[1]))
        if snapshot is None:
            snapshot = await self._snapshot(await self._game_row(game_id, guild_id))
        return list(snapshot.legal)

    async def move_choices(
        self, game_id: int, guild_id: int, *, typed: str | None = None
    ) -> list[tuple[str, str]]:
        """(move, description) for every legal move, for menus: ``game.describe_move`` of each,
        in natural order (``open2`` before ``open10``), then the whole turns the game offers.
        With ``typed``, only the entries matching it, best first (``game.search_choices``).
        Cached per (game, version) with the loaded game: autocomplete calls this on every
        keystroke."""
        found = await self._store.game_version(game_id)
        if found is None or found[0] != guild_id:
            raise _game_not_found(game_id)
        key = (game_id, found[1])
        snapshot = _recall(self._snapshots, key)
        if snapshot is None:
            row = await self._game_row(game_id, guild_id)
            key, snapshot = (row.id, row.version), await self._snapshot(row)
        if typed is None:
            return list(snapshot.choices)
        game = _recall(self._search_games, key)
        if game is None:  # the position as loaded, without generating its moves again
            game = load_game(snapshot.state)
            _remember(self._search_games, key, game)
        return game.search_choices(snapshot.choices, typed)

    def clear_caches(self) -> None:
        """Forget cached legal moves and menus (benchmarks time the cold path with it)."""
        self._snapshots.clear()
        self._search_games.clear()

    async def history(self, game_id: int, guild_id: int) -> list[str]:
        """The game record, then the result if over: the game's own notation where it has one
        (``game.turn_log()``, e.g. a turn per line with its roll), else one numbered line per
        logged action; with the draw offers and takebacks (who asked, the answer) among them
        in the order they happened."""
        row = await self._game_row(game_id, guild_id)
        events = await self._store.game_events(game_id)
        return await self._workers.run(engine_jobs.history, row, events)

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep a player's display name on the server (``bot/domain/names.py``): they
        challenged or accepted."""
        await self._names.remember(guild_id, user_id, name)

    async def refresh_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep the display name of whoever acts on the bot, if they have a game here."""

        async def is_player() -> bool:
            return not await self.is_first_timer(guild_id, user_id)

        await self._names.refresh(guild_id, user_id, name, is_player)

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The players' names kept on the server, by user id (the unknown left out)."""
        return await self._names.of(guild_id, user_ids)

    async def record_files(
        self, game_id: int, guild_id: int, names: dict[int, str] | None = None
    ) -> tuple[str, str]:
        """The game's record as JSON and as a move list (``bot/domain/records.py``); the
        players named as ``names`` says (names known now), else by the names kept."""
        row = await self._game_row(game_id, guild_id)
        history = await self._store.game_events(game_id)
        names = await self._names.of(guild_id, row.players, names)
        try:
            return await self._workers.run(records.record_files, row, names, history)
        except ValueError:  # RecordError included: the stored game does not replay
            log.exception("game %s: record fails", game_id)
            message = f"Game #{game_id} cannot be exported: its saved state is damaged."
            raise CorruptGame(message) from None

    async def game_gif(self, game_id: int, guild_id: int) -> bytes | None:
        """The whole game as an animated GIF, made in a worker; None if it cannot be made
        (logged): a game's end never fails for want of its GIF."""
        row = await self._game_row(game_id, guild_id)
        try:
            return await self._workers.run(records.game_gif, row)
        except Exception:
            log.exception("game %s: the GIF of the game failed", game_id)
            return None

    async def replay_frame(self, game_id: int, guild_id: int, ply: int) -> records.ReplayFrame:
        """The board of the game after ``ply`` moves, for ``/game replay``."""
        row = await self._game_row(game_id, guild_id)
        try:
            return await self._workers.run(records.replay_frame, row, ply, self._renderer)
        except ValueError:
            log.exception("game %s: replay fails", game_id)
            message = f"Game #{game_id} cannot be replayed: its saved state is damaged."
            raise CorruptGame(message) from None

    async def list_games(
        self,
        guild_id: int,
        user_id: int,
        *,
        include_finished: bool = False,
        limit: int | None = None,
    ) -> list[GameSummary]:
        """Active games first, most recent first; ``limit`` keeps a long history cheap."""
        rows = await self._store.games_of_user(
            guild_id, user_id, include_finished=include_finished, limit=limit
        )
        return [boards.game_summary(row) for row in rows]

    async def is_first_timer(self, guild_id: int, user_id: int) -> bool:
        """True when the user has no game in this server yet, in progress or finished."""
        return not await self._store.games_of_user(
            guild_id, user_id, include_finished=True, limit=1
        )

    async def summary(self, game_id: int, guild_id: int) -> GameSummary:
        """The game's row as a summary (kind, players, home), without loading the game."""
        return boards.game_summary(await self._game_row(game_id, guild_id))

    async def game_in_thread(self, guild_id: int, thread_id: int) -> GameSummary | None:
        row = await self._store.game_in_thread(guild_id, thread_id)
        return boards.game_summary(row) if row else None

    # ---- playing -------------------------------------------------------------------
    # Each action is a top-level function (below the class) bound with ``partial``: it runs
    # in a worker process with the loaded game.

    async def move(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        guild_id: int,
        expected_version: int | None = None,
    ) -> BoardView:
        action = partial(move_action, user_id, text)
        return await self._change(game_id, guild_id, expected_version, action, actor=user_id)

    async def roll(
        self, game_id: int, user_id: int, *, guild_id: int, expected_version: int | None = None
    ) -> BoardView:
        """Roll the dice the player to move needs, server-side; the roll is stored with the
        game before any move, and a roll that is not due is refused (never rolled again).

        The board's ``note`` tells the roll, and that the turn passed when it left no legal
        move (the engine passes such a turn by itself)."""
        row = await self._game_row(game_id, guild_id)
        before = await self._snapshot(row)  # the menu cache holds it after the last action
        if expected_version is not None and expected_version != row.version:
            raise StaleBoard(self._view(row, before))
        if before.is_over:
            raise ServiceError(f"This game is over: {before.result}.")
        require_turn(row, before.to_move, user_id)
        spec = before.dice_needed
        if spec is None:
            raise NotAllowed("No roll is due now: the dice are rolled; make your move.")
        dice = self._roll(spec)  # here, not in the worker: the roller is the service's
        action = partial(roll_action, user_id, dice)
        board, after = await self._apply(row, action, actor=user_id)
        return replace(board, note=_roll_note(after, before.to_move, before.mover, dice))

    async def play_turn(
        self,
        game_id: int,
        user_id: int,
        moves: Sequence[str],
        *,
        guild_id: int,
        expected_version: int,
    ) -> BoardView:
        """Several moves of the same seat's turn (each checked as ``move`` checks one) as one
        change of the version the mover saw: the bot opponent's whole turn."""
        action = partial(turn_action, user_id, tuple(moves))
        return await self._change(game_id, guild_id, expected_version, action)

    async def saved_game(self, game_id: int, guild_id: int) -> tuple[int, str]:
        """The game's version and its saved state (``Game.to_json()``), for a search."""
        row = await self._game_row(game_id, guild_id)
        return row.version, row.state

    async def resign(
        self, game_id: int, user_id: int, *, guild_id: int, expected_version: int | None = None
    ) -> BoardView:
        action = partial(resign_action, user_id)
        return await self._change(game_id, guild_id, expected_version, action)

    async def offer_draw(self, game_id: int, user_id: int, *, guild_id: int) -> BoardView:
        """Offer a draw; an offer made while the opponent's offer stands agrees to it."""
        return await self._change(game_id, guild_id, None, partial(offer_draw_action, user_id))

    async def answer_draw(
        self, game_id: int, user_id: int, accept: bool, *, guild_id: int
    ) -> BoardView:
        action = partial(answer_draw_action, user_id, accept)
        return await self._change(game_id, guild_id, None, action)

    async def ask_takeback(
        self, game_id: int, user_id: int, *, guild_id: int
    ) -> takebacks.TakebackView:
        """Ask the other side to undo your last move (``bot/domain/takebacks.py``)."""
        return await self._takebacks.ask(game_id, user_id, guild_id)

    async def answer_takeback(
        self, game_id: int, user_id: int, accept: bool, *, guild_id: int, version: int
    ) -> tuple[takebacks.TakebackView, BoardView | None]:
        """Accept (the restored board comes back) or decline a takeback request."""
        return await self._takebacks.answer(game_id, user_id, accept, guild_id, version)

    async def hint(self, game_id: int, user_id: int, *, guild_id: int) -> hints.Hint:
        """The turn the bot would play for you now, and why (``bot/domain/hints.py``):
        counted in the game's record; refused where hints are not allowed."""
        return await self._hints.hint(game_id, user_id, guild_id)

    async def analysis(
        self, game_id: int, *, guild_id: int, progress: analysis.Progress | None = None
    ) -> analysis.Report:
        """A finished game's post-game analysis (``bot/domain/analysis.py``): computed once,
        in the analysis workers, and kept; ``progress(done, total)`` while it runs."""
        return await self._analyses.report(game_id, guild_id, progress)

    async def mark_analysis_posted(self, game_id: int, *, guild_id: int) -> bool:
        """True the first time the game's analysis is to be posted in its thread."""
        await self._game_row(game_id, guild_id)
        return await self._analyses.mark_posted(game_id)

    async def game_events(self, game_id: int, guild_id: int) -> list[GameEvent]:
        """The game's event history (``bot/domain/events.py``)."""
        await self._game_row(game_id, guild_id)
        return await self._store.game_events(game_id)

    async def claim_timeout(self, game_id: int, user_id: int, *, guild_id: int) -> BoardView:
        action = partial(claim_timeout_action, user_id)
        return await self._change(game_id, guild_id, None, action)

    def free_roll(self, text: str) -> tuple[DiceSpec, tuple[int, ...]]:
        """Dice for anything outside a game (``/roll 2d8``), rolled server-side by the same
        roller as the games'. ``NdM`` with N 1..10 and M 2..100; ``dM`` means ``1dM``."""
        return (spec := parse_dice(text)), self._roll(spec)

    # ---- the clock (bot/domain/deadlines.py) ----------------------------------------------

    async def tick(self, send: Callable[[Notice], Awaitable[None]] | None = None) -> list[Notice]:
        """Send what is due (``Deadlines.tick``): expired challenges, reminders, claim
        notices, games ended on time, the day's digests and daily puzzles; tournaments moved
        on (results a stopped process left, rounds to pair, events whose start time came),
        whose posts are jobs due now. With ``send`` (the bot), each is sent, then marked done;
        without, marked done and returned for the caller to post."""
        try:
            await self._tournaments.tick()
        except ServiceError:
            log.exception("tournaments: the tick could not move an event on")
        digests = partial(notify.digests, self._store, self.list_games)

        async def scan(now: float) -> list[Notice]:
            return await digests(now) + await self._puzzles.daily_notices(now)

        return await self._deadlines.tick(send, scan)

    # ---- puzzles (bot/domain/puzzles/) -----------------------------------------------------

    async def puzzle(
        self, user_id: int, game: str | None = None, *, guild_id: int | None = None
    ) -> puzzles.PuzzleView:
        """Your open puzzle, else the next of the set asked (``game:daily``: the server's)."""
        return await self._puzzles.show(user_id, game, guild_id)

    async def answer_puzzle(self, user_id: int, answer: str) -> puzzles.Verdict:
        """Your whole turn in your open puzzle: right or wrong and why; the first counts."""
        return await self._puzzles.answer(user_id, answer)

    async def puzzle_choices(self, user_id: int, typed: str) -> list[tuple[str, str]]:
        """The turns of your open puzzle matching what you typed (autocomplete)."""
        return await self._puzzles.choices(user_id, typed)

    async def mine_server_puzzles(self) -> int:
        """Find puzzles in the servers' games finished since the last run, for those servers
        (``bot/domain/puzzles/server.py``; the bot's loop calls it): the puzzles kept."""
        return await self._server_puzzles.mine()

    async def daily_puzzle_picture(self, notice: Notice) -> bytes:
        """The board of the daily puzzle a ``daily_puzzle`` notice posts (b"" for none)."""
        return await self._puzzles.daily_picture(notice.key)

    # ---- notifications (bot/domain/notify.py) ---------------------------------------------

    async def notify_settings(self, guild_id: int, user_id: int) -> notify.NotifySettings:
        return await notify.settings(self._store, guild_id, user_id)

    async def set_notify(
        self, guild_id: int, user_id: int, choice: notify.NotifyChoice
    ) -> notify.NotifySettings:
        return await notify.change(self._store, guild_id, user_id, self._clock(), choice)

    async def dm_failed(self, guild_id: int, user_id: int) -> bool:
        """A DM to the player failed; True the first time (tell them once)."""
        return await notify.dm_failed(self._store, guild_id, user_id)

    # ---- server settings and vacations ---------------------------------------------

    async def server_settings(self, guild_id: int) -> ServerSettings:
        return ServerSettings.from_json(await self._store.guild_settings(guild_id))

    async def change_server_settings(
        self, guild_id: int, user_id: int, *, manager: bool, **changes: Any
    ) -> ServerSettings:
        """Members with Manage Server (``manager``) change the settings (``change``)."""
        if not manager:
            raise NotAllowed("Only members with the Manage Server permission change settings.")
        try:
            new = change(await self.server_settings(guild_id), **changes)
        except ValueError as error:
            raise ServiceError(str(error)) from None
        await self._store.put_guild_settings(
            guild_id, new.to_json(), now=self._clock(), user_id=user_id
        )
        return new

    async def vacation(self, guild_id: int, user_id: int) -> clocks.VacationStatus:
        allowance = (await self.server_settings(guild_id)).vacation_days
        return await self._vacations.status(guild_id, user_id, allowance)

    async def start_vacation(self, guild_id: int, user_id: int, days: int) -> clocks.VacationStatus:
        """``days`` from now: the player's clocks wait in all their games here; 0 ends the
        running vacation."""
        allowance = (await self.server_settings(guild_id)).vacation_days
        if days == 0:
            if not await self._vacations.end(guild_id, user_id):
                raise ServiceError("You are not on vacation.")
            return await self._vacations.status(guild_id, user_id, allowance)
        try:
            return await self._vacations.start(guild_id, user_id, days, allowance)
        except clocks.ClockError as error:
            raise ServiceError(str(error)) from None

    async def clock_boards(self, guild_id: int, user_id: int) -> list[BoardView]:
        """The boards (without their picture) of the player's games here where they are to
        move: the ones whose clock line their vacation starting or ending changes. A game
        that cannot be shown now is left out."""
        boards = []
        for row in await self._vacations.turns_of(guild_id, user_id):
            try:
                boards.append(await self.board(row.id, guild_id, with_image=False))
            except ServiceError:
                log.warning("game %s: its board's clock line could not be refreshed", row.id)
        return boards

    async def vacation_notices(self, guild_id: int, user_id: int) -> list[Notice]:
        """For the opponents, in each game whose clock the player's vacation holds now."""
        return await self._deadlines.vacation_notices(guild_id, user_id)

    def _time_of(self, options: dict[str, Any]) -> float:
        return clocks.seconds(options, "time", self._settings.claim_after)

    async def _turn_columns(
        self, guild_id: int, options: dict[str, Any], mover: int | None, now: float
    ) -> dict[str, Any]:
        """A new turn's deadlines; a mover on vacation starts when it ends."""
        away = None if mover is None else await self._store.active_vacation(guild_id, mover, now)
        grace = clocks.seconds(options, "grace", clocks.DEFAULT_GRACE)
        return clocks.new_turn(now, self._time_of(options), grace, away.until if away else None)

    # ---- internals -----------------------------------------------------------------

    async def _change(
        self,
        game_id: int,
        guild_id: int,
        expected_version: int | None,
        action: Action,
        actor: int | None = None,
    ) -> BoardView:
        """Load, check the version, apply ``action``, write ``WHERE version = v``."""
        row = await self._game_row(game_id, guild_id)
        if expected_version is not None and expected_version != row.version:
            raise StaleBoard(self._view(row, await self._snapshot(row)))
        board, _ = await self._apply(row, action, actor)
        return board

    async def _apply(
        self, row: GameRow, action: Action, actor: int | None = None
    ) -> tuple[BoardView, Snapshot]:
        """Apply ``action`` to the row's version and write it: loading, applying, the next
        menu and the board are one job in a worker (the legal moves known for this version
        go with it, so they are not generated again); here only I/O."""
        known = _recall(self._snapshots, (row.id, row.version))
        now = self._clock()
        legal = None if known is None else known.legal
        done = await self._workers.run(engine_jobs.apply, row, action, now, legal, self._renderer)
        after = done.shown.snapshot
        columns = dict(done.columns)
        before = None if columns.pop(NEW_TURN, False) else done.before  # a turn starts anew
        timer = await self._timer_columns(row, before, after, now)
        columns |= {"updated_at": now} | timer
        # The time of each logged action, then what the action says happened (bot/domain/events.py).
        said = columns.pop("events", ())
        history = [GameEvent(ENTRY, e.seat, ply, now) for ply, e in done.entries]
        history += [replace(event, at=now) for event in said]
        # The game's end is rated in the transaction that writes it (bot/domain/ratings.py).
        job = job_for(row, load_game(after.state), now) if after.is_over else None
        if not await self._store.update_game(
            row.id,
            row.version,
            new_log_entries=done.entries,
            events=history,
            ratings=job,
            **columns,
        ):
            raise StaleBoard(await self.board(row.id, row.guild_id, with_image=False))
        changed = replace(row, version=row.version + 1, **columns)
        back = actor is not None and clocks.paused(row.paused_until, now)
        if back:  # back from vacation: the player's other clocks run again
            back = await self._end_vacation_after_move(row, actor)
            changed = await self._game_row(row.id, row.guild_id)
        # The next player's menu is ready before they start typing.
        _remember(self._snapshots, (changed.id, changed.version), after)
        extra = await self._rating_fields(changed) if after.is_over else ()
        if after.is_over:
            await self._tournament_game_over(changed.id, after.state)
        image = self._image(row.kind, done.shown)
        self._images.keep(changed.id, changed.version, image)
        view = self._view(changed, after, extra, image=image)
        return replace(view, back_from_vacation=back), after

    async def _end_vacation_after_move(self, row: GameRow, actor: int) -> bool:
        """End the mover's vacation after their move was written. The move stands whatever
        happens here: a vacation the store cannot end now is logged and left running (its
        player may end it by hand), never reported as a move not saved."""
        try:
            await self._vacations.end(row.guild_id, actor)
        except StoreUnavailable as error:
            log.error(
                "vacation of %s not ended after their move in game %s: %s",
                actor,
                row.id,
                error.__cause__ or error,
            )
            return False
        return True

    async def _tournament_game_over(self, game_id: int, state: str) -> None:
        """The result in the game's tournament, if any, and the event moved on. The game's
        end stands whatever happens here: what fails is done by a later tick."""
        try:
            await self._tournaments.game_over(game_id, load_game(state))
        except Exception:  # the move is written: never answer it with an error
            log.exception("game %s: its tournament result waits for the next tick", game_id)

    async def _rating_fields(self, row: GameRow) -> Fields:
        """A finished game's rating changes (or that it was friendly), for its board."""
        return ratings.rating_fields(row.options, await self._store.rating_changes(row.id))

    # ---- tournaments (bot/domain/tournaments/events.py) -----------------------------

    async def create_tournament(self, **request: Any) -> TournamentView:
        """The keyword arguments and checks of ``Tournaments.create``."""
        return await self._tournaments.create(**request)

    async def set_tournament_message(self, event_id: int, message_id: int) -> None:
        await self._tournaments.set_message(event_id, message_id)

    async def join_tournament(
        self, event_id: int, guild_id: int, user_id: int, *, bot_level: str | None = None,
        manager: bool = False,
    ) -> TournamentView:  # fmt: skip
        """``user_id`` signs up; with ``bot_level``, the organiser ``user_id`` enters the bot."""
        if bot_level is not None:
            return await self._tournaments.add_bot(
                event_id, guild_id, user_id, bot_level, manager=manager
            )
        return await self._tournaments.join(event_id, guild_id, user_id)

    async def leave_tournament(self, event_id: int, guild_id: int, user_id: int) -> TournamentView:
        return await self._tournaments.leave(event_id, guild_id, user_id)

    async def start_tournament(
        self, event_id: int, guild_id: int, user_id: int, *, manager: bool = False
    ) -> RoundView:
        return await self._tournaments.start(event_id, guild_id, user_id, manager=manager)

    async def withdraw_from_tournament(
        self, event_id: int, guild_id: int, user_id: int, *, by: int | None = None,
        manager: bool = False,
    ) -> TournamentView:  # fmt: skip
        return await self._tournaments.withdraw(event_id, guild_id, user_id, by=by, manager=manager)

    async def tournament_player_left(self, guild_id: int, user_id: int) -> list[TournamentView]:
        """The player has left the server: off its events (``Tournaments.player_left``)."""
        return await self._tournaments.player_left(guild_id, user_id)

    async def cancel_tournament(
        self, event_id: int, guild_id: int, user_id: int, *, manager: bool = False
    ) -> TournamentView:
        return await self._tournaments.cancel(event_id, guild_id, user_id, manager=manager)

    async def tournament(self, event_id: int, guild_id: int) -> TournamentView:
        return await self._tournaments.view(event_id, guild_id)

    async def tournaments(self, guild_id: int, everything: bool = False) -> list[TournamentView]:
        """The server's events signing up or running (``everything``: all), newest first."""
        return await self._tournaments.events(guild_id, everything)

    async def tournament_round(
        self, event_id: int, guild_id: int, number: int | None = None
    ) -> RoundView:
        return await self._tournaments.round_view(event_id, guild_id, number)

    async def tournament_table(self, event_id: int, guild_id: int) -> TableView:
        return await self._tournaments.table(event_id, guild_id)

    async def standings_picture(self, title: str, subtitle: str, rows: Sequence[Any]) -> bytes:
        """A tournament's table as a PNG (render/standings.py), drawn in the worker pool."""
        from render.standings import standings_png

        return await self._workers.run(standings_png, title, subtitle, tuple(rows))

    # ---- ratings -------------------------------------------------------------------

    async def stats(self, guild_id: int, user_id: int, game: str | None) -> ratings.Stats:
        """The player's ratings and results, with their latest tournaments."""
        found = await ratings.load_stats(self._store, guild_id, user_id, game, self._clock())
        events = await self._tournaments.results_of(guild_id, user_id)
        return replace(found, tournaments=tuple(events))

    async def leaderboard(
        self, guild_id: int, user_id: int, game: str | None
    ) -> ratings.Leaderboard:
        return await ratings.load_leaderboard(self._store, guild_id, user_id, game)

    async def rating_chart(self, points: Sequence[tuple[float, int]], title: str) -> bytes:
        """The chart of ``/game stats``, drawn in the worker pool."""
        from render.chart import rating_chart

        return await self._workers.run(rating_chart, tuple(points), title)

    async def _snapshot(self, row: GameRow) -> Snapshot:
        """The row's version as the service shows it: cached, or loaded in a worker."""
        snapshot = _recall(self._snapshots, (row.id, row.version))
        if snapshot is None:
            snapshot = (await self._workers.run(engine_jobs.show, row, None, None)).snapshot
            _remember(self._snapshots, (row.id, row.version), snapshot)
        return snapshot

    async def _show(
        self, row: GameRow, extra: Fields = (), *, with_image: bool = True
    ) -> BoardView:
        """The row's board; ``with_image=False`` skips rendering for callers that only check.
        A version's board is drawn once: the move that made it, or the first to ask."""
        if row.status == "finished":
            extra = (*extra, *await self._rating_fields(row))
        known = _recall(self._snapshots, (row.id, row.version))
        image = self._images.recall(row.id, row.version) if with_image else None
        if known is not None and (image is not None or not with_image):
            return self._view(row, known, extra, image=image or b"")
        legal = None if known is None else known.legal
        renderer = self._renderer if with_image and image is None else None
        shown = await self._workers.run(engine_jobs.show, row, legal, renderer)
        _remember(self._snapshots, (row.id, row.version), shown.snapshot)
        if renderer is not None:
            image = self._image(row.kind, shown)
            self._images.keep(row.id, row.version, image)
        return self._view(row, shown.snapshot, extra, image=image or b"")

    def _image(self, kind: str, shown: engine_jobs.Shown) -> bytes:
        if shown.render_error is not None:
            log.error("rendering %s failed", kind, exc_info=RenderFailed(shown.render_error))
        return shown.image

    async def _timer_columns(
        self, row: GameRow, before: int | None, after: Snapshot, now: float
    ) -> dict[str, Any]:
        """Restart the turn clock when the player to move changes (one clock per player's
        turn, not per seat or sub-action); stop it at the end."""
        if after.is_over:
            return {"remind_at": None, "claim_at": None, "timeout_at": None, "paused_until": None}
        mover = _user(row.players, after.to_move)
        if mover == _user(row.players, before):
            return {}
        return await self._turn_columns(row.guild_id, row.options, mover, now)

    async def _started(self, game_id: int, guild_id: int, extra: Fields) -> BoardView:
        """The board of a game just started, with ``extra`` fields (who plays which side)."""
        return await self._show(await self._game_row(game_id, guild_id), extra)

    async def _game_row(self, game_id: int, guild_id: int) -> GameRow:
        row = await self._store.get_game(game_id)
        if row is None or row.guild_id != guild_id:
            raise _game_not_found(game_id)
        return row

    def _mover_and_waiting(self, row: GameRow) -> tuple[int | None, int | None]:
        """The user to move and the first player of another team (who may claim)."""
        try:
            game = parse_game(row, full_check=False)
        except CorruptGame:
            return None, None
        seat = game.to_move
        if seat is None:
            return None, None
        others = [s for s in range(game.seats) if game.team_of(s) != game.team_of(seat)]
        return row.players[seat], (row.players[others[0]] if others else None)

    def _view(
        self, row: GameRow, snapshot: Snapshot, extra: Fields = (), *, image: bytes = b""
    ) -> BoardView:
        return boards.board_view(row, snapshot, self._clock(), extra, image=image)

    def _roll(self, spec: DiceSpec) -> tuple[int, ...]:
        dice = tuple(int(d) for d in self._roller(spec))
        if len(dice) != spec.count or not all(1 <= d <= spec.sides for d in dice):
            raise RuntimeError(f"roller returned {dice} for {spec}")
        return dice


# ---- helpers -------------------------------------------------------------------------


DICE_RE = re.compile(r"([0-9]{0,4})\s*[dD]\s*([0-9]{1,6})")  # ASCII, and short
MAX_DICE, MAX_SIDES = 10, 100


def parse_dice(text: str) -> DiceSpec:
    """``"2d8"`` -> DiceSpec(2, 8); ServiceError with the allowed range otherwise."""
    match = DICE_RE.fullmatch(text.strip())
    count = int(match.group(1) or 1) if match else 0
    sides = int(match.group(2)) if match else 0
    if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        shown = text.strip().replace("`", "")[:20] or "(nothing)"
        raise ServiceError(
            f"`{shown}` is not a roll I can make: write NdM, e.g. 2d8 or d6, "
            f"with up to {MAX_DICE} dice of 2 to {MAX_SIDES} sides."
        )
    return DiceSpec(count, sides)


def _recall(cache: OrderedDict[Any, Any], key: Hashable) -> Any:
    """A cached value (marked as recently used), or None."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def _remember(cache: OrderedDict[Any, Any], key: Hashable, value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > LEGAL_CACHE_SIZE:
        cache.popitem(last=False)


def _roll_note(after: Snapshot, seat: int | None, name: str, dice: Sequence[int]) -> str:
    """``"White rolled 3 5"``; when the roll left no legal move and the game passed the turn
    on, ``"White rolled 6 6: no legal move, the turn passes"``."""
    text = f"{name} rolled {' '.join(map(str, dice))}"
    if after.is_over:
        return text
    if after.to_move != seat or after.dice_needed is not None:
        return f"{text}: no legal move, the turn passes"
    return text


def _user(players: Sequence[int], seat: int | None) -> int | None:
    return None if seat is None else players[seat]


def _game_not_found(game_id: int) -> NotFound:
    return NotFound(f"There is no game #{game_id} in this server.")
