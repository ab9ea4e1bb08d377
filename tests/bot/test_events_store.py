"""The stores' game events and notification settings (migration 7), on both backends: events
go in with their action or not at all, and once-only marks are set once."""

from __future__ import annotations

import pytest

from bot.storage.rows import ENTRY, TAKEBACK_ASK, GameEvent

from .conftest import START
from .test_store import insert_game


async def test_events_are_written_with_the_action_or_not_at_all(store):
    game_id = await insert_game(store)
    move = GameEvent(ENTRY, 0, 1, START + 1)
    assert await store.update_game(game_id, 1, events=[move], updated_at=START + 1)
    # The version moved on: neither the columns nor the events are written.
    late = GameEvent(ENTRY, 1, 2, START + 2)
    assert not await store.update_game(game_id, 1, events=[late], updated_at=START + 2)
    assert not await store.add_game_events(game_id, 1, [GameEvent(TAKEBACK_ASK, 0, 1, START)])
    asked = GameEvent(TAKEBACK_ASK, 0, 1, START + 3, data={"undone": ["c3"], "cut": 0})
    assert await store.add_game_events(game_id, 2, [asked])
    assert not await store.add_game_events(game_id + 1, 1, [asked])  # no such game
    events = await store.game_events(game_id)
    assert [(e.kind, e.seat, e.ply, e.at, e.version, e.data) for e in events] == [
        ("entry", 0, 1, START + 1, 1, {}),
        ("takeback-ask", 0, 1, START + 3, 2, {"undone": ["c3"], "cut": 0}),
    ]
    assert events[0].id < events[1].id and {e.game_id for e in events} == {game_id}
    assert (await store.get_game(game_id)).updated_at == START + 1
    assert await store.game_events(game_id + 1) == []


async def test_an_unknown_event_is_refused_before_anything_is_written(store):
    game_id = await insert_game(store)
    with pytest.raises(ValueError, match="unknown game event"):
        await store.update_game(game_id, 1, events=[GameEvent("undo-all", 0, 0, START)])
    assert (await store.get_game(game_id)).version == 1


async def test_notification_settings_and_their_once_only_marks(store):
    assert await store.notify_pref(1, 11) is None
    await store.set_notify_pref(1, 11, route="dm")
    await store.set_notify_pref(1, 11, digest=True, digest_next=1000)
    pref = await store.notify_pref(1, 11)
    assert (pref.route, pref.digest, pref.dm_failed) == ("dm", True, False)
    assert (pref.digest_hour, pref.digest_zone, pref.digest_next) == (8, "UTC", 1000)
    assert await store.notify_pref(2, 11) is None  # per server
    assert await store.mark_dm_failed(1, 11)
    assert not await store.mark_dm_failed(1, 11)  # told once
    assert (await store.notify_pref(1, 11)).dm_failed
    await store.set_notify_pref(1, 11, route="both", dm_failed=False)
    assert await store.mark_dm_failed(1, 11)  # a new choice: told again
    await store.set_notify_pref(1, 22)  # defaults: no digest, due "at once" if turned on
    assert (await store.notify_pref(1, 22)).route == "thread"
    assert await store.digests_due(999) == []
    assert [p.user_id for p in await store.digests_due(1000)] == [11]
    assert await store.mark_digest_sent(1, 11, 1000, 2000)
    assert not await store.mark_digest_sent(1, 11, 1000, 2000)  # once, whoever tries
    assert await store.digests_due(1999) == []
    assert [p.user_id for p in await store.digests_due(2000)] == [11]
    assert not await store.mark_digest_sent(1, 22, 0, 5)  # asked for none
    with pytest.raises(ValueError):
        await store.set_notify_pref(1, 11, digest_day="2099-01-01")  # no such column now
