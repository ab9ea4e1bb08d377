"""``/tchela ...``: challenge and move. Everything else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import challenge_flow
from .common.options import ChallengeOptions, challenge_options
from .game_cog import GameCog, first_choices

BOARD_CHOICES = [
    app_commands.Choice(name="4x8 (four rows of eight holes)", value="4x8"),
    app_commands.Choice(name="4x6 (four rows of six holes)", value="4x6"),
]
STORE_CHOICES = [
    app_commands.Choice(name="1 (one store each)", value=1),
    app_commands.Choice(name="2 (a second store mid inner row)", value=2),
]


def variants_for(board: str | None, stores: int | None) -> tuple[str, ...]:
    """The engine's variant names for the ``board`` and ``stores`` options."""
    chosen = []
    if board == "4x6":
        chosen.append("4x6")
    if stores == 2:
        chosen.append("two-stores")
    return tuple(chosen)


class TchelaCog(GameCog, group_name="tchela", group_description="Tchela, a four-row mancala"):
    kind = "tchela"
    move_help = "Play a move: 7 (sow hole 7), 7+s (fill the store), s, open5"

    @app_commands.command(description="Challenge someone to a game of Tchela")
    @app_commands.describe(
        first="Who plays South (South opens first); random by default",
        board="Four rows of eight holes (default) or of six",
        stores="Stores per player: 1 (default) or 2",
    )
    @app_commands.choices(first=first_choices("South"), board=BOARD_CHOICES, stores=STORE_CHOICES)
    @challenge_options()
    async def challenge(
        self,
        interaction: discord.Interaction,
        shared: ChallengeOptions,
        first: app_commands.Choice[str] | None = None,
        board: app_commands.Choice[str] | None = None,
        stores: app_commands.Choice[int] | None = None,
    ) -> None:
        variants = variants_for(board.value if board else None, stores.value if stores else None)
        first_move = first.value if first else "random"
        await challenge_flow.challenge(interaction, self.kind, shared, first_move, variants)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TchelaCog(bot))
