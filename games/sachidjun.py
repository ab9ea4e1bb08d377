"""Šačidjun (šači), a backgammon-like race on a 36-cell ring, as settled in
``shared/rules/sachidjun.md``.

The ring, clockwise ("sunwise") from ``SW``: ``W1..W8``, ``NW``, ``N1..N8``, ``NE``,
``E1..E8``, ``SE``, ``S1..S8``. Internally cell ``i`` is ``CELLS[i]``; the šake are 0, 9, 18
and 27.

Roles (the four sub-turns, in playing order): 0 veradi raža, 1 tameg raža, 2 veradi čadra,
3 tameg čadra. ``side = role % 2`` (0 veradi, 1 tameg), ``colour = role // 2`` (0 raža,
1 čadra). Seats map onto roles:
- 2 seats: 0 veradi (roles 0, 2), 1 tameg (roles 1, 3);
- 3 seats: 0 veradi raža, 1 tameg (both colours), 2 veradi čadra; with the variant
  ``tameg-pair``: 0 veradi (both colours), 1 tameg raža, 2 tameg čadra;
- 4 seats: seat = role.

What a renderer reads (all in ``_state()``, so it survives JSON):
- ``cells``: 36 lists ``[veradi raža, tameg raža, veradi čadra, tameg čadra]`` (piece counts by
  role), index = ``CELLS`` position.
- ``home``: pieces in their own mora, by role (veradi light mora b2 = role 0, tameg light c3 =
  role 1, veradi dark c2 = role 2, tameg dark b3 = role 3).
- ``prisoners``: for each mora (by role, as ``home``) the captured opponent pieces kept there,
  ``[raža, čadra]``.
- ``role`` (whose sub-turn), ``dice`` (None or the two dice), ``options`` (the dice parts still
  to play, one list per remaining option), ``played`` (this sub-turn's moves), ``landed`` (šake
  this sub-turn's side landed on with an opponent there), ``ties`` (standing ties, cell names),
  ``empty_run`` (sub-turns in a row with a roll and no legal move), ``offer`` (a pending
  redemption offer or None), ``last`` (the last move's record) and ``last_pass``.
"""

from __future__ import annotations

import re
from typing import Any

from .base import DiceSpec, Game, IllegalMove

CELLS: tuple[str, ...] = (
    ("SW",)
    + tuple(f"W{i}" for i in range(1, 9))
    + ("NW",)
    + tuple(f"N{i}" for i in range(1, 9))
    + ("NE",)
    + tuple(f"E{i}" for i in range(1, 9))
    + ("SE",)
    + tuple(f"S{i}" for i in range(1, 9))
)
RING = len(CELLS)  # 36
INDEX = {name: i for i, name in enumerate(CELLS)}
SAKE = (0, 9, 18, 27)
IS_SAKE = tuple(i % 9 == 0 for i in range(RING))
VERADI, TAMEG = 0, 1
RAZA, CADRA = 0, 1
SIDE_NAMES = ("veradi", "tameg")
COLOUR_NAMES = ("raža", "čadra")
ROLE_NAMES = ("veradi raža", "tameg raža", "veradi čadra", "tameg čadra")
ROLE_LETTERS = ("R", "r", "C", "c")  # the text board: capitals veradi, small tameg
# The šake next to each role's mora: veradi light b2 - SW, tameg light c3 - NE,
# veradi dark c2 - SE, tameg dark b3 - NW.
ENTRY = (0, 18, 27, 9)
PASS_LIMIT = (1, 2)  # held čike in a row a raža / čadra may pass
PIECES = 8  # per role
MORA_NAMES = ("b2", "c3", "c2", "b3")


def role_of(side: int, colour: int) -> int:
    return side + 2 * colour


def side_of(role: int) -> int:
    return role % 2


def colour_of(role: int) -> int:
    return role // 2


def direction(role: int) -> int:
    return 1 if colour_of(role) == RAZA else -1


def options_for(a: int, b: int) -> list[tuple[int, ...]]:
    """The ways to use a roll, each a sorted tuple of single-move sizes by different pieces."""
    if a != b:
        return [tuple(sorted((a, b))), (a + b,)]
    d = a
    return [(d, d, d, d), (2 * d, 2 * d), (d, d, 2 * d), (4 * d,)]


def path(role: int, start: int | None, size: int) -> tuple[tuple[int, ...], int]:
    """(cells passed, landing cell) of a move of ``size`` from ``start`` (None = the mora)."""
    step = direction(role)
    if start is None:
        cells = [(ENTRY[role] + step * k) % RING for k in range(size)]
    else:
        cells = [(start + step * k) % RING for k in range(1, size + 1)]
    return tuple(cells[:-1]), cells[-1]


_PATHS: dict[tuple[int, int | None, int], tuple[tuple[int, ...], int]] = {}


def cached_path(role: int, start: int | None, size: int) -> tuple[tuple[int, ...], int]:
    key = (role, start, size)
    found = _PATHS.get(key)
    if found is None:
        found = _PATHS[key] = path(role, start, size)
    return found


