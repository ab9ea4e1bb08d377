"""The bot as deployed: engines and rendering in worker processes (``IDZEVA_WORKERS``)."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.config import Settings

from .helpers import SHAX_WIN, assert_board_image, latest_board, play, refused, start_game


@pytest.fixture
async def make_bot(db_path, clock, dice):
    """Bots with one worker process each (the other SimCord tests run the work in a thread;
    more than one worker cannot start under SimCord's frozen clock, see below); every pool is
    shut down after the test, as ``IdzevaBot.close`` would."""
    settings = Settings(db_path=db_path, workers=1)
    built = []

    def build():
        bot = create_bot(settings, clock=clock, roller=dice)
        built.append(bot)
        return bot

    yield build
    for bot in built:
        if bot.service is not None:
            await bot.service.close()
        if bot.store is not None:
            await bot.store.close()
            bot.store = None


async def test_a_game_played_and_shown_through_worker_processes(world):
    match = await start_game(world)
    await assert_board_image(latest_board(match.where))
    await play(match, SHAX_WIN[:3], check_image=True)
    text = refused(await match.to_move.slash(match.where, "shax move", move="c3"))
    assert "`c3` is not legal" in text  # the refusal crossed the process boundary

    # A new bot, a new pool: nothing cached, the row is loaded again. The old pool is shut
    # down first: under SimCord's frozen clock, starting a worker while another process of
    # ours runs never returns (multiprocessing polls the running one with a zero timeout).
    await world.env.bot.service.close()
    await world.restart()
    await play(match, SHAX_WIN[3:5], check_image=True)
    legal = match.engine.legal_moves()
    choices = await world.bob.autocomplete(match.where, "shax move", "move", "")
    assert [c["value"] for c in choices] == legal[:25]
