"""The bot's search (package ``search``): legal moves only, wins in one move taken,
reproducible with a seed, cheap copies equal to JSON copies; and ``idzeva best``."""

from __future__ import annotations

import dataclasses
import importlib
import io
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.main import main
from games import Game, new_game
from games.chebache import Chebache
from games.jikaida import Jikaida, P
from games.sachidjun import Sachidjun
from games.shax import Shax
from games.tchela import Tchela
from search import Search, best_move, evaluate, share_of
from search.arena import SETUPS, Tally, arena, wilson
from search.evaluate import EXPANSION_ORDERS, margin
from search.fastcopy import clone
from search.mcts import LEVELS


def random_position(setup: tuple, seed: int, plies: int) -> Game:
    """A position after up to ``plies`` random moves (dice rolled from the same seed),
    with any roll due made: a position where someone has a move to choose."""
    name, variants, seats = setup
    game = new_game(name, variants, seats)
    rng = random.Random(seed)
    for _ in range(plies + 1):
        while (spec := game.dice_needed()) is not None:
            game.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
        if game.is_over or _ >= plies:
            break
        game.push(rng.choice(game.legal_moves()))
    return game


# ---- legality and reproducibility ----------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 120),
    level=st.sampled_from(["easy", "normal", "hard"]),
)
def test_the_bot_plays_a_legal_move_in_any_position(setup, seed, plies, level):
    game = random_position(setup, seed, plies)
    if game.is_over:
        return
    before = game.to_json()
    move = Search(level, seed=seed, iterations=12).choose(game).move
    assert move in game.legal_moves()
    assert game.to_json() == before  # the search leaves the game alone


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: "-".join([s[0], *s[1], str(s[2])]))
def test_same_seed_same_move(setup):
    game = random_position(setup, 7, 30)
    assert not game.is_over
    first = Search("normal", seed=3, iterations=25).choose(game).move
    assert Search("normal", seed=3, iterations=25).choose(game).move == first


def test_a_roll_due_or_a_finished_game_has_no_move_to_choose():
    with pytest.raises(ValueError, match="roll"):
        best_move(Chebache(), iterations=5)
    game = Shax()
    game.resign(0)
    with pytest.raises(ValueError, match="over"):
        best_move(game, iterations=5)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_seat_an_offer_is_made_to_answers_it(seats):
    # Tameg raža, before its first move, offers to send its W7 piece home for one of its
    # raža pieces held by veradi: the veradi raža player must answer, and the bot does.
    game = sachidjun_endgame(seats, role=1)
    to = "@r" if game.seat_of_role[0] != game.seat_of_role[2] else ""  # the raža player
    game.push("offer:home(rW7)+get(1r)" + to)
    assert game.to_move == game.seat_of_role[0]
    assert game.legal_moves() == ["accept", "refuse"]
    assert Search("easy", seed=1, iterations=10).choose(game).move in ("accept", "refuse")


# ---- wins in one move ------------------------------------------------------------------


def shax_mill_position() -> Shax:
    # White a1 a4 d7 (d7-a7 closes a1-a4-a7), Black only g1 g4 e3: the mill's removal
    # leaves Black two pieces, which wins.
    return Shax.from_dict(
        {
            "game": "shax",
            "state": {
                "board": {
                    "a1": "W",
                    "a4": "W",
                    "d7": "W",
                    "b2": "W",
                    "g1": "B",
                    "g4": "B",
                    "e3": "B",
                },
                "in_hand": [0, 0],
                "nominal": 0,
                "stage": "movement",
                "first_mill": None,
                "first_remover": 1,
                "placement_removals_left": 0,
                "positions": {},
            },
        }
    )


def jikaida_mate_position() -> Jikaida:
    # Blue's King in the corner a18, Yellow Jiktars on b13 (guards the b-file) and c16:
    # c16-a16 is Hyrkaida (a17 and b17, b18 are covered, a16 is out of the King's reach).
    return Jikaida.from_position(
        {
            "turn": "yellow",
            "pieces": {"a18": "BK", "l10": "BS", "b13": "YJ", "c16": "YJ", "l1": "YK"},
            "unmoved": [],
        }
    )


def tchela_capture_position() -> Tchela:
    # South sows hole 11 (one counter) into its empty inner hole 12, facing North's inner
    # hole 13 (3 counters) with outer hole 4 (2) behind: North's last counters, so the
    # capture leaves North with no move. South's other move (hole 2) captures nothing.
    south = [0] * 16
    south[10] = 1
    south[1] = 1
    north = [0] * 16
    north[12] = 3
    north[3] = 2
    return Tchela.from_dict(
        {
            "game": "tchela",
            "state": {
                "holes": [south, north],
                "stores": [[0], [0]],
                "captured": [0, 0],
                "turn": 0,
                "opened": [True, True],
                "last": None,
                "positions": {},
            },
        }
    )


