"""Post-game analysis (issue 34): how each turn of a finished game changed the players'
chances, as the bot's search judges them. Pure: games and the search only.

The game is cut into turns: a player's moves while the same seat moves on with no roll in
between (a Shax mill and its removal, a Chebache roll's moves), with the rolls made before
them. Each turn has a *boundary*, the position before its rolls, and the game one more at
its end. What is judged, with the ``normal`` level's search by its size (no clock, so the
same on every machine, a seed per turn):

- a boundary where a player is to move: the search's share of the points for seat 0's team
  after the turn it would play (the chosen move's mean, ``Search.value``);
- a boundary where a roll is due: the evaluation of the position, as the ``normal`` search
  judges the end of every turn it weighs in the dice games (its ``turn`` policy), before
  the dice are known;
- the end of a finished game: its result (1 a win, 0 a loss, 1/2 a draw for seat 0's team).

Each turn is also searched where its player decided (after its rolls): the bot's own turn
there and its share. A turn's *loss* is the share its player's team had after the bot's
turn less the share after the turn played (the next boundary), never below 0: what the
move gave away by the search's judgement. A side's average loss is over its turns; its
*swings* are its three turns with the largest loss where the bot would have played
otherwise.

The search sees the game as seat 0's team against the others (as it plays): in Šačidjun
with three or four players every seat's share is its team's against the rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from games import Game
from games.base import LogEntry
from games.record import GameRecord

from .evaluate import evaluate, terminal_value
from .fastcopy import clone
from .mcts import LEVELS, Search, budget_key

ANALYSIS_LEVEL = "normal"
# The share of the level's search size the analysis gives each position: a 100-ply game
# in at most 120 s on a 2-core machine (docs/bench.md, "analysis").
SIZE_SHARE = 1.0
SWINGS = 3  # the largest swings shown per side
# Positions with only one move (or a win at once) are judged by what follows them, at
# most this many turns ahead; further on, by the evaluation.
FOLLOW_DEPTH = 6
FORMAT_VERSION = 1


@dataclass(frozen=True)
class TurnPlan:
    """One turn of the game, as indices into its log: ``start`` the boundary (before its
    rolls), ``decide`` its first move, ``end`` just after its last move."""

    start: int
    decide: int
    end: int
    seat: int
    ply: int  # the number of moves played before the turn
    moves: tuple[str, ...]
    dice: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Judged:
    """A boundary judged: seat 0's team share there, and (but at the game's end) the bot's
    turn where the player decided and seat 0's team share after it, as the search saw it."""

    value: float
    best: tuple[str, ...] = ()
    best_value: float | None = None


@dataclass(frozen=True)
class Turn:
    """A turn judged: shares are for its player's team, 0..1."""

    ply: int  # the number of moves before it (its first move is ply + 1)
    seat: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    dice: tuple[tuple[int, ...], ...]
    best_share: float  # after the bot's turn
    share: float  # after the turn played
    loss: float  # best_share - share, at least 0


@dataclass(frozen=True)
class Analysis:
    """A finished game analysed (``to_dict``/``from_dict`` for storage and ``--json``)."""

    game: str
    title: str
    seat_names: tuple[str, ...]
    teams: tuple[int, ...]  # the team of each seat
    points: tuple[tuple[int, float], ...]  # (moves played, seat 0's team share)
    turns: tuple[Turn, ...]
    size: int  # the search size per position
    seed: int
    version: int = field(default=FORMAT_VERSION)

    def share(self, seat: int, value0: float) -> float:
        """Seat 0's team share ``value0`` as ``seat``'s team's share."""
        return team_share(self.teams, seat, value0)

    def average_loss(self, seat: int) -> float | None:
        """The seat's average loss per turn (None: it played no turn)."""
        losses = [turn.loss for turn in self.turns if turn.seat == seat]
        return sum(losses) / len(losses) if losses else None

    def swings(self, seat: int, count: int = SWINGS) -> list[Turn]:
        """The seat's turns that lost the most where the bot would have played otherwise,
        largest first (ties: the earlier)."""
        mistakes = [
            turn
            for turn in self.turns
            if turn.seat == seat and turn.loss > 0 and turn.best and turn.best != turn.played
        ]
        return sorted(mistakes, key=lambda turn: (-turn.loss, turn.ply))[:count]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["points"] = [list(point) for point in self.points]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        turns = tuple(
            Turn(
                ply=int(t["ply"]),
                seat=int(t["seat"]),
                played=tuple(t["played"]),
                best=tuple(t["best"]),
                dice=tuple(tuple(roll) for roll in t["dice"]),
                best_share=float(t["best_share"]),
                share=float(t["share"]),
                loss=float(t["loss"]),
            )
            for t in data["turns"]
        )
        return cls(
            game=data["game"],
            title=data["title"],
            seat_names=tuple(data["seat_names"]),
            teams=tuple(data["teams"]),
            points=tuple((int(ply), float(value)) for ply, value in data["points"]),
            turns=turns,
            size=int(data["size"]),
            seed=int(data["seed"]),
            version=int(data.get("version", FORMAT_VERSION)),
        )

    @classmethod
    def from_json(cls, text: str) -> Analysis:
        return cls.from_dict(json.loads(text))


