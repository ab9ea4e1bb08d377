"""Tchela rules, one test (or a few) per ruling of shared/rules/tchela.md.

Every expected value below was worked out by hand from the rulings, never by running the
engine. Hole numbers are each player's own: 1..8 the outer row left to right, 9..16 the inner
row right to left (1..12 on 4x6). Store 1 sits between holes 8 and 9 in sowing order (6 and 7
on 4x6); with two-stores, store 2 sits between 12 and 13 (9 and 10 on 4x6). Facing holes: our
inner k faces the opponent's 25 - k (19 - k on 4x6), and behind the opponent's inner j is its
outer 17 - j (13 - j). Positions are written {hole: counters}; holes not named are empty.
"""

from __future__ import annotations

import pytest

from games import IllegalMove, game_class, load_game
from games.tchela import Tchela

SOUTH, NORTH = 0, 1


def position(
    south: dict[int, int] | None = None,
    north: dict[int, int] | None = None,
    *,
    stores: tuple[list[int], list[int]] | None = None,
    turn: int = SOUTH,
    opened: tuple[bool, bool] = (True, True),
    captured: tuple[int, int] = (0, 0),
    variants: tuple[str, ...] = (),
) -> Tchela:
    """A hand-made position loaded through ``Tchela.from_dict``; it counts as seen once."""
    holes = 12 if "4x6" in variants else 16
    store_count = 2 if "two-stores" in variants else 1

    def row(spec: dict[int, int] | None) -> list[int]:
        counts = [0] * holes
        for hole, count in (spec or {}).items():
            counts[hole - 1] = count
        return counts

    state = {
        "holes": [row(south), row(north)],
        "stores": [list(s) for s in (stores or ([0] * store_count, [0] * store_count))],
        "captured": list(captured),
        "turn": turn,
        "opened": list(opened),
        "last": None,
        "safeguard_plies": [],
        "positions": {},
    }
    game = Tchela.from_dict(
        {"game": "tchela", "variants": list(variants), "seats": 2, "state": state, "log": []}
    )
    game._record_position()  # the loaded position is its own first occurrence
    return game


def full(holes: int = 16, **changes: int) -> dict[int, int]:
    """Every hole with one counter, then ``h5=0``-style changes."""
    spec = {hole: 1 for hole in range(1, holes + 1)}
    spec.update({int(k[1:]): v for k, v in changes.items()})
    return spec


def row(*counts: int) -> list[int]:
    return list(counts)


def play(game: Tchela, moves: str) -> Tchela:
    for move in moves.split():
        game.push(move)
    return game


def after(game: Tchela, move: str) -> Tchela:
    twin = game.copy()
    twin.push(move)
    return twin


def assert_illegal(game: Tchela, move: str, *reason_words: str) -> IllegalMove:
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        game.push(move)
    for word in reason_words:
        assert word in info.value.reason
    assert game.to_json() == before  # nothing changed
    return info.value


# ---- the board ------------------------------------------------------------------------


def test_registry_and_seats():
    assert game_class("tchela") is Tchela
    assert game_class("Tchela") is Tchela
    assert Tchela.seat_names == ("South", "North")
    assert set(Tchela.variants) == {"4x6", "two-stores"}


def test_one_counter_in_every_hole_stores_empty_south_opens():
    game = Tchela()
    assert game.holes(SOUTH) == [1] * 16 and game.holes(NORTH) == [1] * 16
    assert game.stores(SOUTH) == [0] and game.stores(NORTH) == [0]
    assert game.to_move == SOUTH
    assert game.phase == "opening"
    assert game.captured == [0, 0]


def test_4x6_has_twelve_holes_each_and_24_counters():
    game = Tchela(["4x6"])
    assert game.holes(SOUTH) == [1] * 12 and game.holes(NORTH) == [1] * 12
    assert sum(game.holes(SOUTH)) + sum(game.holes(NORTH)) == 24


def test_two_stores_gives_each_player_two_empty_stores():
    game = Tchela(["two-stores"])
    assert game.stores(SOUTH) == [0, 0] and game.stores(NORTH) == [0, 0]