def chebache_finish_position() -> Chebache:
    # White's last two pieces stand on 14 and 16, everything else in Finish; with 4 and 2
    # only 14/F (4) and 16/F (2) bring both home: 14/16 first leaves two pieces and a 4.
    return Chebache.from_position({"S": "", 14: "1", 16: "1"}, {}, dice=(4, 2))


def sachidjun_endgame(seats: int = 2, role: int = 0) -> Sachidjun:
    # Tameg has one piece left, a raža on W7; veradi holds the other 15 and has a raža on
    # W2: a 2-3 roll moves it 5, W2xW7, capturing tameg's last piece.
    game = Sachidjun([], seats)
    data = game.to_dict()
    cells = [[0, 0, 0, 0] for _ in range(36)]
    cells[2][0] = 1  # W2: veradi raža
    cells[7][1] = 1  # W7: tameg raža
    data["state"].update(
        cells=cells,
        home=[7, 0, 8, 0],
        prisoners=[[7, 8], [0, 0], [0, 0], [0, 0]],
        role=role,
    )
    return Sachidjun.from_dict(data)


def test_a_shax_mill_that_wins_is_played():
    game = shax_mill_position()
    for level in ("easy", "normal", "hard"):
        move = best_move(game, level, seed=1, iterations=5)
        assert move == "d7-a7"
    game.push("d7-a7")
    assert game.legal_moves() == ["xe3", "xg1", "xg4"]
    game.push(best_move(game, "easy", seed=1, iterations=5))
    assert game.outcome is not None and game.outcome.winners == (0,)


def test_a_jikaida_hyrkaida_in_one_is_played():
    game = jikaida_mate_position()
    move = best_move(game, "easy", seed=1, iterations=5)
    game.push(move)
    assert game.outcome is not None
    assert game.outcome.winners == (0,) and game.outcome.reason == "Hyrkaida"


def test_a_tchela_capture_that_ends_the_game_is_played():
    game = tchela_capture_position()
    assert len(game.legal_moves()) >= 2
    game.push(best_move(game, "easy", seed=2, iterations=5))
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.on_board(1) == 0


def test_a_chebache_bear_off_that_wins_with_the_dice():
    game = chebache_finish_position()
    while not game.is_over:
        assert game.to_move == 0  # the whole win is this one turn
        game.push(best_move(game, "easy", seed=4, iterations=5))
    assert game.outcome is not None and game.outcome.winners == (0,)


@pytest.mark.parametrize("seats", [2, 4])
def test_a_sachidjun_capture_of_the_last_piece_is_played(seats):
    game = sachidjun_endgame(seats)
    game.roll((2, 3))
    assert "W2xW7" in game.legal_moves() and len(game.legal_moves()) > 1
    game.push(best_move(game, "easy", seed=5, iterations=5))
    assert game.outcome is not None
    assert set(game.outcome.winners) == set(game.seats_of_side(0))


def test_share_of_reads_the_position_for_the_seats_team():
    # White (seat 0) is a piece up (4 to 3), threatens a mill on its move (a1 a4, and d7
    # can step to a7; Black's g1 g4 has nothing that reaches g7: SHAX_THREAT_NOW, 0.7), and
    # has 8 steps to Black's 5: margin (1 + 0.7 + 0.05 * 3) * 0.8 = 1.48, share
    # 0.05 + 0.9 / (1 + e^-1.48) = 0.783.
    saved = shax_mill_position().to_json()
    assert share_of(saved, 0, "normal") == pytest.approx(0.783, abs=0.001)
    assert share_of(saved, 1, "normal") == pytest.approx(0.217, abs=0.001)
    # easy's plain evaluation: material alone, 0.8, share 0.05 + 0.9 / (1 + e^-0.8) = 0.671.
    assert share_of(saved, 0, "easy") == pytest.approx(0.671, abs=0.001)


@settings(max_examples=20, deadline=None)
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 150),
    level=st.sampled_from(["easy", "normal", "hard"]),
)
def test_the_two_sides_shares_of_any_position_add_up_to_one(setup, seed, plies, level):
    # Any position a draw offer to the bot may meet: in play, mid-turn, or over.
    game = random_position(setup, seed, plies)
    saved = game.to_json()
    other = next(s for s in range(game.seats) if game.team_of(s) != game.team_of(0))
    ours, theirs = share_of(saved, 0, level), share_of(saved, other, level)
    assert 0.0 <= ours <= 1.0 and ours + theirs == pytest.approx(1.0)
    assert game.to_json() == saved


