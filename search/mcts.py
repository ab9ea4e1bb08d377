"""Monte Carlo tree search (UCT) for every game behind ``games.base.Game``.

The tree alternates decision nodes (whoever ``to_move`` names acts: a player's own next
move in a multi-move turn, a partner, an opponent answering a redemption offer) and chance
nodes where ``dice_needed()`` asks for a roll: a roll is sampled with the search's own
``random.Random`` and each distinct (sorted) roll gets its own subtree. The root is the
position as it is: the bot's own roll is already known when it decides.

Every node keeps the sum of results for seat 0's team (``evaluate.evaluate``); a seat
reads it as its own team's share. Playouts are uniformly random (where a level asks for
it, a game's tactical moves first: ``Level.tactical``) and cut off after a number of plies
(not counting a game's opening stage where a level plays it out: ``Level.through_opening``),
where the evaluation replaces the result. A game's end counts for less the further from the
root it comes (``distance_value``), and ends reached in the tree are proven upwards
(MCTS-Solver, ``Search._prove_up``), so that the bot takes the soonest proven win and, where
every move loses, the latest loss (``Search._pick``). In Shax's placement every level
considers only the first-mill moves where there are some (``evaluate.MOVE_FILTERS``).

In the dice games every level uses another policy of the same search (per level and game,
``Level.policy``): ``turn`` (easy) plays every way of using its own roll and judges each
complete turn by the evaluation where it ends (a roll is then due); ``turn2`` (normal;
hard in Šačidjun) also judges its best few turns (``Level.answered``: 3; distinct end
positions) by the opponent's answer to every roll, an expectimax one turn deep pruned to
those few and to the opponent's best turn by the evaluation (hard in Šačidjun judges each
answer in turn by its own best reply to a few drawn rolls, ``Level.deep_rolls``);
``rollout`` (hard in Chebache) plays its best few turns on for two more turns (each side's
best turn by the evaluation) on the same dice, and keeps the one that ends best on
average. All stay within the level's search size (moves played) and time.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games import Game

from .evaluate import (
    EXPANSION_ORDERS,
    MOVE_FILTERS,
    OPENING_STAGE,
    PLAYOUT_TACTICS,
    ROOT_FILTERS,
    evaluate,
    terminal_value,
)
from .fastcopy import clone


@dataclass(frozen=True)
class Level:
    """How hard the bot plays: a time budget per move (seconds) and a search size per game
    (iterations, ``nodes``), whichever runs out first; the playout length in plies before
    the evaluation takes over (per game, ``default`` otherwise), which terms the evaluation
    has (``strong``: 0 plain, 1 finer, 2 also a move deeper; see ``evaluate``), and the UCT
    exploration constant.

    The search sizes are about what a quiet 2-core machine reaches in the time budget
    (measured 25 November 2026, the median over positions of each game): on a quiet
    machine the level plays the same whatever the load, and ``arena`` plays by the sizes
    alone so that its figures do not depend on what else the machine is doing."""

    name: str
    seconds: float
    nodes: dict[str, int]
    playout: dict[str, int]
    strong: int
    exploration: float = 0.7
    # Whether the search tries captures first at each node, the most valuable victim first
    # (``evaluate.EXPANSION_ORDERS``; Poron Jikaida and Pastang), instead of in random order.
    ordered: bool = False
    # Games where the search first judges every move of the root where it lands and then
    # searches only this many of the best (per ``budget_key``; see ``Search._widen``).
    candidates: dict[str, int] = field(default_factory=dict)
    # Games where a node with n visits has at most ceil(w * sqrt(n + 1)) children
    # (progressive widening; its untried moves in their order, captures first), and the
    # exploration constant there (see ``Search._iterate``).
    widening: dict[str, tuple[float, float]] = field(default_factory=dict)
    # Games where the level judges its own complete turns instead of UCT ("turn": every
    # way to play the roll, by the evaluation where the turn ends; see ``Search._turn``).
    policy: dict[str, str] = field(default_factory=dict)
    # Games where the ``turn2`` policy judges this many of its best turns (by the
    # evaluation) again by the opponent's answer to every roll (``TURN2_CANDIDATES`` else).
    answered: dict[str, int] = field(default_factory=dict)
    # Games where ``turn2`` looks one sub-turn further: each answering turn is judged in
    # turn by the mover's own best reply to this many rolls, drawn once per search and
    # the same for every candidate (``Search._answer``); absent, by the evaluation.
    deep_rolls: dict[str, int] = field(default_factory=dict)
    # Games whose evaluation has other terms than the level's ``strong`` (see ``evaluate``).
    evaluation: dict[str, int] = field(default_factory=dict)
    # Games whose weighted evaluation (``evaluate.WEIGHTED``) takes the weights fitted by
    # self-play (``search/weights``) instead of its hand-set ones: the arena's ``_fitted``
    # players, to measure what the fitting is worth. No level plays with them yet: fitted on
    # 92 and 77 games they scored level with the hand-set weights (docs/bot.md).
    fitted_weights: frozenset[str] = frozenset()
    # Games with another time budget per move than ``seconds`` (on the clock).
    timing: dict[str, float] = field(default_factory=dict)
    # Games whose playouts play their opening stage to its end before counting plies
    # (``evaluate.OPENING_STAGE``: Shax's placement).
    through_opening: frozenset[str] = frozenset()
    # Games whose playouts take the game's tactical moves (``evaluate.PLAYOUT_TACTICS``).
    tactical: frozenset[str] = frozenset()

    def playout_for(self, key: str) -> int:
        return self.playout.get(key, self.playout["default"])

    def nodes_for(self, key: str) -> int:
        return self.nodes.get(key, self.nodes["default"])

    def candidates_for(self, key: str) -> int:
        return self.candidates.get(key, 0)

    def widening_for(self, key: str) -> tuple[float, float]:
        """(w, exploration) where the level widens progressively, else (0, its constant)."""
        return self.widening.get(key, (0.0, self.exploration))

    def policy_for(self, key: str) -> str:
        return self.policy.get(key, "uct")

    def answered_for(self, key: str) -> int:
        return self.answered.get(key, TURN2_CANDIDATES)

    def deep_rolls_for(self, key: str) -> int:
        return self.deep_rolls.get(key, 0)

    def strong_for(self, key: str) -> int:
        return self.evaluation.get(key, self.strong)

    def evaluate(self, game: Game) -> float:
        """``evaluate.evaluate`` with this level's terms and weights for the game."""
        key = budget_key(game)
        return evaluate(game, self.strong_for(key), fitted=key in self.fitted_weights)

    def seconds_for(self, key: str) -> float:
        return self.timing.get(key, self.seconds)


