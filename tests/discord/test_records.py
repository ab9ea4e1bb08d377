"""Issue 17 on Discord: ``/game export`` attaches the game record and its move list."""

from __future__ import annotations

import json

from games.record import load_record

from .helpers import SHAX_RESULT, SHAX_WIN, answer, play, refused, start_game


async def test_export_attaches_a_record_that_replays_the_game(world):
    w = world
    match = await start_game(w)
    await play(match, SHAX_WIN)
    result = await w.alice.slash(w.channel, "game export", game=str(match.game_id))
    told = answer(result)
    assert told.ephemeral
    assert f"Game #{match.game_id}" in told.content
    names = [a.filename for a in told.attachments]
    assert names == [f"shax-{match.game_id}.json", f"shax-{match.game_id}.txt"]
    data = json.loads(await told.attachments[0].read())
    record, game = load_record(data)
    assert game.moves() == SHAX_WIN
    assert game.result_text() == SHAX_RESULT
    assert [p["id"] for p in data["players"]] == [w.alice.id, w.bob.id]
    assert data["players"][0]["name"] == "alice"  # the asker's name is known
    assert data["started_at"].endswith("Z") and data["ended_at"].endswith("Z")
    moves = (await told.attachments[1].read()).decode()
    assert '[White "alice"]' in moves
    assert " 1. White: c3\n 2. Black: f6\n" in moves  # numbers padded to two places
    assert moves.rstrip().endswith(SHAX_RESULT)


async def test_export_of_a_game_going_on_keeps_a_pending_draw_offer(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2", "d3"])
    await w.alice.slash(match.where, "game draw")
    told = answer(await w.bob.slash(match.where, "game export"))
    data = json.loads(await told.attachments[0].read())
    assert data["result"] is None and data["ended_at"] is None
    assert data["events"] == [{"ply": 2, "seat": 0, "event": "draw-offer"}]
    assert [m["move"] for m in data["moves"]] == ["d2", "d3"]


async def test_export_of_an_unknown_game_is_refused(world):
    refused(await world.alice.slash(world.channel, "game export", game="99"), "no game #99")
