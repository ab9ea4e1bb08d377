"""Ratings on Discord: two finished games, their boards' rating changes, ``/game stats``
(with its chart attached) and ``/game leaderboard``; a friendly challenge."""

from __future__ import annotations

import io

from PIL import Image

from bot.domain.ratings import BoardLine, Leaderboard
from cogs.standings import leaderboard_embed

from .helpers import PNG_SIGNATURE, answer, field_value, public, start_game


async def test_two_games_then_stats_and_leaderboard(world):
    w = world
    first = await start_game(w)
    done = public(await w.bob.slash(first.where, "game resign"))  # alice wins
    assert field_value(done, "Ratings") == (
        f"<@{w.alice.id}>: 1500 → 1658? (+158)\n<@{w.bob.id}>: 1500 → 1342? (−158)"
    )
    second = await start_game(w, white=w.bob, black=w.alice)
    done = public(await w.alice.slash(second.where, "game resign"))  # bob wins
    ratings = field_value(done, "Ratings") or ""
    assert f"<@{w.bob.id}>: 1342 → " in ratings and f"<@{w.alice.id}>: 1658 → " in ratings

    told = answer(await w.alice.slash(w.channel, "game stats"))
    assert told.ephemeral
    embed = told.embeds[0]
    assert embed.title == "alice: all games"
    assert "**2** rated games: 1 won, 0 drawn, 1 lost" in embed.description
    assert "Win streak: 0 now, 1 best" in embed.description
    assert "Most played: Shax" in embed.description
    rating = next(f.value for f in embed.fields if f.name == "Rating")
    assert rating.startswith("Shax: **") and "in 30 days, 2 games)" in rating
    recent = next(f.value for f in embed.fields if f.name == "Recent games").splitlines()
    assert recent[0].startswith(f"[#{second.game_id} Shax](https://discord.com/channels/")
    assert " lost (−" in recent[0] and " won (+158)" in recent[1]
    (chart,) = told.attachments
    assert chart.filename == "rating.png"
    data = await chart.read()
    assert data.startswith(PNG_SIGNATURE)
    assert Image.open(io.BytesIO(data)).size == (640, 300)
    assert embed.image.url == "attachment://rating.png"

    of_bob = answer(await w.alice.slash(w.channel, "game stats", user=w.bob, game="shax"))
    assert of_bob.embeds[0].title == "bob: Shax"

    board = answer(await w.alice.slash(w.channel, "game leaderboard", game="shax")).embeds[0]
    assert board.description == "Nobody has enough rated games yet."
    assert "You need 3 more rated games to be ranked." in board.fields[0].value
    assert board.footer.text.startswith("2 players with fewer than 5 rated games not shown.")
    overall = answer(await w.carol.slash(w.channel, "game leaderboard")).embeds[0]
    assert overall.title == "Leaderboard: all games (each player's best)"
    assert overall.fields[0].value == "You have no rated games here yet."


async def test_a_friendly_challenge_is_not_rated(world):
    w = world
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=w.bob, first="me", rated=False
    )
    assert "Friendly game: not rated." in result.response.embeds[0].description
    await w.bob.click(result.response, label="Accept")
    games = await w.env.bot.service.list_games(w.guild.id, w.alice.id)
    where = next(t for t in w.channel.threads if t.id == result.response.id)
    done = public(await w.bob.slash(where, "game resign"))
    assert field_value(done, "Ratings") == "Friendly game: not rated"
    assert len(games) == 1
    told = answer(await w.alice.slash(w.channel, "game stats"))
    assert told.embeds[0].description == "No rated games yet."
    assert told.attachments == []


async def test_one_game_is_one_game_in_stats_and_leaderboard(world):
    w = world
    first = await start_game(w)
    public(await w.bob.slash(first.where, "game resign"))  # alice wins
    embed = answer(await w.alice.slash(w.channel, "game stats")).embeds[0]
    assert "**1** rated game: 1 won, 0 drawn, 0 lost" in embed.description
    rating = next(f.value for f in embed.fields if f.name == "Rating")
    assert rating.endswith("in 30 days, 1 game)")
    board = answer(await w.alice.slash(w.channel, "game leaderboard", game="shax")).embeds[0]
    assert "You need 4 more rated games to be ranked." in board.fields[0].value
    assert board.footer.text.startswith("2 players with fewer than 5 rated games not shown.")


def test_the_leaderboard_counts_one_of_each_in_the_singular_and_names_players():
    hostile = "*B* @here <@123456789012345678>"  # 31 characters
    top = (BoardLine(1, 11, "shax", "1623", 1), BoardLine(2, 22, "shax", "1500?", 2))
    board = Leaderboard("shax", top, None, 4, 2, 1, min_games=5)
    embed = leaderboard_embed(board, caller=33, names={11: hostile})
    first, second = embed.description.splitlines()
    # The kept name, its Markdown and mentions shown as text; a player without one: a mention.
    shown = "\\*B\\* @\u200bhere <@\u200b123456789012345678>"
    assert first == f"**1.** {shown} 1623 (1 game)"
    assert second == "**2.** <@22> 1500? (2 games)"
    assert embed.fields[0].value == "You need 1 more rated game to be ranked."
    assert embed.footer.text.startswith("1 player with fewer than 5 rated games not shown.")
    ranked = leaderboard_embed(Leaderboard("shax", top, top[0], 1, 2, 0, min_games=1), 11)
    assert ranked.footer.text.startswith("Ranked from 1 rated game.")
