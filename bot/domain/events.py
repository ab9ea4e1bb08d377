"""A game's event history (issue 17): when each logged action happened, and what happened
outside the moves (draw offers, takebacks and their answers).

Events are rows of the ``game_events`` table (migration 7), written by the store in the same
transaction as the action they describe (``update_game(..., events=...)``) or, for an action
that changes no position (asking for a takeback, declining it), on their own but only while
the game is still at the version they were made at (``add_game_events``). The event itself
(``GameEvent``) and its kinds are ``bot/storage/rows.py``; this module reads them for the
game's record.

- ``entry``: one per entry of the game's log (a move or a roll), ``ply`` its 1-based index in
  the log. After a takeback the log is shorter and later entries reuse the same indexes: the
  time of entry ``i`` is that of the latest ``entry`` event for ``i``.
- ``draw-offer``, ``draw-accept``, ``draw-decline``, ``takeback-ask``, ``takeback-accept``,
  ``takeback-decline``: ``seat`` is who acted; ``ply`` the number of moves played then
  (rolls not counted); ``data`` what the event needs (a takeback's undone moves).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from bot.storage.rows import ENTRY, GameEvent
from games.record import event_text


def iso(moment: float | None) -> str | None:
    if moment is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))


def entry_events(events: Iterable[GameEvent], entries: int) -> list[GameEvent | None]:
    """The ``entry`` event of each of the log's first ``entries`` entries (None where unknown:
    games played before events were kept). A takeback's later entries replace earlier ones."""
    found: list[GameEvent | None] = [None] * entries
    for event in events:
        if event.kind == ENTRY and 1 <= event.ply <= entries:
            found[event.ply - 1] = event
    return found


def entry_times(events: Iterable[GameEvent], entries: int) -> list[float | None]:
    """The time of each of the log's first ``entries`` entries (None where unknown)."""
    return [None if event is None else event.at for event in entry_events(events, entries)]


def move_times(events: Iterable[GameEvent], log: Sequence[Any]) -> list[str | None]:
    """One ISO time per move of ``log`` (its entries with a move), for the record."""
    times = entry_times(events, len(log))
    return [iso(at) for entry, at in zip(log, times, strict=True) if entry.move is not None]


def record_events(events: Iterable[GameEvent]) -> list[dict[str, Any]]:
    """The events as the game record lists them (``docs/records.md``): everything but the
    per-entry times, which go with the moves."""
    shown = []
    for event in events:
        if event.kind == ENTRY:
            continue
        item: dict[str, Any] = {"ply": event.ply, "seat": event.seat, "event": event.kind}
        item["at"] = iso(event.at)
        for key in ("asker", "undone", "to_ply"):
            if key in event.data:
                item[key] = event.data[key]
        shown.append(item)
    return shown


def history_text(event: GameEvent, seat_names: Sequence[str]) -> str | None:
    """An event as ``/game history`` lists it among the moves, in the record's words
    (``games/record.py``) and naming the sides, never the players (anyone may look); None
    for an entry (its move is the line)."""
    shown = record_events([event])
    return f"   ({event_text(shown[0], seat_names)})" if shown else None
