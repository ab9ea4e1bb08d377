"""``/shax ...``: challenge and move. Everything else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import play
from .game_cog import (
    LEVEL_CHOICES,
    LEVEL_HELP,
    OPEN_HELP,
    TIME_CHOICES,
    TIME_HELP,
    GameCog,
    first_choices,
    level_of,
    seconds,
)

VARIANT_CHOICES = [
    app_commands.Choice(name="standard (one removal after placement)", value="standard"),
    app_commands.Choice(name="two removals (each player removes one)", value="two-removals"),
]


class ShaxCog(GameCog, group_name="shax", group_description="Shax, the Somali mill game"):
    kind = "shax"
    move_help = "Play a move: d2 (place), d2-d3 (move), xg7 (remove)"

    @app_commands.command(description="Challenge someone to a game of Shax")
    @app_commands.describe(
        opponent=OPEN_HELP,
        first="Who plays White (White places first); random by default",
        variant="Rules variant",
        rated="Counts for the ratings (default: yes); no makes a friendly game",
        level=LEVEL_HELP,
        time=TIME_HELP,
    )
    @app_commands.choices(
        first=first_choices("White"),
        variant=VARIANT_CHOICES,
        level=LEVEL_CHOICES,
        time=TIME_CHOICES,
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | None = None,
        first: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        level: app_commands.Choice[str] | None = None,
        rated: bool = True,
        time: app_commands.Choice[int] | None = None,
    ) -> None:
        variants = (variant.value,) if variant and variant.value != "standard" else ()
        await play.challenge(
            interaction,
            self.kind,
            opponent,
            first.value if first else "random",
            variants,
            level=level_of(level),
            rated=rated,
            time=seconds(time),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ShaxCog(bot))
