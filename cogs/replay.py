"""``/game replay``: any game's board at any ply, stepped with ⏮ ◀ ▶ ⏭ (issue 17).

The answer is ephemeral, and its buttons carry the asker's id: a click by anyone else is
refused and changes nothing. Each step renders in the service's worker pool.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.domain.records import ReplayFrame
from bot.domain.service import ServiceError

from .common.answers import acknowledge, answer_error, refuse, tell_with
from .common.buttons import PersistentButton, guarded
from .common.client import guild_id, service
from .common.options import ID_PATTERN
from .finding import resolve_game, visible_game

log = logging.getLogger(__name__)

STEPS = {"first": "⏮", "back": "◀", "next": "▶", "last": "⏭"}
NOT_YOURS = "These buttons step through the replay of whoever asked: use `/game replay` yourself."


def target(step: str, ply: int, total: int) -> int:
    return {"first": 0, "back": max(0, ply - 1), "next": min(total, ply + 1), "last": total}[step]


class ReplayButton(
    PersistentButton,
    template=(
        rf"idz:rp:(?P<game>{ID_PATTERN}):(?P<user>{ID_PATTERN}):(?P<ply>[0-9]{{1,6}}):"
        r"(?P<step>first|back|next|last)"
    ),
):
    def __init__(
        self, game_id: int | None, user_id: int | None, ply: int, step: str, disabled: bool = False
    ):
        style = discord.ButtonStyle.secondary
        parts = (game_id, user_id, ply, step)
        super().__init__("rp", *parts, label=STEPS[step], style=style, disabled=disabled)
        self.game_id = game_id
        self.user_id = user_id
        self.ply = ply
        self.step = step

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await refuse(interaction, NOT_YOURS)
            return
        assert self.game_id is not None
        try:
            await visible_game(interaction, self.game_id)
            frame = await service(interaction).replay_frame(
                self.game_id, guild_id(interaction), self.ply
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await interaction.edit_original_response(
            **replay_message(frame, self.game_id, interaction.user.id)
        )


def replay_view(game_id: int, user_id: int, frame: ReplayFrame) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for step in STEPS:
        goes_to = target(step, frame.ply, frame.total)
        view.add_item(ReplayButton(game_id, user_id, goes_to, step, disabled=goes_to == frame.ply))
    return view


def replay_message(frame: ReplayFrame, game_id: int, user_id: int) -> dict:
    embed = discord.Embed(
        title=f"{frame.title} · game #{game_id} · replay", description=frame.caption
    )
    message: dict = {"embed": embed, "view": replay_view(game_id, user_id, frame)}
    if frame.image is not None:
        embed.set_image(url="attachment://replay.png")
        message["attachments"] = [discord.File(io.BytesIO(frame.image), filename="replay.png")]
    else:
        message["attachments"] = []
    return message


async def show(interaction: discord.Interaction, game: str | None, ply: int | None) -> None:
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
        await visible_game(interaction, game_id)
        frame = await service(interaction).replay_frame(
            game_id, guild_id(interaction), 10**6 if ply is None else ply
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    message = replay_message(frame, game_id, interaction.user.id)
    message["files"] = message.pop("attachments")
    await tell_with(interaction, message)
