"""Random Poron Jikaida and Pastang playouts, checking invariants after every move.

The King-safety filter (reverse attack maps) is compared with a brute-force reference:
a move is legal when no enemy pseudo-legal move afterwards lands on the King's square.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import load_game
from games.jikaida import Jikaida, K

SETTINGS = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def counts(game: Jikaida) -> tuple[int, int]:
    return game.count(0), game.count(1)


def brute_force_legal(game: Jikaida) -> set[tuple[int, int]]:
    side = game.turn
    board = game.board
    out = set()
    for s, t in game._pseudo(side):
        captured, v = board[t], board[s]
        board[t], board[s] = v, 0
        king = game.king_square(side)
        safe = king is None or all(tt != king for _, tt in game._pseudo(1 - side))
        board[s], board[t] = v, captured
        if safe:
            out.add((s, t))
    return out


def playout(seed: int, variants: tuple[str, ...], plies: int, check_moves=None) -> Jikaida:
    rng = random.Random(seed)
    game = Jikaida(variants)
    for _ in range(plies):
        if game.is_over:
            break
        legal = game.legal_moves()
        assert legal, "a game that is not over has a legal move"
        if check_moves:
            check_moves(game)
        move = rng.choice(legal)
        before = counts(game)
        mover = game.turn
        game.push(move)
        after = counts(game)
        taken = "x" in move
        assert sum(after) == sum(before) - (1 if taken else 0)
        if "x" not in move:
            assert after == before
        if not game.pastang:
            assert not game.in_kaida(mover), f"{move} left the King in Kaida"
            assert game.king_square(mover) is not None
        data = game.to_json()
        again = Jikaida.from_dict(game.to_dict())
        assert again.to_json() == data
        assert again.legal_moves() == game.legal_moves()
    return game


@SETTINGS
@given(st.integers(0, 10**6))
def test_poron_playouts(seed):
    playout(seed, (), 40)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_pastang_playouts_end(seed, blue_first):
    variants = ("pastang", "blue-first") if blue_first else ("pastang",)
    game = playout(seed, variants, 400)
    if game.is_over:
        assert game.outcome is not None and len(game.outcome.winners) == 1
        assert game.outcome.score in ((1.0, 0.0), (0.0, 1.0))


def test_king_filter_matches_brute_force():
    def check(game: Jikaida) -> None:
        if game.ply % 10:
            return
        mine = set(game._legal_pairs())
        assert mine == brute_force_legal(game)

    for seed in (1, 2):
        playout(seed, (), 60, check)


def test_every_legal_move_applies():
    rng = random.Random(5)
    game = Jikaida()
    for _ in range(4):
        legal = game.legal_moves()
        for move in rng.sample(legal, min(20, len(legal))):
            trial = game.copy()
            trial.push(move)
            assert trial.board.count(0) >= game.board.count(0)
            assert sum(1 for v in trial.board if v & 15 == K) == 2
        game.push(rng.choice(game.legal_moves()))


def test_load_game_through_the_registry(monkeypatch):
    monkeypatch.setitem(games.GAMES, Jikaida.key, Jikaida)
    game = playout(3, ("pastang",), 10)
    assert load_game(game.to_json()).to_json() == game.to_json()


# ---- an independent reference for the ordinary pieces -------------------------------------

STEPS8 = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def ref_fronts(a: tuple[int, int], b: tuple[int, int]) -> set[str]:
    """Fronts between two (file, rank) squares, by drin: "V", "H6" (6|7), "H12" (12|13)."""
    out = set()
    if a[0] // 6 != b[0] // 6:
        out.add("V")
    lo, hi = sorted((a[1], b[1]))
    for boundary in (6, 12):
        if lo < boundary <= hi:
            out.add(f"H{boundary}")
    return out


def ref_touches(a: tuple[int, int]) -> set[str]:
    out = set()
    if a[0] in (5, 6):
        out.add("V")
    if a[1] in (5, 6):
        out.add("H6")
    if a[1] in (11, 12):
        out.add("H12")
    return out


def ref_targets(cells: dict[tuple[int, int], tuple[int, str]], at: tuple[int, int]) -> set:
    side, kind = cells[at]
    out = set()

    def on(q):
        return 0 <= q[0] < 12 and 0 <= q[1] < 18

    def enemy(q):
        return q in cells and cells[q][0] != side

    def ok_front(q):
        crossed = ref_fronts(at, q)
        if kind in ("D", "H", "J"):
            return crossed <= ref_touches(at)
        if kind in ("C", "Ka", "Pk"):
            return len(crossed) <= 1
        return True

    def slide(dirs, limit):
        for df, dr in dirs:
            for n in range(1, limit + 1):
                q = (at[0] + df * n, at[1] + dr * n)
                if not on(q) or not ok_front(q):
                    break
                if q in cells:
                    if enemy(q):
                        out.add(q)
                    break
                out.add(q)

    fwd = 1 if side == 0 else -1
    if kind == "K":
        slide(STEPS8, 1)
    elif kind == "D":
        slide(STEPS8, 2)
    elif kind == "H":
        slide(STEPS8[4:], 99)
    elif kind == "J":
        slide(STEPS8[:4], 99)
    elif kind in ("C", "Ka"):
        slide(STEPS8, 99)
    if kind in ("Pk", "Ka"):
        for df, dr in JUMPS:
            q = (at[0] + df, at[1] + dr)
            if on(q) and ok_front(q) and (q not in cells or enemy(q)):
                out.add(q)
    vault_dirs = STEPS8
    if kind == "S":
        q = (at[0], at[1] + fwd)
        if on(q) and q not in cells:
            out.add(q)
        for df in (1, -1):
            q = (at[0] + df, at[1] + fwd)
            if on(q) and (q not in cells or (enemy(q) and not ref_propt_swod(cells, q))):
                out.add(q)
        vault_dirs = [(0, fwd), (1, fwd), (-1, fwd)]
    for df, dr in vault_dirs:
        n = 0
        q = (at[0] + df, at[1] + dr)
        while on(q) and q in cells:
            n += 1
            swod_on_propt = kind == "S" and ref_propt_swod(cells, q)
            if n >= 4 and enemy(q) and not swod_on_propt:
                out.add(q)
            q = (q[0] + df, q[1] + dr)
        if n >= 3 and on(q):
            out.add(q)
    return out


def ref_propt_swod(cells, q) -> bool:
    side, kind = cells[q]
    if kind != "S":
        return False
    return any(cells.get((q[0] + df, q[1] + dr)) == (side, "D") for df, dr in STEPS8)


def test_ordinary_pieces_match_the_reference():
    checked = 0
    for game, cells in reference_positions(seeds=2, plies=100):
        for s, v in enumerate(game.board):
            if not v or s in game.unmoved or v & 15 == 2:  # Pallans: rules tests
                continue
            at = (game.geo.file[s], game.geo.rank[s])
            mine = {(game.geo.file[t], game.geo.rank[t]) for t in game._targets(s)}
            assert mine == ref_targets(cells, at), (game.geo.name(s), game.moves())
            checked += 1
    assert checked > 500


def reference_positions(seeds: int, plies: int):
    """(game, cells) along random Poron games: ``cells`` maps (file, rank) -> (side, code),
    the board as the reference functions read it."""
    for seed in range(seeds):
        rng = random.Random(seed)
        game = Jikaida()
        for _ in range(plies):
            if game.is_over:
                break
            cells = {}
            for name, code in game.piece_codes().items():
                square = game.geo.parse(name)
                cells[(game.geo.file[square], game.geo.rank[square])] = (
                    "YB".index(code[0]),
                    code[1:],
                )
            yield game, cells
            game.push(rng.choice(game.legal_moves()))


def ref_pallan(cells: dict[tuple[int, int], tuple[int, str]], at: tuple[int, int]) -> set:
    """The Pallan's destinations written straight from the rulings' five kinds of move."""
    side = cells[at][0]
    cells = {q: v for q, v in cells.items() if q != at}  # the start square counts as empty
    out = set()

    def on(q):
        return 0 <= q[0] < 12 and 0 <= q[1] < 18

    def takes(q):
        return cells[q][0] != side or cells[q][1] != "K"

    def step(q, d, n=1):
        return (q[0] + d[0] * n, q[1] + d[1] * n)

    def vault(frm, d, need_before=0, passed=0):
        q, n = step(frm, d), passed
        while on(q) and q in cells:
            n += 1
            if n >= 4 and takes(q):
                out.add(q)
            q = step(q, d)
        if n >= 3 and n > need_before and on(q):
            out.add(q)

    stops = []
    for d in STEPS8:  # 1. plain slides and leaps, and the stops for move-then-vault
        for n in range(1, 18):
            q = step(at, d, n)
            if not on(q) or len(ref_fronts(at, q)) > 1:
                break
            if q in cells:
                if takes(q):
                    out.add(q)
                break
            out.add(q)
            stops.append(q)
    for d in JUMPS:
        q = step(at, d)
        if on(q) and len(ref_fronts(at, q)) <= 1:
            if q not in cells:
                out.add(q)
                stops.append(q)
            elif takes(q):
                out.add(q)
    for d in STEPS8:
        vault(at, d)
    for e in stops:  # 4. move then vault
        for d in STEPS8:
            vault(e, d)
    for d in STEPS8[:4]:  # 2. orthogonal approach
        for n in range(1, 18):
            q = step(at, d, n)
            if not on(q) or q in cells:
                break
            if ref_fronts(at, q):
                for d2 in {(d[0] or 1, d[1] or 1), (d[0] or -1, d[1] or -1)}:
                    for m in range(1, 18):
                        u = step(q, d2, m)
                        if not on(u) or ref_fronts(q, u):
                            break
                        if u in cells:
                            if takes(u):
                                out.add(u)
                            break
                        out.add(u)
                break
    for d in STEPS8[4:]:  # 3. diagonal approach
        for n in range(1, 18):
            q = step(at, d, n)
            if not on(q) or q in cells or ref_fronts(at, q):
                break
            nxt = step(q, d)
            if on(nxt) and ref_fronts(q, nxt):
                allowed = ref_fronts(q, nxt)
                for d2 in ((d[0], 0), (0, d[1])):
                    for m in range(1, 18):
                        u = step(q, d2, m)
                        if not on(u) or ref_fronts(q, u) - allowed:
                            break
                        if u in cells:
                            if takes(u):
                                out.add(u)
                            break
                        out.add(u)
                break
    for d1 in STEPS8:  # 5. bent vaults
        p, before = step(at, d1), 0
        while on(p) and p in cells:
            before += 1
            for d2 in STEPS8:
                if d2 in (d1, (-d1[0], -d1[1])):
                    continue
                vault(p, d2, need_before=before, passed=before)
            p = step(p, d1)
    out.discard(at)
    return out


def test_pallans_match_the_reference():
    checked = 0
    for game, cells in reference_positions(seeds=3, plies=80):
        for s, v in enumerate(game.board):
            if v & 15 == 2:
                at = (game.geo.file[s], game.geo.rank[s])
                mine = {(game.geo.file[t], game.geo.rank[t]) for t in game._targets(s)}
                assert mine == ref_pallan(cells, at), (game.geo.name(s), game.moves())
                checked += 1
    assert checked > 200