def budget_key(game: Game) -> str:
    """The key a level's per-game figures use: Pastang apart from Poron Jikaida."""
    if game.key == "jikaida" and getattr(game, "pastang", False):
        return "pastang"
    return game.key


# easy's policy in the dice games (see ``Level.policy``).
DICE_TURN = {"chebache": "turn", "sachidjun": "turn"}
NORMAL_NODES = {
    "default": 2000,
    "shax": 2500,
    "tchela": 2800,
    "sachidjun": 16000,
    "chebache": 10000,
    "pastang": 4500,
    "jikaida": 600,
}
LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy",
        0.1,
        {
            "default": 300,
            "shax": 450,
            "tchela": 350,
            "sachidjun": 1650,
            "chebache": 950,
            "pastang": 650,
            "jikaida": 120,
        },
        {"default": 2, "jikaida": 0, "chebache": 0, "sachidjun": 0},
        strong=False,
        # Šačidjun and Chebache: normal's former play (its own whole turns by the finer
        # evaluation); with UCT on material alone easy lost to flat Monte Carlo (1-0-5).
        policy=DICE_TURN,
        evaluation={"chebache": 2, "sachidjun": 2},
        timing={"chebache": 0.25, "sachidjun": 0.25},
    ),
    # Tchela: no playout, the evaluation's capture threats judge the leaf (normal so won
    # 15-5 over 20 games against 8-ply playouts judged by counters alone, 0.2 s a move).
    # Poron Jikaida: the capture terms at each leaf (strong 2) and captures tried first
    # (ordered). Without them its 850 iterations gave each of some 200 moves about four
    # visits, the reply taking a loose piece was rarely one of them, and normal lost
    # material to easy (a mean 18.75 behind after 200 plies in 4 games; 16 ahead with
    # both, at 600 iterations, as the terms cost 1.4x a leaf). It then still saw no
    # further than a visit or two of each move, and with nothing to capture moved
    # aimlessly (500 plies without a capture against easy): now it judges every move
    # where it lands and searches the best 12 (``candidates``).
    # Šačidjun and Chebache: turn2 (its best three turns weighed by the opponent's answer
    # to every roll), issue 35: turn alone scored about two thirds against flat Monte Carlo
    # (11-0-5 and 4-0-2). Their sizes carry every answer to its end; p95 about 1-2 s of CPU
    # a move over random positions (29 November, the machine loaded), 1.8 s on the clock.
    # Shax: hard's playouts (``tactical``, ``through_opening``; see below). At normal's size
    # they beat the random ones 32-0-8 in 40 games (13-0-7 in 20 with two removals), and
    # went 18-0-2 against UCT at 3 s where the random ones went 15-0-5 (30 November), for
    # 1.6x the CPU a move (p95 0.87 s, inside the clock's 0.9 s; before 0.34 s).
    "normal": Level(
        "normal",
        0.9,
        NORMAL_NODES,
        {"default": 8, "jikaida": 0, "chebache": 2, "sachidjun": 0, "tchela": 0},
        strong=2,
        ordered=True,
        candidates={"jikaida": 12},
        policy={"chebache": "turn2", "sachidjun": "turn2"},
        answered={"chebache": 3, "sachidjun": 3},
        timing={"chebache": 1.8, "sachidjun": 1.8},
        tactical=frozenset({"shax"}),
        through_opening=frozenset({"shax"}),
    ),
    # hard: 5x normal's size. In Poron Jikaida and Pastang it widens progressively with
    # less exploration (see ``Level.widening``): with 0.7 and every answer tried once
    # before any is tried again, the 24 root moves' ~120 visits each never got past the
    # second ply, and the values were averages over the answers, not the best answer
    # (the visits came out equal, 122 each, in an opening); in Pastang 5x normal's size
    # did no better than normal (2-0-3). Widened, the principal line reaches 5-8 plies;
    # each iteration then costs about 1.6x, so its sizes there are 1,800 and 15,000 (on
    # the quiet machine p50 4.2 s and 5.4 s a move, max 4.8 s and 6.1 s over 8 positions;
    # since ``push_legal``, p50 3.6 s and 4.2 s of CPU, max 4.3 s and 5.1 s; the clock holds
    # it to 4.5 s on Discord, the arena plays by size). In Chebache ``turn2`` (one ply
    # more on normal's evaluation, every answer played to its end, which the size of
    # 40,000 moves was for) was no stronger than normal: 83-2-68 in 153 games. Its
    # ``rollout`` policy sees its own next turn too (escaping, hitting back, jumping), on
    # 21 rollouts per candidate turn; it uses a fraction of the size.
    # In Shax the first mill decides (its maker removes first, Black when nobody makes
    # one; the first to remove won 15 of 16 traced games of hard against normal), and its
    # race is placement tactics that random playouts lose in noise: hard's playouts take
    # or block a line of two and step into mills, else into the point where the opponent
    # would step into one (``tactical``), and play placement to
    # its end before counting their plies (``through_opening``). Against normal, the
    # first alone went 12-0-4 in 16 games and the second alone 14-1-9 in 24, where hard
    # had been 69-0-46 in 115. Both cost up to 4x a playout early in placement (6 s of
    # CPU from the empty board, where the clock stops it on Discord).
    # In Šačidjun ``turn2`` on six candidates was no better than normal's on three (19-1-20
    # in 40 games at 2 seats): hard looks one sub-turn further instead (``deep_rolls``):
    # each answering turn is judged by hard's own best reply to two rolls drawn for it
    # (21-2-17 in 40; with four, 10-0-6 in 16; p95 2.5 s a turn by size, 1.2 s before).
    "hard": Level(
        "hard",
        4.5,
        {key: 5 * n for key, n in NORMAL_NODES.items()}
        | {"jikaida": 1800, "pastang": 15000, "chebache": 40000, "sachidjun": 45000},
        {"default": 8, "jikaida": 0, "chebache": 2, "sachidjun": 0, "tchela": 0},
        strong=2,
        ordered=True,
        candidates={"jikaida": 24},
        widening={"jikaida": (1.0, 0.2), "pastang": (1.0, 0.2)},
        policy={"chebache": "rollout", "sachidjun": "turn2"},
        answered={"sachidjun": 3},
        deep_rolls={"sachidjun": 2},
        tactical=frozenset({"shax"}),
        through_opening=frozenset({"shax"}),
    ),
}
DEFAULT_LEVEL = "normal"
# The one-turn win check looks at no more positions than this (it runs at every level).
WIN_CHECK_NODES = 400
# The search checks every so many iterations whether its answer is settled.
SETTLED_EVERY = 32
# The ``turn2`` policy judges this many of its best turns by the answer they leave.
TURN2_CANDIDATES = 3
# The ``rollout`` policy: how many of its best turns it plays on (those within
# ROLLOUT_MARGIN of the best by the evaluation), how many turns each rollout plays, and the
# size of each of their turn searches.
ROLLOUT_CANDIDATES = 4
ROLLOUT_MARGIN = 0.2
ROLLOUT_TURNS = 2
ROLLOUT_TURN_SIZE = 100


