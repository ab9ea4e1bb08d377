"""``idzeva learn COURSE``: a course of /game learn in the terminal.

Each step prints the text board, the marked places, the step's sentences and its task, then
reads answers from the input, one a line, until the right one: a move as in ``idzeva play``,
a choice (its label or number), or Enter for a step that only tells. ``hint`` shows the
answer after a wrong try, ``quit`` stops. With ``--png DIR`` each step's picture is written
there (``LESSON-STEP.png``), so a script can play a course through on stdin and look at it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from bot.domain.learn import CHOOSE, MOVE, Course, Lesson, Step, check, first_answer
from bot.domain.learn.progress import HINT_AFTER_TRIES, TRY_FIRST

PROMPTS = {
    MOVE: "Your move ('hint' after a try, 'quit' to stop):",
    CHOOSE: "Your choice, by name or number:",
}
CONTINUE = "(Enter to continue)"
SavePicture = Callable[[Path, Step], None]


class LearnRun:
    """A course played in the terminal from ``lesson`` on; ``save``: writes a step's
    picture (``--png``), or None."""

    def __init__(
        self,
        course: Course,
        out: TextIO,
        *,
        pictures: Path | None = None,
        save: SavePicture | None = None,
    ):
        self.course = course
        self.out = out
        self.pictures = pictures
        self.save = save

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def run(self, lines: Iterator[str], first: Lesson | None = None) -> bool:
        """Play the lessons from ``first`` (default: the first) to the end; False when the
        input ran out or the learner quit before."""
        lessons = self.course.lessons
        start = lessons.index(first) if first is not None else 0
        for number, lesson in enumerate(lessons[start:], start=start + 1):
            self.say(f"== {self.course.title}, lesson {number}/{len(lessons)}: {lesson.title} ==")
            for index, step in enumerate(lesson.steps):
                if not self.step(lesson, index, step, lines):
                    self.say(
                        f"Stopped in lesson {lesson.id!r}, step {index + 1}: go on with"
                        f" `idzeva learn {self.course.id} --lesson {lesson.id}`."
                    )
                    return False
        self.say(
            f"Course complete: you know the rules of {self.course.title}. Play the easy bot:"
            f" idzeva play {self.course.game} --bot easy"
        )
        return True

    def step(self, lesson: Lesson, index: int, step: Step, lines: Iterator[str]) -> bool:
        """Show the step and read answers until the right one (False: no more input)."""
        self.show(lesson, index, step)
        tries = 0
        while True:
            self.say(PROMPTS.get(step.task, CONTINUE))
            line = next(lines, None)
            if line is None or line.strip().lower() == "quit":
                return False
            if line.strip().lower() == "hint" and step.task != "read":
                shown = first_answer(step) if tries >= HINT_AFTER_TRIES else None
                self.say(f"Hint: {shown}" if shown else TRY_FIRST)
                continue
            verdict = check(step, self.chosen(step, line))
            if verdict.right:
                self.say(f"Right. {verdict.reason}".rstrip() if step.task != "read" else "")
                return True
            tries += 1
            self.say(f"Not that: {verdict.reason}")

    def show(self, lesson: Lesson, index: int, step: Step) -> None:
        game = step.position()
        self.say(f"-- step {index + 1}/{len(lesson.steps)} --")
        self.say(game.text_board())
        self.say(game.status_line())
        if step.marks:
            self.say("Marked: " + " ".join(step.marks))
        self.say(step.say)
        if step.task == CHOOSE:
            self.say("  ".join(f"{n}) {label}" for n, label in enumerate(step.choices, 1)))
        if self.pictures is not None and self.save is not None:
            self.save(self.pictures / f"{lesson.id}-{index + 1}.png", step)

    @staticmethod
    def chosen(step: Step, line: str) -> str:
        """A choice typed by its number is its label."""
        text = line.strip()
        if step.task == CHOOSE and text.isdigit() and 1 <= int(text) <= len(step.choices):
            return step.choices[int(text) - 1]
        return line
