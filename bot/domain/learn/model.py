"""A course as data: ``Course`` of ``Lesson``s of ``Step``s, read from one TOML file per course
(``courses/<course>.toml``, the format in ``loader.py``). A step builds its own position."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import Game, new_game

MOVE, CHOOSE, READ = "move", "choose", "read"  # the tasks a step may set
TASKS = (MOVE, CHOOSE, READ)
ROLL = "roll:"  # a roll in a step's line of moves: "roll:6,2"


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a position, a sentence or two, and a task."""

    game: str  # the games registry key
    variants: tuple[str, ...]
    seats: int | None
    say: str
    task: str  # MOVE, CHOOSE or READ
    moves: tuple[str, ...] = ()  # played from the start (or from ``state``) to the position
    state: dict[str, Any] | None = None  # the engine's Game.to_dict()["state"]
    marks: tuple[str, ...] = ()  # squares, points or pits to highlight
    answer: tuple[str, ...] = ()  # the accepted answers (canonical moves, or choice labels)
    choices: tuple[str, ...] = ()  # CHOOSE: the buttons
    why: str = ""  # shown after a right answer
    otherwise: str = ""  # MOVE: the reason for a legal move that is neither answer nor listed
    wrong: dict[str, str] = field(default_factory=dict)  # a wrong answer -> its reason

    def position(self) -> Game:
        """The step's position, fresh each time (``ValueError`` or ``IllegalMove`` when the
        file's position does not build)."""
        game = new_game(self.game, list(self.variants), self.seats)
        if self.state is not None:
            game = game.from_dict({**game.to_dict(), "state": self.state})
        for entry in self.moves:
            if entry.startswith(ROLL):
                game.roll(int(die) for die in entry[len(ROLL) :].split(","))
            else:
                game.push_line(entry)
        return game


@dataclass(frozen=True)
class Lesson:
    """A few steps teaching the rulings under ``covers`` (headings of the rules page)."""

    id: str  # stable: progress is keyed on it
    title: str
    covers: tuple[str, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Course:
    """A game's course: its lessons in order; ``id`` is the file's name."""

    id: str
    game: str
    title: str
    rules: str  # the rules page (bot/domain/rules/<rules>.md) whose headings it covers
    summary: str
    variants: tuple[str, ...]
    seats: int | None
    lessons: tuple[Lesson, ...]

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(f"no lesson {lesson_id!r} in the {self.title} course")

    def next_lesson(self, lesson_id: str) -> Lesson | None:
        """The lesson after ``lesson_id``, or None after the last."""
        ids = [lesson.id for lesson in self.lessons]
        index = ids.index(lesson_id) + 1
        return self.lessons[index] if index < len(ids) else None