# ---- pieces of the search ------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000), plies=st.integers(0, 80))
def test_cheap_copies_play_on_like_json_copies_and_leave_the_original(setup, seed, plies):
    """The search's own path (``clone``, then ``push_legal`` with no second check) leaves
    every position exactly as a JSON copy played with the checked ``push`` does."""
    game = random_position(setup, seed, plies)
    before = game.to_json()
    twin, reference = clone(game), game.copy()
    rng = random.Random(seed)
    for _ in range(30):
        assert twin.to_dict() == reference.to_dict()
        while (spec := twin.dice_needed()) is not None:
            dice = [rng.randint(1, spec.sides) for _ in range(spec.count)]
            twin.roll(dice)
            reference.roll(dice)
        if twin.is_over:
            break
        move = rng.choice(twin.legal_moves())
        twin.push_legal(move)
        reference.push(move)
    assert twin.to_dict() == reference.to_dict()
    assert game.to_json() == before


@settings(max_examples=10, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10_000), plies=st.integers(0, 60))
def test_stopping_once_the_answer_is_settled_changes_no_answer(setup, seed, plies):
    from search import mcts

    game = random_position(setup, seed, plies)
    if game.is_over:
        return
    settled = Search("normal", seed=seed, iterations=120).choose(game)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mcts, "SETTLED_EVERY", 10**9)  # never checks: runs every iteration
        full = Search("normal", seed=seed, iterations=120).choose(game)
    assert settled.move == full.move
    assert settled.iterations <= full.iterations


def test_evaluation_prefers_the_side_with_more_material():
    assert evaluate(shax_mill_position()) > 0.5  # White 4 pieces to 3
    tchela = tchela_capture_position()
    assert evaluate(tchela, strong=False) < 0.5  # South 2 counters, North 5 (and see below)
    assert evaluate(chebache_finish_position()) > 0.9  # White nearly home, Black in Start
    assert evaluate(sachidjun_endgame()) > 0.9  # veradi holds 15 tameg pieces
    assert evaluate(jikaida_mate_position()) > 0.5  # two Jiktars against a Swod


def test_tchela_evaluation_counts_the_capture_the_mover_can_make():
    # South has 2 counters to North's 5, but to move it captures all five (hole 11 into
    # the empty inner hole 12: North's 13 and the 4 behind). North to move captures
    # nothing (13 ends in its empty 16, facing South's empty 9; 4 ends in the outer row).
    south_to_move = tchela_capture_position()
    north_to_move = Tchela.from_dict(south_to_move.to_dict())
    north_to_move.turn = 1
    assert evaluate(south_to_move) > 0.5  # -1.5 counters + 0.4 x 5 = +0.5
    assert evaluate(north_to_move) < 0.5  # -1.5 - 0.15 x 5
    # easy's plain evaluation sees counters only.
    assert evaluate(south_to_move, strong=False) < 0.5
    assert evaluate(south_to_move, strong=False) == evaluate(north_to_move, strong=False)


def pastang(pieces: dict[str, str]) -> Jikaida:
    return Jikaida.from_position(
        {"variant": "pastang", "turn": "yellow", "pieces": pieces, "unmoved": []}
    )


def test_hard_evaluation_counts_the_capture_the_mover_can_make_and_its_answer():
    # Poron Jikaida, all inside Mortil (no front crossed). Yellow's Deldar c3 (2) can take
    # Blue's Jiktar c5 (5) up the empty c-file; Blue's Jiktar can take the Deldar. Blue's
    # Swod on d6 (moving down) takes back on c5; on f6 it cannot (it captures on e5, g5).
    def position(swod: str) -> Jikaida:
        pieces = {"c3": "YD", "c5": "BJ", swod: "BS", "l1": "YK", "l18": "BK"}
        return Jikaida.from_position({"turn": "yellow", "pieces": pieces, "unmoved": []})

    loose, held = position("f6"), position("d6")
    sq = loose.geo.parse
    assert loose.captures(0) == [(sq("c3"), sq("c5"), False)]
    assert held.captures(0) == [(sq("c3"), sq("c5"), True)]
    assert loose.captures(1) == held.captures(1) == [(sq("c5"), sq("c3"), False)]
    # Material -4 for Yellow in both, Kings alone: the plain and finer terms see only that.
    for strong in (0, 1):
        assert evaluate(loose, strong) == evaluate(held, strong) < 0.5
    # hard: + 0.7 x 5 (loose) or 0.7 x (5 - 2) (held), - 0.2 x 2 for c5xc3 either way.
    assert evaluate(loose, 2) > evaluate(held, 2) > evaluate(held, 1)