def test_sowing_order_with_the_stores_in_place():
    # Places: holes are 0..N-1 (hole number - 1), then store 1, store 2.
    assert Tchela().layout.cycle == (*range(8), 16, *range(8, 16))
    assert Tchela(["two-stores"]).layout.cycle == (*range(8), 16, 8, 9, 10, 11, 17, *range(12, 16))
    assert Tchela(["4x6"]).layout.cycle == (*range(6), 12, *range(6, 12))
    assert Tchela(["4x6", "two-stores"]).layout.cycle == (*range(6), 12, 6, 7, 8, 13, 9, 10, 11)


@pytest.mark.parametrize(
    ("variants", "ours", "theirs", "behind"),
    [
        ((), 9, 16, 1),
        ((), 10, 15, 2),
        ((), 16, 9, 8),
        (("4x6",), 7, 12, 1),
        (("4x6",), 11, 8, 5),
        (("4x6",), 12, 7, 6),
    ],
)
def test_facing_holes_and_the_outer_hole_behind(variants, ours, theirs, behind):
    layout = Tchela(variants).layout
    assert layout.facing(ours - 1) == theirs - 1
    assert layout.behind(theirs - 1) == behind - 1


# ---- the opening ----------------------------------------------------------------------


def test_start_lists_every_opening_and_the_store_only_where_the_last_sowing_passes_it():
    # From a full row, openH pairs into h+1, h+3, ..., h+15 = h-1 and sows that pair:
    # h (0->1), h+1 (2->3) relay 3: h+2, h+3 (2->3), h+4 (0->1) ends. The store (after 8) is
    # passed when hole 9 is among h..h+4: h = 5..9.
    opens = [f"open{h}" for h in range(1, 17)]
    stored = [f"open{h}+s" for h in range(5, 10)]
    assert Tchela().legal_moves() == sorted(opens + stored)


def test_open1_exact_board():
    game = play(Tchela(), "open1")
    # Pairs in 2, 4, ..., 16; 16 (2) is picked up and sows 1 (0->1), 2 (2->3); relay 3:
    # 3 (0->1), 4 (2->3), 5 (0->1) ends in outer hole 5: no capture. 16 counters in all.
    assert game.holes(SOUTH) == row(1, 0, 1, 3, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0)
    assert game.stores(SOUTH) == [0]
    assert game.holes(NORTH) == [1] * 16
    assert game.captured == [0, 0]
    assert game.to_move == NORTH
    assert game.phase == "opening"
    assert game.last == {
        "seat": SOUTH,
        "move": "open1",
        "kind": "open",
        "start": 1,
        "pairs": [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12], [13, 14], [15, 16]],
        "sown": 16,
        "count": 2,
        "drops": [1, 2, 3, 4, 5],
        "relays": [[2, 3]],
        "advanced": 5,
        "laps": 0.31,
        "end": 5,
        "captured": [],
        "safeguard": False,
    }


def test_open5_captures_and_open5_plus_s_ends_in_the_store():
    # Pairs in 6, 8, ..., 16, 2, 4; 4 (2) sows 5 (0->1), 6 (2->3); relay 3: 7, 8 (2->3) and
    # then 9 (0->1): an empty inner hole facing North's 16, with North's 1 behind it.
    plain = play(Tchela(), "open5")
    assert plain.holes(SOUTH) == row(0, 2, 0, 0, 1, 0, 1, 3, 1, 2, 0, 2, 0, 2, 0, 2)
    assert plain.holes(NORTH) == row(0, *[1] * 14, 0)
    assert plain.captured == [2, 0]
    assert plain.last["captured"] == [[16, 1], [1, 1]]
    # With the store: the relay's third counter drops into the empty store and ends the move.
    stored = play(Tchela(), "open5+s")
    assert stored.holes(SOUTH) == row(0, 2, 0, 0, 1, 0, 1, 3, 0, 2, 0, 2, 0, 2, 0, 2)
    assert stored.stores(SOUTH) == [1]
    assert stored.holes(NORTH) == [1] * 16
    assert stored.captured == [0, 0]
    assert stored.last["end"] == "s1"
    assert stored.last["drops"] == [5, 6, 7, 8, "s1"]


def test_stores_are_not_used_in_the_pairing():
    # open9 pairs 9 -> 10, 11 -> 12, ..., 7 -> 8 as if the store were not there; only the
    # final sowing of the last pair (8) passes it (and declines it here).
    game = play(Tchela(), "open9")
    assert game.last["pairs"] == [
        [9, 10], [11, 12], [13, 14], [15, 16], [1, 2], [3, 4], [5, 6], [7, 8],
    ]  # fmt: skip
    # 8 (2) sows 9 (0->1), 10 (2->3); relay 3: 11 (0->1), 12 (2->3), 13 (0->1) ends:
    # captures North's 12 and the outer 5 behind it.
    assert game.last["drops"] == [9, 10, 11, 12, 13]
    assert game.stores(SOUTH) == [0]
    assert game.captured == [2, 0]
    assert game.last["captured"] == [[12, 1], [5, 1]]


