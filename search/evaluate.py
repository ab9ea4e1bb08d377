"""Per-game evaluation of positions, for playouts cut off before the game ends (and the
per-game hints a level's playouts may take: tactics, an opening stage to play out).

``evaluate(game, strong)`` is the expected share of the points for the team of seat 0,
between 0 and 1, read from public engine state only. Each game's function returns a margin
in "pieces" for seat 0's team (positive is good) that a logistic squashes; ``strong``
(0, 1 or 2; ``True`` is 1) adds the finer terms (threats, safety, structure) the ``easy``
level (0) goes without, and at 2 (``normal`` and ``hard``) those that look a move deeper
where a game has them (Poron Jikaida: the captures the mover can make and the answers they allow).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from games import Game
from games.chebache import CROSS_NUMBER, FINISH, KINGS, PATHS, START, TIVITS
from games.jikaida import BLUE, YELLOW, K, S
from games.sachidjun import ENTRY, IS_SAKE, PASS_LIMIT, RING, TAMEG, VERADI
from games.shax import ADJACENT, MILLS, MILLS_THROUGH

from . import learnt
from .jikaida_tactics import PASTANG_VALUES, VALUES, safe_moves

# ---- Shax ----------------------------------------------------------------------------


# Each point of each line, as (point, the line's other two points, the point's neighbours
# off that line): what ``_shax_holes`` looks at, laid out once.
_SHAX_THIRD_POINTS = tuple(
    (hole, tuple(p for p in line if p != hole), tuple(q for q in ADJACENT[hole] if q not in line))
    for line in MILLS
    for hole in line
)


# For each point, the other two points of every line through it.
_SHAX_PARTNERS = {
    point: tuple(tuple(q for q in line if q != point) for line in lines)
    for point, lines in MILLS_THROUGH.items()
}


def _shax_holes(board: dict[str, int], seat: int) -> set[str]:
    """Empty points where a step of a ``seat`` piece makes a mill next move: the third
    point of a line of two ``seat`` pieces, with a third ``seat`` piece (off that line)
    next to it."""
    get = board.get
    return {
        hole
        for hole, (a, b), feeders in _SHAX_THIRD_POINTS
        if get(a) == seat
        and get(b) == seat
        and hole not in board
        and any(get(q) == seat for q in feeders)
    }


def _shax_running_mills(board: dict[str, int], seat: int) -> set[str]:
    """Empty points a ``seat`` piece standing in a mill can step onto to make another mill:
    a running mill, which takes a piece every other move (out into the second mill and
    back into the first), unless the opponent steps into the point first."""
    points = set()
    for origin, owner in board.items():
        if owner != seat or not _shax_in_mill(board, seat, origin):
            continue
        for target in ADJACENT[origin]:
            if target not in board and _shax_step_mills(board, seat, origin, target):
                points.add(target)
    return points


def _shax_in_mill(board: dict[str, int], seat: int, point: str) -> bool:
    get = board.get
    return get(point) == seat and any(
        get(a) == seat and get(b) == seat for a, b in _SHAX_PARTNERS[point]
    )


# Strong Shax terms, in pieces. The mover's own mill next move is most of a piece (its
# removal is 0.9): it can play it now. The other side's threats are less: the mover may
# step into the point first, or strike first. A running mill that the other side cannot
# step into takes a piece every other move.
SHAX_THREAT_NOW = 0.7
SHAX_THREAT_NEXT = 0.3
SHAX_RUNNING = 1.5


def _shax_movement_terms(game: Any, seat: int) -> float:
    """``seat``'s mill threats and running mills, in pieces (see ``SHAX_THREAT_NOW``)."""
    board = game.board
    opponent = 1 - seat
    # The side that steps next: the nominal player in movement, the other after a removal.
    moving = (game.nominal == seat) == (game.stage == "movement")
    holes = _shax_holes(board, seat)
    value = (SHAX_THREAT_NOW if holes else 0.0) if moving else SHAX_THREAT_NEXT * len(holes)
    for point in _shax_running_mills(board, seat):
        blockable = not moving and any(board.get(q) == opponent for q in ADJACENT[point])
        if not blockable:
            value += SHAX_RUNNING
    return value