def test_hard_evaluation_never_lets_the_king_take_a_defended_piece():
    # Yellow's King h1 next to Blue's Deldar g2 (in Kaida from it). Guarded by Blue's Swod
    # f3 (it captures diagonally down onto e2 and g2), h1xg2 would put the King in Kaida:
    # hard sees no gain. With the Swod on a12 instead, h1xg2 wins a Deldar (2) for nothing.
    def position(swod: str) -> Jikaida:
        pieces = {"h1": "YK", "g2": "BD", swod: "BS", "a18": "BK"}
        return Jikaida.from_position({"turn": "yellow", "pieces": pieces, "unmoved": []})

    held, loose = position("f3"), position("a12")
    assert "h1xg2" not in held.legal_moves() and "h1xg2" in loose.legal_moves()
    assert evaluate(held, 2) == evaluate(held, 1)
    assert evaluate(loose, 2) > evaluate(loose, 1)


def test_normal_searches_the_twelve_poron_jikaida_moves_that_land_best():
    # 213 moves and a search of 600 iterations: each move is judged where it lands (one
    # iteration each), and the other 387 go to the best 12 (about 32 each, so the search
    # sees the replies), none of which lands worse than a move left out.
    game = new_game("jikaida")
    for move in "d3-g6 l16-l15 g1-l4 l17-l16".split():
        game.push(move)
    legal = game.legal_moves()
    search = Search("normal", 5, clock=False)
    result = search.choose(game)
    assert result.iterations == 600 and len(legal) > 12
    assert search.root is not None
    kept = set(search.root.children)
    assert len(kept) == 12 and result.move in kept

    def lands(move: str) -> float:
        after = game.copy()
        after.push(move)
        return evaluate(after, 2)  # Yellow is seat 0

    assert min(lands(m) for m in kept) >= max(lands(m) for m in legal if m not in kept)
    assert sum(child.visits for child in search.root.children.values()) >= 600 - len(legal)


def test_a_timed_search_out_of_time_judges_only_the_moves_it_keeps():
    # With no time at all normal still judges 12 of the 213 moves where they land (a
    # move it can stand behind) but not the rest: on a loaded machine judging all of them
    # alone could outlast its 0.9 s.
    game = new_game("jikaida")
    for move in "d3-g6 l16-l15 g1-l4 l17-l16".split():
        game.push(move)
    search = Search("normal", 5, seconds=0.0)
    result = search.choose(game)
    assert search.root is not None
    assert result.iterations == 12 and len(search.root.children) == 12
    assert result.move in search.root.children


def test_progressive_widening_bounds_each_nodes_children_and_searches_deeper():
    # With widening w a node of n visits has at most ceil(w * sqrt(n + 1)) children, its
    # untried moves taken in their order (captures first). Without it each of the 24 root
    # moves must first try all ~200 answers once, and 800 iterations never get past
    # the second ply.
    game = new_game("jikaida")
    for move in "d3-g6 l16-l15 g1-l4 l17-l16".split():
        game.push(move)

    def principal_depth(search: Search) -> int:
        node, depth = search.root, 0
        while node is not None and node.children:
            node = max(node.children.values(), key=lambda child: child.visits)
            depth += 1
        return depth

    plain = dataclasses.replace(LEVELS["hard"], widening={})
    widened = dataclasses.replace(LEVELS["hard"], widening={"jikaida": (1.0, 0.2)})
    flat = Search(plain, 3, iterations=800, clock=False)
    flat.choose(game)
    deep = Search(widened, 3, iterations=800, clock=False)
    deep.choose(game)
    assert principal_depth(flat) == 2 and principal_depth(deep) >= 4

    stack = [child for child in deep.root.children.values()]
    while stack:
        node = stack.pop()
        assert len(node.children) <= math.ceil(math.sqrt(node.visits + 1))
        stack.extend(node.children.values())


def test_easy_breaks_ties_at_random_not_by_the_moves_name():
    # From Poron Jikaida's start nothing can be captured: easy's moves all tie (material
    # only, one visit each). By name it always played an l-file move (the last names).
    game = new_game("jikaida")
    moves = [Search("easy", seed, clock=False).choose(game).move for seed in range(8)]
    assert not all(move.startswith("l") for move in moves)
    assert len(set(moves)) > 4


def test_jikaida_search_tries_captures_first_the_most_valuable_victim_first():
    # Yellow's Chuktar c3 (queen slide, all inside Mortil: no front) can take Blue's Swod
    # c5 (1) up the file, Jiktar e5 (5) on the diagonal and Pallan a3 (12) along the rank.
    # ``untried`` is popped from its end: the Pallan first, then the Jiktar, then the Swod.
    game = Jikaida.from_position(
        {
            "turn": "yellow",
            "pieces": {"c3": "YC", "c5": "BS", "e5": "BJ", "a3": "BP", "l1": "YK", "l18": "BK"},
            "unmoved": [],
        }
    )
    moves = game.legal_moves()
    random.Random(3).shuffle(moves)
    quiet = [m for m in moves if "x" not in m]
    EXPANSION_ORDERS["jikaida"](game, moves)
    assert moves[-3:] == ["c3xc5", "c3xe5", "c3xa3"]
    assert moves[:-3] == quiet  # the other moves keep their shuffled order
    assert LEVELS["normal"].ordered and LEVELS["hard"].ordered and not LEVELS["easy"].ordered