def test_north_opens_second_then_the_main_phase_alternates():
    game = play(Tchela(), "open1")
    assert game.status_line() == "North to open"
    assert all(m.startswith("open") for m in game.legal_moves())
    game.push("open1")
    assert game.phase == "main"
    assert game.to_move == SOUTH
    assert not any(m.startswith("open") for m in game.legal_moves())
    assert game.status_line() == "South to move"
    assert_illegal(game, "open3", "opening is over")


def test_a_hole_number_in_the_opening_means_open():
    game = Tchela()
    assert game.parse_move("5") == "open5"
    assert game.parse_move(" OPEN 5 + S ") == "open5+s"
    assert game.ply == 0


def test_north_opening_stops_pairing_at_an_empty_hole_and_sows_the_last_pair():
    # South's open10 sows 9 (2): 10, 11 (2->3); relay 3: 12, 13, 14 (0->1) ends in 14,
    # capturing North's 11 and the 6 behind it.
    game = play(Tchela(), "open10")
    assert game.holes(NORTH) == row(1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1)
    assert "open6" not in game.legal_moves() and "open11" not in game.legal_moves()
    # North's open7: 7 -> 8, 9 -> 10, and the next hole to take from (11) is empty.
    # 10 (2) sows 11 (0->1), 12 (1->2); relays of 2 from 12, 14, 16, 2, 4; then 5 (1->2),
    # 6 (0->1) ends in outer hole 6. The path never passes the store: no open7+s.
    assert "open7+s" not in game.legal_moves()
    game.push("open7")
    assert game.holes(NORTH) == row(2, 0, 2, 0, 2, 1, 0, 2, 0, 0, 1, 0, 2, 0, 2, 0)
    assert game.last["pairs"] == [[7, 8], [9, 10]]
    assert game.last["sown"] == 10
    assert game.last["relays"] == [[12, 2], [14, 2], [16, 2], [2, 2], [4, 2]]
    assert game.last["drops"] == [11, 12, 13, 14, 15, 16, 1, 2, 3, 4, 5, 6]
    assert game.captured == [2, 0]


def test_an_empty_target_makes_a_single_and_the_last_pair_relays_over_a_lap():
    # After South's open10 (North's 6 and 11 empty), North's open5: 5 -> 6 (empty: a single),
    # 7 -> 8, 9 -> 10; 11 is empty so pairing stops; the last pair is 10.
    game = play(Tchela(), "open10")
    assert game.holes(SOUTH) == row(2, 0, 2, 0, 2, 0, 2, 0, 0, 1, 0, 1, 3, 1, 2, 0)
    assert {"open5", "open5+s"} <= set(game.legal_moves())
    plain = after(game, "open5")
    # 10 (2): 11, 12 relay; 13, 14 relay; 15, 16 relay; 1, 2 relay; 3, 4 relay; 5 (0->1),
    # 6 (1->2) relay; 7 (0->1), 8 (2->3) relay 3: store declined, 9, 10 (emptied: 0->1),
    # 11 (1->2) relay; 12 (0->1), 13 (2->3) relay 3: 14 (0->1), 15 (2->3), 16 (0->1) ends.
    # 16 was emptied by a relay earlier in the move, so it counts as empty. It faces South's
    # 9, which is empty: no capture.
    assert plain.last["pairs"] == [[5, 6], [7, 8], [9, 10]]
    assert plain.holes(NORTH) == row(2, 0, 2, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 3, 1)
    assert plain.stores(NORTH) == [0]
    assert plain.last["end"] == 16
    assert plain.last["advanced"] == 22
    assert plain.captured == [2, 0]
    # open5+s: after the relay from 8, the store (1), 9 (0->1), 10 (0->1) ends: 10 faces
    # South's 15 (2); South's outer 2 behind it is empty, so only 2 are captured.
    stored = after(game, "open5+s")
    assert stored.holes(NORTH) == row(2, 0, 2, 0, 1, 0, 1, 0, 1, 1, 1, 0, 2, 0, 2, 0)
    assert stored.stores(NORTH) == [1]
    assert stored.last["captured"] == [[15, 2]]
    assert stored.captured == [2, 2]
    assert stored.holes(SOUTH) == row(2, 0, 2, 0, 2, 0, 2, 0, 0, 1, 0, 1, 3, 1, 0, 0)
    assert stored.phase == "main" and stored.to_move == SOUTH


