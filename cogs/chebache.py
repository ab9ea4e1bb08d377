"""``/chebache ...``: challenge, roll, move, jump and end. Everything else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import play
from .ui import refuse

KIND = "chebache"
FIRST_CHOICES = [
    app_commands.Choice(name="me (I play White)", value="me"),
    app_commands.Choice(name="them (they play White)", value="them"),
    app_commands.Choice(name="random (drawn by the server)", value="random"),
]
END_REFUSED = (
    "You cannot `end` now. It forfeits the rest of Phase I (the dice left), and only when "
    "every piece of yours is at space 12 or beyond and every move left is backward."
)


def is_jump(move: str) -> bool:
    """Phase II actions: a jump (``6^8``, ``2(6^8)``, ``K(6^8)``) or ``pass``."""
    return "^" in move or move.strip().lower() == "pass"


class ChebacheCog(
    commands.GroupCog, group_name="chebache", group_description="Chebache, a race with a King"
):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(description="Challenge someone to a game of Chebache")
    @app_commands.describe(
        opponent="Who you want to play",
        first="Who plays White (White moves first); random by default",
    )
    @app_commands.choices(first=FIRST_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        first: app_commands.Choice[str] | None = None,
    ) -> None:
        await play.challenge(interaction, KIND, opponent, first.value if first else "random")

    @app_commands.command(description="Roll the two dice of your turn")
    @app_commands.describe(game="Which game")
    async def roll(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.roll(interaction, KIND, game)

    @app_commands.command(description="Phase I, one die: 2/7, 8\\6 (back), 3X9, S/3, K(4/10)")
    @app_commands.describe(
        move="Your move (or several, spaced); start typing to see the legal ones",
        game="Which game",
    )
    async def move(
        self, interaction: discord.Interaction, move: str, game: str | None = None
    ) -> None:
        await play.move(interaction, KIND, move, game)

    @app_commands.command(description="Phase II: jump a stack (6^8, 2(6^8), K(6^8)) or pass")
    @app_commands.describe(move="Your jump, or pass; start typing to see them", game="Which game")
    async def jump(
        self, interaction: discord.Interaction, move: str, game: str | None = None
    ) -> None:
        if not is_jump(move):
            await refuse(interaction, f"`{move[:40]}` is not a jump: use `/chebache move`.")
            return
        await play.move(interaction, KIND, move, game)

    @app_commands.command(description="Forfeit the rest of Phase I (only backward moves left)")
    @app_commands.describe(game="Which game")
    async def end(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.move(interaction, KIND, "end", game, illegal=END_REFUSED)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await play.move_autocomplete(interaction, current, KIND)

    @jump.autocomplete("move")
    async def jump_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await play.move_autocomplete(interaction, current, KIND, keep=is_jump)

    @roll.autocomplete("game")
    @move.autocomplete("game")
    @jump.autocomplete("game")
    @end.autocomplete("game")
    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await play.game_autocomplete(interaction, current, KIND)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ChebacheCog(bot))
