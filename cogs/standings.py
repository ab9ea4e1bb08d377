"""``/game stats`` and ``/game leaderboard``: the service's ratings as embeds (and the chart)."""

from __future__ import annotations

import io
from collections.abc import Mapping

import discord

from bot.domain.ratings import (
    Leaderboard,
    Stats,
    label,
    rated_game_title,
    sign,
)
from bot.domain.service import ServiceError
from bot.domain.wording import noun, plural

from .common.answers import answer_error
from .common.client import guild_id, service
from .common.text import clip, mention, message_link, shown_name

CHART_FILE = "rating.png"
COLOUR = discord.Colour.from_rgb(29, 95, 209)
OUTCOME_WORDS = {"win": "won", "draw": "drew", "loss": "lost"}


async def stats(
    interaction: discord.Interaction, user: discord.abc.User | None, game: str | None
) -> None:
    who = user or interaction.user
    svc = service(interaction)
    try:
        found = await svc.stats(guild_id(interaction), who.id, game)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    message: dict = {"embed": stats_embed(found, shown_name(who.display_name))}
    if found.tournaments:
        events = clip("\n".join(found.tournaments), 1024)
        message["embed"].add_field(name="Tournaments", value=events, inline=False)
    if found.chart_game is not None and found.points:
        title = f"{rated_game_title(found.chart_game)}: {who.display_name}"
        png = await svc.rating_chart(found.points, clip(title, 40))
        message["file"] = discord.File(io.BytesIO(png), filename=CHART_FILE)
        message["embed"].set_image(url=f"attachment://{CHART_FILE}")
    await interaction.response.send_message(
        **message, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


def stats_embed(found: Stats, name: str) -> discord.Embed:
    where = rated_game_title(found.game) if found.game else "all games"
    embed = discord.Embed(title=clip(f"{name}: {where}", 256), colour=COLOUR)
    total = found.total
    if total is None or total.games == 0:
        embed.description = "No rated games yet."
        return embed
    embed.description = (
        f"**{total.games}** rated {noun(total.games, 'game')}: "
        f"{total.wins} won, {total.draws} drawn, {total.losses} lost\n"
        f"Win streak: {total.streak} now, {total.best_streak} best"
    )
    if found.game is None and found.most_played is not None:
        embed.description += f"\nMost played: {rated_game_title(found.most_played)}"
    lines = [
        f"{rated_game_title(r.game)}: **{label(r.mu, r.sigma)}**"
        f" ({sign(found.month_change.get(r.game, 0))} in 30 days, {plural(r.games, 'game')})"
        for r in found.ratings
    ]
    embed.add_field(name="Rating", value=clip("\n".join(lines), 1024), inline=False)
    if found.recent:
        recent = [
            f"[#{g.game_id} {rated_game_title(g.game)}]"
            f"({message_link(g.guild_id, g.thread_id or g.channel_id, g.message_id)}):"
            f" {OUTCOME_WORDS[g.outcome]} ({sign(g.delta)}) <t:{int(g.finished_at)}:R>"
            for g in found.recent
        ]
        embed.add_field(name="Recent games", value=clip("\n".join(recent), 1024), inline=False)
    embed.set_footer(text="? marks a provisional rating (few games yet)")
    return embed


async def leaderboard(interaction: discord.Interaction, game: str | None) -> None:
    svc = service(interaction)
    try:
        board = await svc.leaderboard(guild_id(interaction), interaction.user.id, game)
        names = await svc.player_names(guild_id(interaction), [line.user_id for line in board.top])
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await interaction.response.send_message(
        embed=leaderboard_embed(board, interaction.user.id, names),
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )


def leaderboard_embed(
    board: Leaderboard, caller: int, names: Mapping[int, str] | None = None
) -> discord.Embed:
    """The board; each player by the name kept for them (``names``), else as a mention."""
    names = names or {}
    where = rated_game_title(board.game) if board.game else "all games (each player's best)"
    embed = discord.Embed(title=f"Leaderboard: {where}", colour=COLOUR)
    lines = []
    for line in board.top:
        game = "" if board.game else f" in {rated_game_title(line.game)}"
        me = " ← you" if line.user_id == caller else ""
        who = shown_name(names[line.user_id]) if line.user_id in names else mention(line.user_id)
        games = plural(line.games, "game")
        lines.append(f"**{line.place}.** {who} {line.rating}{game} ({games}){me}")
    embed.description = "\n".join(lines) or "Nobody has enough rated games yet."
    if board.mine is not None:
        place = f"You are #{board.mine.place} of {board.ranked} ({board.mine.rating})."
    elif board.my_games:
        more = board.min_games - board.my_games
        place = f"You need {more} more rated {noun(more, 'game')} to be ranked."
    else:
        place = "You have no rated games here yet."
    left = board.left_out
    note = (
        f"{plural(left, 'player')} with fewer than"
        f" {plural(board.min_games, 'rated game')} not shown."
        if left
        else f"Ranked from {plural(board.min_games, 'rated game')}."
    )
    embed.add_field(name="Your place", value=place, inline=False)
    embed.set_footer(text=f"{note} Ordered by a cautious estimate (rating minus 3 sigma).")
    return embed
