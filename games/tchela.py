"""Tchela, a four-row mancala of Middle Africa, as settled in ``shared/rules/tchela.md``.

Seats: 0 = South (opens first), 1 = North. Each player sows only round its own two rows.

Holes are numbered per player in sowing order: 1..W along the outer row from the player's
left to right, W+1..2W along the inner row from right to left (W = 8, or 6 on ``4x6``).
Internally a player's *side* is one flat list: its 2W holes (index = hole number - 1)
followed by its stores (index 2W is store 1, 2W+1 store 2). The sowing order, stores
included, is the tuple ``Layout.cycle`` of those indices, so sowing is a tight loop over a
list.

What a renderer reads (all in ``_state()``, so it survives JSON):
- ``holes(seat)`` / state ``holes[seat]``: counters per hole, index = hole number - 1.
- ``stores(seat)`` / state ``stores[seat]``: [store 1] or [store 1, store 2], each 0 or 1.
- ``captured``: counters captured by [South, North]; ``turn``; ``opened`` [South, North].
- ``last``: the last move's trace, or None: ``seat``, ``move`` (canonical), ``kind``
  (open | hole | store | skip), ``start`` (hole number, or "s1"/"s2"), ``pairs`` (opening:
  [from, to] hole pairs in order), ``sown`` (the hole or store whose counters were sown: the
  last pair in an opening), ``count`` (counters it held), ``drops`` (every place a counter
  fell, in order, across relays: hole numbers or "s1"/"s2", all on the mover's side),
  ``relays`` ([hole, counters picked up] in order), ``advanced`` (hole positions advanced,
  stores not counted), ``laps`` (advanced / holes per side, 2 decimals), ``end`` (the
  last place), ``captured`` ([opponent hole, counters] taken), ``safeguard`` (the 20-lap
  safeguard stopped the move).
- ``safeguard_plies``: the plies (1-based) whose move the safeguard stopped.
- ``layout``: ``width`` (8 or 6), ``stores`` (1 or 2), ``cycle`` (sowing order).

Rulings worth keeping in mind while reading the code:
- "The first time a move's sowing passes a store that is empty, the player chooses whether
  to drop a counter into it; if the player declines, or the store is full at that moment,
  the store is skipped for the rest of that move." The choice is part of the move (``7+s``).
- "Empty" means empty at the moment the last counter drops.
- "When a relay would start and 20 laps or more have been advanced, the counters stay where
  they are and the move ends with no capture" (hole positions only; stores not counted).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, NamedTuple

from .base import Game

SOUTH, NORTH = 0, 1
SAFEGUARD_LAPS = 20
KEY_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/"


@dataclass(frozen=True)
class Layout:
    """The geometry of one board: ``width`` holes per row, ``stores`` stores per player."""

    width: int
    stores: int

    @property
    def holes(self) -> int:
        return 2 * self.width

    @property
    def places(self) -> int:
        return self.holes + self.stores

    @property
    def limit(self) -> int:
        """Hole positions a move may advance before the safeguard forbids a relay."""
        return SAFEGUARD_LAPS * self.holes

    @cached_property
    def cycle(self) -> tuple[int, ...]:
        """Place indices in sowing order: store 1 after hole W, store 2 after hole W + W/2."""
        order: list[int] = []
        for hole in range(self.holes):
            order.append(hole)
            if hole == self.width - 1:
                order.append(self.holes)
            if self.stores == 2 and hole == self.width + self.width // 2 - 1:
                order.append(self.holes + 1)
        return tuple(order)

    @cached_property
    def position_of(self) -> tuple[int, ...]:
        """Place index -> its index in ``cycle``."""
        where = [0] * self.places
        for position, place in enumerate(self.cycle):
            where[place] = position
        return tuple(where)

    def is_inner(self, hole: int) -> bool:
        return self.width <= hole < self.holes

    def facing(self, hole: int) -> int:
        """The opponent's inner hole opposite our inner ``hole`` (0-based: 9 faces 16)."""
        return 3 * self.width - 1 - hole

    def behind(self, opponent_inner: int) -> int:
        """The opponent's outer hole behind its inner hole (0-based: behind 16 is 1)."""
        return 2 * self.width - 1 - opponent_inner

    def store_names(self) -> tuple[str, ...]:
        """Names used in the move notation: ``s`` with one store, ``s1``/``s2`` with two."""
        return ("s",) if self.stores == 1 else ("s1", "s2")

    def place_name(self, place: int) -> int | str:
        """Hole number (1-based) or ``"s1"``/``"s2"`` as written in the last-move trace."""
        return place + 1 if place < self.holes else f"s{place - self.holes + 1}"


