"""The bot opponent on Discord: after any board where the bot is to act, it acts and posts
its own board, showing itself typing while it thinks (``bot/domain/opponent.py`` does the acting).

Each game has at most one task playing the bot's turns in this process; the task goes on
while the bot is to act (its roll, then its move; in Šačidjun its next seat), and ends at
the first board where it is not. Another process may play the same turn at the same time
(a restart's sweep): the service's version check lets one of them write, and the other
finds nothing left to do and posts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import discord

from bot.domain.service import BoardView, ChallengeView, ServiceError
from bot.domain.takebacks import TakebackView

from .common.boards import board_message
from .common.challenges import challenge_embed, challenge_view
from .common.client import IdzevaClient
from .common.sending import home_channel, make_latest_board, post_game_gif, refresh_board, send_in

log = logging.getLogger(__name__)


def after_board(bot: IdzevaClient, board: BoardView) -> None:
    """A board was posted: when the bot is to act on it, it starts on its turn (in a task of
    its own: the human's interaction is answered already, and is not kept waiting)."""
    opponent = bot.opponent
    if opponent is not None and opponent.to_act(board):
        start(bot, board.game_id, board.guild_id)


def start(bot: IdzevaClient, game_id: int, guild_id: int) -> None:
    """Play the bot's turns in the game, unless this process is doing so already."""
    opponent = bot.opponent
    if opponent is None:
        return
    running = opponent.tasks.get(game_id)
    if running is not None and not running.done():
        return
    task = asyncio.create_task(play_turns(bot, game_id, guild_id), name=f"bot in game {game_id}")
    opponent.tasks[game_id] = task

    def forget(done: asyncio.Task) -> None:
        if opponent.tasks.get(game_id) is done:
            del opponent.tasks[game_id]

    task.add_done_callback(forget)


async def play_turns(bot: IdzevaClient, game_id: int, guild_id: int) -> None:
    """While the bot is to act in the game: act, and post the board."""
    opponent = bot.opponent
    assert opponent is not None
    try:
        while True:
            where = await game_home(bot, game_id, guild_id)
            async with typing_in(where):
                board = await opponent.step(game_id, guild_id)
            if board is None:
                return
            await post_bot_board(bot, board)
            if not opponent.to_act(board):
                return
    except ServiceError as error:  # e.g. the game was damaged meanwhile
        log.warning("game %s: the bot cannot act: %s", game_id, error.message)
    except Exception:
        log.exception("game %s: the bot's turn failed", game_id)


async def play_waiting_games(bot: IdzevaClient) -> None:
    """Every game where the bot is to act (at start-up, and at each tick after: a turn the
    process stopped in the middle of, or one that failed, is played then)."""
    opponent = bot.opponent
    if opponent is None:
        return
    try:
        waiting = await opponent.waiting([guild.id for guild in bot.guilds])
    except Exception:
        log.exception("could not list the games where the bot is to move")
        return
    for game_id, guild_id in waiting:
        start(bot, game_id, guild_id)


async def game_home(
    bot: IdzevaClient, game_id: int, guild_id: int
) -> discord.abc.Messageable | None:
    summary = await bot.service.summary(game_id, guild_id)
    channel = bot.get_channel(summary.thread_id or summary.channel_id)
    return channel if isinstance(channel, discord.abc.Messageable) else None


@contextlib.asynccontextmanager
async def typing_in(channel: discord.abc.Messageable | None) -> AsyncIterator[None]:
    """ "Idzeva is typing…" in the game's home while the bot thinks (best effort)."""
    typing = channel.typing() if channel is not None else None
    try:
        if typing is not None:
            await typing.__aenter__()
    except discord.HTTPException:
        typing = None
    try:
        yield
    finally:
        if typing is not None:
            await typing.__aexit__(None, None, None)


async def post_bot_board(bot: IdzevaClient, board: BoardView) -> None:
    """The bot's board in the game's home, as the latest board (the move is committed: a
    board that cannot be posted is only logged; ``/game board`` shows it)."""
    message = await send_in(await home_channel(bot, board), board_message(board), board.game_id)
    if message is None:
        log.info("game %s: could not post the bot's board (version %s)", *board_key(board))
        return
    await make_latest_board(bot, board, message.id)
    if board.finished and bot.settings.game_gifs:
        await post_game_gif(bot, board)


def board_key(board: BoardView) -> tuple[int, int]:
    return board.game_id, board.version


async def answer_draw(
    bot: IdzevaClient, board: BoardView, offerer_id: int, offer: discord.Message | None
) -> None:
    """A draw offered to the bot's side: it answers at once where it alone answers
    (bot/domain/opponent.py says how); an accepted draw posts the final board."""
    opponent = bot.opponent
    if opponent is None:
        return
    answered = await opponent.answer_draw(board.game_id, board.guild_id, offerer_id)
    if answered is None:
        return
    verdict = "accepted" if answered.finished else "declined"
    reason = "" if answered.finished else ": it plays on"
    if offer is not None:
        with contextlib.suppress(discord.HTTPException):
            await offer.edit(
                content=f"Draw offer {verdict} by <@{opponent.user_id}>{reason}.",
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
    if answered.finished:
        await post_bot_board(bot, answered)
    else:
        await refresh_board(bot, answered)


RATED_NO_TAKEBACK = "a rated game (challenge the bot with rated:False to take moves back)"


async def answer_takeback(
    bot: IdzevaClient, view: TakebackView, guild_id: int, request: discord.Message | None
) -> None:
    """A takeback asked of the bot's side: it answers at once (bot/domain/opponent.py says how)."""
    opponent = bot.opponent
    if opponent is None:
        return
    answered = await opponent.answer_takeback(view, guild_id)
    if answered is None:
        return
    answer, board = answered
    if request is not None:
        verdict = "accepted" if board is not None else f"declined: {RATED_NO_TAKEBACK}"
        by = f"<@{opponent.user_id}>"
        with contextlib.suppress(discord.HTTPException):
            await request.edit(
                content=f"Takeback of `{' '.join(answer.undone)}` {verdict} by {by}.",
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
    if board is not None:  # the position went back: a new board, the asker to move
        await post_bot_board(bot, board)


async def accept_for_bot(
    bot: IdzevaClient, challenge: ChallengeView, message: discord.Message, *, newcomer: bool = False
) -> BoardView | None:
    """The bot accepts a challenge it is invited to at once (through the same path as a
    player's Accept). Returns the new game's board when that started it; otherwise the
    challenge message shows who still has to accept (and its Help button, for a ``newcomer``)."""
    opponent = bot.opponent
    if opponent is None or opponent.user_id not in challenge.invited:
        return None
    answer = await bot.service.accept_challenge(challenge.challenge_id, opponent.user_id)
    if isinstance(answer, ChallengeView):
        with contextlib.suppress(discord.HTTPException):
            await message.edit(
                embed=challenge_embed(answer), view=challenge_view(answer, newcomer=newcomer)
            )
        return None
    accepted = await bot.service.get_challenge(challenge.challenge_id)
    note = f"Accepted: game #{answer.game_id}"
    with contextlib.suppress(discord.HTTPException):
        await message.edit(embed=challenge_embed(accepted, note=note), view=None)
    return answer
