"""A game's board as a Discord message: its text, its embed, its buttons.

Everything here turns a service result (``BoardView``) into keyword arguments for ``send``.
No rules, no SQL.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot.domain.service import BoardView, natural_key

from .game_buttons import AnalysisButton, AnswerButton, BoardButton, RematchButton, RollButton
from .text import COLOUR_ACTIVE, COLOUR_FINISHED, clip, mention, players_only

BOARD_FILE = "board.png"
LEGAL_LIST_LIMIT = 1800  # characters of legal moves shown in one ephemeral message
LAST_MOVE = "Last move"  # a summary field that the board's description shows instead
WARNING = "Warning"  # a summary field shown in bold in the description, e.g. "CHEBACHE! ..."
ON_TOP = (LAST_MOVE, WARNING)  # summary fields the description shows instead of a field
INLINE_FIELD_LIMIT = 40  # longer field values get the embed's full width
DESCRIPTION_LIMIT, FIELD_NAME_LIMIT, FIELD_VALUE_LIMIT = 4096, 256, 1024  # Discord's limits
MENTION = re.compile(r"<@!?\d+>")  # shown as a short @name
CLOCK = "Clock"  # the board's field: who moves, by when (or their vacation)


def board_embed(board: BoardView) -> discord.Embed:
    """Status and last move on top, one field per seat (player and their counts), then the rest.

    A game that reads its last move itself (a ``Last move`` entry in its summary, e.g. where a
    sowing ended and what it captured) has that reading on top instead of the bare notation.
    What just happened (the board's ``note``, e.g. the roll and a turn passed for want of a
    move) and a ``Warning`` from the summary come right under the status.
    Short fields sit side by side; long ones get the full width.
    """
    colour = COLOUR_FINISHED if board.finished else COLOUR_ACTIVE
    embed = discord.Embed(title=f"{board.title} · game #{board.game_id}", colour=colour)
    lines = [f"**{board.result}**" if board.finished else board.status]
    if board.note:
        lines.append(board.note)
    lines += [f"**{value}**" for label, value in board.fields if label == WARNING]
    told = dict(board.fields).get(LAST_MOVE)
    if told:
        lines.append(f"{LAST_MOVE}: {told}")
    elif board.last_action:
        lines.append(f"{LAST_MOVE}: `{board.last_action}`")
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    per_seat = {label: value for label, value in board.fields if label in board.seat_names}
    levels = dict(board.bot_levels)
    for seat, (name, user_id) in enumerate(zip(board.seat_names, board.players, strict=True)):
        detail = per_seat.get(name)
        who = mention(user_id) + (f" (bot, {levels[seat]})" if seat in levels else "")
        add_field(embed, name, who + (f"\n{detail}" if detail else ""))
    if board.clock:
        add_field(embed, CLOCK, board.clock)
    for label, value in board.fields:
        if label not in per_seat and label not in ON_TOP:
            add_field(embed, label, value)
    if board.dice_needed:
        add_field(embed, "Roll due", board.dice_needed)
    if board.image:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=f"Game {board.game_id} · version {board.version}")
    return embed


def add_field(embed: discord.Embed, name: str, value: str) -> None:
    """A field within Discord's limits; side by side unless it is long."""
    value, inline = field_value(value)
    embed.add_field(name=clip(name, FIELD_NAME_LIMIT), value=value, inline=inline)


def field_value(value: str) -> tuple[str, bool]:
    """A field's value within Discord's limits, and whether it stands side by side (unless
    it is long)."""
    value = clip(value, FIELD_VALUE_LIMIT) or "—"
    return value, len(MENTION.sub("@someone", value)) <= INLINE_FIELD_LIMIT


def board_content(board: BoardView) -> str:
    """Mentions the player who must act next: to roll, or to move."""
    if board.finished:
        return f"Game over: {board.result}"
    if board.to_move_user is None:
        return board.status
    if bot_to_act(board):
        return f"{mention(board.to_move_user)} is thinking: {board.status}."
    if board.answers:
        return f"{mention(board.to_move_user)}, your answer: {board.status}"
    if board.dice_needed:
        return f"{mention(board.to_move_user)}, your turn to roll ({board.dice_needed})."
    return f"{mention(board.to_move_user)}, your turn."


def bot_to_act(board: BoardView) -> bool:
    """Whether the bot opponent acts next (it rolls and moves by itself)."""
    return any(board.players[seat] == board.to_move_user for seat, _ in board.bot_levels)


def board_view(board: BoardView) -> discord.ui.View | None:
    """Buttons under the latest board (Roll first when a roll is due); once it is over, the
    Rematch and Analysis buttons."""
    if board.finished:
        finished = discord.ui.View(timeout=None)
        finished.add_item(RematchButton(board.game_id))
        finished.add_item(AnalysisButton(board.game_id))
        return finished
    view = discord.ui.View(timeout=None)
    for move, label in board.answers:
        view.add_item(AnswerButton(board.game_id, board.version, move, label))
    if board.dice_needed and not bot_to_act(board):
        view.add_item(RollButton(board.game_id, board.version))
    view.add_item(BoardButton(board.game_id, board.version, "moves"))
    view.add_item(BoardButton(board.game_id, board.version, "draw"))
    view.add_item(BoardButton(board.game_id, board.version, "takeback"))
    view.add_item(BoardButton(board.game_id, board.version, "resign"))
    return view


def board_message(board: BoardView, *, quiet: bool = False) -> dict[str, Any]:
    """Keyword arguments for ``send``/``send_message`` that post a board. A ``quiet`` copy (for
    a bystander) names nobody in its text, pings nobody and has no buttons."""
    kwargs: dict[str, Any] = {
        "content": board_content(board),
        "embed": board_embed(board),
        "allowed_mentions": players_only(board),
    }
    if quiet:
        status = board.result if board.finished else board.status
        kwargs.update(content=status, allowed_mentions=discord.AllowedMentions.none())
    if board.image:  # empty when rendering failed: the embed still tells the position
        kwargs["file"] = discord.File(io.BytesIO(board.image), filename=BOARD_FILE)
    view = None if quiet else board_view(board)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def legal_moves_text(moves: list[str]) -> str:
    if not moves:
        return "No legal moves right now."
    text = " ".join(f"`{m}`" for m in sorted(moves, key=natural_key))
    if len(text) > LEGAL_LIST_LIMIT:
        text = text[:LEGAL_LIST_LIMIT].rsplit(" ", 1)[0] + f" … ({len(moves)} in all)"
    return f"Legal moves ({len(moves)}): {text}"