def two_dice_rolls(sides: int) -> list[tuple[int, int]]:
    """Every distinct roll of two ``sides``-sided dice (a <= b), the non-doubles (each two
    of the ``sides**2`` outcomes) first."""
    rolls = [(a, b) for a in range(1, sides + 1) for b in range(a, sides + 1)]
    return sorted(rolls, key=lambda roll: roll[0] == roll[1])


# choose_turn follows the tree to the next move of the same turn when it has this many visits.
THIN = 30


# Lost positions: a finished game's result counts for less the further from the root it
# comes (its distance from a draw shrinks by LENGTH_DISCOUNT at LENGTH_HORIZON plies and
# beyond), so that among wins the search prefers the soonest and among losses the latest.
# A win still counts for more than any position unplayed (``evaluate``'s span).
LENGTH_DISCOUNT = 0.06
LENGTH_HORIZON = 100


def distance_value(result: float, plies: int) -> float:
    """A finished game's result (``terminal_value``) reached ``plies`` plies from the root."""
    return 0.5 + (result - 0.5) * (
        1.0 - LENGTH_DISCOUNT * min(plies, LENGTH_HORIZON) / LENGTH_HORIZON
    )


class Node:
    __slots__ = ("children", "untried", "visits", "total", "rolls", "proof", "partial")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.untried: list[str] | None = None
        self.rolls: dict[tuple[int, ...], Node] | None = None
        self.visits = 0
        self.total = 0.0  # sum of results for seat 0's team
        # MCTS-Solver: the result for seat 0's team known for certain (best play by both
        # sides within the tree) and the plies to that end, once proven; else None.
        self.proof: tuple[float, int] | None = None
        # Whether some of the moves here have no child by design (``Search._widen``): then
        # the children all losing proves nothing.
        self.partial = False


@dataclass
class SearchResult:
    move: str
    iterations: int
    seconds: float
    reason: str  # "only move", "wins now", "search"


