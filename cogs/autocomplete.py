"""The choices offered while typing: a player's games, and the legal moves of a game."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands

from bot.domain.service import GameSummary, ServiceError

from .common.client import guild_id, service
from .finding import resolve_game

AUTOCOMPLETE_LIMIT = 25  # Discord's maximum number of choices
CHOICE_NAME_LIMIT = 100  # Discord's maximum length of a choice's name


def game_choice_name(game: GameSummary, user_id: int) -> str:
    others = ", ".join(f"@{p}" for p in game.players if p != user_id)  # ids; names unknown here
    turn = "your turn" if game.to_move_user == user_id else game.status
    return f"#{game.game_id} {game.title} — {turn}"[:100] if others else f"#{game.game_id}"


async def game_autocomplete(
    interaction: discord.Interaction,
    current: str,
    kind: str | None = None,
    *,
    finished: bool = False,
) -> list[app_commands.Choice[str]]:
    """The asker's games (their active ones; with ``finished``, their finished ones)."""
    if interaction.guild_id is None:
        return []
    games = await service(interaction).list_games(
        interaction.guild_id, interaction.user.id, include_finished=finished
    )
    choices = [
        app_commands.Choice(name=game_choice_name(g, interaction.user.id), value=str(g.game_id))
        for g in games
        if (kind is None or g.kind == kind) and g.finished == finished
    ]
    typed = current.strip().lower().lstrip("#")
    return [c for c in choices if typed in c.name.lower()][:AUTOCOMPLETE_LIMIT]


async def move_autocomplete(
    interaction: discord.Interaction,
    current: str,
    kind: str,
    keep: Callable[[str], bool] | None = None,
) -> list[app_commands.Choice[str]]:
    """Legal moves of the game the command is about, filtered by what was typed.

    Each choice is named by the move and the game's reading of it, and its value is the
    canonical move (the service checks it again on submission). ``keep`` narrows the moves
    for a command that plays one sort of them (e.g. only jumps).
    """
    try:
        option = getattr(interaction.namespace, "game", None)
        game_id = await resolve_game(interaction, option, kind)
        choices = await service(interaction).move_choices(
            game_id, guild_id(interaction), typed=current
        )
    except (ServiceError, ValueError):  # ValueError: a parser that could not read ``current``
        return []
    if keep is not None:
        choices = [(move, text) for move, text in choices if keep(move)]
    return [
        app_commands.Choice(name=move_choice_name(move, text), value=move)
        for move, text in choices[:AUTOCOMPLETE_LIMIT]
    ]


def move_choice_name(move: str, description: str) -> str:
    """``"7+s · hole 7 — sow 3, …"``: the move first, so it can be typed; just the move when
    the game has nothing to add, and the reading alone when it starts or ends with the move
    (``"2/7 — piece forward 5 to …"``, ``"Swod Mortil C3 → Mortil C4 (c3-c4)"``). Discord
    allows 100 characters."""
    if not description or description == move:
        return move[:CHOICE_NAME_LIMIT]
    told = description.startswith(move) or description.endswith(f"({move})")
    name = description if told else f"{move} · {description}"
    if len(name) <= CHOICE_NAME_LIMIT:
        return name
    cut = name[: CHOICE_NAME_LIMIT - 1].rsplit(" ", 1)[0].rstrip(" ,—·")
    return cut + "…"
