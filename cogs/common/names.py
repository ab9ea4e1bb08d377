"""Keeping players' names (issue 37, ``bot/domain/names.py``): ``keep_name`` at a challenge,
an accept (``cogs/challenge_flow.py``, ``cogs/rematch.py``) and each act (``cogs/names.py``)."""

from __future__ import annotations

import logging

import discord

from .client import service

log = logging.getLogger(__name__)


async def keep_name(interaction: discord.Interaction, *, player: bool = False) -> None:
    """Keep the name of whoever acts: a ``player`` (they just challenged or accepted), else
    only if they have a game here."""
    user = interaction.user
    if interaction.guild_id is None or not isinstance(user, discord.Member):
        return
    svc = service(interaction)
    keep = svc.remember_name if player else svc.refresh_name
    try:
        await keep(interaction.guild_id, user.id, user.display_name)
    except Exception:  # the act itself goes on
        log.exception("the name of %s in server %s was not kept", user.id, interaction.guild_id)
