"""Takebacks and turn notices through Discord (SimCord): the Takeback button and
``/game takeback``, their answers (strangers refused), a restart in the middle of a request;
``/game notify``: DMs, closed DMs falling back to the thread (said once), the daily digest."""

from __future__ import annotations

from games import Shax
from tests.fakes import START

from .helpers import (
    BOARD_BUTTONS,
    DAY,
    TICK,
    current,
    description,
    labels,
    latest_board,
    play,
    public,
    refused,
    sent_mentions,
    start_game,
    updated,
)

REQUEST_BUTTONS = ["Accept takeback", "Decline takeback"]


async def moves(match, played: list[str]) -> None:
    """Each move with ``/shax move``; the board is the thread's latest (``play`` takes the
    bot's latest message anywhere, which may be a DM here)."""
    for move in played:
        before = latest_board(match.where).id
        await match.to_move.slash(match.where, "shax move", move=move)
        match.engine.push(move)
        assert latest_board(match.where).id != before


def dms(env, user) -> list[str]:
    """What the bot sent ``user`` by DM, oldest first."""
    channel_id = env.backend.dm_channels.get(user.id)
    if channel_id is None:
        return []
    messages = env.backend.messages.get(channel_id, {})
    return [m.content for _, m in sorted(messages.items())]


