"""Poron Jikaida (12x18, six drins) and its small form Pastang, as settled in
``shared/rules/jikaida.md``.

Seats: 0 = Yellow (south, ranks 1-6 home), 1 = Blue (north). Who moves first is not fixed by
the rules: Yellow moves first by default; the variant ``blue-first`` (or ``set_first(seat)``
before the first move) lets Blue start.

Board squares are integers ``rank * width + file`` (both from 0). A piece is an int
``side * 16 + kind``; 0 is an empty square. Moves are generated pseudo-legally from
precomputed rays, then filtered for Kaida: the King is tested once per position, backwards
from its square for every kind of reach (rays for sliders and short-range pieces, knight
squares, runs of pieces for vaults, and the double moves of unmoved Deldars and Paktuns and
the Pallans' bent vaults, moves then vaults and front turns), and only the moves that could
change the answer (pinned pieces, King moves, squares the vault and Pallan tests read) are
tried on the board (see ``Jikaida._legal_targets``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

from .base import Game
from .jikaida_pieces import (
    BLUE,
    CODE,
    DRIN_AT,
    DRINS,
    KA,
    KIND_OF,
    NAME,
    PK,
    PROMO_WORDS,
    PROMOTIONS,
    SIDE_CHAR,
    SIDE_NAME,
    YELLOW,
    C,
    D,
    H,
    J,
    K,
    P,
    S,
)
from .jikaida_search import search_moves

# Front bits: the vertical front f|g, the horizontal fronts 6|7 and 12|13.
FV, FH1, FH2 = 1, 2, 4
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
DIRS = ORTH + DIAG
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

POPCOUNT = [bin(i).count("1") for i in range(8)]

BACK_YELLOW = (C, J, H, PK, PK, KA, P, K, KA, H, J, C)
BACK_BLUE = (C, J, H, KA, P, K, KA, PK, PK, H, J, C)
PASTANG_BACK = (D, S, D, D, S, D)


class Geometry:
    """Precomputed rays and front data for one board size."""

    def __init__(self, width: int, height: int):
        self.w, self.h = width, height
        n = width * height
        self.n = n
        self.file = [s % width for s in range(n)]
        self.rank = [s // width for s in range(n)]
        fronts = width == 12
        self.touch = [0] * n
        if fronts:
            for s in range(n):
                f, r = self.file[s], self.rank[s]
                t = 0
                if f in (5, 6):
                    t |= FV
                if r in (5, 6):
                    t |= FH1
                if r in (11, 12):
                    t |= FH2
                self.touch[s] = t
        self.fronts = fronts
        # rays[s][d] for the 8 directions (index into DIRS); per class truncations
        self.ray = [[self._ray(s, d) for d in DIRS] for s in range(n)]
        # truncate at the first forbidden square (crossed sets only grow along a ray)
        self.ray_adj = [[self._cut(s, d, "adj") for d in range(8)] for s in range(n)]
        self.ray_one = [[self._cut(s, d, "one") for d in range(8)] for s in range(n)]
        self.ray_free = [[self._cut(s, d, "none") for d in range(8)] for s in range(n)]
        self.knight = [self._knights(s) for s in range(n)]
        self.knight_one = [
            [t for t in self.knight[s] if POPCOUNT[self.crossed(s, t)] <= 1] for s in range(n)
        ]
        self.king = [[ray[0] for ray in self.ray[s] if ray] for s in range(n)]
        self.names = [self.name(s) for s in range(n)]
        # plain-move rays per piece kind (see ``Jikaida._targets``), for move generation
        self.slides = {
            D: [[ray[:2] for ray in self.ray_adj[s]] for s in range(n)],
            H: [self.ray_adj[s][4:] for s in range(n)],
            J: [self.ray_adj[s][:4] for s in range(n)],
            C: self.ray_one,
            KA: self.ray_one,
        }
        # the rays long enough for a vault over ``need`` pieces, per ``need``
        self.vault_rays = {
            need: [[ray for ray in self.ray[s] if len(ray) > need] for s in range(n)]
            for need in (2, 3)
        }
        # Tables for the attack test (``Jikaida._attacked``), indexed by ``a * n + b``:
        # the fronts crossed between a and b; where b is on a ray of a, its direction and
        # distance (``line``), else -1 and 0.
        self.cross = [self.crossed(a, b) for a in range(n) for b in range(n)]
        self.line_dir = [-1] * (n * n)
        self.line_dist = [0] * (n * n)
        for a in range(n):
            for d in range(8):
                for i, b in enumerate(self.ray[a][d], start=1):
                    self.line_dir[a * n + b] = d
                    self.line_dist[a * n + b] = i
        self.knight_one_set = [frozenset(ts) for ts in self.knight_one]
        self.dist = [  # Chebyshev (King-step) distance
            max(abs(self.file[a] - self.file[b]), abs(self.rank[a] - self.rank[b]))
            for a in range(n)
            for b in range(n)
        ]
        # The Pallan's front turns (see ``Jikaida._pallan_turns``), per square and direction:
        # orthogonal approach, the index on the ray of the first square beyond a front;
        # diagonal approach, the index of the last square before one and the fronts the turn
        # may cross. None where there is no turn.
        self.turn_orth: list[list[int | None]] = [[None] * 4 for _ in range(n)]
        self.turn_diag: list[list[tuple[int, int] | None]] = [[None] * 8 for _ in range(n)]
        for a in range(n):
            for d in range(4):
                for i, t in enumerate(self.ray[a][d]):
                    if self.crossed(a, t):
                        self.turn_orth[a][d] = i
                        break
            for d in range(4, 8):
                ray = self.ray[a][d]
                for i, t in enumerate(ray):
                    if self.crossed(a, t):
                        break
                    if i + 1 < len(ray) and self.crossed(t, ray[i + 1]):
                        self.turn_diag[a][d] = (i, self.crossed(t, ray[i + 1]))
                        break

    def on(self, f: int, r: int) -> bool:
        return 0 <= f < self.w and 0 <= r < self.h

    def sq(self, f: int, r: int) -> int:
        return r * self.w + f

    def _ray(self, s: int, d: tuple[int, int]) -> list[int]:
        f, r = self.file[s] + d[0], self.rank[s] + d[1]
        out = []
        while self.on(f, r):
            out.append(self.sq(f, r))
            f, r = f + d[0], r + d[1]
        return out

    def _knights(self, s: int) -> list[int]:
        f, r = self.file[s], self.rank[s]
        return [self.sq(f + a, r + b) for a, b in KNIGHT if self.on(f + a, r + b)]

    def crossed(self, s: int, t: int) -> int:
        if not self.fronts:
            return 0
        fs, ft, rs, rt = self.file[s], self.file[t], self.rank[s], self.rank[t]
        m = 0
        if (fs < 6) != (ft < 6):
            m |= FV
        if (rs < 6) != (rt < 6):
            m |= FH1
        if (rs < 12) != (rt < 12):
            m |= FH2
        return m

    def _cut(self, s: int, d: int, how: str) -> list[int]:
        out = []
        for t in self.ray[s][d]:
            c = self.crossed(s, t)
            if how == "adj" and c & ~self.touch[s]:
                break
            if how == "one" and POPCOUNT[c] > 1:
                break
            if how == "none" and c:
                break
            out.append(t)
        return out

    def name(self, s: int) -> str:
        return "abcdefghijkl"[self.file[s]] + str(self.rank[s] + 1)

    def parse(self, text: str) -> int | None:
        m = re.fullmatch(r"([a-l])(\d{1,2})", text)
        if not m:
            return None
        f, r = ord(m.group(1)) - 97, int(m.group(2)) - 1
        return self.sq(f, r) if self.on(f, r) else None

    def drin_name(self, s: int) -> str:
        if not self.fronts:
            return self.name(s).upper()
        f, r = self.file[s], self.rank[s]
        drin = DRIN_AT[(f // 6 * 6, r // 6 * 6)]
        return f"{drin} {'ABCDEF'[f % 6]}{r % 6 + 1}"


_GEOMETRY: dict[tuple[int, int], Geometry] = {}


def geometry(width: int, height: int) -> Geometry:
    if (width, height) not in _GEOMETRY:
        _GEOMETRY[(width, height)] = Geometry(width, height)
    return _GEOMETRY[(width, height)]


DIR_INDEX = {d: i for i, d in enumerate(DIRS)}
OPPOSITE = [DIR_INDEX[(-a, -b)] for a, b in DIRS]
# 45-degree neighbours of each direction
TURN45 = []
for _a, _b in DIRS:
    _ring = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    _i = _ring.index((_a, _b))
    TURN45.append((DIR_INDEX[_ring[(_i + 1) % 8]], DIR_INDEX[_ring[(_i - 1) % 8]]))

SQUARE_RE = re.compile(r"[a-l]\d{1,2}")
DRIN_RE = re.compile(r"(wersting|chavonth|neemu|leem|mortil|zhantil)\s*([a-f])\s*([1-6])", re.I)


class Jikaida(Game):
    key = "jikaida"
    title = "Poron Jikaida"
    aliases = ("poron", "poron-jikaida", "poron jikaida")
    variants = {
        "pastang": "Pastang: one drin, Deldars and Swods only, last side standing wins",
        "blue-first": "Blue moves first (Yellow by default)",
    }
    seat_names = ("Yellow", "Blue")
    second_seat_first = "blue-first"
    rules_summary = (
        "12x18 board of six 6x6 drins; fronts hinder movement.\n"
        "Nine pieces; Swods, Deldars and Paktuns have opening bonuses; any piece may vault "
        "(zeunt) along a line of 3+ pieces and capture from the 4th on.\n"
        "The Pallan may take friendly pieces and has one 'change' per move.\n"
        "Hyrkaida (mate) wins 1; Tikaida (no move) and Nikaida (bare King) win 1/2."
    )

    # ---- state -------------------------------------------------------------

    def _setup(self) -> None:
        self.pastang = "pastang" in self.variant_set
        self.geo = geometry(6, 6) if self.pastang else geometry(12, 18)
        self.line_min = 2 if self.pastang else 3
        g = self.geo
        self.board: list[int] = [0] * g.n
        if self.pastang:
            for f in range(6):
                self.board[g.sq(f, 0)] = PASTANG_BACK[f]
                self.board[g.sq(f, 1)] = S
                self.board[g.sq(f, 5)] = 16 + PASTANG_BACK[f]
                self.board[g.sq(f, 4)] = 16 + S
        else:
            for f in range(12):
                self.board[g.sq(f, 0)] = BACK_YELLOW[f]
                self.board[g.sq(f, 1)] = D
                self.board[g.sq(f, 2)] = S
                self.board[g.sq(f, 17)] = 16 + BACK_BLUE[f]
                self.board[g.sq(f, 16)] = 16 + D
                self.board[g.sq(f, 15)] = 16 + S
        self.unmoved: set[int] = {s for s in range(g.n) if self.board[s]}
        self.turn = BLUE if "blue-first" in self.variant_set else YELLOW
        self.fluttember = [not self.pastang, not self.pastang]
        self.last: dict[str, Any] | None = None
        self._memo: tuple[Any, list[str]] | None = None

    def set_first(self, seat: int) -> None:
        """Choose who moves first (only before the first move)."""
        if self.log:
            raise ValueError("the game has started")
        self.turn = seat
        self._legal_cache = None

    def _state(self) -> dict[str, Any]:
        g = self.geo
        return {
            "variant": "pastang" if self.pastang else "poron",
            "turn": SIDE_NAME[self.turn],
            "pieces": {
                g.name(s): SIDE_CHAR[v >> 4] + CODE[v & 15] for s, v in enumerate(self.board) if v
            },
            "unmoved": sorted((g.name(s) for s in self.unmoved if self.board[s]), key=_sqkey),
            "fluttember": {"yellow": self.fluttember[0], "blue": self.fluttember[1]},
            "last": self.last,
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        """Load a position (also the ``state`` of a saved game); what is not a position
        raises ValueError with a one-line message."""
        g = self.geo
        if not isinstance(data, dict):
            raise ValueError("a position is a JSON object")
        _check_depth(data)
        pieces = data.get("pieces")
        if not isinstance(pieces, dict):
            raise ValueError('a position needs "pieces": {"h1": "YK", ...}')
        board = [0] * g.n
        for name, code in pieces.items():
            s = self._square(name)
            if s is None:
                raise ValueError(f"no square {_shown(name)} on this board")
            if board[s]:
                raise ValueError(f"two pieces on {g.name(s)}")
            board[s] = self._piece(code, name)
        self._check_kings(board)
        turn = str(data.get("turn", "yellow")).strip().lower()
        if turn not in SIDE_NAME:
            raise ValueError(f'"turn" is "yellow" or "blue", not {_shown(data.get("turn"))}')
        names = data.get("unmoved")
        if names is None:
            # "Without an "unmoved" list, a piece counts as unmoved when it stands on one of
            # its own side's initial-array squares for its kind."
            initial = type(self)(["pastang"] if self.pastang else []).board
            unmoved = {s for s in range(g.n) if board[s] and board[s] == initial[s]}
        elif not isinstance(names, list):
            raise ValueError('"unmoved" is a list of squares')
        else:
            unmoved = set()
            for name in names:
                s = self._square(name)
                if s is None:
                    raise ValueError(f'no square {_shown(name)} on this board (in "unmoved")')
                unmoved.add(s)
        fl = data.get("fluttember", {"yellow": True, "blue": True})
        if not isinstance(fl, dict) or not all(
            isinstance(fl.get(side, True), bool) for side in SIDE_NAME
        ):
            raise ValueError('"fluttember" is {"yellow": true|false, "blue": true|false}')
        last = data.get("last")
        if last is not None:
            self._check_last(last)
        self.board = board
        self.turn = SIDE_NAME.index(turn)
        self.unmoved = {s for s in unmoved if board[s]}
        self.fluttember = [
            fl.get("yellow", True) and not self.pastang,
            fl.get("blue", True) and not self.pastang,
        ]
        self.last = last
        self._legal_cache = None

    def _square(self, name: Any) -> int | None:
        """The square a position names (``" H1 "`` is h1); None if there is none."""
        if not isinstance(name, str) or not name.isascii():
            return None
        return self.geo.parse(name.strip().lower())

    def _piece(self, code: Any, name: str) -> int:
        kinds = ("D", "S") if self.pastang else tuple(CODE.values())
        text = code.strip() if isinstance(code, str) else ""
        kind = KIND_OF.get(text[1:2].upper() + text[2:].lower())
        if text[:1].upper() not in ("Y", "B") or kind is None or CODE[kind] not in kinds:
            raise ValueError(
                f"unknown piece {_shown(code)} on {name.strip()}: write Y or B and a "
                f"{'Pastang ' if self.pastang else ''}piece letter ({', '.join(kinds)}), "
                f"e.g. {'YD or BS' if self.pastang else 'YK or BPk'}"
            )
        return "YB".index(text[0].upper()) * 16 + kind

    def _check_kings(self, board: list[int]) -> None:
        if self.pastang:
            if not any(board):
                raise ValueError("no pieces on the board")
            return
        for side in (YELLOW, BLUE):
            kings = board.count(side * 16 + K)
            if kings != 1:
                many = "more than one King" if kings else "no King"
                raise ValueError(f"{SIDE_NAME[side]} has {many}")

    def _check_last(self, last: Any) -> None:
        """``"last"``, the move that led here, as the bot saves it (a renderer draws it)."""
        g = self.geo

        def square(x: Any) -> bool:
            return isinstance(x, str) and g.parse(x) is not None and g.name(g.parse(x)) == x

        ok = (
            isinstance(last, dict)
            and last.get("side") in (0, 1)
            and isinstance(last.get("text"), str)
            and isinstance(last.get("move"), str)
            and square(last.get("from"))
            and square(last.get("to"))
            and all(
                isinstance(last.get(key) or [], list) and all(map(square, last.get(key) or []))
                for key in ("route", "vaulted")
            )
            and all(
                last.get(key) is None or isinstance(last.get(key), str)
                for key in ("kind", "captured", "promotion")
            )
        )
        if not ok:
            raise ValueError('"last" is the move that led here, as the bot saves it')

    def copy(self) -> Jikaida:
        """The same game (position, log, outcome), without a trip through JSON: cheap
        enough for searches."""
        twin = copy.copy(self)
        twin.board = list(self.board)
        twin.unmoved = set(self.unmoved)
        twin.fluttember = list(self.fluttember)
        twin.log = list(self.log)
        twin.last = copy.deepcopy(self.last)
        return twin

    @classmethod
    def from_position(cls, data: dict[str, Any]) -> Jikaida:
        """A game from a position: ``{"variant": "poron"|"pastang", "turn": "yellow",
        "pieces": {"h1": "YK", ...}, "unmoved": [...], "fluttember": {...}}``.

        Only ``pieces`` is required (turn: yellow; unmoved: the pieces standing on their
        own initial-array squares; Fluttember: both still available). The position is
        judged as if reached in play (it may already be over). What is not a position
        raises ValueError with a one-line message."""
        if not isinstance(data, dict):
            raise ValueError("a position is a JSON object")
        variant = str(data.get("variant", "poron")).strip().lower()
        if variant not in ("poron", "pastang"):
            raise ValueError(
                f'"variant" is "poron" or "pastang", not {_shown(data.get("variant"))}'
            )
        game = cls(["pastang"] if variant == "pastang" else [])
        game._load_state(data)
        if game.in_kaida(1 - game.turn):
            side = SIDE_NAME[1 - game.turn]
            raise ValueError(f"{side}'s King can be taken: {side} cannot have moved into Kaida")
        game._check_end(None)
        return game

    # ---- basic queries -----------------------------------------------------

    def piece_codes(self) -> dict[str, str]:
        """Square name -> code like "YK" (for renderers)."""
        return self._state()["pieces"]

    def count(self, side: int, kings: bool = True) -> int:
        return sum(1 for v in self.board if v and v >> 4 == side and (kings or v & 15 != K))

    def _bare(self, side: int, kings: bool = False) -> bool:
        """Has ``side`` no piece but its King (``kings``: no piece at all)?"""
        return not any(v and v >> 4 == side and (kings or v & 15 != K) for v in self.board)

    def is_light(self, square: str) -> bool:
        """Light (yellow) squares: file index + rank index odd (l1 and a18 are light)."""
        s = self.geo.parse(square)
        assert s is not None
        return (self.geo.file[s] + self.geo.rank[s]) % 2 == 1

    def king_square(self, side: int) -> int | None:
        want = side * 16 + K
        for s, v in enumerate(self.board):
            if v == want:
                return s
        return None

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else self.turn

    @property
    def phase(self) -> str:
        if self.outcome is not None:
            return "over"
        return "movement"

    def in_kaida(self, side: int | None = None) -> bool:
        side = self.turn if side is None else side
        if self.pastang:
            return False
        k = self.king_square(side)
        return k is not None and self._attacked(k, 1 - side)

    # ---- move generation -------------------------------------------------

    def _propt(self, s: int) -> bool:
        side = self.board[s] >> 4
        dd = side * 16 + D
        return any(self.board[t] == dd for t in self.geo.king[s])

    def _can_take(self, mover: int, t: int) -> bool:
        """May ``mover`` (a piece value) end on occupied square ``t``?"""
        v = self.board[t]
        if v >> 4 != mover >> 4:
            return not (mover & 15 == S and v & 15 == S and self._propt(t))
        return mover & 15 == P and v & 15 != K

    def _slide(self, mover: int, rays, out: set[int], limit: int = 99) -> None:
        board = self.board
        for ray in rays:
            for i, t in enumerate(ray):
                if i >= limit:
                    break
                if board[t]:
                    if self._can_take(mover, t):
                        out.add(t)
                    break
                out.add(t)

    def _leap(self, mover: int, targets, out: set[int]) -> None:
        board = self.board
        for t in targets:
            if not board[t] or self._can_take(mover, t):
                out.add(t)

    def _vault(self, mover: int, s: int, dirs, out: set[int]) -> None:
        """Straight vaults of ``mover`` standing on ``s``: over at least ``line_min``
        pieces in a row starting next to it, to the first empty square after them or onto
        any piece it may take from the ``line_min + 1``-th on. ``dirs``: direction indexes,
        or None for all eight."""
        board, need = self.board, self.line_min
        rays = self.geo.vault_rays[need][s] if dirs is None else [self.geo.ray[s][d] for d in dirs]
        for ray in rays:
            # line_min is 2 or 3
            if (
                len(ray) <= need
                or not board[ray[0]]
                or not board[ray[1]]
                or (need > 2 and not board[ray[2]])
            ):
                continue
            for t in ray[need:]:
                if board[t]:
                    if self._can_take(mover, t):
                        out.add(t)
                    continue
                out.add(t)
                break

    def _swod_dirs(self, side: int) -> tuple[int, int, int]:
        fwd = 1 if side == YELLOW else -1
        return DIR_INDEX[(0, fwd)], DIR_INDEX[(1, fwd)], DIR_INDEX[(-1, fwd)]

    def _targets(self, s: int) -> set[int]:
        """Pseudo-legal destinations of the piece on ``s``."""
        g, board = self.geo, self.board
        v = board[s]
        side, kind = v >> 4, v & 15
        out: set[int] = set()
        fresh = s in self.unmoved
        if kind == K:
            self._leap(v, g.king[s], out)
        elif kind == S:
            straight, d1, d2 = self._swod_dirs(side)
            reach = 3 if fresh else 1
            for t in g.ray[s][straight][:reach]:
                if board[t]:
                    break
                out.add(t)
            for d in (d1, d2):
                for t in g.ray[s][d][:reach]:
                    if board[t]:
                        if self._can_take(v, t):
                            out.add(t)
                        break
                    out.add(t)
            self._vault(v, s, (straight, d1, d2), out)
            return out
        elif kind == D:
            self._slide(v, g.ray_adj[s], out, 2)
            if fresh:
                self._deldar_double(v, s, out)
        elif kind == H:
            self._slide(v, g.ray_adj[s][4:], out)
        elif kind == J:
            self._slide(v, g.ray_adj[s][:4], out)
        elif kind == C:
            self._slide(v, g.ray_one[s], out)
        elif kind == PK:
            self._leap(v, g.knight_one[s], out)
            if fresh:
                self._paktun_double(v, s, out)
        elif kind in (KA, P):
            self._slide(v, g.ray_one[s], out)
            self._leap(v, g.knight_one[s], out)
            if kind == P:
                self._pallan_powers(v, s, out)
        self._vault(v, s, None, out)
        out.discard(s)
        return out

    def _deldar_double(self, v: int, s: int, out: set[int]) -> None:
        g, board = self.geo, self.board
        board[s] = 0
        try:
            for ray in g.ray_adj[s]:
                if len(ray) >= 2 and not board[ray[0]] and not board[ray[1]]:
                    self._slide(v, g.ray_adj[ray[1]], out, 2)
        finally:
            board[s] = v
        out.discard(s)

    def _paktun_double(self, v: int, s: int, out: set[int]) -> None:
        g, board = self.geo, self.board
        board[s] = 0
        try:
            for m in g.knight_one[s]:
                if not board[m]:
                    self._leap(v, g.knight_one[m], out)
        finally:
            board[s] = v
        out.discard(s)

    def _pallan_powers(self, v: int, s: int, out: set[int]) -> None:
        g, board = self.geo, self.board
        board[s] = 0
        try:
            if g.fronts:
                self._pallan_turns(v, s, out)
            # move then vault: a plain Kapt move without capture, then a straight vault
            stops = [t for rays in g.ray_one[s] for t in _empty_run(board, rays)]
            stops += [t for t in g.knight_one[s] if not board[t]]
            for e in stops:
                self._vault(v, e, None, out)
            self._bent_vaults(v, s, out)
        finally:
            board[s] = v
        out.discard(s)

    def _pallan_turns(self, v: int, s: int, out: set[int]) -> None:
        g, board = self.geo, self.board
        for d in range(4):  # orthogonal approach: turn on the first square beyond the front
            for t in g.ray[s][d]:
                if board[t]:
                    break
                if g.crossed(s, t):
                    for d2 in TURN45[d]:
                        self._slide(v, [g.ray_free[t][d2]], out)
                    break
        for d in range(4, 8):  # diagonal approach: turn on the last square before a front
            ray = g.ray[s][d]
            for i, t in enumerate(ray):
                if board[t] or g.crossed(s, t):
                    break
                if i + 1 < len(ray) and g.crossed(t, ray[i + 1]):
                    allowed = g.crossed(t, ray[i + 1])
                    for d2 in TURN45[d]:
                        for u in g.ray[t][d2]:
                            c = g.crossed(t, u)
                            if c & ~allowed:
                                break
                            if board[u]:
                                if self._can_take(v, u):
                                    out.add(u)
                                break
                            out.add(u)
                    break

    def _bent_vaults(self, v: int, s: int, out: set[int]) -> None:
        g, board, need = self.geo, self.board, self.line_min
        for d1 in range(8):
            ray = g.ray[s][d1]
            for i, p in enumerate(ray):
                if not board[p]:
                    break
                before = i + 1  # pieces passed up to and including the bend piece
                for d2 in range(8):
                    if d2 == d1 or d2 == OPPOSITE[d1]:
                        continue
                    n = before
                    for t in g.ray[p][d2]:
                        if board[t]:
                            n += 1
                            if n > need and self._can_take(v, t):
                                out.add(t)
                            continue
                        if n >= need and n > before:
                            out.add(t)
                        break

    def _pseudo(self, side: int) -> list[tuple[int, int]]:
        """Pseudo-legal moves (from, to) of ``side``."""
        return [(s, t) for s, targets in self._pseudo_targets(side) for t in targets]

    def _pseudo_targets(self, side: int) -> list[tuple[int, list[int]]]:
        """Pseudo-legal destinations of each piece of ``side`` that has some. The ordinary
        pieces inline what ``_targets`` does (their plain moves, leaps and vaults never reach
        a square twice); Pallans and unmoved Deldars and Paktuns go through ``_targets``."""
        g, board, unmoved = self.geo, self.board, self.unmoved
        need = self.line_min
        pieces: list[tuple[int, list[int]]] = []
        straight, left, right = self._swod_dirs(side)
        king_rays, slides, all_vault_rays = g.king, g.slides, g.vault_rays[need]
        for s, v in enumerate(board):
            if not v or v >> 4 != side:
                continue
            kind = v & 15
            if kind == P or (kind in (D, PK) and s in unmoved):
                special = self._targets(s)
                if special:
                    pieces.append((s, list(special)))
                continue
            targets: list[int] = []
            add = targets.append
            if kind == S:
                rays = g.ray[s]
                reach = 3 if s in unmoved else 1
                for t in rays[straight][:reach]:
                    if board[t]:
                        break
                    add(t)
                for d in (left, right):
                    for t in rays[d][:reach]:
                        w = board[t]
                        if w:
                            # a Swod next to its own Deldar is Propt: Swods cannot take it
                            if w >> 4 != side and not (
                                w & 15 == S and any(board[u] == w - S + D for u in king_rays[t])
                            ):
                                add(t)
                            break
                        add(t)
                vault_rays = [
                    ray for ray in (rays[straight], rays[left], rays[right]) if len(ray) > need
                ]
            else:
                if kind in (K, PK, KA):
                    for t in king_rays[s] if kind == K else g.knight_one[s]:
                        w = board[t]
                        if not w or w >> 4 != side:
                            add(t)
                if kind != K and kind != PK:
                    for ray in slides[kind][s]:
                        for t in ray:
                            w = board[t]
                            if w:
                                if w >> 4 != side:
                                    add(t)
                                break
                            add(t)
                vault_rays = all_vault_rays[s]
            for ray in vault_rays:
                # a vault passes at least ``need`` pieces, starting next to the vaulter
                if not (board[ray[0]] and board[ray[1]] and (need == 2 or board[ray[2]])):
                    continue
                for t in ray[need:]:
                    w = board[t]
                    if w:
                        if w >> 4 != side and not (
                            kind == S
                            and w & 15 == S
                            and any(board[u] == w - S + D for u in king_rays[t])
                        ):
                            add(t)
                        continue
                    add(t)
                    break
            if targets:
                pieces.append((s, targets))
        return pieces

    # ---- attacks -----------------------------------------------------------

    def _attacked(
        self,
        k: int,
        by: int,
        specials: list[tuple[int, int]] | None = None,
        board: list[int] | None = None,
    ) -> bool:
        """Could a piece of side ``by`` capture the King of the other side on ``k``?

        Every reach is tested backwards from ``k``: reverse rays for sliders and short-range
        pieces, the knight squares, then straight vaults (the contiguous runs of pieces
        around ``k``) and, for ``specials`` (``self._specials(by)``; one no longer on its
        square was taken), the reach the rays miss: the unmoved Deldars' and Paktuns' double
        moves and the Pallans' front turns, moves then vaults, and bent vaults. ``board``
        (default ``self.board``) is read by index only, so a recording list sees every
        square the answer depends on (see ``_legal_pairs``)."""
        if board is None:
            board = self.board
        return (
            self._ray_attack(k, by, board)
            or self._leap_attack(k, by, board)
            or self._far_attack(k, by, specials, board)
        )

    def _ray_attack(self, k: int, by: int, board: list[int]) -> bool:
        """Sliders, the King and short-range pieces, by reverse rays from ``k``: each ray
        reads its empty squares and stops at its first piece."""
        rays = self.geo.ray[k]
        for d in range(8):
            for n, p in enumerate(rays[d], start=1):
                v = board[p]
                if v:
                    if v >> 4 == by and self._ray_hit(k, d, n, p, v):
                        return True
                    break
        return False

    def _ray_hit(self, k: int, d: int, n: int, p: int, v: int) -> bool:
        """Can the piece ``v`` on ``p``, ``n`` squares from ``k`` in direction ``d`` with
        nothing between, capture on ``k`` by a plain move?"""
        g = self.geo
        kind = v & 15
        if kind == K:
            return n == 1
        c = g.cross[k * g.n + p]
        if kind == D:
            return n <= 2 and not c & ~g.touch[p]
        if kind == H:
            return d >= 4 and not c & ~g.touch[p]
        if kind == J:
            return d < 4 and not c & ~g.touch[p]
        if kind in (C, KA, P):
            return POPCOUNT[c] <= 1
        if kind == S and d >= 4:
            fwd = 1 if v >> 4 == YELLOW else -1
            return g.rank[k] - g.rank[p] == fwd * n and (n == 1 or (n <= 3 and p in self.unmoved))
        return False

    def _pins(self, k: int, by: int) -> dict[int, list[int]]:
        """For each piece of the King's side that is the first piece on a ray from ``k``
        while the next piece beyond it on that ray would attack ``k`` by a plain move: the
        squares of that ray it may move to (up to and including the attacker)."""
        board, rays = self.board, self.geo.ray[k]
        pins = {}
        for d in range(8):
            first = -1
            for n, p in enumerate(rays[d], start=1):
                v = board[p]
                if not v:
                    continue
                if first < 0:
                    if v >> 4 == by:
                        break
                    first = p
                    continue
                if v >> 4 == by and self._ray_hit(k, d, n, p, v):
                    pins[first] = rays[d][:n]
                break
        return pins

    def _leap_attack(self, k: int, by: int, board: list[int]) -> bool:
        """Paktuns, Kapts and Pallans a knight's leap from ``k``."""
        for p in self.geo.knight_one[k]:
            v = board[p]
            if v and v >> 4 == by and v & 15 in (PK, KA, P):
                return True
        return False

    def _far_attack(
        self, k: int, by: int, specials: list[tuple[int, int]] | None, board: list[int]
    ) -> bool:
        """Straight vaults onto ``k`` and the reach of ``specials`` (see ``_attacked``)."""
        hit, runs = self._vault_attack(k, by, board)
        if hit:
            return True
        hit, pallans = self._double_attack(k, by, specials, board)
        return hit or (bool(pallans) and self._pallan_attack(k, pallans, runs, board))

    def _vault_attack(
        self, k: int, by: int, board: list[int]
    ) -> tuple[bool, list[tuple[int, list[int], int]]]:
        """Straight vaults: a contiguous run of pieces behind ``k``, the vaulter 4th or
        further back (3rd in Pastang). Also the runs around ``k``: (direction, squares, the
        empty square beyond or -1), for the Pallans."""
        g = self.geo
        rank = g.rank
        fwd = 1 if by == YELLOW else -1
        need = self.line_min
        runs: list[tuple[int, list[int], int]] = []
        for d, ray in enumerate(g.ray[k]):
            n = 0
            beyond = -1
            for p in ray:
                v = board[p]
                if not v:
                    beyond = p
                    break
                n += 1
                # a Swod vaults forward only: it travels from p towards k
                if n > need and v >> 4 == by and (v & 15 != S or rank[k] - rank[p] == fwd * n):
                    return True, runs
            if n:
                runs.append((d, ray[:n], beyond))
        return False, runs

    def _double_attack(
        self, k: int, by: int, specials: list[tuple[int, int]] | None, board: list[int]
    ) -> tuple[bool, list[int]]:
        """The double moves of unmoved Deldars and Paktuns onto ``k``; also the squares of
        the Pallans of ``specials`` still on the board."""
        if specials is None:
            specials = self._specials(by)
        pallans = []
        dist, kn = self.geo.dist, k * self.geo.n
        for p, v in specials:
            kind = v & 15
            # double moves reach at most 4 squares away
            if kind != P and dist[kn + p] > 4 or board[p] != v:  # p: taken by the move tried
                continue
            if kind == P:
                pallans.append(p)
            elif kind == D:
                if self._deldar_reaches(p, k, board):
                    return True, pallans
            elif self._paktun_reaches(p, k, board):
                return True, pallans
        return False, pallans

    def _pallan_attack(
        self, k: int, pallans: list[int], runs: list[tuple[int, list[int], int]], board
    ) -> bool:
        """The Pallans' powers onto ``k`` (their plain moves, leaps and straight vaults are
        the other tests'): bent vaults, moves then vaults, front turns."""
        g = self.geo
        nsq, need = g.n, self.line_min
        # a vault bent once at a piece of a run behind k (the bend), the Pallan on a line
        # through the bend, every square between them occupied ...
        line_dir, line_dist = g.line_dir, g.line_dist
        for d2, run, _ in runs:
            for j, bend in enumerate(run, start=1):
                bn = bend * nsq
                for p in pallans:
                    d1 = line_dir[bn + p]
                    if d1 < 0 or d1 == d2 or d1 == OPPOSITE[d2]:
                        continue
                    i = line_dist[bn + p]
                    if i + j > need and all(board[q] for q in g.ray[bend][d1][: i - 1]):
                        return True
        # ... a plain move to the empty square beyond a run of ``need`` pieces, then a vault
        # (the run must not hold the Pallan itself: it leaves its square) ...
        for _, run, beyond in runs:
            if beyond < 0 or len(run) < need:
                continue
            for p in pallans:
                if p not in run and self._pallan_stop(p, beyond, board):
                    return True
        # ... and the front turns
        if g.fronts:
            for p in pallans:
                if self._pallan_turn_reaches(p, k, board):
                    return True
        return False

    def _deldar_reaches(self, p: int, k: int, board: list[int]) -> bool:
        """Does the opening double move of the Deldar on ``p`` reach ``k``? (Two plain
        Deldar moves, the first without capture; see ``_deldar_double``.)"""
        g = self.geo
        nsq = g.n
        for ray in g.ray_adj[p]:
            if len(ray) < 2:
                continue
            m = ray[1]
            d2 = g.line_dir[m * nsq + k]
            if d2 < 0:
                continue
            dist = g.line_dist[m * nsq + k]
            if (
                dist <= 2
                and dist <= len(g.ray_adj[m][d2])
                and not board[ray[0]]
                and not board[m]
                and (dist == 1 or not board[g.ray[m][d2][0]])
            ):
                return True
        return False

    def _paktun_reaches(self, p: int, k: int, board: list[int]) -> bool:
        """Does the opening double leap of the Paktun on ``p`` reach ``k``?"""
        near = self.geo.knight_one_set[k]
        return any(not board[m] for m in self.geo.knight_one[p] if m in near)

    def _pallan_stop(self, p: int, e: int, board: list[int]) -> bool:
        """Can the Pallan on ``p`` reach the empty square ``e`` by a plain Kapt move without
        capture (the first part of a move then vault)?"""
        g = self.geo
        if e in g.knight_one_set[p]:
            return True
        idx = p * g.n + e
        d = g.line_dir[idx]
        if d < 0:
            return False
        dist = g.line_dist[idx]
        if dist > len(g.ray_one[p][d]):
            return False
        ray = g.ray[p][d]
        return not any(board[q] for q in ray[: dist - 1])

    def _pallan_turn_reaches(self, p: int, k: int, board: list[int]) -> bool:
        """Does a front turn of the Pallan on ``p`` reach ``k``? (see ``_pallan_turns``;
        the board is read only where the geometry allows the turn)"""
        g = self.geo
        nsq = g.n
        ray_p = g.ray[p]
        for d in range(4):  # orthogonal approach: turn on the first square beyond the front
            i = g.turn_orth[p][d]
            if i is None:
                continue
            q = ray_p[d][i]
            idx = q * nsq + k
            d2 = g.line_dir[idx]
            if (
                d2 in TURN45[d]
                and g.line_dist[idx] <= len(g.ray_free[q][d2])
                and not any(board[u] for u in ray_p[d][: i + 1])
                and not any(board[u] for u in g.ray[q][d2][: g.line_dist[idx] - 1])
            ):
                return True
        for d in range(4, 8):  # diagonal approach: turn on the last square before a front
            turn = g.turn_diag[p][d]
            if turn is None:
                continue
            i, allowed = turn
            q = ray_p[d][i]
            idx = q * nsq + k
            d2 = g.line_dir[idx]
            if (
                d2 in TURN45[d]
                and not g.cross[idx] & ~allowed
                and not any(board[u] for u in ray_p[d][: i + 1])
                and not any(board[u] for u in g.ray[q][d2][: g.line_dist[idx] - 1])
            ):
                return True
        return False

    def _specials(self, by: int) -> list[tuple[int, int]]:
        """Pieces of ``by`` whose reach the reverse rays miss: Pallans, unmoved D and Pk."""
        unmoved = self.unmoved
        return [
            (p, v)
            for p, v in enumerate(self.board)
            if v and v >> 4 == by and (v & 15 == P or (v & 15 in (D, PK) and p in unmoved))
        ]

    # ---- legal moves -------------------------------------------------------

    def _legal_pairs(self) -> list[tuple[int, int]]:
        """Legal moves (from, to) but the Fluttember."""
        return [(s, t) for s, targets in self._legal_targets() for t in targets]

    def _legal_targets(self) -> list[tuple[int, list[int]]]:
        """The pseudo-legal moves that do not leave the King in Kaida, per piece.

        The King is tested once on the position; a move is tried on the board only when it
        could change the answer, every other move is legal exactly when the King is not
        attacked now.

        When the King is not attacked, a move of its side puts no enemy piece anywhere, and:

        * the reverse rays (``_ray_attack``) open only where the move leaves a ray's first
          piece: legal when the next piece beyond does not attack (``_pins``) or the move
          stays on that ray up to the attacker; a piece entering a ray only shortens it. The
          knight squares (``_leap_attack``) never change. So the rest of the test
          (``_far_attack``) alone decides a move that could change it:
        * straight vaults (``_vault_attack``): a piece leaving a run of pieces behind the
          King shortens it; one entering a run square keeps it; one entering the empty square
          beyond lengthens it with the pieces after that square: tried when one of them
          would then vault onto the King;
        * the double moves (``_double_attack``) change only where a piece leaves a square
          they read (their paths must be empty; one entering blocks them or takes the mover);
        * the Pallans' powers (``_pallan_attack``) may change where a piece leaves or enters
          a square they read, enters the square beyond a run (a longer run, new bends, a new
          launch square), or leaves a run square beyond ``line_min`` (a new launch square);
          within the first ``line_min`` squares the shorter run launches no vault.

        When the King is attacked, a move that leaves and enters no square the whole test
        read leaves it attacked. King moves are always tried."""
        side = self.turn
        board = self.board
        pieces = self._pseudo_targets(side)
        if self.pastang:
            return pieces
        king = self.king_square(side)
        if king is None:
            return pieces
        by = 1 - side
        kv = side * 16 + K
        specials = self._specials(by)
        attacked = self._ray_attack(king, by, board) or self._leap_attack(king, by, board)
        if not attacked:
            attacked, runs = self._vault_attack(king, by, board)
        if not attacked:
            doubles, powers = _Recorder(board), _Recorder(board)
            attacked, pallans = self._double_attack(king, by, specials, doubles)
            if not attacked and pallans:
                attacked = self._pallan_attack(king, pallans, runs, powers)
        legal = []
        if attacked:
            every = _Recorder(board)
            self._attacked(king, by, specials, every)
            seen = every.seen
            for s, targets in pieces:
                if board[s] != kv and s not in seen:
                    # still attacked unless it enters a square the test read
                    targets = [t for t in targets if t in seen]
                kept = [t for t in targets if self._safe_after(s, t, king, by, specials, False)]
                if kept:
                    legal.append((s, kept))
            return legal
        pins = self._pins(king, by)
        leaving = doubles.seen | powers.seen
        entering = set(powers.seen)
        joins: dict[int, list[int]] = {}
        need = self.line_min
        for d, ray in enumerate(self.geo.ray[king]):
            m = 0  # the run of pieces next to the King (none: the empty square next to it)
            while m < len(ray) and board[ray[m]]:
                m += 1
            if pallans:
                leaving.update(ray[need:m])
            if m < len(ray):
                danger, extension = self._extension_attacks(king, by, d, m, pallans)
                if danger:
                    entering.add(ray[m])
                elif pallans:
                    # a piece leaving the pieces the run would join makes a launch square
                    joins[ray[m]] = extension
        hot = entering | joins.keys()
        for s, targets in pieces:
            if board[s] == kv:
                kept = [t for t in targets if self._safe_after(s, t, king, by, specials, False)]
            else:
                line = pins.get(s)
                if line is not None:  # only along the ray it shuts
                    targets = [t for t in targets if t in line]
                if s in leaving:
                    kept = [t for t in targets if self._safe_after(s, t, king, by, specials, True)]
                else:
                    kept = [
                        t
                        for t in targets
                        if t not in hot
                        or (t not in entering and s not in joins[t])
                        or self._safe_after(s, t, king, by, specials, True)
                    ]
            if kept:
                legal.append((s, kept))
        return legal

    def _safe_after(
        self, s: int, t: int, king: int, by: int, specials: list[tuple[int, int]], far: bool
    ) -> bool:
        """Is the King (on ``king``, or ``t`` when it moves) safe after ``s``-``t``? ``far``:
        only the tests beyond the reverse rays and leaps can change (see ``_legal_targets``).
        """
        board = self.board
        v, captured = board[s], board[t]
        board[t], board[s] = v, 0
        try:
            if far:
                return not self._far_attack(king, by, specials, board)
            return not self._attacked(t if v & 15 == K else king, by, specials)
        finally:
            board[s], board[t] = v, captured

    def _extension_attacks(
        self, k: int, by: int, d: int, m: int, pallans: list[int]
    ) -> tuple[bool, list[int]]:
        """A piece of the King's side entering the empty square ``b`` after the ``m``
        pieces next to ``k`` in direction ``d`` joins them to the pieces after ``b`` (the
        extension, returned): could the longer run let a piece vault onto ``k``? A vault
        from a piece of it; for ``pallans``, a bend at ``b`` or in the extension, or a plain
        move to the square after the extension (paths not checked: a piece may leave them).
        """
        g, board, rank = self.geo, self.board, self.geo.rank
        ray = g.ray[k][d]
        fwd = 1 if by == YELLOW else -1
        need = self.line_min
        extension = []
        for n in range(m + 2, len(ray) + 1):
            v = board[ray[n - 1]]
            if not v:
                break
            extension.append(ray[n - 1])
            if n > need and v >> 4 == by and (v & 15 != S or rank[k] - rank[ray[n - 1]] == fwd * n):
                return True, extension
        if not pallans:
            return False, extension
        nsq = g.n
        longer = m + 1 + len(extension)
        for j in range(m + 1, longer + 1):
            bend = ray[j - 1]
            for p in pallans:
                d1 = g.line_dir[bend * nsq + p]
                if d1 < 0 or d1 == d or d1 == OPPOSITE[d]:
                    continue
                i = g.line_dist[bend * nsq + p]
                if i + j > need and all(board[q] for q in g.ray[bend][d1][: i - 1]):
                    return True, extension
        if longer >= need and longer < len(ray):
            launch = ray[longer]
            for p in pallans:
                if p in extension:
                    continue
                if launch in g.knight_one_set[p]:
                    return True, extension
                d1 = g.line_dir[p * nsq + launch]
                if d1 >= 0 and g.line_dist[p * nsq + launch] <= len(g.ray_one[p][d1]):
                    return True, extension
        return False, extension

    def _fluttember_moves(self) -> list[tuple[int, int]]:
        side = self.turn
        if self.pastang or not self.fluttember[side]:
            return []
        g, board = self.geo, self.board
        home = g.sq(7, 0) if side == YELLOW else g.sq(5, 17)
        if board[home] != side * 16 + K:
            return []
        rank = 0 if side == YELLOW else 17
        partners = {0: C, 11: C, (5 if side == YELLOW else 3): KA, (8 if side == YELLOW else 6): KA}
        if not any(board[g.sq(f, rank)] == side * 16 + kind for f, kind in partners.items()):
            return []
        specials = self._specials(1 - side)  # the swap captures nothing: the same for each
        if self._attacked(home, 1 - side, specials):
            return []
        out = []
        for f, kind in partners.items():
            p = g.sq(f, rank)
            if board[p] == side * 16 + kind:
                board[p], board[home] = side * 16 + K, side * 16 + kind
                ok = not self._attacked(p, 1 - side, specials)
                board[p], board[home] = side * 16 + kind, side * 16 + K
                if ok:
                    out.append((home, p))
        return out

    def _legal(self) -> list[str]:
        key = (tuple(self.board), self.turn, frozenset(self.unmoved), tuple(self.fluttember))
        if self._memo is not None and self._memo[0] == key:
            return list(self._memo[1])
        g, board = self.geo, self.board
        names, rank = g.names, g.rank
        promos = ("D",) if self.pastang else PROMOTIONS
        moves: list[str] = []
        for s, targets in self._legal_targets():
            v, start = board[s], names[s]
            if v & 15 == S:
                last = g.h - 1 if v >> 4 == YELLOW else 0
                for t in targets:
                    base = start + ("x" if board[t] else "-") + names[t]
                    if rank[t] == last:
                        moves += [f"{base}={c}" for c in promos]
                    else:
                        moves.append(base)
            else:
                moves += [start + ("x" if board[t] else "-") + names[t] for t in targets]
        moves += [f"{names[s]}<>{names[t]}" for s, t in self._fluttember_moves()]
        self._memo = (key, moves)
        return list(moves)

    # ---- input -------------------------------------------------------------

    def normalize(self, text: str) -> str:
        """The canonical spelling of a typed move (legality is checked by the caller).

        Accepted: global squares in any case (``c3-c4``, ``C3xD4``, ``c3 c4``); drin squares
        (``Mortil C3-Mortil C4``; in a move that names a drin, a bare upper-case square
        ``A1``-``F6`` is read in the first drin named: ``Zhantil A3-A4`` is ``g3-g4``, while
        ``Zhantil A3-a4`` is ``g3-a4``); ``~`` for a vault
        (``c3~c7``); turning squares (``b1-c3-d5``); Fluttember either way round (``f1<>h1``);
        a promotion as ``=X`` or straight after the last square (``c17-c18Ka``,
        ``c17-c18 kapt``, ``c17-c18(H)``), letters in any case or full piece names.

        Moves are identified by from, to and promotion only: the squares between the first
        and the last are not checked against the possible routes. A route the piece cannot
        take still names the legal move with the same ends (the display then draws the
        route the engine chooses, see ``route``); rejecting it would only make players retype
        a move whose meaning is clear.
        """
        g = self.geo
        raw = text.strip()

        def drin(m: re.Match[str]) -> str:
            fo, ro = DRINS[m.group(1).lower()]
            return "abcdefghijkl"[fo + "abcdef".index(m.group(2).lower())] + str(
                ro + int(m.group(3))
            )

        def same_drin(m: re.Match[str]) -> str:
            fo, ro = drin_offsets
            return "abcdefghijkl"[fo + "ABCDEF".index(m.group(1))] + str(ro + int(m.group(2)))

        first = DRIN_RE.search(raw)
        if first:
            drin_offsets = DRINS[first.group(1).lower()]
            raw = DRIN_RE.sub(drin, raw)
            if drin_offsets != (0, 0):
                raw = re.sub(r"(?<![A-Za-z])([A-F])([1-6])(?!\d)", same_drin, raw)
        low = raw.lower()
        found = list(SQUARE_RE.finditer(low))
        if len(found) < 2:
            return text.strip()
        promo = None
        tail = re.sub(r"[\s=()/+#!?]", "", low[found[-1].end() :])
        if tail:
            promo = PROMO_WORDS.get(tail)
            if promo is None:
                return text.strip()
        cells = [g.parse(m.group()) for m in found]
        if any(c is None for c in cells):
            return text.strip()
        s, t = cells[0], cells[-1]
        assert s is not None and t is not None
        if "<>" in low:
            king = {q for q in (s, t) if self.board[q] and self.board[q] & 15 == K}
            if len(found) == 2 and king and promo is None:
                k = king.pop()
                o = t if k == s else s
                return f"{g.name(k)}<>{g.name(o)}"
            return text.strip()
        v = self.board[s]
        base = g.name(s) + ("x" if self.board[t] else "-") + g.name(t)
        last = g.h - 1 if v >> 4 == YELLOW else 0
        if v and v & 15 == S and g.rank[t] == last:
            return f"{base}={promo or ('D' if self.pastang else 'P')}"
        return base if promo is None else f"{base}={promo}"

    def _illegal_reason(self, move: str) -> str:
        m = re.fullmatch(r"([a-l]\d{1,2})[-x<>]+([a-l]\d{1,2})(=\w+)?", move)
        if not m:
            return (
                "write a move as from-to, e.g. c3-c4, Mortil C3-Mortil C4, c3xd4, "
                "c16-c18=P or h1<>f1"
            )
        s = self.geo.parse(m.group(1))
        if s is None or not self.board[s]:
            return f"there is no piece on {m.group(1)}"
        if self.board[s] >> 4 != self.turn:
            return f"the piece on {m.group(1)} is not yours"
        t = self.geo.parse(m.group(2))
        if m.group(3):
            if (
                self.board[s] & 15 != S
                or t is None
                or not any(x.startswith(move[: m.start(3)] + "=") for x in self.legal_moves())
            ):
                return "only a Swod reaching the last rank promotes"
            return "a Swod promotes to " + (
                "a Deldar (D) in Pastang"
                if self.pastang
                else "P, Ka, C, J, H, Pk or D (Pallan, Kapt, Chuktar, Jiktar, Hikdar, "
                "Paktun, Deldar), never a King"
            )
        if (s, t) in set(self._pseudo(self.turn)):
            return "that move would leave your King in Kaida"
        return "that piece cannot move there"

    # ---- routes (for displays) ---------------------------------------------

    def route(self, move: str) -> dict[str, Any]:
        """How a legal move of the current position travels, for drawing it.

        Returns ``{"route": [square, ...], "vaulted": [square, ...], "kind": str}`` with
        global square names. ``route`` runs from the start square to the end square through
        every turning point; ``vaulted`` lists the pieces jumped over (empty unless a vault).
        Moves are identified by from/to/promotion only, so when several ways lead to the
        same square the simplest is chosen, in this order: a plain move ("step", "slide",
        "leap"), "double" (Deldar or Paktun opening bonus), "turn" (Pallan front turn),
        "vault", "move-vault", "bent-vault"; within one kind, the first found in the fixed
        direction order. "fluttember" is the King's swap (route: King's square, partner's).
        Only called for the move being applied, so legal-move generation is unaffected.
        """
        g = self.geo
        if "<>" in move:
            a, b = move.split("<>")
            return {"route": [a, b], "vaulted": [], "kind": "fluttember"}
        m = re.fullmatch(r"([a-l]\d{1,2})[-x]([a-l]\d{1,2})(?:=\w+)?", move)
        s = g.parse(m.group(1)) if m else None
        t = g.parse(m.group(2)) if m else None
        if s is None or t is None or not self.board[s]:
            raise ValueError(f"not a move of this position: {move!r}")
        found = self._route(s, t)
        if found is None:  # not reachable (not a legal move): report it as a plain move
            found = ([s, t], [], "slide")
        squares, vaulted, kind = found
        return {
            "route": [g.name(q) for q in squares],
            "vaulted": [g.name(q) for q in vaulted],
            "kind": kind,
        }

    def _route(self, s: int, t: int) -> tuple[list[int], list[int], str] | None:
        g, board = self.geo, self.board
        v = board[s]
        kind = v & 15
        fresh = s in self.unmoved
        near = max(abs(g.file[s] - g.file[t]), abs(g.rank[s] - g.rank[t])) == 1
        plain = "step" if near else "slide"
        out: set[int] = set()
        # 1. plain moves
        if kind == K:
            self._leap(v, g.king[s], out)
        elif kind == S:
            straight, d1, d2 = self._swod_dirs(v >> 4)
            reach = 3 if fresh else 1
            for t2 in g.ray[s][straight][:reach]:
                if board[t2]:
                    break
                out.add(t2)
            self._slide(v, [g.ray[s][d1], g.ray[s][d2]], out, reach)
        elif kind == D:
            self._slide(v, g.ray_adj[s], out, 2)
        elif kind == H:
            self._slide(v, g.ray_adj[s][4:], out)
        elif kind == J:
            self._slide(v, g.ray_adj[s][:4], out)
        elif kind in (C, KA, P):
            self._slide(v, g.ray_one[s], out)
        if t in out:
            return [s, t], [], plain
        if kind in (PK, KA, P):
            self._leap(v, g.knight_one[s], out)
            if t in out:
                return [s, t], [], "leap"
        board[s] = 0
        try:
            # 2. opening double moves
            if kind == D and fresh:
                for ray in g.ray_adj[s]:
                    if len(ray) >= 2 and not board[ray[0]] and not board[ray[1]]:
                        out = set()
                        self._slide(v, g.ray_adj[ray[1]], out, 2)
                        if t in out:
                            return [s, ray[1], t], [], "double"
            if kind == PK and fresh:
                for mid in g.knight_one[s]:
                    if not board[mid]:
                        out = set()
                        self._leap(v, g.knight_one[mid], out)
                        if t in out:
                            return [s, mid, t], [], "double"
            # 3. Pallan front turns
            if kind == P and g.fronts:
                turn = self._turn_route(v, s, t)
                if turn is not None:
                    return turn, [], "turn"
        finally:
            board[s] = v
        # 4. a straight vault
        dirs = self._swod_dirs(v >> 4) if kind == S else range(8)
        line = self._vault_line(v, s, t, dirs)
        if line is not None:
            return [s, t], line, "vault"
        if kind != P:
            return None
        board[s] = 0
        try:
            # 5. a plain Kapt move without capture, then a straight vault
            stops = [q for ray in g.ray_one[s] for q in _empty_run(board, ray)]
            stops += [q for q in g.knight_one[s] if not board[q]]
            for e in stops:
                line = self._vault_line(v, e, t, range(8))
                if line is not None:
                    return [s, e, t], line, "move-vault"
            # 6. a vault bent once, at a piece
            bent = self._bent_route(v, s, t)
            if bent is not None:
                return bent[0], bent[1], "bent-vault"
        finally:
            board[s] = v
        return None

    def _vault_line(self, v: int, s: int, t: int, dirs) -> list[int] | None:
        """The pieces a straight vault from ``s`` to ``t`` passes over, if it can."""
        board, ray, need = self.board, self.geo.ray[s], self.line_min
        for d in dirs:
            passed: list[int] = []
            for q in ray[d]:
                if board[q]:
                    if q == t:
                        return passed if len(passed) >= need and self._can_take(v, q) else None
                    passed.append(q)
                    continue
                if q == t and len(passed) >= need:
                    return passed
                break
        return None

    def _turn_route(self, v: int, s: int, t: int) -> list[int] | None:
        g, board = self.geo, self.board
        for d in range(4):  # orthogonal approach (mirrors _pallan_turns)
            for q in g.ray[s][d]:
                if board[q]:
                    break
                if g.crossed(s, q):
                    for d2 in TURN45[d]:
                        out: set[int] = set()
                        self._slide(v, [g.ray_free[q][d2]], out)
                        if t in out:
                            return [s, q, t]
                    break
        for d in range(4, 8):  # diagonal approach
            ray = g.ray[s][d]
            for i, q in enumerate(ray):
                if board[q] or g.crossed(s, q):
                    break
                if i + 1 < len(ray) and g.crossed(q, ray[i + 1]):
                    allowed = g.crossed(q, ray[i + 1])
                    for d2 in TURN45[d]:
                        for u in g.ray[q][d2]:
                            if g.crossed(q, u) & ~allowed:
                                break
                            if u == t:
                                if not board[u] or self._can_take(v, u):
                                    return [s, q, t]
                                break
                            if board[u]:
                                break
                    break
        return None

    def _bent_route(self, v: int, s: int, t: int) -> tuple[list[int], list[int]] | None:
        g, board, need = self.geo, self.board, self.line_min
        for d1 in range(8):
            first: list[int] = []
            for p in g.ray[s][d1]:
                if not board[p]:
                    break
                first.append(p)
                for d2 in range(8):
                    if d2 == d1 or d2 == OPPOSITE[d1]:
                        continue
                    passed = list(first)
                    for q in g.ray[p][d2]:
                        if board[q]:
                            if q == t and len(passed) >= need and self._can_take(v, q):
                                return [s, p, t], passed
                            passed.append(q)
                            continue
                        if q == t and len(passed) >= need and len(passed) > len(first):
                            return [s, p, t], passed
                        break
        return None

    # ---- applying ----------------------------------------------------------

    def _apply(self, move: str) -> None:
        g, board = self.geo, self.board
        side = self.turn
        was_bare = self._bare(side)
        if "<>" in move:
            a, b = move.split("<>")
            s, t = g.parse(a), g.parse(b)
            assert s is not None and t is not None
            board[s], board[t] = board[t], board[s]
            self.fluttember[side] = False
            self.unmoved.discard(s)
            self.unmoved.discard(t)
            self.last = {
                "move": move,
                "side": side,
                "from": a,
                "to": b,
                "text": f"King's Fluttember {g.drin_name(s)} ⇄ {g.drin_name(t)} ({move})",
                "route": [a, b],
                "vaulted": [],
                "kind": "fluttember",
                "captured": None,
                "promotion": None,
            }
        else:
            m = re.fullmatch(r"([a-l]\d{1,2})[-x]([a-l]\d{1,2})(?:=(\w+))?", move)
            assert m
            s, t = g.parse(m.group(1)), g.parse(m.group(2))
            assert s is not None and t is not None
            text = self.describe_move(move)
            way = self.route(move)
            captured = board[t]
            v = board[s]
            if m.group(3):
                v = (v & 16) + KIND_OF[m.group(3)]
            board[t], board[s] = v, 0
            self.unmoved.discard(s)
            self.unmoved.discard(t)
            self.last = {
                "move": move,
                "side": side,
                "text": text,
                "from": g.name(s),
                "to": g.name(t),
                **way,
                "captured": SIDE_CHAR[captured >> 4] + CODE[captured & 15] if captured else None,
                "promotion": m.group(3),
            }
        self.turn = 1 - side
        self._legal_cache = None
        self._check_end(side, was_bare)

    def _check_end(self, mover: int | None, was_bare: bool = False) -> None:
        if self.outcome is not None:
            return
        opp = self.turn
        if self.pastang:
            # In play only the side to move can have lost its last piece; a loaded position
            # may lack either side's.
            gone = [x for x in (opp, 1 - opp) if self._bare(x, kings=True)]
            if gone:
                self.outcome = self._scored((1 - gone[0],), "last side standing", 1.0)
            elif not self._legal():
                self.outcome = self._scored((1 - opp,), "no legal move", 1.0)
            return
        bare = [self._bare(x) for x in (0, 1)]
        if bare[0] and bare[1]:
            self.outcome = self._scored((), "Nikaida: two bare Kings", 0.5)
            return
        # The side not to move is a bare King after its one turn (in a loaded position the
        # turn is taken as played): it has lost.
        if bare[1 - opp] and (was_bare if mover is not None else True):
            self.outcome = self._scored((opp,), "Nikaida", 0.5)
            return
        if not self._legal():
            if self.in_kaida(opp):
                self.outcome = self._scored((1 - opp,), "Hyrkaida", 1.0)
            else:
                self.outcome = self._scored((1 - opp,), "Tikaida", 0.5)

    def _scored(self, winners: tuple[int, ...], reason: str, worth: float):
        from .base import Outcome

        if winners:
            score = tuple(worth if s in winners else 0.0 for s in range(2))
        else:
            score = (worth, worth)
        return Outcome(winners, reason, score)

    def _outcome(self, winners: tuple[int, ...], reason: str):
        return self._scored(winners, reason, 0.5 if not winners else 1.0)

    # ---- for the bot's evaluation ---------------------------------------------

    def captures(self, side: int) -> list[tuple[int, int, bool]]:
        """The captures of enemy pieces ``side`` could make with one move now (as if it were
        its turn; a capture that would leave its own King in Kaida is listed too), each as
        (from, to, answered): ``answered`` when the other side could then capture on ``to``
        (the capturer standing there), by the same reach as Kaida: plain moves, leaps,
        vaults, double moves and Pallan powers (Propt is not considered)."""
        board = self.board
        found: list[tuple[int, int, bool]] = []
        for s, t in self.capture_pairs(side):
            after = board[:]
            after[t], after[s] = board[s], 0
            found.append((s, t, self._attacked(t, 1 - side, None, after)))
        return found

    def capture_pairs(self, side: int) -> list[tuple[int, int]]:
        """The captures of enemy pieces ``side`` could make with one move now, as (from,
        to): pseudo-legal (one that would leave its own King in Kaida is listed too)."""
        board = self.board
        return [
            (s, t)
            for s, targets in self._pseudo_targets(side)
            for t in targets
            if board[t] and board[t] >> 4 != side
        ]

    def sketch(self, move: str) -> Jikaida:
        """A copy with ``move`` (one of ``legal_moves()``) made on the board and the turn
        passed, and nothing else: no record, no description, no test of whether the game
        is over (its ``outcome`` is this one's). For the bot's quick look at what the
        opponent could take after a move; ``push_legal`` lists every answer to see whether
        the game is over, several times the cost."""
        twin = copy.copy(self)
        board = twin.board = list(self.board)
        unmoved = twin.unmoved = set(self.unmoved)
        twin.fluttember = list(self.fluttember)
        twin.log = []
        twin._legal_cache = None
        parse = self.geo.parse
        if "<>" in move:
            a, b = (parse(x) for x in move.split("<>"))
            assert a is not None and b is not None
            board[a], board[b] = board[b], board[a]
            twin.fluttember[self.turn] = False
            unmoved.difference_update((a, b))
        else:
            route, _, promotion = move.partition("=")
            a, b = (parse(x) for x in re.split("[-x]", route))
            assert a is not None and b is not None
            piece = board[a] if not promotion else (board[a] & 16) + KIND_OF[promotion]
            board[b], board[a] = piece, 0
            unmoved.difference_update((a, b))
        twin.turn = 1 - self.turn
        return twin

    def attackers(self, t: int, by: int, board: list[int] | None = None) -> list[int]:
        """The squares of the pieces of side ``by`` that could capture on ``t`` with one
        move now (``t`` holding a piece of the other side): every pseudo-legal capture, as
        the move generator finds them, tested backwards from ``t`` like Kaida
        (``_attacked``): plain moves and leaps, straight vaults, the unmoved Deldars' and
        Paktuns' double moves and the Pallans' powers. A Propt Swod on ``t`` is safe from
        Swods. Pins are not considered. ``board`` (default ``self.board``) may be a
        position a few captures on (the exchanges of ``search.jikaida_tactics``); a square
        ``self.unmoved`` names holds an unmoved piece only if it is the piece that was
        there."""
        if board is None:
            board = self.board
        found = self._plain_attackers(t, by, board)
        runs = self._vault_attackers(t, by, board, found)
        for p, v in enumerate(board):
            if not v or v >> 4 != by or p in found:
                continue
            kind = v & 15
            if kind == P:
                if self._pallan_attack(t, [p], runs, board):
                    found.append(p)
            elif kind in (D, PK) and p in self.unmoved and self.geo.dist[t * self.geo.n + p] <= 4:
                reaches = self._deldar_reaches if kind == D else self._paktun_reaches
                if reaches(p, t, board):
                    found.append(p)
        victim = board[t]
        if victim & 15 == S and any(board[u] == victim - S + D for u in self.geo.king[t]):
            found = [p for p in found if board[p] & 15 != S]  # Propt: no Swod may take it
        return found

    def _plain_attackers(self, t: int, by: int, board: list[int]) -> list[int]:
        """The pieces of ``by`` reaching ``t`` by a plain move along a ray or a leap."""
        found = []
        for d, ray in enumerate(self.geo.ray[t]):
            for n, p in enumerate(ray, start=1):
                v = board[p]
                if v:
                    if v >> 4 == by and self._ray_hit(t, d, n, p, v):
                        found.append(p)
                    break
        for p in self.geo.knight_one[t]:
            v = board[p]
            if v and v >> 4 == by and v & 15 in (PK, KA, P) and p not in found:
                found.append(p)
        return found

    def _vault_attackers(
        self, t: int, by: int, board: list[int], found: list[int]
    ) -> list[tuple[int, list[int], int]]:
        """Adds to ``found`` the pieces of ``by`` vaulting onto ``t`` along a straight line
        (see ``_vault_attack``); returns the runs of pieces around ``t`` for the Pallans."""
        rank, need = self.geo.rank, self.line_min
        fwd = 1 if by == YELLOW else -1
        runs: list[tuple[int, list[int], int]] = []
        for d, ray in enumerate(self.geo.ray[t]):
            n = 0
            beyond = -1
            for p in ray:
                v = board[p]
                if not v:
                    beyond = p
                    break
                n += 1
                if (
                    n > need
                    and v >> 4 == by
                    and (v & 15 != S or rank[t] - rank[p] == fwd * n)
                    and p not in found
                ):
                    found.append(p)
            if n:
                runs.append((d, ray[:n], beyond))
        return runs

    # ---- display -----------------------------------------------------------

    def search_choices(
        self, choices: Sequence[tuple[str, str]], typed: str
    ) -> list[tuple[str, str]]:
        """Menu search by what players type: squares in either notation, piece names or
        letters, or both ("swod c3"); see ``games.jikaida_search``."""
        return search_moves(self, choices, typed)

    def describe_move(self, move: str) -> str:
        g, board = self.geo, self.board
        if "<>" in move:
            a, b = move.split("<>")
            s, t = g.parse(a), g.parse(b)
            if s is None or t is None:
                return move
            return f"King's Fluttember {g.drin_name(s)} ⇄ {g.drin_name(t)} ({move})"
        m = re.fullmatch(r"([a-l]\d{1,2})[-x]([a-l]\d{1,2})(?:=(\w+))?", move)
        if not m:
            return move
        s, t = g.parse(m.group(1)), g.parse(m.group(2))
        if s is None or t is None or not board[s]:
            return move
        text = f"{NAME[board[s] & 15]} {g.drin_name(s)} → "
        if board[t]:
            text += f"takes {NAME[board[t] & 15]} {g.drin_name(t)}"
        else:
            text += g.drin_name(t)
        if m.group(3) in KIND_OF:
            text += f", promotes to {NAME[KIND_OF[m.group(3)]]}"
        return f"{text} ({move})"

    def text_board(self) -> str:
        g = self.geo
        letters = "abcdefghijkl"[: g.w]
        head = "    " + "".join(
            f" {c} " + ("|" if g.fronts and i == 5 else "") for i, c in enumerate(letters)
        )
        rows = [head]
        for r in range(g.h - 1, -1, -1):
            cells = []
            for f in range(g.w):
                v = self.board[g.sq(f, r)]
                if v:
                    code = CODE[v & 15]
                    code = code.upper() if v >> 4 == YELLOW else code.lower()
                    cells.append(f"{code:^3}")
                else:
                    cells.append(" . ")
                if g.fronts and f == 5:
                    cells.append("|")
            label = ""
            if g.fronts and r % 6 == 5:
                label = "  " + " | ".join(DRIN_AT[(fo, r - 5)] for fo in (0, 6))
            rows.append((f"{r + 1:>3} " + "".join(cells) + label).rstrip())
            if g.fronts and r in (12, 6):
                rows.append("    " + "=" * (3 * g.w + 1))
        rows.append(head)
        rows.append("Yellow: upper case (south) · Blue: lower case (north)")
        return "\n".join(rows)

    def summary(self) -> list[tuple[str, str]]:
        out = [("Phase", self.phase)]
        mat = " · ".join(f"{self.seat_names[x]} {self.count(x)}" for x in (0, 1))
        out.append(("Material", mat))
        if self.outcome is None and self.in_kaida():
            # "Warning": shown in bold at the top of the board's embed.
            out.append(("Warning", f"Kaida! The {self.seat_names[self.turn]} King is attacked"))
        if not self.pastang:
            fl = " · ".join(
                f"{self.seat_names[x]} {'yes' if self.fluttember[x] else 'used'}" for x in (0, 1)
            )
            out.append(("Fluttember", fl))
        if self.last:
            told = f"{self.seat_names[self.last['side']]} {self.last['text']}"
            out.append(("Last move", told + how_it_went(self.last)))
        return out

    def status_line(self) -> str:
        line = super().status_line()
        if self.outcome is None and self.in_kaida():
            line += " — Kaida!"
        elif self.outcome is not None:
            worth = max(self.outcome.score)
            line += f" (worth {worth:g})"
        return line


