"""The buttons of boards, challenges and notices, and their custom ids (a stored format:
tests/discord/test_custom_ids.py pins each spelling)."""

from __future__ import annotations

import discord

from .answers import tell_with
from .buttons import PersistentButton, guarded, yes_no_style
from .client import client_of
from .help import help_message


class ChallengeButton(
    PersistentButton, template=r"idz:ch:(?P<challenge>[0-9]+):(?P<action>accept|decline)"
):
    def __init__(self, challenge_id: int | None, action: str):
        style = discord.ButtonStyle.success if action == "accept" else discord.ButtonStyle.danger
        super().__init__("ch", challenge_id, action, label=action.capitalize(), style=style)
        self.challenge_id = challenge_id
        self.action = action


class BoardButton(
    PersistentButton,
    template=(
        r"idz:g:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>moves|draw|takeback|resign|resign!)"
    ),
):
    LABELS = {
        "moves": ("Legal moves", discord.ButtonStyle.secondary),
        "draw": ("Offer draw", discord.ButtonStyle.secondary),
        "takeback": ("Takeback", discord.ButtonStyle.secondary),
        "resign": ("Resign", discord.ButtonStyle.danger),
        "resign!": ("Yes, resign", discord.ButtonStyle.danger),
    }

    def __init__(
        self, game_id: int | None, version: int | None, action: str, label: str | None = None
    ):
        default, style = self.LABELS[action]
        super().__init__("g", game_id, version, action, label=label or default, style=style)
        self.game_id = game_id
        self.version = version
        self.action = action


class RollButton(PersistentButton, template=r"idz:r:(?P<game>[0-9]+):(?P<version>[0-9]+)"):
    """Rolls the dice due on this board (server-side); only the player to move may."""

    def __init__(self, game_id: int | None, version: int | None):
        super().__init__("r", game_id, version, label="Roll", style=discord.ButtonStyle.primary)
        self.game_id = game_id
        self.version = version


class AnswerButton(
    PersistentButton,
    template=r"idz:a:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<move>[a-z]+)",
):
    """Plays an answer move (e.g. ``accept`` or ``refuse`` a redemption offer) on the board at
    ``version``; only the player addressed may, and an outdated board refuses."""

    def __init__(
        self, game_id: int | None, version: int | None, move: str, label: str | None = None
    ):
        style = yes_no_style(move == "accept")
        super().__init__("a", game_id, version, move, label=label or move.capitalize(), style=style)
        self.game_id = game_id
        self.version = version
        self.move = move


class DrawAnswerButton(PersistentButton, template=r"idz:dr:(?P<game>[0-9]+):(?P<answer>yes|no)"):
    def __init__(self, game_id: int | None, answer: str):
        label = "Accept draw" if answer == "yes" else "Decline"
        super().__init__("dr", game_id, answer, label=label, style=yes_no_style(answer == "yes"))
        self.game_id = game_id
        self.answer = answer


class ClaimButton(PersistentButton, template=r"idz:cl:(?P<game>[0-9]+)"):
    def __init__(self, game_id: int | None):
        style = discord.ButtonStyle.primary
        super().__init__("cl", game_id, label="Claim the win", style=style)
        self.game_id = game_id


class RematchButton(PersistentButton, template=r"idz:rm:(?P<game>[0-9]+)"):
    """On a finished game's board: its players ask for the same game with sides swapped."""

    def __init__(self, game_id: int | None):
        super().__init__("rm", game_id, label="Rematch", style=discord.ButtonStyle.primary)
        self.game_id = game_id


class AnalysisButton(PersistentButton, template=r"idz:an:(?P<game>[0-9]+)"):
    """On a finished game's board: the bot's analysis of the game, privately, for whoever
    may see the game (``cogs/analysis.py``)."""

    def __init__(self, game_id: int | None):
        super().__init__("an", game_id, label="Analysis", style=discord.ButtonStyle.secondary)
        self.game_id = game_id


class HelpButton(PersistentButton, template=r"idz:help"):
    """On a challenge where someone plays here for the first time: ``/idzeva help``, privately,
    for whoever clicks."""

    def __init__(self) -> None:
        super().__init__("help", label="Help", style=discord.ButtonStyle.secondary)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await tell_with(interaction, help_message(client_of(interaction)))


DYNAMIC_ITEMS = (
    ChallengeButton,
    RematchButton,
    AnalysisButton,
    BoardButton,
    RollButton,
    AnswerButton,
    DrawAnswerButton,
    ClaimButton,
    HelpButton,
)