@cache
def layout_for(variants: frozenset[str]) -> Layout:
    return Layout(6 if "4x6" in variants else 8, 2 if "two-stores" in variants else 1)


class Sowing(NamedTuple):
    """What one sowing did. ``end`` is a place index; ``offered`` a bitmask of stores."""

    end: int
    advanced: int  # hole positions advanced (stores not counted)
    offered: int  # stores passed while empty (a store choice was open there)
    stopped: bool  # the 20-lap safeguard ended the move


def sow(
    layout: Layout,
    side: list[int],
    position: int,
    hand: int,
    accept: int,
    drops: list[int] | None = None,
    relays: list[tuple[int, int]] | None = None,
) -> Sowing:
    """Sow ``hand`` counters on ``side`` (mutated) from the cycle position after ``position``.

    ``accept`` is a bitmask of the stores the player drops into at their first pass.
    Relays continue until the last counter falls into an empty hole or a store, or the
    safeguard stops the move. ``drops`` and ``relays`` collect the path when given.
    """
    cycle, holes, limit = layout.cycle, layout.holes, layout.limit
    length = len(cycle)
    decided = offered = advanced = 0
    while True:
        while True:  # drop the hand, one counter per place
            position += 1
            if position == length:
                position = 0
            place = cycle[position]
            if place >= holes:
                bit = 1 << (place - holes)
                if decided & bit:
                    continue  # "skipped for the rest of that move"
                decided |= bit
                if side[place]:
                    continue  # full at its first pass: skipped
                offered |= bit
                if not accept & bit:
                    continue  # declined
                side[place] = 1
                if drops is not None:
                    drops.append(place)
                hand -= 1
                if not hand:  # "Ending in a store ends the move with no capture."
                    return Sowing(place, advanced, offered, False)
                continue
            side[place] += 1
            advanced += 1
            if drops is not None:
                drops.append(place)
            hand -= 1
            if not hand:
                break
        count = side[place]
        if count == 1:  # the hole was empty when the last counter dropped
            return Sowing(place, advanced, offered, False)
        if advanced >= limit:
            return Sowing(place, advanced, offered, True)
        if relays is not None:
            relays.append((place, count))
        side[place] = 0
        hand = count


def pair_up(layout: Layout, side: list[int], start: int) -> tuple[list[tuple[int, int]], int]:
    """The opening's pairing from hole ``start``: returns the pairs made and the last one.

    "The counter in h is sown into h+1, making a pair. Then the counter in the hole after
    the pair is sown into the next hole ... until the next hole to take from is empty."
    Stores are ignored. Every step moves on by two holes, so one round at most.
    """
    holes = layout.holes
    pairs: list[tuple[int, int]] = []
    take = start
    while True:
        target = (take + 1) % holes
        side[target] += side[take]
        side[take] = 0
        pairs.append((take, target))
        take = (target + 1) % holes
        if not side[take]:
            return pairs, target


class Plan(NamedTuple):
    """A parsed move: ``kind`` is open | hole | store | skip; places are 0-based indices."""

    kind: str
    origin: int  # the hole (or store place) chosen
    accept: int = 0  # store choice bitmask
    target: int = 0  # skip destination


