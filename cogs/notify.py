"""``/game notify`` and the delivery of "your turn" where each player chose
(``bot/domain/notify.py``): the board's mention, a DM, both or neither; a DM that fails falls back
to the game's thread and says so once."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.domain.notify import (
    DEFAULT_HOUR,
    DEFAULT_ZONE,
    NotifyChoice,
    NotifySettings,
    zone_suggestions,
)
from bot.domain.service import BoardView, ServiceError

from . import play
from .ui import answer_error, home_channel, mention, send_in, tell

if TYPE_CHECKING:
    from bot.app import IdzevaBot

log = logging.getLogger(__name__)

WHERE_CHOICES = [
    app_commands.Choice(name="thread (a mention in the game's thread)", value="thread"),
    app_commands.Choice(name="dm (a direct message)", value="dm"),
    app_commands.Choice(name="both", value="both"),
    app_commands.Choice(name="off", value="off"),
]
DMS_CLOSED = (
    "I could not reach you by DM (your DMs are closed to me), so your turn notices come "
    "here instead. `/game notify` changes where they go."
)
WORDS = {
    "thread": "a mention in the game's thread",
    "dm": "a direct message",
    "both": "a mention in the game's thread and a direct message",
    "off": "nowhere (no notice)",
}


async def command(interaction: discord.Interaction, choice: NotifyChoice) -> None:
    try:
        guild = play.guild_id(interaction)
        svc = play.service(interaction)
        if choice == NotifyChoice():
            chosen = await svc.notify_settings(guild, interaction.user.id)
            intro = "Your turn notices in this server"
        else:
            chosen = await svc.set_notify(guild, interaction.user.id, choice)
            intro = "Saved. Your turn notices in this server"
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await tell(interaction, f"{intro}: {WORDS[chosen.route]}; {daily_words(chosen)}.")


def daily_words(chosen: NotifySettings) -> str:
    """The digest part of the answer; its next time in the reader's own clock (``<t:...>``)."""
    at = f"{chosen.hour:02d}:00 {chosen.zone}"
    if not chosen.digest:
        chose_a_time = (chosen.hour, chosen.zone) != (DEFAULT_HOUR, DEFAULT_ZONE)
        return f"no daily DM (`digest:true` sends one at {at})" if chose_a_time else "no daily DM"
    following = f", next <t:{chosen.next_digest}:f>" if chosen.next_digest else ""
    return f"a daily DM of the games where it is your turn at {at}{following}"


async def zone_autocomplete(current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=zone, value=zone) for zone in zone_suggestions(current)]


async def turn_route(bot: IdzevaBot, board: BoardView) -> str:
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


async def send_dm(bot: IdzevaBot, user_id: int, message: dict[str, Any]) -> bool:
    """A direct message; False when it cannot be delivered (DMs closed, unknown user)."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(**message)
    except discord.HTTPException as error:
        log.info("DM to %s failed: %s", user_id, error)
        return False
    return True


async def tell_turn(bot: IdzevaBot, board: BoardView, route: str, link: str) -> None:
    """After a board was posted (``link``: that message): the DM of a player who chose
    ``dm`` or ``both``; when it fails, the thread instead (a mention where the board did not
    ping), said once."""
    user = board.to_move_user
    if route not in ("dm", "both") or user is None or board.finished:
        return
    text = f"Your turn in {board.title} #{board.game_id}: {board.status}. {link}"
    await deliver(bot, board.guild_id, user, text, route, home=await home_channel(bot, board))


async def deliver(
    bot: IdzevaBot,
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
