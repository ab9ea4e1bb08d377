"""Shax, the Somali mill game, as settled in ``shared/rules/shax.md``.

Seats: 0 = White (always places first), 1 = Black.

Turn structure, in the rulings' words:
- Placement: players alternate until all 24 points are full. Mills remove nothing, but the
  first placement completing a line of the placer's colour is remembered.
- Then "the player who completed the first mill removes one opponent piece. If nobody
  completed a mill, Black removes one." With ``two-removals`` the other player removes one too.
- "The player who removed the (first) piece moves first." A move completing a mill is
  followed by the mover's removal (its own action, ``xg7``) before the turn passes.
- Blocking: "If the player to move has no legal move, the opponent must move instead, and
  must choose a move after which the blocked player has a legal move" (a freeing move
  removes nothing); with no freeing move the opponent makes any move and the turn goes back.
  The blocked player stays the *nominal* player to move throughout.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .base import Game

WHITE, BLACK = 0, 1
PIECES_EACH = 12
COLOUR_CHAR = {WHITE: "W", BLACK: "B"}

# The three squares, each listed round its perimeter (corner, midpoint, corner, ...).
OUTER = ("a1", "a4", "a7", "d7", "g7", "g4", "g1", "d1")
MIDDLE = ("b2", "b4", "b6", "d6", "f6", "f4", "f2", "d2")
INNER = ("c3", "c4", "c5", "d5", "e5", "e4", "e3", "d3")
SQUARES = (OUTER, MIDDLE, INNER)
POINTS: tuple[str, ...] = tuple(sorted(OUTER + MIDDLE + INNER))


def _build_lines() -> tuple[list[tuple[str, str, str]], dict[str, set[str]]]:
    mills: list[tuple[str, str, str]] = []
    adjacent: dict[str, set[str]] = {p: set() for p in POINTS}

    def join(a: str, b: str) -> None:
        adjacent[a].add(b)
        adjacent[b].add(a)

    for square in SQUARES:
        for side in range(4):  # corner, midpoint, next corner
            a, b, c = square[2 * side], square[2 * side + 1], square[(2 * side + 2) % 8]
            mills.append((a, b, c))
            join(a, b)
            join(b, c)
    for i in range(1, 8, 2):  # the four spokes through the side midpoints
        spoke = (OUTER[i], MIDDLE[i], INNER[i])
        mills.append(spoke)
        join(spoke[0], spoke[1])
        join(spoke[1], spoke[2])
    return mills, adjacent


MILLS, ADJACENT = _build_lines()
MILLS_THROUGH: dict[str, list[tuple[str, str, str]]] = {
    p: [m for m in MILLS if p in m] for p in POINTS
}
# The engine's own tables for speed. For each point, the other two points of every mill
# through it.
_MILL_PARTNERS = {
    p: tuple(tuple(q for q in mill if q != p) for mill in MILLS_THROUGH[p]) for p in POINTS
}
# The repetition key's board part: one character per point, in ``POINTS`` order.
_CELL_INDEX = {p: i for i, p in enumerate(POINTS)}
_EMPTY_CELL = "."
# The occupied points as the bits of one number (bit i: ``POINTS[i]``).
_BIT = {p: 1 << i for i, p in enumerate(POINTS)}


def _step_table(point: str) -> tuple[int, dict[int, tuple[str, ...]]]:
    """The bits of ``point``'s neighbours, and for each way of them being occupied the steps
    from ``point`` that are left."""
    targets = sorted(ADJACENT[point])
    steps: dict[int, tuple[str, ...]] = {}
    for taken in range(1 << len(targets)):
        occupied = sum(_BIT[q] for i, q in enumerate(targets) if taken >> i & 1)
        steps[occupied] = tuple(f"{point}-{q}" for q in targets if not occupied & _BIT[q])
    return sum(_BIT[q] for q in targets), steps


_STEPS_FROM = {p: _step_table(p) for p in POINTS}


def other(seat: int) -> int:
    return 1 - seat


class Shax(Game):
    key = "shax"
    title = "Shax"
    aliases = ("jare", "jar")
    variants = {"two-removals": "after the first removal, the other player removes one too"}
    seat_names = ("White", "Black")
    rules_summary = (
        "24 points on three squares joined at their midpoints; 12 pieces each.\n"
        "**Placement:** White first, players alternate until all 24 points are full. "
        "Mills made now remove nothing, but the first one counts.\n"
        "**Then:** whoever made the first mill removes one enemy piece (Black if nobody did) "
        "and moves first.\n"
        "**Movement:** one step along a line to an empty point, no flying. A new mill removes "
        "any one enemy piece. Two pieces left loses.\n"
        "**Blocked:** if you cannot move, your opponent must make a move that frees you "
        "(its mill removes nothing).\n"
        "Threefold repetition, or nobody able to move, is a draw."
    )

    # ---- state -------------------------------------------------------------

    def _setup(self) -> None:
        self.board: dict[str, int] = {}  # point -> seat; changed only through _put/_take
        self._board_changed()
        self.in_hand = [PIECES_EACH, PIECES_EACH]
        self.nominal = WHITE  # the player whose turn it nominally is
        self.stage = "placement"  # placement | removal | movement
        self.first_mill: int | None = None
        self.first_remover: int | None = None
        self.placement_removals_left = 0  # removals still due right after placement
        self.positions: Counter[str] = Counter()
        self._record_position()

    def _state(self) -> dict[str, Any]:
        return {
            "board": {p: COLOUR_CHAR[s] for p, s in sorted(self.board.items())},
            "in_hand": list(self.in_hand),
            "nominal": self.nominal,
            "stage": self.stage,
            "first_mill": self.first_mill,
            "first_remover": self.first_remover,
            "placement_removals_left": self.placement_removals_left,
            "positions": dict(self.positions),
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        seat_of = {v: k for k, v in COLOUR_CHAR.items()}
        board = {p: seat_of[c] for p, c in data["board"].items()}
        if not set(board) <= set(POINTS):
            raise ValueError("unknown point in Shax board")
        self.board = board
        self._board_changed()
        self.in_hand = list(data["in_hand"])
        self.nominal = data["nominal"]
        self.stage = data["stage"]
        self.first_mill = data["first_mill"]
        self.first_remover = data["first_remover"]
        self.placement_removals_left = data["placement_removals_left"]
        self.positions = Counter(data["positions"])

    # ---- queries -----------------------------------------------------------

    def count(self, seat: int) -> int:
        """Pieces of ``seat`` on the board."""
        return sum(1 for s in self.board.values() if s == seat)

    def steps(self, seat: int) -> list[str]:
        """Every one-step move of ``seat`` (no flying, at any piece count)."""
        return list(self._steps(seat))

    def _steps(self, seat: int) -> list[str]:
        """``steps``, computed once per position: the list is shared, never to be changed."""
        cached = self._steps_cache.get(seat)
        if cached is None:
            cached = self._steps_cache[seat] = self._fresh_steps(seat)
        return cached

    def _fresh_steps(self, seat: int) -> list[str]:
        occupied, moves = self._occupied, []
        for point, owner in self.board.items():
            if owner == seat:
                neighbours, steps = _STEPS_FROM[point]
                moves += steps[occupied & neighbours]
        return moves

    def completes_mill(self, point: str, seat: int) -> bool:
        """Would a ``seat`` piece on ``point`` make a line of three of its own?"""
        board = self.board
        return any(board.get(a) == seat and board.get(b) == seat for a, b in _MILL_PARTNERS[point])

    @property
    def blocked(self) -> bool:
        """In movement, the nominal player cannot move and the opponent moves instead."""
        return self.stage == "movement" and not self._steps(self.nominal)

    # ---- the board and what is kept up to date with it ---------------------

    def _put(self, point: str, seat: int) -> None:
        self.board[point] = seat
        self._point_changed(point, COLOUR_CHAR[seat])

    def _take(self, point: str) -> int:
        seat = self.board.pop(point)
        self._point_changed(point, _EMPTY_CELL)
        return seat

    def _point_changed(self, point: str, char: str) -> None:
        """``point`` was taken or emptied (``char``): keep the repetition key's board text
        and the occupied bits up to date, and forget the steps. Every one of them is
        replaced, never changed in place (a new cache, not an emptied one), since a cheap
        copy for the search (``search.fastcopy``) shares them with its original."""
        i = _CELL_INDEX[point]
        self._cells = self._cells[:i] + char + self._cells[i + 1 :]
        self._occupied ^= _BIT[point]
        self._steps_cache = {}

    def _board_changed(self) -> None:
        """The board was replaced whole: rebuild what is kept up to date with it."""
        board = self.board
        self._cells = "".join(COLOUR_CHAR[board[p]] if p in board else _EMPTY_CELL for p in POINTS)
        self._occupied = sum(_BIT[p] for p in board)
        self._steps_cache: dict[int, list[str]] = {}

    @property
    def to_move(self) -> int | None:
        if self.outcome is not None:
            return None
        return other(self.nominal) if self.blocked else self.nominal

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        if self.stage == "movement" and self.blocked:
            return "movement (blocked)"
        return self.stage

    # ---- moves -------------------------------------------------------------

    def dice_needed(self) -> None:
        """Shax uses no dice: no roll is ever due (asked before every move, so answered
        at once)."""
        return None

    def normalize(self, text: str) -> str:
        return text.strip().lower().replace(" ", "")

    def _legal(self) -> list[str]:
        if self.stage == "placement":
            return [p for p in POINTS if p not in self.board]
        if self.stage == "removal":
            victim = other(self.nominal)
            return [f"x{p}" for p, s in self.board.items() if s == victim]
        if not self.blocked:
            return self._steps(self.nominal)
        return self._freeing_or_any_moves()

    def _freeing_or_any_moves(self) -> list[str]:
        """The opponent of a blocked player must free it if it can, else move anyhow."""
        moves = self._steps(other(self.nominal))
        freeing = [m for m in moves if self._frees(m)]
        return freeing or moves

    def _frees(self, move: str) -> bool:
        """Whether ``move`` is one "after which the blocked player has a legal move": a
        neighbour of one of the nominal player's pieces empty on the board after it
        (``origin`` empty, ``target`` taken), worked out without playing it."""
        origin, target = move.split("-")
        board, seat = self.board, self.nominal
        return any(
            q == origin or (q != target and q not in board)
            for p, s in board.items()
            if s == seat
            for q in ADJACENT[p]
        )

    def _illegal_reason(self, move: str) -> str:
        if self.stage == "placement":
            if move in self.board:
                return f"{move} is occupied; place on an empty point"
            return "place a piece on an empty point, e.g. d2"
        if self.stage == "removal":
            return "remove an opponent piece, e.g. x" + (self._legal() or ["??"])[0][1:]
        origin = move.split("-")[0]
        if self.board.get(origin) is not None and self.board[origin] != self.to_move:
            return f"{origin} is not your piece"
        mover = other(self.nominal)
        if self.blocked and any(self._frees(m) for m in self._steps(mover)):
            return f"{self.seat_names[self.nominal]} is blocked: you must make a freeing move"
        return "move one piece one step along a line to an empty point (no flying)"

    def _apply(self, move: str) -> None:
        if self.stage == "placement":
            self._place(move)
        elif self.stage == "removal":
            self._remove(move[1:])
        else:
            self._step(move)
        self._after_action()

    def _place(self, point: str) -> None:
        seat = self.nominal
        if self.first_mill is None and self.completes_mill(point, seat):
            self.first_mill = seat
        self._put(point, seat)
        self.in_hand[seat] -= 1
        if len(self.board) < len(POINTS):
            self.nominal = other(seat)
            return
        # Board full: the first mill's maker removes; with no mill, Black does.
        self.stage = "removal"
        self.nominal = BLACK if self.first_mill is None else self.first_mill
        self.first_remover = self.nominal
        self.placement_removals_left = 2 if "two-removals" in self.variant_set else 1

    def _remove(self, point: str) -> None:
        remover = self.nominal
        self._take(point)
        if self.count(other(remover)) <= 2:
            # "A player reduced to two pieces loses, at once, right after the removal."
            self.outcome = self._outcome((remover,), "opponent reduced to two pieces")
            return
        self.stage = "movement"
        if self.placement_removals_left == 0:
            self.nominal = other(remover)  # a mill's removal: the turn passes
            return
        self.placement_removals_left -= 1
        if self.placement_removals_left:
            self.stage = "removal"  # two-removals: the other player removes one too
            self.nominal = other(remover)
        else:
            self.nominal = self.first_remover  # "The player who removed the (first) piece"

    def _step(self, move: str) -> None:
        origin, target = move.split("-")
        mover = self._take(origin)
        self._put(target, mover)
        if mover != self.nominal:
            return  # forced or freeing move: no removal, turn goes back to the blocked player
        if self.completes_mill(target, mover):
            self.stage = "removal"  # the mover removes before the turn passes
        else:
            self.nominal = other(mover)

    def _after_action(self) -> None:
        if self.outcome is not None:
            return
        if self._record_position() >= 3:
            self.outcome = self._outcome((), "threefold repetition")
            return
        if self.stage == "movement" and self.blocked and not self._steps(other(self.nominal)):
            self.outcome = self._outcome((), "neither player can move")

    def _position_key(self) -> str:
        """What threefold repetition compares: "the occupied points of both sides, the player
        whose turn it nominally is, and the phase" (the points one character each, kept up
        to date move by move)."""
        return f"{self._cells}|{self.nominal}|{self.stage}"

    def _record_position(self) -> int:
        key = self._position_key()
        self.positions[key] += 1
        return self.positions[key]

    # ---- display -----------------------------------------------------------

    def text_board(self) -> str:
        def cell(p: str) -> str:
            return {WHITE: "W", BLACK: "B"}.get(self.board.get(p, -1), "·")

        rows = [
            "7 {a7}-----------{d7}-----------{g7}",
            "  |           |           |",
            "6 |   {b6}-------{d6}-------{f6}   |",
            "  |   |       |       |   |",
            "5 |   |   {c5}---{d5}---{e5}   |   |",
            "  |   |   |       |   |   |",
            "4 {a4}---{b4}---{c4}       {e4}---{f4}---{g4}",
            "  |   |   |       |   |   |",
            "3 |   |   {c3}---{d3}---{e3}   |   |",
            "  |   |       |       |   |",
            "2 |   {b2}-------{d2}-------{f2}   |",
            "  |           |           |",
            "1 {a1}-----------{d1}-----------{g1}",
            "  a   b   c   d   e   f   g",
        ]
        cells = {p: cell(p) for p in POINTS}
        return "\n".join(row.format(**cells) for row in rows)

    def summary(self) -> list[tuple[str, str]]:
        fields = [("Phase", self.phase)]
        for seat in (WHITE, BLACK):
            fields.append(
                (
                    self.seat_names[seat],
                    f"{self.count(seat)} on board, {self.in_hand[seat]} in hand",
                )
            )
        return fields

    def status_line(self) -> str:
        if self.outcome is not None:
            return self.result_text()
        actor = self.to_move
        assert actor is not None
        name = self.seat_names[actor]
        if self.stage == "placement":
            return f"{name} to place ({self.in_hand[actor]} in hand)"
        if self.stage == "removal":
            return f"{name} to remove a piece"
        if self.blocked:
            return f"{self.seat_names[self.nominal]} is blocked: {name} must free it"
        return f"{name} to move"
