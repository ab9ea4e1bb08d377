"""search/analysis.py: the post-game analysis of a finished game (issue 34)."""

from __future__ import annotations

import json
import random

from games import new_game
from games.base import LogEntry
from games.record import GameRecord, load_record, record_from_game
from search.analysis import Analysis, analyse, plan_turns, position_after

# Shax, movement, Black to move (hand-built). White a1 a4 d7 threatens d7-a7, the mill
# a1-a4-a7; no Black piece can reach a7 (its neighbours a4 and d7 are White's), so Black
# cannot block it. But Black moves first and has its own mill: d5-c5 completes c3-c4-c5,
# its removal leaves White two pieces, and "a player reduced to two pieces loses, at once,
# right after the removal" (docs/rules/shax.md). Black plays c3-d3 instead; White answers
# d7-a7 and removes c4: Black, down to two, loses. So by the rules alone: Black's turn
# threw away a certain win (its share 1 after d5-c5, 0 after c3-d3: a loss of the whole
# point), White's turn lost nothing (it won).
BLUNDER_START = {
    "board": {"a1": "W", "a4": "W", "d7": "W", "c3": "B", "c4": "B", "d5": "B"},
    "in_hand": [0, 0],
    "nominal": 1,
    "stage": "movement",
    "first_mill": 0,
    "first_remover": 0,
    "placement_removals_left": 0,
    "positions": {},
}


def blunder_record() -> GameRecord:
    data = GameRecord(game="shax", start=BLUNDER_START).to_dict()
    data["moves"] = [
        {"ply": 1, "seat": 1, "move": "c3-d3"},
        {"ply": 2, "seat": 0, "move": "d7-a7"},
        {"ply": 3, "seat": 0, "move": "xc4"},
    ]
    record, game = load_record(_with_result_of_moves(data))
    assert game.is_over and game.outcome.winners == (0,)
    return record


def _with_result_of_moves(data: dict) -> dict:
    """The record with the result its moves give (the reason in the engine's words)."""
    record = GameRecord.from_dict({**data, "result": None})
    game = record.new_game()
    for move in record.moves:
        game.push(move.move)
    return {**data, "result": game.outcome.to_dict()}


def test_the_known_blunder_is_blacks_swing_with_the_winning_mill_as_the_better_move():
    analysis = analyse(blunder_record(), seed=3, size=400)
    black, white = 1, 0
    assert [(turn.seat, turn.played) for turn in analysis.turns] == [
        (black, ("c3-d3",)),
        (white, ("d7-a7", "xc4")),
    ]
    blunder, answer = analysis.turns
    assert blunder.best[0] == "d5-c5" and len(blunder.best) == 2
    assert blunder.best[1].startswith("x")  # any White piece: each removal wins
    assert (blunder.best_share, blunder.share, blunder.loss) == (1.0, 0.0, 1.0)
    assert answer.loss == 0.0 and answer.share == 1.0
    assert analysis.average_loss(black) == 1.0 and analysis.average_loss(white) == 0.0
    assert analysis.swings(black) == [blunder]
    assert analysis.swings(white) == []  # it played the win
    # White's share: lost before Black's turn (Black wins at once), won after it.
    assert analysis.points == ((0, 0.0), (1, 1.0), (3, 1.0))


def test_the_board_after_a_swing_is_the_position_the_turn_left():
    record = blunder_record()
    analysis = analyse(record, seed=3, size=400)
    after = position_after(record, analysis.swings(1)[0])
    assert after.board["d3"] == 1 and "c3" not in after.board  # type: ignore[attr-defined]
    assert after.to_move == 0 and not after.is_over


def test_turns_group_a_players_moves_with_the_rolls_before_them():
    entries = [
        LogEntry(0, dice=(3, 5)),
        LogEntry(0, "a"),
        LogEntry(0, "b"),
        LogEntry(1, dice=(1, 1)),  # rolled, no move: the turn passes
        LogEntry(0, dice=(2, 6)),
        LogEntry(0, "c"),
        LogEntry(1, "d"),  # another seat with no roll (an answer): its own turn
        LogEntry(1, dice=(4, 4)),  # rolled after the last move: no turn
    ]
    turns = plan_turns(entries)
    assert [(t.start, t.decide, t.end, t.seat, t.ply, t.moves, t.dice) for t in turns] == [
        (0, 1, 3, 0, 0, ("a", "b"), ((3, 5),)),
        (3, 5, 6, 0, 2, ("c",), ((1, 1), (2, 6))),
        (6, 6, 7, 1, 3, ("d",), ()),
    ]


def test_the_same_seed_gives_the_same_analysis_and_it_survives_json():
    game = new_game("chebache")
    rng = random.Random(5)
    while len(game.moves()) < 14 and not game.is_over:
        spec = game.dice_needed()
        if spec is not None:
            game.roll([rng.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        game.push(rng.choice(game.legal_moves()))
    record = record_from_game(game)
    first = analyse(record, seed=9, size=60)
    again = analyse(record, seed=9, size=60)
    assert first == again
    assert Analysis.from_json(first.to_json()) == first
    assert json.loads(first.to_json())["game"] == "chebache"
    assert len(first.points) == len(first.turns) + 1
    assert all(0.0 <= turn.loss <= 1.0 for turn in first.turns)
    assert sum(len(turn.played) for turn in first.turns) == 14
