"""Reading the course files, ``courses/<course>.toml`` (package data), with tomllib.

The format, shared by every course::

    game = "shax"            # games registry key (games.new_game)
    variants = []            # variants of the course's positions unless a step says otherwise
    seats = 2                # optional
    title = "Shax"
    rules = "shax"           # bot/domain/rules/<rules>.md whose headings the course covers
    summary = "One line shown in the course list."

    [[lesson]]
    id = "placement"         # unique in the course, stable (progress is keyed on it)
    title = "Placing your pieces"
    covers = ["1. Placement"] # '## ' headings of the rules page this lesson teaches

    [[lesson.step]]
    say = "One or two plain sentences."
    moves = ["a1", "g7"]     # the position: moves from the start ("roll:3,5" for a roll),
    # state = { ... }        # or the engine's Game.to_dict()["state"] (moves then go on from it)
    # variants = [...], seats = N: this step's own
    marks = ["d2", "d6"]     # squares/points/pits to highlight on the picture
    task = "move"            # "move", "choose" (buttons) or "read" (a Continue button)
    answer = ["d2"]          # move: the accepted canonical moves (a turn as the game writes it);
                             # choose: the right choice label(s)
    choices = ["Yes", "No"]  # choose only
    why = "Shown after a right answer (optional)."
    otherwise = "The reason for any other legal move not listed in wrong (move tasks)."
    [lesson.step.wrong]      # reasons for particular wrong answers, legal or not
    "a4" = "a4 is taken already: ..."

A malformed file (an unknown key, a missing one, a wrong type) raises ``CourseError`` naming
the place; whether the positions build and the answers are legal is ``tests/test_courses.py``'s.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from games import game_class

from .model import CHOOSE, MOVE, READ, TASKS, Course, Lesson, Step

COURSE_KEYS = {"game", "variants", "seats", "title", "rules", "summary", "lesson"}
LESSON_KEYS = {"id", "title", "covers", "step"}
STEP_KEYS = {
    "say", "moves", "state", "variants", "seats", "marks", "task",
    "answer", "choices", "why", "otherwise", "wrong",
}  # fmt: skip


class CourseError(ValueError):
    """A course file that does not follow the format; ``str()`` names the place."""


def course_ids() -> list[str]:
    """The shipped courses, by file name, in order."""
    folder = files(__package__) / "courses"
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )


@cache
def load_course(course_id: str) -> Course:
    """A shipped course by its id (``KeyError`` for an unknown one)."""
    if course_id not in course_ids():
        raise KeyError(f"no course {course_id!r}; there are: {', '.join(course_ids())}")
    text = (files(__package__) / "courses" / f"{course_id}.toml").read_text("utf-8")
    return parse_course(course_id, text)


def find_course(text: str) -> Course:
    """The course a learner names: its id, its title, or its game's name or alias
    (``KeyError`` with the courses there are)."""
    wanted = " ".join(text.split()).casefold()
    courses = [load_course(course_id) for course_id in course_ids()]
    for course in courses:
        if wanted in (course.id, course.title.casefold()):
            return course
    try:
        game = game_class(wanted).key
    except KeyError:
        game = None
    for course in courses:
        if course.game == game:
            return course
    raise KeyError(f"There is no course {text.strip()!r}: try {', '.join(course_ids())}.")


def parse_course(course_id: str, text: str) -> Course:
    """A course from its TOML text (``CourseError`` when it does not follow the format)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CourseError(f"{course_id}: {error}") from None
    _known_keys(data, COURSE_KEYS, course_id)
    game = _text(data, "game", course_id)
    variants = _texts(data, "variants", course_id)
    seats = _seats(data, course_id)
    lessons = tuple(
        _lesson(entry, game, variants, seats, f"{course_id} lesson {index}")
        for index, entry in enumerate(_tables(data, "lesson", course_id), start=1)
    )
    ids = [lesson.id for lesson in lessons]
    if len(set(ids)) != len(ids) or not ids:
        raise CourseError(f"{course_id}: lesson ids must be given and unique ({ids})")
    return Course(
        id=course_id,
        game=game,
        title=_text(data, "title", course_id),
        rules=_text(data, "rules", course_id),
        summary=_text(data, "summary", course_id),
        variants=variants,
        seats=seats,
        lessons=lessons,
    )