def team_share(teams: Sequence[int], seat: int, value0: float) -> float:
    """Seat 0's team share ``value0`` as ``seat``'s team's share (``teams``: per seat)."""
    return value0 if teams[seat] == teams[0] else 1.0 - value0


# ---- the turns of a game ---------------------------------------------------------------


def played_log(record: GameRecord) -> tuple[Game, list[LogEntry]]:
    """The record's starting position and its log (rolls and moves, as replayed)."""
    return record.new_game(), list(record.replay().log)


def plan_turns(entries: Sequence[LogEntry]) -> list[TurnPlan]:
    """The turns of a log (see the module's text); rolls after the last move are left out."""
    turns: list[TurnPlan] = []
    start: int | None = None
    decide = 0
    seat = -1
    moves: list[str] = []
    dice: list[tuple[int, ...]] = []
    plies = 0

    def close(end: int) -> None:
        turns.append(
            TurnPlan(start or 0, decide, end, seat, plies - len(moves), (*moves,), (*dice,))
        )

    for index, entry in enumerate(entries):
        if entry.dice is not None:
            if moves:
                close(index)
                start, moves, dice = None, [], []
            if start is None:
                start = index
            dice.append(tuple(entry.dice))
            continue
        if moves and entry.seat != seat:
            close(index)
            start, moves, dice = None, [], []
        if start is None:
            start = index
        if not moves:
            decide, seat = index, entry.seat
        moves.append(entry.move or "")
        plies += 1
    if moves:
        close(_end_of_moves(entries))
    return turns


def _end_of_moves(entries: Sequence[LogEntry]) -> int:
    """The index just after the log's last move."""
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].dice is None:
            return index + 1
    return 0


def boundaries(turns: Sequence[TurnPlan]) -> list[int]:
    """The log index of every boundary: each turn's start, then the end of the last turn."""
    if not turns:
        return [0]
    return [turn.start for turn in turns] + [turns[-1].end]


# ---- judging positions -------------------------------------------------------------------


def analysis_size(game: Game, size: int | None = None) -> int:
    """The search size per position: ``size`` when given (tests, benches), else
    ``SIZE_SHARE`` of the analysis level's size for the game."""
    if size is not None:
        return size
    return max(1, round(LEVELS[ANALYSIS_LEVEL].nodes_for(budget_key(game)) * SIZE_SHARE))


def position_value(game: Game) -> float | None:
    """Seat 0's team share where nothing is searched: a finished game's result, or the
    evaluation where a roll is due; None where a player is to move."""
    if game.outcome is not None:
        return terminal_value(game)
    if game.dice_needed() is not None or game.to_move is None:
        return evaluate(game, LEVELS[ANALYSIS_LEVEL].strong)
    return None


def judge_decision(
    game: Game, seed: int, size: int, depth: int = 0
) -> tuple[float, tuple[str, ...]]:
    """The bot's turn where ``game``'s player is to move, and seat 0's team share after it
    as the search judged it; where the search took a shortcut (only one move, a win at
    once), the share of the position the turn leads to."""
    search = Search(ANALYSIS_LEVEL, seed, size, clock=False)
    moves = tuple(search.choose_turn(game))
    if search.value is not None:
        mover = game.to_move
        assert mover is not None
        mine = game.team_of(mover) == game.team_of(0)
        return (search.value if mine else 1.0 - search.value), moves
    after = clone(game, keep_log=False)
    for move in moves:
        after.push_legal(move)
    known = position_value(after)
    if known is not None:
        return known, moves
    if depth >= FOLLOW_DEPTH:
        return evaluate(after, LEVELS[ANALYSIS_LEVEL].strong), moves
    value, _ = judge_decision(after, seed + 1, size, depth + 1)
    return value, moves


