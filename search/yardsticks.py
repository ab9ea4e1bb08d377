"""Outside players: simple, well-known ways to play any game, written apart from the bot's
search and evaluation (they share nothing with ``search.mcts`` or ``search.evaluate``), so
that beating them says something about the bot.

- ``greedy``: one ply. Plays the move after which its material count is best (a win
  first), ties broken at random.
- ``flatmc``: flat Monte Carlo. Plays each legal move followed by ``PLAYOUTS`` uniformly
  random playouts of at most ``PLAYOUT_PLIES`` plies (dice rolled at random) and keeps the
  move whose playouts score best: a finished game scores its points, a cut-off one 3/4,
  1/2 or 1/4 as the material count is ahead, level or behind (a lead is not yet a win).
- ``alphabeta2``: a two-ply alpha-beta search on the material count, captures tried first
  (a ply is one move; where a roll is due the position is judged as it stands).
- ``uct``: plain UCT as the general game system Ludii ships it (``MCTS.createUCT``): UCB1
  with exploration sqrt(2) on results from -1 to 1, uniformly random playouts of at most
  200 moves (a game unfinished then is a draw), the most visited move played. It knows
  nothing of any game but its rules; where a roll is due the tree draws one (a child per
  roll drawn). It thinks ``UCT_SECONDS`` of CPU time a move: Ludii's UCT at 3 s a move,
  which issue 35 measured the bot against (Ludii itself cannot be fetched here). The one
  outside player budgeted by time, not size, as Ludii's is: its strength depends a little
  on the machine. Unlike Ludii's, it starts each move's tree afresh.

The material count is the plainest one per game (``material``): Shax pieces on the board
and in hand; Tchela counters on each side's rows; Šačidjun pieces captured; Chebache
squares travelled; Poron Jikaida and Pastang a textbook piece value each.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable
from typing import Any

from games import Game

from .fastcopy import clone

PLAYOUTS = 50
PLAYOUT_PLIES = 40
WIN = 1_000.0  # the material count of a won game (no count reaches it)

# Poron Jikaida's pieces by kind (games.jikaida_pieces: King 1, Pallan 2, Kapt 3, Chuktar
# 4, Jiktar 5, Hikdar 6, Paktun 7, Deldar 8, Swod 9), valued as a player would guess from
# their moves: long-range pieces most, the Swod 1. The King is priceless: taking it ends
# the game.
JIKAIDA_VALUES = {1: 0.0, 2: 9.0, 3: 7.0, 4: 6.0, 5: 4.0, 6: 3.0, 7: 3.0, 8: 2.0, 9: 1.0}


def _shax(game: Any, side: int) -> float:
    return game.count(side) + game.in_hand[side]


def _tchela(game: Any, side: int) -> float:
    return game.on_board(side)


def _sachidjun(game: Any, side: int) -> float:
    return -game.captured_of(side)


def _chebache(game: Any, side: int) -> float:
    board = game.board
    return sum(board.pos[p] for p in range(len(board.pos)) if board.owner[p] == side)


def _jikaida(game: Any, side: int) -> float:
    return sum(JIKAIDA_VALUES.get(v & 15, 1.0) for v in game.board if v and v >> 4 == side)


COUNTS: dict[str, Callable[[Any, int], float]] = {
    "shax": _shax,
    "tchela": _tchela,
    "sachidjun": _sachidjun,
    "chebache": _chebache,
    "jikaida": _jikaida,
}


def material(game: Game, team: int) -> float:
    """``team``'s material count less its opponents' (``±WIN`` once the game is won; 0 for
    a draw)."""
    if game.outcome is not None:
        winners = {game.team_of(s) for s in game.outcome.winners}
        if not winners or len(winners) > 1:
            return 0.0
        return WIN if team in winners else -WIN
    count = COUNTS[game.key]
    sides = {game.team_of(s) for s in range(game.seats)}
    return sum(count(game, side) if side == team else -count(game, side) for side in sides)


def _team_to_move(game: Game) -> int:
    seat = game.to_move
    assert seat is not None
    return game.team_of(seat)


def _after(game: Game, move: str) -> Game:
    child = clone(game, keep_log=False)
    child.push_legal(move)
    return child


def _best(scored: list[tuple[float, str]], rng: random.Random) -> str:
    top = max(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score == top])


# ---- greedy ----------------------------------------------------------------------------


def greedy(game: Game, rng: random.Random) -> str:
    team = _team_to_move(game)
    return _best([(material(_after(game, m), team), m) for m in game.legal_moves()], rng)


# ---- flat Monte Carlo ------------------------------------------------------------------


def _play_randomly(game: Game, rng: random.Random, plies: int) -> None:
    """Uniformly random moves (dice rolled at random) for at most ``plies`` plies, or to
    the game's end."""
    for _ in range(plies):
        if game.is_over:
            break
        spec = game.dice_needed()
        if spec is not None:
            game.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        game.push_legal(rng.choice(game.legal_moves()))


