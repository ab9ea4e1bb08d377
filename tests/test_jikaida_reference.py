"""The Poron Jikaida legal-move generator as it was before the speed-up of issue 12 (a full
attack search for every candidate move), kept here only as a reference: the engine's
legal-move lists must equal it, to the move, over seeded random Poron and Pastang games
and hand-built positions with Pallans, unmoved Deldars and Paktuns, and Kaida.
"""

from __future__ import annotations

import random
import re

import pytest

from games.jikaida import (
    DIR_INDEX,
    KA,
    OPPOSITE,
    PK,
    POPCOUNT,
    PROMOTIONS,
    TURN45,
    YELLOW,
    C,
    D,
    H,
    J,
    Jikaida,
    K,
    P,
    S,
    _empty_run,
)


class Reference:
    """The old generator, reading a snapshot of a game's position."""

    def __init__(self, game: Jikaida):
        self.geo = game.geo
        self.board = list(game.board)
        self.unmoved = set(game.unmoved)
        self.turn = game.turn
        self.line_min = game.line_min
        self.pastang = game.pastang
        self.fluttember = list(game.fluttember)

    def king_square(self, side: int) -> int | None:
        want = side * 16 + K
        for s, v in enumerate(self.board):
            if v == want:
                return s
        return None

    def legal(self) -> list[tuple[int, int]]:
        return self._legal_pairs() + self._fluttember_moves()

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
        """Straight vaults of ``mover`` standing on ``s``."""
        board, ray, need = self.board, self.geo.ray[s], self.line_min
        for d in dirs:
            n = 0
            for t in ray[d]:
                if board[t]:
                    n += 1
                    if n > need and self._can_take(mover, t):
                        out.add(t)
                    continue
                if n >= need:
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
        self._vault(v, s, range(8), out)
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
                self._vault(v, e, range(8), out)
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
        board = self.board
        moves = []
        for s, v in enumerate(board):
            if v and v >> 4 == side:
                for t in self._targets(s):
                    moves.append((s, t))
        return moves

    def _attacked(self, k: int, by: int, specials: list[tuple[int, int]] | None = None) -> bool:
        """Could a piece of side ``by`` capture on ``k`` (occupied by the other side)?"""
        g, board = self.geo, self.board
        unmoved = self.unmoved
        # sliders, the King and short-range pieces, by reverse rays
        for d in range(8):
            diag = d >= 4
            for n, p in enumerate(g.ray[k][d], start=1):
                v = board[p]
                if not v:
                    continue
                if v >> 4 == by:
                    kind = v & 15
                    c = g.crossed(p, k)
                    if kind == K:
                        if n == 1:
                            return True
                    elif kind == D:
                        if n <= 2 and not c & ~g.touch[p]:
                            return True
                    elif kind == H:
                        if diag and not c & ~g.touch[p]:
                            return True
                    elif kind == J:
                        if not diag and not c & ~g.touch[p]:
                            return True
                    elif kind in (C, KA, P):
                        if POPCOUNT[c] <= 1:
                            return True
                    elif kind == S and diag:
                        fwd = 1 if by == YELLOW else -1
                        if g.rank[k] - g.rank[p] == fwd * n and (
                            n == 1 or (n <= 3 and p in unmoved)
                        ):
                            return True
                break
        for p in g.knight_one[k]:
            v = board[p]
            if v and v >> 4 == by and v & 15 in (PK, KA, P):
                return True
        # vaults: a contiguous run behind k, the vaulter 4th or further back
        need = self.line_min
        for d in range(8):
            for n, p in enumerate(g.ray[k][d], start=1):
                v = board[p]
                if not v:
                    break
                if n > need and v >> 4 == by:
                    if v & 15 != S:
                        return True
                    # a Swod vaults forward only: it travels from p towards k
                    fwd = 1 if by == YELLOW else -1
                    if g.rank[k] - g.rank[p] == fwd * n:
                        return True
        # unmoved Deldars and Paktuns near k, and every Pallan: generate forward
        kf, kr = g.file[k], g.rank[k]
        for p, v in self._specials(by) if specials is None else specials:
            if board[p] != v:  # taken by the move being tried
                continue
            kind = v & 15
            if kind != P and max(abs(g.file[p] - kf), abs(g.rank[p] - kr)) > 4:
                continue
            out: set[int] = set()
            if kind == P:
                self._pallan_powers(v, p, out)
            elif kind == D:
                self._deldar_double(v, p, out)
            else:
                self._paktun_double(v, p, out)
            if k in out:
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

    def _legal_pairs(self) -> list[tuple[int, int]]:
        side = self.turn
        board = self.board
        pairs = self._pseudo(side)
        if self.pastang:
            return pairs
        king = self.king_square(side)
        specials = self._specials(1 - side)
        legal = []
        for s, t in pairs:
            captured, v = board[t], board[s]
            board[t], board[s] = v, 0
            ks = t if v & 15 == K else king
            ok = ks is None or not self._attacked(ks, 1 - side, specials)
            board[s], board[t] = v, captured
            if ok:
                legal.append((s, t))
        return legal

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
        if self._attacked(home, 1 - side):
            return []
        out = []
        for f, kind in partners.items():
            p = g.sq(f, rank)
            if board[p] == side * 16 + kind:
                board[p], board[home] = side * 16 + K, side * 16 + kind
                ok = not self._attacked(p, 1 - side)
                board[p], board[home] = side * 16 + kind, side * 16 + K
                if ok:
                    out.append((home, p))
        return out

    def _fmt(self, s: int, t: int) -> list[str]:
        g, board = self.geo, self.board
        v = board[s]
        base = g.name(s) + ("x" if board[t] else "-") + g.name(t)
        last = g.h - 1 if v >> 4 == YELLOW else 0
        if v & 15 == S and g.rank[t] == last:
            promos = ("D",) if self.pastang else PROMOTIONS
            return [f"{base}={c}" for c in promos]
        return [base]

    def moves(self) -> list[str]:
        g = self.geo
        out = [m for s, t in self._legal_pairs() for m in self._fmt(s, t)]
        out += [f"{g.name(s)}<>{g.name(t)}" for s, t in self._fluttember_moves()]
        return sorted(out)


