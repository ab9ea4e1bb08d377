"""Takebacks (issue 16): a player asks the other side to undo their last move.

What is undone: the asker's own moves at the end of the game's log, back to (not including)
their roll or anyone else's action. So a takeback is possible only while the asker acted
last: never once an opponent has moved or rolled, never after the game ended. In dice games
the roll stays: the position goes back to just after it, with the same dice, and no roll is
due (a takeback can never be used to roll again). In Chebache that is the whole turn since
the roll; in Šačidjun the seat's sub-turn since its roll.

A request is a ``takeback-ask`` event (``bot/domain/events.py``) stored at the game's current
version: any later action on the game (a move, a roll, a draw offer) moves the version on and
the request lapses. One player of the other side answers it (as with draw offers); accepting
restores the position by replaying the log without the undone entries from the start, through
the engine, written ``WHERE version = v`` with the ``takeback-accept`` event: of a racing move
and an acceptance, exactly one wins. A declined request is not asked again at the same
version. Rated games allow takebacks too, with consent; the history records them.

Against the bot (issue 37): the bot answers at once, so by the time its opponent asks, the
bot has usually moved. When the other side is the bot alone (its seats, ``bot_levels``), a
takeback goes back through the bot's answer to the asker's own last moves and undoes both,
as on lichess: the asker's moves (back to their roll, which stays, as above) and everything
the bot did after them (its roll included: the bot rolls afresh when its turn comes again).
That is for friendly games only: in a rated game it is refused when asked (``RATED_BOT``).
The bot grants it (``bot/domain/opponent.py``); afterwards it is the asker's turn, with a
fresh clock as after any takeback (``NEW_TURN``), so the bot has nothing to answer. A bot
turn searched for a version before the takeback cannot be played onto the new one: the
takeback moved the version on (``GameService.play_turn``'s ``expected_version``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from bot.domain import bot_seats
from bot.domain.actions import NEW_TURN, require_player, title_of
from bot.domain.engine_jobs import Action, Snapshot, load
from bot.domain.views import BoardView, CorruptGame, NotAllowed, ServiceError, StaleBoard
from bot.runtime.workers import Workers
from bot.storage import GameStore
from bot.storage.rating_model import is_rated
from bot.storage.rows import TAKEBACK_ACCEPT, TAKEBACK_ASK, TAKEBACK_DECLINE, GameEvent, GameRow
from games import Game
from games.base import IllegalMove

GameRowOf = Callable[[int, int], Awaitable[GameRow]]  # (game, guild) -> row, or NotFound
Apply = Callable[[GameRow, Action], Awaitable[tuple[BoardView, Snapshot]]]

LAPSED = "This takeback request is no longer open: the game moved on, or it was answered."
RATED_BOT = (
    "The bot has answered your move, and this game is rated: taking back a move with the bot's"
    " answer is for friendly games (challenge the bot with rated:False)."
)


@dataclass(frozen=True)
class Plan:
    """What a takeback by ``seat`` would undo: the log keeps its first ``cut`` entries."""

    seat: int
    cut: int
    undone: tuple[str, ...]  # the moves undone, in order
    ply: int  # moves played now
    to_ply: int  # moves played after the takeback
    opponents: tuple[int, ...]  # the seats that may answer (the other side's)
    answer: tuple[str, ...] = ()  # of ``undone``, the bot's answer (a takeback through it)


@dataclass(frozen=True)
class TakebackView:
    """A takeback request as the cogs show it."""

    game_id: int
    title: str
    version: int  # the game's version the request was made at (its buttons carry it)
    asker: int  # user id
    answerers: tuple[int, ...]  # user ids of the other side
    undone: tuple[str, ...]
    status: str  # pending | accepted | declined


def plan_for(game: Game, seat: int, bot_seats: frozenset[int] = frozenset()) -> Plan:
    """The takeback ``seat`` may ask for now; ``ServiceError`` says why there is none.
    ``bot_seats``: the bot's seats; when they are the whole other side, its answer to the
    asker's last moves is undone with them (this module's text)."""
    if game.is_over:
        raise ServiceError(f"This game is over: {game.result_text()}. Nothing can be taken back.")
    log = game.log
    if not log:
        raise NotAllowed("No move has been played yet: there is nothing to take back.")
    others = tuple(s for s in range(game.seats) if game.team_of(s) != game.team_of(seat))
    end = len(log)  # the asker's last entry ends here, after the bot's answer if any
    if others and set(others) <= bot_seats:
        while end > 0 and log[end - 1].seat in others:
            end -= 1
        if end == 0:
            raise NotAllowed("You have not moved yet: there is nothing to take back.")
    last = log[end - 1]
    if last.seat != seat:
        who = game.seat_names[last.seat]
        did = "rolled" if last.dice is not None else "moved"
        raise NotAllowed(f"Too late: {who} has {did} since your last move.")
    cut = end
    while cut > 0 and log[cut - 1].seat == seat and log[cut - 1].move is not None:
        cut -= 1
    if cut == end:
        raise NotAllowed("You have only rolled: there is no move to take back (the dice stay).")
    undone = tuple(str(entry.move) for entry in log[cut:] if entry.move is not None)
    answer = tuple(str(entry.move) for entry in log[end:] if entry.move is not None)
    kept = sum(1 for entry in log[:cut] if entry.move is not None)
    return Plan(seat, cut, undone, game.ply, kept, others, answer)


def restored(game: Game, cut: int) -> Game:
    """The game with its log's first ``cut`` entries, replayed from the start: the position
    exactly as it was then (with its dice, when the last entry kept is a roll)."""
    fresh = type(game)(game.variant_set, game.seats)
    try:
        fresh.replay(game.log[:cut])
    except (IllegalMove, ValueError, AssertionError):
        raise CorruptGame("This game's record does not replay: it cannot be taken back.") from None
    return fresh


# ---- jobs for the worker pool --------------------------------------------------------


def plan_job(row: GameRow, seat: int) -> Plan:
    return plan_for(load(row, None), seat, bot_seats.seats_of(row.options))


def takeback_action(
    seat: int, cut: int, by: int, row: GameRow, game: Game, now: float
) -> dict[str, Any]:
    """The accepted takeback, as an action of ``GameService._apply``: the game becomes the
    restored one in place (the action protocol mutates the loaded game), and the turn's
    clock starts again (``NEW_TURN``: the asker's turn, even when it was already theirs
    after the bot's answer)."""
    plan = plan_for(game, seat, bot_seats.seats_of(row.options))
    if plan.cut != cut:
        raise ServiceError(LAPSED)
    back = restored(game, cut)
    vars(game).clear()
    vars(game).update(vars(back))
    data = {"asker": seat, "undone": list(plan.undone), "to_ply": plan.to_ply}
    event = GameEvent(TAKEBACK_ACCEPT, by, plan.ply, now, data=data)
    return {"draw_offer_seat": None, "events": [event], NEW_TURN: True}


# ---- the service's side --------------------------------------------------------------


def pending(events: list[GameEvent], version: int) -> GameEvent | None:
    """The open request (a ``takeback-ask`` at the game's current version), if any."""
    last = latest(events)
    if last is not None and last.kind == TAKEBACK_ASK and last.version == version:
        return last
    return None


def latest(events: list[GameEvent]) -> GameEvent | None:
    kinds = (TAKEBACK_ASK, TAKEBACK_ACCEPT, TAKEBACK_DECLINE)
    return next((event for event in reversed(events) if event.kind in kinds), None)


class Takebacks:
    """The service's takebacks, over its store, clock and workers; ``game_row``: a game's
    row in its guild; ``apply``: the version-checked write of an action to a game."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        workers: Workers,
        *,
        game_row: GameRowOf,
        apply: Apply,
    ):
        self._store = store
        self._clock = clock
        self._workers = workers
        self._game_row = game_row
        self._apply = apply

    async def ask(self, game_id: int, user_id: int, guild_id: int) -> TakebackView:
        """``user_id`` asks for a takeback; stored at the game's version (restart-safe)."""
        store = self._store
        row = await self._game_row(game_id, guild_id)
        seat = require_player(row, user_id)
        plan = await self._workers.run(plan_job, row, seat)
        if plan.answer and is_rated(row.options):
            raise NotAllowed(RATED_BOT)
        history = await store.game_events(game_id)
        last = latest(history)
        if last is not None and last.version == row.version:
            if last.kind == TAKEBACK_ASK:
                raise NotAllowed("A takeback is already asked in this game: wait for the answer.")
            if last.kind == TAKEBACK_DECLINE:
                raise NotAllowed("Your takeback was declined: the game goes on.")
        data = {
            "undone": list(plan.undone),
            "to_ply": plan.to_ply,
            "cut": plan.cut,
            "opponents": list(plan.opponents),
            "answer": list(plan.answer),
        }
        event = GameEvent(TAKEBACK_ASK, seat, plan.ply, self._clock(), data=data)
        if not await store.add_game_events(game_id, row.version, [event]):
            raise ServiceError("The game moved on meanwhile: nothing was asked. Look at the board.")
        return TakebackView(
            game_id,
            title_of(row.kind),
            row.version,
            user_id,
            tuple(row.players[s] for s in plan.opponents),
            plan.undone,
            "pending",
        )

    async def answer(
        self,
        game_id: int,
        user_id: int,
        accept: bool,
        guild_id: int,
        version: int,
    ) -> tuple[TakebackView, BoardView | None]:
        """An opponent accepts (the restored board comes with the answer) or declines."""
        store = self._store
        row = await self._game_row(game_id, guild_id)
        seat = require_player(row, user_id)
        request = pending(await store.game_events(game_id), row.version)
        if request is None or version != row.version:
            raise ServiceError(LAPSED)
        assert request.seat is not None
        if seat == request.seat:
            raise NotAllowed("You asked for this takeback: your opponent answers it.")
        if seat not in request.data.get("opponents", ()):
            raise NotAllowed("Your side asked for this takeback: the other side answers it.")
        undone = tuple(request.data.get("undone", ()))
        view = TakebackView(
            game_id,
            title_of(row.kind),
            row.version,
            row.players[request.seat],
            tuple(row.players[s] for s in request.data.get("opponents", ())),
            undone,
            "accepted" if accept else "declined",
        )
        now = self._clock()
        if not accept:
            data = {"asker": request.seat}
            event = GameEvent(TAKEBACK_DECLINE, seat, request.ply, now, data=data)
            if not await store.add_game_events(game_id, row.version, [event]):
                raise ServiceError(LAPSED)
            return view, None
        action = partial(takeback_action, request.seat, int(request.data["cut"]), seat)
        try:
            board, _ = await self._apply(row, action)
        except StaleBoard:
            raise ServiceError(LAPSED) from None
        answer = tuple(request.data.get("answer", ()))
        mine = " ".join(undone[: len(undone) - len(answer)])
        note = f"Takeback accepted by <@{user_id}>: <@{view.asker}>'s `{mine}` undone"
        if answer:
            note += f", with <@{user_id}>'s answer `{' '.join(answer)}`"
        return view, replace(board, note=note + ".")
