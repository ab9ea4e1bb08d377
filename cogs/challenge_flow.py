"""Challenges: ``/<game> challenge``, and its Accept and Decline buttons. The rules are in
bot/domain/challenges.py; a challenge the bot is invited to, it accepts at once."""

from __future__ import annotations

from typing import Any

import discord

from bot.domain.service import ChallengeView, ServiceError

from . import opponent as opponent_side
from .common.answers import acknowledge, answer_error, update_source
from .common.challenges import challenge_content, challenge_embed, challenge_view
from .common.client import client_of, guild_id, service
from .common.names import keep_name
from .common.options import ChallengeOptions
from .common.text import players_only
from .posting import start_game


async def challenge(
    interaction: discord.Interaction,
    kind: str,
    shared: ChallengeOptions,
    first: str = "random",
    variants: tuple[str, ...] = (),
    *,
    partner: discord.Member | discord.User | None = None,
    opponent_partner: discord.Member | discord.User | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """``shared``: the options of every challenge (``cogs/common/options.py``): the opponent, the
    bot's level when it is challenged (it accepts at once), rated, and the time per move."""
    opponent, level, rated, time = shared.opponent, shared.level, shared.rated, shared.time
    svc = service(interaction)
    if not rated:  # absent means rated (bot/domain/ratings.py)
        options = {**(options or {}), "rated": False}
    if shared.hints:  # absent means none (bot/domain/hints.py)
        options = {**(options or {}), "hints": True}
    invited = [user for user in (opponent, partner, opponent_partner) if user is not None]
    if level is not None:
        options = {**(options or {}), "level": level}
    chosen: dict[str, object] = {**(options or {}), **({"time": time} if time else {})}
    try:
        await refuse_in_game_thread(interaction)
        created = await svc.create_challenge(
            guild_id=guild_id(interaction),
            channel_id=interaction.channel_id or 0,
            kind=kind,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id if opponent else None,
            first=first,
            variants=variants,
            partner_id=partner.id if partner else None,
            opponent_partner_id=opponent_partner.id if opponent_partner else None,
            bots=[user.id for user in invited if user.bot],
            options=chosen,
            parent_channel_id=getattr(interaction.channel, "parent_id", None),
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await keep_name(interaction, player=True)
    bot = client_of(interaction)
    newcomer = await has_newcomer(interaction, created)
    await interaction.response.send_message(
        content=challenge_content(created, bot.user.id if bot.user else None),
        embed=challenge_embed(created),
        view=challenge_view(created, newcomer=newcomer),
        allowed_mentions=players_only(created),
    )
    message = await interaction.original_response()
    await svc.set_challenge_message(created.challenge_id, message.id)
    try:
        board = await opponent_side.accept_for_bot(bot, created, message, newcomer=newcomer)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if board is not None:  # the bot was the last to accept: the game starts
        await start_game(interaction, board, message)


async def has_newcomer(interaction: discord.Interaction, challenge: ChallengeView) -> bool:
    """Whether someone in the challenge (the bot aside) has no game in this server yet: its
    message then has a Help button."""
    bot = client_of(interaction)
    bot_id = bot.user.id if bot.user else None
    for user_id in dict.fromkeys(user for user in challenge.players if user != bot_id):
        if await bot.service.is_first_timer(challenge.guild_id, user_id):
            return True
    return False


async def refuse_in_game_thread(interaction: discord.Interaction) -> None:
    """A game's thread holds that game only: a new game there would have no home of its own."""
    here = await service(interaction).game_in_thread(
        guild_id(interaction), interaction.channel_id or 0
    )
    if here is not None:
        raise ServiceError(
            f"This thread belongs to {here.title} #{here.game_id}. "
            "Challenge from the channel instead, and the new game gets its own thread."
        )


async def here_challenge(interaction: discord.Interaction, challenge_id: int) -> ChallengeView:
    """The challenge, if it belongs to the server the click comes from."""
    found = await service(interaction).get_challenge(challenge_id)
    if found.guild_id != interaction.guild_id:
        raise ServiceError(f"There is no challenge #{challenge_id}.")
    return found


async def accept(interaction: discord.Interaction, challenge_id: int) -> None:
    svc = service(interaction)
    await acknowledge(interaction)
    try:
        await here_challenge(interaction, challenge_id)
        board = await svc.accept_challenge(challenge_id, interaction.user.id)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await keep_name(interaction, player=True)
    if isinstance(board, ChallengeView):  # others still have to accept
        view = challenge_view(board, newcomer=await has_newcomer(interaction, board))
        await update_source(interaction, embed=challenge_embed(board), view=view)
        return
    accepted = await svc.get_challenge(challenge_id)
    await update_source(
        interaction,
        embed=challenge_embed(accepted, note=f"Accepted: game #{board.game_id}"),
        view=None,
    )
    await start_game(interaction, board, interaction.message)


async def decline(interaction: discord.Interaction, challenge_id: int) -> None:
    await acknowledge(interaction)
    try:
        await here_challenge(interaction, challenge_id)
        declined = await service(interaction).decline_challenge(challenge_id, interaction.user.id)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await update_source(interaction, embed=challenge_embed(declined), view=None)


async def challenge_button(
    interaction: discord.Interaction, challenge_id: int, action: str
) -> None:
    """The challenge message's Accept and Decline buttons."""
    if action == "accept":
        await accept(interaction, challenge_id)
    else:
        await decline(interaction, challenge_id)
