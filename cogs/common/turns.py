"""Delivering "your turn" where each player chose (``/game notify``, ``bot/domain/notify.py``):
the board's mention, a DM, both or neither; a DM that fails falls back to the game's thread
and says so once."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.domain.service import BoardView

from .client import IdzevaClient
from .sending import home_channel, send_in
from .text import mention

log = logging.getLogger(__name__)

DMS_CLOSED = (
    "I could not reach you by DM (your DMs are closed to me), so your turn notices come "
    "here instead. `/game notify` changes where they go."
)


async def turn_route(bot: IdzevaClient, board: BoardView) -> str:
    """Where the player to move wants "your turn" (``thread`` once the game is over)."""
    if board.finished or board.to_move_user is None:
        return "thread"
    try:
        return (await bot.service.notify_settings(board.guild_id, board.to_move_user)).route
    except Exception:  # a notice is never worth failing a move over
        log.exception("game %s: notification settings unreadable", board.game_id)
        return "thread"


def quiet_turn(message: dict[str, Any], board: BoardView, route: str) -> dict[str, Any]:
    """The board's message without pinging the player to move, who chose ``dm`` or ``off``."""
    if route in ("dm", "off") and board.to_move_user is not None:
        others = [discord.Object(p) for p in board.players if p != board.to_move_user]
        message["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=others
        )
    return message


async def send_dm(bot: IdzevaClient, user_id: int, message: dict[str, Any]) -> bool:
    """A direct message; False when it cannot be delivered (DMs closed, unknown user)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(**message)
    except discord.HTTPException as error:
        log.info("DM to %s failed: %s", user_id, error)
        return False
    return True


async def tell_turn(bot: IdzevaClient, board: BoardView, route: str, link: str) -> None:
    """After a board was posted (``link``: that message): the DM of a player who chose
    ``dm`` or ``both``; when it fails, the thread instead (a mention where the board did not
    ping), said once."""
    user = board.to_move_user
    if route not in ("dm", "both") or user is None or board.finished:
        return
    text = f"Your turn in {board.title} #{board.game_id}: {board.status}. {link}"
    await deliver(bot, board.guild_id, user, text, route, home=await home_channel(bot, board))


async def deliver(
    bot: IdzevaClient,
    guild_id: int,
    user_id: int,
    text: str,
    route: str,
    *,
    home: discord.abc.Messageable | None,
    thread_text: str | None = None,
) -> None:
    """``text`` by DM; failing that, in ``home``: ``thread_text`` (a mention) where the player
    chose DMs only, and the note that DMs are closed the first time."""
    if await send_dm(bot, user_id, {"content": text}):
        return
    first = await bot.service.dm_failed(guild_id, user_id)
    parts = []
    if route == "dm":
        parts.append(thread_text or f"{mention(user_id)}, {text[0].lower()}{text[1:]}")
    if first:
        parts.append(f"{mention(user_id)}, {DMS_CLOSED}" if route != "dm" else DMS_CLOSED)
    if not parts:
        return
    only_them = discord.AllowedMentions(users=[discord.Object(user_id)])
    message = {"content": "\n".join(parts), "allowed_mentions": only_them}
    await send_in(home, message, 0)
