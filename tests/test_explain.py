"""Why the bot plays a move (``search.explain.reason``, issue 34's hints): hand-built positions
whose sentences are worked out from the rules (``/work/shared/rules/<game>.md``), never from
the search."""

from __future__ import annotations

import json
import re

from games import Game, Shax, Tchela, load_game
from games.jikaida import Jikaida
from games.sachidjun import CELLS, options_for
from search.explain import reason

WIN_CHANCE = re.compile(r"keeps the position best by the bot's judgement: win chance \d{1,3}%")


def shax_after(moves: list[str]) -> Shax:
    game = Shax()
    for move in moves:
        game.push(move)
    return game


# ---- Shax -------------------------------------------------------------------------------


def test_shax_a_placement_that_completes_a_mill():
    # White holds a1 and a4 (Black g1 and g4): a7 closes the a-file's outer line.
    game = shax_after(["a1", "g1", "a4", "g4"])
    assert reason(game, "a7") == "completes a mill at a1-a4-a7"


def test_shax_a_placement_that_blocks_the_opponents_mill():
    # White holds a1 and a4 with a7 empty: Black's a7 takes the point White's mill needs.
    game = shax_after(["a1", "g1", "a4"])
    assert reason(game, "a7") == "blocks White's mill at a1-a4-a7"


def test_shax_a_quiet_placement_falls_back_on_the_bots_judgement():
    game = shax_after(["a1", "g1", "a4"])
    assert WIN_CHANCE.fullmatch(reason(game, "d1"))


def test_reason_leaves_the_game_alone():
    game = shax_after(["a1", "g1", "a4", "g4"])
    saved = game.to_json()
    reason(game, "a7")
    assert game.to_json() == saved


# ---- Tchela -----------------------------------------------------------------------------


def tchela_position(south: dict[int, int], north: dict[int, int]) -> Tchela:
    """South to move in the main phase (both opened), one store each, empty; ``south`` and
    ``north``: counters per hole (1..16), the other holes empty."""
    holes = [[side.get(hole, 0) for hole in range(1, 17)] for side in (south, north)]
    state = {
        "holes": holes,
        "stores": [[0], [0]],
        "captured": [0, 0],
        "turn": 0,
        "opened": [True, True],
        "last": None,
        "safeguard_plies": [],
        "positions": {},
    }
    record = {"game": "tchela", "variants": [], "seats": 2, "state": state, "log": []}
    game = load_game(json.dumps(record))
    assert isinstance(game, Tchela)
    return game


def test_tchela_a_capture_that_leaves_nothing_to_take_back():
    # South sows hole 9's one counter into the empty inner hole 10, which faces North's 15
    # (3 counters) with North's outer hole 17 - 15 = 2 behind it (4): 7 captured. North then
    # has only hole 5's counter, sown into its outer hole 6: no capture.
    game = tchela_position({9: 1}, {15: 3, 2: 4, 5: 1})
    assert reason(game, "9") == "captures 7 counters and leaves none to take back"


def test_tchela_a_capture_the_opponent_can_answer():
    # As above, but North's hole 14 holds one counter: sown into its emptied inner hole 15,
    # which faces South's 10 (the counter just sown, 1) with South's 17 - 10 = 7 behind (2).
    game = tchela_position({9: 1, 7: 2}, {15: 3, 2: 4, 14: 1})
    assert reason(game, "9") == "captures 7 counters and North can take 3 back"


# ---- Pastang ----------------------------------------------------------------------------


def pastang(pieces: dict[str, str]) -> Jikaida:
    return Jikaida.from_position({"variant": "pastang", "turn": "yellow", "pieces": pieces})


def test_pastang_takes_a_deldar_that_nothing_guards():
    # The yellow Deldar steps two squares straight up c3-c4-c5 onto the blue Deldar; Blue's
    # only other piece is a Swod on f3, which moves and captures only downwards.
    game = pastang({"c3": "YD", "a1": "YD", "c5": "BD", "f3": "BS"})
    assert reason(game, "c3xc5") == "takes the blue Deldar on c5 that nothing guards"


def test_pastang_takes_a_deldar_that_can_be_taken_back():
    # The same, with a blue Deldar on d6, one diagonal step from c5.
    game = pastang({"c3": "YD", "a1": "YD", "c5": "BD", "d6": "BD", "f3": "BS"})
    assert reason(game, "c3xc5") == "takes the blue Deldar on c5 that can be taken back"


def test_pastang_a_swod_reaching_the_last_rank_promotes():
    # A yellow Swod on e5 steps forward onto rank 6, Pastang's last: it becomes a Deldar.
    game = pastang({"e5": "YS", "a1": "YD", "a4": "BS"})
    assert reason(game, "e5-e6=D") == "promotes the Swod to Deldar"


