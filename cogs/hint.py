"""``/game hint``: the turn the bot would play for the asker now, and why, privately
(``bot/domain/hints.py`` decides where hints are allowed and counts them)."""

from __future__ import annotations

import discord

from bot.domain.hints import Hint
from bot.domain.service import ServiceError

from .common.answers import acknowledge, answer_error, tell
from .common.client import guild_id, service
from .finding import resolve_game


def hint_text(hint: Hint) -> str:
    """``Hint for Shax #12: **d2-d3 xg7**: completes a mill at ... (your 2nd hint here).``"""
    moves = " ".join(hint.moves)
    taken = "your first hint in this game" if hint.counted == 1 else f"hints taken: {hint.counted}"
    return (
        f"Hint for {hint.title} #{hint.game_id}: **{moves}**, which {hint.reason}."
        f"\n-# The game's record counts it ({taken})."
    )


async def show(interaction: discord.Interaction, game: str | None) -> None:
    """Acknowledge first (the search takes up to two seconds), then answer privately."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
        hint = await service(interaction).hint(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await tell(interaction, hint_text(hint))
