"""Random Šačidjun playouts with random dice, checking invariants after every action.

Single moves are compared with a small reference model written from the rulings
independently of the engine (named cells, plain dicts, brute force over the dice options).
"""

from __future__ import annotations

import json
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sachidjun import Sachidjun
from tests.positions import play_checking_kept_moves

MAX_PLIES = 4000  # random 2-player games end in 150-450 moves (see the report)
SEEDS = st.integers(0, 2**32 - 1)  # dice and choices come from random.Random(seed)
SEATS = st.sampled_from([(2, ()), (3, ()), (3, ("tameg-pair",)), (4, ())])

RING = ["SW", *[f"W{i}" for i in range(1, 9)], "NW", *[f"N{i}" for i in range(1, 9)]]
RING += ["NE", *[f"E{i}" for i in range(1, 9)], "SE", *[f"S{i}" for i in range(1, 9)]]
CORNERS = {"SW", "NW", "NE", "SE"}
GATE = {0: "SW", 1: "NE", 2: "SE", 3: "NW"}  # by role: VR, TR, VC, TC


# ---- reference model ------------------------------------------------------------------


def ways(a: int, b: int) -> list[tuple[int, ...]]:
    if a != b:
        return [(a, b), (a + b,)]
    return [(a,) * 4, (2 * a,) * 2, (a, a, 2 * a), (4 * a,)]


def reference_moves(game: Sachidjun) -> set[str]:
    role = game.role
    step = 1 if role < 2 else -1
    me, foe = role % 2, 1 - role % 2
    raza_limit = 1 if role < 2 else 2
    opp = {RING[i]: c[foe] + c[foe + 2] for i, c in enumerate(game.cells)}
    mine = {RING[i]: c[role] for i, c in enumerate(game.cells) if c[role]}
    friends = {RING[i]: c[me] + c[me + 2] - c[role] for i, c in enumerate(game.cells)}
    home = game.home[role]

    def walk(start: str, n: int) -> list[str]:
        if start == "M":
            at = RING.index(GATE[role])
            return [RING[(at + step * k) % 36] for k in range(n)]
        at = RING.index(start)
        return [RING[(at + step * k) % 36] for k in range(1, n + 1)]

    def try_move(state, start, n):
        home, mine, moved, opp = state
        opp = dict(opp)
        cells = walk(start, n)
        run = 0
        for cell in cells[:-1]:
            if cell in CORNERS:
                if opp.get(cell, 0) >= 4:
                    return None
                run = 0
            elif opp.get(cell, 0) >= 2:
                run += 1
                if run > raza_limit:
                    return None
            else:
                run = 0
        land = cells[-1]
        there = opp.get(land, 0)
        capture = False
        if land in CORNERS:
            if there >= 4:
                return None
            capture = there == 1 and not dict(mine).get(land) and not friends[land]
        else:
            if there >= 2:
                return None
            capture = there == 1
        mine_d = dict(mine)
        if start == "M":
            home -= 1
        else:
            mine_d[start] -= 1
            if not mine_d[start]:
                del mine_d[start]
        mine_d[land] = mine_d.get(land, 0) + 1
        moved_d = dict(moved)
        moved_d[land] = moved_d.get(land, 0) + 1
        opp_d = opp
        if capture:
            opp_d[land] = 0
        text = f"{start}{'x' if capture else '-'}{land}"
        return text, (home, frozen(mine_d), frozen(moved_d), frozen(opp_d))

    def frozen(d):
        return tuple(sorted((k, v) for k, v in d.items() if v))

    def options_after(options, n):
        out = set()
        for o in options:
            if n in o:
                rest = list(o)
                rest.remove(n)
                out.add(tuple(sorted(rest)))
        return tuple(sorted(out))

    def steps(state, options):
        home, mine, moved, opp = state
        mine_d, moved_d = dict(mine), dict(moved)
        starts = (["M"] if home else []) + [c for c, n in mine_d.items() if n > moved_d.get(c, 0)]
        for n in sorted({n for o in options for n in o}):
            for start in starts:
                result = try_move(state, start, n)
                if result:
                    yield n, result[0], result[1]

    @cache
    def best(state, options):
        return max(
            (n + best(after, options_after(options, n)) for n, _, after in steps(state, options)),
            default=0,
        )

    options = tuple(sorted({tuple(sorted(o)) for o in game.options}))
    state = (home, frozen(mine), frozen({RING[i]: u for i, u in enumerate(game.used)}), frozen(opp))
    target = best(state, options)
    return {
        text
        for n, text, after in steps(state, options)
        if target and n + best(after, options_after(options, n)) == target
    }


# ---- invariants -----------------------------------------------------------------------


