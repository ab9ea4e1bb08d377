"""Sending into a game's home (its thread, or its channel) and keeping its latest board: the
one message whose buttons are live. A game whose thread the server's admins deleted gets a
new one (``rehome``), so that its boards, its tournament's included, still have a home."""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import replace
from typing import Any

import discord

from bot.domain.service import BoardView, ServiceError

from .boards import CLOCK, board_view, field_value
from .client import IdzevaClient
from .text import home_id

log = logging.getLogger(__name__)


async def home_channel(bot: IdzevaClient, board: BoardView) -> discord.abc.Messageable | None:
    """The game's thread or channel; an archived thread is not cached, so fetch it then. A
    thread that is gone (deleted while the bot was away) is replaced (``rehome``)."""
    channel = bot.get_channel(home_id(board))
    if channel is None:
        try:
            channel = await bot.fetch_channel(home_id(board))
        except discord.NotFound:
            return await rehome(bot, board) if board.thread_id else None
        except discord.HTTPException:
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def rehome(bot: IdzevaClient, board: BoardView) -> discord.abc.Messageable | None:
    """The game's thread was deleted: the game goes on in a new thread on its channel (in the
    channel itself where the server wants no threads or one cannot be opened), which becomes
    its home. None when the channel is gone too, or the game."""
    try:
        now = await bot.service.summary(board.game_id, board.guild_id)
    except ServiceError:
        return None
    if now.thread_id != board.thread_id:  # moved already, after ``board`` was read
        return await home_channel(bot, replace(board, thread_id=now.thread_id))
    channel = bot.get_channel(board.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(board.channel_id)
        except discord.HTTPException:
            return None
    if not isinstance(channel, discord.abc.Messageable):
        return None
    thread = None
    if (await bot.service.server_settings(board.guild_id)).threads and isinstance(
        channel, discord.TextChannel
    ):
        try:
            thread = await channel.create_thread(
                name=f"{board.title} #{board.game_id}",
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException:
            log.info("game %s: no new thread; it goes on in its channel", board.game_id)
    await bot.service.set_game_location(
        board.game_id, thread_id=thread.id if thread else None, message_id=None
    )
    return thread or channel


async def send_in(
    channel: discord.abc.Messageable | None, message: dict[str, Any], game_id: int
) -> discord.Message | None:
    """Post through the channel; None when the bot cannot (no access, no permission)."""
    if channel is None:
        return None
    try:
        return await channel.send(**message)
    except discord.HTTPException:
        log.info("game %s: could not post in channel %s", game_id, getattr(channel, "id", "?"))
        return None


async def make_latest_board(bot: IdzevaClient, board: BoardView, message_id: int) -> None:
    await retire_old_board(bot, board)
    await bot.service.set_board_message(board.game_id, message_id)
    if board.finished and any(label == TOURNAMENT_FIELD for label, _ in board.fields):
        post_notices_soon(bot)


TOURNAMENT_FIELD = "Tournament"  # a tournament game's board (bot/domain/boards.py)
_posting: set[asyncio.Task[None]] = set()


def post_notices_soon(bot: IdzevaClient) -> None:
    """A tournament game ended: its event's next round (or its winner) is written and waits
    in the outbox; post it now rather than at the next tick (in a task: the player who moved
    is answered already)."""
    task = asyncio.get_running_loop().create_task(bot.post_notices())
    _posting.add(task)
    task.add_done_callback(_posting.discard)


async def retire_old_board(bot: IdzevaClient, board: BoardView) -> None:
    """Take the buttons off the previous board message (best effort)."""
    await edit_board_buttons(bot, board, None)


async def refresh_board(bot: IdzevaClient, board: BoardView) -> None:
    """Give the latest board the buttons of a new version of the same position.

    A draw offer (or its refusal) bumps the game's version; without this the latest board's
    buttons would answer "outdated". Only the buttons change: the embed shows the uploaded
    picture, which an edit is best not to touch.
    """
    await edit_board_buttons(bot, board, board_view(board))


async def edit_board_buttons(
    bot: IdzevaClient, board: BoardView, view: discord.ui.View | None
) -> None:
    """Replace the buttons of the board's message (``board.message_id``), best effort."""
    if not board.message_id:
        return
    channel = bot.get_channel(home_id(board))
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        await channel.get_partial_message(board.message_id).edit(view=view)  # type: ignore[attr-defined]
    except discord.HTTPException:
        log.debug("could not edit the buttons of board message %s", board.message_id)


async def edit_board_clock(bot: IdzevaClient, board: BoardView) -> None:
    """Show on the game's latest board the clock line it has now (a vacation started or
    ended), best effort. Only that field changes: the picture and the buttons stay."""
    channel = bot.get_channel(home_id(board))
    if not board.message_id or not board.clock or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        message = await channel.fetch_message(board.message_id)
        embed = message.embeds[0] if message.embeds else None
        where = [i for i, field in enumerate(embed.fields) if field.name == CLOCK] if embed else []
        if embed is None or not where:
            return
        value, inline = field_value(board.clock)
        embed.set_field_at(where[0], name=CLOCK, value=value, inline=inline)
        await message.edit(embed=embed)
    except discord.HTTPException:
        log.debug("could not edit the clock line of board message %s", board.message_id)


async def post_game_gif(bot: IdzevaClient, board: BoardView) -> None:
    """The whole game as an animated GIF in its home, after its last board (issue 17). It is
    made in the service's worker pool: the event loop goes on serving everyone meanwhile."""
    try:
        data = await bot.service.game_gif(board.game_id, board.guild_id)
        if data is None:
            return
        file = discord.File(io.BytesIO(data), filename=f"{board.kind}-{board.game_id}.gif")
        text = f"{board.title} #{board.game_id}, the whole game: {board.result}"
        message = {
            "content": text,
            "file": file,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        await send_in(await home_channel(bot, board), message, board.game_id)
    except Exception:  # the game is over and its board posted: the GIF is a bonus
        log.exception("game %s: posting the GIF of the game failed", board.game_id)
