"""Puzzles (issue 34): every shipped puzzle (``bot/domain/puzzles/data``) loads, its
solutions are legal whole turns, and (on a sample) a wrong turn is answered with a reason;
the counts, the streak and the daily choice."""

from __future__ import annotations

import pytest

from bot.domain import puzzles
from bot.domain.views import NotAllowed, NotFound
from search.puzzles import state_key


@pytest.mark.parametrize("name", list(puzzles.SETS))
def test_every_shipped_puzzle_loads_and_its_solutions_are_legal_turns(name):
    shipped = puzzles.shipped(name)
    assert shipped, f"no {name} puzzles shipped"
    seen = set()
    for number, puzzle in enumerate(shipped, start=1):
        game = puzzle.game()
        assert game.to_move == puzzle.seat and not game.is_over
        assert game.dice_needed() is None  # a dice game's roll is already made
        assert puzzle.solutions and puzzle.reason
        for line in puzzle.solutions:
            solved, turn, why = puzzles.check_job(f"{name}:{number}", line)
            assert solved and why == puzzle.reason, (name, number, line)
        key = state_key(game)
        assert key not in seen, f"{name}:{number} is shipped twice"
        seen.add(key)


@pytest.mark.parametrize("name", list(puzzles.SETS))
def test_a_wrong_turn_is_answered_with_its_reason(name):
    puzzle_id = f"{name}:1"
    wrong = puzzles.wrong_turn(puzzle_id)
    assert wrong is not None
    solved, turn, why = puzzles.check_job(puzzle_id, wrong)
    assert not solved and turn == wrong
    assert "bot's judgement" in why or "without winning" in why


def test_an_illegal_or_unfinished_answer_is_refused():
    with pytest.raises(NotAllowed, match="not legal here"):
        puzzles.check_job("shax:1", "zz9")
    with pytest.raises(NotFound):
        puzzles.puzzle_of("shax:0")
    with pytest.raises(NotFound):
        puzzles.puzzle_of("chess:1")


def test_stats_count_the_first_answers_and_the_streak():
    answers = [("a", True, 1.0), ("b", True, 2.0), ("c", False, 3.0), ("d", True, 4.0)]
    assert puzzles.stats_of(answers) == puzzles.Stats(solved=3, failed=1, streak=1, best_streak=2)
    assert puzzles.stats_of([]) == puzzles.Stats()


def test_the_daily_puzzle_is_chosen_by_server_and_day_alone():
    first = puzzles.daily_id(1, "2026-11-29")
    assert first == puzzles.daily_id(1, "2026-11-29")
    assert first in puzzles.all_ids()
    days = {puzzles.daily_id(1, f"2026-12-{d:02}") for d in range(1, 29)}
    assert len(days) > 1
