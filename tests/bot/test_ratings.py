"""Ratings (bot/domain/ratings.py): hand-worked updates checked against OpenSkill, the teams the
engines make, and the store writing them with the game's final move, once.

The hand-worked values follow Weng and Lin's Algorithm 4 (Plackett-Luce) as written in the
paper, with OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, kappa 1e-4, tau 25/300 (added
to every sigma before the update). OpenSkill 6.2 also means to give tied teams the average of
their mu changes, but compares each updated player with itself (updated in place), so the
average is zero: tied teams are updated as the paper says, each on its own.
"""

from __future__ import annotations

import asyncio
import math
import random
from types import SimpleNamespace

import pytest

from bot.domain.ratings import Leaderboard, label, load_leaderboard, rank_lines
from bot.storage import migrations
from bot.storage.migrations import RATED_SINCE
from bot.storage.rating_model import (
    MODEL,
    TOTAL,
    Player,
    RatingJob,
    Standing,
    bot_rating,
    job_for,
    rate,
    rated_games,
    rating_game,
    shown,
)
from bot.storage.sqlite import Store
from games import Sachidjun, Shax

from .conftest import ALICE, BOB, CAROL, GUILD, START, in_thread, start_game

DAVE = 1_234_567_890_123_456_784
MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25 / 3, 25 / 6, 1e-4, 25 / 300


def weng_lin(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple]]:
    """Algorithm 4 of the paper, by hand: teams of (mu, sigma), rank 0 best."""
    teams = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in team] for team in teams]
    team_mu = [sum(mu for mu, _ in team) for team in teams]
    team_s2 = [sum(sigma**2 for _, sigma in team) for team in teams]
    c = math.sqrt(sum(s2 + BETA**2 for s2 in team_s2))
    k = range(len(teams))
    sum_q = [sum(math.exp(team_mu[i] / c) for i in k if ranks[i] >= ranks[q]) for q in k]
    a = [sum(1 for i in k if ranks[i] == ranks[q]) for q in k]
    out = []
    for i in k:
        omega = delta = 0.0
        p_i = math.exp(team_mu[i] / c)
        for q in k:
            if ranks[q] <= ranks[i]:
                p = p_i / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        omega *= team_s2[i] / c
        delta *= team_s2[i] / c**2 * (math.sqrt(team_s2[i]) / c)  # gamma = sigma_i / c
        new = []
        for mu, sigma in teams[i]:
            share = sigma**2 / team_s2[i]
            new.append((mu + share * omega, sigma * math.sqrt(max(1 - share * delta, KAPPA))))
        out.append(new)
    return out