def test_normal_does_not_leave_its_pallan_to_a_swod_in_a_wide_opening():
    # After these 14 moves Yellow has 213 moves, so a search of 600 iterations visits each
    # about 3 times. f11-b15 puts the Pallan (12) where Blue's Swods a16 and c16 take it
    # (Swods capture diagonally forward, down for Blue). Tried in random order, the reply
    # that takes it was rarely among the few looked at: at seed 3 normal played f11-b15.
    game = new_game("jikaida")
    opening = (
        "d3-g6 l16-l15 g1-l4 l17-l16 l4-l11 l18-l17 c2-d3 l17-l18 l11-f11 l18-l17 f3-f5 "
        "l17-l18 b3-e6 l18-l17"
    )
    for move in opening.split():
        game.push(move)
    assert len(game.legal_moves()) == 213
    after = game.copy()
    after.push("f11-b15")
    sq = after.geo.parse
    assert {(s, t) for s, t, _answered in after.captures(1)} >= {
        (sq("a16"), sq("b15")),
        (sq("c16"), sq("b15")),
    }
    for seed in range(8):
        move = Search("normal", seed, clock=False).choose(game).move
        after = game.copy()
        after.push(move)
        taken = max((after.board[t] & 15 for _s, t, _a in after.captures(1)), default=0)
        assert taken != P, (seed, move)


def test_normal_evaluation_of_pastang_counts_the_ranks_a_swod_has_gained():
    # A Yellow Swod on e5 (4 ranks up, one from promotion) against one on e2 (1 rank up),
    # Blue a lone Deldar on its back rank: the same material, normal prefers e5.
    ahead = pastang({"e5": "YS", "a6": "BD"})
    behind = pastang({"e2": "YS", "a6": "BD"})
    assert evaluate(ahead, 0) == evaluate(behind, 0)
    assert evaluate(ahead, 1) > evaluate(behind, 1)
    # hard adds no capture terms in Pastang: Yellow's c3xc5 (a loose Deldar) counts as
    # for normal.
    loose = pastang({"c3": "YD", "c5": "BD", "f6": "BS"})
    assert loose.captures(0) == [(loose.geo.parse("c3"), loose.geo.parse("c5"), False)]
    assert evaluate(loose, 2) == evaluate(loose, 1)


def jikaida_at(pieces: dict[str, str], turn: str = "yellow") -> Jikaida:
    return Jikaida.from_position({"turn": turn, "pieces": pieces, "unmoved": []})


def test_normal_evaluation_of_poron_jikaida_brings_pieces_forward_and_hunts_the_last_ones():
    # In Swods (``margin`` returns them times 0.12). Kings on l1 and a18 with no piece
    # around them; no capture in reach but the King's; no Kaida unless said.
    def swods(game: Jikaida) -> float:
        return margin(game, 2) / 0.12

    # Jiktar a10 (5) against Blue's Swod l16 (1): material 4; the Swod has gained 2 ranks
    # (-0.2); the Jiktar stands 8 King steps from a18: (17 - 8) x 0.05. Blue's one piece
    # is not fewer than Yellow's one, so nobody hunts.
    assert swods(jikaida_at({"l1": "YK", "a10": "YJ", "a18": "BK", "l16": "BS"})) == (
        pytest.approx(4 - 0.2 + 9 * 0.05)
    )
    # On a5 it is 13 steps away: (17 - 13) x 0.05.
    assert swods(jikaida_at({"l1": "YK", "a5": "YJ", "a18": "BK", "l16": "BS"})) == (
        pytest.approx(4 - 0.2 + 4 * 0.05)
    )
    # A Deldar c3 more (2; 15 steps from a18): Blue's last piece is hunted, the nearest
    # hunter the Jiktar, 11 steps from l16: (17 - 11), and 17 for each of the two of the
    # three hunted pieces already taken, x 0.3.
    hunt = jikaida_at({"l1": "YK", "a10": "YJ", "c3": "YD", "a18": "BK", "l16": "BS"})
    assert swods(hunt) == pytest.approx(6 - 0.2 + (9 + 2) * 0.05 + (6 + 2 * 17) * 0.3)
    # The Jiktar on a12 checks a18 up the file (a12 touches the front it crosses); Blue, to
    # move and hunted, gets no Kaida term (-1.5): (17 - 6) + (17 - 15) King steps, the
    # Jiktar 11 from l16.
    check = jikaida_at({"l1": "YK", "a12": "YJ", "c3": "YD", "a18": "BK", "l16": "BS"}, "blue")
    assert check.in_kaida(1)
    assert swods(check) == pytest.approx(6 - 0.2 + (11 + 2) * 0.05 + (6 + 2 * 17) * 0.3)
    # easy's plain evaluation: material only.
    assert margin(check, 0) / 0.12 == pytest.approx(6)