# ---- sowing, relay and capture --------------------------------------------------------


def test_sixteen_or_more_counters_do_not_skip_the_origin_and_relays_run_two_laps():
    # Hole 1 with 17, store full (skipped): 2..16 and 1 (the origin gets one), then 2 (1->2):
    # relay 2 from 2, 4, 6, ..., 16; the last relay drops into 1 (1->2) and 2, which was
    # emptied by the first relay: the move ends there.
    game = position({1: 17}, {3: 1}, stores=([1], [0]))
    assert "1+s" not in game.legal_moves()
    game.push("1")
    assert game.holes(SOUTH) == row(2, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0)
    assert game.stores(SOUTH) == [1]
    assert game.last["relays"] == [[h, 2] for h in (2, 4, 6, 8, 10, 12, 14, 16)]
    assert game.last["drops"] == [*range(2, 17), 1, 2, *range(3, 17), 1, 2]
    assert game.last["advanced"] == 33
    assert game.last["laps"] == 2.06
    assert game.last["end"] == 2
    assert game.captured == [0, 0]
    # The embed's "Last move" line states the laps (33 positions / 16 holes = 2.06).
    assert "8 relays, 2.1 laps, ends in hole 2" in dict(game.summary())["Last move"]


CAPTURE_SOUTH = {10: 2, 3: 1}


def test_capture_of_the_opposite_inner_hole_and_the_outer_hole_behind():
    # 10 (2) sows 11, 12: 12 is empty, it faces North's 13 (3), with North's 4 (2) behind.
    game = position(CAPTURE_SOUTH, {13: 3, 4: 2, 1: 1})
    assert game.describe_move("10") == "hole 10 — sow 2, ends in hole 12, captures 5"
    game.push("10")
    assert game.holes(NORTH) == row(1, *[0] * 15)
    assert game.captured == [5, 0]
    assert game.last["captured"] == [[13, 3], [4, 2]]
    assert game.summary()[1] == ("Captured", "South 5 · North 0")


def test_capture_without_the_outer_hole_when_it_is_empty():
    game = position(CAPTURE_SOUTH, {13: 3, 1: 1})
    game.push("10")
    assert game.captured == [3, 0]
    assert game.last["captured"] == [[13, 3]]


def test_no_capture_when_the_opposite_inner_hole_is_empty():
    # "If the opposite inner hole is empty, nothing is captured" - not even the outer one.
    game = position(CAPTURE_SOUTH, {4: 2, 1: 1})
    game.push("10")
    assert game.captured == [0, 0]
    assert game.holes(NORTH)[3] == 2


def test_no_capture_when_ending_in_the_outer_row():
    # 3 (1) -> 4, an empty outer hole.
    game = position(CAPTURE_SOUTH, {13: 3, 4: 2, 1: 1, 16: 1})
    game.push("3")
    assert game.last["end"] == 4
    assert game.captured == [0, 0]


def test_ending_in_a_store_ends_the_move_without_capture():
    # 8 (1): with the store it ends there; without, it ends in empty 9 facing North's 16.
    game = position({8: 1}, {16: 2, 1: 1})
    assert game.legal_moves() == ["8", "8+s"]
    stored = after(game, "8+s")
    assert stored.stores(SOUTH) == [1] and stored.holes(SOUTH) == [0] * 16
    assert stored.captured == [0, 0]
    assert stored.last["end"] == "s1"
    assert game.describe_move("8+s") == "hole 8 — sow 1, 1 into a store, ends in the store"
    plain = after(game, "8")
    assert plain.captured == [3, 0]
    assert plain.last["captured"] == [[16, 2], [1, 1]]


def test_store_choice_listed_only_when_the_sowing_passes_the_empty_store():
    # 7 (1) ends in 8 without reaching the store; 10 (3) stays in the inner row.
    game = position({7: 1, 10: 3}, {1: 1})
    assert game.legal_moves() == ["10", "7"]
    assert_illegal(game, "7+s", "store")
    # 7 (2): 8, then the store is passed.
    assert position({7: 2}, {1: 1}).legal_moves() == ["7", "7+s"]