def how_it_went(last: dict[str, Any]) -> str:
    """``", a bent vault over 5 pieces"``: how the last move travelled, where the notation
    does not show it (saved games from before routes were recorded have no ``kind``)."""
    kind, route = last.get("kind"), last.get("route") or []
    vaulted = len(last.get("vaulted") or [])
    if kind == "double":
        return f", a double move by {route[1]}" if len(route) == 3 else ", a double move"
    if kind == "turn":
        return f", turning at {route[1]}" if len(route) == 3 else ", a front turn"
    if kind in ("vault", "move-vault", "bent-vault"):
        name = {
            "vault": "a vault",
            "move-vault": "a move then a vault",
            "bent-vault": "a bent vault",
        }
        return f", {name[kind]} over {vaulted} piece{'s' if vaulted != 1 else ''}"
    return ""


class _Recorder(list):
    """A copy of a board that notes every square read by index (``seen``)."""

    __slots__ = ("seen",)

    def __init__(self, board: list[int]):
        super().__init__(board)
        self.seen: set[int] = set()

    def __getitem__(self, index):  # type: ignore[override]
        self.seen.add(index)
        return list.__getitem__(self, index)

    def __iter__(self):
        raise TypeError("read a recorded board by index only")


def _empty_run(board: list[int], ray: list[int]) -> list[int]:
    out = []
    for t in ray:
        if board[t]:
            break
        out.append(t)
    return out


def _shown(value: Any, width: int = 24) -> str:
    """``value`` for a one-line message: its repr, cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _check_depth(data: Any, limit: int = 3) -> None:
    """Refuse JSON nested deeper than a position can be (``last.route`` is the deepest)."""
    level = [data]
    for _ in range(limit + 1):
        level = [
            x
            for c in level
            for x in (c.values() if isinstance(c, dict) else c if isinstance(c, list) else ())
            if isinstance(x, dict | list)
        ]
        if not level:
            return
    raise ValueError("nested deeper than a position can be")


def _sqkey(name: str) -> tuple[int, str]:
    return (int(name[1:]), name[0])
