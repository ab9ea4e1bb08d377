"""The plain reference of the Shax playout bench (bench/shax_plain.py) against the engine:
from the same seed both play the very same random games, so the bench's ratio compares the
same work, and the reference, written apart from the engine, checks it once more."""

from __future__ import annotations

import random

from bench.engines import PLAYOUT_MAX_PLIES, engine_playout
from bench.shax_plain import plain_playout


def test_the_plain_reference_plays_the_engines_games_move_for_move():
    for seed in range(25):
        engine = engine_playout(random.Random(seed), PLAYOUT_MAX_PLIES)
        plain = plain_playout(random.Random(seed), PLAYOUT_MAX_PLIES)
        assert plain == engine, f"seed {seed}"
