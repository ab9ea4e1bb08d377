"""What the Shax engine keeps up to date move by move instead of computing again (issue 33):
the repetition key and the steps of each side, checked against the same things computed
from scratch here, from the board alone, after random actions; also on cheap copies for
the search (``search.fastcopy.clone``) that go their own ways from a shared position, and
on games loaded from JSON."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.shax import ADJACENT, POINTS, Shax
from search.fastcopy import clone

VARIANTS = st.sampled_from([(), ("two-removals",)])


def key_from_scratch(game: Shax) -> str:
    """The ruling's position: both sides' occupied points, the nominal player, the phase."""
    cells = "".join({0: "W", 1: "B"}.get(game.board.get(p, -1), ".") for p in POINTS)
    return f"{cells}|{game.nominal}|{game.stage}"


def steps_from_scratch(game: Shax, seat: int) -> list[str]:
    board = game.board
    return sorted(
        f"{p}-{q}" for p, s in board.items() if s == seat for q in ADJACENT[p] - set(board)
    )


def check_kept_up_to_date(game: Shax) -> None:
    assert game._position_key() == key_from_scratch(game)
    for seat in (0, 1):
        assert sorted(game.steps(seat)) == steps_from_scratch(game, seat)


def random_action(game: Shax, rng: random.Random) -> None:
    """A random legal action; now and then the opponent's steps are asked first, so that
    caches are filled in every order."""
    if rng.random() < 0.3:
        game.steps(rng.randrange(2))
    game.push(rng.choice(game.legal_moves()))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), VARIANTS)
def test_the_key_and_the_steps_match_a_computation_from_scratch(seed, variants):
    rng = random.Random(seed)
    game = Shax(variants)
    branches: list[Shax] = []
    while not game.is_over and game.ply < 400:
        check_kept_up_to_date(game)
        if rng.random() < 0.05:
            branches.append(clone(game))  # shares the position, goes on its own way later
        if rng.random() < 0.03:
            loaded = games.load_game(game.to_json())
            check_kept_up_to_date(loaded)
            assert loaded.legal_moves() == game.legal_moves()
        random_action(game, rng)
    for branch in branches:
        check_kept_up_to_date(branch)
        for _ in range(30):
            if branch.is_over:
                break
            random_action(branch, rng)
            check_kept_up_to_date(branch)


def test_a_copy_for_the_search_leaves_its_original_as_it_was():
    """A cheap copy shares the original's cached steps until one of them moves: moving one
    must leave the other's steps and key those of its own board."""
    rng = random.Random(3)
    game = Shax()
    while game.stage != "movement" or game.blocked:
        game.push(rng.choice(game.legal_moves()))
    before_key, before_steps = game._position_key(), game.steps(game.nominal)
    twin = clone(game)
    twin.push(twin.legal_moves()[0])
    assert twin._position_key() != before_key
    assert game._position_key() == before_key == key_from_scratch(game)
    assert game.steps(game.nominal) == before_steps
    check_kept_up_to_date(twin)
