"""The deadline loop: reminders after a day, a timeout claim after a week."""

from __future__ import annotations

from .helpers import (
    DAY,
    TICK,
    boards,
    footer,
    labels,
    latest_board,
    play,
    public,
    refused,
    sent_mentions,
    start_game,
)


def notices(where, text):
    return [m for m in where.history() if text in m.content]


async def test_a_reminder_mentions_the_player_to_move_once(world):
    w = world
    match = await start_game(w)
    started = int(w.clock.now)
    w.clock.advance(DAY - 1)
    await w.env.advance_time(TICK)
    assert notices(match.where, "it is your turn") == []

    w.clock.advance(TICK)
    await w.env.advance_time(TICK)
    [reminder] = notices(match.where, "it is your turn")
    assert reminder.content == (
        f"{w.alice.mention}, it is your turn in Shax #{match.game_id} "
        f"(waiting since <t:{started}:R>)."
    )
    assert sent_mentions(w.env, reminder.content) == [[w.alice.id]]
    w.clock.advance(DAY)
    await w.env.advance_time(3 * TICK)
    assert len(notices(match.where, "it is your turn")) == 1  # once per turn

    await play(match, ["d2"])  # Bob's turn now: his own reminder a day later
    w.clock.advance(DAY)
    await w.env.advance_time(TICK)
    reminders = notices(match.where, "it is your turn")
    assert len(reminders) == 2 and reminders[-1].content.startswith(f"{w.bob.mention}, it is")
    assert boards(w.channel) == [] and notices(w.channel, "it is your turn") == []


async def test_timeout_claim(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])  # Bob to move; Alice waits
    deadline = int(w.clock.now + 7 * DAY)
    refused(await w.bob.slash(match.where, "game claim"), "It is your turn")
    text = refused(await w.alice.slash(match.where, "game claim"), "claim a win by timeout")
    assert f"<t:{deadline}:R>" in text

    w.clock.advance(7 * DAY - 1)
    await w.env.advance_time(TICK)
    assert notices(match.where, "claim the win") == []
    refused(await w.alice.slash(match.where, "game claim"), "claim a win by timeout")

    w.clock.advance(1)
    await w.env.advance_time(TICK)
    [offer] = notices(match.where, "claim the win")
    assert offer.content.startswith(
        f"{w.alice.mention}, {w.bob.mention} has not moved in Shax #{match.game_id}"
    )
    assert labels(offer) == ["Claim the win"]
    assert sent_mentions(w.env, offer.content) == [[w.alice.id]]  # Bob is named, not pinged
    await w.env.advance_time(3 * TICK)
    assert len(notices(match.where, "claim the win")) == 1

    refused(await w.bob.click(offer, label="Claim the win"), "It is your turn")
    refused(await w.carol.click(offer, label="Claim the win"), "not playing")
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"

    won = public(await w.alice.click(offer, label="Claim the win"))
    assert won.channel.id == match.where.id
    assert won.content == "Game over: White wins: timeout"
    assert labels(won) == ["Rematch"]
    assert [labels(m) for m in boards(match.where)] == [[], [], ["Rematch"]]
    refused(await w.alice.click(offer, label="Claim the win"), "This game is over")
    refused(await w.bob.slash(match.where, "shax move", move="d6"), "This game is over")
    # The week's wait included a day: Bob was reminded once. A finished game never again.
    assert len(notices(match.where, "it is your turn")) == 1
    posted = len(match.where.history())
    w.clock.advance(30 * DAY)
    await w.env.advance_time(TICK)
    assert len(match.where.history()) == posted


async def test_the_deadline_check_can_be_run_directly(world):
    w = world
    message = public(await w.alice.slash(w.channel, "shax challenge", opponent=w.bob))
    w.clock.advance(DAY)
    await w.env.bot.run_deadlines()
    await w.env.settle()
    assert "**Expired**" in w.channel.history()[0].embeds[0].description
    assert w.channel.history()[0].id == message.id
    refused(await w.bob.slash(w.channel, "game list"), "no games")


async def test_an_old_claim_button_waits_for_the_new_deadline(world):
    w = world
    match = await start_game(w)  # Alice to move; Bob waits
    w.clock.advance(7 * DAY)
    await w.env.advance_time(TICK)
    [offer] = notices(match.where, "claim the win")
    assert offer.content.startswith(f"{w.bob.mention}, {w.alice.mention} has not moved")

    await play(match, ["d2"])  # Alice moves at last: the turn clock starts again
    refused(await w.bob.click(offer, label="Claim the win"), "It is your turn")
    text = refused(await w.alice.click(offer, label="Claim the win"), "claim a win by timeout")
    assert f"<t:{int(w.clock.now + 7 * DAY)}:R>" in text
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"


async def test_a_reminder_goes_to_the_channel_when_the_thread_refuses_posts(world):
    w = world
    match = await start_game(w)  # Alice to move
    assert match.where.is_thread
    w.env.inject_error("POST", f"/channels/{match.where.id}/messages", status=403, code=50001)
    w.clock.advance(DAY)
    await w.env.advance_time(TICK)
    assert notices(match.where, "it is your turn") == []
    [reminder] = notices(w.channel, "it is your turn")
    assert reminder.content.startswith(w.alice.mention)
