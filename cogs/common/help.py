"""``/idzeva help`` (and a challenge's Help button): what a newcomer needs, privately.

The games and the commands it names are read from the client's own commands, so it names
only commands that exist (``/game learn`` once it does).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from .client import IdzevaClient
from .options import LEVEL_CHOICES
from .text import COLOUR_CHALLENGE

TITLE = "Idzeva: board games with your friends"
LESSONS = "learn"  # the /game command with lessons, once it exists


def game_groups(client: IdzevaClient) -> list[app_commands.Group]:
    """The command group of each game (``/shax``, ``/tchela`` ...), in the order loaded."""
    groups = (
        getattr(cog, "app_command", None) for cog in client.cogs.values() if hasattr(cog, "kind")
    )
    return [group for group in groups if isinstance(group, app_commands.Group)]


def shared_group(client: IdzevaClient) -> app_commands.Group | None:
    """``/game``: the commands every game shares."""
    for cog in client.cogs.values():
        group = getattr(cog, "app_command", None)
        if isinstance(group, app_commands.Group) and group.name == "game":
            return group
    return None


def help_text(client: IdzevaClient) -> str:
    groups = game_groups(client)
    games = [f"• **{group.description}**: `/{group.name} challenge`" for group in groups]
    bot = client.user.mention if client.user else "me"
    levels = ", ".join(f"`{choice.value}`" for choice in LEVEL_CHOICES)
    move = f"/{groups[0].name} move" if groups else "move"
    shared = shared_group(client)
    lessons = shared is not None and shared.get_command(LESSONS) is not None
    return "\n".join(
        [
            "**The games**",
            *games,
            "",
            "**Start one**",
            "Challenge a friend: `/<game> challenge opponent:@friend` (leave `opponent` empty "
            "for an open challenge: anyone here may accept). They accept with the button.",
            f"Or play me: challenge {bot} as the opponent, at `level` {levels}.",
            "",
            "**The commands you will use most**",
            f"`/<game> move` (e.g. `{move}`) plays a move: start typing to see the legal ones. "
            "The board's buttons roll, offer a draw, take back or resign.",
            "`/game board` shows a game's board, and `/game list` your games here.",
            "`/game rules` shows a game's rules, a section at a time (a summary first).",
            "",
            "**Rules and lessons**",
            "`/game rules` for each game's rules"
            + (f"; `/game {LESSONS}` for lessons." if lessons else "; lessons are coming."),
        ]
    )


def help_message(client: IdzevaClient) -> dict[str, Any]:
    """Keyword arguments for a private answer."""
    embed = discord.Embed(title=TITLE, description=help_text(client), colour=COLOUR_CHALLENGE)
    return {"embed": embed}