def _shax(game: Any, strong: bool) -> float:
    material = (game.count(0) + game.in_hand[0]) - (game.count(1) + game.in_hand[1])
    margin = 1.0 * material
    if game.stage == "placement" and game.first_mill is not None:
        margin += 0.8 if game.first_mill == 0 else -0.8
    if game.stage == "removal":  # the remover is about to take a piece
        margin += 0.9 if game.nominal == 0 else -0.9
    if strong and game.stage != "placement":
        margin += _shax_movement_terms(game, 0) - _shax_movement_terms(game, 1)
        mobility = len(game.steps(0)) - len(game.steps(1))
        margin += 0.05 * mobility
    return margin * 0.8


def _shax_first_mill_points(board: dict[str, int], mover: int) -> tuple[list[str], list[str]]:
    """In placement: the points where ``mover`` completes a line of its own (wins the first
    mill) and those where it blocks a line of two of the opponent's."""
    wins, blocks = [], []
    for line in MILLS:
        empty = [p for p in line if p not in board]
        if len(empty) != 1:
            continue
        owners = {board[p] for p in line if p in board}
        if owners == {mover}:
            wins.append(empty[0])
        elif len(owners) == 1:
            blocks.append(empty[0])
    return wins, blocks


def _shax_forced(game: Any, moves: list[str]) -> list[str]:
    """The moves Shax's placement leaves before the first mill (whose maker removes first
    and moves first, Black when nobody makes one: it decides the game, see ``_shax_tactics``):
    complete a line of one's own if one can, else block every opponent line of two with its
    third point empty (placing e3 and letting the opponent make the first mill lost a game
    to flat Monte Carlo). An empty list where there is a real choice."""
    if game.stage != "placement" or game.first_mill is not None:
        return []
    wins, blocks = _shax_first_mill_points(game.board, game.to_move)
    return sorted(set(wins or blocks))


def _shax_tactics(game: Any, moves: list[str], rng: Any) -> str | None:
    """A playout's move where Shax's tactics leave no real choice, else None (a random
    move). In placement before the first mill (whose maker removes first, Black when
    nobody makes one; the first to remove won 15 of 16 traced games between hard and
    normal): complete a line of two with its third point empty, else block the opponent's.
    In movement: a step that makes a mill, else one into the point where the opponent
    would make one. Random playouts did neither, so the first-mill race looked like a coin
    toss, and a running mill went on unanswered."""
    board, mover = game.board, game.to_move
    if game.stage == "placement":
        chosen = _shax_forced(game, moves)
        return chosen[rng.randrange(len(chosen))] if chosen else None
    if game.stage == "movement" and mover == game.nominal:
        steps = [move.split("-") for move in moves]
        mills = [f"{a}-{b}" for a, b in steps if _shax_step_mills(board, mover, a, b)]
        if mills:
            return mills[rng.randrange(len(mills))]
        holes = _shax_holes(board, 1 - mover)
        blocks = [f"{a}-{b}" for a, b in steps if b in holes]
        return blocks[rng.randrange(len(blocks))] if blocks else None
    return None


def _shax_step_mills(board: dict[str, int], seat: int, origin: str, target: str) -> bool:
    """Whether ``seat``'s step from ``origin`` to ``target`` makes a mill (on a line
    through ``target`` that ``origin`` is not on)."""
    get = board.get
    return any(
        a != origin and b != origin and get(a) == seat and get(b) == seat
        for a, b in _SHAX_PARTNERS[target]
    )


# ---- Tchela --------------------------------------------------------------------------


def _tchela(game: Any, strong: bool) -> float:
    mine, theirs = game.on_board(0), game.on_board(1)
    margin = (mine - theirs) / 2.0
    if strong:
        # Tempo: the side to move can take its best capture now, the other side only
        # threatens one (the mover may move the target or strike first).
        mover = game.turn
        sign = 1 if mover == 0 else -1
        margin += sign * (0.4 * game.best_capture(mover))
        margin -= sign * (0.15 * game.best_capture(1 - mover))
        # Counters in a store are safe.
        holes = game.layout.holes
        margin += 0.1 * (sum(game.sides[0][holes:]) - sum(game.sides[1][holes:]))
    return margin * 0.6


