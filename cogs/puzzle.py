"""``/game puzzle [game] [answer]``: a puzzle privately, with its board; then the answer, a
whole turn offered by the autocomplete like ``/game move`` (``bot/domain/puzzles/`` picks,
checks and counts)."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.domain.puzzles import SETS, PuzzleView, Stats, Verdict
from bot.domain.service import ServiceError

from .autocomplete import AUTOCOMPLETE_LIMIT, CHOICE_NAME_LIMIT
from .common.answers import acknowledge, answer_error, tell, tell_with
from .common.client import guild_id, service

SET_CHOICES = [
    *(app_commands.Choice(name=title, value=name) for name, title in SETS.items()),
    app_commands.Choice(name="The server's puzzle of the day", value="daily"),
    app_commands.Choice(name="From this server's own games", value="server"),
]


def stats_line(stats: Stats) -> str:
    return (
        f"Solved {stats.solved}, failed {stats.failed}; streak {stats.streak}"
        f" (best {stats.best_streak})"
    )


def puzzle_message(view: PuzzleView) -> dict:
    answered = {None: "", True: " (you solved it)", False: " (you missed it)"}[view.answered]
    text = (
        f"**{view.title}**{answered}: {view.task}\n{view.situation}\n"
        "Answer with `/game puzzle answer:` and your whole turn (the menu offers them)."
        f"\n-# {stats_line(view.stats)}"
    )
    message: dict = {"content": text}
    if view.image:
        name = view.puzzle_id.replace(":", "-")
        message["file"] = discord.File(io.BytesIO(view.image), filename=f"puzzle-{name}.png")
    return message


def verdict_text(verdict: Verdict) -> str:
    if verdict.solved:
        head = f"Right: **{verdict.turn}** {verdict.why}."
    else:
        head = (
            f"Not this one: **{verdict.turn}**: {verdict.why}.\nThe solution: "
            f"**{verdict.solution}**, which {verdict.solution_reason}."
        )
    counted = "" if verdict.counted else "\n-# You had answered this puzzle: no count changed."
    return f"{head}{counted}\n-# {stats_line(verdict.stats)}. `/game puzzle` for the next one."


async def puzzle(interaction: discord.Interaction, game: str | None, answer: str | None) -> None:
    await acknowledge(interaction)
    svc = service(interaction)
    try:
        if answer is not None:
            verdict = await svc.answer_puzzle(interaction.user.id, answer)
        else:
            view = await svc.puzzle(interaction.user.id, game, guild_id=guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if answer is not None:
        await tell(interaction, verdict_text(verdict))
    else:
        await tell_with(interaction, puzzle_message(view))


async def answer_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    try:
        choices = await service(interaction).puzzle_choices(interaction.user.id, current)
    except ServiceError:
        return []
    return [
        app_commands.Choice(name=label[:CHOICE_NAME_LIMIT], value=turn[:CHOICE_NAME_LIMIT])
        for turn, label in choices[:AUTOCOMPLETE_LIMIT]
    ]
