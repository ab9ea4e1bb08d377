"""Chebache, a race game with stacks, jumps and a King, as settled in ``shared/rules/chebache.md``.

Seats: 0 = White (moves first), 1 = Black. Each player has 12 ordinary pieces and a King.

Geometry: a player's path is Start (0), spaces 1..17, Finish (18). ``PATHS[seat][n]`` is the
physical space of path position ``n``: squares ``a1``..``d4`` and intersections named by
their two files and two ranks (``bc23`` is I(bc,23)). Odd positions are intersections shared
by both players; squares 2/10 and 8/16 are one physical space each.

Pieces have ids: White 0..11 and its King 12, Black 13..24 and its King 25. A King's
``owner`` flips when it is captured. ``pos[id]`` is the path position in the owner's path.
Every physical board space holds one ordered stack (bottom first) in ``stacks``; Start and
Finish are piles (no order, no limit) given by ``pos`` 0 and 18.

What a renderer reads (all in ``_state()``):
- ``owner`` [26], ``pos`` [26], ``stacks`` {space: [ids bottom..top]}; ``KINGS`` = (12, 25).
- ``turn``, ``stage`` (roll | move | jump), ``dice`` (dice left), ``roll`` (the roll).
- ``pending``: intersections under an attack not yet complete (mid-turn only).
- ``chebaches()``: standing Chebaches per seat (letters); ``controlled_spaces(seat)``.
- ``history``: finished turns in the text's notation (``turn_log()``).

Rulings worth keeping in mind while reading the code:
- "No return to stay compares path positions, per piece, for pieces that moved this turn."
  A move is legal only if the turn can still end legally after it (pieces not back on their
  turn-start space, attacks complete, or a jump that carries a returned piece away).
- "An attack resolves as soon as it is sufficient; attackers still short of the defenders
  may not move on."
- "Entering Finish with a larger die uses the smallest die that still lets the turn end
  legally."
- Threats: "at the end of every turn, the mover's pieces on a space controlled by a standing
  opponent Chebache go back to Start (if the King, the mover loses)".
"""

from __future__ import annotations

import re
from typing import Any

from .base import DiceSpec, Game

WHITE, BLACK = 0, 1
COLOUR = ("W", "B")
START, FINISH = 0, 18
KINGS = (12, 25)
TIVITS = frozenset({2, 8, 10, 16})
LIMIT = 4
LETTERS = "ABCDEFGH"
# Letter index -> the opponent's path space it controls (same numbers for both players).
CONTROLS = (14, 16, 12, 8, 10, 6, 2, 4)

PATHS: tuple[tuple[str, ...], tuple[str, ...]] = (
    # fmt: off
    (
        "a4",
        "ab34",
        "b3",
        "bc34",
        "c4",
        "cd34",
        "d3",
        "cd23",
        "c2",
        "bc23",
        "b3",
        "ab23",
        "a2",
        "ab12",
        "b1",
        "bc12",
        "c2",
        "cd12",
        "d1",
    ),
    (
        "a1",
        "ab12",
        "b2",
        "bc12",
        "c1",
        "cd12",
        "d2",
        "cd23",
        "c3",
        "bc23",
        "b2",
        "ab23",
        "a3",
        "ab34",
        "b4",
        "bc34",
        "c3",
        "cd34",
        "d4",
    ),
    # fmt: on
)
# Physical intersection -> path number, per seat.
CROSS_NUMBER = tuple({PATHS[s][n]: n for n in range(1, 18, 2)} for s in (WHITE, BLACK))


def is_cross(space: str) -> bool:
    return len(space) == 4


def weight(piece: int) -> int:
    return 2 if piece in KINGS else 1


def group_text(group: list[int]) -> str:
    """Runs of a stack part bottom to top: ``2``, ``K``, ``1K``, ``K1``, ``1K1``, ``KK``."""
    text, run = "", 0
    for piece in group:
        if piece in KINGS:
            text += (str(run) if run else "") + "K"
            run = 0
        else:
            run += 1
    return text + (str(run) if run else "")


def space_name(seat: int, n: int) -> str:
    return "S" if n == START else "F" if n == FINISH else str(n)


def cell_name(space: str) -> str:
    return f"I({space[:2]},{space[2:]})" if is_cross(space) else space