# ---- dice: how many rolls reach a target -------------------------------------------


def _doubles(d: int, three: bool) -> tuple[int, ...]:
    return (d, 2 * d, 4 * d) + ((3 * d,) if three else ())


def _reach_masks(sides: int, three: bool) -> tuple[int, ...]:
    """Per roll of two ``sides``-sided dice (all ``sides**2`` ordered outcomes): a bitmask of
    the distances one piece can cover with it. Not doubles: a, b, a+b. Doubles d: d, 2d, 4d,
    and 3d where the game lets one piece take three of the four moves (Chebache; Šačidjun
    offers no 3d to one piece)."""
    masks = []
    for a in range(1, sides + 1):
        for b in range(1, sides + 1):
            reach = (a, b, a + b) if a != b else _doubles(a, three)
            mask = 0
            for d in reach:
                mask |= 1 << d
            masks.append(mask)
    return tuple(masks)


CHEBACHE_MASKS = _reach_masks(6, True)
SACHIDJUN_MASKS = _reach_masks(8, False)
_HITS: dict[tuple[int, int], float] = {}


def hit_chance(distances: int, masks: tuple[int, ...]) -> float:
    """The share of the rolls (``masks`` from ``_reach_masks``) with which some piece covers
    one of ``distances`` (a bitmask) exactly: the chance that a target is reached."""
    key = (distances, len(masks))
    found = _HITS.get(key)
    if found is None:
        found = _HITS[key] = sum(1 for m in masks if m & distances) / len(masks)
    return found


# ---- Šačidjun ------------------------------------------------------------------------

# The finer evaluation (every level's in the dice games) weighs captures, and the expected
# captures of each side's next two sub-turns against the other's lone pieces, counted by
# the 2d8 rolls that reach them (``SACHIDJUN_FEATURES``).


def _sachidjun_walls(game: Any, side: int) -> list[int]:
    """Per cell, what ``side``'s pieces there are to the other side's moves: 2 a held šake
    (four or more: "the other side may neither land on it nor pass it"), 1 a held čika
    (two or more), 0 nothing."""
    counts = [c[side] + c[side + 2] for c in game.cells]
    return [
        (2 if n >= 4 else 0) if sake else (1 if n >= 2 else 0)
        for n, sake in zip(counts, IS_SAKE, strict=True)
    ]