def test_normal_takes_a_hunted_piece_it_stands_next_to():
    # Blue has two Swods (l16, a12) against Yellow's Jiktar l15, Deldar c3 and Hikdar f4:
    # hunted. The hunt in King steps: l16 is 1 from the Jiktar (17 - 1); a12 is 8 from the
    # Hikdar (17 - 8; the Jiktar 11, the Deldar 9); the third hunted piece, already taken,
    # counts 17: 16 + 9 + 17 = 42. Once l15xl16 is played a12 is still 8 from the Hikdar
    # and two are taken: 9 + 2 x 17 = 43, so taking the Swod is worth more than standing
    # next to it. (Counted as gone, l16's 16 steps outweighed the Swod itself: normal
    # played f4-d6 at every seed, and once followed a last Swod down the board until it
    # promoted and mated its King.)
    hunt = importlib.import_module("search.evaluate")._hunt
    pieces = {"l1": "YK", "c3": "YD", "f4": "YH", "a18": "BK", "a12": "BS"}
    before = jikaida_at(pieces | {"l15": "YJ", "l16": "BS"})
    after = jikaida_at(pieces | {"l16": "YJ"}, "blue")
    assert (hunt(before), hunt(after)) == (42, 43)
    for seed in range(4):
        assert Search("normal", seed, clock=False).choose(before).move == "l15xl16", seed


def test_wilson_interval_matches_hand_computed_values():
    # 8 of 10: centre (0.8 + 0.19208) / 1.38416 = 0.7167, half 0.2258.
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3) and high == pytest.approx(0.9433, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_arena_counts_every_game_from_a_s_side():
    tally = arena(lambda: Tchela(["4x6"]), "easy", "random", 2, seed=1, iterations=3)
    assert tally.games == 2 and tally.wins + tally.draws + tally.losses == 2
    assert 0.0 <= tally.share() <= 1.0 and tally.times["easy"]
    assert sum(tally.endings.values()) == 2 and "ply limit" not in tally.endings
    # Each timed turn has its CPU time too, no more than its wall time (one thread).
    pairs = zip(tally.cpu["easy"], tally.times["easy"], strict=True)
    assert all(0 <= cpu <= wall + 0.01 for cpu, wall in pairs)
    folded = Tally()
    folded.add(tally)
    assert folded.cpu == tally.cpu and folded.cpu.keys() == tally.times.keys()


def test_arena_names_the_games_stopped_at_its_ply_limit(monkeypatch):
    from search import arena as arena_module

    monkeypatch.setattr(arena_module, "MAX_PLIES", 6)  # no Poron Jikaida game ends in 6
    tally = arena(lambda: Jikaida(), "random", "random", 2, seed=1)
    assert tally.draws == 2 and tally.endings == {"ply limit": 2}
    assert tally.last == "drew (ply limit, ply 6)"


# ---- idzeva best -----------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["shax", "d2", "d3"],
        ["tchela"],
        ["chebache", "--dice", "3,5"],
        ["sachidjun", "--dice", "2,6"],
        ["jikaida", "--variant", "pastang", "a2-a3"],
    ],
)
def test_best_prints_one_of_the_moves_legal_lists(argv):
    code, legal = run("legal", *argv)
    assert code == 0
    code, best = run("best", *argv, "--seed", "1", "--iterations", "20")
    assert code == 0
    assert best.endswith("\n") and best.count("\n") == 1
    assert best.strip() in legal.split()


def test_best_with_a_seed_and_iterations_is_reproducible():
    argv = ["best", "shax", "a1", "d2", "--seed", "9", "--iterations", "30", "--level", "hard"]
    assert run(*argv) == run(*argv)


def test_best_asks_for_the_dice_when_a_roll_is_due(capsys):
    code, out = run("best", "chebache")
    assert code == 2 and out == ""
    assert "roll is due" in capsys.readouterr().err


# ---- idzeva play --bot and arena -------------------------------------------------------


def feed(monkeypatch, lines: list[str]) -> None:
    pending = iter(lines)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(pending)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)


