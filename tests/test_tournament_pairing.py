"""Pairing of tournaments (bot/domain/tournaments): round robin, Swiss, knockout.

The expected pairings are worked out by hand from the rules (FIDE's Berger tables; the
Swiss fold and bye; the knockout's seeding), not from running the code."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.tournaments.knockout import MAX_REPLAYS, bracket, seed_order
from bot.domain.tournaments.model import (
    Bye,
    Entrant,
    NoPairing,
    Pairing,
    Result,
    records,
)
from bot.domain.tournaments.round_robin import berger_numbers, round_robin
from bot.domain.tournaments.swiss import (
    MAX_COLOUR_DIFFERENCE,
    default_rounds,
    pair_swiss,
)

# ---- round robin ------------------------------------------------------------------------


def test_berger_table_of_four_is_fides():
    assert berger_numbers(4) == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]


def test_berger_table_of_six_is_fides():
    assert berger_numbers(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_odd_round_robin_rests_whoever_meets_the_dummy():
    # Three players are numbered 1-3 with a dummy as 4: the table of four, and whoever
    # meets 4 rests.
    schedule = round_robin([10, 20, 30])
    assert schedule == [
        ([Pairing(20, 30)], 10),
        ([Pairing(10, 20)], 30),
        ([Pairing(30, 10)], 20),
    ]


@pytest.mark.parametrize("count", range(2, 15))
def test_round_robin_meets_everyone_once_with_balanced_colours(count):
    players = list(range(100, 100 + count))
    schedule = round_robin(players)
    met = [frozenset((g.white, g.black)) for games, _ in schedule for g in games]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(players, 2)), key=sorted
    )
    for games, rests in schedule:
        seated = [p for g in games for p in (g.white, g.black)] + [rests] * (rests is not None)
        assert sorted(seated) == players  # everyone once a round
    for player in players:
        whites = sum(g.white == player for games, _ in schedule for g in games)
        blacks = sum(g.black == player for games, _ in schedule for g in games)
        assert abs(whites - blacks) <= 1
    rested = [rests for _, rests in schedule if rests is not None]
    assert sorted(rested) == (players if count % 2 else [])


def test_double_round_robin_plays_each_pair_both_ways():
    players = [1, 2, 3, 4, 5]
    schedule = round_robin(players, cycles=2)
    assert len(schedule) == 10
    games = [(g.white, g.black) for round_games, _ in schedule for g in round_games]
    for a, b in itertools.combinations(players, 2):
        assert games.count((a, b)) == 1 and games.count((b, a)) == 1
    assert schedule[5:] == [
        ([Pairing(g.black, g.white) for g in round_games], rests)
        for round_games, rests in schedule[:5]
    ]


def test_a_round_robin_needs_two():
    with pytest.raises(ValueError):
        round_robin([1])


# ---- Swiss ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 2), (3, 3), (4, 3), (8, 4), (9, 5), (30, 6), (64, 7), (1000, 11)]
)
def test_default_rounds_are_ceil_log2_plus_one(players, rounds):
    assert default_rounds(players) == rounds


def entrants(count: int) -> list[Entrant]:
    """Players 1..count, rated best first (player 1: 2000, then 10 less each)."""
    return [Entrant(p, 2000 - 10 * p) for p in range(1, count + 1)]


def test_first_swiss_round_folds_the_field_with_alternating_colours():
    field = entrants(8)
    found = pair_swiss(field, records([1, 2, 3, 4, 5, 6, 7, 8], [], []))
    # Top half against bottom half: 1-5, 2-6, 3-7, 4-8; the higher-ranked White on board 1,
    # Black on board 2, and so on.
    assert found.pairings == [Pairing(1, 5), Pairing(6, 2), Pairing(3, 7), Pairing(8, 4)]
    assert found.bye is None


def test_odd_field_gives_the_lowest_ranked_the_bye():
    field = entrants(5)
    found = pair_swiss(field, records([1, 2, 3, 4, 5], [], []))
    # 5 rests; 1-3, 2-4 (the fold of the four others), colours alternating.
    assert found.bye == 5
    assert found.pairings == [Pairing(1, 3), Pairing(4, 2)]


def test_bye_skips_a_player_who_had_one():
    field = entrants(5)
    results = [Result(1, 1, 3, 1.0), Result(1, 4, 2, 0.0)]
    byes = [Bye(1, 5, 1.0)]
    found = pair_swiss(field, records([1, 2, 3, 4, 5], results, byes))
    # Points: 1, 2 and 5 on 1; 3 and 4 on 0: the ranking 1, 2, 5, 3, 4. The bye goes to the
    # lowest-ranked without one: 4. Left: 1, 2, 5 (one point) and 3 (none), with 1-3 met.
    # {1-2, 5-3} and {1-5, 2-3} each pair one player across a point. Colours (whites minus
    # blacks): 1 +1, 2 -1, 3 -1, 5 0. 1-2: 2 White, both end on 0 (cost 0); 5-3: 3 White,
    # 5 ends on -1 (cost 1). 1-5: 1 Black, 5 White (cost 1); 2-3: both on -1 with Black
    # last, the higher-ranked 2 alternates to White, 3 ends on -2 (cost 2). So 2-1 and 3-5.
    assert found.bye == 4
    assert found.pairings == [Pairing(2, 1), Pairing(3, 5)]


def test_score_groups_pair_within_themselves():
    # Round 2 of eight: 1, 6, 3, 8 won round 1 (see the fold above); winners meet winners.
    field = entrants(8)
    results = [
        Result(1, 1, 5, 1.0),
        Result(1, 6, 2, 1.0),
        Result(1, 3, 7, 1.0),
        Result(1, 8, 4, 1.0),
    ]
    found = pair_swiss(field, records(range(1, 9), results, []))
    winners = {1, 3, 6, 8}
    for game in found.pairings:
        assert (game.white in winners) == (game.black in winners)
    # The winners ranked 1, 3, 6, 8 fold to 1-6 and 3-8. Each had White: nothing tells the
    # two of a pair apart, so the higher-ranked alternates, to Black.
    assert Pairing(6, 1) in found.pairings
    assert Pairing(8, 3) in found.pairings


def test_no_pairing_left():
    field = entrants(2)
    with pytest.raises(NoPairing):
        pair_swiss(field, records([1, 2], [Result(1, 1, 2, 0.5)], []))


def check_swiss_round(field, history, found):
    """The invariants of a legal Swiss round."""
    players = [e.player for e in field]
    seated = [p for g in found.pairings for p in (g.white, g.black)]
    seated += [found.bye] if found.bye is not None else []
    assert sorted(seated) == sorted(players)
    assert (found.bye is not None) == (len(players) % 2 == 1)
    for game in found.pairings:
        assert game.black not in history[game.white].opponents
    if found.bye is not None:
        assert history[found.bye].byes == 0


def play_swiss(field, rounds, outcome):
    results, byes = [], []
    players = [e.player for e in field]
    for number in range(1, rounds + 1):
        history = records(players, results, byes)
        found = pair_swiss(field, history)
        check_swiss_round(field, history, found)
        for game in found.pairings:
            results.append(Result(number, game.white, game.black, outcome(game)))
        if found.bye is not None:
            byes.append(Bye(number, found.bye, 1.0))
    final = records(players, results, byes)
    for record in final.values():
        assert abs(record.colour_difference) <= MAX_COLOUR_DIFFERENCE
        assert record.byes <= 1
        assert len(record.opponents) == len(record.colours)  # nobody met twice
    return results, byes


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=20),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_swiss_events_keep_the_rules(count, seed):
    chance = random.Random(seed)
    field = [Entrant(p, chance.uniform(1000, 2000)) for p in range(1, count + 1)]
    rounds = min(default_rounds(count), count - 1)
    try:
        play_swiss(field, rounds, lambda game: chance.choice((1.0, 0.5, 0.0)))
    except NoPairing:
        # Only a small field can run out of legal pairings before the last round.
        assert count <= 6


def test_simulated_64_player_swiss_of_seven_rounds():
    chance = random.Random(64)
    field = [Entrant(p, chance.gauss(1500, 250)) for p in range(1, 65)]
    rating = {e.player: e.rating for e in field}

    def outcome(game: Pairing) -> float:
        # Elo's expectation for White; a draw a third of the time the game is close.
        expected = 1 / (1 + 10 ** ((rating[game.black] - rating[game.white]) / 400))
        roll = chance.random()
        if abs(expected - 0.5) < 0.2 and roll < 0.33:
            return 0.5
        return 1.0 if chance.random() < expected else 0.0

    results, byes = play_swiss(field, 7, outcome)
    assert len(results) == 7 * 32 and not byes
    final = records([e.player for e in field], results, byes)
    # Score groups: a round never pairs players more than a point apart when it can help
    # it; over the event the leader's points and the last's spread by the results.
    best = max(final.values(), key=lambda r: r.points)
    assert best.points >= 5.5


# ---- knockout ---------------------------------------------------------------------------


def test_seed_order():
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_knockout_of_six_gives_the_top_two_seeds_a_bye():
    # Eight places: 1-(8), 4-5, 2-(7), 3-6; seeds 1 and 2 pass the first stage.
    seeds = [11, 12, 13, 14, 15, 16]
    state = bracket(seeds, [])
    # 4-5: equal colours so far, the better seed (4) White; 3-6 likewise.
    assert state.next_games == [Pairing(14, 15), Pairing(13, 16)]
    assert state.champion is None and state.stages == 3


def test_knockout_runs_to_a_champion():
    seeds = [11, 12, 13, 14, 15, 16]
    results = [Result(1, 14, 15, 0.0), Result(1, 13, 16, 1.0)]
    state = bracket(seeds, results)
    # Stage 2: 1-(winner of 4-5: 15) and 2-3 in bracket order. 15 has Black once, 11
    # nothing: 15 takes White. 12 and 13: 13 had White: 12 White.
    assert state.next_games == [Pairing(15, 11), Pairing(12, 13)]
    results += [Result(2, 15, 11, 1.0), Result(2, 12, 13, 0.0)]
    state = bracket(seeds, results)
    # The final: 15 (Black, then White) against 13 (White, then Black): equal, so the
    # better seed, 13, takes White.
    assert state.next_games == [Pairing(13, 15)]
    results += [Result(3, 13, 15, 0.0)]
    state = bracket(seeds, results)
    assert state.next_games == [] and state.champion == 15
    assert state.reached == {11: 2, 12: 2, 13: 3, 14: 1, 15: 4, 16: 1}


def test_a_drawn_knockout_game_is_replayed_with_colours_swapped_then_the_better_seed_wins():
    seeds = [1, 2]
    results = [Result(1, 1, 2, 0.5)]
    assert bracket(seeds, results).next_games == [Pairing(2, 1)]
    for replay in range(MAX_REPLAYS):
        last = results[-1]
        results.append(Result(2 + replay, last.black, last.white, 0.5))
    state = bracket(seeds, results)
    assert state.next_games == [] and state.champion == 1  # the better seed


def test_a_decisive_replay_decides():
    results = [Result(1, 1, 2, 0.5), Result(2, 2, 1, 1.0)]
    assert bracket([1, 2], results).champion == 2


def test_a_withdrawn_player_is_passed_over():
    # 1-4 and 2-3 in the first stage; 4 withdrew before playing: 1 goes through.
    state = bracket([1, 2, 3, 4], [Result(1, 2, 3, 1.0)], withdrawn={4})
    # The second stage: 1 (no game yet) against 2 (one White): 1 takes White.
    assert state.next_games == [Pairing(1, 2)]
    assert state.reached[4] == 1


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=24),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_knockouts_end_with_one_champion(count, seed):
    chance = random.Random(seed)
    seeds = list(range(1, count + 1))
    withdrawn = set(chance.sample(seeds, chance.randint(0, count // 4)))
    results: list[Result] = []
    for number in range(1, 100):
        state = bracket(seeds, results, withdrawn)
        if not state.next_games:
            break
        seated = [p for g in state.next_games for p in (g.white, g.black)]
        assert len(seated) == len(set(seated))  # nobody plays twice in a round
        for game in state.next_games:
            results.append(Result(number, game.white, game.black, chance.choice((1.0, 0.5, 0.0))))
    else:
        raise AssertionError("the knockout did not end")
    if len(withdrawn) < count:
        assert state.champion is not None and state.champion not in withdrawn
        assert state.reached[state.champion] == state.stages + 1
    # A match is at most 1 + MAX_REPLAYS games.
    for a, b in itertools.combinations(seeds, 2):
        met = sum({r.white, r.black} == {a, b} for r in results)
        assert met <= 1 + MAX_REPLAYS