def library(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[tuple]]:
    rated = MODEL.rate(
        [[MODEL.create_rating([mu, sigma]) for mu, sigma in team] for team in teams],
        ranks=ranks,
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def ours(job: RatingJob, current: dict) -> dict[int, tuple[float, float]]:
    standings, changes = rate(job, current)
    assert {c.user_id for c in changes} == set(job.people)
    return {s.user_id: (s.mu, s.sigma) for s in standings if s.game != TOTAL}


def same(got: dict, expected: dict) -> bool:
    return got.keys() == expected.keys() and all(
        got[key] == pytest.approx(expected[key], rel=1e-9) for key in got
    )


def close(a, b) -> bool:
    return all(
        math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
        for ta, tb in zip(a, b, strict=True)
        for pa, pb in zip(ta, tb, strict=True)
        for x, y in zip(pa, pb, strict=True)
    )


def row(game, players, options=None, kind=None):
    return SimpleNamespace(
        id=7,
        guild_id=GUILD,
        kind=kind or game.key,
        variants=tuple(sorted(game.variant_set)),
        players=tuple(players),
        options=options or {},
    )


def test_one_against_one_new_players_by_hand():
    # sigma'^2 = (25/3)^2 + tau^2 = 69.4514; c^2 = 2 (69.4514 + 17.3611) = 173.625;
    # the winner gains sigma'^2 / (2c) = 2.63539, the loser loses as much; both sigmas:
    # sigma' sqrt(1 - 0.4 * 1/4 * sigma'/c) = 8.06590.
    (winner,), (loser,) = weng_lin([[(MU, SIGMA)], [(MU, SIGMA)]], [0, 1])
    assert winner == pytest.approx((27.63539, 8.06590), abs=1e-5)
    assert loser == pytest.approx((22.36461, 8.06590), abs=1e-5)
    assert close(library([[(MU, SIGMA)], [(MU, SIGMA)]], [0, 1]), [[winner], [loser]])
    game = Shax()
    game.resign(1)
    job = job_for(row(game, (ALICE, BOB)), game, START)
    assert job is not None and job.ranks == (0, 1) and job.game == "shax"
    assert same(ours(job, {}), {ALICE: winner, BOB: loser})
    assert (shown(winner[0]), shown(loser[0])) == (1658, 1342)  # 1500 ± 60 * 2.635
    assert label(*winner) == "1658?"  # provisional: sigma 8.07 > 5


def test_a_draw_between_unequal_players():
    teams = [[(30.0, 4.0)], [(22.0, 7.0)]]
    ((a,), (b,)) = weng_lin(teams, [0, 0])
    assert close(library(teams, [0, 0]), [[a], [b]])
    # A draw with a weaker player costs the stronger one, and the surer one moves less.
    assert a[0] < 30.0 and b[0] > 22.0
    assert 30.0 - a[0] < b[0] - 22.0
    game = Shax()
    game.agree_draw()
    job = job_for(row(game, (ALICE, BOB)), game, START)
    assert job is not None and job.ranks == (0, 0)
    current = {
        ("shax", ALICE): Standing(GUILD, "shax", ALICE, 30.0, 4.0, games=9),
        ("shax", BOB): Standing(GUILD, "shax", BOB, 22.0, 7.0, games=3),
    }
    assert same(ours(job, current), {ALICE: a, BOB: b})
    standings, changes = rate(job, current)
    assert {c.outcome for c in changes} == {"draw"}
    assert {s.user_id: s.games for s in standings if s.game == "shax"} == {ALICE: 10, BOB: 4}


def test_a_sachidjun_pair_game_is_rated_side_against_side():
    game = Sachidjun(seats=4)  # seats are roles: 0 and 2 veradi, 1 and 3 tameg
    game.resign(3)  # tameg čadra resigns for tameg: veradi (seats 0 and 2) win
    players = (ALICE, BOB, CAROL, DAVE)
    job = job_for(row(game, players), game, START)
    assert job is not None
    assert [[p.user_id for p in team] for team in job.teams] == [[ALICE, CAROL], [BOB, DAVE]]
    assert job.ranks == (0, 1)
    current = {("sachidjun", CAROL): Standing(GUILD, "sachidjun", CAROL, 28.0, 3.0)}
    teams = [[(MU, SIGMA), (28.0, 3.0)], [(MU, SIGMA), (MU, SIGMA)]]
    expected = weng_lin(teams, [0, 1])
    assert close(library(teams, [0, 1]), expected)
    got = ours(job, current)
    assert same(
        got,
        {ALICE: expected[0][0], CAROL: expected[0][1], BOB: expected[1][0], DAVE: expected[1][1]},
    )
    # The surer partner (sigma 3) moves much less than the new one.
    assert got[CAROL][0] - 28.0 < (got[ALICE][0] - MU) / 4


def test_a_three_player_game_one_against_a_pair():
    game = Sachidjun(["tameg-pair"], seats=3)  # 0 veradi alone; 1 and 2 the tameg pair
    game.resign(0)
    job = job_for(row(game, (ALICE, BOB, CAROL)), game, START)
    assert job is not None
    assert [[p.user_id for p in team] for team in job.teams] == [[ALICE], [BOB, CAROL]]
    assert job.ranks == (1, 0)
    teams = [[(MU, SIGMA)], [(MU, SIGMA), (MU, SIGMA)]]
    expected = weng_lin(teams, [1, 0])
    assert close(library(teams, [1, 0]), expected)
    assert same(ours(job, {}), {ALICE: expected[0][0], BOB: expected[1][0], CAROL: expected[1][1]})
    # A pair of new players beating one new player was expected: each gains less than a
    # 1-1 winner (2.635), and the lone loser loses less than a 1-1 loser would.
    assert 0 < expected[1][0][0] - MU < 2.63
    assert -2.63 < expected[0][0][0] - MU < 0


def test_the_bot_is_a_fixed_anchor_and_friendly_games_are_not_rated():
    game = Shax()
    game.resign(0)
    bot_id = 999
    job = job_for(row(game, (ALICE, bot_id), {"bot_levels": {"1": "hard"}}), game, START)
    assert job is not None and job.people == (ALICE,)
    hard = (MU + (bot_rating("shax", "hard") - 1500) / 60, 1.0)  # fitted from the arena
    (lost,), _ = weng_lin([[(MU, SIGMA)], [hard]], [1, 0])
    standings, changes = rate(job, {})
    assert {s.user_id for s in standings} == {ALICE}  # the bot's rating is not written
    assert (changes[0].mu, changes[0].sigma) == pytest.approx(lost)
    # Losing to the hard bot costs less than losing to a new player.
    assert MU - lost[0] < 2.63539
    assert job_for(row(game, (ALICE, BOB), {"rated": False}), game, START) is None
    assert job_for(row(game, (ALICE, ALICE)), game, START) is None  # one person, both sides
    assert job_for(row(Shax(), (ALICE, BOB)), Shax(), START) is None  # not over


def test_what_is_rated_apart():
    assert rating_game("jikaida", ("pastang",)) == "pastang"
    assert rating_game("jikaida", ()) == "jikaida"
    assert rating_game("tchela", ("4x6", "two-stores")) == "tchela"


def test_streaks_and_tallies():
    standing = Standing(GUILD, "shax", ALICE)
    for outcome in ("win", "win", "loss", "win", "win", "win", "draw"):
        standing = standing.counted(outcome, START)
    assert (standing.games, standing.wins, standing.losses, standing.draws) == (7, 5, 1, 1)
    assert (standing.streak, standing.best_streak) == (0, 3)


# ---- the store: with the final move, once ---------------------------------------------


async def finish(service, board, loser: int):
    return await service.resign(board.game_id, loser, guild_id=GUILD)


async def test_the_final_move_writes_the_result_and_its_ratings(service, store):
    board = await start_game(service)
    final = await finish(service, board, BOB)
    changes = await store.rating_changes(board.game_id)
    assert [(c.user_id, c.outcome, c.before, c.after) for c in changes] == [
        (ALICE, "win", 1500, 1658),
        (BOB, "loss", 1500, 1342),
    ]
    assert dict(final.fields)["Ratings"] == (
        f"<@{ALICE}>: 1500 → 1658? (+158)\n<@{BOB}>: 1500 → 1342? (−158)"
    )
    again = await service.board(board.game_id, GUILD)  # the finished board says it too
    assert "1658" in dict(again.fields)["Ratings"]
    (alice,) = [s for s in await store.standings_of_user(GUILD, ALICE) if s.game == "shax"]
    assert (alice.games, alice.wins, alice.streak) == (1, 1, 1)
    # Never twice: the game's version moved on, and the job alone finds it rated.
    game = Shax()
    game.resign(1)
    job = job_for(await store.get_game(board.game_id), game, START)
    assert not await store.update_game(board.game_id, board.version, ratings=job)
    assert not await store.rate_game(job)
    assert len(await store.rating_changes(board.game_id)) == 2


async def test_a_friendly_game_is_not_rated(service, store):
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=1,
        kind="shax",
        challenger_id=ALICE,
        opponent_id=BOB,
        options={"rated": False},
    )
    board = await service.accept_challenge(challenge.challenge_id, BOB)
    final = await finish(service, board, BOB)
    assert dict(final.fields)["Ratings"] == "Friendly game: not rated"
    assert await store.rating_changes(board.game_id) == []
    assert await store.standings_of_user(GUILD, ALICE) == []