class Board:
    """The mutable position used for move generation (copied for look-ahead)."""

    __slots__ = ("owner", "pos", "stacks", "turn", "dice", "start", "moved", "exempt", "pending")

    def __init__(self) -> None:
        self.owner = [WHITE] * 13 + [BLACK] * 13
        self.pos = [START] * 26
        self.stacks: dict[str, list[int]] = {}
        self.turn = WHITE
        self.dice: list[int] = []
        self.start = [START] * 26
        self.moved: set[int] = set()
        self.exempt: set[int] = set()
        self.pending: set[str] = set()

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.owner = self.owner[:]
        other.pos = self.pos[:]
        other.stacks = {k: v[:] for k, v in self.stacks.items()}
        other.turn = self.turn
        other.dice = self.dice[:]
        other.start = self.start
        other.moved = set(self.moved)
        other.exempt = set(self.exempt)
        other.pending = set(self.pending)
        return other

    # ---- queries ---------------------------------------------------------------

    def mine(self, seat: int) -> list[int]:
        return [i for i in range(26) if self.owner[i] == seat]

    def controller(self, space: str) -> int | None:
        stack = self.stacks.get(space)
        return self.owner[stack[0]] if stack else None

    def weight_of(self, space: str, seat: int, leaving: int = -1) -> int:
        return sum(
            weight(p) for p in self.stacks.get(space, ()) if self.owner[p] == seat and p != leaving
        )

    def chebaches(self, seat: int) -> list[int]:
        """Letter indices (0 = A) of ``seat``'s standing Chebaches."""
        path, found = PATHS[seat], []
        for index in range(8):
            k = 2 * index + 2
            if (
                self.controller(path[k - 1]) == seat
                and self.controller(path[k]) == seat
                and self.controller(path[k + 1]) == seat
            ):
                found.append(index)
        return found

    def controlled_against(self, seat: int) -> set[str]:
        """Physical spaces of ``seat`` controlled by the opponent's standing Chebaches."""
        return {PATHS[seat][CONTROLS[i]] for i in self.chebaches(1 - seat)}

    def returned(self) -> list[int]:
        return [
            i
            for i in self.moved
            if i not in self.exempt and self.owner[i] == self.turn and self.pos[i] == self.start[i]
        ]

    def clean(self) -> bool:
        return not self.pending and not self.returned()

    def won(self, seat: int) -> bool:
        return all(self.pos[i] == FINISH for i in self.mine(seat))

    def start_first(self, seat: int) -> bool:
        mine = self.mine(seat)
        return any(self.pos[i] == FINISH for i in mine) and any(self.pos[i] == START for i in mine)

    # ---- Phase I -----------------------------------------------------------------

    def playable(self) -> list[tuple[str, int, int, int, bool]]:
        """Every single die move now, ignoring the end-of-turn look-ahead:
        (text, piece, target, die, backward), dice ascending."""
        seat = self.turn
        if not self.dice:
            return []
        mine = self.mine(seat)
        pos = self.pos
        starters = [i for i in mine if pos[i] == START]
        movers: list[int] = []
        ordinary = [i for i in starters if i not in KINGS]
        if ordinary:
            movers.append(ordinary[0])
        movers += [i for i in starters if i in KINGS][:1]
        if not self.start_first(seat):
            for space, stack in self.stacks.items():
                top = stack[-1]
                if self.owner[top] == seat and space not in self.pending:
                    movers.append(top)
        near = all(pos[i] >= 13 for i in mine)
        furthest = min((pos[i] for i in mine if pos[i] != FINISH), default=FINISH)
        guarded = self.controlled_against(seat)
        found = []
        for die in sorted(set(self.dice)):
            for piece in movers:
                here, king = pos[piece], piece in KINGS
                there = here + die
                if there == FINISH or (there > FINISH and near and here == furthest):
                    found.append(
                        self._text(piece, here, FINISH, False) + (piece, FINISH, die, False)
                    )
                elif there < FINISH:
                    landing = self._landing(piece, there, guarded)
                    if landing is not None:
                        found.append(
                            self._text(piece, here, there, landing) + (piece, there, die, False)
                        )
                if here != START and (king or here in TIVITS) and here - die >= 1:
                    there = here - die
                    landing = self._landing(piece, there, guarded)
                    if landing is not None:
                        found.append(
                            self._text(piece, here, there, landing) + (piece, there, die, True)
                        )
        return found

    @staticmethod
    def _text(piece: int, here: int, there: int, attack: bool) -> tuple[str]:
        sign = "X" if attack else "/" if there > here else "\\"
        text = f"{space_name(0, here)}{sign}{space_name(0, there)}"
        return (f"K({text})" if piece in KINGS else text,)

    def _landing(self, piece: int, there: int, guarded: set[str]) -> bool | None:
        """None if ``piece`` may not land on path space ``there``; else whether it attacks."""
        seat = self.turn
        space = PATHS[seat][there]
        own = self.weight_of(space, seat, piece) + weight(piece)
        if own > LIMIT:
            return None
        if not is_cross(space):
            return None if space in guarded else False
        stack = self.stacks.get(space)
        if not stack or self.owner[stack[0]] == seat:
            return False
        if piece in KINGS and any(p in KINGS for p in stack if self.owner[p] != seat):
            return None  # King against King
        return True

    def apply_move(self, piece: int, there: int, die: int) -> list[tuple]:
        """Play one die move; returns events: ("attack", opp, kings, opp space),
        ("flip", space), ("sacrifice", n, space)."""
        seat = self.turn
        self.dice.remove(die)
        self.moved.add(piece)
        here = self.pos[piece]
        if START < here < FINISH:
            self._lift(PATHS[seat][here], piece)
        self.pos[piece] = there
        if there == FINISH:
            return []
        space = PATHS[seat][there]
        stack = self.stacks.setdefault(space, [])
        stack.append(piece)
        if self.owner[stack[0]] == seat:
            return []
        defenders = [p for p in stack if self.owner[p] != seat]
        attackers = [p for p in stack if self.owner[p] == seat]
        if sum(map(weight, attackers)) < sum(map(weight, defenders)):
            self.pending.add(space)
            return []
        self.pending.discard(space)
        opponent = 1 - seat
        kings = [p for p in defenders if p in KINGS]
        plain = [p for p in defenders if p not in KINGS]
        events: list[tuple] = [("attack", len(plain), len(kings), CROSS_NUMBER[opponent][space])]
        for p in plain:
            self.pos[p] = START
        if not kings:
            self.stacks[space] = attackers
            return events
        # "A King captured this turn counts its capture point as its turn-start space
        # (compared in its new owner's path numbers) and as not yet moved."
        self.start = self.start[:]  # shared with the look-ahead copies
        for king in kings:
            self.owner[king] = seat
            self.pos[king] = there
            self.start[king] = there
            self.moved.discard(king)
        events.append(("flip", there))
        if len(kings) == 2:
            keep, lost = [], attackers
        else:
            keep, lost = attackers[:2], attackers[2:]
        for p in lost:
            self.pos[p] = START
            self.exempt.add(p)
        self.stacks[space] = keep + kings
        if lost:
            events.append(("sacrifice", len(lost), there))
        return events

    def _lift(self, space: str, piece: int) -> None:
        stack = self.stacks[space]
        stack.remove(piece)
        if not stack:
            del self.stacks[space]

    # ---- Phase II ----------------------------------------------------------------

    def jumps(self) -> dict[str, tuple[str, int, int]]:
        """Legal jump actions: text -> (origin space, pieces from the top, target)."""
        seat = self.turn
        if self.start_first(seat):
            return {}
        path, guarded = PATHS[seat], self.controlled_against(seat)
        returned = set(self.returned())
        found: dict[str, tuple[str, int, int]] = {}
        for space, stack in self.stacks.items():
            if is_cross(space) or self.owner[stack[0]] != seat:
                continue
            for n in range(1, len(stack) + 1):
                group = stack[-n:]
                here = self.pos[group[0]]
                if any(self.pos[p] != here for p in group):
                    break  # a group from two path positions (2 and 10) has no single origin
                if not returned <= set(group):
                    continue
                heavy = sum(map(weight, group))
                kings_only = all(p in KINGS for p in group)
                prefix = group_text(group)
                prefix = "" if prefix == "1" else prefix
                for step in (1, -1):
                    if step < 0 and not (here in TIVITS or kings_only):
                        continue
                    cur = here
                    while True:
                        land = cur + 2 * step
                        if not 2 <= land <= 16 or self.controller(path[cur + step]) != seat:
                            break
                        target = path[land]
                        rest = sum(weight(p) for p in self.stacks.get(target, ()) if p not in group)
                        if rest + heavy > LIMIT or target in guarded:
                            break
                        if not any(self.start[p] == land and p in self.moved for p in group):
                            text = f"{here}^{land}"
                            found[f"{prefix}({text})" if prefix else text] = (space, n, land)
                        cur = land
                        if step < 0 and land not in TIVITS:
                            break
        return found

    def apply_jump(self, space: str, n: int, land: int) -> None:
        stack = self.stacks[space]
        group = stack[-n:]
        del stack[-n:]
        if not stack:
            del self.stacks[space]
        self.stacks.setdefault(PATHS[self.turn][land], []).extend(group)
        for p in group:
            self.pos[p] = land
            self.moved.add(p)

    # ---- look-ahead --------------------------------------------------------------

    def key(self) -> tuple:
        """Everything the rest of the turn's moves depend on: with the pieces alone, two ways
        to the same position that moved different pieces (so that a different piece may
        be owed its return, ``returned``) were one entry of ``can_finish``'s memo, and
        which came first decided the other's moves."""
        return (
            tuple(self.pos),
            tuple(self.owner),
            tuple(sorted((k, tuple(v)) for k, v in self.stacks.items())),
            tuple(self.dice),
            tuple(sorted(self.pending)),
            tuple(sorted(self.moved)),
            tuple(sorted(self.exempt)),
            tuple(self.start),
        )

    def attack_hopeless(self) -> bool:
        """A pending attack short by more than the remaining dice could bring (2 each)."""
        seat = self.turn
        for space in self.pending:
            stack = self.stacks[space]
            short = sum(weight(p) if self.owner[p] != seat else -weight(p) for p in stack)
            if short > 2 * len(self.dice):
                return True
        return False

    def can_finish(self, memo: dict[tuple, bool] | None = None) -> bool:
        """Can the turn still end legally from here (Phase I continuing as the rules allow)?"""
        if self.clean() or self.won(self.turn):
            return True
        if self.attack_hopeless():
            return False
        memo = {} if memo is None else memo
        key = self.key()
        if key in memo:
            return memo[key]
        memo[key] = False
        for _, piece, there, die, _ in self.playable():
            after = self.copy()
            after.apply_move(piece, there, die)
            if after.can_finish(memo):
                memo[key] = True
                return True
        result = not self.pending and not self.dice and bool(self.jumps())
        memo[key] = result
        return result

    def legal_moves(self) -> dict[str, tuple[int, int, int, bool]]:
        """Phase I actions: text -> (piece, target, die, backward)."""
        found: dict[str, tuple[int, int, int, bool]] = {}
        memo: dict[tuple, bool] = {}
        for text, piece, there, die, back in self.playable():
            if text in found:
                continue  # the smallest die that works wins (Finish with a larger die)
            after = self.copy()
            after.apply_move(piece, there, die)
            if after.clean() or after.can_finish(memo):
                found[text] = (piece, there, die, back)
        return found


