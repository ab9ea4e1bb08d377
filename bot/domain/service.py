"""The game service: everything the cogs do, as plain async methods over the store.

Every change to a game is one optimistic transaction: read the row at version v, apply the
action to the engine in memory, then write the new state ``WHERE version = v``. A writer that
lost the race gets ``StaleBoard`` with the current board; nothing is half-written.

The service calls the modules that hold each capability (all in ``bot/domain/``): what it
returns and raises is in ``views.py`` (importable from here too), the engine side (loading a
game, the players' actions) in ``actions.py``, seats and rematches in ``challenges.py``, the
clock's work (``tick``) in ``deadlines.py``.
"""

from __future__ import annotations

import logging
import random
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from bot.config import Settings
from bot.domain import clocks, notify, ratings, records, takebacks
from bot.domain import events as game_events
from bot.domain.actions import (
    _answer_draw_action,
    _claim_timeout_action,
    _game_class,
    _known_class,
    _move_action,
    _new_game,
    _offer_draw_action,
    _parse_game,
    _require_turn,
    _resign_action,
    _roll_action,
    _title,
    _turn_action,
)
from bot.domain.actions import natural_key as natural_key
from bot.domain.deadlines import Deadlines
from bot.domain.events import GameEvent
from bot.domain.jobs import Outbox
from bot.domain.server_settings import Refused, ServerSettings, change
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
    ServiceError,
    StaleBoard,
)
from bot.domain.views import IllegalMoveError as IllegalMoveError
from bot.domain.views import RollDue as RollDue
from bot.runtime import workers
from bot.runtime.workers import Action, Snapshot, Workers
from bot.storage import GameStore
from bot.storage.sqlite import ChallengeRow, GameRow
from games import Game, load_game
from games.base import DiceSpec, LogEntry

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Roller = Callable[[DiceSpec], Sequence[int]]
Renderer = Callable[[Game], bytes]

FIRST_CHOICES = ("me", "them", "random")
LEGAL_CACHE_SIZE = 512


# ---- defaults ------------------------------------------------------------------------

_system_random = random.SystemRandom()


def system_roller(spec: DiceSpec) -> tuple[int, ...]:
    return tuple(_system_random.randint(1, spec.sides) for _ in range(spec.count))


def default_renderer(game: Game) -> bytes:
    from render import render_png  # lazy: the renderer is optional at import time

    return render_png(game)