def close_dms(env, user) -> None:
    """The user's DMs are closed to the bot: Discord answers 50007 to every message."""
    channel = env.backend.get_dm_channel(user.id)
    env.inject_error(
        "POST",
        f"/channels/{channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


async def test_takeback_button_asks_and_the_opponent_accepts(world):
    w = world
    match = await start_game(w)
    await play(match, ["c3", "f6", "c4"])
    board = latest_board(match.where)
    assert labels(board) == BOARD_BUTTONS
    request = public(await w.alice.click(board, label="Takeback"))
    assert request.content == (
        f"{w.alice.mention} asks to take back `c4` in Shax #{match.game_id}. "
        f"{w.bob.mention}, do you accept?"
    )
    assert labels(request) == REQUEST_BUTTONS
    assert sent_mentions(w.env, request.content) == [[w.bob.id]]
    # A stranger and the asker are refused privately; nothing changes.
    refused(await w.carol.click(request, label="Accept takeback"), "not playing in this game")
    refused(await w.alice.click(request, label="Accept takeback"), "You asked")
    assert latest_board(match.where).id == board.id

    accepted = await w.bob.click(request, label="Accept takeback")
    assert updated(accepted).content == f"Takeback of `c4` accepted by {w.bob.mention}."
    assert labels(updated(accepted)) == []
    restored = latest_board(match.where)
    assert restored.id != board.id and restored.content == f"{w.alice.mention}, your turn."
    assert description(restored).splitlines()[:2] == [
        "White to place (11 in hand)",
        f"Takeback accepted by {w.bob.mention}: {w.alice.mention}'s `c4` undone.",
    ]
    assert labels(current(match.where, board)) == []  # the old board is retired
    match.engine = Shax()
    for move in ("c3", "f6"):
        match.engine.push(move)
    await play(match, ["d7"])  # the game goes on from the restored position
    history = refused(await w.bob.slash(match.where, "game history"))
    assert history.endswith(  # the takeback too, in its place (issue 37)
        "1. White c3\n2. Black f6\n   (White asks for a takeback)\n"
        "   (Black accepts the takeback: White's c4 undone)\n3. White d7\n```"
    )


async def test_takeback_command_declined_across_a_restart(world):
    w = world
    match = await start_game(w)
    await play(match, ["c3"])
    board = latest_board(match.where)
    request = public(await w.alice.slash(match.where, "game takeback"))
    assert labels(request) == REQUEST_BUTTONS

    await w.restart()

    refused(await w.carol.click(request, label="Decline takeback"), "not playing in this game")
    declined = await w.bob.click(request, label="Decline takeback")
    assert updated(declined).content == f"Takeback of `c3` declined by {w.bob.mention}."
    assert latest_board(match.where).id == board.id  # nothing was undone
    assert labels(latest_board(match.where)) == BOARD_BUTTONS
    refused(await w.alice.slash(match.where, "game takeback"), "declined")
    assert labels(current(match.where, request)) == []  # answered: its buttons are gone
    await play(match, ["f6"])


async def test_takeback_refused_after_the_opponent_moved_or_by_a_stranger(world):
    w = world
    match = await start_game(w)
    await play(match, ["c3", "f6"])
    board = latest_board(match.where)
    refused(await w.alice.click(board, label="Takeback"), "Too late: Black has moved")
    refused(await w.carol.click(board, label="Takeback"), "not playing in this game")
    refused(await w.carol.slash(match.where, "game takeback"), "not playing in this game")
    assert latest_board(match.where).id == board.id


async def test_a_request_lapses_when_the_opponent_moves_instead(world):
    w = world
    match = await start_game(w)
    await play(match, ["c3"])
    request = public(await w.alice.click(latest_board(match.where), label="Takeback"))
    await play(match, ["f6"])
    refused(await w.bob.click(request, label="Accept takeback"), "no longer open")
    assert "f6" in description(latest_board(match.where))


# ---- where "your turn" goes -----------------------------------------------------------


async def test_notify_by_dm_does_not_ping_in_the_thread(world):
    w = world
    said = refused(await w.bob.slash(w.channel, "game notify", where="dm"))
    assert said == "Saved. Your turn notices in this server: a direct message; no daily DM."
    match = await start_game(w)
    await moves(match, ["c3"])
    board = latest_board(match.where)
    assert board.content == f"{w.bob.mention}, your turn."
    assert sent_mentions(w.env, board.content) == [[w.alice.id]]  # Bob is not pinged there
    [dm] = dms(w.env, w.bob)
    assert dm.startswith(f"Your turn in Shax #{match.game_id}: Black to place (12 in hand). https")
    # Alice kept the thread: her turn is a mention, and no DM.
    await moves(match, ["f6"])
    assert sent_mentions(w.env, f"{w.alice.mention}, your turn.")[-1] == [w.alice.id, w.bob.id]
    assert dms(w.env, w.alice) == []
    shown = refused(await w.bob.slash(w.channel, "game notify"))
    assert shown == "Your turn notices in this server: a direct message; no daily DM."


async def test_closed_dms_fall_back_to_the_thread_and_say_so_once(world):
    w = world
    refused(await w.bob.slash(w.channel, "game notify", where="dm"))
    close_dms(w.env, w.bob)
    match = await start_game(w)
    await moves(match, ["c3"])
    fallbacks = [
        m.content
        for m in match.where.history()
        if "Your turn" in m.content or "your turn in" in m.content
    ]
    assert fallbacks == [
        f"{w.bob.mention}, your turn in Shax #{match.game_id}: Black to place (12 in hand). "
        f"https://discord.com/channels/{w.guild.id}/{match.where.id}/{latest_board(match.where).id}\n"
        "I could not reach you by DM (your DMs are closed to me), so your turn notices come here "
        "instead. `/game notify` changes where they go."
    ]
    await moves(match, ["f6", "c4"])
    fallbacks = [m.content for m in match.where.history() if "your turn in" in m.content]
    assert len(fallbacks) == 2 and "DMs are closed" not in fallbacks[1]
    assert fallbacks[1].startswith(f"{w.bob.mention}, your turn in Shax #{match.game_id}")
    assert dms(w.env, w.bob) == []


async def test_off_sends_nothing_and_both_sends_both(world):
    w = world
    refused(await w.bob.slash(w.channel, "game notify", where="off"))
    refused(await w.alice.slash(w.channel, "game notify", where="both"))
    match = await start_game(w)
    await moves(match, ["c3"])
    assert sent_mentions(w.env, f"{w.bob.mention}, your turn.") == [[w.alice.id]]
    assert dms(w.env, w.bob) == []
    await moves(match, ["f6"])
    assert sent_mentions(w.env, f"{w.alice.mention}, your turn.")[-1] == [w.alice.id, w.bob.id]
    assert len(dms(w.env, w.alice)) == 2  # the first turn of the game, and this one


async def test_the_daily_digest_lists_the_games_to_play_once_a_day(world):
    w = world
    # The world starts on 2027-01-15 at 08:00 UTC, 09:00 in Berlin (UTC+1 in winter): 10:00
    # there is 09:00 UTC, an hour on.
    said = refused(
        await w.alice.slash(
            w.channel, "game notify", digest=True, digest_hour=10, timezone="europe/berlin"
        )
    )
    ten = int(START) + 3600
    assert said.endswith(
        f"a daily DM of the games where it is your turn at 10:00 Europe/Berlin, next <t:{ten}:f>."
    )
    match = await start_game(w)
    await w.env.advance_time(TICK)
    assert dms(w.env, w.alice) == []  # not before her hour
    w.clock.advance(3600)
    await w.env.advance_time(TICK)
    [digest] = dms(w.env, w.alice)
    assert digest.startswith("Your turn in 1 game (2027-01-15):\n")
    assert f"- Shax #{match.game_id}: White to place (12 in hand) https" in digest
    w.clock.advance(TICK)
    await w.env.advance_time(TICK)
    assert len(dms(w.env, w.alice)) == 1  # once a day
    w.clock.advance(DAY)
    await w.env.advance_time(TICK)
    assert len(dms(w.env, w.alice)) == 2
    assert dms(w.env, w.bob) == []  # Bob asked for none


async def test_an_unknown_time_zone_is_refused_and_changes_nothing(world):
    w = world
    refused(await w.alice.slash(w.channel, "game notify", digest=True))
    said = refused(await w.alice.slash(w.channel, "game notify", timezone="Mars/Olympus"))
    assert said.startswith("`Mars/Olympus` is not a time zone I know")
    said = refused(await w.alice.slash(w.channel, "game notify"))
    assert said.endswith(f"at 08:00 UTC, next <t:{int(START + DAY)}:f>.")


async def test_the_time_zone_option_suggests_zones(world):
    w = world
    suggested = await w.alice.autocomplete(w.channel, "game notify", "timezone", "berl")
    assert [choice["value"] for choice in suggested][:1] == ["Europe/Berlin"]


async def test_a_reminder_goes_by_dm_and_falls_back_with_closed_dms(world):
    w = world
    refused(await w.bob.slash(w.channel, "game notify", where="dm"))
    match = await start_game(w)
    await moves(match, ["c3"])
    w.clock.advance(2 * DAY)  # half of the 3 days per move is gone: the first reminder
    await w.env.advance_time(TICK)
    reminder = dms(w.env, w.bob)[-1]
    assert reminder.startswith(f"It is your turn in Shax #{match.game_id}: your time runs out <t:")
    assert not [m for m in match.where.history() if "it is your turn" in m.content]
    # Bob closes his DMs: his next reminder comes in the thread, with the note, once.
    await moves(match, ["f6", "c4"])
    close_dms(w.env, w.bob)
    w.clock.advance(2 * DAY)
    await w.env.advance_time(TICK)
    [fallback] = [m.content for m in match.where.history() if "it is your turn" in m.content]
    assert fallback.startswith(f"{w.bob.mention}, it is your turn in Shax #{match.game_id}")
    assert fallback.endswith("`/game notify` changes where they go.")


async def test_the_first_turn_of_a_new_game_follows_the_choice_too(world):
    w = world
    refused(await w.alice.slash(w.channel, "game notify", where="dm"))
    match = await start_game(w)  # Alice plays White: hers is the first move
    board = latest_board(match.where)
    assert sent_mentions(w.env, board.content) == [[w.bob.id]]
    [dm] = dms(w.env, w.alice)
    assert dm == (
        f"Your turn in Shax #{match.game_id}: White to place (12 in hand). "
        f"https://discord.com/channels/{w.guild.id}/{match.where.id}/{board.id}"
    )
