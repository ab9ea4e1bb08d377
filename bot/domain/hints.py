"""Hints (issue 34): ``/game hint`` shows the player to move the turn the bot would play at
the ``normal`` level, with one sentence saying why (``search.explain.reason``), privately.

Where a hint is allowed (``refusal`` says why not, in a sentence for the asker):

- in a friendly game against the bot (it holds seats: ``bot_levels``), without asking;
- in a friendly game whose challenge said ``hints:true`` (the ``hints`` option: refused with
  a rated challenge, shown on the challenge and on the board as "Hints allowed");
- never in a rated game, against the bot too: a rating says how well a player plays alone
  (as on lichess, where the computer's help is for unrated games only; and as the takeback
  through the bot's answer here, ``takebacks.py``). A rated game against the bot is
  refused with the way to get hints: challenge it with ``rated:False``;
- only to a player of the game, on their own turn (a hint is a move to play now), once the
  dice are rolled in the dice games, and never once the game is over.

Each hint taken is a ``hint`` event (``bot/domain/events.py``) at the game's version, with
the seat and the ply: the game record and ``/game history`` show it ("White takes a hint",
never the move), and the record's header counts the hints each side took. Asking again at
the same version shows the same hint and is not counted twice. The search runs in a worker
(``hint_job``), never on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.domain import bot_seats
from bot.domain.actions import parse_game, require_player, title_of
from bot.domain.takebacks import GameRowOf
from bot.domain.views import NotAllowed, ServiceError
from bot.runtime.workers import Workers
from bot.storage import GameStore
from bot.storage.rating_model import is_rated
from bot.storage.rows import HINT, GameEvent, GameRow
from search import Search
from search.explain import reason

HINTS = "hints"  # the challenge's option (a bool; absent is False)
HINT_LEVEL = "normal"  # the level whose move a hint shows
BOARD_FIELD = ("Hints", "Hints allowed (`/game hint`)")

RATED = (
    "This game is rated: hints are for friendly games. Challenge with rated:False and"
    " hints:True to play with them."
)
RATED_BOT = (
    "This game against the bot is rated: hints are for friendly games (challenge the bot"
    " with rated:False)."
)
NOT_CHOSEN = (
    "This game was not started with hints: they are allowed in friendly games whose"
    " challenge said hints:True, and in friendly games against the bot."
)
HINTS_NEED_FRIENDLY = (
    "Hints are for friendly games: add rated:False to a challenge with hints:True."
)


@dataclass(frozen=True)
class Hint:
    """A hint as the cogs show it: the moves of the turn, and why."""

    game_id: int
    title: str
    moves: tuple[str, ...]
    reason: str
    counted: int  # the hints the asker's seat has taken in this game, this one included


# ---- where hints are allowed ---------------------------------------------------------


def chosen(options: Mapping[str, Any]) -> bool:
    """Whether a challenge's or game's options ask for hints."""
    return options.get(HINTS) is True


def check_challenge(options: Mapping[str, Any]) -> dict[str, Any]:
    """A challenge's options with ``hints`` checked: a bool, and only in a friendly game
    (``ValueError`` says why not). ``hints:false`` is left out, as absent."""
    checked = dict(options)
    value = checked.pop(HINTS, False)
    if not isinstance(value, bool):
        raise ValueError("hints must be true or false.")
    if value and is_rated(checked):
        raise ValueError(HINTS_NEED_FRIENDLY)
    if value:
        checked[HINTS] = True
    return checked


def board_fields(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The board's field saying that the game allows hints, when its challenge asked."""
    return (BOARD_FIELD,) if chosen(options) else ()


def refusal(row: GameRow) -> str | None:
    """Why no hint may be had in this game whatever the position (None: they may)."""
    against_bot = _against_bot(row)
    if is_rated(row.options):
        return RATED_BOT if against_bot else RATED
    if chosen(row.options) or against_bot:
        return None
    return NOT_CHOSEN


def _against_bot(row: GameRow) -> bool:
    """Whether the bot plays in this game (holds seats, with their levels)."""
    return bool(bot_seats.seats_of(row.options))


# ---- the job for the worker pool -----------------------------------------------------


def hint_job(
    row: GameRow, seat: int, iterations: int | None, seed: int
) -> tuple[list[str], str, int]:
    """The turn the bot would play for ``seat`` at the hint's level, why, and the moves
    played so far; refused when it is not ``seat``'s turn, a roll is due or the game is
    over."""
    game = parse_game(row)
    if game.is_over:
        raise ServiceError(f"This game is over: {game.result_text()}. No hint is needed.")
    if game.to_move != seat:
        mover = game.to_move
        who = f"<@{row.players[mover]}>" if mover is not None else "nobody"
        raise NotAllowed(f"It is {who}'s turn: a hint is for your own move.")
    spec = game.dice_needed()
    if spec is not None:
        raise NotAllowed(f"Roll the dice first ({spec}): the hint depends on them.")
    if not game.legal_moves():  # e.g. a Šačidjun redemption offer waits for its answer
        raise NotAllowed(f"There is no move to play now: {game.status_line()}")
    moves = Search(HINT_LEVEL, seed, iterations).choose_turn(game)
    return moves, reason(game, moves), game.ply


# ---- the service's side --------------------------------------------------------------


class Hints:
    """The service's hints, over its store, clock and workers; ``game_row``: a game's row
    in its guild; ``iterations``: a fixed search size instead of the level's clock (tests)."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        workers: Workers,
        *,
        game_row: GameRowOf,
        iterations: int | None = None,
    ):
        self._store = store
        self._clock = clock
        self._workers = workers
        self._game_row = game_row
        self._iterations = iterations

    async def hint(self, game_id: int, user_id: int, guild_id: int) -> Hint:
        """The hint for ``user_id``'s move now, counted once per version (this module's
        text); ``NotAllowed``/``ServiceError`` say why there is none."""
        row = await self._game_row(game_id, guild_id)
        seat = require_player(row, user_id)
        if row.status == "finished":
            raise ServiceError(f"Game #{game_id} is over: no hint is needed.")
        refused = refusal(row)
        if refused is not None:
            raise NotAllowed(refused)
        seed = game_id * 1_000_003 + row.version  # the same hint when asked again
        job = (row, seat, self._iterations, seed)
        moves, why, ply = await self._workers.run(hint_job, *job)
        events = await self._store.game_events(game_id)
        taken = [event for event in events if event.kind == HINT and event.seat == seat]
        if not any(event.version == row.version for event in taken):
            event = GameEvent(HINT, seat, ply, self._clock())
            if not await self._store.add_game_events(game_id, row.version, [event]):
                raise ServiceError("The game moved on meanwhile: ask for a hint again.")
            taken.append(event)
        return Hint(game_id, title_of(row.kind), tuple(moves), why, len(taken))
