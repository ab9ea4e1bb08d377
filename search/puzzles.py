"""Puzzles (issue 34): positions where one turn of the player to move wins the game, or
decides it, and every other turn does not. Pure: mined from bot games (``play_and_judge``) or from a
finished game's positions (``puzzles_in``), judged here, written out by
``bench/mine_puzzles.py``.

A puzzle is judged over the mover's complete turns (every way to play its moves until
another seat moves or a roll is due: a Shax mill and its removal, a Chebache roll's moves;
in the dice games the roll already made is fixed). Two kinds:

- ``wins``: some turns win the game at once and all of them begin with the same move (one
  move wins, the others do not; in the dice games, where a roll's moves come in any order,
  some turns win and others do not);
- ``decides``: by the evaluation the ``hard`` level judges its leaves with, the best turn
  leaves the mover at least ``DECIDES_AT`` of the points and the best turn of every other
  first move at least ``MARGIN`` less (in the dice games: every turn reaching a position
  more than ``SAME_AS_BEST`` below the best).

Either way the ``hard`` search, asked for its turn there (by its search size, as the arena
plays), must play one of the solution's turns: the confirmation. The solutions are the
turns that win (``wins``), or that come within ``SAME_AS_BEST`` of the best (``decides``),
kept as the positions they reach, so that a solver's turn is right whatever order its
moves came in.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from games import Game, load_game

from .arena import MAX_PLIES, chooser
from .evaluate import margin, terminal_value
from .explain import reason
from .fastcopy import clone
from .mcts import Search, position_key

WINS = "wins"
DECIDES = "decides"
DECIDES_AT = 0.65
MARGIN = 0.15
SAME_AS_BEST = 0.02
# A position whose turns take more moves than this to list is skipped.
MAX_TURN_MOVES = 1500
CONFIRM_LEVEL = "hard"
# Mining: the rolls tried before a roll in the dice games, the other first moves tried
# elsewhere (``around``).
ROLLS_TRIED = 3
SIDELINES = 2
DICE_GAMES = frozenset({"chebache", "sachidjun"})
STRONG = 2  # the evaluation's terms at ``normal`` and ``hard``


@dataclass(frozen=True)
class Puzzle:
    """A position (``Game.to_dict``), the seat to move, the kind, the solution's turns (as
    typed: moves separated by spaces) and one sentence saying why the first one is right."""

    position: dict[str, Any]
    seat: int
    kind: str
    solutions: tuple[str, ...]
    reason: str
    margin: float  # the best turn's share less the best other first move's (wins: 1 - it)

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "seat": self.seat,
            "kind": self.kind,
            "solutions": list(self.solutions),
            "reason": self.reason,
            "margin": round(self.margin, 3),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            data["position"],
            int(data["seat"]),
            data["kind"],
            tuple(data["solutions"]),
            data["reason"],
            float(data["margin"]),
        )

    def game(self) -> Game:
        return load_game(self.position)

    def solution_states(self) -> set[str]:
        """The positions the solution's turns reach (``state_key``)."""
        states = set()
        for line in self.solutions:
            states.add(state_key(play_turn(self.game(), line)))
        return states


def play_turn(game: Game, line: str) -> Game:
    """``game`` after the moves of ``line`` (separated by spaces; ``IllegalMove`` when one
    is not legal), played one by one whatever the game's own input takes at once."""
    for move in line.split():
        game.push(move)
    return game


def state_key(game: Game) -> str:
    """The position alone (not the moves that led there): two orders of the same moves
    reach the same key. In the dice games the state also keeps the turn's own history (a
    Chebache turn's moves), which ``mcts.position_key`` leaves out, with the dice."""
    data = game.to_dict()
    if game.key in DICE_GAMES:
        # The legal moves stand for the dice left to play, which position_key leaves out.
        return repr((position_key(game), game.to_move, game.legal_moves(), data["outcome"]))
    return json.dumps([data["state"], data["outcome"]], sort_keys=True)


