"""Each version of a game's board is drawn once (issue 33): the move's answer posts it, and
the notices, ``/game board``, the board's buttons and the bot's reply reuse those bytes.

The renderer is counted per position drawn (the game's saved state: one per version here,
as no two versions of these games show the same position).
"""

from __future__ import annotations

from collections import Counter

import pytest

import bot.domain.service as service_module
from render import render_png

from .helpers import (
    DAY,
    HOUR,
    TICK,
    assert_board_image,
    challenge,
    latest_board,
    play,
    public,
    refused,
    start_game,
    updated,
    version,
)
from .test_opponent import legal, the_bot, thread_of


@pytest.fixture
def drawn(monkeypatch) -> Counter[str]:
    """How many times each position was drawn by the bot's renderer (asked for before
    ``world``, which starts the bot)."""
    positions: Counter[str] = Counter()

    def counting(game) -> bytes:
        positions[game.to_json()] += 1
        return render_png(game)

    monkeypatch.setattr(service_module, "default_renderer", counting)
    return positions


async def test_a_move_then_the_board_asked_for_and_its_buttons_draw_each_version_once(drawn, world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"], check_image=True)
    assert len(drawn) == 2  # the first board and the move's

    # The same version asked for again: in the thread, by a bystander elsewhere, a button.
    shown = public(await w.bob.slash(match.where, "game board"))
    await assert_board_image(shown)
    elsewhere = await w.carol.slash(w.channel, "game board", game=str(match.game_id))
    assert elsewhere.response.ephemeral and elsewhere.response.attachments
    refused(await w.bob.click(latest_board(match.where), label="Legal moves"), "Legal moves (")
    await play(match, ["d3"])

    assert len(drawn) == 3 and set(drawn.values()) == {1}, drawn.values()


async def test_a_game_ended_on_time_posts_the_board_drawn_when_it_ended(drawn, world):
    w = world
    start = w.clock.now
    message = await challenge(w.alice, w.bob, w.channel, first="me", time=3600)
    updated(await w.bob.click(message, label="Accept"))
    [thread] = w.channel.threads
    for at in (start + 30 * 60, start + HOUR, start + HOUR + DAY):  # reminder, claim, end
        w.clock.now = at
        await w.env.advance_time(TICK)
    over = latest_board(thread)
    assert "ran out of time" in over.content and version(over) == 2
    await assert_board_image(over)
    public(await w.alice.slash(thread, "game board"))

    assert len(drawn) == 2 and set(drawn.values()) == {1}, drawn.values()


async def test_the_bots_reply_is_drawn_once(drawn, world):
    w = world
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=the_bot(w), first="me", level="easy"
    )
    thread = thread_of(w, result.response)
    board = latest_board(thread)
    move = (await legal(w.alice, board))[0]
    public(await w.alice.slash(thread, "shax move", move=move))
    reply = latest_board(thread)
    assert version(reply) == 3  # the human's move, then the bot's
    await assert_board_image(reply)
    public(await w.alice.slash(thread, "game board"))

    assert len(drawn) == 3 and set(drawn.values()) == {1}, drawn.values()