def test_a_full_store_is_skipped_and_offers_no_choice():
    game = position({8: 1}, {16: 1}, stores=([1], [0]))
    assert game.legal_moves() == ["8", "s"]
    assert_illegal(game, "8+s")
    game.push("8")
    assert game.holes(SOUTH)[8] == 1 and game.stores(SOUTH) == [1]
    assert game.last["drops"] == [9]


def test_a_declined_store_is_skipped_for_the_rest_of_the_move():
    # 8 (17): store declined, 9..16, 1..8 (16 holes, the origin included), store skipped
    # again although still empty, 9 (1->2) relay 2 from 9, 11, 13, 15, 1, 3, 5, 7; that last
    # relay drops into 8 (1->2), passes the store once more, and ends in 9 (emptied: 0->1).
    game = position({8: 17}, {16: 1, 1: 1, 2: 1})
    plain = after(game, "8")
    assert plain.stores(SOUTH) == [0]
    assert "s1" not in plain.last["drops"]
    assert plain.holes(SOUTH) == row(0, 2, 0, 2, 0, 2, 0, 2, 1, 2, 0, 2, 0, 2, 0, 2)
    assert plain.last["end"] == 9
    assert plain.last["captured"] == [[16, 1], [1, 1]]
    # 8+s: store (1), 9..16, 1..8: 17 counters, the last into the emptied origin 8: ends.
    stored = after(game, "8+s")
    assert stored.holes(SOUTH) == [1] * 16 and stored.stores(SOUTH) == [1]
    assert stored.last["end"] == 8
    assert stored.captured == [0, 0]


def test_sowing_the_store_and_refilling_it_in_the_same_move():
    # Store (1) sows into 9 (1->2): relays of 2 from 9, 11, 13, 15, 1, 3, 5, 7; that last one
    # drops into 8 (1->2) and reaches the store, emptied when the move began.
    game = position(full(), full(h5=0), stores=([1], [0]))
    assert {"s", "s+s"} <= set(game.legal_moves())
    plain = after(game, "s")  # declines: 9 (emptied: 0->1) ends, facing North's 16 (1 behind)
    assert plain.holes(SOUTH) == row(0, 2, 0, 2, 0, 2, 0, 2, 1, 2, 0, 2, 0, 2, 0, 2)
    assert plain.stores(SOUTH) == [0]
    assert plain.last["start"] == "s1" and plain.last["kind"] == "store"
    assert plain.last["captured"] == [[16, 1], [1, 1]]
    refilled = after(game, "s+s")
    assert refilled.holes(SOUTH) == row(0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2)
    assert refilled.stores(SOUTH) == [1]
    assert refilled.last["end"] == "s1"
    assert refilled.captured == [0, 0]


def test_store_counters_cannot_be_captured():
    # North's 10 (1) -> 11 ends facing South's 14; South's store is not a hole and stays.
    game = position({14: 2, 3: 1}, {10: 1}, stores=([1], [0]), turn=NORTH)
    game.push("10")
    assert game.captured == [0, 3]
    assert game.stores(SOUTH) == [1]
    assert game.holes(SOUTH) == [0] * 16


# ---- the safeguard --------------------------------------------------------------------

# A travelling wave: from this row, sowing 14 (2) relays 16, 2, 4, 6 (2 each), 8 (3), 11,
# 13, 15 (2 each): 8 relays, 17 hole positions, and the row is back, moved on by one hole
# (worked through by hand). So period p relays at the same holes shifted by p, at advanced
# 17p + 2, 4, 6, 8, 10, 13, 15, 17. The first relay check at 320 or more is in period 18
# (shift 2): 308, 310, 312, 314, 316, 319 (relays go on), 321 at hole 13 + 2 = 15: stop.
WAVE = {2: 1, 4: 1, 6: 1, 8: 2, 9: 1, 11: 1, 13: 1, 14: 2, 16: 1}