class Trace:
    """Collects the path of one move for the last-move record."""

    def __init__(self) -> None:
        self.pairs: list[tuple[int, int]] = []
        self.hand = 0  # counters picked up for the (final) sowing
        self.drops: list[int] = []
        self.relays: list[tuple[int, int]] = []


def run_plan(layout: Layout, side: list[int], plan: Plan, trace: Trace | None = None) -> Sowing:
    """Play a sowing plan on ``side`` (mutated); the opening pairs first."""
    drops = trace.drops if trace else None
    relays = trace.relays if trace else None
    origin = plan.origin
    if plan.kind == "open":
        pairs, origin = pair_up(layout, side, origin)
        if trace:
            trace.pairs = pairs
    hand = side[origin]
    side[origin] = 0
    if trace:
        trace.hand = hand
    return sow(layout, side, layout.position_of[origin], hand, plan.accept, drops, relays)


def store_masks(run: Callable[[int], Sowing], stores: int) -> list[tuple[int, Sowing]]:
    """The store choices worth listing, each with its sowing: declining everything, plus
    every choice in which each accepted store really was passed while empty."""
    plain = run(0)
    found = [(0, plain)]
    if not plain.offered:
        return found  # accepting a store never passed changes nothing
    for mask in range(1, 1 << stores):
        single_store = not mask & (mask - 1)
        if single_store and not plain.offered & mask:
            continue  # identical to declining it: the sowing never passes it empty
        sowing = run(mask)
        if sowing.offered & mask == mask:
            found.append((mask, sowing))
    return found


