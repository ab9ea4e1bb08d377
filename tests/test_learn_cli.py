"""``idzeva learn COURSE`` (bot/cli/learn.py): a course played through in the terminal by a
script on stdin, its pictures written; every wrong answer answered with its reason."""

from __future__ import annotations

import subprocess
import sys

from bot.cli.main import main
from bot.domain.learn import READ, load_course
from bot.domain.learn.progress import TRY_FIRST


def answers(course_id: str) -> list[str]:
    """Each step's first answer, a line each (Enter for a step that only tells)."""
    course = load_course(course_id)
    return [
        step.answer[0] if step.task != READ else ""
        for lesson in course.lessons
        for step in lesson.steps
    ]


def test_a_script_plays_the_whole_shax_course_on_stdin(tmp_path):
    course = load_course("shax")
    steps = [step for lesson in course.lessons for step in lesson.steps]
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "learn", "shax", "--png", str(tmp_path / "steps")],
        input="\n".join(answers("shax")) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Not that" not in done.stdout
    assert done.stdout.count("Right.") == sum(step.task != READ for step in steps)
    assert done.stdout.rstrip().endswith("Play the easy bot: idzeva play shax --bot easy")
    pictures = sorted(path.name for path in (tmp_path / "steps").iterdir())
    assert len(pictures) == len(steps) and "placement-1.png" in pictures
    assert (tmp_path / "steps" / "mills-2.png").read_bytes().startswith(b"\x89PNG")


def test_every_wrong_answer_gets_its_reason_then_the_hint_the_answer(monkeypatch, capsys):
    course = load_course("shax")
    lines: list[str] = []
    expected: list[str] = []
    for lesson in course.lessons:
        for step in lesson.steps:
            if step.task == READ:
                lines.append("")
                continue
            lines.append("hint")  # before any try: refused
            expected.append(TRY_FIRST)
            for wrong, reason in step.wrong.items():
                lines.append(wrong)
                expected.append(f"Not that: {reason}")
            if not step.wrong:
                lines.append("zz9")
                expected.append("Not that: ")
            lines.append("hint")
            expected.append(f"Hint: {step.answer[0]}")
            lines.append(step.answer[0])
    monkeypatch.setattr("builtins.input", _reading(lines))
    assert main(["learn", "Shax"]) == 0
    out = capsys.readouterr().out
    place = 0
    for text in expected:  # in order
        found = out.find(text, place)
        assert found >= 0, f"missing, in order: {text!r}"
        place = found + len(text)


def test_a_choice_by_its_number_and_a_stop_midway(monkeypatch, capsys):
    # The board lesson: Enter past step 1; step 2's "No" and step 3's "Yes" by number; then
    # the input ends at step 4.
    monkeypatch.setattr("builtins.input", _reading(["", "2", "1"]))
    assert main(["learn", "jare", "--lesson", "board"]) == 1
    out = capsys.readouterr().out
    assert "1) Yes  2) No" in out
    assert out.count("Right.") == 2
    assert out.rstrip().endswith(
        "Stopped in lesson 'board', step 4: go on with `idzeva learn shax --lesson board`."
    )


def test_an_unknown_course_or_lesson_is_one_line(capsys):
    assert main(["learn", "chess"]) == 2
    assert capsys.readouterr().err.startswith("idzeva: There is no course 'chess': try ")
    assert main(["learn", "shax", "--lesson", "castling"]) == 2
    err = capsys.readouterr().err
    assert "no lesson 'castling' in the Shax course (its lessons: board, placement," in err


def _reading(lines: list[str]):
    feed = iter(lines)

    def read(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read