def test_safeguard_stops_an_endless_relay_with_no_capture():
    game = position(WAVE, {10: 2, 7: 1, 1: 1}, stores=([1], [0]))  # store full: skipped
    game.push("14")
    # The row at that moment: period 0's state just after the 7th drop-off (13 full of 2),
    # rotated by two holes.
    assert game.holes(SOUTH) == row(1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1, 0, 1, 2, 0)
    assert game.last["safeguard"] is True
    assert game.last["end"] == 15
    assert game.last["advanced"] == 321
    assert len(game.last["drops"]) == 321
    assert len(game.last["relays"]) == 18 * 8 + 6
    assert game.last["captured"] == [] and game.captured == [0, 0]
    assert game.holes(NORTH)[9] == 2  # North's 10 faces South's 15: untouched
    assert game.safeguard_plies == [1]
    assert "safeguard" in game.status_line()
    assert "safeguard" in dict(game.summary())["Last move"]


def test_safeguard_counts_hole_positions_only_from_the_final_opening_sowing():
    # Nothing in a real opening comes near 20 laps: the counter is per move and starts at the
    # final sowing (open1 sows 5 holes after pairing 16 counters).
    game = play(Tchela(), "open1")
    assert game.last["advanced"] == 5 and not game.last["safeguard"]


# ---- the skip -------------------------------------------------------------------------


def test_skip_when_north_could_capture_15_both_targets_when_both_empty():
    # South 15 holds one, 16, 1, 2 are empty; North's 9 (1) -> 10 would capture South's 15.
    game = position({15: 1, 5: 1}, {9: 1, 3: 1})
    assert game.legal_moves() == ["15", "15>1", "15>2", "5"]
    assert game.describe_move("15>1") == "skip — hole 15 to hole 1, out of reach"
    game.push("15>1")
    assert game.holes(SOUTH) == row(1, 0, 0, 0, 1, *[0] * 11)
    assert game.last["kind"] == "skip" and game.last["drops"] == [1]
    assert game.to_move == NORTH


def test_skip_only_to_the_empty_one_of_holes_1_and_2():
    assert "15>2" in position({15: 1, 1: 1}, {9: 1}).legal_moves()
    game = position({15: 1, 2: 1}, {9: 1})
    assert "15>1" in game.legal_moves() and "15>2" not in game.legal_moves()
    assert_illegal(game, "15>2", "skip")
    game = position({15: 1, 1: 1, 2: 1}, {9: 1})
    assert not any(">" in m for m in game.legal_moves())


def test_no_skip_without_a_threat():
    # North's 3 -> 4 captures nothing; North's 10 being occupied makes 9 relay past it:
    # 9 (1) -> 10 (1->2), relay 11, 12 ends in 12.
    assert position({15: 1}, {3: 1}).legal_moves() == ["15"]
    assert position({15: 1}, {9: 1, 10: 1}).legal_moves() == ["15"]


def test_no_skip_unless_15_holds_exactly_one_and_16_is_empty():
    assert ">" not in " ".join(position({15: 2}, {9: 1}).legal_moves())
    assert ">" not in " ".join(position({15: 1, 16: 1}, {9: 1}).legal_moves())


def test_skip_threat_found_through_a_store_choice():
    # North's 7 (4): declining the store it ends in 11; with it (8, store, 9, 10) it ends in
    # empty 10 facing South's 15.
    assert position({15: 1}, {7: 4}).legal_moves() == ["15", "15>1", "15>2"]


def test_skip_threat_found_through_a_relay():
    # North's 7 (1) -> 8 (1->2), relay: full store skipped, 9, 10 ends in empty 10.
    game = position({15: 1}, {7: 1, 8: 1}, stores=([0], [1]))
    assert game.legal_moves() == ["15", "15>1", "15>2"]


def test_no_skip_during_the_opening():
    # North has not opened; South's 9 (1) -> 10 would capture North's 15 (25 - 10).
    threatened = {15: 1, 3: 1, 5: 1}
    opening = position({9: 1}, threatened, turn=NORTH, opened=(True, False))
    assert all(m.startswith("open") for m in opening.legal_moves())
    main = position({9: 1}, threatened, turn=NORTH)
    assert {"15>1", "15>2"} <= set(main.legal_moves())


def test_4x6_skip_uses_holes_11_and_12_and_facing_19_minus_k():
    # South 11 (1), 12 empty; North's 7 (1) -> 8 faces South's 19 - 8 = 11.
    game = position({11: 1, 2: 1}, {7: 1}, variants=("4x6",))
    assert game.legal_moves() == ["11", "11>1", "2"]
    game.push("11>1")
    assert game.holes(SOUTH) == row(1, 1, *[0] * 10)


