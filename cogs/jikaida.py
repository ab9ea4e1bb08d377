"""``/jikaida ...``: challenge and move, for Poron Jikaida and Pastang. Everything else is in
``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import challenge_flow
from .common.options import ChallengeOptions, challenge_options
from .game_cog import RANDOM_FIRST, GameCog

FIRST_CHOICES = [
    app_commands.Choice(name="me", value="me"),
    app_commands.Choice(name="them", value="them"),
    RANDOM_FIRST,
]
VARIANT_CHOICES = [
    app_commands.Choice(name="Poron Jikaida (12x18, six drins)", value="poron"),
    app_commands.Choice(name="Pastang (one 6x6 drin, Deldars and Swods)", value="pastang"),
]
COLOUR_CHOICES = [
    app_commands.Choice(name="Yellow (south)", value="yellow"),
    app_commands.Choice(name="Blue (north)", value="blue"),
    app_commands.Choice(name="random (drawn by the server)", value="random"),
]


class JikaidaCog(GameCog, group_name="jikaida", group_description="Poron Jikaida and Pastang"):
    kind = "jikaida"
    move_help = "Move (c3-c4, c3xd4, c16-c18=P, h1<>f1): type a square, a piece or both (swod c3)"

    @app_commands.command(description="Challenge someone to Poron Jikaida (or Pastang)")
    @app_commands.describe(
        first="Who moves first; random by default",
        variant="Poron Jikaida (default) or its small form Pastang",
        colour="The colour you play; random by default",
    )
    @app_commands.choices(first=FIRST_CHOICES, variant=VARIANT_CHOICES, colour=COLOUR_CHOICES)
    @challenge_options()
    async def challenge(
        self,
        interaction: discord.Interaction,
        shared: ChallengeOptions,
        first: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        colour: app_commands.Choice[str] | None = None,
    ) -> None:
        variants = ("pastang",) if variant and variant.value == "pastang" else ()
        await challenge_flow.challenge(
            interaction,
            self.kind,
            shared,
            first.value if first else "random",
            variants,
            options={"colour": colour.value if colour else "random"},
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(JikaidaCog(bot))
