"""``/idzeva settings``: the bot's settings in this server (issue 16); ``/idzeva help``: what a
newcomer needs (issue 36).

Everyone may look; members with the Manage Server permission change them. The service
checks the values and the permission (``GameService.change_server_settings``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.domain.clocks import GRACE_CHOICES, TIME_CHOICES
from bot.domain.server_settings import ServerSettings
from bot.domain.service import ServiceError
from games import GAMES

from .common.answers import answer_error, tell_with
from .common.client import client_of, guild_id, service
from .common.help import help_message
from .common.text import COLOUR_CHALLENGE

TIMES = [app_commands.Choice(name=name, value=seconds) for name, seconds in TIME_CHOICES]
GRACES = [app_commands.Choice(name=name, value=seconds) for name, seconds in GRACE_CHOICES]
GAME_CHOICES = [app_commands.Choice(name=cls.title, value=key) for key, cls in GAMES.items()]


def settings_embed(settings: ServerSettings, title: str = "Idzeva in this server") -> discord.Embed:
    return discord.Embed(
        title=title, description="\n".join(settings.lines()), colour=COLOUR_CHALLENGE
    )


@app_commands.guild_only()
class SettingsCog(
    commands.GroupCog, group_name="idzeva", group_description="The bot in this server"
):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(description="This server's settings; Manage Server changes them")
    @app_commands.describe(
        allow_channel="Allow challenges in this channel (then only in the channels listed)",
        disallow_channel="Take this channel off the list",
        any_channel="Allow challenges in any channel again",
        threads="Give each game its own thread",
        time="Default time per move of new challenges",
        grace="After the time is out, how long until the bot ends the game",
        enable="Turn a game on",
        disable="Turn a game off (new challenges only)",
        vacation_days="Days of vacation each player has a year",
        tournament_role="Only members with this role (or Manage Server) create tournaments",
        tournaments_by_everyone="Let every member create tournaments again",
        daily_puzzle="Post a puzzle of the day in this channel",
        daily_puzzle_off="Stop the puzzle of the day",
    )
    @app_commands.choices(time=TIMES, grace=GRACES, enable=GAME_CHOICES, disable=GAME_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        any_channel: bool | None = None,
        threads: bool | None = None,
        time: app_commands.Choice[int] | None = None,
        grace: app_commands.Choice[int] | None = None,
        enable: app_commands.Choice[str] | None = None,
        disable: app_commands.Choice[str] | None = None,
        vacation_days: app_commands.Range[int, 0, 365] | None = None,
        tournament_role: discord.Role | None = None,
        tournaments_by_everyone: bool | None = None,
        daily_puzzle: discord.TextChannel | None = None,
        daily_puzzle_off: bool | None = None,
    ) -> None:
        svc = service(interaction)
        changes = {
            "allow_channel": allow_channel.id if allow_channel else None,
            "disallow_channel": disallow_channel.id if disallow_channel else None,
            "any_channel": any_channel,
            "threads": threads,
            "time": time.value if time else None,
            "grace": grace.value if grace else None,
            "enable": enable.value if enable else None,
            "disable": disable.value if disable else None,
            "vacation_days": vacation_days,
            "tournament_role": tournament_role.id if tournament_role else None,
            "tournaments_by_everyone": tournaments_by_everyone,
            "daily_puzzle": daily_puzzle.id if daily_puzzle else None,
            "daily_puzzle_off": daily_puzzle_off,
        }
        changes = {key: value for key, value in changes.items() if value is not None}
        try:
            guild = guild_id(interaction)
            if not changes:
                shown, title = await svc.server_settings(guild), "Idzeva in this server"
            else:
                shown = await svc.change_server_settings(
                    guild,
                    interaction.user.id,
                    manager=interaction.permissions.manage_guild,
                    **changes,
                )
                title = "Settings changed"
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(embed=settings_embed(shown, title), ephemeral=True)

    @app_commands.command(name="help", description="New here? The games, and how to start one")
    async def help(self, interaction: discord.Interaction) -> None:
        await tell_with(interaction, help_message(client_of(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
