"""Post-game analysis through Discord (SimCord, issue 34): the Analysis button of a finished
board answers privately with the summary, the chart and the swing boards, computed once
even when clicked twice; ``/game analysis`` for a spectator; posting in the thread once;
refusals for a game not over; a restart in the middle of an analysis. The bot searches a
small fixed tree here (``BOT_ITERATIONS`` in conftest)."""

from __future__ import annotations

from bot.domain import analysis
from bot.domain.jobs import Outbox

from .helpers import PNG_SIGNATURE, answer, labels, play, public, refused, start_game


async def finished_game(w):
    """Alice (White) and Bob place five pieces; Bob resigns. The final board."""
    match = await start_game(w)
    await play(match, ["a1", "d2", "a4", "f4", "g7"])
    final = public(await w.bob.slash(match.where, "game resign"))
    assert labels(final) == ["Rematch", "Analysis"]
    return match, final


async def assert_analysis(message, game_id: int) -> None:
    assert message.ephemeral
    assert message.content.startswith(f"**Analysis of Shax #{game_id}**"), message.content
    assert "**White**: average loss" in message.content
    assert "**Black**: average loss" in message.content
    names = [attachment.filename for attachment in message.attachments]
    assert names[0] == "analysis.png" and all(n.startswith("swing-") for n in names[1:])
    assert len(names) - 1 == message.content.count(", move ")  # a board per swing named
    assert (await message.attachments[0].read()).startswith(PNG_SIGNATURE)
    assert labels(message) == ["Post in the game's thread"]


async def test_the_analysis_button_answers_privately_once_even_clicked_twice(world):
    w = world
    match, final = await finished_game(w)
    first = answer(await w.alice.click(final, label="Analysis"))
    await assert_analysis(first, match.game_id)
    again = answer(await w.bob.click(final, label="Analysis"))
    await assert_analysis(again, match.game_id)
    assert again.content == first.content
    assert w.env.bot.service._analyses.runs == 1  # noqa: SLF001  (kept: not computed again)
    # A spectator who sees the channel may ask too, by the command.
    spectator = answer(await w.carol.slash(match.where, "game analysis"))
    await assert_analysis(spectator, match.game_id)
    # Posted in the game's thread once, whoever clicks.
    before = len(match.where.history())
    posted = refused(await w.carol.click(spectator, label="Post in the game's thread"))
    assert "Posted in the game's thread" in posted
    assert len(match.where.history()) == before + 1
    shown = match.where.history()[-1]
    assert shown.content.startswith(f"**Analysis of Shax #{match.game_id}**")
    assert shown.attachments[0].filename == "analysis.png"
    refused(await w.alice.click(first, label="Post in the game's thread"), "posted already")
    assert len(match.where.history()) == before + 1


async def test_a_game_not_over_is_refused_and_changes_nothing(world):
    w = world
    match = await start_game(w)
    refused(await w.alice.slash(match.where, "game analysis"), "not over", "finished games")
    refused(await w.alice.slash(w.channel, "game analysis", game="99"), "no game #99")
    assert await w.env.bot.store.get_analysis(match.game_id) is None


async def test_an_analysis_cut_by_a_restart_goes_on_from_its_kept_steps(world):
    w = world
    match, final = await finished_game(w)
    store = w.env.bot.store
    # The process that began it kept one step, then was stopped; its claim lapses.
    dead = Outbox(store, w.clock, owner="stopped-process")
    assert await dead.claim(f"analysis:{match.game_id}", analysis.CLAIM_SECONDS)
    kept = [analysis.Judged(0.5, ("d2",), 0.5)] * analysis.STEP
    await store.put_analysis(match.game_id, analysis.judged_to_json(kept), 4, 6, None, w.clock())
    await w.restart()
    w.clock.advance(analysis.CLAIM_SECONDS + 1)
    shown = answer(await w.alice.click(final, label="Analysis"))
    await assert_analysis(shown, match.game_id)
    row = await w.env.bot.store.get_analysis(match.game_id)
    assert row.done == row.total == 6 and row.result is not None
    assert analysis.judged_from_json(row.judged)[: analysis.STEP] == kept