# ---- variants -------------------------------------------------------------------------


def test_4x6_start_moves_and_open3():
    # Same shape as 4x8: openH sows h..h+4, the store (after 6) is passed for h = 3..7.
    opens = [f"open{h}" for h in range(1, 13)]
    stored = [f"open{h}+s" for h in range(3, 8)]
    game = Tchela(["4x6"])
    assert game.legal_moves() == sorted(opens + stored)
    # open3: pairs 4, 6, 8, 10, 12, 2; 2 (2) sows 3, 4 (2->3); relay 3: 5, 6 (2->3), store
    # declined, 7 (0->1) ends facing North's 12 with North's 1 behind.
    game.push("open3")
    assert game.holes(SOUTH) == row(0, 0, 1, 0, 1, 3, 1, 2, 0, 2, 0, 2)
    assert game.holes(NORTH) == row(0, *[1] * 10, 0)
    assert game.captured == [2, 0]


def test_two_stores_choices_for_each_store_passed():
    # 8 (6): store 1, 9, 10, 11, 12, store 2, 13, 14.
    game = position({8: 6}, {1: 1}, variants=("two-stores",))
    assert game.legal_moves() == ["8", "8+s1", "8+s1s2", "8+s2"]
    assert after(game, "8").last["end"] == 14
    assert after(game, "8+s1").last["drops"] == ["s1", 9, 10, 11, 12, 13]
    assert after(game, "8+s2").last["drops"] == [9, 10, 11, 12, "s2", 13]
    both = after(game, "8+s1s2")
    assert both.last["drops"] == ["s1", 9, 10, 11, 12, "s2"]
    assert both.stores(SOUTH) == [1, 1]


def test_two_stores_second_choice_only_when_really_passed():
    # 8 (5): 9..13 passes store 2; after dropping into store 1 it ends in 12 before store 2.
    game = position({8: 5}, {1: 1}, variants=("two-stores",))
    assert game.legal_moves() == ["8", "8+s1", "8+s2"]
    assert_illegal(game, "8+s1s2", "store")


def test_two_stores_store_moves_and_notation():
    # Store 1 sows into 9, store 2 into 13.
    game = position({1: 1}, {1: 1}, stores=([1, 1], [0, 0]), variants=("two-stores",))
    assert game.legal_moves() == ["1", "s1", "s2"]
    assert after(game, "s2").holes(SOUTH)[12] == 1
    assert game.normalize("8 + S2S1") == "8+s1s2"
    assert_illegal(game, "s", "s1 or s2")


def test_4x6_two_stores_cycle_store_2_between_9_and_10():
    # 4x6 two-stores: 9 (1) passes store 2 on the way to 10.
    game = position({9: 1}, {1: 1}, variants=("4x6", "two-stores"))
    assert game.legal_moves() == ["9", "9+s2"]


# ---- the end --------------------------------------------------------------------------


def test_no_counters_left_loses():
    # North's 9 -> 10 captures South's 15, its last counter (2 behind it is empty).
    game = position({15: 1}, {9: 1, 4: 1}, turn=NORTH)
    game.push("9")
    assert game.is_over
    assert game.outcome.winners == (NORTH,)
    assert game.outcome.reason == "no legal move"
    assert game.legal_moves() == [] and game.to_move is None
    assert game.status_line() == "North wins: no legal move"


def test_a_counter_in_the_store_is_still_a_move():
    game = position({}, {1: 1}, stores=([1], [0]))
    assert game.legal_moves() == ["s"]


# One counter each: South from 1, North from 10. By the facing rule (inner k faces 25 - k)
# nobody ever lands opposite the other's counter; South takes the store detour once and
# skips from 15 once (North's 9 -> 10 threatens it), so after 32 plies all is as before.
CYCLE = ("1 10 2 11 3 12 4 13 5 14 6 15 7 16 8+s 1 s 2 9 3 10 4 11 5 12 6 13 7 14 8 15>1 9").split()


def test_threefold_repetition_is_a_draw():
    game = position({1: 1}, {10: 1})
    play(game, " ".join(CYCLE))
    assert not game.is_over and game.captured == [0, 0]
    assert game.holes(SOUTH)[0] == 1 and game.holes(NORTH)[9] == 1
    play(game, " ".join(CYCLE[:-1]))
    assert not game.is_over
    game.push(CYCLE[-1])
    assert game.is_over and game.outcome.is_draw
    assert game.outcome.reason == "threefold repetition"
    assert game.legal_moves() == []


