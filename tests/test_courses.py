"""The courses of /game learn and `idzeva learn` (bot/domain/learn/): every shipped course
file checked step by step (positions build, answers right, every wrong answer with its own
reason, every legal move with a reason), every ruling heading of its rules page covered; and
the loader and the answer checking on small hand-worked cases."""

from __future__ import annotations

import pytest

from bot.domain.learn import (
    CHOOSE,
    MOVE,
    READ,
    CourseError,
    Step,
    check,
    course_ids,
    first_answer,
    load_course,
    parse_course,
)
from bot.domain.learn.answers import spelling
from bot.domain.rules_pages import page_source
from render import MARKING, render_png

# Headings of the rules pages that teach no ruling: how to write moves, read the picture,
# use the Discord commands. Every other '## ' heading must be some lesson's ``covers``.
NOT_RULINGS = {"Writing moves", "Reading the picture", "Notation", "Playing on Discord"}

COURSES = course_ids()
STEPS = [
    pytest.param(course_id, lesson.id, index, id=f"{course_id}-{lesson.id}-{index}")
    for course_id in COURSES
    for lesson in load_course(course_id).lessons
    for index in range(len(lesson.steps))
]


def ruling_headings(rules: str) -> list[str]:
    """The '## ' headings of a rules page (outside code blocks)."""
    headings, in_code = [], False
    for line in page_source(rules).splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("## "):
            headings.append(line[3:].strip())
    return headings


def step_of(course_id: str, lesson_id: str, index: int) -> Step:
    return load_course(course_id).lesson(lesson_id).steps[index]


# ---- every shipped course ---------------------------------------------------------------


def test_the_shax_course_is_shipped():
    assert "shax" in COURSES
    assert 6 <= len(load_course("shax").lessons) <= 12


@pytest.mark.parametrize("course_id", COURSES)
def test_every_ruling_heading_is_covered_by_a_lesson(course_id):
    course = load_course(course_id)
    headings = ruling_headings(course.rules)
    covered = {heading for lesson in course.lessons for heading in lesson.covers}
    assert covered <= set(headings), f"covers names no heading: {covered - set(headings)}"
    missing = [h for h in headings if h not in NOT_RULINGS and h not in covered]
    assert not missing, f"{course_id}: no lesson covers {missing}"


@pytest.mark.parametrize(("course_id", "lesson_id", "index"), STEPS)
def test_step_position_builds_and_waits_for_the_learner(course_id, lesson_id, index):
    step = step_of(course_id, lesson_id, index)
    game = step.position()
    if step.task == MOVE:
        assert not game.is_over and game.dice_needed() is None
        assert game.legal_moves(), "a move task needs a position with legal moves"


@pytest.mark.parametrize(("course_id", "lesson_id", "index"), STEPS)
def test_step_picture_draws_its_marks(course_id, lesson_id, index):
    step = step_of(course_id, lesson_id, index)
    if step.game not in MARKING:
        pytest.skip(f"the {step.game} picture draws no marks yet")
    assert render_png(step.position(), step.marks).startswith(b"\x89PNG")


@pytest.mark.parametrize(("course_id", "lesson_id", "index"), STEPS)
def test_step_answers_are_right(course_id, lesson_id, index):
    step = step_of(course_id, lesson_id, index)
    for answer in step.answer:
        verdict = check(step, answer)
        assert verdict.right, f"{answer!r}: {verdict.reason}"
        if step.task == MOVE:  # written canonically, as the game writes the turn
            assert " ".join(verdict.moves) == answer
    if step.task == READ:
        assert check(step, "").right
    else:
        assert check(step, first_answer(step)).right


@pytest.mark.parametrize(("course_id", "lesson_id", "index"), STEPS)
def test_step_wrong_answers_get_their_own_reasons(course_id, lesson_id, index):
    step = step_of(course_id, lesson_id, index)
    game = step.position()
    answers = {spelling(game, answer) for answer in step.answer}
    for wrong, reason in step.wrong.items():
        assert spelling(game, wrong) not in answers, f"{wrong!r} is also an answer"
        assert check(step, wrong).right is False
        assert check(step, wrong).reason == reason
        if step.task == CHOOSE:
            assert wrong in step.choices


@pytest.mark.parametrize(("course_id", "lesson_id", "index"), STEPS)
def test_every_other_answer_gets_a_reason(course_id, lesson_id, index):
    step = step_of(course_id, lesson_id, index)
    if step.task == READ:
        return
    others = step.choices if step.task == CHOOSE else step.position().legal_moves()
    if step.task == MOVE:
        others = [*others, "zz9", ""]  # not moves at all: the engine's reason
    for other in others:
        verdict = check(step, other)
        assert verdict.right == (other in step.answer)
        assert verdict.reason or verdict.right, f"{other!r} gets no reason"


# ---- the Shax course, hand-worked -------------------------------------------------------


