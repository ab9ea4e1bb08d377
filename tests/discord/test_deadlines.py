"""The deadline loop in Discord: reminders at half the time per move and near its end, the
claim offer when it is out, and the bot ending the game on time after the grace (issue 16).

Times by hand (see tests/bot/test_deadlines.py): 1 hour per move reminds at 30 and 54 min,
offers the claim at 60 min and ends the game a day (the default grace) later; 3 days (the
default) reminds at 1.5 and 2.7 days, claim at 3 days, time-out at 4 days.
"""

from __future__ import annotations

from dataclasses import replace

from .helpers import (
    DAY,
    HOUR,
    TICK,
    boards,
    challenge,
    description,
    field_value,
    footer,
    labels,
    latest_board,
    play,
    public,
    refused,
    sent_mentions,
    start_game,
    updated,
)

MINUTE = 60


def notices(where, text):
    return [m for m in where.history() if text in m.content]


async def tick_to(w, at: float) -> None:
    """Move the bot's clock to ``at`` and let its deadline loop run."""
    w.clock.now = at
    await w.env.advance_time(TICK)


async def one_hour_game(w):
    message = await challenge(w.alice, w.bob, w.channel, first="me", time=3600)
    assert "Time per move: 1 hour" in description(message)
    updated(await w.bob.click(message, label="Accept"))
    [thread] = w.channel.threads
    return thread


async def test_a_one_hour_game_reminds_offers_the_claim_and_ends_on_time(world):
    w = world
    start = w.clock.now
    thread = await one_hour_game(w)
    first = latest_board(thread)
    assert field_value(first, "Clock") == f"{w.alice.mention} moves <t:{int(start + HOUR)}:R>"

    await tick_to(w, start + 30 * MINUTE - 1)
    assert notices(thread, "it is your turn") == []
    await tick_to(w, start + 30 * MINUTE)
    [half] = notices(thread, "it is your turn")
    assert half.content == (
        f"{w.alice.mention}, it is your turn in Shax #1: your time runs out "
        f"<t:{int(start + HOUR)}:R>."
    )
    assert sent_mentions(w.env, half.content) == [[w.alice.id]]
    await tick_to(w, start + 54 * MINUTE - 1)
    assert len(notices(thread, "it is your turn")) == 1
    await tick_to(w, start + 54 * MINUTE)
    assert len(notices(thread, "it is your turn")) == 2

    await tick_to(w, start + HOUR - 1)
    assert notices(thread, "claim the win") == []
    await tick_to(w, start + HOUR)
    [offer] = notices(thread, "claim the win")
    assert offer.content.startswith(f"{w.bob.mention}, {w.alice.mention} has not moved")
    assert offer.content.endswith(
        f"otherwise the game ends on time <t:{int(start + HOUR + DAY)}:R>."
    )
    assert labels(offer) == ["Claim the win"]

    await tick_to(w, start + HOUR + DAY - 1)
    assert len(boards(thread)) == 1
    await tick_to(w, start + HOUR + DAY)
    over = latest_board(thread)
    assert over.content == (
        f"{w.alice.mention} ran out of time in Shax #1 against {w.bob.mention}:"
        " the game is over (Black wins: timeout)."
    )  # both players are mentioned, and pinged, as in every other ending
    assert sent_mentions(w.env, over.content) == [sorted([w.alice.id, w.bob.id])]
    assert labels(over) == ["Rematch", "Analysis"] and footer(over) == "Game 1 · version 2"
    assert "**Black wins: timeout**" in description(over)
    assert field_value(over, "Clock") is None
    assert [labels(m) for m in boards(thread)] == [
        [],
        ["Rematch", "Analysis"],
    ]  # the first board gave its buttons up
    posted = len(thread.history())
    await tick_to(w, start + 40 * DAY)
    assert len(thread.history()) == posted  # posted once, and nothing after the end
    refused(await w.bob.click(offer, label="Claim the win"), "This game is over")


async def test_a_seven_day_game_through_restarts(world):
    """Every notice comes once, at its moment, whichever bot (after a restart) is running."""
    w = world
    start = w.clock.now
    message = await challenge(w.alice, w.bob, w.channel, first="me", time=7 * 24 * 3600)
    assert "Time per move: 7 days" in description(message)
    updated(await w.bob.click(message, label="Accept"))
    [thread] = w.channel.threads
    moments = [
        (3.5 * DAY, "it is your turn", 1),
        (6 * DAY + 7 * HOUR + 12 * MINUTE, "it is your turn", 2),
        (7 * DAY, "claim the win", 1),
        (8 * DAY, "ran out of time", 1),
    ]
    for at, text, count in moments:
        await tick_to(w, start + at - 1)
        assert len(notices(thread, text)) == count - 1, (at, text)
        await w.restart()
        await tick_to(w, start + at)
        assert len(notices(thread, text)) == count, (at, text)
        await tick_to(w, start + at + HOUR)
        assert len(notices(thread, text)) == count, (at, text)
    assert latest_board(thread).content.startswith(f"{w.alice.mention} ran out of time")


