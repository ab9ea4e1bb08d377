"""Each learner's place in the courses (bot/domain/learn/progress.py), kept in the store:
resumed where they stopped, by any Learning over the same store, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.domain.learn import Learning, load_course
from bot.domain.views import NotAllowed, NotFound

from .conftest import ALICE, BOB


@pytest.fixture
def learning(store, clock) -> Learning:
    return Learning(store, clock)


async def test_a_new_learner_starts_at_the_first_step(learning):
    standings = await learning.standings(ALICE)
    assert [s.course.id for s in standings] == [s.course.id for s in standings if not s.started]
    place = await learning.resume(ALICE, "Shax")
    assert (place.lesson.id, place.index, place.tries) == ("board", 0, 0)
    assert [s.started for s in await learning.standings(ALICE) if s.course.id == "shax"] == [True]


async def test_a_wrong_answer_counts_a_try_then_the_hint_shows_the_answer(learning, store, clock):
    with pytest.raises(NotAllowed, match="Try once first"):
        await learning.hint(ALICE, "shax", "placement", 0)
    wrong = await learning.answer(ALICE, "shax", "placement", 0, "b4")
    assert not wrong.verdict.right and wrong.verdict.reason.startswith("a1 a4 b4 is no mill")
    assert wrong.place.tries == 1 and wrong.next is None
    assert await learning.hint(ALICE, "shax", "placement", 0) == "a7"
    again = Learning(store, clock)  # another process, or after a restart
    place = await again.resume(ALICE, "jare")  # Shax by another of its names
    assert (place.lesson.id, place.index, place.tries) == ("placement", 0, 1)


async def test_a_right_answer_moves_on_and_completes_the_lesson(learning):
    last = len(load_course("shax").lesson("placement").steps) - 1
    right = await learning.answer(ALICE, "shax", "placement", last, "White")
    assert right.verdict.right and right.lesson_done and not right.course_done
    assert (right.next.lesson.id, right.next.index) == ("first-removal", 0)
    place = await learning.resume(ALICE, "shax")
    assert (place.lesson.id, place.index, place.tries) == ("first-removal", 0, 0)
    (shax,) = [s for s in await learning.standings(ALICE) if s.course.id == "shax"]
    assert shax.done == {"placement"} and not shax.finished
    assert not [s for s in await learning.standings(BOB) if s.started]  # Alice's alone


async def test_the_whole_course_answered_is_finished(learning):
    course = load_course("shax")
    answered = None
    for lesson in course.lessons:
        for index, step in enumerate(lesson.steps):
            answered = await learning.answer(ALICE, "shax", lesson.id, index, _answer(step))
            assert answered.verdict.right
    assert answered.course_done and answered.next is None and answered.place.is_last_of_course
    (shax,) = [s for s in await learning.standings(ALICE) if s.course.id == "shax"]
    assert shax.finished
    place = await learning.resume(ALICE, "shax")  # a finished course starts over
    assert (place.lesson.id, place.index) == ("board", 0)


async def test_an_unknown_course_or_step_is_refused(learning):
    with pytest.raises(NotFound, match="There is no course 'chess'"):
        await learning.resume(ALICE, "chess")
    with pytest.raises(NotFound, match="no longer in the course"):
        await learning.answer(ALICE, "shax", "castling", 0, "d2")
    with pytest.raises(NotFound, match="no longer in the lesson"):
        await learning.open(ALICE, "shax", "board", 99)


def _answer(step) -> str:
    return step.answer[0] if step.answer else ""


async def test_a_step_picture_is_drawn_once_then_remembered(service, monkeypatch):
    drawn = []

    def counting(step) -> bytes:
        drawn.append(step)
        return b"PNG " + step.say.encode()

    monkeypatch.setattr("bot.domain.service.step_picture", counting)
    place = await service.learning.resume(ALICE, "shax")
    first = await service.lesson_picture(place)
    assert await service.lesson_picture(place) == first == b"PNG " + place.step.say.encode()
    other = await service.learning.open(ALICE, "shax", "mills", 1)
    assert await service.lesson_picture(other) != first
    assert drawn == [place.step, other.step]
