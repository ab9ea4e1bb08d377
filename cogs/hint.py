"""``/game hint``: the turn the bot would play for the asker now, and why, privately
(``bot/domain/hints.py`` decides where hints are allowed and counts them). Outside any game,
in a lesson (``/game learn``), it gives the lesson step's answer under the lesson's own rule:
after a wrong try, as the step's Hint button does (``Learning.open_step``, ``Learning.hint``)."""

from __future__ import annotations

import discord

from bot.domain.hints import Hint
from bot.domain.learn import Place
from bot.domain.service import ServiceError

from .common.answers import acknowledge, answer_error, refuse, tell
from .common.client import guild_id, service
from .finding import NoGameHere, resolve_game


def hint_text(hint: Hint) -> str:
    """``Hint for Shax #12: **d2-d3 xg7**: completes a mill at ... (your 2nd hint here).``"""
    moves = " ".join(hint.moves)
    taken = "your first hint in this game" if hint.counted == 1 else f"hints taken: {hint.counted}"
    return (
        f"Hint for {hint.title} #{hint.game_id}: **{moves}**, which {hint.reason}."
        f"\n-# The game's record counts it ({taken})."
    )


async def show(interaction: discord.Interaction, game: str | None) -> None:
    """Acknowledge first (the search takes up to two seconds), then answer privately."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
    except NoGameHere as no_game:
        await show_lesson_hint(interaction, no_game)
        return
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    try:
        hint = await service(interaction).hint(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await tell(interaction, hint_text(hint))


def lesson_name(place: Place) -> str:
    """``Shax · Placement, step 2``."""
    return f"{place.course.title} · {place.lesson.title}, step {place.index + 1}"


async def show_lesson_hint(interaction: discord.Interaction, no_game: ServiceError) -> None:
    """The answer of the lesson step the asker is at (after a try, as its Hint button);
    with no lesson open, why there is no hint (``no_game``)."""
    learning = service(interaction).learning
    place = await learning.open_step(interaction.user.id)
    if place is None:
        await answer_error(interaction, no_game)
        return
    where = place.course.id, place.lesson.id, place.index
    try:
        answer = await learning.hint(interaction.user.id, *where)
    except ServiceError as error:
        await refuse(interaction, f"{lesson_name(place)}: {error.message}")
        return
    await tell(
        interaction,
        f"Hint for your lesson ({lesson_name(place)}): the answer is **{answer}**."
        "\n-# Answer it in the lesson's message (`/game learn` shows it again).",
    )
