"""``/game puzzle`` through Discord (SimCord, issue 34): a puzzle shown privately with its
board, solved through the answer's autocomplete, the next one failed with the reason and
the solution, the counts and the streak after a restart; the daily puzzle posted once in the
channel a manager chose, with its board, and again the next day; a game finished in the
server becomes that server's own puzzles (the miner run as the bot's loop runs it)."""

from __future__ import annotations

from bot.domain import puzzles

from .helpers import PNG_SIGNATURE, SHAX_WIN, TICK, answer, play, public, refused, start_game
from .test_settings import manager

DAY = 24 * 3600.0


async def test_a_puzzle_solved_and_one_failed_with_counts_kept_over_a_restart(world):
    w = world
    refused(await w.alice.slash(w.channel, "game puzzle", answer="a1"), "no puzzle open")
    shown = answer(await w.alice.slash(w.channel, "game puzzle", game="shax"))
    assert shown.ephemeral and shown.content.startswith("**Shax puzzle 1**"), shown.content
    assert "to move: find the turn that" in shown.content
    assert [a.filename for a in shown.attachments] == ["puzzle-shax-1.png"]
    solution = puzzles.puzzle_of("shax:1").solutions[0]
    choices = await w.alice.autocomplete(w.channel, "game puzzle", "answer", solution)
    assert solution in [choice["value"] for choice in choices]
    said = refused(await w.alice.slash(w.channel, "game puzzle", answer=solution), "Right:")
    assert "Solved 1, failed 0; streak 1 (best 1)" in said

    await w.restart()
    shown = answer(await w.alice.slash(w.channel, "game puzzle", game="shax"))
    assert shown.content.startswith("**Shax puzzle 2**"), shown.content
    wrong = puzzles.wrong_turn("shax:2")
    said = refused(
        await w.alice.slash(w.channel, "game puzzle", answer=wrong), "Not this one", "solution"
    )
    assert "Solved 1, failed 1; streak 0 (best 1)" in said
    # A second answer to the same puzzle counts nothing; a stranger has their own counts.
    said = refused(await w.alice.slash(w.channel, "game puzzle", answer=wrong), "no count changed")
    shown = answer(await w.bob.slash(w.channel, "game puzzle", game="shax"))
    assert "Solved 0, failed 0" in shown.content


async def test_the_daily_puzzle_is_posted_once_a_day_where_a_manager_asked(world):
    w = world
    dana = manager(w)
    refused(
        await w.bob.slash(w.channel, "idzeva settings", daily_puzzle=w.channel), "Manage Server"
    )
    said = answer(await dana.slash(w.channel, "idzeva settings", daily_puzzle=w.channel))
    assert f"Daily puzzle: in <#{w.channel.id}>" in said.embeds[0].description

    def daily_posts():
        return [m for m in w.channel.history() if m.content.startswith("Puzzle of the day")]

    await w.env.advance_time(TICK)
    [post] = daily_posts()
    assert "/game puzzle game:daily" in post.content
    [picture] = post.attachments  # the board drawn
    assert picture.filename == "puzzle-of-the-day.png"
    assert (await picture.read()).startswith(PNG_SIGNATURE)
    await w.env.advance_time(TICK)
    await w.restart()
    await w.env.advance_time(TICK)
    assert len(daily_posts()) == 1  # once, even after a restart the same day
    shown = answer(await w.carol.slash(w.channel, "game puzzle", game="daily"))
    title = shown.content.split("**")[1]
    assert title in post.content
    w.clock.now += DAY
    await w.env.advance_time(TICK)
    assert len(daily_posts()) == 2


async def test_a_game_finished_here_gives_the_server_puzzles_of_its_own(world):
    w = world
    refused(await w.carol.slash(w.channel, "game puzzle", game="server"), "no puzzles of its own")
    await w.env.bot.mine_puzzles()  # the loop's first run, at start-up: games from now on
    w.clock.now += 60
    match = await start_game(w)
    await play(match, SHAX_WIN[:5])  # c3 f6 c4 d1 c5: White's c5 closed the mill c3-c4-c5
    public(await w.bob.slash(match.where, "game resign"))
    await w.env.bot.mine_puzzles()
    await w.restart()
    shown = answer(await w.carol.slash(w.channel, "game puzzle", game="server"))
    assert shown.content.startswith(f"**Shax puzzle from game #{match.game_id}**"), shown.content
    assert [a.filename for a in shown.attachments] == [f"puzzle-shax-g{match.game_id}-4.png"]
    said = refused(await w.carol.slash(w.channel, "game puzzle", answer="c5"), "Right:")
    assert "Solved 1, failed 0" in said
