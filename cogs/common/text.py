"""The small pieces of text every message uses: mentions, links, clipping, colours."""

from __future__ import annotations

import discord

from bot.domain.names import tidy_name
from bot.domain.service import BoardView, ChallengeView

COLOUR_ACTIVE = discord.Colour.from_rgb(88, 101, 242)
COLOUR_FINISHED = discord.Colour.from_rgb(87, 242, 135)
COLOUR_CHALLENGE = discord.Colour.from_rgb(254, 231, 92)
CONTENT_LIMIT = 2000  # Discord's limit for a message's text


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def shown_name(name: str) -> str:
    """A display name as text of a message: on one line, at most 32 characters, its
    Markdown and mentions shown, not acted on (``bot/domain/names.py``)."""
    shown = tidy_name(name) or "?"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(shown))


def team_names(users: tuple[int, ...]) -> str:
    return " and ".join(mention(user) for user in users)


def players_only(board: BoardView | ChallengeView) -> discord.AllowedMentions:
    """Ping the players of this game and nobody else (each once: the bot may hold seats)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(i) for i in dict.fromkeys(board.players)]
    )


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


def home_id(board: BoardView) -> int:
    """Where the game is played: its thread, or its channel when it has none."""
    return board.thread_id or board.channel_id


def board_link(board: BoardView) -> str:
    return message_link(board.guild_id, home_id(board), board.message_id)
