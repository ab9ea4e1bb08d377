"""Posting a changed board: in the game's home (its thread, or its channel) as its latest
board, "your turn" where the next player wants it, then the bot opponent's reply; and a new
game's first board, in a thread of its own on the challenge message."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.domain.service import BoardView

from . import opponent as opponent_side
from .common.answers import answer_publicly, done, tell, tell_with
from .common.boards import board_message
from .common.client import IdzevaClient, client_of, service
from .common.sending import (
    edit_board_clock,
    home_channel,
    make_latest_board,
    post_game_gif,
    rehome,
    send_in,
)
from .common.text import board_link, home_id
from .common.turns import quiet_turn, tell_turn, turn_route

log = logging.getLogger(__name__)


async def post_board(interaction: discord.Interaction, board: BoardView) -> None:
    """Post a changed board in the game's home (its thread, or its channel) and make it the
    latest board, then tell the player where it is (nothing more in the home itself).

    The board goes through the channel, not the interaction: a move that is committed reaches
    the game's home with the next player's mention even when the interaction's token has
    expired. Only when the bot cannot post there does the board answer the interaction, and a
    failure of both is logged, never answered with "try again" (the move was made).
    """
    try:
        await deliver_board(interaction, board)
    except Exception:  # the change is committed: report it, never answer "try again"
        log.exception(
            "game %s: version %s committed; posting its board failed", board.game_id, board.version
        )
        await done(interaction)
    bot = client_of(interaction)
    if board.back_from_vacation:  # the latest boards of the games it held say so
        for held in await bot.service.clock_boards(board.guild_id, interaction.user.id):
            await edit_board_clock(bot, held)
    if board.finished and bot.settings.game_gifs:
        await post_game_gif(bot, board)
    opponent_side.after_board(
        bot, board
    )  # the bot opponent's reply, when it is to act, comes after


async def deliver_board(interaction: discord.Interaction, board: BoardView) -> None:
    bot = client_of(interaction)
    route = await turn_route(bot, board)  # where the next player wants "your turn"
    message = await post_turn_board(
        interaction, board, quiet_turn(board_message(board), board, route)
    )
    link = message.jump_url if message is not None else board_link(board)
    await tell_turn(bot, board, route, link)


async def post_turn_board(
    interaction: discord.Interaction, board: BoardView, posted: dict[str, Any]
) -> discord.Message | None:
    """Post the board (see ``post_board``); the message posted, if any."""
    bot = client_of(interaction)
    home = await home_channel(bot, board)
    message = await send_in(home, posted, board.game_id)
    if message is not None:
        await make_latest_board(bot, board, message.id)
        if interaction.channel_id == message.channel.id:
            await done(interaction)
        else:  # where the board is now (a new thread, when the game's was deleted)
            summary = board.result if board.finished else board.status
            await tell(
                interaction,
                f"{board.title} #{board.game_id}: {summary}. The board: <#{message.channel.id}>",
            )
        return message
    message = await answer_publicly(interaction, posted)
    if message is not None and interaction.channel_id == home_id(board):
        await make_latest_board(bot, board, message.id)
    return message


async def show_board_here(
    interaction: discord.Interaction, board: BoardView, *, bystander: bool
) -> None:
    """``/game board``: a player's copy is posted where asked (the latest board when that is
    the game's home); a bystander's is private and pings nobody."""
    if bystander:
        await tell_with(interaction, board_message(board, quiet=True))
        return
    bot = client_of(interaction)
    here = interaction.channel if isinstance(interaction.channel, discord.abc.Messageable) else None
    message = await send_in(here, board_message(board), board.game_id)
    if message is None:
        message = await answer_publicly(interaction, board_message(board))
    else:
        await done(interaction)
    if message is not None and interaction.channel_id == home_id(board):
        await make_latest_board(bot, board, message.id)


async def start_game(
    interaction: discord.Interaction, board: BoardView, challenge: discord.Message | None
) -> None:
    """Post the new game's first board: in a new thread on the challenge message; where the
    bot cannot make one or cannot post in it, into the channel; failing that, as an answer to
    the interaction. The first player's "your turn" goes where they chose (``/game notify``).
    The bot opponent then plays, if it moves first."""
    svc = service(interaction)
    bot = client_of(interaction)
    route = await turn_route(bot, board)
    first = quiet_turn(board_message(board), board, route)
    threads = (await svc.server_settings(board.guild_id)).threads  # the server may say not
    thread = await open_thread(interaction, board, challenge) if threads else None
    message = await send_in(thread, first, board.game_id)
    if message is None:
        thread = None
        channel = challenge.channel if challenge else interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            message = await send_in(channel, first, board.game_id)
    if message is None:
        message = await answer_publicly(interaction, first)
    await first_board_posted(bot, board, thread, message, route)


async def first_board_posted(
    bot: IdzevaClient,
    board: BoardView,
    thread: discord.Thread | None,
    message: discord.Message | None,
    route: str,
) -> None:
    """A new game's first board is posted (``message``, in ``thread`` or not): where the game
    lives, the first player's "your turn" where they want it, then the bot's move if it is
    first."""
    await bot.service.set_game_location(
        board.game_id,
        thread_id=thread.id if thread else None,
        message_id=message.id if message else None,
    )
    if message is not None:
        shown = replace(board, thread_id=thread.id if thread else None, message_id=message.id)
        await tell_turn(bot, shown, route, message.jump_url)
    opponent_side.after_board(bot, board)


async def thread_deleted(bot: IdzevaClient, guild_id: int, thread_id: int) -> None:
    """A thread was deleted (by the server's admins): a game still played there goes on in a
    new thread (``rehome``), where its board is posted again, pinging nobody."""
    game = await bot.service.game_in_thread(guild_id, thread_id)
    if game is None or game.finished or game.thread_id != thread_id:
        return
    board = await bot.service.board(game.game_id, guild_id)
    home = await rehome(bot, board)
    posted = board_message(board) | {
        "content": f"{board.title} #{board.game_id} goes on here: its thread was deleted.",
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    message = await send_in(home, posted, board.game_id)
    if message is not None:
        await bot.service.set_board_message(board.game_id, message.id)


async def open_thread(
    interaction: discord.Interaction, board: BoardView, challenge: discord.Message | None
) -> discord.Thread | None:
    """A public thread for the game on the challenge message; None where threads can't be."""
    if challenge is None or isinstance(challenge.channel, discord.Thread):
        return None
    name = f"{board.title} #{board.game_id}"
    try:
        return await challenge.create_thread(name=name, auto_archive_duration=10080)
    except (discord.HTTPException, ValueError):
        log.info("no thread for game %s; playing in the channel", board.game_id)
        return None
