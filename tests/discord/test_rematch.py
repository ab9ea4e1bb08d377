"""The loop back to the next game in Discord: the Rematch button on a final board, and open
challenges (``/shax challenge`` without an opponent) that a third member takes."""

from __future__ import annotations

import sqlite3

from discord import app_commands

from cogs.common.buttons import single_button_view
from cogs.common.game_buttons import RematchButton

from .helpers import (
    DAY,
    TICK,
    boards,
    current,
    description,
    field_value,
    footer,
    labels,
    latest_board,
    public,
    refused,
    sent_mentions,
    start_game,
    updated,
)
from .test_settings import manager, shown


async def finish(w, match) -> None:
    """Black (Bob) resigns: the final board, with its Rematch button, is the latest."""
    final = public(await w.bob.slash(match.where, "game resign"))
    assert final.content == "Game over: White wins: resignation"
    assert labels(final) == ["Rematch", "Analysis"]


def challenges_in(channel) -> list:
    return [m for m in channel.history() if m.embeds and "challenge" in (m.embeds[0].title or "")]


async def test_rematch_from_the_final_board_with_the_sides_swapped(world):
    w = world
    match = await start_game(w)  # Alice White, Bob Black: game #1
    await finish(w, match)
    final = latest_board(match.where)
    before = len(w.channel.history())

    refused(await w.carol.click(final, label="Rematch"), "Only the players of game #1")
    assert len(w.channel.history()) == before and labels(current(match.where, final)) == [
        "Rematch",
        "Analysis",
    ]

    asked = await w.bob.click(final, label="Rematch")
    posted = w.channel.last_message  # in the channel, where the first challenge was
    refused(asked, "Rematch sent: https://discord.com/channels/")
    assert posted.content == f"{w.alice.mention}, {w.bob.mention} asks for a rematch of Shax #1!"
    assert sent_mentions(w.env, posted.content) == [sorted([w.alice.id, w.bob.id])]
    text = description(posted)
    assert text.startswith(f"{w.bob.mention} challenges {w.alice.mention}.\n")
    assert f"Rematch of game #1, sides swapped: {w.bob.mention} White, {w.alice.mention} Black" in (
        text
    )
    assert labels(posted) == ["Accept", "Decline"]
    # A second Rematch while this one waits, from either player: told, nothing posted.
    for user in (w.alice, w.bob):
        refused(await user.click(final, label="Rematch"), "already waiting for an answer")
    assert len(challenges_in(w.channel)) == 2
    refused(await w.carol.click(posted, label="Accept"), f"Only {w.alice.mention} can accept")

    accepted = updated(await w.alice.click(posted, label="Accept"))
    assert "**Accepted: game #2**" in description(accepted)
    [thread] = [t for t in w.channel.threads if t.id == posted.id]
    [board] = boards(thread)
    assert footer(board) == "Game 2 · version 1"
    assert board.content == f"{w.bob.mention}, your turn."  # Bob is White now
    assert field_value(board, "White").startswith(w.bob.mention)
    assert field_value(board, "Black").startswith(w.alice.mention)
    assert field_value(board, "Sides") == (
        f"Rematch of game #1, sides swapped: {w.bob.mention} White, {w.alice.mention} Black"
    )
    refused(await w.alice.click(final, label="Rematch"), "already rematched: game #2")


async def test_a_rematch_is_refused_where_a_challenge_would_be_and_changes_nothing(world):
    w = world
    match = await start_game(w)
    await finish(w, match)
    final = latest_board(match.where)
    dana = manager(w)
    other = w.guild.create_text_channel("other")
    shown(await dana.slash(w.channel, "idzeva settings", disable="shax", allow_channel=other))
    before = len(w.channel.history()), len(other.history())

    said = refused(await w.bob.click(final, label="Rematch"), "Shax is turned off in this server.")
    assert said == "Shax is turned off in this server."
    shown(await dana.slash(w.channel, "idzeva settings", enable="shax"))
    said = refused(await w.alice.click(final, label="Rematch"), "Challenges are made in")
    assert said == f"Challenges are made in <#{other.id}> in this server."
    assert (len(w.channel.history()), len(other.history())) == before  # nothing posted
    assert labels(current(match.where, final)) == ["Rematch", "Analysis"]
    shown(await dana.slash(w.channel, "idzeva settings", any_channel=True))
    refused(await w.alice.click(final, label="Rematch"), "Rematch sent")  # allowed again


