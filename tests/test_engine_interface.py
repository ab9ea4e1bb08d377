"""The generic ``games.base.Game`` interface, exercised through Shax."""

from __future__ import annotations

import json

import pytest

import games
from games import IllegalMove, LogEntry, Outcome
from games.shax import Shax


@pytest.mark.parametrize("name", ["shax", "SHAX", " Shax ", "jare", "Jar", "JARE"])
def test_game_class_by_key_title_alias_any_case(name):
    assert games.game_class(name) is Shax


def test_registry_lists_shax():
    assert games.GAMES["shax"] is Shax


def test_unknown_game_is_an_error_naming_the_known_ones():
    with pytest.raises(KeyError, match="shax"):
        games.game_class("chess")


def test_unknown_variant_is_an_error():
    with pytest.raises(ValueError, match="unknown variant 'flying'"):
        games.new_game("shax", ["flying"])
    assert games.new_game("shax", ["two-removals"]).variant_set == {"two-removals"}


def test_wrong_seat_count_is_an_error():
    with pytest.raises(ValueError):
        games.new_game("shax", seats=3)
    assert games.new_game("shax").seats == 2


@pytest.mark.parametrize(
    "junk",
    [
        "not json",
        "[]",
        "42",
        "{}",
        '{"game": "chess"}',
        '{"game": "shax"}',
        {"game": "shax", "state": {"board": {"z9": "W"}}},
        {"variants": [], "state": {}},
        "[" * 100_000 + "]" * 100_000,  # deeper than the JSON reader can go
        '{"game": "shax", "seats": ' + "1" * 5000 + "}",  # past Python's int limit
    ],
)
def test_load_game_rejects_junk(junk):
    with pytest.raises((ValueError, KeyError)):
        games.load_game(junk)


def test_from_dict_rejects_another_game():
    data = Shax().to_dict()
    data["game"] = "tchela"
    with pytest.raises(ValueError):
        Shax.from_dict(data)


def test_load_game_accepts_json_text_and_dict():
    game = games.new_game("shax", ["two-removals"])
    game.push("d2")
    for saved in (game.to_json(), game.to_dict()):
        loaded = games.load_game(saved)
        assert isinstance(loaded, Shax)
        assert loaded.to_json() == game.to_json()
        assert loaded.variant_set == {"two-removals"}
        assert loaded.moves() == ["d2"]


def test_to_dict_layout():
    data = json.loads(Shax().to_json())
    assert set(data) == {"game", "variants", "seats", "state", "log", "outcome"}
    assert data["game"] == "shax"
    assert data["outcome"] is None


def test_copy_is_independent():
    game = Shax()
    game.push("d2")
    twin = game.copy()
    assert twin is not game
    assert twin.to_json() == game.to_json()
    twin.push("d3")
    assert game.moves() == ["d2"]
    assert twin.moves() == ["d2", "d3"]
    assert "d3" in game.legal_moves()


def test_copy_keeps_the_outcome():
    game = Shax()
    game.resign(0)
    assert game.copy().outcome == game.outcome


def test_replay_rebuilds_the_same_game():
    game = Shax()
    for move in ["d2", "d3", "a1", "g7"]:
        game.push(move)
    again = Shax()
    again.replay(game.log)
    assert again.to_json() == game.to_json()


def test_replay_stops_on_an_illegal_entry():
    game = Shax()
    with pytest.raises(IllegalMove):
        game.replay([LogEntry(0, move="d2"), LogEntry(1, move="d2")])
    assert game.moves() == ["d2"]


def test_shax_needs_no_dice():
    game = Shax()
    assert game.dice_needed() is None
    with pytest.raises(IllegalMove, match="no roll"):
        game.roll([3])
    assert game.log == []


def test_ply_moves_and_last_move():
    game = Shax()
    assert game.ply == 0
    assert game.moves() == []
    assert game.last_move() is None
    game.push("d2")
    game.push("D3")
    assert game.ply == 2
    assert game.moves() == ["d2", "d3"]
    assert game.last_move() == LogEntry(1, move="d3")
    assert str(game.last_move()) == "d3"


def test_status_line_in_play_and_at_the_end():
    game = Shax()
    assert game.status_line().startswith("White")
    game.push("d2")
    assert game.status_line().startswith("Black")
    game.resign(1)
    assert game.status_line() == "White wins: resignation"
    assert game.result_text() == "White wins: resignation"
    assert game.phase == "over"


def test_result_text_in_progress():
    assert Shax().result_text() == "in progress"


def test_parse_move_gives_canonical_form_without_playing():
    game = Shax()
    assert game.parse_move(" D2 ") == "d2"
    assert game.ply == 0
    with pytest.raises(IllegalMove) as info:
        game.parse_move("d8")
    assert info.value.move == "d8"
    assert "d2" in info.value.legal


def test_outcome_and_log_entry_round_trip():
    outcome = Outcome((1,), "resignation", (0.0, 1.0))
    assert Outcome.from_dict(outcome.to_dict()) == outcome
    assert not outcome.is_draw
    assert Outcome((), "draw by agreement", (0.5, 0.5)).is_draw
    for entry in (LogEntry(0, move="d2"), LogEntry(1, dice=(3, 5))):
        assert LogEntry.from_dict(entry.to_dict()) == entry
    assert str(LogEntry(1, dice=(3, 5))) == "[3 5]"


def test_text_board_shows_the_pieces():
    game = Shax()
    game.push("d2")
    game.push("d3")
    board = game.text_board()
    assert board.count("W") == 1
    assert board.count("B") == 1
    assert len(board.splitlines()) == 14


class LineShax(Shax):
    """Shax with whole-turn lines switched on, to test the shared mechanism."""

    accepts_move_lines = True


def test_push_line_plays_each_move_of_a_line_in_order():
    game = LineShax()
    assert game.push_line(" d2  d3 ") == ["d2", "d3"]
    assert game.moves() == ["d2", "d3"]


def test_push_line_is_all_or_nothing_and_names_the_failing_move():
    game = LineShax()
    with pytest.raises(IllegalMove) as caught:
        game.push_line("d2 d2")
    assert caught.value.move == "d2" and caught.value.reason.startswith("move 2 of 2:")
    assert game.moves() == []


def test_push_line_without_lines_reads_spaces_as_part_of_one_move():
    game = Shax()
    assert game.push_line("d 2") == ["d2"]  # Shax ignores spaces inside a move
    with pytest.raises(IllegalMove):
        game.push_line("a1 a4")
    assert game.moves() == ["d2"]