async def test_the_waiting_player_claims_with_the_button(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])  # Bob to move; Alice waits
    deadline = int(w.clock.now + 3 * DAY)
    assert (
        field_value(latest_board(match.where), "Clock") == f"{w.bob.mention} moves <t:{deadline}:R>"
    )
    refused(await w.bob.slash(match.where, "game claim"), "It is your turn")
    text = refused(await w.alice.slash(match.where, "game claim"), "claim a win by timeout")
    assert f"<t:{deadline}:R>" in text

    w.clock.advance(3 * DAY)
    await w.env.advance_time(TICK)
    [offer] = notices(match.where, "claim the win")
    assert sent_mentions(w.env, offer.content) == [[w.alice.id]]  # Bob is named, not pinged
    refused(await w.bob.click(offer, label="Claim the win"), "It is your turn")
    refused(await w.carol.click(offer, label="Claim the win"), "not playing")
    won = public(await w.alice.click(offer, label="Claim the win"))
    assert won.content == "Game over: White wins: timeout"
    w.clock.advance(30 * DAY)
    posted = len(match.where.history())
    await w.env.advance_time(TICK)
    assert len(match.where.history()) == posted  # no time-out after the claim


async def test_an_old_claim_button_waits_for_the_new_deadline(world):
    w = world
    match = await start_game(w)  # Alice to move; Bob waits
    w.clock.advance(3 * DAY)
    await w.env.advance_time(TICK)
    [offer] = notices(match.where, "claim the win")
    assert offer.content.startswith(f"{w.bob.mention}, {w.alice.mention} has not moved")

    await play(match, ["d2"])  # Alice moves at last: the turn clock starts again
    refused(await w.bob.click(offer, label="Claim the win"), "It is your turn")
    text = refused(await w.alice.click(offer, label="Claim the win"), "claim a win by timeout")
    assert f"<t:{int(w.clock.now + 3 * DAY)}:R>" in text
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"


async def test_a_reminder_goes_to_the_channel_when_the_thread_refuses_posts(world):
    w = world
    match = await start_game(w)  # Alice to move
    assert match.where.is_thread
    w.env.inject_error("POST", f"/channels/{match.where.id}/messages", status=403, code=50001)
    w.clock.advance(1.5 * DAY)
    await w.env.advance_time(TICK)
    assert notices(match.where, "it is your turn") == []
    [reminder] = notices(w.channel, "it is your turn")
    assert reminder.content.startswith(w.alice.mention)


async def test_the_deadline_check_can_be_run_directly(world):
    w = world
    message = public(await w.alice.slash(w.channel, "shax challenge", opponent=w.bob))
    w.clock.advance(DAY)
    await w.env.bot.run_deadlines()
    await w.env.settle()
    assert "**Expired**" in w.channel.history()[0].embeds[0].description
    assert w.channel.history()[0].id == message.id
    refused(await w.bob.slash(w.channel, "game list"), "no games")


async def test_every_challenge_command_offers_the_time_per_move(world):
    w = world
    for name in ("shax", "tchela", "chebache", "sachi", "jikaida"):
        result = await w.alice.slash(w.channel, f"{name} challenge", opponent=w.bob, time=21600)
        assert "Time per move: 6 hours" in description(result.response), name
    game = await w.env.bot.service.accept_challenge(4, w.bob.id)  # the Šačidjun one
    assert game.clock.endswith(f"moves <t:{int(w.clock.now + 6 * HOUR)}:R>")


async def test_the_time_out_goes_to_the_channel_when_the_thread_refuses_posts(world):
    w = world
    match = await start_game(w)  # Alice to move, 3 days, a day of grace
    w.clock.advance(3 * DAY)
    await w.env.advance_time(TICK)  # the reminder and the claim offer, in the thread
    w.env.inject_error(
        "POST", f"/channels/{match.where.id}/messages", status=403, code=50001, times=None
    )
    w.clock.advance(DAY)
    await w.env.advance_time(TICK)
    [over] = boards(w.channel)
    assert over.content.startswith(f"{w.alice.mention} ran out of time in Shax #{match.game_id}")
    assert labels(over) == ["Rematch", "Analysis"]
    assert len(boards(match.where)) == 1  # the thread keeps its first board


async def test_a_game_ended_on_time_gets_its_gif_too(world, monkeypatch):
    w = world
    monkeypatch.setattr(w.env.bot, "settings", replace(w.env.bot.settings, game_gifs=True))
    start = w.clock.now
    thread = await one_hour_game(w)
    await tick_to(w, start + HOUR + DAY)  # the hour and the day of grace are out
    assert latest_board(thread).content.startswith(f"{w.alice.mention} ran out of time")
    [gif] = [m for m in thread.history() if m.attachments and m.content.startswith("Shax #")]
    assert gif.content == "Shax #1, the whole game: Black wins: timeout"
    assert [a.filename for a in gif.attachments] == ["shax-1.gif"]
