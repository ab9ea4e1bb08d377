"""Players' names (issue 37): each act on the bot in a server keeps the player's display name
there, for game records and leaderboards (``bot/domain/names.py``).

Every command, button or form counts (typing, which asks for autocompletion, does not). The
name is kept beside the act, never in its way: a name that cannot be kept is logged.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from .common.client import service

log = logging.getLogger(__name__)

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
        if interaction.type not in ACTS or interaction.guild_id is None:
            return
        if not isinstance(interaction.user, discord.Member):
            return
        user = interaction.user
        try:
            await service(interaction).remember_name(
                interaction.guild_id, user.id, user.display_name
            )
        except Exception:
            log.exception("the name of %s in server %s was not kept", user.id, interaction.guild_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NamesCog(bot))
