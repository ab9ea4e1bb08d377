"""Game records (games/record.py): every game and variant round-trips through the JSON
record, and a record that does not replay is refused with the ply and the reason."""

from __future__ import annotations

import json
import random

import pytest

from games import GAMES, Game, new_game
from games.base import Outcome
from games.jikaida import Jikaida
from games.record import (
    RECORD_VERSION,
    GameRecord,
    Player,
    RecordError,
    load_record,
    record_from_game,
    text_record,
)


def random_game(
    key: str, seed: int, plies: int, variants: tuple[str, ...] = (), seats: int | None = None
) -> Game:
    """A seeded random game of up to ``plies`` moves (fewer if it ends)."""
    rng = random.Random(seed)
    game = new_game(key, variants, seats)
    while not game.is_over and game.ply < plies:
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
        else:
            game.push(rng.choice(game.legal_moves()))
    return game


# Every game with each of its variants alone, and every seat count.
CASES = [(key, (), None) for key in GAMES]
CASES += [
    (key, (variant,), None)
    for key, cls in GAMES.items()
    for variant in cls.variants
    if variant != "tameg-pair"  # three players only: below
]
CASES += [("sachidjun", (), 3), ("sachidjun", ("tameg-pair",), 3), ("sachidjun", (), 4)]
CASES += [("tchela", ("4x6", "two-stores"), None), ("jikaida", ("pastang", "blue-first"), None)]


