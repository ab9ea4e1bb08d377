"""Checking a learner's answer to a step: ``check(step, text) -> Verdict``.

A move is read as in a game (the engine's own ``normalize`` and ``parse_move``, a whole turn
where the game takes one), so a learner types moves the way they will play. Every wrong
answer gets a reason: its own from the step's ``wrong`` table, else the step's ``otherwise``
for a legal move, else the engine's reason why the move is not legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import Game, IllegalMove

from .model import CHOOSE, READ, Step

UNFINISHED = "Right so far: now play the rest of the turn too ({rest})."


@dataclass(frozen=True)
class Verdict:
    """A checked answer: ``right``, and the sentence to show (why, or why not)."""

    right: bool
    reason: str
    moves: tuple[str, ...] = ()  # a move answer's canonical moves (empty for choices)


def check(step: Step, text: str) -> Verdict:
    """Whether ``text`` answers ``step``, and the reason to show."""
    if step.task == READ:
        return Verdict(True, step.why)
    if step.task == CHOOSE:
        return _check_choice(step, text)
    return _check_move(step, text)


def first_answer(step: Step) -> str:
    """The answer a hint shows (a read step has none: an empty string)."""
    return step.answer[0] if step.answer else ""


def _check_choice(step: Step, text: str) -> Verdict:
    chosen = _choice(step, text)
    if chosen is None:
        return Verdict(False, "Choose one of: " + ", ".join(step.choices) + ".")
    if chosen in step.answer:
        return Verdict(True, step.why)
    return Verdict(False, step.wrong.get(chosen) or _choice_otherwise(step))


def _choice(step: Step, text: str) -> str | None:
    """The choice label ``text`` names (case and spaces aside), if any."""
    wanted = " ".join(text.split()).casefold()
    return next((label for label in step.choices if label.casefold() == wanted), None)


def _choice_otherwise(step: Step) -> str:
    right = " or ".join(step.answer)
    return step.otherwise or f"Not this one: the answer is {right}."


def _check_move(step: Step, text: str) -> Verdict:
    game = step.position()
    listed = _listed_reason(step, game, text)
    if listed is not None:
        return Verdict(False, listed)
    trial = game.copy()
    try:
        played = tuple(trial.push_line(text))
    except IllegalMove as error:
        return Verdict(False, _sentence(error.reason))
    if len(played) > 1 and all(" " not in answer for answer in step.answer):
        return _check_turn(step, game, played)
    line = " ".join(played)
    if line in step.answer:
        return Verdict(True, step.why, played)
    rest = _rest_of_turn(step, game, trial, line)
    if rest is not None:
        return Verdict(False, UNFINISHED.format(rest=rest), played)
    return Verdict(False, step.otherwise, played)


def _check_turn(step: Step, game: Game, played: tuple[str, ...]) -> Verdict:
    """A step that asks for one move, answered with a whole turn (as a dice game takes it):
    right if the turn plays an answer; else judged by its first move."""
    answered = next((move for move in played if move in step.answer), None)
    if answered is not None:
        return Verdict(True, step.why, (answered,))
    first = played[0]
    return Verdict(False, _listed_reason(step, game, first) or step.otherwise, (first,))


def _listed_reason(step: Step, game: Game, text: str) -> str | None:
    """The step's own reason for this wrong answer, however it was spelt."""
    typed = spelling(game, text)
    for answer, reason in step.wrong.items():
        if spelling(game, answer) == typed:
            return reason
    return None


def spelling(game: Game, text: str) -> str:
    """``text`` as the game reads it before checking it (case, spaces), move by move where
    the game takes a whole turn."""
    if game.accepts_move_lines:
        return " ".join(game.normalize(part) for part in text.split())
    return game.normalize(text)


def _rest_of_turn(step: Step, game: Game, trial: Game, line: str) -> str | None:
    """The rest of an answer that the legal moves typed begin, while the same player is
    still to move: the turn is not finished yet."""
    if trial.is_over or trial.to_move != game.to_move:
        return None
    for answer in step.answer:
        if answer.startswith(line + " "):
            return "a whole turn is written as its moves separated by spaces"
    return None


def _sentence(reason: str) -> str:
    """An engine's reason as a sentence: capital first, full stop last."""
    reason = reason.strip()
    if not reason:
        return "That is not a legal move here."
    reason = reason[0].upper() + reason[1:]
    return reason if reason[-1] in ".!?" else reason + "."
