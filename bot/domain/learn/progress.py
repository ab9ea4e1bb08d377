"""Each learner's place in each course, kept in the store (``learn_progress``): the lessons
completed, the step to show next and the wrong answers given to it. ``/game learn`` resumes
where the learner stopped, on any server and after any restart.

A step is named by (course, lesson, index), as the buttons of a lesson message name it: an
answer to a step moves the learner on from that step, whichever step was kept (an older
message's buttons still work). Lessons completed stay completed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.domain.views import NotAllowed, NotFound
from bot.storage import GameStore
from bot.storage.rows import LearnRow

from .answers import Verdict, check, first_answer
from .loader import course_ids, find_course, load_course
from .model import READ, Course, Lesson, Step

HINT_AFTER_TRIES = 1  # the Hint button shows the answer after this many wrong answers
TRY_FIRST = "Try once first: the hint shows the answer after a wrong one."
# ``/game hint`` outside a game speaks of the lesson step the learner was at within this
# time (a lesson is a private message, answered over minutes, not days).
LESSON_OPEN_SECONDS = 3600.0


@dataclass(frozen=True)
class Place:
    """A step of a course, as a learner meets it."""

    course: Course
    lesson: Lesson
    index: int
    tries: int = 0  # wrong answers the learner gave to it

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def hint_allowed(self) -> bool:
        return self.step.task != READ and self.tries >= HINT_AFTER_TRIES

    @property
    def is_last_of_course(self) -> bool:
        return self.lesson == self.course.lessons[-1] and self.index == len(self.lesson.steps) - 1


@dataclass(frozen=True)
class Standing:
    """A course in a learner's list: the lessons completed and where they are."""

    course: Course
    done: frozenset[str]
    started: bool

    @property
    def finished(self) -> bool:
        return {lesson.id for lesson in self.course.lessons} <= self.done


@dataclass(frozen=True)
class Answered:
    """A checked answer: the verdict, and the learner's place after it."""

    verdict: Verdict
    place: Place  # the step answered (with its tries)
    next: Place | None  # right: the step to show next (None: the course is over)
    lesson_done: bool  # right, and it was the lesson's last step
    course_done: bool  # right, and the learner has now completed every lesson


def place_of(course_id: str, lesson_id: str, index: int) -> Place:
    """The step a button names (``NotFound`` when the course changed since)."""
    try:
        course = load_course(course_id)
        lesson = course.lesson(lesson_id)
    except KeyError:
        raise NotFound(
            "This lesson is no longer in the course: start it again with /game learn."
        ) from None
    if not 0 <= index < len(lesson.steps):
        raise NotFound("This step is no longer in the lesson: start it again with /game learn.")
    return Place(course, lesson, index)


def step_after(place: Place) -> Place | None:
    """The next step of the course, None after its last."""
    if place.index + 1 < len(place.lesson.steps):
        return Place(place.course, place.lesson, place.index + 1)
    lesson = place.course.next_lesson(place.lesson.id)
    return None if lesson is None else Place(place.course, lesson, 0)


def _named_course(course_name: str) -> Course:
    try:
        return find_course(course_name)
    except KeyError as error:
        raise NotFound(str(error.args[0])) from None


def _place_of_row(course: Course, row: LearnRow) -> Place:
    """The step the row keeps, or (none kept, or the course changed since) the first
    lesson not completed."""
    if row.lesson:
        try:
            kept = place_of(course.id, row.lesson, row.step)
            return Place(course, kept.lesson, kept.index, row.tries)
        except NotFound:
            pass
    lesson = next((x for x in course.lessons if x.id not in row.done), course.lessons[0])
    return Place(course, lesson, 0)