def _playout(game: Game, team: int, rng: random.Random, plies: int) -> float:
    _play_randomly(game, rng, plies)
    if game.outcome is not None:
        return _points(game, team)
    lead = material(game, team)
    return 0.75 if lead > 0 else 0.25 if lead < 0 else 0.5


def _points(game: Game, team: int) -> float:
    """``team``'s share of a finished game's points (1/2 when nobody scored)."""
    assert game.outcome is not None
    score = game.outcome.score
    ours = max(score[s] for s in range(game.seats) if game.team_of(s) == team)
    theirs = max(score[s] for s in range(game.seats) if game.team_of(s) != team)
    return ours / (ours + theirs) if ours + theirs else 0.5


def flat_monte_carlo(
    game: Game, rng: random.Random, playouts: int = PLAYOUTS, plies: int = PLAYOUT_PLIES
) -> str:
    team = _team_to_move(game)
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    scored = []
    for move in moves:
        child = _after(game, move)
        total = sum(_playout(clone(child, False), team, rng, plies) for _ in range(playouts))
        scored.append((total, move))
    return _best(scored, rng)


# ---- two-ply alpha-beta ----------------------------------------------------------------


_JIKAIDA_CAPTURE = re.compile(r"x([a-l])(\d+)")


def _jikaida_victim(game: Any, move: str) -> float:
    """The value of the enemy piece a Poron Jikaida move takes (0 for none; below 0 for a
    Pallan taking a friendly piece)."""
    found = _JIKAIDA_CAPTURE.search(move)
    if found is None:
        return 0.0
    piece = game.board[game.geo.sq("abcdefghijkl".index(found[1]), int(found[2]) - 1)]
    value = JIKAIDA_VALUES.get(piece & 15, 1.0)
    return value if piece >> 4 != game.turn else -value


def _captures_first(game: Game, moves: list[str], rng: random.Random) -> list[str]:
    """The moves in random order, captures first (an ``x`` in the canonical move; in Poron
    Jikaida the most valuable enemy piece first, and a Pallan's taking of a friendly piece
    last)."""
    shuffled = rng.sample(moves, len(moves))
    if game.key == "jikaida":
        return sorted(shuffled, key=lambda move: -_jikaida_victim(game, move))
    return sorted(shuffled, key=lambda move: "x" not in move)


def _alphabeta(
    game: Game, team: int, depth: int, alpha: float, beta: float, rng: random.Random
) -> float:
    if depth == 0 or game.is_over or game.dice_needed() is not None:
        return material(game, team)
    maximising = _team_to_move(game) == team
    value = -2 * WIN if maximising else 2 * WIN
    for move in _captures_first(game, game.legal_moves(), rng):
        score = _alphabeta(_after(game, move), team, depth - 1, alpha, beta, rng)
        if maximising:
            value = max(value, score)
            alpha = max(alpha, value)
        else:
            value = min(value, score)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def alphabeta(game: Game, rng: random.Random, depth: int = 2) -> str:
    """The first of the best moves in a random order, captures first: a later move only
    as good as the best so far is cut off, so ties go to the earlier one."""
    team = _team_to_move(game)
    moves = _captures_first(game, game.legal_moves(), rng)
    best, alpha = moves[0], -2 * WIN
    for move in moves:
        score = _alphabeta(_after(game, move), team, depth - 1, alpha, 2 * WIN, rng)
        if score > alpha:
            best, alpha = move, score
    return best


