"""The bot's rating per game and level, fitted from the arena (bench/bot_ratings.py), and
the rating model playing the bot at it (bot/storage/rating_model.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.arena import read_lines
from bench.bot_ratings import (
    BEGIN,
    END,
    POINTS_PER_LOG_ODDS,
    fit,
    fitted,
    ratings,
    ratings_json,
    results_per_game,
    table,
    with_table,
)
from bot.storage.rating_model import (
    MODEL,
    Player,
    RatingJob,
    bot_rating,
    mu_of,
    rate,
    rated_games,
)

ROOT = Path(__file__).resolve().parent.parent
ARENA_DATA = ROOT / "docs" / "data" / "arena.jsonl"
BOT_PAGE = ROOT / "docs" / "bot.md"
RATINGS_FILE = ROOT / "bot" / "storage" / "bot_ratings.json"

# 60 rating points a mu, Plackett-Luce's c = sqrt(2) * beta = sqrt(2) * 25/6 between two
# players of small sigma: 60 * 25/6 * sqrt(2) = 250 sqrt(2) points per unit of log-odds.
POINTS = 353.5534
LN3_POINTS = 388.4181  # 353.5534 * ln 3 (1.0986123)


def line(game: str, match: str, wins: int, draws: int, losses: int, current: bool = True):
    return {
        "game": game,
        "match": match,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "current": current,
    }


def test_the_scale_is_the_rating_models():
    assert abs(POINTS_PER_LOG_ODDS - POINTS) < 1e-4
    # Two players of small sigma POINTS * ln 3 apart: Plackett-Luce expects a 3:1 share.
    gap = mu_of(1500 + LN3_POINTS) - mu_of(1500)
    c = math.sqrt(2) * MODEL.beta
    assert 1 / (1 + math.exp(-gap / c)) == pytest.approx(0.75)


def test_a_chain_of_three_players_is_solved_pair_by_pair():
    # easy - normal - hard meet only along the chain, so each pair's odds give its gap.
    # normal - easy 4-0-1, plus one virtual draw: 4.5 points of 6, odds 3:1, ln 3 apart.
    # hard - normal 8-1-0, plus one virtual draw: 9 points of 10, odds 9:1, ln 9 = 2 ln 3.
    results = {("normal", "easy"): (4.0, 5), ("hard", "normal"): (8.5, 9)}
    fitted_ratings = ratings(results)
    assert fitted_ratings["normal"] == 1500
    assert fitted_ratings["easy"] == pytest.approx(1500 - LN3_POINTS, abs=1e-3)  # 1111.58
    assert fitted_ratings["hard"] == pytest.approx(1500 + 2 * LN3_POINTS, abs=1e-3)  # 2276.84


def test_a_triangle_of_consistent_results():
    # Each pair's odds after the prior agree with one set of ratings: normal - easy 3:1
    # (4-0-1), hard - normal 3:1 (3-2-0: 4 points of 5, plus the virtual draw 4.5 of 6),
    # hard - easy 9:1 (8-1-0). Those ratings then meet every player's expected points, so
    # they are the fit: easy and hard ln 3 either side of normal.
    results = {
        ("normal", "easy"): (4.0, 5),
        ("hard", "normal"): (4.0, 5),
        ("easy", "hard"): (0.5, 9),
    }
    strengths = fit(results)
    assert strengths["normal"] == 0
    assert strengths["easy"] == pytest.approx(-math.log(3), abs=1e-6)
    assert strengths["hard"] == pytest.approx(math.log(3), abs=1e-6)


def test_the_prior_keeps_a_whitewash_finite():
    # 10-0-0 and one virtual draw: 10.5 points of 11, odds 21: 353.553 * ln 21 (3.04452) = 1076.40.
    assert ratings({("hard", "normal"): (10.0, 10)})["hard"] == pytest.approx(2576.40, abs=0.01)
    # Without it, 4-0-1 is odds 4:1 exactly.
    assert fit({("normal", "easy"): (4.0, 5)}, prior_draws=0)["easy"] == pytest.approx(
        -math.log(4), abs=1e-6
    )


def test_normal_is_the_anchor_and_players_apart_from_it_are_not_fitted():
    results = {("hard", "greedy"): (20.0, 40), ("easy", "random"): (20.0, 20)}
    assert fit(results) == {}  # no normal
    results[("normal", "greedy")] = (20.0, 40)
    assert set(fit(results)) == {"normal", "greedy", "hard"}  # easy and random not reached
    assert ratings(results)["hard"] == pytest.approx(1500, abs=1e-6)  # both even with greedy


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 3), st.integers(0, 12)),
        min_size=5,
        max_size=5,
    )
)
def test_the_fit_gives_every_player_its_points(tallies):
    # The maximum likelihood: each player's points (a draw half, one virtual draw per pair)
    # are the points its ratings expect, over every pair it played.
    pairs = [("normal", "easy"), ("hard", "normal"), ("easy", "hard"), ("normal", "random")]
    pairs.append(("greedy", "hard"))
    results = {
        pair: (w + d / 2, w + d + lost)
        for pair, (w, d, lost) in zip(pairs, tallies, strict=True)
        if w + d + lost
    }
    strengths = fit(results)
    for player in strengths:
        scored = expected = 0.0
        for (a, b), (points, games) in results.items():
            if player in (a, b) and a in strengths:
                other = b if player == a else a
                mine = points if player == a else games - points
                scored += mine + 0.5
                expected += (games + 1) / (1 + math.exp(strengths[other] - strengths[player]))
        assert scored == pytest.approx(expected, rel=1e-6)


def test_the_arena_lines_are_summed_per_rated_game_and_pair():
    lines = [
        line("shax", "normal-easy", 8, 0, 2),
        line("shax (two-removals)", "easy-normal", 1, 2, 7),  # the same pair, the other way
        line("shax", "normal-easy", 0, 0, 9, current=False),  # replaced: left out
        line("shax", "hard + mills - normal", 3, 0, 7),  # a try, not a player
        line("jikaida (pastang)", "hard-normal", 5, 0, 0),
        line("sachidjun (tameg-pair, 3 seats)", "normal-random", 4, 1, 0),
        line("every setup (12, 8 games each)", "normal-random", 96, 0, 0),  # no setup
    ]
    assert results_per_game(lines) == {
        "shax": {("normal", "easy"): (8 + 7 + 1, 20)},  # 8 + (10 - 1 - 1): 16 points of 20
        "pastang": {("hard", "normal"): (5.0, 5)},
        "sachidjun": {("normal", "random"): (4.5, 5)},
    }
    made = fitted(lines)
    # 16.5 points of 21 with the virtual draw, odds 16.5 / 4.5: 353.55 * 1.2993 = 459.37 apart.
    assert made["ratings"]["shax"] == {"easy": 1041, "normal": 1500}
    assert made["games"]["shax"] == {"easy": 20, "normal": 20}
    assert "hard" not in made["ratings"]["shax"]  # not played: the default
    assert "| shax | 1041 (20 games) | 1500 (20 games) | 1800 (no games: the default) |" in table(
        lines
    )


def test_the_rating_file_and_the_table_follow_the_data():
    lines = read_lines(ARENA_DATA)
    assert RATINGS_FILE.read_text(encoding="utf-8") == ratings_json(lines), "run `make docs`"
    page = BOT_PAGE.read_text(encoding="utf-8")
    assert page.count(BEGIN) == 1 and page.count(END) == 1
    assert with_table(page, lines) == page, "run `make docs`"
    made = json.loads(RATINGS_FILE.read_text(encoding="utf-8"))
    assert set(made["ratings"]) <= set(rated_games())
    assert all(levels["normal"] == 1500 for levels in made["ratings"].values())


def test_the_bot_plays_at_its_fitted_rating():
    made = json.loads(RATINGS_FILE.read_text(encoding="utf-8"))["ratings"]
    game, level = "shax", "hard"
    assert bot_rating(game, level) == made[game][level]
    assert bot_rating("no such game", "easy") == 1200  # the default
    job = RatingJob(1, 2, game, 0.0, ((Player(7),), (Player(8, level),)), (1, 0))
    _, (change,) = rate(job, {})
    player = MODEL.create_rating([MODEL.mu, MODEL.sigma])
    anchor = MODEL.create_rating([mu_of(made[game][level]), 1.0])
    [[lost], _] = MODEL.rate([[player], [anchor]], ranks=[1, 0])
    assert (change.mu, change.sigma) == pytest.approx((lost.mu, lost.sigma))
    default = MODEL.create_rating([mu_of(1800), 1.0])
    [[lost_to_default], _] = MODEL.rate([[player], [default]], ranks=[1, 0])
    assert made[game][level] == 1800 or change.mu != pytest.approx(lost_to_default.mu)