class Learning:
    """The learners' progress over the store and clock."""

    def __init__(self, store: GameStore, clock: Callable[[], float]):
        self._store = store
        self._clock = clock

    async def standings(self, user_id: int) -> list[Standing]:
        """Every course, with what the learner completed of it."""
        rows = {row.course: row for row in await self._store.learn_progress(user_id)}
        return [
            Standing(
                load_course(course_id),
                frozenset(rows[course_id].done) if course_id in rows else frozenset(),
                course_id in rows,
            )
            for course_id in course_ids()
        ]

    async def resume(self, user_id: int, course_name: str) -> Place:
        """Where the learner stopped in the course they name, or its first lesson not
        completed, kept as their place (``NotFound`` for a course there is not)."""
        course = _named_course(course_name)
        row = await self._row(user_id, course.id)
        place = _place_of_row(course, row)
        if (row.lesson, row.step) == (place.lesson.id, place.index):
            return place
        return await self._keep(row, place)

    async def where(self, user_id: int, course_name: str) -> Place:
        """``resume``'s place, without keeping it (what autocomplete reads)."""
        course = _named_course(course_name)
        return _place_of_row(course, await self._row(user_id, course.id))

    async def open(self, user_id: int, course_id: str, lesson_id: str, index: int) -> Place:
        """The step a button names, kept as the learner's place."""
        place = place_of(course_id, lesson_id, index)
        row = await self._row(user_id, course_id)
        if (row.lesson, row.step) == (lesson_id, index):
            return Place(place.course, place.lesson, index, row.tries)
        return await self._keep(row, place)

    async def answer(
        self, user_id: int, course_id: str, lesson_id: str, index: int, text: str
    ) -> Answered:
        """Check the learner's answer to the step; right, they move on past it; wrong, the
        try is counted."""
        place = place_of(course_id, lesson_id, index)
        row = await self._row(user_id, course_id)
        tries = row.tries if (row.lesson, row.step) == (lesson_id, index) else 0
        verdict = check(place.step, text)
        if not verdict.right:
            tried = Place(place.course, place.lesson, index, tries + 1)
            await self._keep(row, tried)
            return Answered(verdict, tried, None, False, False)
        answered = Place(place.course, place.lesson, index, tries)
        lesson_done = index == len(place.lesson.steps) - 1
        done = row.done
        if lesson_done and lesson_id not in done:
            done = (*done, lesson_id)
        following = step_after(place)
        kept = following or Place(place.course, place.course.lessons[0], 0)
        row = LearnRow(user_id, course_id, done, row.lesson, row.step, row.tries)
        await self._keep(row, kept)
        course_done = lesson_done and Standing(place.course, frozenset(done), True).finished
        return Answered(verdict, answered, following, lesson_done, course_done)

    async def hint(self, user_id: int, course_id: str, lesson_id: str, index: int) -> str:
        """The step's answer, once the learner tried it (``NotAllowed`` before; nothing is
        written either way)."""
        place = place_of(course_id, lesson_id, index)
        if place.step.task == READ:
            raise NotAllowed("This step asks nothing: press Continue.")
        row = await self._row(user_id, course_id)
        tries = row.tries if (row.lesson, row.step) == (lesson_id, index) else 0
        if tries < HINT_AFTER_TRIES:
            raise NotAllowed(TRY_FIRST)
        return first_answer(place.step)

    async def open_step(self, user_id: int) -> Place | None:
        """The step the learner was at last, in the course they moved in last, if that was
        within ``LESSON_OPEN_SECONDS`` (``/game hint`` outside a game speaks of it)."""
        rows = [row for row in await self._store.learn_progress(user_id) if row.lesson]
        if not rows:
            return None
        row = max(rows, key=lambda row: row.updated_at)
        if row.updated_at < self._clock() - LESSON_OPEN_SECONDS:
            return None
        try:
            place = place_of(row.course, row.lesson, row.step)
        except NotFound:
            return None
        return Place(place.course, place.lesson, place.index, row.tries)

    async def _row(self, user_id: int, course_id: str) -> LearnRow:
        rows = await self._store.learn_progress(user_id)
        found = next((row for row in rows if row.course == course_id), None)
        return found or LearnRow(user_id, course_id, (), "", 0, 0)

    async def _keep(self, row: LearnRow, place: Place) -> Place:
        kept = LearnRow(
            row.user_id, row.course, row.done, place.lesson.id, place.index, place.tries
        )
        await self._store.put_learn_progress(kept, self._clock())
        return place