def size_of(role: int, start: int | None, land: int) -> int:
    step = direction(role)
    if start is None:
        return (land - ENTRY[role]) * step % RING + 1
    return (land - start) * step % RING or RING


# ---- the sub-turn solver ---------------------------------------------------------------
# A search state is (home, mine, used, opp, options): the mover's pieces in its mora, its
# pieces per cell, those that already moved this sub-turn, opponent pieces per cell, and the
# remaining options. ``own_other`` (the mover's friends per cell) stays fixed in a sub-turn.


def step_move(
    role: int,
    state: tuple,
    own_other: tuple[int, ...],
    start: int | None,
    size: int,
) -> tuple[tuple, bool, bool] | None:
    """The state after one move, whether it captured at once, and whether it joined a šake
    combat; None when the move is illegal."""
    home, mine, used, opp, options = state
    passed, land = cached_path(role, start, size)
    limit = PASS_LIMIT[colour_of(role)]
    run = 0
    for cell in passed:
        if IS_SAKE[cell]:
            if opp[cell] >= 4:
                return None
            run = 0
        elif opp[cell] >= 2:
            run += 1
            if run > limit:
                return None
        else:
            run = 0
    there = opp[land]
    capture = combat = False
    if IS_SAKE[land]:
        if there >= 4:
            return None
        if there == 1 and mine[land] + own_other[land] == 0:
            capture = True
        elif there:
            combat = True
    elif there >= 2:
        return None
    elif there == 1:
        capture = True
    mine_l = list(mine)
    used_l = list(used)
    if start is None:
        home -= 1
    else:
        mine_l[start] -= 1
    mine_l[land] += 1
    used_l[land] += 1
    if capture:
        opp_l = list(opp)
        opp_l[land] = 0
        opp = tuple(opp_l)
    rest = remaining_options(options, size)
    return (home, tuple(mine_l), tuple(used_l), opp, rest), capture, combat


def remaining_options(options: tuple[tuple[int, ...], ...], size: int) -> tuple:
    rest = set()
    for option in options:
        if size in option:
            parts = list(option)
            parts.remove(size)
            rest.add(tuple(parts))
    return tuple(sorted(rest))


def candidate_moves(role: int, state: tuple) -> list[tuple[int | None, int]]:
    home, mine, used, _opp, options = state
    sizes = sorted({s for option in options for s in option})
    starts: list[int | None] = [None] if home else []
    starts += [c for c in range(RING) if mine[c] > used[c]]
    return [(start, size) for size in sizes for start in starts]


class Solver:
    """Most pips still playable from a search state, memoized for one sub-turn."""

    def __init__(self, role: int, own_other: tuple[int, ...]):
        self.role = role
        self.own_other = own_other
        self.memo: dict[tuple, int] = {}

    def best(self, state: tuple) -> int:
        found = self.memo.get(state)
        if found is not None:
            return found
        options = state[4]
        bound = max((sum(o) for o in options), default=0)
        result = 0
        if bound:
            seen: set[tuple] = set()
            for start, size in candidate_moves(self.role, state):
                step = step_move(self.role, state, self.own_other, start, size)
                if step is None:
                    continue
                after = step[0]
                if after in seen:
                    continue
                seen.add(after)
                value = size + self.best(after)
                if value > result:
                    result = value
                    if result == bound:
                        break
        self.memo[state] = result
        return result

    def moves(self, state: tuple) -> list[tuple[int | None, int, tuple, bool, bool]]:
        """The single moves that start a maximal continuation."""
        target = self.best(state)
        if not target:
            return []
        found = []
        for start, size in candidate_moves(self.role, state):
            step = step_move(self.role, state, self.own_other, start, size)
            if step is None:
                continue
            after, capture, combat = step
            if size + self.best(after) == target:
                found.append((start, size, after, capture, combat))
        return found


# ---- redemption offers -------------------------------------------------------------------

OFFER_RE = re.compile(
    r"offer:(?:give\((?P<give>[^)]*)\)|home\((?P<home>[^)]*)\))\+get\((?P<get>[^)]*)\)"
    r"(?:@(?P<to>[rc]))?"
)
COUNT_RE = re.compile(r"([0-9]*)([rc])")


def parse_counts(text: str) -> list[int] | None:
    """``2r,1c`` (or ``2r1c``) -> [2, 1]; None if malformed (a count of more than three
    digits too: no side has that many pieces, and a huge one would not even be an int)."""
    compact = text.replace(",", "")
    if not re.fullmatch(r"(?:[0-9]{0,3}[rc])+", compact):
        return None
    counts = [0, 0]
    for number, letter in COUNT_RE.findall(compact):
        counts["rc".index(letter)] += int(number or 1)
    return counts


def spell_counts(counts: list[int]) -> str:
    return ",".join(f"{n}{letter}" for n, letter in zip(counts, "rc", strict=True) if n)