async def test_two_games_ending_at_once_for_one_player_both_count_once(service, store):
    first = await start_game(service)
    second = await start_game(service)
    await asyncio.gather(finish(service, first, BOB), finish(service, second, BOB))
    (alice,) = [s for s in await store.standings_of_user(GUILD, ALICE) if s.game == "shax"]
    assert (alice.games, alice.wins, alice.streak) == (2, 2, 2)
    a = (await store.rating_changes(first.game_id))[0]
    b = (await store.rating_changes(second.game_id))[0]
    earlier, later = sorted([a, b], key=lambda c: c.mu_before)
    assert earlier.mu_before == MU
    assert later.mu_before == pytest.approx(earlier.mu)  # the second read the first's result
    assert alice.mu == pytest.approx(later.mu)
    (total,) = [s for s in await store.standings_of_user(GUILD, ALICE) if s.game == TOTAL]
    assert total.games == 2


async def test_a_job_with_nobody_to_rate_writes_nothing(store):
    # Two bots: no person's standing to read (an empty "IN ()", which PostgreSQL refuses).
    job = RatingJob(7, GUILD, "shax", START, ((Player(1, "easy"),), (Player(2, "hard"),)), (0, 1))
    assert job.people == ()
    assert await store.rate_game(job)
    assert await store.rating_changes(7) == []
    assert await store.guild_standings(GUILD) == []


