"""The base of the per-game cogs: the ``move`` command and its autocompletes, shared.

A game's cog subclasses ``GameCog`` (a ``GroupCog``: ``/shax move``, ``/tchela move`` ...),
sets ``kind`` and ``move_help`` (the command's description: the game's notation), and adds
its own commands (``challenge``, ``roll`` ...). ``game_autocomplete`` may be reused by those.
"""

from __future__ import annotations

from typing import ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from . import autocomplete, play

RANDOM_FIRST = app_commands.Choice(name="random (drawn by the server)", value="random")


def first_choices(seat: str) -> list[app_commands.Choice[str]]:
    """Choices for a challenge's ``first`` option, naming the first seat (e.g. White)."""
    return [
        app_commands.Choice(name=f"me (I play {seat})", value="me"),
        app_commands.Choice(name=f"them (they play {seat})", value="them"),
        RANDOM_FIRST,
    ]


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    kind: ClassVar[str]
    move_help: ClassVar[str] = "Play a move"

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.move.description = self.move_help  # this cog's own copy of the command

    @app_commands.command(description="Play a move")
    @app_commands.describe(move="Your move; start typing to see the legal ones", game="Which game")
    async def move(
        self, interaction: discord.Interaction, move: str, game: str | None = None
    ) -> None:
        await play.move(interaction, self.kind, move, game)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await autocomplete.move_autocomplete(interaction, current, self.kind)

    @move.autocomplete("game")
    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await autocomplete.game_autocomplete(interaction, current, self.kind)
