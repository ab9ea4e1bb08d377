"""The outside players (``search.yardsticks``): legal moves in every setup, and the
judgement each is defined by, on hand-built Pastang positions."""

from __future__ import annotations

import random
import time

import pytest

from games import new_game
from games.jikaida import Jikaida
from search.arena import SETUPS, chooser
from search.yardsticks import (
    WIN,
    YARDSTICKS,
    alphabeta,
    flat_monte_carlo,
    greedy,
    material,
    uct,
)


def pastang(pieces: dict[str, str]) -> Jikaida:
    return Jikaida.from_position({"variant": "pastang", "turn": "yellow", "pieces": pieces})


# Yellow's Deldar on c3 may take the Blue Deldar on c5 (worth 2), which the Blue Swod on d6
# takes back (a Swod captures one square diagonally forward, Blue's forward being down), or
# the Blue Swod on a1 (worth 1; two squares diagonally), which nothing can take back: the
# Blue Deldar on c5 reaches a3, c3, e3 but not a1, and the Swod on d6 only e5 and f4.
GUARDED = {"c3": "YD", "f1": "YS", "c5": "BD", "d6": "BS", "a1": "BS"}


def test_the_guarded_position_is_as_the_comment_says() -> None:
    game = pastang(GUARDED)
    assert {"c3xc5", "c3xa1"} <= set(game.legal_moves())
    game.push("c3xc5")
    assert "d6xc5" in game.legal_moves()
    game = pastang(GUARDED)
    game.push("c3xa1")
    assert not [m for m in game.legal_moves() if m.endswith("a1")]


def test_greedy_takes_the_most_material_in_one_ply() -> None:
    assert greedy(pastang(GUARDED), random.Random(1)) == "c3xc5"


def test_alphabeta2_sees_the_piece_taken_back() -> None:
    # after c3xc5 d6xc5 Yellow is level (2 - 2); after c3xa1 it stays one ahead
    for seed in range(5):
        assert alphabeta(pastang(GUARDED), random.Random(seed)) == "c3xa1"


def test_flat_monte_carlo_takes_the_last_piece() -> None:
    # Pastang: the last side standing wins; the Deldar takes the lone Swod two squares away.
    # Any other move's playouts are cut off after Blue's answer, a lead worth 3/4 each.
    game = pastang({"c3": "YD", "a5": "BS"})
    assert flat_monte_carlo(game, random.Random(3), playouts=3, plies=1) == "c3xa5"


def test_uct_takes_the_last_piece() -> None:
    # Of the Deldar's and the Swod's 16 moves only c3xa5 ends the game: each playout after
    # it scores a win (+1), so its UCB1 value leads and it gathers the most visits.
    game = pastang({"c3": "YD", "a5": "BS"})
    for seed in range(3):
        assert uct(game, random.Random(seed), iterations=200) == "c3xa5"


def test_uct_thinks_for_the_cpu_time_it_is_given() -> None:
    game = new_game("shax", ("two-removals",))
    started = time.process_time()
    move = uct(game, random.Random(1), seconds=0.2)
    assert 0.2 <= time.process_time() - started < 1.0
    assert move in game.legal_moves()


def test_material_counts_for_the_team_asked_and_a_win_beyond_any_count() -> None:
    game = pastang(GUARDED)
    assert material(game, 0) == 2 + 1 - (2 + 1 + 1)
    assert material(game, 1) == 1
    game = pastang({"c3": "YD", "a5": "BS"})
    game.push("c3xa5")
    assert game.is_over
    assert material(game, 0) == WIN and material(game, 1) == -WIN


@pytest.mark.parametrize("player", sorted(YARDSTICKS))
@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s[0]}{s[1]}{s[2]}")
def test_each_outside_player_plays_legal_moves_in_every_setup(player, setup) -> None:
    name, variants, seats = setup
    if name == "jikaida" and not variants and player != "greedy":
        pytest.skip("Poron Jikaida's searches take seconds; greedy covers its engine calls")
    game = new_game(name, variants, seats)
    rng = random.Random(7)
    plies = 0
    while not game.is_over and plies < 6:
        spec = game.dice_needed()
        if spec is not None:
            game.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        if player == "flatmc":
            move = flat_monte_carlo(game, rng, playouts=2, plies=4)
        elif player == "uct":
            move = uct(game, rng, iterations=20)
        else:
            move = YARDSTICKS[player](game, rng)
        assert move in game.legal_moves()
        game.push(move)
        plies += 1


def test_the_arena_seats_outside_players_by_name() -> None:
    game = pastang(GUARDED)
    assert chooser("alphabeta2", 1)(game) == ["c3xa1"]