class Tchela(Game):
    key = "tchela"
    title = "Tchela"
    variants = {
        "4x6": "four rows of six holes (24 counters)",
        "two-stores": "a second store per player in the middle of its inner row",
    }
    seat_names = ("South", "North")
    rules_summary = (
        "Four rows of holes, one counter in each; you own the two rows nearest you and sow "
        "only round them, anticlockwise (holes 1-8 outer row left to right, 9-16 inner row "
        "back).\n"
        "**Opening:** `open5` pairs your counters up from hole 5, then sows the last pair.\n"
        "**Move:** sow a hole (`7`). Last counter in an occupied hole: pick them up and go on. "
        "In an empty inner hole: take the opponent's inner hole opposite and the outer hole "
        "behind it.\n"
        "**Store:** holds one counter, safe from capture; `7+s` drops into it on the way, "
        "`s` sows it.\n"
        "**Skip:** a lone counter in 15 under threat may jump to 1 or 2 (`15>1`).\n"
        "No counters left: you lose. Threefold repetition: draw."
    )

    # ---- state -------------------------------------------------------------

    def _setup(self) -> None:
        self.layout = layout_for(self.variant_set)
        holes, stores = self.layout.holes, self.layout.stores
        self.sides: list[list[int]] = [[1] * holes + [0] * stores for _ in range(2)]
        self.captured = [0, 0]
        self.turn = SOUTH
        self.opened = [False, False]
        self.last: dict[str, Any] | None = None
        self.safeguard_plies: list[int] = []
        self.positions: Counter[str] = Counter()
        self._record_position()

    def _state(self) -> dict[str, Any]:
        holes = self.layout.holes
        return {
            "holes": [side[:holes] for side in self.sides],
            "stores": [side[holes:] for side in self.sides],
            "captured": list(self.captured),
            "turn": self.turn,
            "opened": list(self.opened),
            "last": self.last,
            "safeguard_plies": list(self.safeguard_plies),
            "positions": dict(self.positions),
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        holes, stores = self.layout.holes, self.layout.stores
        sides = []
        for seat in (SOUTH, NORTH):
            row, store = list(data["holes"][seat]), list(data["stores"][seat])
            if len(row) != holes or len(store) != stores:
                raise ValueError("Tchela board does not match its variant")
            if any(not isinstance(c, int) or c < 0 for c in row + store) or max(store) > 1:
                raise ValueError("bad counter count in a Tchela board")
            sides.append(row + store)
        self.sides = sides
        self.captured = list(data["captured"])
        self.turn = int(data["turn"])
        self.opened = [bool(x) for x in data["opened"]]
        self.last = data.get("last")
        self.safeguard_plies = list(data.get("safeguard_plies", []))
        self.positions = Counter(data.get("positions", {}))

    # ---- queries -----------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else self.turn

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return "main" if self.opened[self.turn] else "opening"

    def holes(self, seat: int) -> list[int]:
        """Counters in ``seat``'s holes; index = hole number - 1."""
        return self.sides[seat][: self.layout.holes]

    def stores(self, seat: int) -> list[int]:
        """Counters (0 or 1) in ``seat``'s stores: [store 1] or [store 1, store 2]."""
        return self.sides[seat][self.layout.holes :]

    def on_board(self, seat: int) -> int:
        return sum(self.sides[seat])

    # ---- move generation ---------------------------------------------------

    def _plans(self, seat: int) -> list[tuple[Plan, Sowing]]:
        """Every sowing ``seat`` could make now (openings in its opening), each simulated on
        a copy of its side, with every store choice worth listing."""
        layout, side = self.layout, self.sides[seat]
        holes = layout.holes
        opening = not self.opened[seat] and any(side[:holes])
        found: list[tuple[Plan, Sowing]] = []
        for origin in range(holes if opening else layout.places):
            if not side[origin]:
                continue
            kind = "open" if opening else "hole" if origin < holes else "store"

            def run(mask: int, kind: str = kind, origin: int = origin) -> Sowing:
                return run_plan(layout, side[:], Plan(kind, origin, mask))

            choices = store_masks(run, layout.stores)
            found += [(Plan(kind, origin, mask), sowing) for mask, sowing in choices]
        return found

    def best_capture(self, seat: int) -> int:
        """The most counters ``seat`` could capture with one sowing made now (as if it were
        its turn; its openings during its opening): each sowing is simulated on a copy of
        its side, and a capture is the opponent's inner hole facing the empty inner hole
        where it ends, with the outer hole behind (as ``_capture`` takes them). 0 if none."""
        layout, opponent = self.layout, self.sides[1 - seat]
        best = 0
        for _, sowing in self._plans(seat):
            end = sowing.end
            if sowing.stopped or not layout.is_inner(end):
                continue
            inner = layout.facing(end)
            if opponent[inner]:
                best = max(best, opponent[inner] + opponent[layout.behind(inner)])
        return best

    def _threatened(self, seat: int) -> bool:
        """Could the opponent, moving now, capture ``seat``'s hole 2W-1 (15)?"""
        layout = self.layout
        facing = layout.facing(layout.holes - 2)
        # A sowing returns at an empty hole, a store or a safeguard stop; ending in the empty
        # facing hole captures our (occupied) hole 15.
        return any(
            sowing.end == facing and not sowing.stopped for _, sowing in self._plans(1 - seat)
        )

    def _skip_plans(self, seat: int) -> list[Plan]:
        """ "If hole 15 holds exactly one counter, hole 16 is empty, and the opponent has a
        move that would capture hole 15 on its next turn", move it to an empty hole 1 or 2."""
        if not self.opened[seat]:
            return []  # "No skip during the opening."
        side, last = self.sides[seat], self.layout.holes - 1
        if side[last - 1] != 1 or side[last] or (side[0] and side[1]):
            return []
        if not self._threatened(seat):
            return []
        return [Plan("skip", last - 1, 0, target) for target in (0, 1) if not side[target]]

    def _legal_plans(self) -> dict[str, Plan]:
        seat = self.turn
        plans = {self.notation(plan): plan for plan, _ in self._plans(seat)}
        plans.update({self.notation(p): p for p in self._skip_plans(seat)})
        return plans

    def _legal(self) -> list[str]:
        return list(self._legal_plans())

    # ---- notation ----------------------------------------------------------

    def notation(self, plan: Plan) -> str:
        """The canonical spelling of a plan: ``7``, ``open5+s``, ``s1+s1s2``, ``15>1``."""
        names = self.layout.store_names()
        if plan.kind == "skip":
            return f"{plan.origin + 1}>{plan.target + 1}"
        if plan.kind == "store":
            text = names[plan.origin - self.layout.holes]
        else:
            text = ("open" if plan.kind == "open" else "") + str(plan.origin + 1)
        if plan.accept:
            chosen = [n for i, n in enumerate(names) if plan.accept >> i & 1]
            text += "+" + "".join(chosen)
        return text

    def normalize(self, text: str) -> str:
        move = re.sub(r"\s+", "", text.lower()).replace("->", ">")
        base, plus, suffix = move.partition("+")
        one_store = self.layout.stores == 1
        if one_store and base in ("s1", "store"):
            base = "s"
        if base.isdigit() and not self.opened[self.turn] and self.outcome is None:
            base = "open" + base  # in the opening, "5" can only mean open5
        if not plus:
            return base
        tokens = suffix.replace("+", "")
        if not re.fullmatch(r"(s[12]?)+", tokens):
            return move
        names = re.findall(r"s[12]?", tokens)
        if one_store:
            names = ["s" if n in ("s", "s1") else n for n in names]
        return base + "+" + "".join(sorted(set(names)))

    def _illegal_reason(self, move: str) -> str:
        layout, seat = self.layout, self.turn
        side = self.sides[seat]
        names = layout.store_names()
        base = move.partition("+")[0]
        opening = not self.opened[seat]
        number = re.fullmatch(r"(open)?([0-9]+)", base)
        if opening and not base.startswith("open"):
            return "this is your opening: pick a hole with `openH`, e.g. open5"
        if not opening and base.startswith("open"):
            return "the opening is over: sow a hole by its number, e.g. 7"
        if number:
            digits = number.group(2)
            hole = int(digits) if len(digits) <= 3 else 0  # 5,000 digits are no int
            if not 1 <= hole <= layout.holes:
                return f"holes are numbered 1 to {layout.holes}"
            if not side[hole - 1]:
                return f"hole {hole} is empty"
        if base in names:
            if not side[layout.holes + names.index(base)]:
                return f"store {base} is empty"
        elif base[:1] == "s":
            return "your store is written " + " or ".join(names)
        if ">" in move:
            return (
                f"a skip needs one lone counter in hole {layout.holes - 1}, hole "
                f"{layout.holes} empty, hole 1 or 2 empty, and an opponent move that would "
                f"capture hole {layout.holes - 1}"
            )
        if "+" in move:
            return f"sowing {base} does not pass an empty store like that (store choice)"
        return "not a legal move: write a hole number like 7, a store like s, or 15>1"

    def _plan_of(self, move: str) -> Plan:
        """The plan of a canonical move string (assumed legal)."""
        layout = self.layout
        if ">" in move:
            origin, target = move.split(">")
            return Plan("skip", int(origin) - 1, 0, int(target) - 1)
        base, _, suffix = move.partition("+")
        names = layout.store_names()
        accept = sum(1 << i for i, n in enumerate(names) if n in re.findall(r"s[12]?", suffix))
        if base in names:
            return Plan("store", layout.holes + names.index(base), accept)
        if base.startswith("open"):
            return Plan("open", int(base[4:]) - 1, accept)
        return Plan("hole", int(base) - 1, accept)

    # ---- applying moves ----------------------------------------------------

    def _apply(self, move: str) -> None:
        seat = self.turn
        plan = self._plan_of(move)
        self.last = self._play(seat, plan, self.sides, self.captured) | {"move": move}
        if self.last["safeguard"]:
            self.safeguard_plies.append(self.ply + 1)
        self.opened[seat] = True
        self.turn = 1 - seat
        self._after_move(seat)

    def _play(
        self, seat: int, plan: Plan, sides: list[list[int]], captured: list[int]
    ) -> dict[str, Any]:
        """Apply ``plan`` to ``sides`` and ``captured`` (mutated); return the move's trace."""
        layout = self.layout
        name = layout.place_name
        side, opponent = sides[seat], sides[1 - seat]
        trace = Trace()
        record: dict[str, Any] = {
            "seat": seat,
            "kind": plan.kind,
            "start": name(plan.origin),
            "pairs": [],
            "sown": name(plan.origin),
            "count": side[plan.origin],
            "drops": [],
            "relays": [],
            "advanced": 0,
            "laps": 0.0,
            "end": None,
            "captured": [],
            "safeguard": False,
        }
        if plan.kind == "skip":
            side[plan.origin], side[plan.target] = 0, 1
            record |= {"drops": [name(plan.target)], "end": name(plan.target)}
            return record
        sowing = run_plan(layout, side, plan, trace)
        taken = [] if sowing.stopped else self._capture(sowing.end, opponent)
        captured[seat] += sum(count for _, count in taken)
        if trace.pairs:
            record["sown"] = name(trace.pairs[-1][1])  # "the last pair made"
        record |= {
            "count": trace.hand,
            "pairs": [[name(a), name(b)] for a, b in trace.pairs],
            "drops": [name(p) for p in trace.drops],
            "relays": [[name(p), c] for p, c in trace.relays],
            "advanced": sowing.advanced,
            "laps": round(sowing.advanced / layout.holes, 2),
            "end": name(sowing.end),
            "captured": [[name(p), c] for p, c in taken],
            "safeguard": sowing.stopped,
        }
        return record

    def _capture(self, end: int, opponent: list[int]) -> list[tuple[int, int]]:
        """ "If the move ends in an empty hole of the player's inner row, and the opponent's
        inner hole opposite is occupied, capture its counters and also the counters in the
        opponent's outer hole behind it." Returns (opponent hole, count) pairs taken."""
        layout = self.layout
        if not layout.is_inner(end):  # outer row or a store
            return []
        inner = layout.facing(end)
        if not opponent[inner]:
            return []
        taken = [(inner, opponent[inner])]
        outer = layout.behind(inner)
        if opponent[outer]:
            taken.append((outer, opponent[outer]))
        for hole, _ in taken:
            opponent[hole] = 0
        return taken

    def _after_move(self, mover: int) -> None:
        seen = self._record_position()
        if not any(self.sides[self.turn]):
            # "A player who has no legal move on its turn (no counters in its holes or
            # stores) loses."
            self.outcome = self._outcome((mover,), "no legal move")
        elif seen >= 3:
            self.outcome = self._outcome((), "threefold repetition")

    def _position_key(self) -> str:
        board = "".join(
            KEY_DIGITS[c] if c < len(KEY_DIGITS) else f"({c})" for side in self.sides for c in side
        )
        phase = "".join("m" if done else "o" for done in self.opened)
        return f"{board}|{self.captured[0]},{self.captured[1]}|{self.turn}{phase}"

    def _record_position(self) -> int:
        key = self._position_key()
        self.positions[key] += 1
        return self.positions[key]

    # ---- display -----------------------------------------------------------

    def describe_move(self, move: str) -> str:
        """E.g. "hole 7 — sow 3, ends in hole 12, captures 4" (simulated on a copy)."""
        if move not in self.legal_moves():
            return move
        plan = self._plan_of(move)
        sides = [side[:] for side in self.sides]
        record = self._play(self.turn, plan, sides, [0, 0])
        return describe(record, self.layout)

    def status_line(self) -> str:
        if self.outcome is not None:
            return self.result_text()
        name = self.seat_names[self.turn]
        line = f"{name} to open" if not self.opened[self.turn] else f"{name} to move"
        if self.last and self.last["safeguard"]:
            mover = self.seat_names[self.last["seat"]]
            line += f" ({mover}'s last move was stopped by the 20-lap safeguard)"
        return line

    def summary(self) -> list[tuple[str, str]]:
        south, north = self.captured
        fields = [("Phase", self.phase), ("Captured", f"South {south} · North {north}")]
        if self.last:
            mover = self.seat_names[self.last["seat"]]
            move = self.last["move"]
            fields.append(("Last move", f"{mover} {move}: {describe(self.last, self.layout)}"))
        return fields

    def text_board(self) -> str:
        return draw_board(self)


# ---- text ---------------------------------------------------------------------------


def describe(record: dict[str, Any], layout: Layout) -> str:
    """A short reading of a move's trace, for menus and the summary."""

    def place(name: int | str) -> str:
        if isinstance(name, int):
            return f"hole {name}"
        return f"store {name}" if layout.stores == 2 else "the store"

    if record["kind"] == "skip":
        return f"skip — hole {record['start']} to hole {record['end']}, out of reach"
    if record["kind"] == "open":
        head = f"open from hole {record['start']} — {len(record['pairs'])} pairs"
        head += f", sow {record['count']} from hole {record['sown']}"
    elif record["kind"] == "store":
        head = f"{place(record['start'])} — sow 1"
    else:
        head = f"hole {record['start']} — sow {record['count']}"
    parts = [head]
    stored = sum(1 for d in record["drops"] if isinstance(d, str))
    if stored:
        parts.append("1 into a store" if stored == 1 else f"{stored} into stores")
    if record["relays"]:
        n = len(record["relays"])
        parts.append(f"{n} relay" + ("s" if n > 1 else ""))
    if record["laps"] >= 1:  # once round the 16 holes or more
        parts.append(f"{record['laps']:.1f} laps")
    if record["safeguard"]:
        parts.append(f"stopped by the 20-lap safeguard in hole {record['end']}")
        return ", ".join(parts)
    parts.append(f"ends in {place(record['end'])}")
    taken = sum(count for _, count in record["captured"])
    if taken:
        parts.append(f"captures {taken}")
    return ", ".join(parts)


def draw_board(game: Tchela) -> str:
    """North's rows on top (its hole 1 at the right), South's below (its hole 1 at the left).

    Store 1 sits at the right-hand end of its owner's rows (left of the picture for North);
    with ``two-stores`` store 2 sits in the middle of the owner's inner row.
    """
    layout = game.layout
    width, holes = layout.width, layout.holes
    names = ("s",) if layout.stores == 1 else ("s1", "s2")
    two = layout.stores == 2

    def store(seat: int, index: int) -> str:
        return f"{names[index]}({game.sides[seat][holes + index]})"

    def row(cells: list[str], middle: str = "") -> str:
        if two:
            half = width // 2
            cells = cells[:half] + [middle.center(7)] + cells[half:]
        return "".join(cells)

    def counts(seat: int, numbers: list[int], middle: str = "") -> str:
        return row([f"[{game.sides[seat][n - 1]:>2}]" for n in numbers], middle)

    def labels(numbers: list[int]) -> str:
        return row([f"{n:>3} " for n in numbers])

    # Hole numbers column by column, left to right as South sees the board.
    south_outer = list(range(1, width + 1))
    south_inner = list(range(holes, width, -1))
    north_outer = south_outer[::-1]
    north_inner = list(range(width + 1, holes + 1))
    margin = " " * 7
    lines = [
        f"North · captured {game.captured[NORTH]}",
        margin + labels(north_outer),
        margin + counts(NORTH, north_outer),
        store(NORTH, 0).ljust(6) + " " + counts(NORTH, north_inner, store(NORTH, 1) if two else ""),
        margin + labels(north_inner),
        margin + labels(south_inner),
        margin + counts(SOUTH, south_inner, store(SOUTH, 1) if two else "") + " " + store(SOUTH, 0),
        margin + counts(SOUTH, south_outer),
        margin + labels(south_outer),
        f"South · captured {game.captured[SOUTH]}",
    ]
    return "\n".join(line.rstrip() for line in lines)
