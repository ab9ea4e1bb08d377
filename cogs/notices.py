"""Posting what the deadline clock produced: reminders, claim offers, expired challenges."""

from __future__ import annotations

import io
import logging

import discord

from bot.domain.service import Notice, ServiceError

from .common.boards import board_message
from .common.buttons import single_button_view
from .common.challenges import challenge_embed
from .common.client import IdzevaClient
from .common.game_buttons import ClaimButton
from .common.sending import make_latest_board, post_game_gif, post_notices_soon, send_in
from .common.turns import deliver, send_dm
from .tournament_posts import players_gone, post_tournament_notice

log = logging.getLogger(__name__)
DAILY_PICTURE = "puzzle-of-the-day.png"


async def notice_channel(bot: IdzevaClient, notice: Notice) -> discord.abc.Messageable | None:
    """The game's thread or channel; an archived thread is not cached, so fetch it then."""
    channel_id = notice.thread_id or notice.channel_id
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.info("notice for %s: channel %s is gone", notice.game_id, channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def post_notice(bot: IdzevaClient, notice: Notice) -> None:
    only_them = discord.AllowedMentions(users=[discord.Object(notice.user_id)])
    if notice.kind in ("tournament", "tournament_game"):
        await post_tournament_notice(bot, notice)
    elif notice.kind == "challenge_expired":
        channel = await notice_channel(bot, notice)
        if channel is None:
            return
        await expire_challenge(bot, channel, notice)
        await channel.send(notice.text, allowed_mentions=only_them)
    elif notice.kind == "digest":
        await send_digest(bot, notice)
    elif notice.kind == "reminder":
        await send_reminder(bot, notice, only_them)
    elif notice.kind == "timed_out" and notice.game_id is not None:
        await post_timed_out(bot, notice, only_them)
    elif notice.kind == "daily_puzzle":
        await post_daily_puzzle(bot, notice)
    elif notice.kind == "claimable" and notice.game_id is not None:
        view = single_button_view(ClaimButton(notice.game_id))
        await send_notice(bot, notice, content=notice.text, view=view, allowed_mentions=only_them)
    else:
        await send_notice(bot, notice, content=notice.text, allowed_mentions=only_them)


async def post_daily_puzzle(bot: IdzevaClient, notice: Notice) -> None:
    """A server's puzzle of the day with its board drawn; it pings nobody."""
    message: dict = {"content": notice.text, "allowed_mentions": discord.AllowedMentions.none()}
    try:
        picture = await bot.service.daily_puzzle_picture(notice)
    except Exception:  # the words alone rather than no post
        log.exception("the daily puzzle's board could not be drawn")
        picture = b""
    if picture:
        message["file"] = discord.File(io.BytesIO(picture), filename=DAILY_PICTURE)
    await send_notice(bot, notice, **message)


async def send_digest(bot: IdzevaClient, notice: Notice) -> None:
    """The daily list of games to play, by DM only (a failed DM is noted, not re-sent)."""
    if not await send_dm(bot, notice.user_id, {"content": notice.text}):
        await bot.service.dm_failed(notice.guild_id, notice.user_id)


async def send_reminder(
    bot: IdzevaClient, notice: Notice, only_them: discord.AllowedMentions
) -> None:
    """A reminder goes where the player wants "your turn" (``/game notify``); to nobody when
    the player has left the server, who is then withdrawn from its tournaments (their game
    there lost now rather than on time)."""
    if await players_gone(bot, await notice_channel(bot, notice), (notice.user_id,)):
        post_notices_soon(bot)  # the withdrawals' lines, and what they moved on
        return
    service = bot.service
    route = (await service.notify_settings(notice.guild_id, notice.user_id)).route
    if route in ("thread", "both"):
        await send_notice(bot, notice, content=notice.text, allowed_mentions=only_them)
    if route in ("dm", "both"):
        said = notice.text.split(", ", 1)[-1]
        home = await notice_channel(bot, notice)
        await deliver(
            bot,
            notice.guild_id,
            notice.user_id,
            said[:1].upper() + said[1:],
            route,
            home=home,
            thread_text=notice.text,
        )


class NotEndedYet(Exception):
    """Raised to send a time-out notice later (the outbox retries it): its game is still
    being ended by the process that scans it next."""


async def post_timed_out(
    bot: IdzevaClient, notice: Notice, mentions: discord.AllowedMentions
) -> None:
    """The final board of a game the bot ended on time, saying so, as its latest board (in
    the channel when the thread refuses it)."""
    try:
        board = await bot.service.board(notice.game_id, notice.guild_id)
    except ServiceError:  # gone or damaged since: the result is recorded, say it plainly
        log.warning("game %s ended on time; its board cannot be shown", notice.game_id)
        await send_notice(bot, notice, content=notice.text, allowed_mentions=mentions)
        return
    if not board.finished:  # a job left by a process that died before ending the game
        raise NotEndedYet(f"game {notice.game_id}: its time-out is not written yet")
    message = board_message(board) | {"content": notice.text}  # it mentions both sides
    posted = await send_in(await notice_channel(bot, notice), message, board.game_id)
    if posted is not None:
        await make_latest_board(bot, board, posted.id)
    elif notice.thread_id:
        await send_in(bot.get_channel(notice.channel_id), message, board.game_id)
    if bot.settings.game_gifs:  # a game ended on time has its GIF too
        await post_game_gif(bot, board)


async def tell_opponents(bot: IdzevaClient, notice: Notice) -> None:
    """A notice in the game's home that pings nobody (best effort)."""
    try:
        await send_notice(
            bot, notice, content=notice.text, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.info("notice for %s: could not post it", notice.game_id)


async def send_notice(bot: IdzevaClient, notice: Notice, **message) -> None:
    """Into the game's thread; into its channel when the bot cannot post in the thread."""
    channel = await notice_channel(bot, notice)
    if channel is not None:
        try:
            await channel.send(**message)
            return
        except discord.HTTPException:
            if not notice.thread_id:
                raise
            log.info(
                "notice for %s: cannot post in its thread; posting in the channel", notice.game_id
            )
    parent = bot.get_channel(notice.channel_id)
    if notice.thread_id and isinstance(parent, discord.abc.Messageable):
        await parent.send(**message)


async def expire_challenge(
    bot: IdzevaClient, channel: discord.abc.Messageable, notice: Notice
) -> None:
    """Mark the challenge message expired and take its buttons off (best effort)."""
    if notice.challenge_id is None or notice.message_id is None:
        return
    challenge = await bot.service.get_challenge(notice.challenge_id)
    message = channel.get_partial_message(notice.message_id)  # type: ignore[attr-defined]
    try:
        await message.edit(embed=challenge_embed(challenge, note="Expired"), view=None)
    except discord.HTTPException:  # deleted meanwhile: the challenger is still told below
        log.info("could not mark challenge %s expired", notice.challenge_id)
