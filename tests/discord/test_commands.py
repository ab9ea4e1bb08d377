"""The `/game` commands: list, board, history, rules."""

from __future__ import annotations

from games import Shax

from .helpers import (
    BOARD_BUTTONS,
    answer,
    assert_board_image,
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


async def test_game_list(world):
    w = world
    refused(await w.alice.slash(w.channel, "game list"), "You have no games here")
    first = await start_game(w)
    second = await start_game(w, white=w.carol, black=w.alice)
    result = await w.alice.slash(w.channel, "game list")
    assert result.response.ephemeral
    [embed] = result.response.embeds
    assert embed.title == "Your games"
    lines = embed.description.splitlines()
    assert len(lines) == 2
    mine = next(line for line in lines if line.startswith(f"[#{first.game_id} Shax]"))
    theirs = next(line for line in lines if line.startswith(f"[#{second.game_id} Shax]"))
    board = latest_board(first.where)
    assert f"/{w.guild.id}/{first.where.id}/{board.id})" in mine
    assert mine.endswith("White to place (12 in hand) — **your turn**")
    assert theirs.endswith("White to place (12 in hand)")
    bob_sees = (await w.bob.slash(w.channel, "game list")).response.embeds[0].description
    assert f"#{first.game_id}" in bob_sees and f"#{second.game_id}" not in bob_sees


async def test_game_board_in_the_thread_and_outside(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    # In the thread: a fresh copy at the bottom becomes the latest board.
    again = public(await w.bob.slash(match.where, "game board"))
    await assert_board_image(again)
    assert footer(again) == f"Game {match.game_id} · version 2"
    assert [labels(m) for m in boards(match.where)] == [[], [], BOARD_BUTTONS]
    # Outside: a player's copy is shown where asked; the thread's board stays the latest.
    shown = public(await w.alice.slash(w.channel, "game board", game=str(match.game_id)))
    assert shown.channel.id == w.channel.id and footer(shown) == footer(again)
    await assert_board_image(shown)
    assert labels(latest_board(match.where)) == BOARD_BUTTONS
    # A bystander's copy is private, names nobody in its text and pings nobody.
    seen = answer(await w.carol.slash(w.channel, "game board", game=str(match.game_id)))
    assert seen.ephemeral and seen.content == "Black to place (12 in hand)"
    assert footer(seen) == footer(again) and labels(seen) == []
    assert sent_mentions(w.env, seen.content) == [[]]
    refused(await w.carol.slash(w.channel, "game board"), "no game in progress")
    refused(await w.carol.slash(w.channel, "game board", game="nonsense"), "not a game number")
    refused(await w.carol.slash(w.channel, "game board", game="99"), "no game #99")
    await play(match, ["d6"])
    assert [labels(m) for m in boards(match.where)][-2:] == [[], BOARD_BUTTONS]


async def test_game_history(world):
    w = world
    match = await start_game(w)
    empty = refused(await w.alice.slash(match.where, "game history"))
    assert empty == f"**Game #{match.game_id}**\n```\nNo moves yet.\n```"
    await play(match, ["d2", "d6", "d3"])
    text = refused(await w.carol.slash(w.channel, "game history", game=f"#{match.game_id}"))
    assert text == f"**Game #{match.game_id}**\n```\n1. White d2\n2. Black d6\n3. White d3\n```"


async def test_game_rules(world):
    w = world
    result = await w.carol.slash(w.channel, "game rules", game="shax")
    assert result.response.ephemeral
    [embed] = result.response.embeds
    assert embed.title == "Shax: In short"  # the summary, the first page
    assert embed.description == Shax.rules_summary
    assert (
        embed.fields == []
    )  # no IDZEVA_DOCS_URL: no link (the rules: tests/discord/test_rules.py)
