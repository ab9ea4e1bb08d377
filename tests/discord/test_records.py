"""Issue 17 on Discord: ``/game export`` attaches the game record and its move list."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from PIL import Image
from simcord import SetupError

from cogs.replay import NOT_YOURS, replay_message
from games.record import load_record

from .helpers import (
    SHAX_RESULT,
    SHAX_WIN,
    answer,
    current,
    labels,
    latest_board,
    play,
    refused,
    start_game,
)


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
    at = "2027-01-15T08:00:00Z"  # the test's clock stands still
    assert data["events"] == [{"ply": 2, "seat": 0, "event": "draw-offer", "at": at}]
    assert [(m["move"], m["at"]) for m in data["moves"]] == [("d2", at), ("d3", at)]


async def test_export_of_an_unknown_game_is_refused(world):
    refused(await world.alice.slash(world.channel, "game export", game="99"), "no game #99")


async def test_replay_steps_forward_and_back_for_the_asker_only(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2", "d3", "a1"])
    asked = answer(await w.bob.slash(match.where, "game replay", ply=1))
    assert asked.ephemeral
    assert labels(asked) == ["⏮", "◀", "▶", "⏭"]
    text = asked.embeds[0].description
    assert text.startswith("Ply 1 of 3: White d2\n")
    assert [a.filename for a in asked.attachments] == ["replay.png"]
    stepped = (await w.bob.click(asked, label="▶")).response
    assert stepped is not None and stepped.ephemeral
    assert stepped.embeds[0].description.startswith("Ply 2 of 3: Black d3\n")
    assert [a.filename for a in stepped.attachments] == ["replay.png"]
    last = (await w.bob.click(stepped, label="⏭")).response
    assert last.embeds[0].description.startswith("Ply 3 of 3: White a1\n")
    back = (await w.bob.click(last, label="◀")).response
    assert back.embeds[0].description.startswith("Ply 2 of 3: Black d3\n")
    first = (await w.bob.click(back, label="⏮")).response
    assert first.embeds[0].description.startswith("Ply 0 of 3: the start\n")
    with pytest.raises(SetupError, match="disabled"):  # nothing before the start
        await w.bob.click(first, label="◀")


async def test_replay_buttons_work_for_the_asker_only(world):
    # An ephemeral replay is seen by the asker alone; should its buttons ever reach someone
    # else (the same buttons on a message others see), they refuse and change nothing.
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    frame = await w.env.bot.service.replay_frame(match.game_id, w.guild.id, 0)
    channel = w.env.bot.get_channel(w.channel.id)
    message = replay_message(frame, match.game_id, w.bob.id)
    message["files"] = message.pop("attachments")
    posted = await channel.send(**message)
    told = refused(await w.alice.click(posted, label="▶"), "whoever asked")
    assert told == NOT_YOURS
    assert current(w.channel, posted).embeds[0].description.startswith("Ply 0 of 1")
    await w.bob.click(posted, label="▶")
    assert current(w.channel, posted).embeds[0].description.startswith("Ply 1 of 1: White d2")


async def test_a_game_to_its_end_posts_its_gif_in_its_thread(world, monkeypatch):
    w = world
    monkeypatch.setattr(w.env.bot, "settings", replace(w.env.bot.settings, game_gifs=True))
    match = await start_game(w)
    await play(match, SHAX_WIN[:-1])
    await match.to_move.slash(match.where, "shax move", move=SHAX_WIN[-1])
    assert latest_board(match.where).content == f"Game over: {SHAX_RESULT}"
    posted = [m for m in match.where.history() if m.attachments and m.content.startswith("Shax #")]
    assert len(posted) == 1
    gif_message = posted[0]
    assert gif_message.content == f"Shax #{match.game_id}, the whole game: {SHAX_RESULT}"
    assert [a.filename for a in gif_message.attachments] == [f"shax-{match.game_id}.gif"]
    data = await gif_message.attachments[0].read()
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.n_frames == len(SHAX_WIN) + 1  # the start and a frame per ply
    assert len(data) < 8_000_000
    # after the last board: the board is still the latest one
    history = match.where.history()
    assert history.index(gif_message) > history.index(latest_board(match.where))


def test_game_gifs_are_on_unless_turned_off():
    from bot.config import Settings

    assert Settings.from_env({}, env_file=None).game_gifs is True
    assert Settings.from_env({"IDZEVA_GAME_GIFS": "0"}, env_file=None).game_gifs is False
    assert Settings.from_env({"IDZEVA_GAME_GIFS": "off"}, env_file=None).game_gifs is False


async def test_simcord_waits_long_enough_for_a_whole_games_gif(world):
    from tests.discord.conftest import SETTLE_TIMEOUT_S

    assert world.env.settle_timeout == SETTLE_TIMEOUT_S >= 30


# ---- players' names (issue 37) -------------------------------------------------------------


async def exported_names(asker, where, game_id: int) -> tuple[list, str]:
    """The players' names in the record ``asker`` exports, and the move list's header."""
    told = answer(await asker.slash(where, "game export", game=str(game_id)))
    data = json.loads(await told.attachments[0].read())
    moves = (await told.attachments[1].read()).decode()
    return [(p["id"], p["name"]) for p in data["players"]], moves


async def test_the_opponents_export_names_both_players(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2", "d3"])
    for asker in (w.bob, w.alice):
        names, moves = await exported_names(asker, match.where, match.game_id)
        assert names == [(w.alice.id, "alice"), (w.bob.id, "bob")]
        assert '[White "alice"]' in moves and '[Black "bob"]' in moves


async def test_a_name_changed_between_moves_shows_the_new_one(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    w.env.backend.edit_member(w.guild.id, w.bob.id, {"nick": "Bobby"})
    await play(match, ["d3"])  # Bob's move, under his new name
    names, _ = await exported_names(w.alice, match.where, match.game_id)
    assert names == [(w.alice.id, "alice"), (w.bob.id, "Bobby")]
    # Kept for this server only.
    assert await w.env.bot.service.player_names(w.guild.id, [w.bob.id]) == {w.bob.id: "Bobby"}


async def test_a_bystander_leaves_no_name(world):
    w = world
    match = await start_game(w)
    answer(await w.carol.slash(match.where, "game board", game=str(match.game_id)))
    known = await w.env.bot.service.player_names(w.guild.id, [w.alice.id, w.carol.id])
    assert known == {w.alice.id: "alice"}