@pytest.mark.parametrize(("key", "variants", "seats"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_round_trip_every_game_and_variant(key, variants, seats, seed):
    game = random_game(key, seed, 150, variants, seats)
    record = record_from_game(game)
    text = record.to_json(game)
    again_record, again = load_record(text)
    assert again.to_dict() == game.to_dict()
    assert again.legal_moves() == game.legal_moves()
    assert again.dice_needed() == game.dice_needed()
    assert [m.move for m in again_record.moves] == game.moves()
    # and once more: the record of the replayed game is the same document
    assert record_from_game(again).to_json(again) == text


@pytest.mark.parametrize("key", sorted(GAMES))
def test_round_trip_after_resignation_and_draw(key):
    resigned = random_game(key, 7, 9)
    loser = resigned.to_move
    resigned.resign(loser)
    _, again = load_record(record_from_game(resigned).to_json())
    assert again.outcome == resigned.outcome
    assert again.to_dict() == resigned.to_dict()
    drawn = random_game(key, 8, 4)
    drawn.agree_draw()
    _, again = load_record(record_from_game(drawn).to_json())
    assert again.outcome is not None and again.outcome.is_draw
    assert again.outcome.reason == "agreed by both players"


def test_record_holds_players_dice_times_and_result():
    game = new_game("tchela")
    game.push("open1")
    game.resign(1)
    record = record_from_game(
        game,
        players=[Player(0, "Ana", 11), Player(1, "Bo", 22)],
        started_at="2026-11-25T18:00:00Z",
        ended_at="2026-11-25T18:05:00Z",
        move_times=["2026-11-25T18:01:00Z"],
    )
    data = json.loads(record.to_json(game))
    assert data["format"] == "idzeva-record" and data["version"] == RECORD_VERSION
    assert data["players"] == [
        {"seat": 0, "side": "South", "name": "Ana", "id": 11},
        {"seat": 1, "side": "North", "name": "Bo", "id": 22},
    ]
    assert data["moves"] == [{"ply": 1, "seat": 0, "move": "open1", "at": "2026-11-25T18:01:00Z"}]
    assert data["result"] == {"winners": [0], "reason": "resignation", "score": [1.0, 0.0]}
    text = text_record(record, game)
    assert '[South "Ana"]' in text and '[North "Bo"]' in text
    assert '[Result "1-0"]' in text and '[Reason "resignation"]' in text
    assert "1. South: open1" in text
    assert "South wins: resignation" in text


def test_dice_are_kept_with_their_move():
    game = new_game("chebache")
    spec = game.dice_needed()
    assert spec is not None
    game.roll((1,) * spec.count)
    move = game.legal_moves()[0]
    game.push(move)
    record = record_from_game(game)
    assert record.moves[0].dice == ((1,) * spec.count,)
    assert record.moves[0].move == move
    line = text_record(record).splitlines()[-1]
    assert line == f"1. White: [{' '.join(['1'] * spec.count)}] {move}"


def test_record_from_a_set_position_starts_there():
    position = {
        "variant": "poron",
        "turn": "blue",
        "pieces": {"h1": "YK", "f18": "BK", "e5": "YP", "e16": "BS"},
        "unmoved": ["e16"],
        "fluttember": {"yellow": True, "blue": True},
    }
    origin = Jikaida.from_position(position)
    game = origin.copy()
    game.push("e16-e14")
    game.push("e5-e9")
    record = record_from_game(game, origin=origin)
    assert record.start is not None
    _, again = load_record(record.to_json())
    assert again.to_dict() == game.to_dict()
    # Without the start position the same moves are nonsense from the usual start.
    with pytest.raises(RecordError) as error:
        GameRecord.from_dict(json.loads(record.to_json()) | {"start": None}).replay()
    assert error.value.ply == 1


# ---- refusals ---------------------------------------------------------------------------


def record_data(game: Game) -> dict:
    return json.loads(record_from_game(game).to_json(game))


def test_a_move_edited_by_hand_is_refused_at_its_ply():
    data = record_data(random_game("shax", 3, 12))
    data["moves"][4]["move"] = "zz9"
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply == 5
    assert str(error.value).startswith("ply 5: move 'zz9'")


def test_a_record_of_another_game_is_refused_at_the_first_move():
    data = record_data(random_game("tchela", 3, 6))
    data["game"] = "shax"
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply == 1


def test_a_move_given_to_the_wrong_seat_is_refused():
    data = record_data(random_game("shax", 4, 6))
    data["moves"][2]["seat"] = 1  # ply 3 is White's (seat 0) in Shax's placement
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply == 3
    assert "White (seat 0) is to move" in error.value.reason


def test_a_missing_roll_is_refused():
    data = record_data(random_game("chebache", 5, 6))
    del data["moves"][0]["dice"]  # the opening roll
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply == 1
    assert "roll is due first" in error.value.reason


def test_moves_after_the_end_are_refused():
    game = random_game("tchela", 1, 400)
    assert game.is_over and game.outcome is not None
    data = record_data(game)
    data["moves"].append({"ply": len(data["moves"]) + 1, "seat": 0, "move": "open1"})
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply == len(data["moves"])
    assert "after the game ended" in error.value.reason


def test_a_result_the_moves_do_not_give_is_refused():
    game = random_game("tchela", 1, 400)
    assert game.outcome is not None and game.outcome.winners
    data = record_data(game)
    loser = 1 - game.outcome.winners[0]
    data["result"]["winners"] = [loser]
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply == len(data["moves"])
    assert "is not what the moves give" in error.value.reason


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "pgn"}, "not a game record"),
        ({"version": RECORD_VERSION + 1}, "not one this program reads"),
        ({"game": "go"}, "unknown game 'go'"),
        ({"variants": ["giant"]}, "unknown variant 'giant'"),
        ({"seats": 5}, "not 5"),
        ({"moves": {"1": "a"}}, "moves must be a list"),
        ({"events": {"takeback": 1}}, "events must be a list"),
        ({"events": ["takeback"]}, 'event 1 needs an "event" name'),
        ({"events": [{"event": "draw-offer", "ply": "2"}]}, "event 1: ply must be a number"),
        ({"events": [{"event": "draw-offer", "seat": True}]}, "event 1: seat must be a number"),
        ({"events": [{"event": "draw-offer", "at": 5}]}, "event 1: at must be a time"),
        ({"events": [{"event": "takeback-accept", "undone": [1]}]}, "undone must be a list"),
    ],
)
def test_malformed_records_are_refused_as_a_whole(change, words):
    data = record_data(random_game("tchela", 2, 4)) | change
    with pytest.raises(RecordError) as error:
        load_record(data)
    assert error.value.ply is None
    assert words in str(error.value)


def test_not_json_is_refused():
    with pytest.raises(RecordError, match="not JSON"):
        load_record("{ nope")


def test_replay_up_to_a_ply_matches_the_game_then():
    game = random_game("sachidjun", 9, 40)
    record = record_from_game(game)
    middle = record.replay(10)
    assert middle.moves() == game.moves()[:10]
    assert middle.outcome is None


@pytest.mark.parametrize("key", sorted(GAMES))
def test_replay_from_an_earlier_ply_is_the_same_as_from_the_start(key):
    game = random_game(key, 11, 60)
    record = record_from_game(game)
    total = len(record.moves)
    for first, then in [(0, 5), (5, 5), (5, 30), (30, total - 1), (30, total), (total - 1, total)]:
        earlier = record.replay(first)
        went_on = record.replay(then, start=(first, earlier))
        assert went_on.to_dict() == record.replay(then).to_dict(), (first, then)