def test_a_move_is_read_as_in_a_game():
    placing = load_course("shax").lesson("placement").steps[0]  # a1 a4 White, g7 g1 Black
    assert check(placing, " A7 ").right
    assert check(placing, "B4").reason.startswith("a1 a4 b4 is no mill")
    assert check(placing, "d2").reason == placing.otherwise  # legal, makes no line
    assert check(placing, "a1").reason == "A1 is occupied; place on an empty point."  # engine


def test_a_removal_with_the_only_stopping_pieces():
    # White's mill d7-a7 is made; Black threatens d2-d3 closing c3 d3 e3.
    removal = load_course("shax").lesson("mills").steps[1]
    assert [check(removal, x).right for x in ("xc3", "xd2", "xe3", "xb6")] == [
        True, True, True, False,
    ]  # fmt: skip
    assert check(removal, "xb6").reason == removal.otherwise


def test_a_whole_turn_typed_for_a_one_move_step_is_judged_by_the_move_asked():
    # Chebache, White rolled 3 and 5 at the start: "bring a piece out onto your space 5".
    step = load_course("chebache").lesson("paths").steps[2]
    assert step.answer == ("S/5", "K(S/5)")
    for turn in ("S/5 S/3", "S/3 S/5", "s/3 k(s/5)"):  # the 5 played, first or second
        assert check(step, turn).right, turn
    # S, 3, then 8: nothing ever lands on 5; the first move's own reason is given.
    assert check(step, "S/3 3/8").reason == step.wrong["S/3"]
    assert check(step, "K(S/3) K(3/8)").reason == step.otherwise


def test_a_choice_is_read_case_and_spaces_aside():
    choice = load_course("shax").lesson("blocking").steps[2]
    assert check(choice, "  black   MOVES anyway").right
    assert check(choice, "Maybe").reason == (
        "Choose one of: Black moves anyway, White loses, A draw."
    )


# ---- the loader -------------------------------------------------------------------------

HEAD = 'game = "shax"\ntitle = "T"\nrules = "shax"\nsummary = "S"\n'
LESSON = '[[lesson]]\nid = "l"\ntitle = "L"\ncovers = []\n[[lesson.step]]\nsay = "Say."\n'


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (HEAD + LESSON + 'task = "read"\nanswr = ["x"]', r"step 1: unknown key\(s\) answr"),
        (HEAD + LESSON + 'task = "move"\nanswer = ["d2"]', "needs answer and otherwise"),
        (HEAD + LESSON + 'task = "choose"\nchoices = ["A", "B"]\nanswer = ["C"]', "not among"),
        (HEAD + LESSON + 'task = "read"\nanswer = ["d2"]', "a read task takes no answer"),
        (HEAD + LESSON + 'task = "guess"', "task must be one of"),
        (HEAD + LESSON + 'task = "read"\n' + LESSON + 'task = "read"', "unique"),
        (HEAD, "lesson ids must be given"),
        ('game = "shax"\n' + LESSON + 'task = "read"', "title must be"),
        (HEAD + LESSON + 'task = "read"\nmoves = "d2"', "moves must be a list"),
    ],
)
def test_a_malformed_course_is_refused_naming_the_place(text, complaint):
    with pytest.raises(CourseError, match=complaint):
        parse_course("sample", text)


def test_an_unknown_course_is_a_key_error():
    with pytest.raises(KeyError, match="no course 'chess'"):
        load_course("chess")


def test_a_step_takes_the_course_variants_unless_it_has_its_own():
    text = (
        HEAD.replace('game = "shax"', 'game = "shax"\nvariants = ["two-removals"]')
        + LESSON
        + 'task = "read"\n[[lesson.step]]\nsay = "Two."\ntask = "read"\nvariants = []\n'
    )
    first, second = parse_course("sample", text).lessons[0].steps
    assert first.position().variant_set == {"two-removals"}
    assert second.position().variant_set == set()


def test_a_dice_step_rolls_fixed_dice_and_a_turn_unfinished_is_said_so():
    # Chebache, White to move with 6 and 2 rolled: the course's answer is a whole turn.
    start = parse_course(
        "sample", HEAD.replace('"shax"', '"chebache"', 1) + LESSON + 'task = "read"'
    )
    game = start.lessons[0].steps[0].position()
    game.roll((6, 2))
    turn = None
    for move in game.legal_moves():
        trial = game.copy()
        trial.push(move)
        if trial.to_move == game.to_move and trial.legal_moves():
            turn = (move, trial.legal_moves()[0])
            break
    assert turn is not None
    text = (
        HEAD.replace('"shax"', '"chebache"', 1)
        + LESSON
        + f'task = "move"\nmoves = ["roll:6,2"]\nanswer = ["{turn[0]} {turn[1]}"]\n'
        + 'otherwise = "Other."\n'
    )
    step = parse_course("sample", text).lessons[0].steps[0]
    assert step.position().dice_needed() is None
    assert check(step, f"{turn[0]} {turn[1]}").right
    assert check(step, turn[0]).reason.startswith("Right so far")