def _lesson(
    data: Mapping[str, Any],
    game: str,
    variants: tuple[str, ...],
    seats: int | None,
    where: str,
) -> Lesson:
    _known_keys(data, LESSON_KEYS, where)
    where = f"{where} ({data.get('id')!r})"
    steps = tuple(
        _step(entry, game, variants, seats, f"{where} step {index}")
        for index, entry in enumerate(_tables(data, "step", where), start=1)
    )
    if not steps:
        raise CourseError(f"{where}: a lesson needs steps")
    return Lesson(
        id=_text(data, "id", where),
        title=_text(data, "title", where),
        covers=_texts(data, "covers", where),
        steps=steps,
    )


def _step(
    data: Mapping[str, Any],
    game: str,
    variants: tuple[str, ...],
    seats: int | None,
    where: str,
) -> Step:
    _known_keys(data, STEP_KEYS, where)
    task = _text(data, "task", where)
    if task not in TASKS:
        raise CourseError(f"{where}: task must be one of {', '.join(TASKS)}, not {task!r}")
    state = data.get("state")
    if state is not None and not isinstance(state, dict):
        raise CourseError(f"{where}: state must be a table")
    step = Step(
        game=game,
        variants=_texts(data, "variants", where) if "variants" in data else variants,
        seats=_seats(data, where) if "seats" in data else seats,
        say=_text(data, "say", where),
        task=task,
        moves=_texts(data, "moves", where),
        state=state,
        marks=_texts(data, "marks", where),
        answer=_texts(data, "answer", where),
        choices=_texts(data, "choices", where),
        why=_optional_text(data, "why", where),
        otherwise=_optional_text(data, "otherwise", where),
        wrong=_wrong(data, where),
    )
    _check_task(step, where)
    return step


def _check_task(step: Step, where: str) -> None:
    """The keys a task needs, and none it cannot use."""
    if step.task == MOVE and not (step.answer and step.otherwise):
        raise CourseError(f"{where}: a move task needs answer and otherwise")
    if step.task == CHOOSE:
        if len(step.choices) < 2 or not step.answer:
            raise CourseError(f"{where}: a choose task needs two choices or more and answer")
        unknown = set(step.answer) - set(step.choices)
        if unknown:
            raise CourseError(f"{where}: answer {sorted(unknown)} is not among the choices")
    if step.task == READ and (step.answer or step.choices or step.wrong or step.otherwise):
        raise CourseError(f"{where}: a read task takes no answer, choices, wrong or otherwise")
    if step.task != CHOOSE and step.choices:
        raise CourseError(f"{where}: only a choose task has choices")


# ---- typed fields ----------------------------------------------------------------------


def _known_keys(data: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = set(data) - known
    if unknown:
        raise CourseError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CourseError(f"{where}: {key} must be a non-empty string")
    return value.strip()


def _optional_text(data: Mapping[str, Any], key: str, where: str) -> str:
    return _text(data, key, where) if key in data else ""


def _texts(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CourseError(f"{where}: {key} must be a list of strings")
    return tuple(value)


def _seats(data: Mapping[str, Any], where: str) -> int | None:
    value = data.get("seats")
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise CourseError(f"{where}: seats must be a number")
    return value


def _tables(data: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise CourseError(f"{where}: {key} must be an array of tables ([[{key}]])")
    return value


def _wrong(data: Mapping[str, Any], where: str) -> dict[str, str]:
    value = data.get("wrong", {})
    if not isinstance(value, dict) or not all(
        isinstance(reason, str) and reason.strip() for reason in value.values()
    ):
        raise CourseError(f'{where}: wrong must be a table of answer = "reason"')
    return {answer: reason.strip() for answer, reason in value.items()}