async def test_stats_and_leaderboard(service, store, clock):
    for _ in range(5):
        await finish(service, await start_game(service), BOB)
    clock.advance(3600)
    await finish(service, await start_game(service), ALICE)
    stats = await service.stats(GUILD, ALICE, None)
    assert (stats.total.games, stats.total.wins, stats.total.losses) == (6, 5, 1)
    assert (stats.total.streak, stats.total.best_streak) == (0, 5)
    assert stats.most_played == "shax" and stats.chart_game == "shax"
    assert len(stats.points) == 7 and stats.points[0][1] == 1500  # the start, then 6 games
    assert stats.month_change["shax"] == stats.ratings[0].rating - 1500
    assert [g.outcome for g in stats.recent] == ["loss", "win", "win", "win", "win"]
    board = await service.leaderboard(GUILD, ALICE, "shax")
    assert [line.user_id for line in board.top] == [ALICE, BOB]
    assert board.mine is not None and board.mine.place == 1
    assert (board.ranked, board.left_out) == (2, 0)
    overall = await service.leaderboard(GUILD, BOB, None)
    assert overall.mine is not None and overall.mine.place == 2
    nobody = await service.leaderboard(GUILD, CAROL, "tchela")
    assert nobody.top == () and nobody.mine is None and nobody.my_games == 0


# ---- the upgrade rates the games already finished, in order ---------------------------


async def open_at(url: str, migrations):
    if url.startswith("postgresql"):
        from bot.storage.postgres import PostgresStore

        return await PostgresStore.open(url, migrations)
    return await Store.open(url, migrations)


@pytest.fixture
def fresh_url(backend, tmp_path, request):
    """An empty database with no schema (SQLite's file, or a new PostgreSQL database)."""
    if backend == "sqlite":
        yield str(tmp_path / "old.db")
        return
    server = request.getfixturevalue("pg_server")
    url = in_thread(server.new_database, None)
    yield url
    in_thread(server.drop_database, url)


async def test_the_upgrade_rates_finished_games_in_the_order_they_ended(fresh_url):
    store_url = fresh_url
    old = migrations.POSTGRES if store_url.startswith("postgresql") else migrations.SQLITE
    before = await open_at(store_url, old[: RATED_SINCE - 1])
    ended = []  # (ended at, winner, loser, game id), inserted out of order
    for number, (winner, loser, at) in enumerate(
        [(ALICE, BOB, 30.0), (BOB, ALICE, 10.0), (ALICE, CAROL, 20.0)]
    ):
        game = Shax()
        game.resign(1)
        await before.insert_game(
            guild_id=GUILD,
            channel_id=1,
            kind="shax",
            players=(winner, loser),
            state=game.to_json(),
            status="finished",
            result=game.result_text(),
            created_at=START,
            updated_at=START + at,
        )
        ended.append((at, winner, loser, number + 1))
    friendly = Shax()
    friendly.resign(0)
    await before.insert_game(
        guild_id=GUILD,
        channel_id=1,
        kind="shax",
        players=(ALICE, BOB),
        state=friendly.to_json(),
        status="finished",
        result=friendly.result_text(),
        created_at=START,
        updated_at=START + 5,
        options={"rated": False},
    )
    await before.close()
    upgraded = await open_at(store_url, old)
    try:
        # In order: Bob beat Alice (10), Alice beat Carol (20), Alice beat Bob (30).
        expected: dict[int, tuple[float, float]] = {}
        for _, winner, loser, game_id in sorted(ended):
            teams = [[expected.get(winner, (MU, SIGMA))], [expected.get(loser, (MU, SIGMA))]]
            (won,), (lost,) = library(teams, [0, 1])
            expected[winner], expected[loser] = won, lost
            changes = {c.user_id: c for c in await upgraded.rating_changes(game_id)}
            assert (changes[winner].mu, changes[winner].sigma) == pytest.approx(won)
        assert await upgraded.rating_changes(4) == []  # the friendly game
        standings = {s.user_id: s for s in await upgraded.guild_standings(GUILD)}
        assert same({user: (s.mu, s.sigma) for user, s in standings.items()}, expected)
        assert standings[ALICE].games == 3 and standings[ALICE].streak == 2
    finally:
        await upgraded.close()
    reopened = await open_at(store_url, old)  # nothing rated twice
    try:
        assert len(await reopened.rating_changes(1)) == 2
        assert {s.user_id: s.games for s in await reopened.guild_standings(GUILD)} == {
            ALICE: 3,
            BOB: 2,
            CAROL: 1,
        }
    finally:
        await reopened.close()