async def test_the_rematch_button_survives_a_restart_and_stops_after_the_timeout(world):
    w = world
    match = await start_game(w)
    await finish(w, match)
    final = latest_board(match.where)

    await w.restart()  # between the end and the click

    w.clock.advance(DAY - 1)
    refused(await w.alice.click(final, label="Rematch"), "Rematch sent")
    posted = w.channel.last_message
    updated(await w.bob.click(posted, label="Decline"))
    w.clock.advance(1)  # a challenge timeout after the end
    await w.env.advance_time(TICK)
    text = refused(await w.bob.click(final, label="Rematch"), "could be asked for until")
    assert "send a new challenge instead" in text
    assert len(challenges_in(w.channel)) == 2  # the first challenge and the declined rematch


async def test_an_open_challenge_taken_by_a_third_member(world):
    w = world
    result = await w.alice.slash(w.channel, "shax challenge", first="me")
    message = result.response
    assert not message.ephemeral
    assert message.content == (
        "Open Shax challenge: anyone here may accept; the first to accept plays."
    )
    assert description(message).startswith(
        f"{w.alice.mention} challenges anyone here: the first to accept plays.\n"
    )
    assert sent_mentions(w.env, message.content) == [[w.alice.id]]  # nobody else pinged
    refused(await w.alice.click(message, label="Accept"), "your own open challenge")
    refused(await w.bob.click(message, label="Decline"), "not your challenge")

    accepted = updated(await w.carol.click(message, label="Accept"))
    assert description(accepted).startswith(f"{w.alice.mention} challenges {w.carol.mention}.")
    assert "**Accepted: game #1**" in description(accepted)
    [thread] = w.channel.threads
    board = latest_board(thread)
    assert board.content == f"{w.alice.mention}, your turn."
    assert field_value(board, "Black").startswith(w.carol.mention)
    refused(await w.bob.slash(w.channel, "game list"), "no games")


async def test_an_open_challenge_expires_unanswered(world):
    w = world
    message = (await w.alice.slash(w.channel, "tchela challenge")).response
    w.clock.advance(DAY)
    refused(await w.bob.click(message, label="Accept"), "expired")
    await w.env.advance_time(TICK)
    assert "**Expired**" in description(current(w.channel, message))
    assert w.channel.last_message.content == (
        f"{w.alice.mention}, your open Tchela challenge expired: nobody took it."
    )


# ---- hostile input: the new button and the empty opponent -------------------------------


