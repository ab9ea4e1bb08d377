"""Game records of stored games (issue 17): what ``/game export`` attaches.

``record_files`` runs in a worker (``GameService.record_files``): it loads the stored game
and writes its record (``games/record.py``, described in ``docs/records.md``) with the
players' Discord ids and names, the times the store knows, and a pending draw offer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.domain.events import iso, move_times, record_events
from bot.storage.rows import GameEvent
from games import Game, load_game
from games.record import GameRecord, Player, record_from_game, text_record

if TYPE_CHECKING:
    from bot.storage.rows import GameRow


def record_of_row(
    row: GameRow, names: Mapping[int, str] | None = None, history: Sequence[GameEvent] = ()
) -> GameRecord:
    """The record of a stored game; ``names``: display names by user id, where known;
    ``history``: the game's events (``bot/domain/events.py``): the time of each move, draw offers
    and takebacks."""
    game = load_game(row.state)
    names = names or {}
    players = [Player(seat, names.get(user), user) for seat, user in enumerate(row.players)]
    events = record_events(history)
    offered = any(event["event"] == "draw-offer" for event in events)
    if row.draw_offer_seat is not None and not game.is_over and not offered:
        # A game whose offer was made before events were kept.
        events.append({"ply": game.ply, "seat": row.draw_offer_seat, "event": "draw-offer"})
    return record_from_game(
        game,
        players=players,
        started_at=iso(row.created_at),
        ended_at=iso(row.updated_at) if game.is_over else None,
        events=events,
        move_times=move_times(history, game.log),
    )


def record_files(
    row: GameRow, names: Mapping[int, str] | None = None, history: Sequence[GameEvent] = ()
) -> tuple[str, str]:
    """The record as JSON and as a move list (a job for the worker pool)."""
    record = record_of_row(row, names, history)
    game = record.replay()
    return record.to_json(game), text_record(record, game)


@dataclass(frozen=True)
class ReplayFrame:
    """One step of ``/game replay``: the board after ``ply`` of ``total`` moves."""

    title: str
    ply: int
    total: int
    caption: str  # the ply's mover, dice and move, then the status
    image: bytes | None


CHECKPOINT_EVERY = 12  # plies between the positions kept for stepping through a replay
CHECKPOINT_GAMES = 8  # games whose checkpoints a process keeps
_checkpoints: OrderedDict[tuple[int, int, int], dict[int, str]] = OrderedDict()
_checkpoints_lock = threading.Lock()


def _game_at(row: GameRow, record: GameRecord, ply: int) -> Game:
    """The game after ``ply`` moves. Stepping through a replay asks for ply after ply of the
    same game: the first step replays the whole game once and keeps a position every
    ``CHECKPOINT_EVERY`` plies (in this process), so later steps replay a few plies only."""
    total = len(record.moves)
    if total == 0:
        return record.replay()
    key = (row.id, row.version, hash(row.state))  # the state too: another database's game #1
    with _checkpoints_lock:
        marks = _checkpoints.get(key)
        if marks is not None:
            _checkpoints.move_to_end(key)
    if marks is None:
        marks = {}
        game: Game | None = None
        done = 0
        for mark in range(0, total, CHECKPOINT_EVERY):
            game = record.replay(mark, start=(done, game) if game is not None else None)
            done = mark
            marks[mark] = game.to_json()
        with _checkpoints_lock:
            _checkpoints[key] = marks
            while len(_checkpoints) > CHECKPOINT_GAMES:
                _checkpoints.popitem(last=False)
    mark = min(ply - ply % CHECKPOINT_EVERY, max(marks))
    return record.replay(ply, start=(mark, load_game(marks[mark])))


def replay_frame(row: GameRow, ply: int, renderer: Callable[[Game], bytes] | None) -> ReplayFrame:
    """The board of a stored game after ``ply`` moves (clamped to the game), with what was
    played at that ply (a job for the worker pool)."""
    record = record_of_row(row)
    total = len(record.moves)
    ply = max(0, min(ply, total))
    game = _game_at(row, record, ply)
    if ply:
        played = record.moves[ply - 1]
        dice = "".join(f"[{' '.join(map(str, roll))}] " for roll in played.dice)
        side = game.seat_names[played.seat] if played.seat < len(game.seat_names) else "?"
        said = f"Ply {ply} of {total}: {side} {dice}{played.move}"
    else:
        said = f"Ply 0 of {total}: the start"
    image = None
    if renderer is not None:
        try:
            image = renderer(game)
        except KeyError:  # a game without a renderer still replays as text
            image = None
    return ReplayFrame(game.title, ply, total, f"{said}\n{game.status_line()}", image)


def game_gif(row: GameRow) -> bytes:
    """The animated GIF of a stored game (a job for the worker pool; ``render/gif.py``)."""
    from render.gif import game_gif as make_gif  # Pillow only where a picture is made

    return make_gif(record_of_row(row))
