"""``/game hint`` through Discord (SimCord, issue 34): a private hint in a friendly game
against the bot (the same after a restart, counted once), then in the history; refusals in a
rated game and to a stranger; the ``hints`` challenge option shown on the challenge and the
board, and refused with a rated challenge; outside a game, the open lesson step's answer
after a try. The bot searches a small fixed tree here
(``BOT_ITERATIONS`` in conftest)."""

from __future__ import annotations

import re

from bot.domain import hints
from bot.domain.learn import load_course
from bot.domain.learn.progress import LESSON_OPEN_SECONDS

from .helpers import (
    answer,
    boards,
    description,
    field_value,
    labels,
    refused,
    start_game,
    updated,
)
from .test_learn import answer_step
from .test_opponent import legal, the_bot, thread_of

HINT = re.compile(r"Hint for Shax #(\d+): \*\*([^*]+)\*\*, which (.+)\.\n-# The game's record")


async def test_a_hint_in_a_friendly_game_against_the_bot_is_private_and_counted(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=idzeva, first="me", level="easy", rated=False
    )
    thread = thread_of(w, result.response)
    [board] = boards(thread)
    text = refused(await w.alice.slash(thread, "game hint"), "your first hint in this game")
    found = HINT.match(text)
    assert found is not None, text
    game_id, move, _ = found.groups()
    assert game_id == "1" and move in await legal(w.alice, board)
    # The same answer after a restart, and not counted again: the position is the same.
    await w.restart()
    assert refused(await w.alice.slash(thread, "game hint", game="1")) == text
    # Not the asker's turn once they have moved (the bot answers at once; then it is theirs
    # again), and never for someone who does not play.
    refused(await w.carol.slash(thread, "game hint"), "not playing in this game")
    await w.alice.slash(thread, "shax move", move=move)
    history = answer(await w.alice.slash(thread, "game history")).content
    assert history.count("(White takes a hint") == 1, history


async def test_a_rated_game_refuses_hints_privately(world):
    w = world
    match = await start_game(w)
    text = refused(await w.alice.slash(match.where, "game hint"))
    assert text == hints.RATED
    choices = await w.alice.autocomplete(w.channel, "game hint", "game", "")
    assert [choice["value"] for choice in choices] == [str(match.game_id)]


async def test_the_hints_option_is_shown_and_needs_a_friendly_game(world):
    w = world
    refused(
        await w.alice.slash(w.channel, "shax challenge", opponent=w.bob, hints=True),
        hints.HINTS_NEED_FRIENDLY,
    )
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=w.bob, first="me", rated=False, hints=True
    )
    assert "Hints allowed (`/game hint`)." in description(result.response)
    accepted = updated(await w.bob.click(result.response, label="Accept"))
    thread = thread_of(w, accepted)
    [board] = boards(thread)
    assert field_value(board, "Hints") == hints.BOARD_FIELD[1]
    refused(await w.bob.slash(thread, "game hint"), "a hint is for your own move")
    text = refused(await w.alice.slash(thread, "game hint"))
    assert HINT.match(text), text


async def test_outside_a_game_a_hint_speaks_of_the_lesson_step_after_a_try(world):
    """In a lesson, ``/game hint`` follows the lesson's rule (the answer after a wrong
    try, as the step's Hint button); with no lesson open, the usual refusal."""
    w = world
    refused(await w.alice.slash(w.channel, "game hint"), "no game in progress here")
    await w.alice.slash(w.channel, "game learn", course="shax")
    shown = answer(await w.alice.slash(w.channel, "game learn", course="shax"))
    assert labels(shown) == ["Continue", "Courses"]  # the first step asks nothing
    refused(await w.alice.slash(w.channel, "game hint"), "Shax · ", "press Continue")
    course = load_course("shax")
    for step in course.lesson("board").steps:  # the first lesson, answered through
        shown = await answer_step(w.alice, shown, step, step.answer[0] if step.answer else "")
    placement = course.lesson("placement")
    where = f"Shax · {placement.title}, step 1"
    refused(await w.alice.slash(w.channel, "game hint"), where, "Try once first")
    await answer_step(w.alice, shown, placement.steps[0], "d2")  # legal, but wrong
    said = refused(await w.alice.slash(w.channel, "game hint"), where)
    assert "the answer is **a7**" in said
    await w.restart()  # kept in the store
    assert "the answer is **a7**" in refused(await w.alice.slash(w.channel, "game hint"))
    refused(await w.bob.slash(w.channel, "game hint"), "no game in progress here")
    w.clock.now += LESSON_OPEN_SECONDS + 1  # a lesson left long ago is not open any more
    refused(await w.alice.slash(w.channel, "game hint"), "no game in progress here")
