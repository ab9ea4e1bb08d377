"""Post-game analysis on Discord (issue 34): ``/game analysis [game]`` and the Analysis button
of a finished board (``bot/domain/analysis.py`` computes and keeps it).

Who may ask: anyone who may see the game in that server (its players, and whoever sees its
channel), as for ``/game replay``: a finished game is public there. The answer is private:
a note at once, edited as the turns are judged ("12 of 40 positions"), then the summary,
the chart and the swing boards, with a button to post them in the game's thread, which
goes once per game (the store marks it).
"""

from __future__ import annotations

import io
import logging

import discord

from bot.domain.analysis import Report
from bot.domain.service import ServiceError

from .common.answers import acknowledge, answer_error, refuse, tell
from .common.buttons import PersistentButton, guarded
from .common.client import client_of, guild_id, service
from .common.options import ID_PATTERN
from .common.sending import send_in
from .common.text import CONTENT_LIMIT, clip, message_link
from .finding import resolve_game, visible_game

log = logging.getLogger(__name__)

NOT_FINISHED = "Game #{game} is not over: the analysis is for finished games."


def progress_text(title: str, game_id: int, done: int, total: int) -> str:
    """The private note while the analysis runs (``total`` 0: not known yet)."""
    judged = f": {done} of {total} positions judged" if total else ""
    return f"Analysing {title} #{game_id}{judged} (a minute or two for a long game)…"


def report_message(report: Report, *, private: bool) -> dict:
    """The summary with the chart and the board after each swing (the move played marked
    by the board; the better move named in the caption)."""
    heading = f"**Analysis of {report.title} #{report.game_id}**"
    files = [discord.File(io.BytesIO(report.chart), filename="analysis.png")]
    files += [
        discord.File(io.BytesIO(board.image), filename=f"swing-{number}.png")
        for number, board in enumerate(report.boards, start=1)
    ]
    message: dict = {"content": clip(f"{heading}\n{report.summary}", CONTENT_LIMIT)}
    message["attachments" if private else "files"] = files
    if private:
        message["view"] = post_view(report.game_id)
    return message


class PostAnalysisButton(PersistentButton, template=rf"idz:anp:(?P<game>{ID_PATTERN})"):
    """Under a private analysis: post it in the game's thread (once per game)."""

    def __init__(self, game_id: int | None):
        style = discord.ButtonStyle.primary
        super().__init__("anp", game_id, label="Post in the game's thread", style=style)
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.game_id is not None
        await post(interaction, self.game_id)


def post_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PostAnalysisButton(game_id))
    return view


async def command(interaction: discord.Interaction, game: str | None) -> None:
    """``/game analysis [game]``."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await show(interaction, game_id)


async def show(interaction: discord.Interaction, game_id: int) -> None:
    """The analysis, privately: acknowledged at once, its progress shown while it runs."""
    await acknowledge(interaction)
    try:
        summary = await visible_game(interaction, game_id)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if not summary.finished:
        await refuse(interaction, NOT_FINISHED.format(game=game_id))
        return
    try:
        note = await interaction.followup.send(
            progress_text(summary.title, game_id, 0, 0), ephemeral=True, wait=True
        )
    except discord.HTTPException:
        log.info("interaction %s: could not answer", interaction.id)
        note = None

    async def progress(done: int, total: int) -> None:
        if note is not None:
            await note.edit(content=progress_text(summary.title, game_id, done, total))

    try:
        report = await service(interaction).analysis(
            game_id, guild_id=guild_id(interaction), progress=progress
        )
    except ServiceError as error:
        if note is None:
            await answer_error(interaction, error)
        else:
            await note.edit(content=error.message)
        return
    message = report_message(report, private=True)
    if note is None:
        message["files"] = message.pop("attachments")
        await interaction.followup.send(**message, ephemeral=True)
        return
    try:
        await note.edit(**message)
    except discord.HTTPException:
        log.info("game %s: could not show its analysis", game_id)


async def post(interaction: discord.Interaction, game_id: int) -> None:
    """Post the kept analysis in the game's thread (or channel), the first time only."""
    svc, guild = service(interaction), guild_id(interaction)
    try:
        summary = await visible_game(interaction, game_id)
        if not await svc.mark_analysis_posted(game_id, guild_id=guild):
            await refuse(interaction, f"The analysis of game #{game_id} is posted already.")
            return
        report = await svc.analysis(game_id, guild_id=guild)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    bot = client_of(interaction)
    home = bot.get_channel(summary.thread_id or summary.channel_id)
    where = home if isinstance(home, discord.abc.Messageable) else None
    posted = await send_in(where, report_message(report, private=False), game_id)
    if posted is None:
        await refuse(interaction, "I cannot post in the game's thread.")
        return
    link = message_link(guild, posted.channel.id, posted.id)
    await tell(interaction, f"Posted in the game's thread: {link}")
