"""An unexpected failure is answered politely and still reported (never silenced)."""

from __future__ import annotations

import discord

from .helpers import latest_board, refused, start_game


async def test_a_failing_command_is_answered_and_reported(world, no_logged_errors):
    w = world

    async def broken(*args, **kwargs):
        raise RuntimeError("database on fire")

    w.env.bot.service.list_games = broken
    result = await w.alice.slash(w.channel, "game list")
    refused(result, "Something went wrong on our side.")
    # SimCord saw it too (the bot's handler wraps, not replaces, the harness's one) ...
    [error] = w.env.errors  # reading acknowledges it, so teardown does not re-raise it
    assert isinstance(error, discord.app_commands.CommandInvokeError)
    assert str(error.original) == "database on fire"
    # ... and so did the log.
    assert [r.getMessage() for r in no_logged_errors.records] == ["command failed"]
    no_logged_errors.records.clear()


async def test_a_failing_button_is_answered_and_logged(world, no_logged_errors):
    w = world
    match = await start_game(w)

    async def broken(*args, **kwargs):
        raise RuntimeError("renderer on fire")

    w.env.bot.service.legal_moves = broken
    result = await w.alice.click(latest_board(match.where), label="Legal moves")
    refused(result, "Something went wrong on our side.")
    assert [r.getMessage() for r in no_logged_errors.records] == ["button idz:g:1:1:moves failed"]
    no_logged_errors.records.clear()