def same_as_reference(game: Jikaida) -> Reference:
    """Check the engine's lists for the side to move against the reference."""
    ref = Reference(game)
    for side in (0, 1):  # the pseudo-legal moves of both sides
        assert sorted(game._pseudo(side)) == sorted(ref._pseudo(side)), game.to_json()
    assert sorted(game._legal_pairs()) == sorted(ref._legal_pairs()), game.to_json()
    assert game._fluttember_moves() == ref._fluttember_moves(), game.to_json()
    game._memo = None
    assert sorted(game._legal()) == ref.moves(), game.to_json()
    assert game.board == ref.board  # the trials put every piece back
    return ref


def in_kaida(ref: Reference) -> bool:
    king = ref.king_square(ref.turn)
    return king is not None and ref._attacked(king, 1 - ref.turn)


def mover(game: Jikaida, move: str) -> int:
    """The kind of the piece a move moves."""
    square = game.geo.parse(re.split(r"[-x<>]", move)[0])
    assert square is not None
    return game.board[square] & 15


def pick(game: Jikaida, rng: random.Random, bias: str) -> str:
    """A random move; ``bias`` "pallan" prefers Pallan moves (deep into enemy lines),
    "capture" prefers captures (Kaida and thin armies)."""
    legal = game.legal_moves()
    if bias and rng.random() < 0.7:
        if bias == "pallan":
            hits = [m for m in legal if mover(game, m) == P]
        else:
            hits = [m for m in legal if "x" in m]
        if hits:
            return rng.choice(hits)
    return rng.choice(legal)


def walk(variants: tuple[str, ...], seed: int, plies: int, bias: str = ""):
    """The positions of one seeded random game."""
    rng = random.Random(seed)
    game = Jikaida(variants)
    for _ in range(plies):
        if game.is_over:
            return
        yield game
        game.push(pick(game, rng, bias))


def deep_pallans(game: Jikaida) -> int:
    """Pallans standing in the enemy's half of the board."""
    g, half = game.geo, game.geo.h // 2
    return sum(
        1
        for s, v in enumerate(game.board)
        if v & 15 == P and (g.rank[s] >= half if v >> 4 == YELLOW else g.rank[s] < half)
    )


@pytest.mark.parametrize(
    ("seed", "bias", "plies", "every"),
    [(1, "", 160, 5), (2, "pallan", 120, 3), (3, "capture", 200, 2), (4, "pallan", 160, 5)],
)
def test_random_poron_games_match_the_reference(seed, bias, plies, every):
    seen = {"positions": 0, "kaida": 0, "deep pallan": 0, "unmoved": 0}
    for game in walk((), seed, plies, bias):
        if game.ply % every:
            continue
        ref = same_as_reference(game)
        seen["positions"] += 1
        seen["kaida"] += in_kaida(ref)
        seen["deep pallan"] += deep_pallans(game) > 0
        seen["unmoved"] += any(game.board[s] & 15 in (D, PK) for s in game.unmoved)
    assert seen["positions"] >= 25 and seen["unmoved"] >= 10, seen
    if bias == "pallan":
        assert seen["deep pallan"] >= 10, seen
    if bias == "capture":
        assert seen["kaida"] >= 1, seen


@pytest.mark.parametrize("variants", [("pastang",), ("pastang", "blue-first")])
def test_random_pastang_games_match_the_reference(variants):
    checked = 0
    for seed in range(6):
        for game in walk(variants, seed, 120, "capture" if seed % 2 else ""):
            same_as_reference(game)
            checked += 1
    assert checked >= 150


KINDS = (P, P, P, KA, C, J, H, PK, PK, D, D, D, S, S, S)


