"""``/idzeva settings`` in Discord: everyone sees them, Manage Server changes them, and the
challenge commands obey them, across a restart (issue 16)."""

from __future__ import annotations

import discord

from .helpers import (
    DAY,
    answer,
    boards,
    challenge,
    description,
    field_value,
    latest_board,
    refused,
    updated,
)


def manager(w):
    role = w.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    return w.guild.add_member(w.env.create_user("dana"), roles=[role])


def shown(result) -> str:
    said = answer(result)
    assert said.ephemeral, said
    return said.embeds[0].title + "\n" + said.embeds[0].description


async def test_everyone_sees_the_settings_and_only_managers_change_them(world):
    w = world
    dana = manager(w)
    text = shown(await w.bob.slash(w.channel, "idzeva settings"))
    assert text == (
        "Idzeva in this server\nChallenges: any channel\nThreads for games: yes\n"
        "Default time per move: the bot's (3 days unless set)\n"
        "Time-out grace: 1 day (then the bot ends the game)\n"
        "Games on: Shax, Tchela, Šačidjun, Chebache, Poron Jikaida\n"
        "Vacation: 30 days a year per player\nTournaments created by: everyone\n"
        "Daily puzzle: off (daily_puzzle:)"
    )
    refused(await w.bob.slash(w.channel, "idzeva settings", threads=False), "Manage Server")
    refused(await w.bob.slash(w.channel, "idzeva settings", disable="shax"), "Manage Server")
    assert "Threads for games: yes" in shown(await w.bob.slash(w.channel, "idzeva settings"))

    text = shown(await dana.slash(w.channel, "idzeva settings", threads=False, time=86400))
    assert text.startswith("Settings changed\n")
    assert "Threads for games: no\nDefault time per move: 1 day\n" in text
    await w.restart()
    assert "Threads for games: no" in shown(await w.bob.slash(w.channel, "idzeva settings"))

    # New games: the server's time per move, and no thread (the board in the channel).
    message = await challenge(w.alice, w.bob, w.channel, first="me")
    assert "Time per move: 1 day" in description(message)
    updated(await w.bob.click(message, label="Accept"))
    assert w.channel.threads == []
    board = latest_board(w.channel)
    assert field_value(board, "Clock") == f"{w.alice.mention} moves <t:{int(w.clock.now + DAY)}:R>"


async def test_challenges_only_where_and_what_the_server_allows(world):
    w = world
    dana = manager(w)
    lobby = w.guild.create_text_channel("lobby")
    said = shown(await dana.slash(w.channel, "idzeva settings", allow_channel=lobby))
    assert f"Challenges: <#{lobby.id}>" in said
    result = await w.alice.slash(w.channel, "shax challenge", opponent=w.bob)
    refused(result, f"Challenges are made in <#{lobby.id}> in this server")
    assert w.channel.history() == []
    message = await challenge(w.alice, w.bob, lobby)
    assert [m.id for m in lobby.history()] == [message.id]

    shown(await dana.slash(w.channel, "idzeva settings", disable="shax"))
    await w.restart()
    refused(await w.alice.slash(lobby, "shax challenge", opponent=w.bob), "Shax is turned off")
    posted = await w.alice.slash(lobby, "tchela challenge", opponent=w.bob)
    assert not answer(posted).ephemeral

    said = shown(await dana.slash(w.channel, "idzeva settings", enable="shax", any_channel=True))
    assert "Challenges: any channel" in said and "off:" not in said
    await challenge(w.alice, w.bob, w.channel)
    refused(
        await dana.slash(w.channel, "idzeva settings", disallow_channel=lobby),
        "is not in the list",
    )
    assert boards(w.channel) == []
