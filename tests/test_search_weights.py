"""The dice games' weighted evaluation (``search.evaluate.WEIGHTED``): its features on
hand-worked positions, the weights fitted by self-play (``search/weights``, loaded by
``search.learnt``) and the command that fits them (``bench/fit_weights.py``)."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from bench import fit_weights
from games.chebache import BLACK, Chebache
from search import learnt
from search.arena import FITTED_LEVELS
from search.evaluate import WEIGHTED, features, margin, weights_for
from search.mcts import LEVELS
from tests.test_search_dice import sachidjun

# ---- features on hand-worked positions --------------------------------------------------


def lone_pieces_position():
    # Tameg raža (role 1) to roll. Veradi (seat 0's team) has a lone raža on W5 and one on
    # W8 (cells 5 and 8), the rest at home; tameg a lone raža on W2 (cell 2), the rest at
    # home. Nothing is captured.
    return sachidjun({2: [0, 1, 0, 0], 5: [1, 0, 0, 0], 8: [1, 0, 0, 0]}, [6, 7, 8, 8], 1)


def test_sachidjun_features_on_a_hand_worked_position():
    # The sub-turns to come: tameg raža (1), veradi čadra (2), tameg čadra (3), veradi
    # raža (0). Tameg rolls next, so the roller-signed features are negated for veradi.
    # Veradi's lone pieces, against tameg's raža then čadra (no held cell in the way):
    # - tameg raža (sunwise, from W2 and from its mora by NE, cell 17 counted as the step
    #   before NE): W5 is 3 and 24 away: the 15 rolls showing a 3, 1-2 and 2-1, and 6-6 (4 x
    #   6): 18 of 64; W8 6 and 27 away: 15 showing a 6, 1-5 5-1 2-4 4-2, 3-3 (2 x 3): 20.
    #   38/64 in all.
    # - tameg čadra (shadowise, all in the mora, entering by NW, cell 10 the step before):
    #   W5 5 away: 15 showing a 5, 1-4 4-1 2-3 3-2: 19; W8 2 away: 15 showing a 2, and 1-1
    #   (1, 2, 4): 16. 35/64.
    # Tameg's lone raža on W2, against veradi's čadra (shadowise by SE: 26 away, no roll)
    # then veradi's raža (sunwise by SW, cell 35 the step before: 3 away, 17 rolls; from
    # W8 30 away: no roll; W5 is 33 behind, past any roll): 0, then 17/64.
    # Lone cells: veradi 2, tameg 1. In the mora: veradi 6 + 8, tameg 7 + 8.
    values = features(lone_pieces_position())
    expected = (0, -38 / 64, -35 / 64, -0.0, -17 / 64, 0, -1, 0, 1, -1)
    assert values == pytest.approx(expected)
    # The hand-set weights: 0.5 x (-38/64) + 0.25 x (-35/64) + 0.25 x 17/64 = -23.5/64,
    # the evaluation before it was weighted: 0.5 x (-(38 + 35/2) + 17/2) / 64.
    assert margin(lone_pieces_position(), 2, fitted=False) == pytest.approx(-23.5 / 64)


def test_chebache_features_on_a_hand_worked_position():
    # Black on roll. White's last piece on its 8 (c2, a square), Black's on its 2 (b2, a
    # square), every other piece home: 10 and 16 pips to go, nothing to hit, no Chebache.
    # The race's spread: 4.3 x sqrt(26 / 8.17) pips; half a roll (4.085 pips) to Black.
    game = Chebache.from_position({"S": "", 8: "1"}, {"S": "", 2: "1"}, turn=BLACK)
    spread = 4.3 * math.sqrt(26 / 8.17)
    expected = (6 / spread, 0.0, -4.085 / spread, 0.0, 0.06)
    assert features(game) == pytest.approx(expected)
    assert margin(game, 2, fitted=False) == pytest.approx(1.7 * (6 - 4.085) / spread)


# ---- the fitted weights --------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(WEIGHTED))
def test_the_fitted_weights_load_and_the_fitted_players_use_them(key):
    names, _values, hand = WEIGHTED[key]
    data = learnt.load(key)
    assert data is not None, f"search/weights/{key}.json is shipped"
    assert tuple(data["weights"]) == names
    fitted = weights_for(key, fitted=True)
    assert fitted == tuple(data["weights"][name] for name in names)
    assert weights_for(key) == hand
    assert data["fitted"]["command"].startswith("python -m bench.fit_weights")
    game = (
        lone_pieces_position()
        if key == "sachidjun"
        else Chebache.from_position({"S": "", 8: "1"}, {"S": "", 2: "1"}, turn=BLACK)
    )
    values = features(game)
    assert margin(game, 2, fitted=True) == pytest.approx(
        sum(w * v for w, v in zip(fitted, values, strict=True))
    )
    # Every level plays with the hand-set weights (the fitted ones did not score better);
    # the arena's ``_fitted`` levels with the fitted ones.
    assert LEVELS["easy"].evaluate(game) != FITTED_LEVELS["easy_fitted"].evaluate(game)
    assert LEVELS["normal"].evaluate(game) == pytest.approx(
        1 / (1 + math.exp(-margin(game, 2))) * 0.9 + 0.05
    )
    assert FITTED_LEVELS["normal_fitted"].evaluate(game) == pytest.approx(
        1 / (1 + math.exp(-margin(game, 2, fitted=True))) * 0.9 + 0.05
    )


def test_a_weights_file_fitted_for_other_features_is_refused(tmp_path, monkeypatch):
    (tmp_path / "chebache.json").write_text(json.dumps({"weights": {"pips": 1.0}}))
    monkeypatch.setattr(learnt, "WEIGHTS_DIR", tmp_path)
    learnt.load.cache_clear()
    try:
        with pytest.raises(ValueError, match="fit again"):
            weights_for("chebache", fitted=True)
    finally:
        learnt.load.cache_clear()


# ---- the fitting ---------------------------------------------------------------------


def test_the_regression_recovers_the_weights_that_made_the_results():
    # 4,000 positions of two features, each result drawn with the chance
    # 1 / (1 + exp(-(1.5 x0 - 0.5 x1))): the fit finds about 1.5 and -0.5.
    rng = np.random.default_rng(35)
    x = rng.normal(size=(4000, 2))
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x @ np.array([1.5, -0.5]))))).astype(float)
    w = fit_weights.fit(x, y)
    assert w == pytest.approx([1.5, -0.5], abs=0.15)
    assert fit_weights.log_loss(x, y, w) < fit_weights.log_loss(x, y, np.zeros(2))


def test_the_fitting_command_on_a_tiny_sample(tmp_path):
    # Six Chebache games (made up: two positions each, White won when its pip lead was
    # ahead) fitted, the last two held out.
    rng = random.Random(35)
    samples = tmp_path / "samples.jsonl"
    with samples.open("w") as out:
        for seed in range(6):
            lead = rng.choice([-1.0, 1.0]) * rng.uniform(0.2, 1.0)
            positions = [[lead, 0.0, 0.1, 0.0, lead / 10], [lead * 2, 0.1, 0.0, 0.0, lead / 5]]
            out.write(json.dumps({"seed": seed, "positions": positions, "result": lead > 0}))
            out.write("\n")
    weights = tmp_path / "chebache.json"
    argv = ["--game", "chebache", "--from", str(samples), "--out", str(weights)]
    assert fit_weights.main([*argv, "--holdout", "0.34"]) == 0
    data = json.loads(weights.read_text())
    assert tuple(data["weights"]) == WEIGHTED["chebache"][0]
    assert data["weights"]["pips"] > 0  # the side ahead in the race won
    fitted = data["fitted"]
    assert (fitted["games"], fitted["positions"], fitted["held_out_games"]) == (4, 8, 2)
    assert fitted["log_loss_fitted"] < math.log(2)


def test_self_play_keeps_every_position_where_a_roll_is_due():
    positions, result = fit_weights.self_play("chebache", "easy", 2, 35, 30, max_plies=40)
    assert positions and all(len(p) == len(WEIGHTED["chebache"][0]) for p in positions)
    assert result in (0.0, 0.5, 1.0)