def scattered(seed: int) -> Jikaida:
    """A random legal-looking jumble: both Kings (sometimes on their home squares beside
    their Fluttember partners), 8 to 90 pieces of every kind, Pallans favoured, about half
    of them unmoved, either side to move."""
    rng = random.Random(seed)
    game = Jikaida()
    g = game.geo
    board = [0] * g.n
    squares = rng.sample(range(g.n), rng.randint(10, 92))
    homes = (g.sq(7, 0), g.sq(5, 17))
    for side, home in enumerate(homes):
        if rng.random() < 0.3:
            board[home] = side * 16 + K
            rank = 0 if side == YELLOW else 17
            for f, kind in ((0, C), (11, C), (5, KA), (8, KA), (3, KA), (6, KA)):
                if rng.random() < 0.6:
                    board[g.sq(f, rank)] = side * 16 + kind
    for side in (0, 1):
        if side * 16 + K not in board:
            free = [s for s in squares if not board[s]]
            board[free[side]] = side * 16 + K
    for s in squares:
        if not board[s]:
            board[s] = rng.randrange(2) * 16 + rng.choice(KINDS)
    game.board = board
    game.unmoved = {s for s in range(g.n) if board[s] and rng.random() < 0.5}
    game.turn = rng.randrange(2)
    game.fluttember = [rng.random() < 0.7, rng.random() < 0.7]
    game._memo = None
    return game


def clustered(seed: int) -> Jikaida:
    """Pieces crowded round the King to move (runs, bends and launch squares for vaults),
    most of them its own and on its lines, one to three enemy Pallans anywhere, unmoved Deldars and
    Paktuns."""
    rng = random.Random(seed)
    game = Jikaida()
    g = game.geo
    board = [0] * g.n
    side = rng.randrange(2)
    king = rng.randrange(g.n)
    board[king] = side * 16 + K
    lines = [q for ray in g.ray[king] for q in ray[:6]]
    near = [q for q in range(g.n) if 0 < g.dist[king * g.n + q] <= 5]
    for _ in range(rng.randint(8, 30)):
        q = rng.choice(lines if rng.random() < 0.6 else near)
        board[q] = (side if rng.random() < 0.85 else 1 - side) * 16 + rng.choice(KINDS)
    for _ in range(rng.randint(1, 3)):
        board[rng.choice([q for q in range(g.n) if not board[q]])] = (1 - side) * 16 + P
    free = [q for q in range(g.n) if not board[q]]
    board[rng.choice(free)] = (1 - side) * 16 + K
    game.board = board
    game.unmoved = {q for q in range(g.n) if board[q] & 15 in (D, PK) and rng.random() < 0.7}
    game.turn = side
    game._memo = None
    return game


def test_clustered_positions_match_the_reference():
    kaida = 0
    for seed in range(60):
        ref = same_as_reference(clustered(seed))
        kaida += in_kaida(ref)
    assert 10 <= kaida <= 55, kaida


def test_scattered_positions_match_the_reference():
    kaida = flutter = 0
    for seed in range(50):
        game = scattered(seed)
        ref = same_as_reference(game)
        kaida += in_kaida(ref)
        flutter += bool(ref._fluttember_moves())
    assert kaida >= 5 and flutter >= 1, (kaida, flutter)


def position(pieces: dict[str, str], turn: str = "yellow") -> Jikaida:
    return Jikaida.from_position({"pieces": {**pieces, "l18": "BK"}, "turn": turn})


def test_leaving_a_long_run_opens_a_launch_square():
    # The run a2-a6 stands on the King's file. The Hikdar a5 leaving makes a5 the square
    # after a run of three (a4, a3, a2): the Pallan d5 slides c5, b5 to a5 and vaults over
    # a4, a3, a2 onto a1. From a6 (after a run of five) it cannot move there first.
    game = position(
        {"a1": "YK", "a2": "YJ", "a3": "YJ", "a4": "YJ", "a5": "YH", "a6": "YJ", "d5": "BP"}
    )
    same_as_reference(game)
    legal = game.legal_moves()
    assert not any(m.startswith("a5") for m in legal)
    assert "a6-b6" in legal  # a6 leaving: a6 is no square the Pallan reaches by a plain move


def test_entering_the_square_after_a_run_makes_a_bend():
    # A piece entering a3 joins a2 and a4-a5: the Pallan d3 then vaults west over c3, b3,
    # bends at a3 and goes south over a2 onto a1 (five pieces passed, more than three).
    game = position(
        {"a1": "YK", "a2": "YJ", "a4": "YJ", "a5": "YJ", "b3": "YS", "c3": "YS", "b4": "YH"}
        | {"d3": "BP"}
    )
    same_as_reference(game)
    legal = game.legal_moves()
    assert "b4-a3" not in legal
    assert "b4-c5" in legal


def test_copy_is_an_equal_independent_game():
    game = Jikaida()
    for move in ("c3-c4", "k16-j15", "e3-e5"):
        game.push(move)
    twin = game.copy()
    assert twin.to_json() == game.to_json()
    assert twin.legal_moves() == game.legal_moves()
    twin.push("j18-j14")
    assert game.to_json() != twin.to_json()
    assert game.moves() == ["c3-c4", "k16-j15", "e3-e5"]
    assert game.board[game.geo.parse("j18")] != 0 and "j18-j14" in game.legal_moves()