def complete_turns(game: Game, cap: int = MAX_TURN_MOVES) -> list[tuple[list[str], Game]] | None:
    """Every complete turn of the mover (moves until another seat moves, a roll is due or
    the game ends) with the position it reaches, one per position reached; None when
    listing them takes more than ``cap`` moves."""
    seat = game.to_move
    frontier: list[tuple[list[str], Game]] = [([], game)]
    finals: dict[str, tuple[list[str], Game]] = {}
    played = 0
    while frontier:
        reached: dict[str, tuple[list[str], Game]] = {}
        for line, position in frontier:
            for move in position.legal_moves():
                played += 1
                if played > cap:
                    return None
                after = clone(position, keep_log=True)
                after.push_legal(move)
                key = state_key(after)
                item = ([*line, move], after)
                if after.is_over or after.to_move != seat or after.dice_needed() is not None:
                    finals.setdefault(key, item)
                else:
                    reached.setdefault(key, item)
        frontier = list(reached.values())
    return list(finals.values())


def share_for(after: Game, team: int) -> float:
    """``team``'s share of the points after a turn: the result once over (Poron Jikaida's
    half-point wins 3/4), else the evaluation's margin squashed to the whole of 0..1 (the
    evaluation itself keeps within a game's span, 0.27..0.73 in Poron Jikaida, so that no
    position is worth a win)."""
    if after.outcome is not None:
        value = terminal_value(after)
    else:
        value = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, margin(after, STRONG)))))
    return value if after.team_of(0) == team else 1.0 - value


def judge(
    game: Game, seed: int = 0, confirm: bool = True, iterations: int | None = None
) -> Puzzle | None:
    """The puzzle in ``game`` for the player to move, or None (module docstring);
    ``iterations``: the confirming search's size instead of the ``hard`` level's (tests)."""
    seat = game.to_move
    if game.is_over or seat is None or game.dice_needed() is not None:
        return None
    if len(game.legal_moves()) < 2:
        return None
    turns = complete_turns(game)
    if turns is None or len(turns) < 2:
        return None
    team = game.team_of(seat)
    judged = [(share_for(after, team), line, after) for line, after in turns]
    # What tells two answers apart: elsewhere the first move (the rest of the turn follows
    # from it: a Shax mill's removal); in the dice games the position the turn reaches (the
    # moves of a roll come in any order).
    dice = game.key in DICE_GAMES
    best_by_answer: dict[str, float] = {}
    for share, line, after in judged:
        answer = state_key(after) if dice else line[0]
        best_by_answer[answer] = max(share, best_by_answer.get(answer, 0.0))
    if len(best_by_answer) < 2:
        return None
    ranked = sorted(best_by_answer.items(), key=lambda item: -item[1])
    best = ranked[0][1]
    if best >= 1.0:
        kind = WINS
        solutions = [line for share, line, _a in judged if share >= 1.0]
        if not dice and len({line[0] for line in solutions}) > 1:
            return None  # several moves win
    elif best >= DECIDES_AT:
        kind = DECIDES
        solutions = [
            line
            for share, line, _a in judged
            if share >= best - SAME_AS_BEST and (dice or best_by_answer[line[0]] >= best)
        ]
        if not dice and len({line[0] for line in solutions}) > 1:
            return None
    else:
        return None
    if dice:  # the best turn reaching another position than the solutions'
        chosen = {" ".join(line) for line in solutions}
        others = [share for share, line, _a in judged if " ".join(line) not in chosen]
    else:  # the best turn beginning with another move
        others = [share for answer, share in ranked if answer != solutions[0][0]]
    runner_up = max(others, default=0.0)
    if not others or (kind == DECIDES and best - runner_up < MARGIN):
        return None
    solutions.sort(key=lambda line: (len(line), line))
    puzzle = Puzzle(
        game.to_dict(),
        seat,
        kind,
        tuple(" ".join(line) for line in solutions),
        reason(game, solutions[0]),
        best - runner_up,
    )
    if confirm and not confirmed(game, puzzle, seed, iterations):
        return None
    return puzzle