def check(game: Sachidjun, compare: bool) -> None:
    track = sum(sum(c) for c in game.cells)
    assert track + sum(game.home) + sum(sum(p) for p in game.prisoners) == 32
    for role in range(4):
        colour_total = game.home[role] + sum(c[role] for c in game.cells)
        captor = 1 - role % 2
        colour_total += sum(game.prisoners[m][role // 2] for m in (captor, captor + 2))
        assert colour_total == 8
    assert (game.to_move is None) == game.is_over
    legal = game.legal_moves()
    if game.is_over or game.dice_needed() is not None:
        assert legal == []
        return
    assert legal, "a position waiting for a move always has one"
    for move in legal:
        assert game.parse_move(move) == move
    if compare and game.offer is None:
        assert set(legal) == reference_moves(game)


def round_trip(game: Sachidjun) -> None:
    loaded = Sachidjun.from_dict(json.loads(game.to_json()))
    assert loaded.to_json() == game.to_json()
    assert loaded.legal_moves() == game.legal_moves()
    assert loaded.to_move == game.to_move and loaded.outcome == game.outcome


def try_offer(game: Sachidjun, rng: random.Random) -> bool:
    """Offer one held piece for one, when both sides hold some; answer at random."""
    if game.played or game.offer is not None:
        return False
    side = game.role % 2
    mine = [sum(game.prisoners[m][c] for m in (side, side + 2)) for c in (0, 1)]
    theirs = [sum(game.prisoners[m][c] for m in (1 - side, 3 - side)) for c in (0, 1)]
    if not sum(mine) or not sum(theirs):
        return False
    give = "r" if mine[0] else "c"
    get = "r" if theirs[0] else "c"
    other = game.seats_of_side(1 - side)
    to = "" if len(other) == 1 else rng.choice(["@r", "@c"])
    offer = f"offer:give(1{give})+get(1{get}){to}"
    if offer in game.refused:
        return False  # a refusal is final
    seat = game.to_move
    game.push(offer)
    assert game.to_move in other and game.legal_moves() == ["accept", "refuse"]
    game.push(rng.choice(["accept", "refuse"]))
    assert game.to_move == seat
    return True


def playout(
    rng: random.Random, seats: int, variants, compare_rate: float, offer_rate: float = 0.0
) -> Sachidjun:
    game = Sachidjun(variants, seats)
    check(game, False)
    while not game.is_over:
        assert game.ply < MAX_PLIES
        if offer_rate and rng.random() < offer_rate and try_offer(game, rng):
            check(game, False)
            continue
        if game.dice_needed() is not None:
            game.roll((rng.randint(1, 8), rng.randint(1, 8)))
        else:
            game.push(rng.choice(game.legal_moves()))
        check(game, rng.random() < compare_rate)
        if rng.random() < 0.02:
            round_trip(game)
    round_trip(game)
    return game


@settings(max_examples=12, deadline=None)
@given(SEEDS, SEATS)
def test_random_playouts_keep_the_invariants(seed, seating):
    rng = random.Random(seed)
    seats, variants = seating
    game = playout(rng, seats, variants, compare_rate=0.1, offer_rate=0.01)
    assert game.outcome is not None
    assert (
        "captured every" in game.outcome.reason
        or "shut in" in game.outcome.reason
        or (game.outcome.is_draw)
    )


@settings(max_examples=5, deadline=None)
@given(SEEDS)
def test_replaying_the_log_rebuilds_the_game(seed):
    rng = random.Random(seed)
    game = playout(rng, 2, (), compare_rate=0.0, offer_rate=0.01)
    again = Sachidjun()
    again.replay(game.log)
    assert again.to_json() == game.to_json()


@settings(max_examples=10, deadline=None)
@given(SEEDS)
def test_describe_move_and_lines_never_change_the_game(seed):
    rng = random.Random(seed)
    game = Sachidjun()
    for _ in range(rng.randint(0, 120)):
        if game.is_over:
            return
        if game.dice_needed() is not None:
            game.roll((rng.randint(1, 8), rng.randint(1, 8)))
        else:
            game.push(rng.choice(game.legal_moves()))
    if game.is_over or game.dice_needed() is not None:
        return
    before = game.to_json()
    for move in game.legal_moves():
        assert game.describe_move(move)
    assert game.to_json() == before
    # A whole sub-turn on one line equals its moves one at a time.
    twin, line = game.copy(), []
    role = game.role
    while not twin.is_over and twin.role == role and twin.dice is not None:
        line.append(twin.push(rng.choice(twin.legal_moves())))
    game.push_line(" ".join(line))
    assert game.to_json() == twin.to_json()


@settings(max_examples=4, deadline=None)
@given(SEEDS, SEATS)
def test_kept_moves_match_moves_worked_out_afresh(seed, seating):
    """A position's moves are kept for the position they were worked out in: at every
    action of a game played as the search plays (``push_legal`` on copies, offers
    included), they are the moves a game loaded from the same position works out anew."""
    seats, variants = seating

    def offer(game, rng):
        return rng.random() < 0.02 and try_offer(game, rng)

    play_checking_kept_moves(Sachidjun(variants, seats), random.Random(seed), offer, MAX_PLIES)