def test_resignation_and_agreed_draw():
    game = play(Tchela(), "open1")
    game.resign(NORTH)
    assert game.outcome.winners == (SOUTH,)
    assert game.legal_moves() == []
    game = Tchela()
    game.agree_draw()
    assert game.outcome.is_draw


# ---- notation and records -------------------------------------------------------------


def test_illegal_moves_raise_and_change_nothing():
    game = play(Tchela(), "open1")  # North to open
    assert_illegal(game, "open17", "1 to 16")
    assert_illegal(game, "s", "opening")
    assert_illegal(game, "15>1", "opening")
    main = play(Tchela(), "open1 open1")
    assert_illegal(main, "2", "empty")  # South's 2 was emptied by the relay
    assert_illegal(main, "open3", "opening is over")
    assert_illegal(main, "4+s")
    assert_illegal(main, "banana")


def test_numbers_past_the_int_limit_are_refused_with_the_hole_range():
    # Python refuses to read integers of more than 4,300 digits; a move is refused first.
    huge = "1" * 5000
    assert_illegal(Tchela(), huge, "1 to 16")  # in the opening "5" means open5
    assert_illegal(Tchela(), "open" + huge, "1 to 16")
    main = play(Tchela(), "open1 open1")
    assert_illegal(main, huge, "1 to 16")
    assert_illegal(main, huge + "+s")
    assert_illegal(main, huge + ">1")
    assert_illegal(main, "15>" + huge)


def test_normalize_accepts_case_and_spacing():
    game = position({15: 1, 8: 2}, {9: 1})
    assert game.parse_move(" 15 > 1 ") == "15>1"
    assert game.parse_move("15->2") == "15>2"
    assert game.parse_move("8 + S") == "8+s"
    assert game.parse_move("8+s1") == "8+s"  # one store: s1 is s
    store = position({}, {1: 1}, stores=([1], [0]))
    assert store.parse_move("S") == "s" and store.parse_move("s1") == "s"


def test_last_move_trace_and_captured_totals_survive_json():
    game = play(Tchela(), "open10 open5+s")
    again = load_game(game.to_json())
    assert again.last == game.last
    assert again.captured == [2, 2]
    assert again.summary() == game.summary()


def test_status_summary_and_text_board():
    game = Tchela()
    assert game.status_line() == "South to open"
    assert game.summary() == [("Phase", "opening"), ("Captured", "South 0 · North 0")]
    lines = game.text_board().splitlines()
    assert lines[0] == "North · captured 0" and lines[-1] == "South · captured 0"
    assert lines[1].split() == [str(n) for n in range(8, 0, -1)]  # North's outer, 8..1
    assert lines[4].split() == [str(n) for n in range(9, 17)]  # North's inner, 9..16
    assert lines[5].split() == [str(n) for n in range(16, 8, -1)]  # South's inner
    assert lines[8].split() == [str(n) for n in range(1, 9)]  # South's outer
    assert "s(0)" in lines[3] and "s(0)" in lines[6]
    assert game.text_board().count("[ 1]") == 32


def test_describe_move_opening():
    assert Tchela().describe_move("open1") == (
        "open from hole 1 — 8 pairs, sow 2 from hole 16, 1 relay, ends in hole 5"
    )


def test_best_capture_is_the_most_one_sowing_could_take_now():
    # South: 10 (2) ends in its empty 12, facing North's 13 (3) with North's 4 (2) behind:
    # 5; 3 (1) ends in the outer row; 9 (4) sows 10-13 and ends in 13, facing North's
    # empty 12: nothing. North (as if to move): 13 (3) ends in its empty 16, facing
    # South's 9 (4), whose outer hole 8 behind is empty: 4; 4 and 1 end in the outer row.
    game = position({10: 2, 3: 1, 9: 4}, {13: 3, 4: 2, 1: 1})
    assert game.best_capture(SOUTH) == 5
    assert game.best_capture(NORTH) == 4
    # Without South's 9 North's 13 ends facing an empty hole: no capture for North.
    assert position(CAPTURE_SOUTH, {13: 3, 4: 2, 1: 1}).best_capture(NORTH) == 0
    # The position is left alone.
    assert game.holes(SOUTH)[9] == 2 and game.holes(NORTH)[12] == 3
