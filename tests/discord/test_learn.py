"""``/game learn [course:]`` (cogs/learn.py): a course privately, step by step, the picture
of each step, reasons for wrong answers, a Hint after a try, progress kept across restarts,
and the easy bot offered at the end (issue 34)."""

from __future__ import annotations

import pytest

from bot.domain.learn import CHOOSE, READ, course_ids, load_course

from .helpers import answer, labels, public, refused

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def text_of(message) -> str:
    [embed] = message.embeds
    return embed.description


def footer_of(message) -> str:
    return message.embeds[0].footer.text


async def answer_step(learner, message, step, text: str):
    """Answer the step shown in ``message`` with ``text``: its button, or the form."""
    if step.task == READ:
        return (await learner.click(message, label="Continue")).response
    if step.task == CHOOSE:
        return (await learner.click(message, label=text)).response
    form = await learner.click(message, label="Answer")
    assert form.modal is not None and form.modal["title"]
    return (await learner.submit_modal(form, {"move": text})).response


async def test_a_learner_completes_the_whole_shax_course(world):
    w = world
    course = load_course("shax")
    listed = answer(await w.alice.slash(w.channel, "game learn"))
    assert listed.ephemeral and "▫️ **Shax** (8 lessons)" in text_of(listed)
    shown = (await w.alice.click(listed, label="Shax")).response
    for number, lesson in enumerate(course.lessons, start=1):
        for index, step in enumerate(lesson.steps):
            assert shown.ephemeral
            assert shown.embeds[0].title == f"Shax · lesson {number}/8: {lesson.title}"
            assert footer_of(shown).startswith(f"Step {index + 1} of {len(lesson.steps)}.")
            assert text_of(shown).endswith(step.say)
            [picture] = shown.attachments
            assert (await picture.read()).startswith(PNG_SIGNATURE)
            right = step.answer[0] if step.task != READ else ""
            shown = await answer_step(w.alice, shown, step, right)
            if step.why:
                assert text_of(shown).startswith(f"✅ {step.why}")
    assert shown.embeds[0].title == "Shax: course complete"
    assert "🏁 Lesson done: **The two-removals variant**." in text_of(shown)
    assert labels(shown) == ["Play the easy bot", "Courses"]
    # The easy bot, challenged from the end of the course: a friendly game starts.
    public(await w.alice.click(shown, label="Play the easy bot"))
    [game] = await w.env.bot.service.list_games(w.guild.id, w.alice.id)
    row = await w.env.bot.store.get_game(game.game_id)
    assert (game.kind, row.options["rated"], set(row.options["bot_levels"].values())) == (
        "shax",
        False,
        {"easy"},
    )
    listed = (await w.alice.click(shown, label="Courses")).response
    assert "✅ **Shax** (all 8 lessons done)" in text_of(listed)
    assert "✅ Shax" in labels(listed)  # one button per course, the other courses beside it


async def test_a_wrong_answer_gets_its_reason_then_a_hint_shows_the_answer(world):
    w = world
    placement = load_course("shax").lesson("placement").steps[0]
    await w.alice.slash(w.channel, "game learn", course="shax")
    # Skip ahead the way a returning learner would: answer the first lesson through.
    shown = answer(await w.alice.slash(w.channel, "game learn", course="Shax"))
    for step in load_course("shax").lesson("board").steps:
        shown = await answer_step(w.alice, shown, step, step.answer[0] if step.answer else "")
    assert "Hint" not in labels(shown)  # no hint before a try
    wrong = await answer_step(w.alice, shown, placement, "B4")
    assert text_of(wrong).startswith(f"❌ Not that: {placement.wrong['b4']}")
    assert labels(wrong) == ["Answer", "Hint", "Courses"]
    legal = await answer_step(w.alice, wrong, placement, "d2")  # legal, but no line
    assert text_of(legal).startswith(f"❌ Not that: {placement.otherwise}")
    illegal = await answer_step(w.alice, legal, placement, "g7")
    assert "g7 is taken already" in text_of(illegal)
    hinted = (await w.alice.click(illegal, label="Hint")).response
    assert text_of(hinted).startswith("💡 The answer: **a7**")
    right = await answer_step(w.alice, hinted, placement, "a7")
    assert text_of(right).startswith("✅ a1 a4 a7: your first mill.")


