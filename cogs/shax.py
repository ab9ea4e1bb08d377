"""``/shax ...``: challenge and move. Everything else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import challenge_flow
from .common.options import ChallengeOptions, challenge_options
from .game_cog import GameCog, first_choices

VARIANT_CHOICES = [
    app_commands.Choice(name="standard (one removal after placement)", value="standard"),
    app_commands.Choice(name="two removals (each player removes one)", value="two-removals"),
]


class ShaxCog(GameCog, group_name="shax", group_description="Shax, the Somali mill game"):
    kind = "shax"
    move_help = "Play a move: d2 (place), d2-d3 (move), xg7 (remove)"

    @app_commands.command(description="Challenge someone to a game of Shax")
    @app_commands.describe(
        first="Who plays White (White places first); random by default",
        variant="Rules variant",
    )
    @app_commands.choices(first=first_choices("White"), variant=VARIANT_CHOICES)
    @challenge_options()
    async def challenge(
        self,
        interaction: discord.Interaction,
        shared: ChallengeOptions,
        first: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        variants = (variant.value,) if variant and variant.value != "standard" else ()
        first_move = first.value if first else "random"
        await challenge_flow.challenge(interaction, self.kind, shared, first_move, variants)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ShaxCog(bot))