# ---- UCT, as Ludii plays it ------------------------------------------------------------

UCT_EXPLORATION = math.sqrt(2)
UCT_PLAYOUT_PLIES = 200
UCT_SECONDS = 3.0
UCT_CHECK_EVERY = 16  # iterations between looks at the clock


class _UctNode:
    """A position in the tree: visits and, for each team, its summed results (-1 to 1)."""

    __slots__ = ("untried", "children", "visits", "totals")

    def __init__(self) -> None:
        self.untried: list[str] | None = None
        self.children: dict[object, _UctNode] = {}
        self.visits = 0
        self.totals: dict[int, float] = {}


def _results(game: Game) -> dict[int, float]:
    """Each team's result from -1 to 1: a finished game by its share of the points, an
    unfinished one a draw (0), as Ludii scores a playout cut off at its limit."""
    teams = {game.team_of(s) for s in range(game.seats)}
    if game.outcome is None:
        return dict.fromkeys(teams, 0.0)
    return {team: 2 * _points(game, team) - 1 for team in teams}


def _uct_child(node: _UctNode, team: int, rng: random.Random) -> str:
    log_visits = math.log(node.visits)

    def ucb1(move: str) -> float:
        child = node.children[move]
        mean = child.totals.get(team, 0.0) / child.visits
        return mean + UCT_EXPLORATION * math.sqrt(log_visits / child.visits)

    scored = [(ucb1(move), move) for move in node.children]
    top = max(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score == top])


def _uct_iteration(root: _UctNode, state: Game, rng: random.Random) -> None:
    path = [root]
    node = root
    while not state.is_over:
        spec = state.dice_needed()
        if spec is not None:  # a chance node: a roll drawn, its own child
            dice = tuple(rng.randint(1, spec.sides) for _ in range(spec.count))
            state.roll(list(dice))
            node = node.children.setdefault(dice, _UctNode())
            path.append(node)
            continue
        if node.untried is None:
            node.untried = state.legal_moves()
            rng.shuffle(node.untried)
        if node.untried:  # expand one untried move, then play out
            move = node.untried.pop()
            state.push_legal(move)
            node.children[move] = node = _UctNode()
            path.append(node)
            break
        move = _uct_child(node, _team_to_move(state), rng)
        state.push_legal(move)
        node = node.children[move]
        path.append(node)
    _play_randomly(state, rng, UCT_PLAYOUT_PLIES)
    results = _results(state)
    for visited in path:
        visited.visits += 1
        for team, result in results.items():
            visited.totals[team] = visited.totals.get(team, 0.0) + result


def uct(
    game: Game, rng: random.Random, seconds: float = UCT_SECONDS, iterations: int | None = None
) -> str:
    """The most visited move (ties to the better mean) after ``seconds`` of this process's
    CPU time of UCT, or after ``iterations`` where given."""
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    team = _team_to_move(game)
    root = _UctNode()
    deadline = time.process_time() + seconds

    def thinking() -> bool:
        if iterations is not None:
            return root.visits < iterations
        return time.process_time() < deadline

    while thinking():
        for _ in range(1 if iterations is not None else UCT_CHECK_EVERY):
            _uct_iteration(root, clone(game, keep_log=False), rng)

    def robustness(move: str) -> tuple[int, float]:
        child = root.children[move]
        return child.visits, child.totals.get(team, 0.0) / child.visits

    return max(moves, key=lambda move: robustness(move) if move in root.children else (0, 0.0))


YARDSTICKS: dict[str, Callable[[Game, random.Random], str]] = {
    "greedy": greedy,
    "flatmc": flat_monte_carlo,
    "alphabeta2": alphabeta,
    "uct": uct,
}