def test_replay_steps_from_checkpoints_match_a_replay_from_the_start():
    from types import SimpleNamespace

    from bot.domain.records import CHECKPOINT_EVERY, replay_frame
    from render import render_png

    game = random_game("chebache", 12, 3 * CHECKPOINT_EVERY)
    row = SimpleNamespace(
        id=1,
        version=9,
        state=game.to_json(),
        players=(1, 2),
        draw_offer_seat=None,
        created_at=0.0,
        updated_at=0.0,
    )
    record = record_from_game(game)
    total = len(record.moves)
    for ply in [5, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 0, total - 1, total, 4]:
        frame = replay_frame(row, ply, render_png)
        expected = record.replay(ply)
        assert frame.ply == ply and frame.total == total
        assert frame.caption.splitlines()[-1] == expected.status_line(), ply
        assert frame.image == render_png(expected), ply
    # Another game under the same id and version (another database) is not mixed up.
    other = random_game("chebache", 13, 3 * CHECKPOINT_EVERY)
    row.state = other.to_json()
    frame = replay_frame(row, 5, None)
    assert frame.caption.splitlines()[-1] == record_from_game(other).replay(5).status_line()


def test_a_version_1_record_still_loads():
    """Version 1 (before events were written) reads as it did: its events are kept as they
    are, and its moves replay."""
    game = random_game("shax", 5, 12)
    data = record_data(game) | {"version": 1}
    data["events"] = [{"ply": 12, "seat": 0, "event": "draw-offer"}]
    record, loaded = load_record(data)
    assert loaded.to_json() == game.to_json()
    assert record.events == [{"ply": 12, "seat": 0, "event": "draw-offer"}]
    assert "   (White offers a draw)" in text_record(record, loaded)
    assert json.loads(record.to_json(loaded))["version"] == RECORD_VERSION == 2


def test_events_are_shown_after_the_move_they_follow():
    game = random_game("shax", 3, 4)
    moves = game.moves()
    events = [
        {"ply": 1, "seat": 1, "event": "draw-offer"},
        {"ply": 1, "seat": 0, "event": "draw-decline"},
        {"ply": 3, "seat": 0, "event": "takeback-ask", "to_ply": 2, "undone": ["c1"]},
        {"ply": 3, "seat": 1, "event": "takeback-decline", "asker": 0},
        {"ply": 5, "seat": 0, "event": "takeback-ask", "to_ply": 4, "undone": ["x"]},
        {"ply": 5, "seat": 1, "event": "takeback-accept", "asker": 0, "undone": ["x"], "to_ply": 4},
    ]
    record = record_from_game(game, events=events)
    lines = text_record(record).splitlines()
    body = lines[lines.index("") + 1 :]
    assert body == [
        f"1. White: {moves[0]}",
        "   (Black offers a draw)",
        "   (White declines the draw)",
        f"2. Black: {moves[1]}",
        f"3. White: {moves[2]}",
        "   (White asks for a takeback)",
        "   (Black declines the takeback)",
        f"4. Black: {moves[3]}",
        "   (White asks for a takeback)",
        "   (Black accepts the takeback: White's x undone)",
    ]


# ---- the declared result ----------------------------------------------------------------


def shax_at_ply_40() -> Game:
    """Seeded Shax, in its movement phase at ply 40: White (11 pieces) to move against
    Black's 12; the moves do not end it."""
    game = random_game("shax", 2, 40)
    assert game.ply == 40 and not game.is_over and game.to_move == 0
    assert dict(game.summary())["White"] == "11 on board, 0 in hand"
    assert dict(game.summary())["Black"] == "12 on board, 0 in hand"
    return game


def with_result(game: Game, result: dict) -> dict:
    return record_data(game) | {"result": result}


def refusal(data: dict) -> RecordError:
    with pytest.raises(RecordError) as error:
        load_record(data)
    return error.value


def test_a_result_the_moves_do_not_reach_is_refused():
    claimed = {"winners": [1], "reason": "no pieces left", "score": [0.0, 1.0]}
    error = refusal(with_result(shax_at_ply_40(), claimed))
    assert error.ply == 40
    assert error.reason == (
        "the record's result (Black wins: no pieces left, 0-1) is not what the moves give: "
        "they do not end the game, so its result can only be a 'resignation', "
        "'agreed by both players' or 'timeout'"
    )