def database(path: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


async def test_forged_rematch_buttons_are_refused_and_change_nothing(world, db_path):
    w = world
    active = await start_game(w)
    before = database(db_path)
    bot_channel = w.env.bot.get_channel(w.channel.id)
    cases = [
        (10**23, "names no game"),  # past SQLite's integers: no id at all
        (2**63, "names no game"),
        (0, "There is no game #0"),
        (2**63 - 1, f"There is no game #{2**63 - 1}"),
        (active.game_id, "not over yet"),
    ]
    for game, told in cases:
        forged = await bot_channel.send(view=single_button_view(RematchButton(game)))
        for user in (w.alice, w.carol):
            refused(await user.click(forged, label="Rematch"), told if user is w.alice else "")
    # A finished game of another server is no game here.
    other = w.env.create_guild()
    room = other.create_text_channel("games")
    dave = other.add_member(w.env.create_user("dave"))
    forged = await w.env.bot.get_channel(room.id).send(
        view=single_button_view(RematchButton(active.game_id))
    )
    refused(await dave.click(forged, label="Rematch"), f"There is no game #{active.game_id}")
    assert database(db_path) == before


async def test_every_challenge_command_opens_a_challenge_without_an_opponent(world):
    w = world
    commands = [
        c
        for c in w.env.bot.tree.walk_commands()
        if isinstance(c, app_commands.Command) and c.name == "challenge"
    ]
    assert len(commands) == 5
    for command in commands:
        opponent = next(p for p in command.parameters if p.name == "opponent")
        assert not opponent.required
        result = await w.alice.slash(w.channel, command.qualified_name)
        message = result.response
        assert not message.ephemeral and message.content.startswith("Open "), message.content
        refused(await w.alice.click(message, label="Accept"), "your own open challenge")
        updated(await w.alice.click(message, label="Decline"))  # withdrawn
    # Šačidjun with partners but no opponent: open challenges are one against one.
    for partner in ("partner", "opponent_partner"):
        refused(
            await w.alice.slash(w.channel, "sachi challenge", **{partner: w.bob}), "one against one"
        )
    # Not in a game's thread either.
    match = await start_game(w)
    refused(await w.carol.slash(match.where, "shax challenge"), "This thread belongs to Shax")


async def test_a_team_rematch_is_asked_by_any_player_and_accepted_by_the_others(world, dice):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    message = public(
        await w.alice.slash(
            w.channel, "sachi challenge", opponent=w.bob, partner=w.carol, opponent_partner=dave
        )
    )
    # The draw of test_sachidjun: Carol raža and Alice čadra play veradi, Bob raža and Dave
    # čadra tameg.
    dice.queued += [(5, 2), (4, 4), (2, 7), (8, 3)]
    for member in (w.bob, dave, w.carol):
        await member.click(message, label="Accept")
    [thread] = [t for t in w.channel.threads if t.id == message.id]
    final = public(await dave.slash(thread, "game resign"))
    assert final.content.startswith("Game over: ") and labels(final) == ["Rematch", "Analysis"]
    eve = w.guild.add_member(w.env.create_user("eve"))
    refused(await eve.click(final, label="Rematch"), "Only the players of game #1")

    refused(await dave.click(final, label="Rematch"), "Rematch sent")
    posted = w.channel.last_message
    # Dave asks, with his partner Bob, against Carol and Alice. The sides swap: Bob raža and
    # Dave čadra play veradi, Carol raža and Alice čadra tameg.
    assert posted.content == (
        f"{w.carol.mention} {w.bob.mention} {w.alice.mention}, {dave.mention} asks for a"
        " rematch of Šačidjun #1!"
    )
    text = description(posted)
    assert text.startswith(
        f"{dave.mention} and {w.bob.mention} challenge {w.carol.mention} and {w.alice.mention}.\n"
        f"Rematch of game #1, sides swapped: {w.bob.mention} Veradi raža, {w.carol.mention}"
        f" Tameg raža, {dave.mention} Veradi čadra, {w.alice.mention} Tameg čadra\n"
    )
    refused(await dave.click(posted, label="Accept"), "Only")
    calls = len(dice.calls)
    for member in (w.alice, w.carol, w.bob):
        await member.click(posted, label="Accept")
    [new_thread] = [t for t in w.channel.threads if t.id == posted.id]
    [board] = [
        m
        for m in new_thread.history()
        if m.embeds and "Šačidjun · game #2" in (m.embeds[0].title or "")
    ]
    assert field_value(board, "Veradi raža") == w.bob.mention
    assert field_value(board, "Tameg raža") == w.carol.mention
    assert field_value(board, "Veradi čadra") == dave.mention
    assert field_value(board, "Tameg čadra") == w.alice.mention
    assert board.content == f"{w.bob.mention}, your turn to roll (2d8)."
    assert len(dice.calls) == calls  # no draw: the rematch fixed the seats
