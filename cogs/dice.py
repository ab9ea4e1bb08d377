"""``/roll dice:2d8``: dice for anything outside a game, rolled by the server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.domain.service import ServiceError

from .common.answers import answer_error
from .common.client import service
from .common.text import mention


class DiceCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice, e.g. 2d8 or 3d6 (server-side)")
    @app_commands.describe(dice="How many dice and how many sides: NdM, up to 10d100")
    async def roll(self, interaction: discord.Interaction, dice: str = "2d8") -> None:
        try:
            spec, rolled = service(interaction).free_roll(dice)
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        shown = ", ".join(str(value) for value in rolled)
        total = f" (total {sum(rolled)})" if len(rolled) > 1 else ""
        await interaction.response.send_message(
            f"🎲 {mention(interaction.user.id)} rolled {spec}: **{shown}**{total}",
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceCog(bot))
