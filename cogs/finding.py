"""Finding the game a command is about: the ``game`` option, else this thread's game, else
the player's only game; and who may see it."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.domain.service import GameSummary, ServiceError

from .common.client import client_of, guild_id, service
from .common.options import parse_game_option


class NoGameHere(ServiceError):
    """The player named no game, is in no game's thread and has no game in progress here."""


async def resolve_game(
    interaction: discord.Interaction, option: str | None, kind: str | None = None
) -> int:
    """The game a command means: the option, else this thread's game, else the only one."""
    svc, guild = service(interaction), guild_id(interaction)
    if option:
        game_id = parse_game_option(option)
        if kind is not None:
            refuse_other_kind(interaction, await svc.summary(game_id, guild), kind)
        return game_id
    here = await svc.game_in_thread(guild, interaction.channel_id or 0)
    if here is not None:  # a game's thread holds that game only
        if kind is not None:
            refuse_other_kind(interaction, here, kind)
        return here.game_id
    games = [
        g
        for g in await svc.list_games(guild, interaction.user.id)
        if kind is None or g.kind == kind
    ]
    if len(games) == 1:
        return games[0].game_id
    my_turn = [g for g in games if g.to_move_user == interaction.user.id]
    if len(my_turn) == 1:
        return my_turn[0].game_id
    if not games:
        raise NoGameHere("You have no game in progress here. Start one with a challenge.")
    raise ServiceError("You have several games here: choose one with the `game` option.")


def refuse_other_kind(interaction: discord.Interaction, game: GameSummary, kind: str) -> None:
    """``/shax move`` on a Tchela game changes nothing and says which command to use."""
    if game.kind != kind:
        use = command_for(interaction, game.kind)
        raise ServiceError(f"Game #{game.game_id} is {game.title}: use `{use}`.")


def command_for(interaction: discord.Interaction, kind: str) -> str:
    """The command of the game ``kind`` that does what this one does (``/tchela move`` for
    ``/shax move``); its ``move`` when it has no such command (``/shax`` has no ``roll``)."""
    name = interaction.command.name if interaction.command else "move"
    for cog in client_of(interaction).cogs.values():
        group = getattr(cog, "app_command", None)
        if getattr(cog, "kind", None) == kind and isinstance(group, app_commands.Group):
            found = group.get_command(name) or group.get_command("move")
            return f"/{found.qualified_name}" if found else f"/{group.name}"
    return f"/{kind}"


async def visible_game(interaction: discord.Interaction, game_id: int) -> GameSummary:
    """The game, for its players and for whoever can see its channel; to anyone else it does
    not exist (the same answer as a game of another server)."""
    found = await service(interaction).summary(game_id, guild_id(interaction))
    if interaction.user.id in found.players or can_view(interaction, found):
        return found
    raise ServiceError(f"There is no game #{game_id} in this server.")


def can_view(interaction: discord.Interaction, game: GameSummary) -> bool:
    guild, user = interaction.guild, interaction.user
    if guild is None or not isinstance(user, discord.Member):
        return False
    channel = guild.get_channel_or_thread(game.thread_id or 0) or guild.get_channel(game.channel_id)
    return channel is not None and channel.permissions_for(user).view_channel
