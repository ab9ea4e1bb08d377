"""Lessons (issue 34): a course per game, as data (``courses/<course>.toml``, the format in
``loader.py``), whose steps show a position and set a task the engine checks
(``answers.check``), with a reason for every wrong answer."""

from __future__ import annotations

from .answers import Verdict, check, first_answer
from .loader import CourseError, course_ids, find_course, load_course, parse_course
from .model import CHOOSE, MOVE, READ, Course, Lesson, Step
from .progress import Answered, Learning, Place, Standing, place_of

__all__ = [
    "CHOOSE",
    "Answered",
    "Learning",
    "Place",
    "Standing",
    "find_course",
    "place_of",
    "MOVE",
    "READ",
    "Course",
    "CourseError",
    "Lesson",
    "Step",
    "Verdict",
    "check",
    "course_ids",
    "first_answer",
    "load_course",
    "parse_course",
]
