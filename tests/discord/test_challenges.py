"""Challenges: who may accept or decline, refusals, expiry, and where the game is played."""

from __future__ import annotations

import discord

from .helpers import (
    DAY,
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


async def test_accept_opens_a_thread_with_the_first_board(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    assert message.content == f"{w.bob.mention}, you are challenged!"
    assert "Plays first: drawn at random\nTime per move: 3 days\nExpires" in description(message)
    assert f"Expires <t:{int(w.clock.now + DAY)}:R>" in description(message)

    accepted = await w.bob.click(message, label="Accept")
    edited = updated(accepted)
    assert "**Accepted: game #1**" in description(edited)
    assert labels(edited) == []
    [thread] = w.channel.threads
    assert thread.id == message.id and thread.name == "Shax #1"
    [board] = boards(thread)
    assert footer(board) == "Game 1 · version 1"
    assert "drawn at random" in board.embeds[0].fields[-1].value
    white = w.alice if f"{w.alice.mention}" in board.embeds[0].fields[0].value else w.bob
    clock = f"{white.mention} moves <t:{int(w.clock.now + 3 * DAY)}:R>"
    assert field_value(board, "Clock") == clock
    assert boards(w.channel) == []  # the channel keeps only the challenge


async def test_challenge_options(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel, first="them", variant="two-removals")
    assert "Plays first: challenged player\nVariant: two-removals" in description(message)
    await w.bob.click(message, label="Accept")
    board = latest_board(w.channel.threads[0])
    assert board.content == f"{w.bob.mention}, your turn."
    assert field_value(board, "White") == f"{w.bob.mention}\n0 on board, 12 in hand"
    assert field_value(board, "Black") == f"{w.alice.mention}\n0 on board, 12 in hand"
    assert field_value(board, "Variants") == "two-removals"
    assert field_value(board, "First move") == (
        f"chosen by {w.alice.mention}: {w.bob.mention} plays White"
    )


async def test_only_the_challenged_player_can_accept(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    refused(await w.carol.click(message, label="Accept"), f"Only {w.bob.mention} can accept")
    refused(await w.alice.click(message, label="Accept"), f"Only {w.bob.mention} can accept")
    refused(await w.carol.click(message, label="Decline"), "not your challenge")
    assert w.channel.threads == []
    assert labels(w.channel.history()[0]) == ["Accept", "Decline", "Help"]
    await w.bob.click(message, label="Accept")
    assert len(w.channel.threads) == 1


async def test_decline(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    declined = updated(await w.bob.click(message, label="Decline"))
    assert declined.id == message.id
    assert "**Declined**" in description(declined)
    assert labels(declined) == []
    assert w.channel.threads == []
    refused(await w.bob.slash(w.channel, "game list"), "no games")


async def test_the_challenger_can_withdraw(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    withdrawn = updated(await w.alice.click(message, label="Decline"))
    assert "**Declined**" in description(withdrawn)
    assert labels(withdrawn) == []


async def test_challenging_yourself_or_a_bot_is_refused(world):
    w = world
    result = await w.alice.slash(w.channel, "shax challenge", opponent=w.alice)
    refused(result, "cannot challenge yourself")
    robot = w.guild.add_member(w.env.create_user("robot", bot=True))
    result = await w.alice.slash(w.channel, "shax challenge", opponent=robot)
    refused(result, "Bots cannot play")
    assert [m.content for m in w.channel.history()] == []


async def test_a_challenge_inside_a_game_thread_is_refused(world):
    w = world
    match = await start_game(w)
    before = len(match.where.history())
    result = await w.carol.slash(match.where, "tchela challenge", opponent=w.alice)
    refused(result, f"This thread belongs to Shax #{match.game_id}")
    assert len(match.where.history()) == before


async def test_expiry(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    w.clock.advance(DAY - 1)
    await w.env.advance_time(TICK)  # the deadline loop runs: nothing is due yet
    assert labels(w.channel.history()[0]) == ["Accept", "Decline", "Help"]

    w.clock.advance(2)
    # Past the deadline but before the loop noticed: the button already refuses.
    refused(await w.bob.click(message, label="Accept"), "expired")
    await w.env.advance_time(TICK)
    shown = w.channel.history()[0]
    assert shown.id == message.id
    assert "**Expired**" in description(shown)
    assert labels(shown) == []
    notice = w.channel.last_message
    assert notice.content == (
        f"{w.alice.mention}, your Shax challenge to {w.bob.mention} expired unanswered."
    )
    assert sent_mentions(w.env, notice.content) == [[w.alice.id]]
    assert w.channel.threads == []
    # The loop keeps running but says it only once.
    await w.env.advance_time(5 * TICK)
    assert len(w.channel.history()) == 2


async def test_mentions_are_restricted_to_the_players(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    public(await w.alice.click(latest_board(match.where), label="Offer draw"))
    players = sorted([w.alice.id, w.bob.id])
    pinging = []
    for entry in w.env.http_requests:
        payload = entry.json.get("data", entry.json) if isinstance(entry.json, dict) else {}
        if "content" not in payload:
            continue
        mentions = payload.get("allowed_mentions")
        assert mentions is not None and mentions.get("parse") == [], payload  # no @everyone
        users = sorted(int(user) for user in mentions.get("users", []))
        assert users in ([], players), payload
        if users:
            pinging.append(payload["content"])
    assert pinging == [
        f"{w.bob.mention}, you are challenged!",
        f"{w.alice.mention}, your turn.",
        f"{w.bob.mention}, your turn.",
        f"{w.alice.mention} offers a draw in Shax #{match.game_id}. "
        f"{w.bob.mention}, do you accept?",
    ]


async def test_without_thread_permission_the_game_is_played_in_the_channel(world):
    w = world
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    channel = w.guild.create_text_channel("no-threads", overwrites={w.guild.me: no_threads})
    match = await start_game(w, channel=channel)
    assert match.where is channel and channel.threads == []
    board = latest_board(channel)
    assert footer(board) == f"Game {match.game_id} · version 1"
    await play(match, ["d2", "d6"], check_image=True)
    # A second game in the same channel: now the `game` option says which one is meant.
    other = await start_game(w, white=w.alice, black=w.carol, channel=channel)
    refused(await w.alice.slash(channel, "shax move", move="d3"), "several games", "`game`")
    moved = await w.alice.slash(channel, "shax move", move="d3", game=str(match.game_id))
    assert footer(public(moved)) == f"Game {match.game_id} · version 4"
    moved = await w.alice.slash(channel, "shax move", move="d3", game=str(other.game_id))
    assert footer(public(moved)) == f"Game {other.game_id} · version 2"
    # Bob has one game only: no option needed.
    moved = await w.bob.slash(channel, "shax move", move="d5")
    assert footer(public(moved)) == f"Game {match.game_id} · version 5"