@pytest.mark.parametrize(
    ("claimed", "reason"),
    [
        (
            {"winners": [0], "reason": "resignation", "score": [1e308, -1e308]},
            "the record's result (White wins: resignation, 1e+308--1e+308) is not what "
            "'resignation' gives here (White wins: resignation, 1-0 or "
            "Black wins: resignation, 0-1)",
        ),
        (
            {"winners": [0, 1], "reason": "resignation", "score": [1.0, 1.0]},
            "the record's result (White and Black wins: resignation, 1-1) is not what "
            "'resignation' gives here (White wins: resignation, 1-0 or "
            "Black wins: resignation, 0-1)",
        ),
        (
            {"winners": [], "reason": "agreed by both players", "score": [1.0, 0.0]},
            "the record's result (Draw: agreed by both players, 1-0) is not what "
            "'agreed by both players' gives here (Draw: agreed by both players, ½-½)",
        ),
        # White is to move: only Black can claim the game on time.
        (
            {"winners": [0], "reason": "timeout", "score": [1.0, 0.0]},
            "the record's result (White wins: timeout, 1-0) is not what 'timeout' gives "
            "here (Black wins: timeout, 0-1)",
        ),
    ],
)
def test_an_ending_outside_the_moves_needs_its_own_winners_and_score(claimed, reason):
    error = refusal(with_result(shax_at_ply_40(), claimed))
    assert (error.ply, error.reason) == (40, reason)


def test_a_game_the_moves_end_needs_their_score_too():
    game = random_game("tchela", 1, 400)
    assert game.outcome == Outcome((1,), "no legal move", (0.0, 1.0))
    data = record_data(game)
    data["result"]["score"] = [-1e308, 1e308]
    error = refusal(data)
    assert error.ply == len(data["moves"])
    assert error.reason == (
        "the record's result (North wins: no legal move, -1e+308-1e+308) is not what the "
        "moves give (North wins: no legal move, 0-1)"
    )


@pytest.mark.parametrize(
    ("result", "words"),
    [
        (
            {"winners": [True], "reason": "resignation", "score": [0, 1]},
            "the result's winners must be a list of seat numbers, not [True]",
        ),
        (
            {"winners": 1, "reason": "resignation", "score": [0, 1]},
            "the result's winners must be a list of seat numbers, not 1",
        ),
        (
            {"winners": [1], "reason": "resignation", "score": ["0", 1]},
            "the result's score must be a list of numbers, not ['0', 1]",
        ),
        (
            {"winners": [1], "reason": "resignation", "score": [False, True]},
            "the result's score must be a list of numbers, not [False, True]",
        ),
    ],
)
def test_a_result_of_the_wrong_types_is_refused_as_a_whole(result, words):
    error = refusal(with_result(shax_at_ply_40(), result))
    assert (error.ply, error.reason) == (None, words)


@pytest.mark.parametrize("version", [True, False, "2", 2.0, None])
def test_a_version_that_is_no_whole_number_is_refused(version):
    data = record_data(random_game("shax", 5, 12)) | {"version": version}
    error = refusal(data)
    assert error.ply is None
    assert error.reason == f"the record's version must be a whole number, not {version!r}"


@pytest.mark.parametrize(
    ("key", "seats", "finish", "outcome"),
    [
        ("shax", None, lambda g: g.resign(0), ((1,), "resignation", (0.0, 1.0))),
        ("shax", None, lambda g: g.agree_draw(), ((), "agreed by both players", (0.5, 0.5))),
        ("shax", None, lambda g: g.claim_timeout(1), ((1,), "timeout", (0.0, 1.0))),
        ("jikaida", None, lambda g: g.agree_draw(), ((), "agreed by both players", (0.5, 0.5))),
        # Šačidjun, four seats: seats 0 and 2 play veradi, 1 and 3 tameg; seat 3 to move.
        ("sachidjun", 4, lambda g: g.resign(0), ((1, 3), "resignation", (0.0, 1.0, 0.0, 1.0))),
        ("sachidjun", 4, lambda g: g.claim_timeout(0), ((0, 2), "timeout", (1.0, 0.0, 1.0, 0.0))),
        (
            "sachidjun",
            3,
            lambda g: g.agree_draw(),
            ((), "agreed by both players", (1 / 3, 1 / 3, 1 / 3)),
        ),
    ],
)
def test_a_game_ended_outside_its_moves_mid_game_still_loads(key, seats, finish, outcome):
    game = shax_at_ply_40() if key == "shax" else random_game(key, 3, 20, (), seats)
    assert not game.is_over
    finish(game)
    record, loaded = load_record(record_from_game(game).to_json(game))
    assert loaded.outcome == Outcome(*outcome) == record.result
    assert loaded.to_dict() == game.to_dict()