def judge_boundary(
    start: Game, entries: Sequence[LogEntry], turn: TurnPlan | None, seed: int, size: int
) -> Judged:
    """One boundary judged: ``start`` is the position at the turn's start (its rolls and
    moves are ``entries[turn.start:]``); ``turn`` None for the end of the game."""
    value = position_value(start)
    if turn is None:
        if value is None:
            value, _ = judge_decision(start, seed, size)
        return Judged(value)
    if value is None and turn.decide == turn.start:
        best_value, best = judge_decision(start, seed, size)
        return Judged(best_value, best, best_value)
    decision = clone(start)
    decision.replay(entries[turn.start : turn.decide])
    best_value, best = judge_decision(decision, seed, size)
    if value is None:  # a player to move at the boundary, yet a roll before the move
        value = best_value
    return Judged(value, best, best_value)


def judge_range(
    record_json: str, first: int, stop: int, seed: int, size: int | None = None
) -> list[Judged]:
    """Boundaries ``first`` to ``stop - 1`` of a record (JSON) judged: a top-level function
    over plain values, for a worker process, so that an analysis goes in steps (its
    progress shown and kept between them). The same ``seed`` gives the same judgements."""
    record = GameRecord.from_dict(json.loads(record_json))
    origin, entries = played_log(record)
    turns = plan_turns(entries)
    marks = boundaries(turns)
    size = analysis_size(origin, size)
    judged: list[Judged] = []
    position = origin
    done = 0
    for index in range(first, min(stop, len(marks))):
        position.replay(entries[done : marks[index]])
        done = marks[index]
        turn = turns[index] if index < len(turns) else None
        judged.append(judge_boundary(position, entries, turn, seed * 1_000_003 + index, size))
    return judged


def boundary_count(record: GameRecord) -> int:
    """How many boundaries an analysis of the record judges (its steps of progress)."""
    return len(boundaries(plan_turns(played_log(record)[1])))


# ---- the whole analysis ------------------------------------------------------------------


def assemble(
    record: GameRecord, judged: Sequence[Judged], seed: int, size: int | None = None
) -> Analysis:
    """The analysis from every boundary judged (``judge_range`` over all of them)."""
    origin, entries = played_log(record)
    turns = plan_turns(entries)
    if len(judged) != len(turns) + 1:
        raise ValueError(f"{len(judged)} boundaries judged, {len(turns) + 1} expected")
    teams = tuple(origin.team_of(seat) for seat in range(origin.seats))
    results = []
    for index, plan in enumerate(turns):
        best_value = judged[index].best_value
        after = judged[index + 1].value
        best_share = team_share(teams, plan.seat, best_value if best_value is not None else after)
        played_share = team_share(teams, plan.seat, after)
        results.append(
            Turn(
                ply=plan.ply,
                seat=plan.seat,
                played=plan.moves,
                best=judged[index].best,
                dice=plan.dice,
                best_share=round(best_share, 4),
                share=round(played_share, 4),
                loss=round(max(0.0, best_share - played_share), 4),
            )
        )
    plies = [plan.ply for plan in turns] + [turns[-1].ply + len(turns[-1].moves) if turns else 0]
    points = tuple((ply, round(item.value, 4)) for ply, item in zip(plies, judged, strict=True))
    return Analysis(
        game=origin.key,
        title=origin.title,
        seat_names=tuple(origin.seat_names[: origin.seats]),
        teams=teams,
        points=points,
        turns=tuple(results),
        size=analysis_size(origin, size),
        seed=seed,
    )


def analyse(
    record: GameRecord,
    seed: int = 0,
    *,
    size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    step: int = 8,
) -> Analysis:
    """The whole analysis in this process; ``progress(done, total)`` after every ``step``
    boundaries."""
    text = record.to_json()
    total = boundary_count(record)
    judged: list[Judged] = []
    while len(judged) < total:
        judged += judge_range(text, len(judged), len(judged) + step, seed, size)
        if progress is not None:
            progress(len(judged), total)
    return assemble(record, judged, seed, size)


def position_after(record: GameRecord, turn: Turn) -> Game:
    """The position after ``turn`` was played (its moves are the last ones logged, which
    the board pictures mark)."""
    origin, entries = played_log(record)
    for plan in plan_turns(entries):
        if plan.ply == turn.ply and plan.seat == turn.seat:
            origin.replay(entries[: plan.end])
            return origin
    raise ValueError(f"no turn after {turn.ply} moves by seat {turn.seat}")
