"""``/shax ...``: challenge and move. Everything else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import play

KIND = "shax"
FIRST_CHOICES = [
    app_commands.Choice(name="me (I play White)", value="me"),
    app_commands.Choice(name="them (they play White)", value="them"),
    app_commands.Choice(name="random (drawn by the server)", value="random"),
]
VARIANT_CHOICES = [
    app_commands.Choice(name="standard (one removal after placement)", value="standard"),
    app_commands.Choice(name="two removals (each player removes one)", value="two-removals"),
]


class ShaxCog(commands.GroupCog, group_name="shax", group_description="Shax, the Somali mill game"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(description="Challenge someone to a game of Shax")
    @app_commands.describe(
        opponent="Who you want to play",
        first="Who plays White (White places first); random by default",
        variant="Rules variant",
    )
    @app_commands.choices(first=FIRST_CHOICES, variant=VARIANT_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        first: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        variants = (variant.value,) if variant and variant.value != "standard" else ()
        await play.challenge(
            interaction, KIND, opponent, first.value if first else "random", variants
        )

    @app_commands.command(description="Play a move: d2 (place), d2-d3 (move), xg7 (remove)")
    @app_commands.describe(move="Your move; start typing to see the legal ones", game="Which game")
    async def move(
        self, interaction: discord.Interaction, move: str, game: str | None = None
    ) -> None:
        await play.move(interaction, KIND, move, game)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await play.move_autocomplete(interaction, current, KIND)

    @move.autocomplete("game")
    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await play.game_autocomplete(interaction, current, KIND)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ShaxCog(bot))
