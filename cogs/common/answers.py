"""Answering an interaction: at once, privately, publicly, or by editing the clicked message.

Every answer here copes with an expired token: it is logged, never raised.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.domain.service import ServiceError, StaleBoard

from .text import CONTENT_LIMIT, board_link, clip

log = logging.getLogger(__name__)

NO_HOME = "I cannot post there myself, so it follows here as an answer."
SORRY = "Something went wrong on our side. Please try again; `/game board` shows the current game."


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge at once, before any work that can be slow (engine, render, database wait):
    a command shows a private "thinking…" that its first answer replaces; a button defers
    silently. Answers then go as follow-ups, and boards through the channel. A token that has
    already expired is no reason to stop: the work is still done and its board still posted."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=True)
    except discord.HTTPException:
        log.info("could not acknowledge interaction %s; going on", interaction.id)


def is_command(interaction: discord.Interaction) -> bool:
    return interaction.type is discord.InteractionType.application_command


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer (within Discord's 2,000 characters, whatever it quotes)."""
    await tell_with(interaction, {"content": clip(text, CONTENT_LIMIT)})


async def tell_with(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    """An ephemeral answer; one that cannot be delivered (expired token) is only logged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**message, ephemeral=True)
        else:
            await interaction.response.send_message(**message, ephemeral=True)
    except discord.HTTPException:
        log.info("interaction %s: could not answer", interaction.id)


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer that changes nothing."""
    await tell(interaction, text)


async def answer_error(interaction: discord.Interaction, error: ServiceError) -> None:
    if isinstance(error, StaleBoard):
        board = error.board
        text = f"{error.message}\nCurrent board: {board_link(board)} — {board.status}"
        await refuse(interaction, text)
        return
    await refuse(interaction, error.message)


async def answer_publicly(
    interaction: discord.Interaction, message: dict[str, Any]
) -> discord.Message | None:
    """A public answer through the interaction (the private "thinking…" is completed first,
    since the first follow-up would take its place and its privacy)."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(**message)
            return await interaction.original_response()
        if is_command(interaction):
            await interaction.followup.send(NO_HOME, ephemeral=True)
        return await interaction.followup.send(**message, wait=True)
    except discord.HTTPException:
        log.warning("interaction %s: could not post the board anywhere", interaction.id)
        return None


async def done(interaction: discord.Interaction) -> None:
    """Nothing left to say: take a command's private "thinking…" away."""
    if is_command(interaction) and interaction.response.is_done():
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


async def update_source(interaction: discord.Interaction, **changes: Any) -> None:
    """Edit the message whose button was clicked (through the channel if the token failed)."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**changes)
        else:
            await interaction.response.edit_message(**changes)
    except discord.HTTPException:
        if interaction.message is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await interaction.message.edit(**changes)
