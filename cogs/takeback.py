"""``/game takeback`` and the board's Takeback button: ask, then the other side's answer
(``bot/domain/takebacks.py`` decides everything; this only shows it)."""

from __future__ import annotations

import discord

from bot.domain.service import ServiceError
from bot.domain.takebacks import TakebackView

from . import opponent as opponent_side
from .common.answers import acknowledge, answer_error, answer_publicly, done, update_source
from .common.buttons import PersistentButton, guarded, yes_no_style
from .common.client import client_of, guild_id, service
from .common.sending import send_in
from .common.text import mention
from .posting import post_board


def request_text(view: TakebackView) -> str:
    moves = " ".join(view.undone)
    others = " ".join(mention(user) for user in view.answerers)
    return (
        f"{mention(view.asker)} asks to take back `{moves}` in {view.title} #{view.game_id}. "
        f"{others}, do you accept?"
    )


async def ask(interaction: discord.Interaction, game_id: int) -> None:
    """Store the request and post it with Accept and Decline for the other side."""
    await acknowledge(interaction)
    try:
        view = await service(interaction).ask_takeback(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(TakebackAnswerButton(game_id, view.version, "yes"))
    buttons.add_item(TakebackAnswerButton(game_id, view.version, "no"))
    request = {
        "content": request_text(view),
        "view": buttons,
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in view.answerers]
        ),
    }
    here = interaction.channel if isinstance(interaction.channel, discord.abc.Messageable) else None
    posted = await send_in(here, request, game_id)
    if posted is None:
        posted = await answer_publicly(interaction, request)
    else:
        await done(interaction)
    await opponent_side.answer_takeback(client_of(interaction), view, guild_id(interaction), posted)


async def answer(
    interaction: discord.Interaction, game_id: int, version: int, accepted: bool
) -> None:
    try:
        view, board = await service(interaction).answer_takeback(
            game_id,
            interaction.user.id,
            accepted,
            guild_id=guild_id(interaction),
            version=version,
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    verdict = "accepted" if accepted else "declined"
    await update_source(
        interaction,
        content=f"Takeback of `{' '.join(view.undone)}` {verdict} by "
        f"{mention(interaction.user.id)}.",
        view=None,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    if board is not None:
        await post_board(interaction, board)


class TakebackAnswerButton(
    PersistentButton,
    template=r"idz:tb:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<answer>yes|no)",
):
    """Accept or Decline a takeback asked at ``version``; only the other side may answer,
    and a request the game has moved past refuses."""

    def __init__(self, game_id: int | None, version: int | None, answer: str):
        label = "Accept takeback" if answer == "yes" else "Decline takeback"
        style = yes_no_style(answer == "yes")
        super().__init__("tb", game_id, version, answer, label=label, style=style)
        self.game_id = game_id
        self.version = version
        self.answer = answer

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.game_id is not None and self.version is not None
        await answer(interaction, self.game_id, self.version, self.answer == "yes")