async def test_each_games_rating_at_the_start_of_a_window_in_one_query(store):
    # Alice beats Bob at Shax at START, +10 and +20, and at Tchela at +5 (game ids 1-4).
    played = [(1, "shax", 0), (2, "tchela", 5), (3, "shax", 10), (4, "shax", 20)]
    alice, bob = Player(ALICE, None), Player(BOB, None)
    await store.rate_games(
        [RatingJob(i, GUILD, game, START + t, ((alice,), (bob,)), (0, 1)) for i, game, t in played]
    )
    after = {
        game_id: next(c.mu for c in await store.rating_changes(game_id) if c.user_id == ALICE)
        for game_id, _, _ in played
    }
    # Before anything: each game's first rating, the model's starting mu (25).
    assert await store.ratings_since(GUILD, ALICE, START - 1) == {"shax": 25.0, "tchela": 25.0}
    # From START + 1: Shax's first game since is game 3, rated from game 1's result; Tchela's
    # only game (at +5) is still in the window.
    assert await store.ratings_since(GUILD, ALICE, START + 1) == {"shax": after[1], "tchela": 25.0}
    assert await store.ratings_since(GUILD, ALICE, START + 11) == {"shax": after[3]}
    assert await store.ratings_since(GUILD, ALICE, START + 21) == {}
    assert await store.ratings_since(GUILD + 1, ALICE, START - 1) == {}  # another server
    for since in (START - 1, START + 1, START + 5, START + 6, START + 20):
        each = {
            game: await store.rating_since(GUILD, BOB, game, since) for game in ("shax", "tchela")
        }
        expected = {game: mu for game, mu in each.items() if mu is not None}
        assert await store.ratings_since(GUILD, BOB, since) == expected, since


# ---- the overall leaderboard: counted in the database, the same as ranking every row -----


async def put_standings(store, standings: list[Standing]) -> None:
    """Write ratings rows directly (as many games rated would leave them)."""
    from bot.storage.sql import STANDING_COLUMNS, standing_values

    values = [standing_values(s) for s in standings]
    if hasattr(store, "_pool"):
        marks = ", ".join(f"${n}" for n in range(1, 14))
        await store._pool.executemany(
            f"INSERT INTO ratings ({STANDING_COLUMNS}) VALUES ({marks})", values
        )
    else:
        async with store._write() as db:
            await db.executemany(
                f"INSERT INTO ratings ({STANDING_COLUMNS}) VALUES ({', '.join('?' * 13)})", values
            )


def everyone_ranked(rows: list[Standing], caller: int, min_games: int) -> Leaderboard:
    """The overall leaderboard as it was first drawn: every rating of the server read out,
    each player at their best game, ranked in Python."""
    players = {r.user_id for r in rows}
    top, mine, ranked = rank_lines([r for r in rows if r.games >= min_games], caller)
    my_games = sum(r.games for r in rows if r.user_id == caller)
    return Leaderboard(None, top, mine, my_games, ranked, len(players) - ranked, min_games)


@pytest.mark.parametrize("seed", range(4))
async def test_the_overall_leaderboard_is_every_rating_ranked(store, seed):
    rng = random.Random(seed)
    keys = rated_games()
    # 60 players in the server (and some in another, which must not count): random games
    # played per game, and ratings drawn from a few values, so that players tie with each
    # other and a player's two games tie with each other.
    mus, sigmas = [22.0, 25.0, 27.5, 31.0], [1.5, 3.0, 6.0]
    standings = []
    for guild in (GUILD, GUILD + 1):
        for user in range(1, 61):
            played = rng.sample(keys, rng.randrange(0, 4))
            for key in played:
                standings.append(
                    Standing(
                        guild, key, user, rng.choice(mus), rng.choice(sigmas), rng.randrange(1, 12)
                    )
                )
            if played:
                total = sum(s.games for s in standings[-len(played) :])
                standings.append(Standing(guild, TOTAL, user, games=total))
    await put_standings(store, standings)
    rows = await store.guild_standings(GUILD)
    assert len(rows) > 60  # several games per player
    for min_games in (1, 5, 11):
        for caller in range(0, 62):  # every player, and two who never played
            expected = everyone_ranked(rows, caller, min_games)
            found = await load_leaderboard(store, GUILD, caller, None, min_games)
            assert found == expected, (min_games, caller)
    found = await load_leaderboard(store, GUILD, 1, None)
    assert len(found.top) == 10 and found.ranked > 10  # more than a page ranked
