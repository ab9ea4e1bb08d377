"""Players' names (issue 37): a challenge, an accept (``cogs/challenge_flow.py``) and then
each act on the bot in a server keep the player's display name there, for game records and
leaderboards (``bot/domain/names.py``). A bystander's name is not kept.

Every command, button or form is an act (typing, which asks for autocompletion, is not). The
name is kept beside the act, never in its way: a name that cannot be kept is logged.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from .common.names import keep_name

ACTS = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)


class NamesCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type in ACTS:
            await keep_name(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NamesCog(bot))