def confirmed(game: Game, puzzle: Puzzle, seed: int, iterations: int | None = None) -> bool:
    """Whether the ``hard`` search (by its size, or ``iterations``) plays one of the
    puzzle's solutions."""
    turn = Search(CONFIRM_LEVEL, seed, iterations, clock=False).choose_turn(game)
    return state_key(play_turn(game.copy(), " ".join(turn))) in puzzle.solution_states()


# ---- mining --------------------------------------------------------------------------


def play_and_judge(
    make: Callable[[], Game],
    players: list[str],
    seed: int,
    iterations: int | None = None,
    seen: set[str] | None = None,
) -> Iterator[Puzzle]:
    """One bot game (``players[s]`` for seat ``s``, dice from ``seed``), judging the
    positions around it (``around``) before each turn; yields the puzzles as found. Positions
    in ``seen`` (``state_key``) are not judged again, and those judged are added to it."""
    seen = set() if seen is None else seen
    game = make()
    dice = random.Random(seed)
    movers = {s: chooser(p, seed * 31 + s + 1, iterations) for s, p in enumerate(players)}
    while not game.is_over and game.ply < MAX_PLIES:
        for position in around(game, dice):
            key = state_key(position)
            if key in seen:
                continue
            seen.add(key)
            puzzle = judge(position, seed * 7919 + position.ply)
            if puzzle is not None:
                yield puzzle
        spec = game.dice_needed()
        if spec is not None:
            game.roll([dice.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        seat = game.to_move
        assert seat is not None
        for move in movers[seat](game):
            game.push(move)


def around(game: Game, rng: random.Random) -> list[Game]:
    """The positions worth judging at this point of a game: before a roll, the position
    after each of ``ROLLS_TRIED`` rolls (a roll other than the one the game will make is a
    position the same players could have met); else the position itself and those after
    ``SIDELINES`` other first moves of the mover (the slips a player might have made,
    whose punishment is the puzzle)."""
    spec = game.dice_needed()
    if spec is not None:
        rolled = []
        for _ in range(ROLLS_TRIED):
            position = game.copy()
            position.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
            rolled.append(position)
        return rolled
    if game.is_over:
        return []
    if game.key in DICE_GAMES:
        return []  # judged with their rolls, above
    positions = [game]
    legal = game.legal_moves()
    for move in rng.sample(legal, min(SIDELINES, len(legal))):
        position = game.copy()
        position.push(move)
        if not position.is_over and position.to_move != game.to_move:
            positions.append(position)
    return [p for p in positions if worth_judging(p)]


def worth_judging(position: Game) -> bool:
    """Poron Jikaida's positions only where a capture can be made: its turns are costly to
    judge, and a quiet one seldom wins or decides the game."""
    return position.key != "jikaida" or any("x" in move for move in position.legal_moves())


def puzzles_in(
    record: Game,
    seed: int = 0,
    first: int = 0,
    stop: int | None = None,
    iterations: int | None = None,
) -> Iterator[tuple[int, Puzzle]]:
    """The puzzles of a finished game (the server's own games), with the number of the log
    entry before which each stands: the positions before the entries ``first`` to ``stop``
    of its log, replayed from the start, where a turn begins (the first move after a roll
    or another seat's move: a turn's later moves belong to its puzzle)."""
    game = type(record)(sorted(record.variant_set), record.seats)
    log = record.log[: len(record.log) if stop is None else stop]
    for number, entry in enumerate(log):
        before = record.log[number - 1] if number else None
        starts = before is None or before.dice is not None or before.seat != entry.seat
        if number >= first and entry.move is not None and starts and worth_judging(game):
            puzzle = judge(game, seed + number, iterations=iterations)
            if puzzle is not None:
                yield number, puzzle
        game.replay([entry])