class Chebache(Game):
    key = "chebache"
    title = "Chebache"
    seat_names = ("White", "Black")
    accepts_move_lines = True
    rules_summary = (
        "Race your 12 pieces and King from Start along your path (1..17) into Finish.\n"
        "**Phase I:** each die moves one piece (`2/7`, back from a Tivit `8\\6`, "
        "attack an intersection `3X9`, from Start `S/3`, King `K(4/10)`).\n"
        "**Phase II:** after using every die you may jump a stack over intersections you "
        "hold (`6^8`, `2(6^8)`) or `pass`.\n"
        "Three in a row (intersection, square, intersection) form a Chebache: it forbids a "
        "square to the opponent and sends back what stays there a turn. Trap the King to win."
    )

    # ---- state -------------------------------------------------------------

    def _setup(self) -> None:
        self.board = Board()
        self._moves: dict[str, tuple[int, int, int, bool]] | None = None
        self.stage = "roll"
        self.roll_dice: list[int] = []
        self.history: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None

    def _state(self) -> dict[str, Any]:
        b = self.board
        return {
            "owner": list(b.owner),
            "pos": list(b.pos),
            "stacks": {k: list(v) for k, v in sorted(b.stacks.items())},
            "turn": b.turn,
            "stage": self.stage,
            "dice": list(b.dice),
            "roll": list(self.roll_dice),
            "start": list(b.start),
            "moved": sorted(b.moved),
            "exempt": sorted(b.exempt),
            "pending": sorted(b.pending),
            "history": [dict(h) for h in self.history],
            "current": dict(self.current) if self.current else None,
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        b = Board()
        b.owner = [int(x) for x in data["owner"]]
        b.pos = [int(x) for x in data["pos"]]
        if len(b.owner) != 26 or len(b.pos) != 26:
            raise ValueError("bad Chebache position")
        b.stacks = {k: [int(p) for p in v] for k, v in data["stacks"].items() if v}
        b.turn = int(data["turn"])
        b.dice = [int(d) for d in data["dice"]]
        b.start = [int(x) for x in data.get("start", b.pos)]
        b.moved = set(data.get("moved", []))
        b.exempt = set(data.get("exempt", []))
        b.pending = set(data.get("pending", []))
        self.board = b
        self._changed()
        self.stage = data["stage"]
        self.roll_dice = list(data.get("roll", []))
        self.history = [dict(h) for h in data.get("history", [])]
        current = data.get("current")
        self.current = dict(current) if current else None

    @classmethod
    def from_position(
        cls,
        white: dict[int | str, str],
        black: dict[int | str, str],
        *,
        turn: int = WHITE,
        dice: tuple[int, ...] | None = None,
    ) -> Chebache:
        """A position from ``{path space: stack}`` per player, stacks bottom to top as runs
        (``"3"``, ``"K"``, ``"1K1"``); ``"S"`` and ``"F"`` name Start and Finish. Pieces not
        placed (the King included, unless the opponent holds it) stay in Start, or go to
        Finish when the spec names ``"S"`` itself. With ``dice`` the roll is made at once."""
        game = cls()
        b = game.board
        b.turn = turn
        spare = [list(range(12)), list(range(13, 25))]
        used: set[int] = set()
        for seat, spec in ((WHITE, white), (BLACK, black)):
            for where, runs in spec.items():
                n = {"S": START, "F": FINISH}.get(str(where).upper())
                n = int(where) if n is None else n
                stack: list[int] = []
                for chunk in re.findall(r"\d+|K", runs.upper()):
                    if chunk != "K":
                        stack += [spare[seat].pop(0) for _ in range(int(chunk))]
                        continue
                    king = KINGS[seat] if KINGS[seat] not in used else KINGS[1 - seat]
                    used.add(king)
                    b.owner[king] = seat
                    stack.append(king)
                for p in stack:
                    b.pos[p] = n
                if START < n < FINISH:
                    b.stacks.setdefault(PATHS[seat][n], []).extend(stack)
            rest = FINISH if any(str(k).upper() == "S" for k in spec) else START
            for p in spare[seat] + [k for k in KINGS if k not in used and b.owner[k] == seat]:
                b.pos[p] = rest
        b.start = list(b.pos)
        if dice is not None:
            game.roll(dice)
        return game

    # ---- queries -----------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else self.board.turn

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return {"roll": "roll", "move": "phase I", "jump": "phase II"}[self.stage]

    def _roll_needed(self) -> DiceSpec | None:
        return DiceSpec(2, 6) if self.stage == "roll" else None

    def chebaches(self) -> dict[int, list[str]]:
        return {s: [LETTERS[i] for i in self.board.chebaches(s)] for s in (WHITE, BLACK)}

    def controlled_spaces(self, seat: int) -> list[int]:
        """``seat``'s path spaces controlled by the opponent's standing Chebaches."""
        return [CONTROLS[i] for i in self.board.chebaches(1 - seat)]

    def threatened(self, seat: int) -> list[int]:
        """``seat``'s occupied path spaces under a standing opponent Chebache."""
        b = self.board
        guarded = b.controlled_against(seat)
        return sorted(
            {
                b.pos[p]
                for p in b.mine(seat)
                if START < b.pos[p] < FINISH and PATHS[seat][b.pos[p]] in guarded
            }
        )

    # ---- moves -------------------------------------------------------------

    def _phase1(self) -> dict[str, tuple[int, int, int, bool]]:
        """The Phase I moves of this position, worked out once: a ply asks for them three
        times (the legal moves, the move's own lookup, the next position's forced-phase
        check), each a look-ahead search. Every change to the board clears them
        (``_changed``); a copy shares them, as they are never changed in place."""
        if self._moves is None:
            self._moves = self.board.legal_moves()
        return self._moves

    def _changed(self) -> None:
        self._moves = None

    def _legal(self) -> list[str]:
        b = self.board
        if self.stage == "move":
            moves = self._phase1()
            found = list(moves)
            backward = moves and all(back for *_, back in moves.values())
            if backward and b.clean() and all(b.pos[p] >= 12 for p in b.mine(b.turn)):
                found.append("end")
            return found
        if self.stage == "jump":
            found = list(b.jumps())
            if b.clean():
                found.append("pass")
            return found
        return []

    def normalize(self, text: str) -> str:
        move = "".join(text.split())
        if move.lower() in ("end", "pass"):
            return move.lower()
        return move.upper()

    def _illegal_reason(self, move: str) -> str:
        if self.stage == "jump":
            return "Phase II: jump a stack like 6^8 or 2(6^8), or pass"
        if move == "pass":
            return "pass is for Phase II (after every die is used)"
        if "^" in move:
            return "jumps come after every die is used (Phase II)"
        return "not a legal move: dice moves look like 2/7, 8\\6, 3X9, S/3, 14/F, K(4/10)"

    def _apply_roll(self, dice: tuple[int, ...]) -> None:
        b = self.board
        self.roll_dice = list(dice)
        b.dice = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice)
        b.start = list(b.pos)
        b.moved, b.exempt, b.pending = set(), set(), set()
        self._changed()
        self.current = {"seat": b.turn, "dice": list(dice), "moves": [], "events": [], "jump": ""}
        self.stage = "move"
        self._advance()

    def _apply(self, move: str) -> None:
        b = self.board
        seat = b.turn
        assert self.current is not None
        if self.stage == "jump":
            if move != "pass":
                space, n, land = b.jumps()[move]
                b.apply_jump(space, n, land)
                self._changed()
                self.current["jump"] = move
            self._end_turn()
            return
        if move == "end":
            b.dice = []
            self._changed()
            self.current["forfeit"] = True
            self._end_turn()
            return
        piece, there, die, _ = self._phase1()[move]
        events = b.apply_move(piece, there, die)
        self._changed()
        self.current["moves"].append(move)
        for event in events:
            self.current["events"].append(self._event_text(seat, event))
        if b.won(seat):
            self._close_record()
            self.outcome = self._outcome((seat,), "all pieces in Finish")
            return
        if any(e[0] == "flip" for e in events):
            opponent = 1 - seat
            if not any(b.pos[p] != FINISH for p in b.mine(opponent)):
                self._close_record()
                self.outcome = self._outcome((), "the last piece in play was a captured King")
                return
        self._advance()

    def _event_text(self, seat: int, event: tuple) -> str:
        if event[0] == "attack":
            _, plain, kings, space = event
            return f"X{plain or ''}{'K' * kings}@{space}" if plain or kings else ""
        if event[0] == "flip":
            return f"K({COLOUR[1 - seat]}->{COLOUR[seat]}@{event[1]})"
        return f"-{event[1]}@{event[2]}"

    def _advance(self) -> None:
        """End phases and turns that have no choice left."""
        b = self.board
        if self.stage == "move" and not self._phase1():
            if not b.dice and b.jumps():
                self.stage = "jump"
            else:
                self._end_turn()
        if self.stage == "jump" and not b.jumps():
            self._end_turn()

    def _end_turn(self) -> None:
        b = self.board
        self._changed()
        seat = b.turn
        guarded = b.controlled_against(seat)
        trapped: dict[int, int] = {}
        king_trapped = False
        for space in list(b.stacks):
            if space not in guarded:
                continue
            for p in b.stacks[space]:
                if b.owner[p] != seat:
                    continue
                trapped[b.pos[p]] = trapped.get(b.pos[p], 0) + 1
                king_trapped |= p in KINGS
                b.pos[p] = START
            del b.stacks[space]
        assert self.current is not None
        self.current["trapped"] = [f"-{n}@{space}" for space, n in sorted(trapped.items())]
        self._close_record()
        if king_trapped:
            self.outcome = self._outcome((1 - seat,), "King trapped in Chebache")
            return
        b.turn = 1 - seat
        b.dice = []
        b.moved, b.exempt, b.pending = set(), set(), set()
        self.stage = "roll"

    def _close_record(self) -> None:
        if self.current is None:
            return
        rec = self.current
        rec["chebaches"] = self._chebache_text()
        rec["position"] = [self.position_line(WHITE), self.position_line(BLACK)]
        self.history.append(rec)
        self.current = None

    # ---- notation ----------------------------------------------------------

    def _chebache_text(self) -> str:
        parts = []
        for seat in (WHITE, BLACK):
            spaces = sorted(self.controlled_spaces(seat))
            if spaces:
                parts.append(COLOUR[seat] + ",".join(map(str, spaces)))
        return f"<{'; '.join(parts)}>" if parts else ""

    def position_line(self, seat: int) -> str:
        """``W: 2@S, 2K@2, 1@3, ...`` (stacks bottom to top, per path space)."""
        b = self.board
        mine = b.mine(seat)
        parts = []
        for n in range(19):
            here = [p for p in mine if b.pos[p] == n]
            if not here:
                continue
            if START < n < FINISH:
                order = b.stacks.get(PATHS[seat][n], [])
                here = [p for p in order if p in here]
                text = group_text(here)
            else:
                plain = sum(1 for p in here if p not in KINGS)
                text = (str(plain) if plain else "") + "K" * (len(here) - plain)
            parts.append(f"{text}@{space_name(seat, n)}")
        return f"{COLOUR[seat]}: " + ", ".join(parts)

    @staticmethod
    def _turn_line(number: int, rec: dict[str, Any]) -> str:
        dice = " ".join(map(str, rec["dice"]))
        parts = [f"{number}{COLOUR[rec['seat']]}: [{dice}]"]
        if rec["moves"]:
            parts.append(", ".join(rec["moves"]))
        parts += [e for e in rec["events"] if e]
        if rec.get("jump"):
            parts.append(rec["jump"])
        parts += rec.get("trapped", [])
        if rec.get("chebaches"):
            parts.append(rec["chebaches"])
        return "; ".join(parts)

    def turn_log(self, positions: bool = False) -> list[str]:
        """The game in the text's turn notation, one line per turn (the turn in progress
        last); with ``positions`` each turn is followed by its ``W:`` and ``B:`` lines."""
        lines: list[str] = []
        for number, rec in enumerate(self.history, start=1):
            lines.append(self._turn_line(number, rec))
            if positions:
                lines += rec["position"]
        if self.current and self.current["moves"]:
            lines.append(self._turn_line(len(self.history) + 1, self.current))
        return lines

    # ---- display -----------------------------------------------------------

    def describe_move(self, move: str) -> str:
        b = self.board
        if self.stage == "jump":
            if move == "pass":
                return "pass — no jump, end the turn"
            jumps = b.jumps()
            if move not in jumps:
                return move
            space, n, land = jumps[move]
            count = f"{n} pieces" if n > 1 else "1 piece"
            here = b.pos[b.stacks[space][-1]]
            there = cell_name(PATHS[b.turn][land])
            return f"{move} — jump {count} from {here} ({cell_name(space)}) to {land} ({there})"
        if move == "end":
            return "end — forfeit the remaining backward moves"
        moves = self._phase1()
        if move not in moves:
            return move
        piece, there, die, back = moves[move]
        who = "King" if piece in KINGS else "piece"
        where = "Finish" if there == FINISH else cell_name(PATHS[b.turn][there])
        text = f"{move} — {who} {'back' if back else 'forward'} {die} to {where}"
        if "X" in move:
            text += ", attacking"
        return text

    def status_line(self) -> str:
        if self.outcome is not None:
            return self.result_text()
        name = self.seat_names[self.board.turn]
        if self.stage == "roll":
            return f"{name} to roll"
        dice = " ".join(map(str, self.board.dice))
        if self.stage == "move":
            return f"{name} to move (phase I, dice left: {dice})"
        return f"{name} to jump or pass (phase II)"

    def summary(self) -> list[tuple[str, str]]:
        b = self.board
        fields = [("Phase", self.phase)]
        if self.stage != "roll" and self.outcome is None:
            fields.append(("Dice left", " ".join(map(str, b.dice)) or "none"))
        for seat in (WHITE, BLACK):
            mine = b.mine(seat)
            start = sum(1 for p in mine if b.pos[p] == START)
            finish = sum(1 for p in mine if b.pos[p] == FINISH)
            fields.append((self.seat_names[seat], f"Start {start} · Finish {finish}"))
        fields.append(("Chebaches", self._chebache_text() or "none"))
        if self.history:
            fields.append(("Last turn", self._turn_line(len(self.history), self.history[-1])))
        if self.outcome is None:
            seat = b.turn
            danger = self.threatened(seat)
            if danger:
                where = ", ".join(str(n) for n in danger)
                fields.append(
                    ("Warning", f"CHEBACHE! {self.seat_names[seat]}'s space {where} threatened")
                )
        return fields

    def text_board(self) -> str:
        return draw_board(self)