# ---- the service ---------------------------------------------------------------------


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
        bot_user_id: int | None = None,
    ):
        """``workers``: where engine work and rendering run (default: a thread, for tests and
        tools; the bot passes a process pool, which needs a top-level ``renderer``).
        ``outbox``: the once-only notices, shared with other processes (bot/domain/jobs.py).
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
        self._vacations = Vacations(store, clock, lambda row: self._mover_and_waiting(row)[0])
        self._deadlines = Deadlines(
            store,
            clock,
            self._outbox,
            bot_user_id=bot_user_id,
            time_of=self._time_of,
            mover_and_waiting=self._mover_and_waiting,
            apply=self._apply,
        )

    async def close(self) -> None:
        """Stop the worker processes, if any."""
        await self._workers.close()

    # ---- challenges --------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        challenger_id: int,
        opponent_id: int | None,
        opponent_is_bot: bool = False,
        first: str = "random",
        variants: Iterable[str] = (),
        partner_id: int | None = None,
        opponent_partner_id: int | None = None,
        bots: Iterable[int] = (),
        options: dict[str, Any] | None = None,
        parent_channel_id: int | None = None,
    ) -> ChallengeView:
        """A challenge to ``opponent_id``; team games may name a partner for either side
        (every invited player must accept). ``bots``: invited users who are bots; only the
        bot's own user may play (any number of seats), with a ``level`` option. Without an
        opponent, the challenge is open (bot/domain/challenges.py): one against one.
        ``options["time"]``: seconds per move (default: the server's); the server's settings
        may refuse the game or the channel (``parent_channel_id``: a thread's channel)."""
        from bot.domain import opponent

        partners = (partner_id, opponent_partner_id)
        if opponent_id is None and partners != (None, None):
            from bot.domain.challenges import OPEN_IS_ONE_AGAINST_ONE

            raise NotAllowed(OPEN_IS_ONE_AGAINST_ONE)
        invited = [p for p in (opponent_id, *partners) if p is not None]
        bots = [*bots, *([opponent_id] if opponent_is_bot and opponent_id is not None else [])]
        try:
            options = opponent.check_challenge(self.bot_user_id, invited, bots, options or {})
        except ValueError as error:
            raise NotAllowed(str(error)) from None
        if challenger_id in invited:
            raise NotAllowed("You cannot challenge yourself or be your own partner.")
        people = [user for user in invited if user != self.bot_user_id]
        if len(set(people)) != len(people):
            raise NotAllowed("Each player can take only one place in a game.")
        if first not in FIRST_CHOICES:
            raise ServiceError("Who moves first must be `me`, `them` or `random`.")
        cls = _game_class(kind)
        seats = 1 + max(len(invited), 1)  # an open challenge has one place
        if seats not in cls.seat_counts:
            raise ServiceError(f"{cls.title} is not played with partners.")
        chosen = tuple(sorted(set(variants)))
        _new_game(cls, chosen, seats)  # validates variants and the seat count
        colour = (options or {}).get("colour")
        colours = [name.lower() for name in cls.seat_names[:2]]
        if colour is not None and colour not in (*colours, "random"):
            raise ServiceError(f"The colour must be {' or '.join(colours)} or random.")
        rules = await self.server_settings(guild_id)
        try:
            here = (channel_id, parent_channel_id or channel_id)
            options = rules.challenge_options(
                cls.key, here, options or {}, self._settings.claim_after
            )
        except Refused as refused:
            raise NotAllowed(str(refused)) from None
        except clocks.ClockError as error:
            raise ServiceError(str(error)) from None
        now = self._clock()
        challenge_id = await self._store.insert_challenge(
            guild_id=guild_id,
            channel_id=channel_id,
            kind=cls.key,
            variants=chosen,
            challenger_id=challenger_id,
            opponent_id=opponent_id,
            first=first,
            status="pending",
            created_at=now,
            expires_at=now + self._settings.challenge_ttl,
            partners=partners,
            options=options,
        )
        return await self.get_challenge(challenge_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        if not await self._store.update_challenge(challenge_id, message_id=message_id):
            raise _challenge_not_found(challenge_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeView:
        row = await self._challenge(challenge_id)
        return _challenge_view(row, self._clock())

    async def accept_challenge(self, challenge_id: int, user_id: int) -> BoardView | ChallengeView:
        """An invited player accepts. The game starts (a ``BoardView``) once everyone invited
        has accepted; until then the challenge (a ``ChallengeView``) says who is missing.
        An open challenge is taken by the first to accept (bot/domain/challenges.py)."""
        from bot.domain import challenges

        row = await self._challenge(challenge_id)
        taker = None
        if row.is_open:
            row, taker = challenges.take_open(row, user_id, self._clock()), user_id
        elif user_id not in row.invited and row.status == "accepted":
            raise challenges.too_late(row)
        if user_id not in row.invited:
            who = ", ".join(f"<@{user}>" for user in row.invited)
            raise NotAllowed(f"Only {who} can accept this challenge.")
        if user_id in row.accepted:
            raise NotAllowed("You have already accepted; the others still have to.")
        now = self._clock()
        _check_pending(row, now)
        accepted = (*row.accepted, user_id)
        if set(row.invited) - set(accepted):
            if not await self._store.update_challenge(
                challenge_id,
                expected_status="pending",
                expected_accepted=row.accepted,
                accepted=accepted,
            ):
                _check_pending(await self._challenge(challenge_id), now)
                raise ServiceError("Someone else answered at the same moment; click again.")
            return await self.get_challenge(challenge_id)
        from bot.domain import opponent

        cls = _game_class(row.kind)
        players, variants, first_note = challenges.seat_players(row, cls, self._roll)
        game = _new_game(cls, variants, len(players))
        game_id = await self._store.accept_challenge(
            challenge_id,
            now,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            kind=cls.key,
            variants=variants,
            players=players,
            state=game.to_json(),
            version=1,
            status="active",
            created_at=now,
            updated_at=now,
            options=opponent.game_options(row.options, players, self.bot_user_id),
            taken_by=taker,
            **await self._turn_columns(
                row.guild_id, row.options, _user(players, game.to_move), now
            ),
        )
        if game_id is None:  # answered or expired meanwhile
            fresh = await self._challenge(challenge_id)
            if taker is not None and fresh.status == "accepted":
                raise challenges.too_late(fresh)
            _check_pending(fresh, now)
            raise ServiceError("This challenge can no longer be accepted.")
        game_row = await self._game_row(game_id, row.guild_id)
        return await self._show(game_row, extra=(first_note,))

    async def decline_challenge(self, challenge_id: int, user_id: int) -> ChallengeView:
        """The challenged player declines (or the challenger withdraws)."""
        row = await self._challenge(challenge_id)
        if user_id != row.challenger_id and user_id not in row.invited:
            raise NotAllowed("This is not your challenge.")
        now = self._clock()
        _check_pending(row, now)
        if not await self._store.update_challenge(
            challenge_id, expected_status="pending", status="declined"
        ):
            _check_pending(await self._challenge(challenge_id), now)
        return await self.get_challenge(challenge_id)

    async def rematch(self, game_id: int, user_id: int, *, guild_id: int) -> ChallengeView:
        """A player of the finished game asks for its rematch (bot/domain/challenges.py)."""
        from bot.domain.challenges import create_rematch

        row = await self._game_row(game_id, guild_id)
        ttl = self._settings.challenge_ttl
        challenge_id = await create_rematch(self._store, row, user_id, self._clock(), ttl)
        return await self.get_challenge(challenge_id)

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
        logged action."""
        row = await self._game_row(game_id, guild_id)
        return await self._workers.run(workers.history, row)

    async def record_files(
        self, game_id: int, guild_id: int, names: dict[int, str] | None = None
    ) -> tuple[str, str]:
        """The game's record as JSON and as a move list (``bot/domain/records.py``)."""
        row = await self._game_row(game_id, guild_id)
        history = await self._store.game_events(game_id)
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
        return [self._summary(row) for row in rows]

    async def is_first_timer(self, guild_id: int, user_id: int) -> bool:
        """True when the user has no game in this server yet, in progress or finished."""
        return not await self._store.games_of_user(
            guild_id, user_id, include_finished=True, limit=1
        )

    async def summary(self, game_id: int, guild_id: int) -> GameSummary:
        """The game's row as a summary (kind, players, home), without loading the game."""
        return self._summary(await self._game_row(game_id, guild_id))

    async def game_in_thread(self, guild_id: int, thread_id: int) -> GameSummary | None:
        row = await self._store.game_in_thread(guild_id, thread_id)
        return self._summary(row) if row else None

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
        action = partial(_move_action, user_id, text)
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
        _require_turn(row, before, user_id)
        spec = before.dice_needed
        if spec is None:
            raise NotAllowed("No roll is due now: the dice are rolled; make your move.")
        dice = self._roll(spec)  # here, not in the worker: the roller is the service's
        action = partial(_roll_action, user_id, dice)
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
        action = partial(_turn_action, user_id, tuple(moves))
        return await self._change(game_id, guild_id, expected_version, action)

    async def saved_game(self, game_id: int, guild_id: int) -> tuple[int, str]:
        """The game's version and its saved state (``Game.to_json()``), for a search."""
        row = await self._game_row(game_id, guild_id)
        return row.version, row.state

    async def resign(
        self, game_id: int, user_id: int, *, guild_id: int, expected_version: int | None = None
    ) -> BoardView:
        action = partial(_resign_action, user_id)
        return await self._change(game_id, guild_id, expected_version, action)

    async def offer_draw(self, game_id: int, user_id: int, *, guild_id: int) -> BoardView:
        """Offer a draw; an offer made while the opponent's offer stands agrees to it."""
        return await self._change(game_id, guild_id, None, partial(_offer_draw_action, user_id))

    async def answer_draw(
        self, game_id: int, user_id: int, accept: bool, *, guild_id: int
    ) -> BoardView:
        action = partial(_answer_draw_action, user_id, accept)
        return await self._change(game_id, guild_id, None, action)

    async def ask_takeback(
        self, game_id: int, user_id: int, *, guild_id: int
    ) -> takebacks.TakebackView:
        """Ask the other side to undo your last move (``bot/domain/takebacks.py``)."""
        return await takebacks.ask(self, game_id, user_id, guild_id)

    async def answer_takeback(
        self, game_id: int, user_id: int, accept: bool, *, guild_id: int, version: int
    ) -> tuple[takebacks.TakebackView, BoardView | None]:
        """Accept (the restored board comes back) or decline a takeback request."""
        return await takebacks.answer(self, game_id, user_id, accept, guild_id, version)

    async def game_events(self, game_id: int, guild_id: int) -> list[GameEvent]:
        """The game's event history (``bot/domain/events.py``)."""
        await self._game_row(game_id, guild_id)
        return await self._store.game_events(game_id)

    async def claim_timeout(self, game_id: int, user_id: int, *, guild_id: int) -> BoardView:
        action = partial(_claim_timeout_action, user_id)
        return await self._change(game_id, guild_id, None, action)

    def free_roll(self, text: str) -> tuple[DiceSpec, tuple[int, ...]]:
        """Dice for anything outside a game (``/roll 2d8``), rolled server-side by the same
        roller as the games'. ``NdM`` with N 1..10 and M 2..100; ``dM`` means ``1dM``."""
        return (spec := parse_dice(text)), self._roll(spec)

    # ---- the clock (bot/domain/deadlines.py) ----------------------------------------------

    async def tick(self, send: Callable[[Notice], Awaitable[None]] | None = None) -> list[Notice]:
        """Send what is due (``Deadlines.tick``): expired challenges, reminders, claim
        notices, games ended on time, the day's digests. With ``send`` (the bot), each is
        sent, then marked done; without, marked done and returned for the caller to post."""
        return await self._deadlines.tick(send, partial(notify.digests, self))

    # ---- notifications (bot/domain/notify.py) ---------------------------------------------

    async def notify_settings(self, guild_id: int, user_id: int) -> notify.NotifySettings:
        return await notify.settings(self, guild_id, user_id)

    async def set_notify(
        self, guild_id: int, user_id: int, choice: notify.NotifyChoice
    ) -> notify.NotifySettings:
        return await notify.change(self, guild_id, user_id, self._clock(), choice)

    async def dm_failed(self, guild_id: int, user_id: int) -> bool:
        """A DM to the player failed; True the first time (tell them once)."""
        return await notify.dm_failed(self, guild_id, user_id)

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
        done = await self._workers.run(workers.apply, row, action, now, legal, self._renderer)
        after = done.shown.snapshot
        timer = await self._timer_columns(row, done.before, after, now)
        columns = done.columns | {"updated_at": now} | timer
        # The time of each logged action, then what the action says happened (bot/domain/events.py).
        said = columns.pop("events", ())
        history = [GameEvent(game_events.ENTRY, e.seat, ply, now) for ply, e in done.entries]
        history += [replace(event, at=now) for event in said]
        # The game's end is rated in the transaction that writes it (bot/domain/ratings.py).
        job = ratings.job_for(row, load_game(after.state), now) if after.is_over else None
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
        if actor is not None and clocks.paused(row.paused_until, now):  # back from vacation
            await self._vacations.end(row.guild_id, actor)
            changed = await self._game_row(row.id, row.guild_id)
        # The next player's menu is ready before they start typing.
        _remember(self._snapshots, (changed.id, changed.version), after)
        extra = await self._rating_fields(changed) if after.is_over else ()
        image = self._image(row.kind, done.shown)
        return self._view(changed, after, extra, image=image), after

    async def _rating_fields(self, row: GameRow) -> Fields:
        """A finished game's rating changes (or that it was friendly), for its board."""
        return ratings.rating_fields(row.options, await self._store.rating_changes(row.id))

    # ---- ratings -------------------------------------------------------------------

    async def stats(self, guild_id: int, user_id: int, game: str | None) -> ratings.Stats:
        return await ratings.load_stats(self._store, guild_id, user_id, game, self._clock())

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
            snapshot = (await self._workers.run(workers.show, row, None, None)).snapshot
            _remember(self._snapshots, (row.id, row.version), snapshot)
        return snapshot

    async def _show(
        self, row: GameRow, extra: Fields = (), *, with_image: bool = True
    ) -> BoardView:
        """The row's board; ``with_image=False`` skips rendering for callers that only check."""
        if row.status == "finished":
            extra = (*extra, *await self._rating_fields(row))
        known = _recall(self._snapshots, (row.id, row.version))
        if known is not None and not with_image:
            return self._view(row, known, extra)
        legal = None if known is None else known.legal
        renderer = self._renderer if with_image else None
        shown = await self._workers.run(workers.show, row, legal, renderer)
        _remember(self._snapshots, (row.id, row.version), shown.snapshot)
        return self._view(row, shown.snapshot, extra, image=self._image(row.kind, shown))

    def _image(self, kind: str, shown: workers.Shown) -> bytes:
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

    async def _challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self._store.get_challenge(challenge_id)
        if row is None:
            raise _challenge_not_found(challenge_id)
        return row

    async def _game_row(self, game_id: int, guild_id: int) -> GameRow:
        row = await self._store.get_game(game_id)
        if row is None or row.guild_id != guild_id:
            raise _game_not_found(game_id)
        return row

    def _mover_and_waiting(self, row: GameRow) -> tuple[int | None, int | None]:
        """The user to move and the first player of another team (who may claim)."""
        try:
            game = _parse_game(row, full_check=False)
        except CorruptGame:
            return None, None
        seat = game.to_move
        if seat is None:
            return None, None
        others = [s for s in range(game.seats) if game.team_of(s) != game.team_of(seat)]
        return row.players[seat], (row.players[others[0]] if others else None)

    def _roll(self, spec: DiceSpec) -> tuple[int, ...]:
        dice = tuple(int(d) for d in self._roller(spec))
        if len(dice) != spec.count or not all(1 <= d <= spec.sides for d in dice):
            raise RuntimeError(f"roller returned {dice} for {spec}")
        return dice

    def _view(
        self, row: GameRow, snapshot: Snapshot, extra: Fields = (), *, image: bytes = b""
    ) -> BoardView:
        """What to show of the row's version (``image``: its board, when rendered)."""
        seat = snapshot.to_move
        spec = snapshot.dice_needed
        return BoardView(
            game_id=row.id,
            kind=row.kind,
            title=snapshot.title,
            version=row.version,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            thread_id=row.thread_id,
            message_id=row.message_id,
            players=row.players,
            seat_names=snapshot.seat_names,
            to_move_user=None if seat is None else row.players[seat],
            status=snapshot.status,
            last_action=snapshot.last_action,
            fields=snapshot.summary + _extra_fields(row, snapshot) + tuple(extra),
            finished=snapshot.is_over,
            result=snapshot.result,
            image=image,
            dice_needed=None if spec is None else str(spec),
            legal_count=len(snapshot.legal),
            answers=snapshot.answers,
            bot_levels=_bot_levels(row),
            clock=None
            if seat is None or snapshot.is_over
            else clocks.clock_line(
                row.players[seat], row.claim_at, row.paused_until, self._clock()
            ),
        )

    def _summary(self, row: GameRow) -> GameSummary:
        if row.status == "finished" and row.result:
            # Stored with the game when it ended: lists of old games need not load them.
            status, finished, seat = row.result, True, None
        else:
            try:
                game = _parse_game(row, full_check=False)
                status, finished, seat = game.status_line(), game.is_over, game.to_move
            except CorruptGame:
                status, finished, seat = "This game's saved state is damaged.", False, None
        return GameSummary(
            game_id=row.id,
            kind=row.kind,
            title=_title(row.kind),
            players=row.players,
            status=status,
            finished=finished or row.status == "finished",
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            thread_id=row.thread_id,
            message_id=row.message_id,
            to_move_user=None if seat is None else row.players[seat],
        )


# ---- helpers -------------------------------------------------------------------------


def last_action(entries: Sequence[LogEntry]) -> str | None:
    """The last logged action, joined with what led to it by the same seat.

    A removal (``x...``) is shown after the move that made the mill, and moves after the
    roll they used, the whole turn since the roll: ``"d2-d3 xg7"``, ``"[3 5] 13-8 8-5"``.
    """
    if not entries:
        return None
    turn = [entries[-1]]
    for entry in reversed(entries[:-1]):
        if turn[0].dice is not None or entry.seat != turn[0].seat:
            break
        turn.insert(0, entry)
    if turn[0].dice is not None:
        return " ".join(str(entry) for entry in turn)
    shown = [entries[-1]]
    for entry in reversed(entries[:-1]):
        latest = shown[0]
        is_removal = (latest.move or "").startswith("x")
        if entry.seat != latest.seat or not (entry.dice is not None or is_removal):
            break
        shown.insert(0, entry)
    return " ".join(str(entry) for entry in shown)


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


def _recall(cache: OrderedDict[tuple[int, int], Any], key: tuple[int, int]) -> Any:
    """A cached value (marked as recently used), or None."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def _remember(cache: OrderedDict[tuple[int, int], Any], key: tuple[int, int], value: Any) -> None:
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


def _history_line(ply: int, game: Game, entry: LogEntry) -> str:
    name = game.seat_names[entry.seat]
    if entry.dice is not None:
        return f"{ply}. {name} rolls {entry}"
    return f"{ply}. {name} {entry.move}"


def _check_pending(row: ChallengeRow, now: float) -> None:
    if row.status == "expired" or (row.status == "pending" and now >= row.expires_at):
        raise ServiceError("This challenge has expired.")
    if row.status != "pending":
        raise ServiceError(f"This challenge was already {row.status}.")


def _challenge_view(row: ChallengeRow, now: float) -> ChallengeView:
    expired = row.status == "pending" and now >= row.expires_at
    cls = _known_class(row.kind)
    seat_names: tuple[str, ...] = ()
    if row.seats and cls is not None:
        seat_names = tuple(_new_game(cls, row.variants, len(row.seats)).seat_names)
    return ChallengeView(
        challenge_id=row.id,
        kind=row.kind,
        title=_title(row.kind),
        variants=row.variants,
        challenger_id=row.challenger_id,
        opponent_id=row.opponent_id,
        first=row.first,
        status="expired" if expired else row.status,
        expires_at=row.expires_at,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        teams=row.teams,
        invited=row.invited,
        accepted=row.accepted,
        options=tuple(sorted(row.options.items())),
        draws_sides=callable(getattr(cls, "seating", None)) and not row.seats,
        seats=row.seats or (),
        seat_names=seat_names,
        rematch_of=row.rematch_of,
        time=row.options.get("time") if isinstance(row.options.get("time"), int) else None,
    )


def _user(players: Sequence[int], seat: int | None) -> int | None:
    return None if seat is None else players[seat]


def _bot_levels(row: GameRow) -> tuple[tuple[int, str], ...]:
    levels = row.options.get("bot_levels") or {}
    return tuple(sorted((int(seat), str(level)) for seat, level in levels.items()))


def _extra_fields(row: GameRow, game: Snapshot) -> Fields:
    fields: list[tuple[str, str]] = []
    if row.variants:
        fields.append(("Variants", ", ".join(row.variants)))
    seat = row.draw_offer_seat
    if seat is not None and not game.is_over:
        name = game.seat_names[seat]
        fields.append(("Draw offer", f"<@{row.players[seat]}> ({name}) offers a draw"))
    return tuple(fields)


def _game_not_found(game_id: int) -> NotFound:
    return NotFound(f"There is no game #{game_id} in this server.")


def _challenge_not_found(challenge_id: int) -> NotFound:
    return NotFound(f"There is no challenge #{challenge_id}.")