def test_play_against_the_bot_answers_each_move(monkeypatch, tmp_path):
    # Tchela 4x6 against the easy bot: South (you) opens, the bot answers as North at once.
    feed(monkeypatch, ["open1", "quit"])
    code, text = run(
        "play",
        "tchela",
        "--variant",
        "4x6",
        "--bot",
        "easy",
        "--seed",
        "1",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert "you play South against the bot (easy)" in text
    assert "Played open1" in text
    assert "Bot (easy) as North plays" in text


def test_play_with_the_bot_moving_first_and_undo_back_to_your_move(monkeypatch, tmp_path):
    feed(monkeypatch, ["d2", "undo", "quit"])
    code, text = run(
        "play", "shax", "--bot", "easy", "--seat", "1", "--seed", "2", "--out", str(tmp_path)
    )
    assert code == 0
    first = text.index("Bot (easy) as White plays")
    assert first < text.index("Played d2")
    assert text.count("Bot (easy) as White plays") == 2
    # undo takes back the bot's answer and your d2: your turn again, one White piece down.
    after = text[text.index("Took back") :]
    assert after.count("Took back the last move.") == 2
    assert "Black to place (12 in hand)" in after and "Bot (easy)" not in after


def test_bot_against_bot_plays_a_whole_game(monkeypatch, tmp_path):
    feed(monkeypatch, [])
    code, text = run(
        "play",
        "tchela",
        "--variant",
        "4x6",
        "--bot-vs-bot",
        "--bot",
        "easy",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert "Bot (easy) as South plays" in text and "Bot (easy) as North plays" in text
    assert "wins" in text or "Draw" in text


def test_play_seat_out_of_range_is_one_line_exit_2(tmp_path, capsys):
    code, _ = run("play", "shax", "--bot", "--seat", "2", "--out", str(tmp_path))
    assert code == 2 and "--seat is 0..1" in capsys.readouterr().err


def test_arena_command_prints_the_tally(capsys):
    code, text = run(
        "arena",
        "tchela",
        "--variant",
        "4x6",
        "--a",
        "easy",
        "--b",
        "random",
        "--games",
        "2",
        "--seed",
        "3",
    )
    assert code == 0
    assert "A=easy against B=random, 2 games" in text
    assert "share of the points" in text and "95% interval" in text
    assert "time per turn, easy: mean" in text


@pytest.mark.parametrize(
    "setup", [("chebache", (), 2), ("sachidjun", (), 2), ("sachidjun", (), 4), ("shax", (), 2)]
)
def test_a_whole_turn_is_legal_moves_of_one_seat_up_to_the_next_roll(setup):
    for seed in range(3):
        game = random_position(setup, seed, 25 + seed)
        if game.is_over:
            continue
        seat, before = game.to_move, game.to_json()
        moves = Search("normal", seed=seed, iterations=40).choose_turn(game)
        assert game.to_json() == before
        assert moves == Search("normal", seed=seed, iterations=40).choose_turn(game)
        for move in moves:
            assert game.to_move == seat and game.dice_needed() is None
            game.push(move)
        assert game.is_over or game.to_move != seat or game.dice_needed() is not None


def test_a_whole_turn_that_wins_is_played_to_the_end():
    moves = Search("easy", seed=1, iterations=5).choose_turn(chebache_finish_position())
    assert sorted(moves) == ["14/F", "16/F"]
    game = shax_mill_position()
    moves = Search("easy", seed=1, iterations=5).choose_turn(game)
    assert moves[0] == "d7-a7" and moves[1] in ("xe3", "xg1", "xg4") and len(moves) == 2
    for move in moves:
        game.push(move)
    assert game.outcome is not None and game.outcome.winners == (0,)


def test_bot_turn_runs_from_a_saved_game_in_a_worker_process():
    from concurrent.futures import ProcessPoolExecutor

    from search import bot_turn

    game = chebache_finish_position()
    with ProcessPoolExecutor(1) as pool:
        moves = pool.submit(bot_turn, game.to_json(), "easy", 1, 5).result(timeout=60)
    assert sorted(moves) == ["14/F", "16/F"]


def test_make_arena_marks_each_target_and_writes_the_readme_row():
    from bench.arena import record, table, verdict

    nine_of_ten = Tally(wins=9, losses=1, points=9.0)
    assert verdict(nine_of_ten, "random") == "MISS"  # 90% < 95%
    assert verdict(Tally(wins=20, points=20.0), "random") == "ok"
    # 70 of 100: Wilson interval 0.604-0.781, its lower end above 55%.
    seventy = Tally(
        wins=70,
        losses=30,
        points=70.0,
        times={"normal": [0.5, 0.9, 1.0]},
        cpu={"normal": [0.4, 0.5, 0.5]},
    )
    assert verdict(seventy, "easy") == "ok"
    # 6 of 10: 0.313-0.832, not yet shown.
    assert verdict(Tally(wins=6, losses=4, points=6.0), "easy") == "MISS"
    line = record("sachidjun", (), 4, "normal", "easy", seventy, 12.0)
    assert line["game"] == "sachidjun (4 seats)" and (line["low"], line["high"]) == (0.604, 0.781)
    assert line["times"] == {
        "normal": {"moves": 3, "p50": 0.9, "p95": 1.0, "cpu_p50": 0.5, "cpu_p95": 0.5},
        "easy": {"moves": 0, "p50": 0.0, "p95": 0.0, "cpu_p50": 0.0, "cpu_p95": 0.0},
    }
    # The wall time a turn took, and beside it the CPU time (a loaded machine's turns
    # wait for a core: here half of each).
    assert table([line]).splitlines()[2] == (
        "| sachidjun (4 seats) | normal - easy | 100 | 70-0-30 | 0.700 | 0.604-0.781 | ok "
        "| normal 0.90 / 1.00 (CPU 0.50 / 0.50) |"
    )
    del line["times"]["normal"]["cpu_p95"]  # older runs: wall time only
    assert table([line]).splitlines()[2].endswith("| normal 0.90 / 1.00 |")


# ---- search sizes per level ------------------------------------------------------------


def test_a_level_off_the_clock_searches_exactly_its_size_for_the_game():
    from search.mcts import LEVELS, budget_key

    pastang = Jikaida(["pastang"])
    assert budget_key(pastang) == "pastang" and budget_key(Jikaida()) == "jikaida"
    assert LEVELS["hard"].nodes_for("pastang") != LEVELS["hard"].nodes_for("jikaida")
    game = random_position(("shax", (), 2), seed=4, plies=10)  # placing: 14 moves
    with pytest.MonkeyPatch.context() as patch:
        from search import mcts

        patch.setattr(mcts, "SETTLED_EVERY", 10**9)  # no early stop: the size is the size
        patch.setitem(
            LEVELS, "easy", mcts.Level("easy", 0.0, {"default": 77}, {"default": 2}, False)
        )
        result = Search("easy", seed=1, clock=False).choose(game)
    assert result.reason == "search" and result.iterations == 77


def test_off_the_clock_the_same_seed_gives_the_same_move_whatever_the_load():
    game = random_position(("tchela", ("4x6",), 2), seed=8, plies=20)
    first = Search("easy", seed=5, clock=False).choose(game)
    again = Search("easy", seed=5, clock=False).choose(game)
    assert (first.move, first.iterations) == (again.move, again.iterations)


def test_arena_players_search_the_size_they_are_given():
    from search.arena import chooser

    # Placing after the first mill (no first-mill race left to force a move): 14 moves.
    game = random_position(("shax", (), 2), seed=2, plies=10)
    picks = {tuple(chooser("hard", seed, iterations=1)(game)) for seed in range(12)}
    # One iteration expands one random child: over 12 seeds several different moves.
    assert len(picks) > 1


def test_normal_and_hard_play_shax_placement_out_in_their_playouts(monkeypatch):
    # Until the board is full the Shax evaluation knows only the first mill, so normal's and
    # hard's playouts place every piece left before counting their plies: from the empty board a
    # playout of 2 counted plies ends at ply 26 (24 placements, the removal, one more),
    # where one without it ends at ply 2, mid-placement.
    import search.mcts as mcts

    ends: list[int] = []

    def recording(game: Game, strong: int = True, fitted: bool = True) -> float:
        ends.append(game.ply)
        return 0.5

    monkeypatch.setattr(mcts, "evaluate", recording)
    for through, expected in ((frozenset({"shax"}), 26), (frozenset(), 2)):
        level = dataclasses.replace(LEVELS["hard"], playout={"default": 2}, through_opening=through)
        ends.clear()
        Search(level, 1, clock=False)._playout(new_game("shax"))
        assert ends == [expected]
    assert LEVELS["hard"].through_opening == LEVELS["normal"].through_opening == {"shax"}
    assert not LEVELS["easy"].through_opening


@pytest.mark.parametrize(
    ("placed", "expected"),
    [
        (["a1", "g1", "a4", "g4"], "a7"),  # White's own a1-a4 line first, not Black's g7
        (["a1", "g1", "d2", "g4"], "g7"),  # nothing of its own: block Black's g1-g4
        (["a1", "g1", "a4", "g4", "a7"], None),  # the first mill is made: placement is free
        (["a1", "d2"], None),  # no line of two yet
    ],
)
def test_shax_playout_tactics_take_or_block_the_first_mill(placed, expected):
    from search.evaluate import PLAYOUT_TACTICS

    game = new_game("shax")
    for point in placed:
        game.push(point)
    for seed in range(5):
        assert PLAYOUT_TACTICS["shax"](game, game.legal_moves(), random.Random(seed)) == expected


def test_shax_playout_tactics_step_into_a_mill():
    from search.evaluate import PLAYOUT_TACTICS

    game = shax_mill_position()  # only d7-a7 closes a line (a4-a7 leaves a1-a4-a7)
    tactic = PLAYOUT_TACTICS["shax"](game, game.legal_moves(), random.Random(1))
    assert tactic == "d7-a7"
    assert LEVELS["hard"].tactical == LEVELS["normal"].tactical == {"shax"}
    assert not LEVELS["easy"].tactical