class Search:
    """One move choice, within the level's time and its search size for the game.
    ``iterations`` (when given) replaces both; ``clock=False`` keeps only the search size.
    Either way, with a fixed seed the answer is then the same on every machine."""

    def __init__(
        self,
        level: str | Level = DEFAULT_LEVEL,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        clock: bool = True,
    ):
        self.level = LEVELS[level] if isinstance(level, str) else level
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.timed = clock and iterations is None
        self.given_seconds = seconds
        self.seconds = self.level.seconds if seconds is None else seconds
        self.cap = iterations or 0  # this move's search size (set by ``choose``)
        self.root: Node | None = None  # the last search's tree (None after a shortcut)
        self.deadline = math.inf  # a timed search's end (``choose`` sets it)
        self.answers_cut = 0  # turn2: answering turns judged before their end (out of budget)
        # The last search's judgement of the move it chose, as a share for the mover's team
        # (the chosen child's mean; a turn policy's value of its turn). None after a
        # shortcut (an only move, a win now), where nothing was searched.
        self.value: float | None = None

    def size_for(self, game: Game) -> int:
        """This search's size in ``game``: the iterations given, else the level's for it."""
        return self.iterations or self.level.nodes_for(budget_key(game))

    def choose(self, game: Game) -> SearchResult:
        started = time.perf_counter()
        self.root = None
        self.value = None
        legal = game.legal_moves()
        if not legal:
            if game.is_over:
                raise ValueError("the game is over")
            raise ValueError(f"a {game.dice_needed()} roll is due before the next move")
        if len(legal) == 1:
            return SearchResult(legal[0], 0, time.perf_counter() - started, "only move")
        self.cap = self.size_for(game)
        if self.given_seconds is None:
            self.seconds = self.level.seconds_for(budget_key(game))
        self.deadline = started + self.seconds if self.timed else math.inf
        root_state = clone(game, keep_log=False)
        win = self.winning_move(root_state)
        if win is not None:
            return SearchResult(win, 0, time.perf_counter() - started, "wins now")
        if self.level.policy_for(budget_key(game)) in ("turn", "turn2", "rollout"):
            move, iterations, self.root = self._turn(root_state)
        else:
            move, iterations, self.root = self._search(root_state, started)
        return SearchResult(move, iterations, time.perf_counter() - started, "search")

    def choose_turn(self, game: Game) -> list[str]:
        """The moves of the mover's whole turn (its moves while the same seat moves on with
        no roll in between: Chebache's dice, a Šačidjun sub-turn, a Shax mill's removal),
        from one search where it saw enough: each next move is the one ``_pick`` takes below
        the last (a proven win, else the most visited), and a fresh search where the tree
        is thin (a quarter of the budget; the whole budget while every move so far was
        forced or a win, with no search made).
        ``game`` is left alone."""
        seat = game.to_move
        position = clone(game)
        moves = [self.choose(position).move]
        searched = self.root is not None
        node = self.root.children.get(moves[0]) if self.root is not None else None
        position.push(moves[0])
        while position.to_move == seat and position.dice_needed() is None:
            if node is not None and node.children and node.visits >= THIN:
                move = self._pick(node, game.team_of(seat) == game.team_of(0))
                node = node.children[move]
            else:
                share = 4 if searched else 1
                follow = Search(
                    self.level,
                    self.rng.getrandbits(32),
                    max(1, self.size_for(game) // share),
                    self.seconds / share,
                )
                follow.timed = self.timed
                move = follow.choose(position).move
                searched = searched or follow.root is not None
                node = follow.root.children.get(move) if follow.root is not None else None
            position.push(move)
            moves.append(move)
        return moves

    # ---- one-turn wins ---------------------------------------------------------------

    def winning_move(self, game: Game) -> str | None:
        """A move that wins for the mover's team within its own turn (the same seat moving
        on, no roll in between), found in a bounded search; None if none is seen."""
        seat = game.to_move
        assert seat is not None
        team = game.team_of(seat)
        budget = [WIN_CHECK_NODES]
        # Timed searches give the check at most half their time (Poron Jikaida's moves each
        # cost a legal-move generation for the opponent).
        stop = time.perf_counter() + self.seconds / 2

        def wins(position: Game) -> bool:
            for move in position.legal_moves():
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                after = clone(position)
                after.push_legal(move)
                if after.outcome is not None:
                    if team in {after.team_of(s) for s in after.outcome.winners} and (
                        after.outcome.score[seat] >= max(after.outcome.score)
                    ):
                        return True
                    continue
                if after.to_move == seat and after.dice_needed() is None and wins(after):
                    return True
            return False

        # Captures first: wins are often one.
        for move in sorted(game.legal_moves(), key=lambda m: "x" not in m.lower()):
            if budget[0] <= 0 or (self.timed and time.perf_counter() > stop):
                break
            after = clone(game)
            after.push_legal(move)
            budget[0] -= 1
            if after.outcome is not None:
                if team in {after.team_of(s) for s in after.outcome.winners}:
                    return move
                continue
            if after.to_move == seat and after.dice_needed() is None and wins(after):
                return move
        return None

    # ---- whole turns (the "turn" policy) -----------------------------------------------

    def _turn(self, root_state: Game) -> tuple[str, int, Node]:
        """The mover's own complete turns (its moves until a roll is due or another seat
        moves), judged by the evaluation where each ends (``_turns``). With the ``turn2``
        policy the best few are judged again by the other side's answer: every roll it can
        make (weighted by its chance), each answered by its own best turn judged the same
        way (one ply more, within the same search size). The tree returned is the best
        line, so that ``choose_turn`` follows it."""
        seat = root_state.to_move
        assert seat is not None
        policy = self.level.policy_for(budget_key(root_state))
        share = self.cap if policy == "turn" else max(1, self.cap // 4)
        finals, count, _complete = self._turns(root_state, share)
        finals.sort(key=lambda item: -item[0])
        best_line = finals[0][1]
        self.value = finals[0][0]
        if policy == "rollout" and len(finals) > 1:
            best_line, spent = self._rollouts(root_state, finals, self.cap - count)
            self.value = next(value for value, line, _ in finals if line == best_line)
            count += spent
        if policy == "turn2" and len(finals) > 1:
            team = root_state.team_of(seat)
            key = budget_key(root_state)
            candidates = distinct_turns(finals, self.level.answered_for(key))
            replies = self._replies(candidates[0][2], self.level.deep_rolls_for(key))
            left = self.cap - count
            best_value = -1.0
            for index, (value, line, position) in enumerate(candidates):
                if index and time.perf_counter() > self.deadline:
                    break  # out of time: an answer is worth less than a turn's own value,
                    # so the turns left unanswered are not compared with those answered
                budget = left // (len(candidates) - index)
                answer, spent = self._answer(position, team, budget, replies=replies)
                left -= spent
                count += spent
                judged = value if answer is None else answer
                if judged > best_value:
                    best_value, best_line = judged, line
                    self.value = judged
        root = node = Node()
        for move in best_line:
            child = node.children[move] = Node()
            child.visits = THIN
            node = child
        root.visits = THIN
        return best_line[0], count, root

    def _turns(
        self, root_state: Game, cap: int, timed: bool = True
    ) -> tuple[list[tuple[float, list[str], Game]], int, bool]:
        """Every complete turn of the mover from ``root_state`` (breadth first, positions
        reached twice kept once, at most ``cap`` moves played; when a depth has more
        positions than the budget can carry, the best by the evaluation go on, a beam):
        (value for the mover's team, moves, position where it ends), the moves played, and
        whether every turn was played out: out of budget, the positions still mid-turn are
        judged as they stand."""
        seat = root_state.to_move
        assert seat is not None
        mine = root_state.team_of(seat) == root_state.team_of(0)
        judge = self.level.evaluate

        def value(position: Game) -> float:
            v = judge(position)
            return v if mine else 1.0 - v

        beam = max(6, cap // 40)
        deadline = self.deadline if timed else math.inf
        frontier: list[tuple[Game, list[str]]] = [(root_state, [])]
        finals: list[tuple[float, list[str], Game]] = []
        count = 0
        while frontier:
            reached: dict[object, tuple[float, list[str], Game]] = {}
            out_of_budget = False
            for position, line in frontier:
                for move in position.legal_moves():
                    if (finals or reached) and (count >= cap or time.perf_counter() > deadline):
                        out_of_budget = True
                        break
                    after = clone(position, keep_log=False)
                    after.push_legal(move)
                    count += 1
                    item = (value(after), [*line, move], after)
                    if after.to_move != seat or after.dice_needed() is not None:
                        finals.append(item)
                        continue
                    key = position_key(after)
                    if key not in reached:
                        reached[key] = item
            if out_of_budget or (reached and (count >= cap or time.perf_counter() > deadline)):
                finals.extend(reached.values())
                return finals, count, False
            kept = sorted(reached.values(), key=lambda item: -item[0])[:beam]
            frontier = [(after, line) for _v, line, after in kept]
        return finals, count, True

    def _rollouts(
        self, root_state: Game, finals: list[tuple[float, list[str], Game]], budget: int
    ) -> tuple[list[str], int]:
        """The line of the best of the mover's few best turns (``finals``, best first; those
        within ``ROLLOUT_MARGIN`` of the best) by short rollouts: from each, ``ROLLOUT_TURNS``
        turns more, every side playing its best turn by the evaluation (a small ``turn``
        search), then the evaluation. Every candidate gets the same dice (common random
        numbers): the first roll takes each of the 21 rolls once (a non-double counts
        twice), the later rolls come from one seed per first roll. A round (one first roll,
        every candidate) is never cut: the rounds stop when the budget (moves played) or
        the time runs out. Returns the line and the moves played."""
        team = root_state.team_of(root_state.to_move)
        best_value = finals[0][0]
        candidates = [
            item
            for item in distinct_turns(finals, ROLLOUT_CANDIDATES)
            if item[0] >= best_value - ROLLOUT_MARGIN
        ]
        if len(candidates) == 1:
            return candidates[0][1], 0
        spec = candidates[0][2].dice_needed()
        if spec is None or spec.count != 2:
            return candidates[0][1], 0
        totals = [0.0] * len(candidates)
        spent = 0
        base = self.rng.getrandbits(32)
        for number, first in enumerate(two_dice_rolls(spec.sides)):
            if number and (spent >= budget or time.perf_counter() > self.deadline):
                break  # every candidate has had the same rolls so far
            chance = 1.0 if first[0] == first[1] else 2.0
            for index, (_value, _line, position) in enumerate(candidates):
                dice = random.Random(base + number)
                value, used = self._rollout(position, team, first, dice)
                totals[index] += chance * value
                spent += used
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best][1], spent

    def _rollout(
        self, position: Game, team: int, first: tuple[int, int], dice: random.Random
    ) -> tuple[float, int]:
        """``team``'s value after ``ROLLOUT_TURNS`` more turns from ``position`` (a roll
        due), the first roll ``first`` and the next from ``dice``, each turn the roller's
        best by the evaluation; and the moves played."""
        state = clone(position, keep_log=False)
        spent = 0
        turns = 0
        while state.outcome is None and turns < ROLLOUT_TURNS:
            spec = state.dice_needed()
            if spec is None:
                break
            if turns == 0:
                state.roll(first)
            else:
                state.roll([dice.randint(1, spec.sides) for _ in range(spec.count)])
            turns += 1
            if state.outcome is not None or state.dice_needed() is not None:
                continue
            if state.to_move is None:
                break
            finals, used, _complete = self._turns(state, ROLLOUT_TURN_SIZE, timed=False)
            spent += used
            state = max(finals, key=lambda item: item[0])[2]
        value = self.level.evaluate(state)
        return (value if team == state.team_of(0) else 1.0 - value), spent

    def _replies(
        self, position: Game, count: int
    ) -> dict[tuple[int, int], list[tuple[int, int]]] | None:
        """For each roll due at ``position`` (two dice), ``count`` rolls of the next drawn
        at random (each of the outcomes equally likely), for ``_answer`` to judge the
        answering turns by: None for none, or where the next roll is not of two dice."""
        spec = position.dice_needed()
        if not count or spec is None or spec.count != 2:
            return None
        draw = self.rng.randint
        return {
            roll: [(draw(1, spec.sides), draw(1, spec.sides)) for _ in range(count)]
            for roll in two_dice_rolls(spec.sides)
        }

    def _answer(
        self,
        position: Game,
        team: int,
        budget: int,
        replies: dict[tuple[int, int], list[tuple[int, int]]] | None = None,
        rolls: list[tuple[tuple[int, int], float]] | None = None,
    ) -> tuple[float | None, int]:
        """``team``'s expected share after the next roll and the roller's best turn (each
        roll weighted by its chance; the turns judged by the evaluation): None where there
        is no roll to come or no budget, and the moves played. ``rolls``: these (roll,
        weight) instead of every roll. ``replies``: each roll's best turn is judged in
        turn by the next roller's best turn after each of that roll's replies (one
        sub-turn deeper, on sampled rolls weighted alike), where it has one."""
        spec = position.dice_needed()
        if position.outcome is not None or spec is None or spec.count != 2 or budget <= 0:
            return None, 0
        if time.perf_counter() > self.deadline:
            return None, 0
        if rolls is None:
            rolls = [((a, b), 1.0 if a == b else 2.0) for a, b in two_dice_rolls(spec.sides)]
        each = max(1, budget // len(rolls))
        deep = 0 if replies is None else len(next(iter(replies.values())))
        own = max(1, each // (1 + deep))
        total = weight = 0.0
        spent = 0
        for roll, chance in rolls:
            after = clone(position, keep_log=False)
            after.roll(roll)
            used = 0
            if after.outcome is not None or after.to_move is None or after.dice_needed():
                v = self.level.evaluate(after)  # over, or the roll passes
                v = v if team == after.team_of(0) else 1.0 - v
            else:
                theirs = after.team_of(after.to_move)
                finals, used, complete = self._turns(after, own)
                spent += used
                self.answers_cut += not complete
                best, _line, after = max(finals, key=lambda item: item[0])  # roller's team
                v = best if theirs == team else 1.0 - best
            if replies is not None and after.outcome is None:
                # One sub-turn deeper whether the roller moved or passed: every answer is
                # judged at the same point of the round (the evaluation favours the side
                # about to roll, so mixing the two would favour some turns for nothing).
                deeper, more = self._answer(
                    after, team, each - used, rolls=[(r, 1.0) for r in replies[roll]]
                )
                spent += more
                v = v if deeper is None else deeper
            total += chance * v
            weight += chance
        return total / weight, spent

    # ---- UCT -------------------------------------------------------------------------

    def _search(self, root_state: Game, started: float) -> tuple[str, int, Node]:
        root = Node()
        team0 = root_state.team_of(0)
        mover = root_state.to_move
        assert mover is not None
        deadline = started + self.seconds
        count = 0
        moves = root_state.legal_moves()
        narrow = ROOT_FILTERS.get(root_state.key)
        if narrow is not None:
            moves = narrow(root_state, moves)
        if len(moves) == 1:
            root.children[moves[0]] = Node()
            return moves[0], count, root
        keep = self.level.candidates_for(budget_key(root_state))
        if keep:
            count = self._widen(root, root_state, team0, keep, moves)
        else:
            root.untried = self._moves(root_state, moves)
        while count < self.cap and root.proof is None:
            if self.timed and count and time.perf_counter() >= deadline:
                break
            self._iterate(root, clone(root_state), team0)
            count += 1
            if count % SETTLED_EVERY == 0 and self._settled(root, count, started, deadline):
                break
        mine = root_state.team_of(mover) == team0
        move = self._pick(root, mine, self.rng)
        self.value = _mover_value(root.children[move], mine)
        return move, count, root

    @staticmethod
    def _pick(node: Node, mine: bool, rng: random.Random | None = None) -> str:
        """The move to play from ``node`` (``mine``: its mover is seat 0's team). Proven
        results first (MCTS-Solver): the soonest proven win; else never a proven loss while
        another move is not one; where every move is a proven loss, the latest. Otherwise
        the most visited move; ties to the better average, then one of the tied at random
        (``rng``; by name without one). By name, easy in Poron Jikaida, whose moves mostly
        tie (material only, a visit each), moved one piece back and forth on the l-file."""
        children = node.children

        def proven(move: str) -> tuple[float, int] | None:
            proof = children[move].proof
            if proof is None:
                return None
            return (proof[0] if mine else 1.0 - proof[0]), proof[1]

        wins = [(p[1], move) for move in children if (p := proven(move)) and p[0] >= 1.0]
        if wins:
            return min(wins)[1]
        open_moves = [m for m in children if (p := proven(m)) is None or p[0] >= 0.5]
        if not open_moves:  # every move loses: the one that loses latest
            return max(children, key=lambda m: (proven(m), m))  # type: ignore[arg-type, return-value]

        def key(move: str) -> tuple[int, float]:
            child = children[move]
            mean = child.total / child.visits if child.visits else 0.0
            return (child.visits, mean if mine else 1.0 - mean)

        top = max(key(move) for move in open_moves)
        tied = sorted(move for move in open_moves if key(move) == top)
        return tied[0] if len(tied) == 1 or rng is None else rng.choice(tied)

    def _widen(self, root: Node, root_state: Game, team0: int, keep: int, moves: list[str]) -> int:
        """Judge every one of the root's ``moves`` where it lands (as a first visit would),
        and give the search only the ``keep`` best: with some 200 moves (Poron Jikaida) a search of
        a few hundred iterations otherwise spends them all on a visit or two of each, and
        sees no further. A timed search past its deadline stops judging once it has
        ``keep`` (on a loaded machine the 200 judgements alone could outlast normal's
        time). Returns the moves judged (each counts as an iteration)."""
        mover = root_state.to_move
        mine = root_state.team_of(mover) == team0
        moves = list(moves)
        self.rng.shuffle(moves)
        judged: list[tuple[float, str]] = []
        for move in moves:
            if self.timed and len(judged) >= keep and time.perf_counter() > self.deadline:
                break
            after = clone(root_state, keep_log=False)
            after.push_legal(move)
            value = self._playout(after)
            judged.append((value if mine else 1.0 - value, move))
        judged.sort(key=lambda item: -item[0])
        for value, move in judged[:keep]:
            child = root.children[move] = Node()
            child.visits = 1
            child.total = value if mine else 1.0 - value
            root.visits += 1
        root.untried = []
        root.partial = True
        return len(judged)

    def _settled(self, root: Node, count: int, started: float, deadline: float) -> bool:
        """Whether the most visited move can no longer be overtaken in the iterations left
        (counted, or estimated from the rate so far): the answer is then already known."""
        if len(root.children) < 2 or root.untried:
            return False
        left = float(self.cap - count)
        if self.timed:
            now = time.perf_counter()
            left = min(left, count / max(now - started, 1e-9) * (deadline - now))
        first, second = heapq.nlargest(2, (child.visits for child in root.children.values()))
        return first - second > left

    def _iterate(self, root: Node, state: Game, team0: int) -> None:
        rng = self.rng
        widen, c = self.level.widening_for(budget_key(state))
        node = root
        path = [root]
        # Per node of ``path``: whether its mover is seat 0's team (None at a roll).
        sides: list[bool | None] = []
        plies = 0  # moves played from the root
        while state.outcome is None and node.proof is None:
            spec = state.dice_needed()
            if spec is not None:
                dice = tuple(rng.randint(1, spec.sides) for _ in range(spec.count))
                state.roll(dice)
                if node.rolls is None:
                    node.rolls = {}
                key = tuple(sorted(dice))
                child = node.rolls.get(key)
                if child is None:
                    child = node.rolls[key] = Node()
                node = child
                path.append(node)
                sides.append(None)
                continue
            if node.untried is None:
                node.untried = self._moves(state)
            seat = state.to_move
            assert seat is not None
            mine = state.team_of(seat) == team0
            sides.append(mine)
            if node.untried and (
                not widen or len(node.children) < math.ceil(widen * math.sqrt(node.visits + 1))
            ):
                move = node.untried.pop()
                state.push_legal(move)
                plies += 1
                child = node.children[move] = Node()
                path.append(child)
                break
            if not node.children:  # no move at all (engines end such positions themselves)
                break
            log_n = math.log(node.visits + 1)
            best_score = -1.0
            best_move = ""
            best_child = node
            for move, child in node.children.items():
                if child.proof is not None:  # known: its value, nothing left to explore
                    score = child.proof[0] if mine else 1.0 - child.proof[0]
                else:
                    mean = child.total / child.visits
                    if not mine:
                        mean = 1.0 - mean
                    score = mean + c * math.sqrt(log_n / child.visits)
                if score > best_score:
                    best_score, best_move, best_child = score, move, child
            state.push_legal(best_move)
            plies += 1
            node = best_child
            path.append(node)
        leaf = path[-1]
        if state.outcome is not None and leaf.proof is None:
            leaf.proof = (terminal_value(state), 0)
        if leaf.proof is not None:
            value = distance_value(leaf.proof[0], plies + leaf.proof[1])
            self._prove_up(path, sides)
        else:
            value = self._playout(state, plies)
        for visited in path:
            visited.visits += 1
            visited.total += value

    def _moves(self, state: Game, moves: list[str] | None = None) -> list[str]:
        """A node's moves (``moves``: the root's, already narrowed by ``ROOT_FILTERS``), in
        the order the search tries them: only those the game's tactics leave
        (``evaluate.MOVE_FILTERS``) where they leave no real choice, in expansion order."""
        if moves is None:
            moves = state.legal_moves()
        keep = MOVE_FILTERS.get(state.key)
        if keep is not None:
            moves = keep(state, moves) or moves
        return self._expansion_order(state, moves)

    def _expansion_order(self, state: Game, moves: list[str]) -> list[str]:
        """A node's untried ``moves`` in the order they are tried (popped from the end):
        shuffled, then where the level asks for it in the game's order (captures first)."""
        self.rng.shuffle(moves)
        order = EXPANSION_ORDERS.get(state.key) if self.level.ordered else None
        if order is not None:
            order(state, moves)
        return moves

    @staticmethod
    def _prove_up(path: list[Node], sides: list[bool | None]) -> None:
        """After the last node of ``path`` was proven, the proofs it completes above it
        (MCTS-Solver): a node whose mover has a proven win below is won, the soonest such
        win; a node whose every move is proven takes the best of them for its mover (a
        loss, the latest). A roll is never proven (its other rolls are not in the tree)."""
        for index in range(len(path) - 2, -1, -1):
            node, mine = path[index], sides[index]
            if mine is None:
                return
            best: tuple[tuple[float, int], tuple[float, int]] | None = None
            every = not node.untried and not node.partial
            for child in node.children.values():
                if child.proof is None:
                    every = False
                    continue
                result, plies = child.proof
                ours = result if mine else 1.0 - result
                rank = (ours, -plies if ours > 0.5 else plies)
                if best is None or rank > best[0]:
                    best = (rank, (result, plies + 1))
            if best is None or not (every or best[0][0] >= 1.0):
                return
            node.proof = best[1]

    def _playout(self, state: Game, plies_before: int = 0) -> float:
        """The value of ``state`` for seat 0's team after a playout (``plies_before`` plies
        from the root: a finished game counts less the later it ends, ``distance_value``)."""
        rng = self.rng
        played = plies_before
        plies = self.level.playout_for(state.key)
        opening = OPENING_STAGE.get(state.key) if state.key in self.level.through_opening else None
        tactic = PLAYOUT_TACTICS.get(state.key) if state.key in self.level.tactical else None
        while state.outcome is None and plies > 0:
            spec = state.dice_needed()
            if spec is not None:
                state.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
                continue
            moves = state.legal_moves()
            counted = opening is None or not opening(state)
            move = tactic(state, moves, rng) if tactic is not None else None
            state.push_legal(move or moves[rng.randrange(len(moves))])
            plies -= counted
            played += 1
        if state.outcome is not None:
            return distance_value(terminal_value(state), played)
        return self.level.evaluate(state)


def distinct_turns(
    finals: list[tuple[float, list[str], Game]], count: int
) -> list[tuple[float, list[str], Game]]:
    """The first ``count`` of ``finals`` (turns, best first) that end in different positions:
    the same moves in another order (S/2 S/5 and S/5 S/2) are one candidate, not two."""
    kept: dict[object, tuple[float, list[str], Game]] = {}
    for item in finals:
        if len(kept) >= count:
            break
        kept.setdefault(position_key(item[2]), item)
    return list(kept.values())


def _mover_value(node: Node, mine: bool) -> float:
    """The share of the points a root move is worth to the mover (``mine``: seat 0's team):
    its proven result where it has one, else its average."""
    if node.proof is not None:
        value = node.proof[0]
    else:
        value = node.total / node.visits if node.visits else 0.0
    return value if mine else 1.0 - value


def position_key(game: Game) -> object:
    """What tells two positions of the same turn apart (the ``turn`` policy merges the ways
    to reach the same one); every field a later move's legality reads."""
    if game.key == "chebache":
        board = game.board  # type: ignore[attr-defined]
        return (board.key(), game.stage, tuple(sorted(board.moved)), tuple(board.start))  # type: ignore[attr-defined]
    if game.key == "sachidjun":
        g: Any = game
        return (
            tuple(tuple(c) for c in g.cells),
            tuple(g.home),
            tuple(tuple(p) for p in g.prisoners),
            tuple(tuple(o) for o in g.options),
            tuple(g.used),
            tuple(g.landed),
            g.role,
        )
    return game.to_json()


def best_move(
    game: Game,
    level: str = DEFAULT_LEVEL,
    seed: int | None = None,
    iterations: int | None = None,
    seconds: float | None = None,
) -> str:
    """The move the bot plays in ``game`` (one of ``game.legal_moves()``)."""
    return Search(level, seed, iterations, seconds).choose(game).move


def bot_turn(
    saved: str, level: str = DEFAULT_LEVEL, seed: int | None = None, iterations: int | None = None
) -> list[str]:
    """The bot's whole turn in a saved game (``Game.to_json()``): a top-level function over
    plain values, for a worker process (``bot.runtime.workers``) to run off the event loop."""
    from games import load_game

    return Search(level, seed, iterations).choose_turn(load_game(saved))


def share_of(saved: str, seat: int, level: str = DEFAULT_LEVEL) -> float:
    """The share of the points ``seat``'s team may expect in a saved game, by the level's
    evaluation of the position as it stands (its result once the game is over): 0.5 is
    even. A top-level function over plain values, for a worker process."""
    from games import load_game

    game = load_game(saved)
    value = LEVELS[level].evaluate(game)
    return value if game.team_of(seat) == game.team_of(0) else 1.0 - value
