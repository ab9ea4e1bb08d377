"""``/chebache ...``: challenge, roll, move, jump and end. Everything else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import autocomplete, challenge_flow, play
from .common.answers import refuse
from .common.options import ChallengeOptions, challenge_options
from .game_cog import GameCog, first_choices

END_REFUSED = (
    "You cannot `end` now. It forfeits the rest of Phase I (the dice left), and only when "
    "every piece of yours is at space 12 or beyond and every move left is backward."
)


def is_jump(move: str) -> bool:
    """Phase II actions: a jump (``6^8``, ``2(6^8)``, ``K(6^8)``) or ``pass``."""
    return "^" in move or move.strip().lower() == "pass"


class ChebacheCog(GameCog, group_name="chebache", group_description="Chebache, a race with a King"):
    kind = "chebache"
    move_help = "Phase I, one die: 2/7, 8\\6 (back), 3X9, S/3, K(4/10); several may be spaced"

    @app_commands.command(description="Challenge someone to a game of Chebache")
    @app_commands.describe(first="Who plays White (White moves first); random by default")
    @app_commands.choices(first=first_choices("White"))
    @challenge_options()
    async def challenge(
        self,
        interaction: discord.Interaction,
        shared: ChallengeOptions,
        first: app_commands.Choice[str] | None = None,
    ) -> None:
        await challenge_flow.challenge(
            interaction, self.kind, shared, first.value if first else "random"
        )

    @app_commands.command(description="Roll the two dice of your turn")
    @app_commands.describe(game="Which game")
    async def roll(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.roll(interaction, self.kind, game)

    @app_commands.command(description="Phase II: jump a stack (6^8, 2(6^8), K(6^8)) or pass")
    @app_commands.describe(move="Your jump, or pass; start typing to see them", game="Which game")
    async def jump(
        self, interaction: discord.Interaction, move: str, game: str | None = None
    ) -> None:
        if not is_jump(move):
            shown = move.strip().replace("`", "")[:40]
            await refuse(interaction, f"`{shown}` is not a jump: use `/chebache move`.")
            return
        await play.move(interaction, self.kind, move, game)

    @app_commands.command(description="Forfeit the rest of Phase I (only backward moves left)")
    @app_commands.describe(game="Which game")
    async def end(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.move(interaction, self.kind, "end", game, illegal=END_REFUSED)

    @jump.autocomplete("move")
    async def jump_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await autocomplete.move_autocomplete(interaction, current, self.kind, keep=is_jump)

    @roll.autocomplete("game")
    @jump.autocomplete("game")
    @end.autocomplete("game")
    async def other_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await autocomplete.game_autocomplete(interaction, current, self.kind)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ChebacheCog(bot))