def _sachidjun_reach(walls: list[int], role: int, origin: int, longest: int) -> int:
    """How far (at most ``longest``) a single move of ``role`` from ``origin`` (for a piece
    in the mora, the cell before its entry corner) may go by the cells it passes: never past
    a held šake, and past held čike at most ``PASS_LIMIT`` in a row ("raža may not pass two
    held čike in a row; čadra may pass two but not three"; a corner breaks the row), as
    ``games.sachidjun.step_move`` plays it. A move may land where it stops passing."""
    step = 1 if role < 2 else -1
    limit = PASS_LIMIT[role // 2]
    run = 0
    for distance in range(1, longest):
        wall = walls[(origin + step * distance) % RING]
        run = run + 1 if wall == 1 else 0
        if wall == 2 or run > limit:
            return distance
    return longest


def _sachidjun_exposure(game: Any, side: int, roles: tuple[int, ...]) -> list[float]:
    """For each of ``roles`` (roles of the other side, in the order they move next): the
    expected number of ``side``'s lone pieces it captures with its next roll (pieces
    reaching them exactly from the ring or entering from the mora, by a single move that
    may pass ``side``'s held cells on the way)."""
    cells = game.cells
    targets = []
    for cell in range(RING):
        c = cells[cell]
        mine = c[side] + c[side + 2]
        if mine == 1 and c[1 - side] + c[3 - side] == 0:
            targets.append(cell)
    if not targets:
        return [0.0] * len(roles)
    walls = _sachidjun_walls(game, side)
    found = []
    for role in roles:
        step = 1 if role < 2 else -1
        origins = [cell for cell in range(RING) if cells[cell][role]]
        if game.home[role]:  # a move from the mora counts its entry corner as its first step
            origins.append(ENTRY[role] - step)
        distances = [0] * len(targets)  # per target, a bitmask of the distances that reach it
        for origin in origins:
            away = [(target - origin) * step % RING for target in targets]
            longest = max((d for d in away if d <= 32), default=0)
            if not longest:
                continue
            farthest = _sachidjun_reach(walls, role, origin, longest)
            for index, d in enumerate(away):
                if 0 < d <= farthest:
                    distances[index] |= 1 << d
        found.append(sum(hit_chance(mask, SACHIDJUN_MASKS) for mask in distances if mask))
    return found


def _in_play(game: Any, role: int) -> bool:
    """Whether ``role`` has a piece that may yet move: in its mora or on the ring."""
    return bool(game.home[role]) or any(cell[role] for cell in game.cells)


def _sachidjun_feature_values(game: Any) -> tuple[float, ...]:
    """``SACHIDJUN_FEATURES`` for seat 0's team (see there)."""
    team = game.team_of(0)
    other = 1 - team
    cells = game.cells
    # The roles to move, in order, from the next roll on (a sub-turn already rolled is
    # judged as it stands), over two rounds. A role with no piece left on the ring or in
    # its mora passes every roll ("if nothing can be played, the sub-turn passes"), so it
    # is left out: the next threats come from the roles after it (its side's other
    # colour, or the same role a round on).
    first = 0 if game.dice is None else 1
    order = [(game.role + k) % 4 for k in range(first, first + 8)]
    live = [_in_play(game, role) for role in range(4)]
    following = [role for role in order if live[role]] or order
    mover = following[0] % 2
    tempo = 1.0 if mover == team else -1.0
    exposed = {}
    for side in (VERADI, TAMEG):
        against = tuple(r for r in following if r % 2 != side)[:2]
        exposed[side] = _sachidjun_exposure(game, side, against)
    gates = [0, 0]
    held = [0, 0]
    lone = [0, 0]
    for side in (VERADI, TAMEG):
        for gate in (ENTRY[1 - side], ENTRY[3 - side]):
            gates[side] += game.side_count(gate, side) >= 4
        for cell in range(RING):
            n = cells[cell][side] + cells[cell][side + 2]
            held[side] += n >= 2 and not IS_SAKE[cell]
            lone[side] += n == 1
    home = [game.home[side] + game.home[side + 2] for side in (VERADI, TAMEG)]
    return (
        game.captured_of(other) - game.captured_of(team),
        tempo * exposed[1 - mover][0],
        tempo * exposed[1 - mover][1],
        tempo * exposed[mover][0],
        tempo * exposed[mover][1],
        gates[team] - gates[other],
        tempo,
        held[team] - held[other],
        lone[team] - lone[other],
        home[team] - home[other],
    )


# Šačidjun's terms for seat 0's team, in the margin's order: pieces captured (ours less
# theirs: no redemption is ever offered by the bot); the side rolling next's expected
# captures of lone pieces in its coming sub-turn and in the one after (``strike``), and
# the same against its own lone pieces in the other side's next two sub-turns
# (``exposed``), all signed for the roller (+ where it is seat 0's team); the gate šake held
# by four or more (the shut-in win's half); which side rolls next; held čike, cells with a
# lone piece, pieces waiting in the mora.
SACHIDJUN_FEATURES = (
    "captured",
    "strike_next",
    "strike_later",
    "exposed_next",
    "exposed_later",
    "gates",
    "tempo",
    "held",
    "lone",
    "home",
)
# The hand-set weights (margin units, before the logistic): a piece 0.5; the next opponent
# sub-turn's expected captures 0.5 and the one after's 0.25 (each side's lone pieces alike);
# a gate held 0.2; the rest 0.
SACHIDJUN_HAND = (0.5, 0.5, 0.25, -0.5, -0.25, 0.2, 0.0, 0.0, 0.0, 0.0)


def _sachidjun(game: Any, strong: bool) -> float:
    """The plain evaluation (``easy``'s UCT, unused since easy plays turns): pieces
    captured. The finer ones are weighted (``WEIGHTED``)."""
    return 0.5 * (game.captured_of(1 - game.team_of(0)) - game.captured_of(game.team_of(0)))


# ---- Chebache ------------------------------------------------------------------------

CHEBACHE_PIPS_PER_ROLL = 8.17  # 2d6 with doubles played four times
CHEBACHE_ROLL_SD = 4.3  # its standard deviation
CHEBACHE_STANDING = 2.0  # pips per standing Chebache (a square denied to the opponent)
# Pips per piece (the King included) waiting in Start once one of the side's pieces is in
# Finish: until Start is empty no other piece may move or jump, so threatened pieces cannot
# escape and the turns go to entering (games where normal ran its King home early and then
# lost piece after piece under Chebaches it could not leave).
CHEBACHE_START_FIRST = 4.0


def _chebache_attackers(board: Any, seat: int) -> tuple[list[int], list[int]]:
    """Path positions ``seat`` can move a piece from now (stack tops, Start), split into
    ordinary pieces and Kings (which may also move backward)."""
    plain, kings = [], []
    pos = board.pos
    for stack in board.stacks.values():
        top = stack[-1]
        if board.owner[top] == seat:
            (kings if top in KINGS else plain).append(pos[top])
    for piece in board.mine(seat):
        if pos[piece] == 0:
            (kings if piece in KINGS else plain).append(0)
    return plain, kings


def _chebache_hit_chance(board: Any, attacker: int, target: int, need: int) -> float:
    """The chance that ``attacker``, on roll, lands enough weight on the intersection that is
    its path space ``target`` (one piece for a single piece, only a King for two)."""
    plain, kings = _chebache_attackers(board, attacker)
    distances = 0
    for here, king in [(p, False) for p in plain] + [(p, True) for p in kings]:
        if need > 1 and not king:
            continue
        d = target - here
        if 0 < d <= 24:
            distances |= 1 << d
        if here and (king or here in TIVITS) and 0 < here - target <= 24:
            distances |= 1 << (here - target)
    return hit_chance(distances, CHEBACHE_MASKS) if distances else 0.0


def _chebache_equity(game: Any, seat: int, on_roll: int | None) -> tuple[float, float]:
    """``seat``'s expected pips still to go (all its pieces, a King it holds included; a
    piece waiting in Start counts more once one is in Finish), and what it may lose: pieces
    left alone on an intersection the opponent can hit (their pips
    back to Start, weighted by the rolls that hit; less when ``seat`` moves first), and
    pieces standing under an opponent Chebache (sent back unless they escape)."""
    board = game.board
    pos = board.pos
    mine = board.mine(seat)
    togo = sum(FINISH - pos[p] for p in mine)
    # Start-first: what each piece still in Start costs once a piece is home, and what a
    # piece hit then costs on top of its pips.
    late = CHEBACHE_START_FIRST if any(pos[p] == FINISH for p in mine) else 0.0
    togo += late * sum(1 for p in mine if pos[p] == START)
    risk = 0.0
    opponent = 1 - seat
    exposure = 0.25 if on_roll == seat else 1.0
    for space, stack in board.stacks.items():
        if board.owner[stack[0]] != seat or any(board.owner[p] != seat for p in stack):
            continue
        if len(space) == 4:  # an intersection
            need = sum(2 if p in KINGS else 1 for p in stack)
            if need > 2 or (need == 2 and any(p in KINGS for p in stack)):
                continue
            chance = _chebache_hit_chance(board, opponent, CROSS_NUMBER[opponent][space], need)
            risk += exposure * chance * sum(pos[p] + late for p in stack)
    guarded = board.controlled_against(seat)
    if guarded and on_roll == seat:
        for p in board.mine(seat):
            if 0 < pos[p] < FINISH and PATHS[seat][pos[p]] in guarded:
                risk += 0.5 * (pos[p] + (60.0 if p in KINGS else 0.0))
    return togo, risk


def _chebache_feature_values(game: Any) -> tuple[float, ...]:
    """``CHEBACHE_FEATURES`` for White (seat 0; see there)."""
    board = game.board
    on_roll = game.to_move
    white_togo, white_risk = _chebache_equity(game, 0, on_roll)
    black_togo, black_risk = _chebache_equity(game, 1, on_roll)
    # The race's noise: the standard deviation of the rolls the two sides still need.
    rolls = max(2.0, (white_togo + white_risk + black_togo + black_risk) / CHEBACHE_PIPS_PER_ROLL)
    spread = CHEBACHE_ROLL_SD * math.sqrt(rolls)
    # half a roll to the side moving (its roll is already counted in the position when it
    # has begun playing it)
    moving = 0.0
    if on_roll is not None and game.stage == "roll":
        moving = (0.5 if on_roll == 0 else -0.5) * CHEBACHE_PIPS_PER_ROLL
    standing = len(board.chebaches(0)) - len(board.chebaches(1))
    return (
        (black_togo - white_togo) / spread,
        (black_risk - white_risk) / spread,
        moving / spread,
        standing / spread,
        (black_togo - white_togo) / 100.0,
    )


# Chebache's terms for White (seat 0), each but the last in standard deviations of the
# race still to run: the pips to go (Black's less White's), what each side may lose to hits
# and Chebaches, half a roll to the side on roll, standing Chebaches; the pip lead in
# hundreds of pips (unscaled).
CHEBACHE_FEATURES = ("pips", "risk", "on_roll", "standing", "pips_raw")
# The hand-set weights: 1.7 per standard deviation; a standing Chebache 2 pips (3.4).
CHEBACHE_HAND = (1.7, 1.7, 1.7, 1.7 * CHEBACHE_STANDING, 0.0)


def _chebache(game: Any, strong: bool) -> float:
    """The plain evaluation (squares travelled); the finer one is weighted (``WEIGHTED``)."""
    board = game.board
    progress = [0, 0]
    for piece in range(26):
        progress[board.owner[piece]] += board.pos[piece]
    return (progress[0] - progress[1]) / 12.0 * 0.35


# ---- Poron Jikaida and Pastang -------------------------------------------------------


# The Poron Jikaida terms of strong 2 (normal, hard): the share of the mover's best
# capture counted now, and of the capture its opponent threatens
EXCHANGE_NOW = 0.7
EXCHANGE_NEXT = 0.2


# A twentieth of a Swod for each King step a piece stands nearer the enemy King.
KING_TROPISM = 0.05


def _king_tropism(game: Any) -> float:
    """Yellow's pieces' nearness to the Blue King less Blue's to the Yellow King: per
    piece other than a King or a Swod, 17 (the most King steps apart two squares are)
    less its King-step distance to the enemy King.
    With no capture in reach a move deeper, this and the Swods' ranks are what bring the
    pieces forward."""
    board, n, dist, far = game.board, game.geo.n, game.geo.dist, game.geo.h - 1
    kings = (game.king_square(YELLOW), game.king_square(BLUE))
    near = 0
    for s, v in enumerate(board):
        kind = v & 15
        if not v or kind in (K, S):
            continue
        enemy_king = kings[1 - (v >> 4)]
        if enemy_king is not None:
            near += (far - dist[s * n + enemy_king]) * (1 if v >> 4 == YELLOW else -1)
    return near


# Three tenths of a Swod for each King step nearer a last few enemy pieces (``_hunt``).
HUNT = 0.3
HUNT_TARGETS = 3


def _hunted(counts: list[int], side: int) -> bool:
    """Whether ``side``, with ``counts[s]`` pieces besides each side's King, is being hunted:
    at most ``HUNT_TARGETS`` of them, and fewer than its opponent has."""
    return counts[side] <= HUNT_TARGETS and counts[side] < counts[1 - side]


def _hunt(game: Any) -> float:
    """For a side left with at most ``HUNT_TARGETS`` pieces besides its King, fewer than
    its opponent has (taking them all wins by Nikaida), the opponent's nearness to each:
    17 less the King-step distance from the nearest of the opponent's pieces other than
    its King, and 17 for each piece already taken below ``HUNT_TARGETS``. Yellow's hunt
    less Blue's.

    A piece taken counts as reached (distance 0), so that taking one is always worth more
    than standing next to it: counted as gone, the nearness to the last Swod outweighed the
    Swod itself, and normal's Hikdar followed a lone Swod down the board without taking
    it until it promoted to a Pallan and mated normal's King."""
    board, n, dist, far = game.board, game.geo.n, game.geo.dist, game.geo.h - 1
    pieces: tuple[list[int], list[int]] = ([], [])
    for s, v in enumerate(board):
        if v and v & 15 != K:
            pieces[v >> 4].append(s)
    counts = [len(pieces[YELLOW]), len(pieces[BLUE])]
    near = 0
    for hunter, sign in ((YELLOW, 1), (BLUE, -1)):
        targets, hunters = pieces[1 - hunter], pieces[hunter]
        if not _hunted(counts, 1 - hunter):
            continue
        reached = far * (HUNT_TARGETS - len(targets))
        for t in targets:
            reached += far - min(dist[h * n + t] for h in hunters)
        near += sign * reached
    return near


def _exchange(game: Any, side: int, values: dict[int, float]) -> float:
    """The most ``side`` wins with one capture now: the piece taken, less the capturer
    where the other side could take back on that square (a King never steps into that)."""
    board = game.board
    best = 0.0
    for s, t, answered in game.captures(side):
        attacker = board[s] & 15
        if answered and attacker == K:
            continue
        gain = values.get(board[t] & 15, 1.0)
        if answered:
            gain -= values.get(attacker, 1.0)
        best = max(best, gain)
    return best


def _jikaida(game: Any, strong: int) -> float:
    values = PASTANG_VALUES if game.pastang else VALUES
    material = [0.0, 0.0]
    others = [0, 0]  # pieces besides the King
    for v in game.board:
        if v:
            material[v >> 4] += values.get(v & 15, 1.0)
            others[v >> 4] += v & 15 != K
    margin = material[YELLOW] - material[BLUE]
    if strong:
        # Swods on their way to promotion on the last rank (to a Pallan, 11 more than a
        # Swod; in Pastang to a Deldar, 2 more): a tenth of a Swod per rank gained.
        rank, last = game.geo.rank, game.geo.h - 1
        for s, v in enumerate(game.board):
            if v & 15 == S:
                margin += 0.1 * rank[s] if v >> 4 == YELLOW else -0.1 * (last - rank[s])
    if not game.pastang and strong:
        # King safety: a King in Kaida, and the friendly pieces around each King.
        neighbours = game.geo.king
        for side, sign in ((YELLOW, 1), (BLUE, -1)):
            k = game.king_square(side)
            if k is None:
                continue
            guards = sum(1 for t in neighbours[k] if game.board[t] and game.board[t] >> 4 == side)
            margin += sign * 0.3 * min(guards, 4)
        margin += KING_TROPISM * _king_tropism(game) + HUNT * _hunt(game)
        # Not for a side being hunted (see ``_hunt``): checking its King over and over
        # kept normal from going after its last pieces.
        hunted = _hunted(others, game.turn)
        if game.outcome is None and not hunted and game.in_kaida(game.turn):
            margin += -1.5 if game.turn == YELLOW else 1.5
    if strong >= 2 and not game.pastang and game.outcome is None:
        # normal and hard: the capture the mover can make now, net of the answer it allows,
        # and (less) the one its opponent threatens (the mover may move the piece away or
        # strike first).
        # Not in Pastang: there a level with it lost 0-1-4 to one without it (same size).
        mover = game.turn
        sign = 1 if mover == YELLOW else -1
        margin += sign * EXCHANGE_NOW * _exchange(game, mover, values)
        margin -= sign * EXCHANGE_NEXT * _exchange(game, 1 - mover, values)
    return margin * (0.25 if game.pastang else 0.12)


def _jikaida_capture_order(game: Any, moves: list[str]) -> None:
    """Captures last (``untried`` is popped from its end), the most valuable victim last
    of all; the other moves keep their (shuffled) order."""
    values = PASTANG_VALUES if game.pastang else VALUES
    board, parse = game.board, game.geo.parse

    def victim(move: str) -> float:
        if "x" not in move:
            return -1.0
        target = parse(move.split("x", 1)[1].split("=", 1)[0])
        v = board[target] if target is not None else 0
        if not v or v >> 4 == game.turn:  # a Pallan taking a friendly piece
            return -0.5
        return values.get(v & 15, 1.0)

    moves.sort(key=victim)


# Games whose search expands captures first (per node, a stable sort of the shuffled moves).
EXPANSION_ORDERS: dict[str, Callable[[Any, list[str]], None]] = {
    "jikaida": _jikaida_capture_order,
}


# Games whose search considers only some of the root's legal moves (at every level): Poron
# Jikaida and Pastang drop the moves that lose material to a simple exchange
# (``jikaida_tactics.safe_moves``).
ROOT_FILTERS: dict[str, Callable[[Any, list[str]], list[str]]] = {
    "jikaida": safe_moves,
}


# Games with an opening stage whose end the evaluation cannot see coming (Shax's placement:
# until the board is full nothing but the first mill is known), per game a test of whether
# a position is in it.
OPENING_STAGE: dict[str, Callable[[Any], bool]] = {
    "shax": lambda game: game.stage == "placement",
}


# Games where a node's moves are only those the game's tactics leave, at every level,
# where they leave no real choice (an empty list otherwise): Shax's first-mill race.
MOVE_FILTERS: dict[str, Callable[[Any, list[str]], list[str]]] = {
    "shax": _shax_forced,
}


# Games whose playouts (at the levels that ask for it, ``Level.tactical``) play a
# forced-looking move where the game's tactics give one, instead of a random move.
PLAYOUT_TACTICS: dict[str, Callable[[Any, list[str], Any], str | None]] = {
    "shax": _shax_tactics,
}


EVALUATORS: dict[str, Callable[[Any, bool], float]] = {
    "shax": _shax,
    "tchela": _tchela,
    "sachidjun": _sachidjun,
    "chebache": _chebache,
    "jikaida": _jikaida,
}


# Games whose finer evaluation (``strong``) is a weighted sum of features: per game their
# names, the function giving their values for seat 0's team, and the hand-set weights. The
# weights fitted by self-play (``search/weights/<game>.json``, ``bench/fit_weights.py``)
# replace the hand-set ones where a level asks for them (``Level.fitted_weights``).
Weighted = tuple[tuple[str, ...], Callable[[Any], tuple[float, ...]], tuple[float, ...]]
WEIGHTED: dict[str, Weighted] = {
    "sachidjun": (SACHIDJUN_FEATURES, _sachidjun_feature_values, SACHIDJUN_HAND),
    "chebache": (CHEBACHE_FEATURES, _chebache_feature_values, CHEBACHE_HAND),
}


def features(game: Game) -> tuple[float, ...]:
    """The values of a weighted game's features (``WEIGHTED``) for seat 0's team."""
    return WEIGHTED[game.key][1](game)


def weights_for(key: str, fitted: bool = False) -> tuple[float, ...]:
    """A weighted game's weights: the fitted ones where asked and found, else the hand-set."""
    names, _values, hand = WEIGHTED[key]
    found = learnt.weights(key, names) if fitted else None
    return found if found is not None else hand


def margin(game: Game, strong: int = True, fitted: bool = False) -> float:
    """The margin for seat 0's team, in the game's own rough units (0 when even);
    ``fitted``: with the weights fitted by self-play where the game has them."""
    weighted = WEIGHTED.get(game.key)
    if strong and weighted is not None:
        values = weighted[1](game)
        return sum(w * v for w, v in zip(weights_for(game.key, fitted), values, strict=True))
    function = EVALUATORS.get(game.key)
    return function(game, strong) if function else 0.0


def evaluate(game: Game, strong: int = True, fitted: bool = False) -> float:
    """Expected result for seat 0's team, strictly between what a loss and what a win are
    worth (``terminal_value``): no position unplayed is worth more than winning it. In
    Poron Jikaida a half-point win (3/4) still beats any position."""
    if game.outcome is not None:
        return terminal_value(game)
    x = max(-30.0, min(30.0, margin(game, strong, fitted)))
    low, high = SPAN.get(game.key, (0.05, 0.95))
    return low + (high - low) / (1.0 + math.exp(-x))


SPAN = {"jikaida": (0.27, 0.73)}


def terminal_value(game: Game) -> float:
    """The result of a finished game for seat 0's team: 1 win, 0 loss, 1/2 draw; Poron
    Jikaida's half-point wins (Tikaida, Nikaida) count 3/4."""
    assert game.outcome is not None
    score = game.outcome.score
    team = game.team_of(0)
    ours = max(score[s] for s in range(game.seats) if game.team_of(s) == team)
    theirs = max((score[s] for s in range(game.seats) if game.team_of(s) != team), default=0)
    return max(0.0, min(1.0, (1.0 + ours - theirs) / 2.0))
