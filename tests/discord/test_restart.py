"""A restart in the middle of things: the state and every kind of button come back."""

from __future__ import annotations

from .helpers import (
    BOARD_BUTTONS,
    DAY,
    SHAX_RESULT,
    SHAX_WIN,
    TICK,
    challenge,
    current,
    footer,
    labels,
    latest_board,
    play,
    public,
    refused,
    start_game,
    updated,
)


async def test_restart_in_the_middle_of_a_game(world):
    w = world
    match = await start_game(w)
    await play(match, SHAX_WIN[:30])
    before = latest_board(match.where)
    old_bot = w.env.bot

    await w.restart()

    assert w.env.bot is not old_bot and old_bot.store is None
    board = latest_board(match.where)
    assert board.id == before.id and labels(board) == BOARD_BUTTONS
    text = refused(await w.alice.click(board, label="Legal moves"))
    legal = match.engine.legal_moves()
    assert text == f"Legal moves ({len(legal)}): " + " ".join(f"`{m}`" for m in legal)
    history = refused(await w.bob.slash(match.where, "game history"))
    assert history.endswith("29. White e4-e5\n30. White xb2\n```")
    choices = await w.bob.autocomplete(match.where, "shax move", "move", "")
    assert [c["value"] for c in choices] == legal

    final = (await play(match, SHAX_WIN[30:]))[-1]
    assert final.content == f"Game over: {SHAX_RESULT}"
    assert labels(latest_board(match.where)) == ["Rematch", "Analysis"]
    assert labels(current(match.where, board)) == []  # retired by the first move after restart
    assert footer(final) == f"Game {match.game_id} · version 52"


async def test_challenge_draw_and_claim_buttons_survive_a_restart(world):
    w = world
    pending = await challenge(w.alice, w.carol, w.channel)
    match = await start_game(w)
    offer = public(await w.alice.click(latest_board(match.where), label="Offer draw"))

    await w.restart()

    refused(await w.bob.click(pending, label="Accept"), f"Only {w.carol.mention} can accept")
    updated(await w.carol.click(pending, label="Accept"))
    assert len(w.channel.threads) == 2
    declined = await w.bob.click(offer, label="Decline")
    assert updated(declined).content == f"Draw offer declined by {w.bob.mention}."
    assert labels(latest_board(match.where)) == BOARD_BUTTONS

    w.clock.advance(3 * DAY)  # the time per move is out (the grace is not)
    await w.env.advance_time(TICK)
    claim = next(m for m in match.where.history() if labels(m) == ["Claim the win"])
    reminders = [m for m in match.where.history() if "it is your turn" in m.content]
    assert len(reminders) == 1

    await w.restart()

    await w.env.advance_time(TICK)  # the new bot's loop does not repeat the notices
    assert [m for m in match.where.history() if "it is your turn" in m.content] == reminders
    won = public(await w.bob.click(claim, label="Claim the win"))
    assert won.content == "Game over: Black wins: timeout"