def draw_board(game: Chebache) -> str:
    """Rank 4 on top; each square shows its name, owner's path numbers and stack (bottom to
    top, ``W``/``B`` then runs); intersection stacks sit on the grid lines between squares."""
    b = game.board
    width = 11
    labels: dict[str, str] = {}
    for seat in (WHITE, BLACK):
        for n in range(0, 19, 2):
            space = PATHS[seat][n]
            old = labels.get(space)
            name = space_name(seat, n)
            labels[space] = f"{old}/{name}" if old else f"{COLOUR[seat].lower()}{name}"

    def stack_text(space: str) -> str:
        stack = b.stacks.get(space, [])
        if not stack:
            return ""
        chunks, run, colour = [], [], b.owner[stack[0]]
        for p in stack:
            if b.owner[p] != colour:
                chunks.append(COLOUR[colour] + group_text(run))
                run, colour = [], b.owner[p]
            run.append(p)
        chunks.append(COLOUR[colour] + group_text(run))
        return "+".join(chunks)

    def pile(seat: int, n: int) -> str:
        here = [p for p in b.mine(seat) if b.pos[p] == n]
        plain = sum(1 for p in here if p not in KINGS)
        return f"{COLOUR[seat]}{plain}" + "K" * (len(here) - plain)

    piles = {
        PATHS[WHITE][START]: pile(WHITE, START),
        PATHS[BLACK][START]: pile(BLACK, START),
        PATHS[WHITE][FINISH]: pile(WHITE, FINISH),
        PATHS[BLACK][FINISH]: pile(BLACK, FINISH),
    }
    files = "abcd"
    border = "  +" + "+".join("-" * width for _ in files) + "+"
    lines = ["   " + "".join(f"{f:^{width + 1}}" for f in files)]
    for rank in "4321":
        if rank != "4":
            line = list(border)
            upper = str(int(rank) + 1)
            for i in range(3):
                text = stack_text(files[i : i + 2] + rank + upper)
                if text:
                    text = f"({text})"
                    at = 2 + (width + 1) * (i + 1) - len(text) // 2
                    line[at : at + len(text)] = text
            lines.append("".join(line))
        else:
            lines.append(border)
        names = [f"{f}{rank} {labels[f + rank]}" for f in files]
        stacks = [piles.get(f + rank) or stack_text(f + rank) for f in files]
        lines.append(f"{rank} |" + "|".join(f"{t:^{width}}" for t in names) + "|")
        lines.append("  |" + "|".join(f"{t:^{width}}" for t in stacks) + "|")
    lines.append(border)
    cross = [
        f"{cell_name(PATHS[WHITE][n])} W{n}=B{CROSS_NUMBER[BLACK][PATHS[WHITE][n]]}"
        for n in range(1, 18, 2)
    ]
    lines.append("Intersections: " + ", ".join(cross[:5]))
    lines.append("  " + ", ".join(cross[5:]))
    return "\n".join(line.rstrip() for line in lines)