async def test_leaving_midway_then_resuming_after_a_restart(world):
    """Chebache's course comes from the learn-courses branch: until it is merged, the
    learner leaves the Shax course in the middle of a lesson."""
    w = world
    shown = answer(await w.bob.slash(w.channel, "game learn", course="shax"))
    course = load_course("shax")
    steps = [step for lesson in course.lessons[:4] for step in lesson.steps]
    for step in steps:
        shown = await answer_step(w.bob, shown, step, step.answer[0] if step.answer else "")
    mills = course.lesson("mills")
    shown = await answer_step(w.bob, shown, mills.steps[0], "a4-a7")  # a wrong try
    before = (shown.embeds[0].title, footer_of(shown))
    assert before == (
        "Shax · lesson 5/8: Mills and removal",
        "Step 1 of 5. " + ("Press Answer and type your move as in a game."),
    )
    await w.restart()
    resumed = answer(await w.bob.slash(w.channel, "game learn", course="shax"))
    assert (resumed.embeds[0].title, footer_of(resumed)) == before
    assert labels(resumed) == ["Answer", "Hint", "Courses"]  # the try is remembered
    listed = answer(await w.bob.slash(w.channel, "game learn"))
    assert "▶️ **Shax** (4 of 8 lessons done)" in text_of(listed)
    # The message from before the restart still answers, and so does a form opened
    # before another restart.
    right = await answer_step(w.bob, shown, mills.steps[0], "d7-a7")
    assert footer_of(right).startswith("Step 2 of 5.")
    form = await w.bob.click(right, label="Answer")
    await w.restart()
    removed = (await w.bob.submit_modal(form, {"move": "xd2"})).response
    assert text_of(removed).startswith(f"✅ {mills.steps[1].why}")
    assert footer_of(removed).startswith("Step 3 of 5.")
    # Another learner starts at the beginning.
    fresh = answer(await w.carol.slash(w.channel, "game learn", course="shax"))
    assert fresh.embeds[0].title == "Shax · lesson 1/8: The board and its lines"


@pytest.mark.skipif(
    "chebache" not in course_ids(), reason="the Chebache course comes from branch learn-courses"
)
async def test_leaving_a_chebache_lesson_midway_resumes_after_a_restart(world):
    w = world
    course = load_course("chebache")
    number, lesson = next((n, x) for n, x in enumerate(course.lessons, 1) if len(x.steps) > 1)
    shown = answer(await w.alice.slash(w.channel, "game learn", course="Chebache"))
    for step in [s for x in course.lessons[: number - 1] for s in x.steps] + [lesson.steps[0]]:
        shown = await answer_step(w.alice, shown, step, step.answer[0] if step.answer else "")
    where = (f"Chebache · lesson {number}/{len(course.lessons)}: {lesson.title}", "Step 2 of")
    assert (shown.embeds[0].title, footer_of(shown)[:9]) == where
    await w.restart()
    resumed = answer(await w.alice.slash(w.channel, "game learn", course="chebache"))
    assert (resumed.embeds[0].title, footer_of(resumed)[:9]) == where
    step = lesson.steps[1]
    done = await answer_step(w.alice, resumed, step, step.answer[0] if step.answer else "")
    assert not text_of(done).startswith("❌")


async def test_an_unknown_course_is_refused_privately(world):
    w = world
    refused(await w.alice.slash(w.channel, "game learn", course="chess"), "no course 'chess'")
    offered = await w.alice.autocomplete(w.channel, "game learn", "course", "sh")
    assert [choice["value"] for choice in offered] == ["shax"]


async def test_an_answer_typed_with_the_command_offers_the_legal_moves(world):
    w = world
    board = load_course("shax").lesson("board")
    offered = await w.carol.autocomplete(w.channel, "game learn", "answer", "", course="shax")
    assert offered == []  # the first step only tells: nothing to offer
    said = answer(await w.carol.slash(w.channel, "game learn", course="shax", answer="ok"))
    assert footer_of(said).startswith("Step 2 of 4.")
    offered = await w.carol.autocomplete(w.channel, "game learn", "answer", "n", course="shax")
    assert [choice["value"] for choice in offered] == ["No"]
    for step in board.steps[1:]:
        said = answer(
            await w.carol.slash(w.channel, "game learn", course="shax", answer=step.answer[0])
        )
        assert said.ephemeral and text_of(said).startswith("✅")
    # The placement lesson's first step: a1 a4 White, g7 g1 Black; a7 is the one free "a".
    offered = await w.carol.autocomplete(w.channel, "game learn", "answer", "a", course="shax")
    assert [choice["value"] for choice in offered] == ["a7"]
    said = answer(await w.carol.slash(w.channel, "game learn", course="shax", answer="b4"))
    assert text_of(said).startswith("❌ Not that: a1 a4 b4 is no mill")
    said = answer(await w.carol.slash(w.channel, "game learn", course="Shax", answer=" A7"))
    assert text_of(said).startswith("✅ a1 a4 a7: your first mill.")
    refused(await w.carol.slash(w.channel, "game learn", answer="a7"), "Name the course too")
