"""Playing a game: moves, rolls, the board's buttons, draws, resigning, claims, history.

Each function parses the interaction, calls the game service and answers. Service errors
become short ephemeral answers; nothing here knows a game's rules.
"""

from __future__ import annotations

import discord

from bot.domain.service import IllegalMoveError, RollDue, ServiceError

from . import opponent as opponent_side
from . import takeback
from .common.answers import (
    acknowledge,
    answer_error,
    answer_publicly,
    done,
    refuse,
    tell,
    tell_with,
    update_source,
)
from .common.boards import legal_moves_text
from .common.buttons import single_button_view
from .common.client import client_of, guild_id, service
from .common.game_buttons import BoardButton, DrawAnswerButton
from .common.options import parse_game_option
from .common.sending import refresh_board, send_in
from .common.text import board_link, mention, players_only
from .finding import resolve_game, visible_game
from .posting import post_board, show_board_here

RESIGN_CHOICES = 5  # buttons in one "which game?" question (Discord allows 25 per message)


async def move(
    interaction: discord.Interaction,
    kind: str,
    text: str,
    game: str | None,
    *,
    illegal: str | None = None,
) -> None:
    """Play ``text``; ``illegal`` replaces the engine's reason when the move is not legal
    (for commands that play one fixed action and can say when it is allowed)."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game, kind)
        board = await service(interaction).move(
            game_id, interaction.user.id, text, guild_id=guild_id(interaction)
        )
    except RollDue as error:
        command = interaction.command  # e.g. /sachi move: its group also has roll
        group = command.parent.name if command and command.parent else kind
        await refuse(interaction, f"{error.message} Use the Roll button or `/{group} roll`.")
        return
    except IllegalMoveError as error:
        await refuse(interaction, illegal or error.message)
        return
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def roll(interaction: discord.Interaction, kind: str, game: str | None) -> None:
    """Roll the dice due in the game the command is about, and post the board with them."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game, kind)
        board = await service(interaction).roll(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def move_on_board(
    interaction: discord.Interaction, game_id: int, version: int, text: str
) -> None:
    """A move button (e.g. Accept offer) of the board at ``version``: an outdated board
    refuses."""
    try:
        board = await service(interaction).move(
            game_id,
            interaction.user.id,
            text,
            guild_id=guild_id(interaction),
            expected_version=version,
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def roll_on_board(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """The Roll button of the board at ``version``: an outdated board refuses."""
    try:
        board = await service(interaction).roll(
            game_id, interaction.user.id, guild_id=guild_id(interaction), expected_version=version
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def show_board(interaction: discord.Interaction, game: str | None) -> None:
    """The board where asked: public for a player, private (and naming nobody) for anyone
    else who can see the game's channel."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
        found = await visible_game(interaction, game_id)
        board = await service(interaction).board(game_id, guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    bystander = interaction.user.id not in found.players
    await show_board_here(interaction, board, bystander=bystander)


async def resign(
    interaction: discord.Interaction, game_id: int, expected_version: int | None = None
) -> None:
    await acknowledge(interaction)
    try:
        board = await service(interaction).resign(
            game_id,
            interaction.user.id,
            guild_id=guild_id(interaction),
            expected_version=expected_version,
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def resign_command(interaction: discord.Interaction, option: str | None) -> None:
    """``/game resign``: at once for a game named (the option, or this game's thread); for a
    game the command would have to guess, a question with a confirm button per game."""
    svc = service(interaction)
    await acknowledge(interaction)
    try:
        guild = guild_id(interaction)
        if option:
            await resign(interaction, parse_game_option(option))
            return
        here = await svc.game_in_thread(guild, interaction.channel_id or 0)
        if here is not None:  # the thread's game is named by the place
            await resign(interaction, here.game_id)
            return
        games = await svc.list_games(guild, interaction.user.id)
        if not games:
            raise ServiceError("You have no game in progress here.")
        shown = games[:RESIGN_CHOICES]
        boards = [await svc.board(g.game_id, guild, with_image=False) for g in shown]
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    view = discord.ui.View(timeout=None)
    for board in boards:
        label = f"Resign {board.title} #{board.game_id}"
        view.add_item(BoardButton(board.game_id, board.version, "resign!", label=label))
    if len(games) == 1:
        question = f"Resign {boards[0].title} #{boards[0].game_id}? This cannot be undone."
    else:
        more = "" if len(games) <= RESIGN_CHOICES else " (or name another with `game`)"
        question = f"You have {len(games)} games here: which one do you resign{more}? "
        question += "This cannot be undone."
    await tell_with(interaction, {"content": question, "view": view})


async def offer_draw(interaction: discord.Interaction, game_id: int) -> None:
    svc = service(interaction)
    await acknowledge(interaction)
    try:
        board = await svc.offer_draw(game_id, interaction.user.id, guild_id=guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if board.finished:  # the opponent's offer was standing: this agreed to it
        await post_board(interaction, board)
        return
    others = [p for p in board.players if p != interaction.user.id]
    view = discord.ui.View(timeout=None)
    view.add_item(DrawAnswerButton(game_id, "yes"))
    view.add_item(DrawAnswerButton(game_id, "no"))
    offer = {
        "content": f"{mention(interaction.user.id)} offers a draw in {board.title} #{game_id}. "
        f"{' '.join(mention(p) for p in others)}, do you accept?",
        "view": view,
        "allowed_mentions": players_only(board),
    }
    here = interaction.channel if isinstance(interaction.channel, discord.abc.Messageable) else None
    posted = await send_in(here, offer, game_id)
    if posted is None:
        posted = await answer_publicly(interaction, offer)
    else:
        await done(interaction)
    await refresh_board(client_of(interaction), board)
    await opponent_side.answer_draw(client_of(interaction), board, interaction.user.id, posted)


async def answer_draw(interaction: discord.Interaction, game_id: int, accepted: bool) -> None:
    svc = service(interaction)
    try:
        board = await svc.answer_draw(
            game_id, interaction.user.id, accepted, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    verdict = "accepted" if accepted else "declined"
    await update_source(
        interaction,
        content=f"Draw offer {verdict} by {mention(interaction.user.id)}.",
        view=None,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    if accepted:
        await post_board(interaction, board)
    else:
        await refresh_board(client_of(interaction), board)


async def draw_answer_button(interaction: discord.Interaction, game_id: int, answer: str) -> None:
    """The Accept draw (``yes``) and Decline (``no``) buttons of a draw offer."""
    await answer_draw(interaction, game_id, answer == "yes")


async def claim(interaction: discord.Interaction, game_id: int) -> None:
    await acknowledge(interaction)
    try:
        board = await service(interaction).claim_timeout(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def history(interaction: discord.Interaction, game: str | None) -> None:
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
        await visible_game(interaction, game_id)
        lines = await service(interaction).history(game_id, guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    text = "\n".join(lines) if lines else "No moves yet."
    if len(text) > 1900:
        text = "…\n" + text[-1900:].split("\n", 1)[-1]
    await tell(interaction, f"**Game #{game_id}**\n```\n{text}\n```")


async def board_button(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    """A click on a board's buttons; an outdated board refuses."""
    svc = service(interaction)
    try:
        current = await svc.board(game_id, guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if current.version != version or current.finished:
        await refuse(
            interaction,
            f"This board is outdated. The current one: {board_link(current)} — {current.status}",
        )
        return
    if action == "moves" and current.dice_needed:
        await refuse(interaction, f"Roll the dice first ({current.dice_needed}): no moves yet.")
    elif action == "moves":
        moves = await svc.legal_moves(game_id, current.guild_id)
        await refuse(interaction, legal_moves_text(moves))
    elif action == "draw":
        await offer_draw(interaction, game_id)
    elif action == "takeback":
        await takeback.ask(interaction, game_id)
    elif action == "resign":
        if interaction.user.id not in current.players:
            await refuse(interaction, "You are not playing in this game.")
            return
        confirm = single_button_view(BoardButton(game_id, version, "resign!"))
        await tell_with(
            interaction, {"content": "Resign this game? This cannot be undone.", "view": confirm}
        )
    elif action == "resign!":
        await resign(interaction, game_id, expected_version=version)
