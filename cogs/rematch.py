"""The Rematch button of a finished game's board: the same challenge with sides swapped,
posted where the game's challenge was (the game's channel, not its thread: a game's thread
holds that game only). The rules are in bot/domain/challenges.py."""

from __future__ import annotations

import discord

from bot.domain.service import ServiceError

from . import opponent as opponent_side
from .common.answers import answer_error, answer_publicly, tell
from .common.challenges import challenge_content, challenge_embed, challenge_view
from .common.client import client_of, guild_id, service
from .common.names import keep_name
from .common.sending import send_in
from .common.text import message_link, players_only
from .posting import start_game


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    svc = service(interaction)
    try:
        created = await svc.rematch(game_id, interaction.user.id, guild_id=guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await keep_name(interaction, player=True)
    bot = client_of(interaction)
    message = {
        "content": challenge_content(created, bot.user.id if bot.user else None),
        "embed": challenge_embed(created),
        "view": challenge_view(created),
        "allowed_mentions": players_only(created),
    }
    channel = bot.get_channel(created.channel_id)
    here = channel if isinstance(channel, discord.abc.Messageable) else None
    posted = await send_in(here, message, game_id)
    if posted is None:  # the bot cannot post in the channel: the challenge answers the click
        posted = await answer_publicly(interaction, message)
    elif interaction.channel_id != created.channel_id:
        link = message_link(created.guild_id, created.channel_id, posted.id)
        await tell(interaction, f"Rematch sent: {link}")
    if posted is None:
        return
    await svc.set_challenge_message(created.challenge_id, posted.id)
    try:  # a rematch of a game against the bot: it accepts at once, as a new challenge
        board = await opponent_side.accept_for_bot(bot, created, posted)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if board is not None:
        await start_game(interaction, board, posted)