def test_pastang_taking_the_last_blue_piece_wins():
    # "No King: the last side with pieces on the board wins."
    game = pastang({"c3": "YD", "c5": "BD"})
    assert reason(game, "c3xc5").startswith("wins the game: ")


# ---- Šačidjun ---------------------------------------------------------------------------


def sachidjun_position(
    pieces: dict[tuple[str, int], int], dice: tuple[int, int], home: list[int]
) -> Game:
    """Veradi raža (role 0) to move with ``dice`` rolled, two players; ``pieces``: counts
    per (cell, role) on the track, ``home``: the pieces left in each role's mora."""
    cells = [[0, 0, 0, 0] for _ in range(len(CELLS))]
    for (cell, role), count in pieces.items():
        cells[CELLS.index(cell)][role] += count
    state = {
        "cells": cells,
        "home": home,
        "prisoners": [[0, 0]] * 4,
        "role": 0,
        "dice": list(dice),
        "options": [list(option) for option in options_for(*dice)],
        "used": [0] * len(CELLS),
        "played": [],
        "landed": [],
    }
    record = {"game": "sachidjun", "variants": [], "seats": 2, "state": state, "log": []}
    return load_game(json.dumps(record))


def test_sachidjun_a_capture_out_of_every_next_roll_s_reach():
    # Veradi raža W1 moves 3 onto the lone tameg raža on W4 (captured at once), W2 moves 5
    # to W7. Tameg raža rolls next, its seven pieces all in its mora: they enter at NE and go
    # south, at most 16 cells (to S6), never reaching the west side.
    game = sachidjun_position({("W1", 0): 1, ("W2", 0): 1, ("W4", 1): 1}, (3, 5), [6, 7, 8, 8])
    assert reason(game, ["W1xW4", "W2-W7"]) == (
        "captures 1 opposing piece and leaves no piece that any of the 64 next rolls can capture"
    )


def test_sachidjun_a_capture_that_leaves_a_piece_19_rolls_hit():
    # Veradi raža E1 moves 2 onto the lone tameg raža on E3; W1 moves 5 to W6. A tameg raža
    # leaving its mora lands on E3 with a move of 4 (NE, then three cells): a roll with a 4
    # (15 of 64), or 1-3 and 3-1 (one piece moving a+b), 2-2 (2d) and 1-1 (4d): 19 rolls.
    game = sachidjun_position({("E1", 0): 1, ("W1", 0): 1, ("E3", 1): 1}, (2, 5), [6, 7, 8, 8])
    assert reason(game, ["E1xE3", "W1-W6"]) == (
        "captures 1 opposing piece; 19 of the 64 next rolls can capture a piece"
    )


# ---- Poron Jikaida ----------------------------------------------------------------------


def test_poron_a_jiktar_move_that_puts_the_blue_king_in_kaida():
    # Inside Mortil (no front crossed) the yellow Jiktar slides b4-e4 along the rank; from
    # e4 it attacks up the e-file, where the blue King stands on e5.
    game = Jikaida.from_position(
        {"pieces": {"b2": "YK", "b4": "YJ", "l1": "YS", "e5": "BK", "l18": "BD"}}
    )
    assert reason(game, "b4-e4") == "puts the blue King in Kaida"


def test_poron_a_king_step_out_of_kaida():
    # The blue Jiktar on b5 attacks down the b-file to the yellow King on b2; a1 is on
    # neither its file nor its rank, nor next to the blue King on e5.
    game = Jikaida.from_position(
        {"pieces": {"b2": "YK", "l1": "YS", "e5": "BK", "b5": "BJ", "l18": "BD"}}
    )
    assert reason(game, "b2-a1") == "gets the King out of Kaida"


def test_shax_the_freeing_move_for_a_blocked_opponent():
    # White (to move nominally) has a1, a7 and g1, every neighbour taken by Black's a4, d1,
    # d7 and g4: blocked, so Black moves instead and must free White. d1-d2 opens d1 to a1
    # and g1.
    state = {
        "board": {"a1": "W", "a7": "W", "g1": "W", "a4": "B", "d1": "B", "d7": "B", "g4": "B"},
        "in_hand": [0, 0],
        "nominal": 0,
        "stage": "movement",
        "first_mill": None,
        "first_remover": 1,
        "placement_removals_left": 0,
        "positions": {},
    }
    record = {"game": "shax", "variants": [], "seats": 2, "state": state, "log": []}
    game = load_game(json.dumps(record))
    assert game.to_move == 1
    assert reason(game, "d1-d2") == "frees White's blocked pieces"