def parse_home(text: str) -> list[tuple[int, int]] | None:
    """``rW3,cN2`` -> [(colour, cell)]; None if malformed."""
    pieces = []
    for part in text.split(","):
        match = re.fullmatch(r"([rc])([A-Z]{1,2}\d?)", part)
        if not match or match.group(2) not in INDEX:
            return None
        pieces.append(("rc".index(match.group(1)), INDEX[match.group(2)]))
    return pieces


# ---- the game ------------------------------------------------------------------------------


class Sachidjun(Game):
    key = "sachidjun"
    title = "Šačidjun"
    aliases = ("sachi", "šači", "šačidjun")
    variants = {
        "tameg-pair": "three players: tameg is the pair (seat 0 veradi, 1 tameg raža, "
        "2 tameg čadra); without it veradi is the pair",
    }
    seat_counts = (2, 3, 4)
    seat_names = ("Veradi", "Tameg")
    accepts_move_lines = True
    rules_summary = (
        "A race round a ring of 36 cells with two eight-sided dice. Raža (light) go "
        "clockwise, čadra (shadow) anticlockwise; each enters from its mora via the corner "
        "šake next to it.\n"
        "**Sub-turns:** veradi raža, tameg raža, veradi čadra, tameg čadra; each rolls 2d8.\n"
        "**Roll:** a and b by two pieces, or one piece a+b; doubles: 4×d, 2×2d, 2×d+2d or 4d. "
        "Use as much of the roll as you can.\n"
        "**Moves:** `M-SW`, `W3-N2`, `W3xN2` (captures); a whole turn: `M-SW W2-W7`.\n"
        "Two pieces hold a čika, four hold a šake. A lone opponent piece is captured.\n"
        "Win by capturing every opponent piece, or by holding both šake by their moras "
        "while all their pieces are at home."
    )

    # ---- state -------------------------------------------------------------

    def _setup(self) -> None:
        if "tameg-pair" in self.variant_set and self.seats != 3:
            raise ValueError("the tameg-pair variant is for three players")
        if self.seats == 2:
            self.seat_of_role = (0, 1, 0, 1)
            self.seat_names = ("Veradi", "Tameg")
        elif self.seats == 4:
            self.seat_of_role = (0, 1, 2, 3)
            self.seat_names = ("Veradi raža", "Tameg raža", "Veradi čadra", "Tameg čadra")
        elif "tameg-pair" in self.variant_set:
            self.seat_of_role = (0, 1, 0, 2)
            self.seat_names = ("Veradi", "Tameg raža", "Tameg čadra")
        else:
            self.seat_of_role = (0, 1, 2, 1)
            self.seat_names = ("Veradi raža", "Tameg", "Veradi čadra")
        self.cells: list[list[int]] = [[0, 0, 0, 0] for _ in range(RING)]
        self.home = [PIECES] * 4
        self.prisoners: list[list[int]] = [[0, 0] for _ in range(4)]
        self.role = 0
        self.dice: list[int] | None = None
        self.options: list[list[int]] = []
        self.used = [0] * RING
        self.played: list[str] = []
        self.landed: list[int] = []
        self.empty_run = 0
        self.offer: dict[str, Any] | None = None
        self.refused: list[str] = []
        self.last: dict[str, Any] | None = None
        self.last_pass: dict[str, Any] | None = None
        self._solver: Solver | None = None
        self._kept_plans: tuple[Solver, tuple, int, dict[str, tuple]] | None = None

    def _state(self) -> dict[str, Any]:
        return {
            "cells": [list(c) for c in self.cells],
            "home": list(self.home),
            "prisoners": [list(p) for p in self.prisoners],
            "role": self.role,
            "dice": list(self.dice) if self.dice is not None else None,
            "options": [list(o) for o in self.options],
            "used": list(self.used),
            "played": list(self.played),
            "landed": [CELLS[c] for c in self.landed],
            "ties": self.ties(),
            "empty_run": self.empty_run,
            "offer": self.offer,
            "refused": list(self.refused),
            "last": self.last,
            "last_pass": self.last_pass,
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        cells = [[int(n) for n in c] for c in data["cells"]]
        if len(cells) != RING or any(len(c) != 4 or min(c) < 0 for c in cells):
            raise ValueError("bad Šačidjun board")
        self.cells = cells
        self.home = [int(n) for n in data["home"]]
        self.prisoners = [[int(n) for n in p] for p in data["prisoners"]]
        self.role = int(data["role"])
        self.dice = list(data["dice"]) if data.get("dice") is not None else None
        self.options = [list(o) for o in data.get("options", [])]
        self.used = list(data.get("used", [0] * RING))
        self.played = list(data.get("played", []))
        self.landed = [INDEX[c] for c in data.get("landed", [])]
        self.empty_run = int(data.get("empty_run", 0))
        self.offer = data.get("offer")
        self.refused = list(data.get("refused", []))
        self.last = data.get("last")
        self.last_pass = data.get("last_pass")
        self._solver = None

    # ---- queries -----------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self.outcome is not None:
            return None
        if self.offer is not None:
            return int(self.offer["to"])
        return self.seat_of_role[self.role]

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        if self.offer is not None:
            return "redemption"
        return "roll" if self.dice is None else "move"

    def roles_of(self, seat: int) -> tuple[int, ...]:
        return tuple(r for r in range(4) if self.seat_of_role[r] == seat)

    def seats_of_side(self, side: int) -> tuple[int, ...]:
        return tuple(sorted({self.seat_of_role[r] for r in (side, side + 2)}))

    def side_count(self, cell: int, side: int) -> int:
        c = self.cells[cell]
        return c[side] + c[side + 2]

    def on_track(self, role: int) -> int:
        return sum(c[role] for c in self.cells)

    def captured_of(self, side: int) -> int:
        """Pieces of ``side`` held in the other side's moras."""
        other = 1 - side
        return sum(sum(self.prisoners[r]) for r in (other, other + 2))

    def held_by(self, cell: int, side: int) -> bool:
        """A šake held (four or more) by ``side``, or a čika held (two or more)."""
        return self.side_count(cell, side) >= (4 if IS_SAKE[cell] else 2)

    def ties(self) -> list[str]:
        """Šake with pieces of both sides (standing ties, or combats pending this sub-turn)."""
        return [
            CELLS[c]
            for c in SAKE
            if self.side_count(c, VERADI) and self.side_count(c, TAMEG) and c not in self.landed
        ]

    def remaining_pips(self) -> int:
        return max((sum(o) for o in self.options), default=0)

    # ---- dice --------------------------------------------------------------

    def _roll_needed(self) -> DiceSpec | None:
        if self.offer is not None or self.dice is not None:
            return None
        return DiceSpec(2, 8)

    def _apply_roll(self, dice: tuple[int, ...]) -> None:
        a, b = dice
        self.dice = [a, b]
        self.options = [list(o) for o in options_for(a, b)]
        self.used = [0] * RING
        self.played = []
        self.landed = []
        self._solver = None
        self._pass_if_stuck()

    def _pass_if_stuck(self) -> None:
        """A rolled sub-turn with no legal move (and no move played) passes at once."""
        if self.dice is None or self.played or self._plans():
            return
        self.empty_run += 1
        self.last_pass = {"role": self.role, "dice": list(self.dice)}
        if self.empty_run >= 4:
            self.outcome = self._outcome((), "four sub-turns in a row without a legal move")
            self.dice = None
            self.options = []
            return
        self._next_sub_turn()

    # ---- move generation ---------------------------------------------------

    def _search_state(self) -> tuple:
        role = self.role
        opp_side = 1 - side_of(role)
        mine = tuple(c[role] for c in self.cells)
        opp = tuple(c[opp_side] + c[opp_side + 2] for c in self.cells)
        options = tuple(sorted({tuple(sorted(o)) for o in self.options}))
        return (self.home[role], mine, tuple(self.used), opp, options)

    def _get_solver(self) -> Solver:
        if self._solver is None:
            friend = role_of(side_of(self.role), 1 - colour_of(self.role))
            self._solver = Solver(self.role, tuple(c[friend] for c in self.cells))
        return self._solver

    def _plans(self) -> dict[str, tuple]:
        """Canonical move -> (start, size, capture, combat) for the legal single moves."""
        if self.dice is None or self.offer is not None:
            return {}
        # A ply asks for them three times (the legal moves, the move's own lookup, the
        # next position's check for a sub-turn with nothing left): kept for the position
        # they were worked out in (its solver, search state and role, all they depend on).
        solver, state = self._get_solver(), self._search_state()
        kept = self._kept_plans
        if kept is not None and kept[0] is solver and kept[2] == self.role and kept[1] == state:
            return kept[3]
        found = {}
        for start, size, _after, capture, combat in solver.moves(state):
            _passed, land = cached_path(self.role, start, size)
            origin = "M" if start is None else CELLS[start]
            found[f"{origin}{'x' if capture else '-'}{CELLS[land]}"] = (
                start,
                size,
                capture,
                combat,
            )
        self._kept_plans = (solver, state, self.role, found)
        return found

    def _legal(self) -> list[str]:
        if self.offer is not None:
            return ["accept", "refuse"]
        return list(self._plans())

    # ---- notation ----------------------------------------------------------

    def normalize(self, text: str) -> str:
        move = re.sub(r"\s+", "", text).replace("–", "-").replace("—", "-")
        lower = move.lower()
        if lower in ("accept", "refuse", "yes", "no"):
            return {"yes": "accept", "no": "refuse"}.get(lower, lower)
        if lower.startswith("offer:"):
            return self._normalize_offer(move)
        match = re.fullmatch(r"([A-Za-z]{1,2}\d?)[-xX×]([A-Za-z]{1,2}\d?)", move)
        if not match:
            return move
        origin, land = match.group(1).upper(), match.group(2).upper()
        for sep in "-x":
            candidate = f"{origin}{sep}{land}"
            if self.outcome is None and candidate in self._plans():
                return candidate
        return f"{origin}-{land}"

    def _illegal_reason(self, move: str) -> str:
        if self.offer is not None:
            return "a redemption offer is pending: answer `accept` or `refuse`"
        match = re.fullmatch(r"(\w+)[-x](\w+)", move)
        if not match:
            return "write a move as `from-to`, e.g. M-SW or W3-N2 (x for a capture)"
        origin, land = match.groups()
        if land not in INDEX or (origin != "M" and origin not in INDEX):
            return "cells are SW, W1..W8, NW, N1..N8, NE, E1..E8, SE, S1..S8, and M for the mora"
        name = ROLE_NAMES[self.role]
        if origin == "M" and not self.home[self.role]:
            return f"no {name} piece is in its mora"
        if origin != "M":
            cell = INDEX[origin]
            if not self.cells[cell][self.role]:
                return f"no {name} piece is on {origin}"
            if self.used[cell] >= self.cells[cell][self.role]:
                return f"the {name} pieces on {origin} have already moved this sub-turn"
        start = None if origin == "M" else INDEX[origin]
        size = size_of(self.role, start, INDEX[land])
        pieces = {s for o in self.options for s in o}
        if size not in pieces:
            left = " or ".join(str(s) for s in sorted(pieces))
            return f"that is a move of {size}; the roll allows {left} now"
        return "blocked (held čike or šake), or it does not leave the most of the roll playable"

    # ---- applying ----------------------------------------------------------

    def parse_move(self, text: str) -> str:
        """Offers are checked here (they are not listed among the legal moves, and may be made
        before rolling)."""
        if self.outcome is None and text.strip().lower().startswith("offer:"):
            move = self.normalize(text)
            problem = self._offer_problem(move)
            if problem:
                raise IllegalMove(text, problem, self.legal_moves())
            return move
        return super().parse_move(text)

    def _apply(self, move: str) -> None:
        if move.startswith("offer:"):
            self._make_offer(move)
            return
        if move in ("accept", "refuse"):
            self._answer_offer(move == "accept")
            return
        start, size, capture, combat = self._plans()[move]
        role = self.role
        side = side_of(role)
        _passed, land = cached_path(role, start, size)
        if start is None:
            self.home[role] -= 1
        else:
            self.cells[start][role] -= 1
        taken = None
        if capture:
            opp_side = 1 - side
            for victim in (opp_side, opp_side + 2):
                if self.cells[land][victim]:
                    self.cells[land][victim] -= 1
                    self.prisoners[role][colour_of(victim)] += 1
                    taken = ROLE_NAMES[victim]
        self.cells[land][role] += 1
        self.used[land] += 1
        if combat and land not in self.landed:
            self.landed.append(land)
        self.options = [list(o) for o in remaining_options(self._options_key(), size)]
        self.played.append(move)
        self.refused = []
        self.last_pass = None  # shown until the next move
        self.empty_run = 0
        self.last = {
            "role": role,
            "move": move,
            "from": "M" if start is None else CELLS[start],
            "to": CELLS[land],
            "size": size,
            "captured": taken,
            "combat": combat,
            "resolved": [],
        }
        if self._check_win(f"after {move}"):
            return
        if not self._plans():
            self._end_sub_turn()

    def _options_key(self) -> tuple:
        return tuple(sorted({tuple(sorted(o)) for o in self.options}))

    def _end_sub_turn(self) -> None:
        mover = side_of(self.role)
        for cell in list(self.landed):
            result = self._resolve(cell, mover)
            if self.last is not None and result:
                self.last["resolved"].append(result)
            if self._check_win(f"šake combat on {CELLS[cell]}"):
                return
        self._next_sub_turn()

    def _resolve(self, cell: int, mover: int) -> dict[str, Any] | None:
        """Compare the sides on a šake the mover landed on: the loser is captured."""
        mine, theirs = self.side_count(cell, mover), self.side_count(cell, 1 - mover)
        if not mine or not theirs:
            return None
        if mine == theirs:
            return {"cell": CELLS[cell], "result": "tie", "count": mine}
        winner = mover if mine > theirs else 1 - mover
        loser = 1 - winner
        here = self.cells[cell]
        light, dark = here[role_of(winner, RAZA)], here[role_of(winner, CADRA)]
        mora = role_of(winner, RAZA if light >= dark else CADRA)
        for colour in (RAZA, CADRA):
            victim = role_of(loser, colour)
            self.prisoners[mora][colour] += here[victim]
            here[victim] = 0
        return {
            "cell": CELLS[cell],
            "result": SIDE_NAMES[winner],
            "captured": theirs if winner == mover else mine,
            "mora": MORA_NAMES[mora],
        }

    def _next_sub_turn(self) -> None:
        self.role = (self.role + 1) % 4
        self.dice = None
        self.options = []
        self.used = [0] * RING
        self.played = []
        self.landed = []
        self.offer = None
        self.refused = []
        self._solver = None

    def team_of(self, seat: int) -> int:
        """The side (0 veradi, 1 tameg) a seat plays."""
        return side_of(self.roles_of(seat)[0])

    @staticmethod
    def seating(
        veradi: tuple[int, ...], tameg: tuple[int, ...]
    ) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """Players per seat, and the variants, for a side's players: one player, or two as
        (raža player, čadra player). Three players need ``tameg-pair`` when tameg is the
        pair (see the seat map in the module docstring)."""
        if len(veradi) not in (1, 2) or len(tameg) not in (1, 2):
            raise ValueError("each side has one or two players")
        if len(veradi) == len(tameg) == 1:
            return (veradi[0], tameg[0]), ()
        if len(veradi) == len(tameg) == 2:
            return (veradi[0], tameg[0], veradi[1], tameg[1]), ()
        if len(veradi) == 2:
            return (veradi[0], tameg[0], veradi[1]), ()
        return (veradi[0], tameg[0], tameg[1]), ("tameg-pair",)

    def resign(self, seat: int) -> None:
        """A seat resigns for its side: every seat of the other side wins."""
        side = side_of(self.roles_of(seat)[0])
        self._finish(self.seats_of_side(1 - side), "resignation")

    def _check_win(self, when: str) -> bool:
        """Both sides, the mover's first; sets the outcome."""
        mover = side_of(self.role)
        for side in (mover, 1 - mover):
            reason = self._win_reason(side)
            if reason:
                self.outcome = self._outcome(self.seats_of_side(side), reason)
                self.dice = None
                self.options = []
                return True
        return False

    def _win_reason(self, side: int) -> str | None:
        other = 1 - side
        if self.captured_of(other) == 2 * PIECES:
            return f"{SIDE_NAMES[side]} captured every {SIDE_NAMES[other]} piece"
        on_track = self.on_track(other) + self.on_track(other + 2)
        gates = (ENTRY[other], ENTRY[other + 2])
        if not on_track and all(self.side_count(c, side) >= 4 for c in gates):
            return (
                f"{SIDE_NAMES[other]} is shut in its moras behind {CELLS[gates[0]]} and "
                f"{CELLS[gates[1]]}"
            )
        return None

    # ---- redemption --------------------------------------------------------

    def _normalize_offer(self, text: str) -> str:
        body = text[len("offer:") :]
        match = re.fullmatch(
            r"(?i)(give|home)\(([^)]*)\)\+get\(([^)]*)\)(?:@([rc]))?",
            body,
        )
        if not match:
            return "offer:" + body
        kind, first, get, to = match.groups()
        kind = kind.lower()
        get_counts = parse_counts(get.lower())
        if kind == "give":
            give = parse_counts(first.lower())
            if give is None or get_counts is None:
                return "offer:" + body
            head = f"give({spell_counts(give)})"
        else:
            pieces = parse_home(first[:1].lower() + first[1:].upper() if first else "")
            if pieces is None:
                parts = [p[:1].lower() + p[1:].upper() for p in first.split(",")]
                pieces = parse_home(",".join(parts))
            if pieces is None or get_counts is None:
                return "offer:" + body
            pieces.sort(key=lambda p: (p[1], p[0]))
            head = "home(" + ",".join("rc"[c] + CELLS[cell] for c, cell in pieces) + ")"
        offerer = self.seat_of_role[self.role]
        targets = self._addressees(offerer)
        suffix = f"@{to.lower()}" if to and len(targets) > 1 else ""
        return f"offer:{head}+get({spell_counts(get_counts)}){suffix}"

    def _addressees(self, offerer: int) -> dict[str, int]:
        """Letter -> seat of the opponents an offer may address (r raža player, c čadra)."""
        other = 1 - side_of(self.role)
        raza, cadra = self.seat_of_role[other], self.seat_of_role[other + 2]
        if raza == cadra:
            return {"": raza}
        return {"r": raza, "c": cadra}

    def _offer_problem(self, move: str) -> str | None:
        if self.offer is not None:
            return "an offer is already waiting for an answer"
        if self.played:
            return "offers are made before your first move of the sub-turn (this one expired)"
        match = OFFER_RE.fullmatch(move)
        if not match or not self._offer_parts(match):
            return (
                "write an offer as offer:give(2r,1c)+get(1r) (exchange) or "
                "offer:home(rW3,cN2)+get(1c) (position)"
            )
        if move in self.refused:
            return "that offer was refused; a refusal is final"
        side = side_of(self.role)
        other = 1 - side
        targets = self._addressees(self.seat_of_role[self.role])
        to = match.group("to") or ""
        if to not in targets:
            return "name the opponent the offer is for: @r (raža player) or @c (čadra player)"
        get = parse_counts(match.group("get"))
        assert get is not None
        held_mine = [sum(self.prisoners[r][c] for r in (other, other + 2)) for c in (0, 1)]
        if not sum(get) or any(g > h for g, h in zip(get, held_mine, strict=True)):
            return f"get(...) names your pieces the opponent holds: {spell_counts(held_mine)}"
        if match.group("give") is not None:
            give = parse_counts(match.group("give"))
            assert give is not None
            held = [sum(self.prisoners[r][c] for r in (side, side + 2)) for c in (0, 1)]
            if not sum(give) or any(g > h for g, h in zip(give, held, strict=True)):
                return f"give(...) names opponent pieces you hold: {spell_counts(held) or 'none'}"
            return None
        pieces = parse_home(match.group("home"))
        assert pieces is not None
        wanted: dict[tuple[int, int], int] = {}
        for colour, cell in pieces:
            wanted[(colour, cell)] = wanted.get((colour, cell), 0) + 1
        for (colour, cell), count in wanted.items():
            if self.cells[cell][role_of(side, colour)] < count:
                return f"you have no {count} {COLOUR_NAMES[colour]} on {CELLS[cell]} to send home"
        return None

    @staticmethod
    def _offer_parts(match: re.Match[str]) -> bool:
        """Does each part of an offer read as counts (``2r,1c``) or pieces (``rW3,cN2``)?"""
        if parse_counts(match.group("get")) is None:
            return False
        if match.group("give") is not None:
            return parse_counts(match.group("give")) is not None
        return parse_home(match.group("home")) is not None

    def _make_offer(self, move: str) -> None:
        match = OFFER_RE.fullmatch(move)
        assert match is not None
        offerer = self.seat_of_role[self.role]
        to = self._addressees(offerer)[match.group("to") or ""]
        self.offer = {"move": move, "from": offerer, "to": to, "role": self.role}

    def _answer_offer(self, accepted: bool) -> None:
        assert self.offer is not None
        move = self.offer["move"]
        self.offer = None
        self.last = {"role": self.role, "move": move, "answer": "accept" if accepted else "refuse"}
        if not accepted:
            self.refused.append(move)
            return
        match = OFFER_RE.fullmatch(move)
        assert match is not None
        side = side_of(self.role)
        other = 1 - side
        get = parse_counts(match.group("get")) or [0, 0]
        self._release(get, captor=other)
        if match.group("give") is not None:
            self._release(parse_counts(match.group("give")) or [0, 0], captor=side)
        else:
            for colour, cell in parse_home(match.group("home")) or []:
                role = role_of(side, colour)
                self.cells[cell][role] -= 1
                self.home[role] += 1
        self._solver = None
        if not self._check_win("after a redemption"):
            self._pass_if_stuck()

    def _release(self, counts: list[int], captor: int) -> None:
        """Send ``counts`` [raža, čadra] pieces held by ``captor`` back to their own moras."""
        for colour in (RAZA, CADRA):
            left = counts[colour]
            for mora in (captor, captor + 2):
                take = min(left, self.prisoners[mora][colour])
                self.prisoners[mora][colour] -= take
                self.home[role_of(1 - captor, colour)] += take
                left -= take

    # ---- menus -------------------------------------------------------------

    def line_choices(self, limit: int = 200) -> list[tuple[str, str]]:
        """Whole sub-turns: the ways to play the rest of the roll as fully as possible, one
        per distinct resulting position (the first found, in the solver's order), at most
        ``limit`` of them. Single-move turns are left out (they are the single moves)."""
        if self.outcome is not None or self.dice is None or self.offer is not None:
            return []
        solver, role = self._get_solver(), self.role
        lines: dict[tuple, list[tuple[str, int, bool]]] = {}
        visited: set[tuple] = set()

        def walk(state: tuple, line: list[tuple[str, int, bool]]) -> None:
            if len(lines) >= limit:
                return
            moves = solver.moves(state)
            if not moves:
                position = (state[0], state[1], state[3])
                if len(line) > 1:
                    lines.setdefault(position, line)
                return
            for start, size, after, capture, _combat in moves:
                if after in visited:
                    continue
                visited.add(after)
                _passed, land = cached_path(role, start, size)
                origin = "M" if start is None else CELLS[start]
                name = f"{origin}{'x' if capture else '-'}{CELLS[land]}"
                walk(after, [*line, (name, size, capture)])

        walk(self._search_state(), [])
        return [(" ".join(m for m, _, _ in line), describe_line(line)) for line in lines.values()]

    def waits_for_roll(self, text: str) -> bool:
        """Redemption offers are made "before rolling or after rolling but before its first
        move"."""
        return not text.strip().lower().startswith("offer:")

    def answer_choices(self) -> list[tuple[str, str]]:
        if self.outcome is not None or self.offer is None:
            return []
        return [("accept", "Accept the offer"), ("refuse", "Refuse the offer")]

    def mover_name(self) -> str:
        if self.outcome is not None:
            return "Nobody"
        if self.offer is not None:
            return super().mover_name()
        role = ROLE_NAMES[self.role]
        return role[:1].upper() + role[1:]

    # ---- display -----------------------------------------------------------

    def role_name(self, role: int) -> str:
        return ROLE_NAMES[role]

    def status_line(self) -> str:
        if self.outcome is not None:
            return self.result_text()
        seat = self.to_move
        assert seat is not None
        if self.offer is not None:
            return f"{self.seat_names[seat]} to answer a redemption offer: {self.offer['move']}"
        role = ROLE_NAMES[self.role]
        who = role[:1].upper() + role[1:]
        if self.dice is None:
            return f"{who} to roll"
        a, b = self.dice
        return f"{who} to move ({a}-{b}, {self.remaining_pips()} pips left)"

    def result_text(self) -> str:
        outcome = self.outcome
        if outcome is None or outcome.is_draw:
            return super().result_text()
        for side in (VERADI, TAMEG):
            seats = self.seats_of_side(side)
            if outcome.winners == seats and len(seats) > 1:
                names = " and ".join(self.seat_names[s] for s in seats)
                return f"{SIDE_NAMES[side].capitalize()} ({names}) wins: {outcome.reason}"
        return super().result_text()

    def describe_move(self, move: str) -> str:
        plans = self._plans() if self.outcome is None else {}
        if move not in plans:
            if move.startswith("offer:"):
                return "redemption offer: " + move[len("offer:") :]
            return move
        start, size, capture, combat = plans[move]
        _passed, land = cached_path(self.role, start, size)
        origin = "from the mora" if start is None else f"from {CELLS[start]}"
        text = f"{COLOUR_NAMES[colour_of(self.role)]} {origin} {size} to {CELLS[land]}"
        if capture:
            text += " — captures"
        elif combat:
            text += " — joins the šake combat"
        return text

    def summary(self) -> list[tuple[str, str]]:
        fields = [("Sub-turn", ROLE_NAMES[self.role])]
        if self.dice is not None:
            a, b = self.dice
            fields.append(("Dice", f"{a} {b} — {self.remaining_pips()} pips left"))
        for side in (VERADI, TAMEG):
            roles = (side, side + 2)
            home = sum(self.home[r] for r in roles)
            track = sum(self.on_track(r) for r in roles)
            fields.append(
                (
                    SIDE_NAMES[side].capitalize(),
                    f"{home} in mora · {track} on the track · {self.captured_of(side)} captured",
                )
            )
        ties = self.ties()
        if ties:
            fields.append(("Standing ties", ", ".join(ties)))
        if self.offer is not None:
            fields.append(("Offer", self.offer["move"]))
        answer = (self.last or {}).get("answer")
        if answer and self.log and self.log[-1].move == answer:
            offer = self.last["move"][len("offer:") :]  # type: ignore[index]
            verb = "accepted" if answer == "accept" else "refused"
            who = self.seat_names[self.log[-1].seat]
            fields.append(("Last move", f"{who} {verb} the redemption offer `{offer}`"))
        if self.last_pass is not None:
            a, b = self.last_pass["dice"]
            fields.append(("Last pass", f"{ROLE_NAMES[self.last_pass['role']]} rolled {a} {b}"))
        return fields

    def text_board(self) -> str:
        return draw_board(self)


def describe_line(line: list[tuple[str, int, bool]]) -> str:
    """``"whole sub-turn: 3 + 5, 1 capture"``."""
    sizes = " + ".join(str(size) for _, size, _ in line)
    captures = sum(1 for _, _, capture in line if capture)
    text = f"whole sub-turn: {sizes}"
    if captures:
        text += f", {captures} capture" + ("s" if captures > 1 else "")
    return text


def cell_text(game: Sachidjun, cell: int) -> str:
    counts = game.cells[cell]
    text = "".join(
        f"{ROLE_LETTERS[r]}{counts[r]}" for r in (0, 2, 1, 3) if counts[r]
    )  # veradi first
    return text or "."


def draw_board(game: Sachidjun) -> str:
    """The ring as a square: north on top, west on the left. R/C veradi raža/čadra, r/c tameg."""
    width = 8
    north = [9, *range(10, 18), 18]
    south = [0, *range(35, 27, -1), 27]

    def row(cells: list[int], labels: bool) -> str:
        return "".join(
            (CELLS[c] if labels else cell_text(game, c)).ljust(width) for c in cells
        ).rstrip()

    def mora(role: int) -> str:
        return f"{MORA_NAMES[role]} {ROLE_NAMES[role]}: {game.home[role]}"

    def held(role: int) -> str:
        raza, cadra = game.prisoners[role]
        return f"   holds {raza} raža, {cadra} čadra" if raza or cadra else ""

    def pair(left: str, right: str) -> str:
        return (left.ljust(29) + right).rstrip() if left or right else ""

    # The moras as they lie: b3 c3 above (tameg), b2 c2 below (veradi).
    middle = [
        "",
        pair(mora(3), mora(1)),
        pair(held(3), held(1)),
        "",
        pair(mora(0), mora(2)),
        pair(held(0), held(2)),
        "",
        "",
    ]
    lines = ["tameg (north)", row(north, True), row(north, False)]
    for i in range(8):
        west, east = 8 - i, 19 + i
        inner = middle[i]
        left = f"{CELLS[west]:<3}{cell_text(game, west):<5}"
        lines.append(left + "  " + inner.ljust(62) + f"{cell_text(game, east):<5}{CELLS[east]}")
    lines += [row(south, False), row(south, True), "veradi (south)"]
    ties = game.ties()
    if ties:
        lines.append("standing ties: " + ", ".join(ties))
    lines.append("R/C veradi raža/čadra · r/c tameg raža/čadra")
    return "\n".join(line.rstrip() for line in lines)
