"""What the outbox posts for tournaments (bot/domain/tournaments/events.py): a round's
pairings and the winner in the event's channel, with mentions of the players named; each new
game, as a line in the channel with a thread of its own holding the first board.

A player who has left the server is found when a game of theirs is to be posted, or when they
are reminded of their turn (the bot has no members intent, so it is not told when someone
leaves; it asks Discord for the player then): they are withdrawn from their events, by the
withdrawal's rule, and the game is not posted (the reminder not sent)."""

from __future__ import annotations

import logging
import re

import discord

from bot.domain.service import Notice, ServiceError

from .common.boards import board_message
from .common.client import IdzevaClient
from .common.sending import post_notices_soon, send_in
from .common.turns import quiet_turn, turn_route
from .posting import first_board_posted

log = logging.getLogger(__name__)

MENTION = re.compile(r"<@([0-9]{1,19})>")


def named_users(text: str) -> discord.AllowedMentions:
    """Ping the users the text names, nobody else (no roles, no everyone)."""
    users = [discord.Object(int(user)) for user in dict.fromkeys(MENTION.findall(text))]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


async def event_channel(bot: IdzevaClient, notice: Notice) -> discord.abc.Messageable | None:
    channel = bot.get_channel(notice.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(notice.channel_id)
        except discord.HTTPException:
            log.info("tournament notice: channel %s is gone", notice.channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def post_tournament_notice(bot: IdzevaClient, notice: Notice) -> None:
    channel = await event_channel(bot, notice)
    if channel is None:
        return
    if notice.kind == "tournament_game" and notice.game_id is not None:
        await post_new_game(bot, channel, notice)
        return
    await channel.send(notice.text, allowed_mentions=named_users(notice.text))


async def players_gone(
    bot: IdzevaClient, channel: discord.abc.Messageable | None, players: tuple[int, ...]
) -> list[int]:
    """The players no longer members of the channel's server, withdrawn from its events. Only
    Discord's "unknown member" counts: when it cannot say (an error, no access), they play."""
    guild = getattr(channel, "guild", None)
    me = bot.user.id if bot.user else None
    gone = []
    for user_id in dict.fromkeys(players):
        if guild is None or user_id == me:
            continue
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            gone.append(user_id)
        except discord.HTTPException:
            log.info("could not tell whether %s is still in server %s", user_id, guild.id)
    for user_id in gone:
        await bot.service.tournament_player_left(guild.id, user_id)
    return gone


async def post_new_game(
    bot: IdzevaClient, channel: discord.abc.Messageable, notice: Notice
) -> None:
    """The pairing's line in the event's channel, a thread on it, the first board there (in
    the channel where threads cannot be), then the bot's move if it starts."""
    assert notice.game_id is not None
    try:
        board = await bot.service.board(notice.game_id, notice.guild_id)
    except ServiceError:
        log.warning("tournament game %s cannot be shown; not posted", notice.game_id)
        return
    if board.message_id is not None:  # posted already (a notice sent twice)
        return
    if await players_gone(bot, channel, board.players):
        post_notices_soon(bot)  # the withdrawals' lines, and what they moved on
        return
    line = await channel.send(notice.text, allowed_mentions=named_users(notice.text))
    threads = (await bot.service.server_settings(board.guild_id)).threads
    thread = None
    if threads and not isinstance(channel, discord.Thread):
        try:
            thread = await line.create_thread(
                name=f"{board.title} #{board.game_id}", auto_archive_duration=10080
            )
        except (discord.HTTPException, ValueError):
            log.info("no thread for tournament game %s; playing in the channel", board.game_id)
    route = await turn_route(bot, board)
    first = quiet_turn(board_message(board), board, route)
    message = await send_in(thread, first, board.game_id)
    if message is None:
        thread = None
        message = await send_in(channel, first, board.game_id)
    await first_board_posted(bot, board, thread, message, route)
