"""A stored game's engine: loading a row's game, new games and their titles, and what players
do to a loaded game.

The actions (``move_action``...) run in a worker (``engine_jobs.apply``), bound with
``functools.partial`` by the service: each takes the row, the loaded game and the time,
mutates the game (or raises a ``ServiceError``) and returns extra columns to write.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from bot.domain import clocks
from bot.domain.views import CorruptGame, IllegalMoveError, NotAllowed, RollDue, ServiceError
from bot.storage.rows import DRAW_ACCEPT, DRAW_DECLINE, DRAW_OFFER, GameEvent, GameRow
from games import Game, game_class, load_game
from games.base import IllegalMove

log = logging.getLogger(__name__)

LEGAL_EXAMPLES = 5
# An action's column that is not written: the turn's clock starts again although the player
# to move stays the same (a takeback through the bot's answer, ``takebacks.py``).
NEW_TURN = "new_turn"


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key reading digit runs as numbers: ``open2`` < ``open10``, ``3+s`` < ``12``."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


def parse_game(row: GameRow, *, full_check: bool = True) -> Game:
    """The engine for a stored row; any failure to load is ``CorruptGame``. Without
    ``full_check`` the legal moves are not generated (lists and thread look-ups, which only
    show the status, stay cheap for games whose move generation is costly)."""
    try:
        game = load_game(row.state)
        if game.key != row.kind or game.seats != len(row.players):
            raise ValueError("state does not match the game row")
        if full_check:
            game.legal_moves()  # a damaged position often fails only here
        game.status_line()
    except Exception:
        log.exception("game %s: stored state fails to load", row.id)
        raise CorruptGame(f"Game #{row.id} cannot be loaded: its saved state is damaged.") from None
    return game


def game_class_named(kind: str) -> type[Game]:
    try:
        return game_class(kind)
    except KeyError:
        raise ServiceError(f"There is no game called {kind!r}.") from None


def new_game(cls: type[Game], variants: Iterable[str], seats: int = 2) -> Game:
    try:
        return cls(variants, seats)
    except ValueError as exc:
        raise ServiceError(str(exc).capitalize() + ".") from None


def known_game_class(kind: str) -> type[Game] | None:
    try:
        return game_class(kind)
    except KeyError:
        return None


def title_of(kind: str) -> str:
    cls = known_game_class(kind)
    return cls.title if cls else kind


def require_player(row: GameRow, user_id: int) -> int:
    """The seat of ``user_id``; NotAllowed for anyone else."""
    if user_id not in row.players:
        raise NotAllowed("You are not playing in this game.")
    return row.players.index(user_id)


def require_turn(row: GameRow, to_move: int | None, user_id: int) -> None:
    """NotAllowed unless ``user_id`` plays the seat to move (``to_move``: None once over)."""
    require_player(row, user_id)
    if to_move is not None and row.players[to_move] != user_id:
        raise NotAllowed(f"It is <@{row.players[to_move]}>'s turn.")


# ---- actions: run in a worker on the loaded game; they mutate it (or raise ServiceError)
# and return extra columns to write.


def move_action(user_id: int, text: str, row: GameRow, game: Game, now: float) -> dict[str, Any]:
    require_turn(row, game.to_move, user_id)
    spec = game.dice_needed()
    if spec is not None and game.waits_for_roll(text):
        raise RollDue(f"Not yet: roll the dice first ({spec}), then move.")
    try:
        game.push_line(text)
    except IllegalMove as exc:
        raise IllegalMoveError(_illegal_message(text, exc), exc.legal) from None
    except ValueError:  # a parser's own failure (e.g. a number past int's digit limit)
        shown = text.strip().replace("`", "")[:40]
        raise IllegalMoveError(f"`{shown}` is not a move I can read.") from None
    return {"draw_offer_seat": None}  # any move clears a pending draw offer


def turn_action(
    user_id: int, moves: tuple[str, ...], row: GameRow, game: Game, now: float
) -> dict[str, Any]:
    if not moves:
        raise IllegalMoveError("No move given.")
    for text in moves:
        if game.is_over:
            break
        move_action(user_id, text, row, game, now)
    return {"draw_offer_seat": None}


def roll_action(
    user_id: int, dice: tuple[int, ...], row: GameRow, game: Game, now: float
) -> dict[str, Any]:
    """Record the dice the service rolled (for this version's ``dice_needed``)."""
    require_turn(row, game.to_move, user_id)
    if game.dice_needed() is None:
        raise NotAllowed("No roll is due now: the dice are rolled; make your move.")
    game.roll(dice)
    return {}


def resign_action(user_id: int, row: GameRow, game: Game, now: float) -> dict[str, Any]:
    game.resign(require_player(row, user_id))
    return {}


def offer_draw_action(user_id: int, row: GameRow, game: Game, now: float) -> dict[str, Any]:
    seat = require_player(row, user_id)
    offered = row.draw_offer_seat
    if offered is not None and game.team_of(offered) == game.team_of(seat):
        who = "You have" if offered == seat else "Your side has"
        raise NotAllowed(f"{who} already offered a draw; wait for the answer.")
    if offered is not None:
        game.agree_draw()
        return {"events": [GameEvent(DRAW_ACCEPT, seat, game.ply, now)]}
    offer = GameEvent(DRAW_OFFER, seat, game.ply, now)
    return {"draw_offer_seat": seat, "events": [offer]}


def answer_draw_action(
    user_id: int, accept: bool, row: GameRow, game: Game, now: float
) -> dict[str, Any]:
    seat = require_player(row, user_id)
    if row.draw_offer_seat is None:
        raise ServiceError("There is no draw offer to answer.")
    if row.draw_offer_seat == seat:
        raise NotAllowed("You made this offer; your opponent answers it.")
    if game.team_of(row.draw_offer_seat) == game.team_of(seat):
        raise NotAllowed("Your side made this offer; the other side answers it.")
    if accept:
        game.agree_draw()
    kind = DRAW_ACCEPT if accept else DRAW_DECLINE
    return {"draw_offer_seat": None, "events": [GameEvent(kind, seat, game.ply, now)]}


def claim_timeout_action(user_id: int, row: GameRow, game: Game, now: float) -> dict[str, Any]:
    seat = require_player(row, user_id)
    mover = game.to_move
    if mover is not None and game.team_of(mover) == game.team_of(seat):
        whose = "your" if mover == seat else "your side's"
        raise NotAllowed(f"It is {whose} turn: there is nothing to claim.")
    if clocks.paused(row.paused_until, now) and mover is not None:
        until = int(row.paused_until or 0)
        raise NotAllowed(f"<@{row.players[mover]}> is on vacation until <t:{until}:f>.")
    if row.claim_at is None or now < row.claim_at:
        when = f" <t:{int(row.claim_at)}:R>" if row.claim_at is not None else " later"
        raise NotAllowed(f"You can claim a win by timeout{when}.")
    game.claim_timeout(seat)
    return {}


def _illegal_message(text: str, exc: IllegalMove) -> str:
    shown = text.strip().replace("`", "")[:40] or "(nothing)"
    message = f"`{shown}` is not legal: {exc.reason.rstrip('.')}."
    if exc.legal:
        examples = ", ".join(sorted(exc.legal, key=natural_key)[:LEGAL_EXAMPLES])
        more = len(exc.legal) - LEGAL_EXAMPLES
        message += f" Legal moves include {examples}" + (f" and {more} more." if more > 0 else ".")
    return message
