"""Poron Jikaida through the command line and through ``Jikaida.from_position``."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.cli.main import main
from games import IllegalMove, load_game
from games.jikaida import Jikaida


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, Jikaida.key, Jikaida)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_legal_at_start_by_alias():
    # 96 Swod moves, the Pallan's 44 and four Fluttembers (see test_jikaida_rules.py for the
    # Swods and Fluttembers; here only the totals of what the rules test names).
    code, text = run("legal", "poron")
    lines = text.splitlines()
    assert code == 0
    assert "c3-c6" in lines and "h1<>a1" in lines and "g1xa1" in lines


def test_drin_notation_on_the_command_line():
    code, text = run("legal", "jikaida", "Mortil C3-Mortil C4", "--each")
    assert code == 0
    first, second = text.splitlines()
    assert first.startswith("0: ") and second.startswith("1: ")
    assert "c16-c15" in second.split()  # Blue's Swods


def test_show_names_the_last_move_in_drin_notation():
    code, text = run("show", "jikaida", "c3-c4")
    assert code == 0
    assert "Swod Mortil C3 → Mortil C4 (c3-c4)" in text
    assert "Blue to move (movement)" in text
    assert "Material: Yellow 36 · Blue 36" in text


def test_illegal_move_exits_2(capsys):
    code, _ = run("legal", "jikaida", "c3-c7")
    assert code == 2
    assert "'c3-c7'" in capsys.readouterr().err


def test_pastang_variant():
    code, text = run("legal", "jikaida", "--variant", "pastang")
    assert code == 0
    assert "a2-a4" in text.split()


def test_from_position_then_push_moves_and_round_trip():
    data = {
        "variant": "poron",
        "turn": "blue",
        "pieces": {"h1": "YK", "f18": "BK", "e5": "YP", "e16": "BS"},
        "unmoved": ["e16"],
        "fluttember": {"yellow": True, "blue": True},
    }
    game = Jikaida.from_position(data)
    assert game.to_move == 1
    assert game.push("Wersting E4-Wersting E2") == "e16-e14"  # an unmoved Swod: two squares
    assert game.push("e5~e9") == "e5-e9"  # accepted spelling, canonical output
    again = load_game(game.to_json())
    assert again.piece_codes() == game.piece_codes()
    assert json.loads(again.to_json()) == json.loads(game.to_json())
    with pytest.raises(IllegalMove):
        again.push("e14-e10")


# ---- --position FILE -----------------------------------------------------------------

POSITION = {
    "variant": "poron",
    "turn": "yellow",
    "pieces": {"h1": "YK", "f18": "BK", "e5": "YP", "c3": "YS", "l17": "BD"},
    "unmoved": ["c3"],
    "fluttember": {"yellow": True, "blue": True},
}


KINGS = {"h1": "YK", "f18": "BK"}


def write(tmp_path, data, name="position.json") -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_legal_from_a_position_file(tmp_path):
    code, text = run("legal", "jikaida", "--position", write(tmp_path, POSITION))
    moves = text.split()
    assert code == 0
    assert moves == Jikaida.from_position(POSITION).legal_moves()
    assert "c3-c6" in moves  # c3 is unmoved: the Swod's three-square bonus
    assert "e5-e9" in moves and "h1-g2" in moves
    assert not any("<>" in m for m in moves)  # no Kapt or Chuktar to swap with


def test_legal_from_a_position_file_then_moves(tmp_path):
    path = write(tmp_path, POSITION)
    code, text = run("legal", "poron", "--position", path, "Mortil C3-Mortil C6", "--each")
    first, second = text.splitlines()
    assert code == 0
    assert "c3-c6" in first.split()
    assert second.startswith("1: ") and "f18-e17" in second.split()  # Blue's King


def test_show_from_a_position_file(tmp_path):
    code, text = run("show", "jikaida", "e5-e9", "--position", write(tmp_path, POSITION))
    assert code == 0
    assert "Blue to move (movement)" in text
    assert "Material: Yellow 3 · Blue 2" in text
    assert "Last move: Yellow Pallan Mortil E5 → Neemu E3 (e5-e9)" in text


def test_position_file_turn_and_pastang_variant(tmp_path):
    data = {"variant": "pastang", "turn": "blue", "pieces": {"a1": "YD", "f6": "BD"}}
    path = write(tmp_path, data)
    code, text = run("legal", "jikaida", "--position", path)
    assert code == 0
    assert "f6-f4" in text.split() and "a1-a2" not in text.split()
    # --variant that says the same as the file is fine
    assert run("legal", "jikaida", "--position", path, "--variant", "pastang") == (0, text)


@pytest.mark.parametrize(
    ("file_variant", "option"),
    [("poron", "pastang"), ("pastang", "blue-first"), ("poron", "blue-first")],
)
def test_variant_that_contradicts_the_file_exits_2(tmp_path, capsys, file_variant, option):
    # Choice: the file sets the variant; a --variant saying otherwise is an error, not ignored.
    pieces = {"a1": "YD", "f6": "BD"} if file_variant == "pastang" else KINGS
    data = {"variant": file_variant, "pieces": pieces}
    code, text = run("legal", "jikaida", "--position", write(tmp_path, data), "--variant", option)
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err.count("\n") == 1
    assert f"--variant {option} contradicts" in err and f"variant {file_variant}" in err


@pytest.mark.parametrize("game", ["shax", "chebache", "tchela"])
def test_position_for_a_game_without_position_files_exits_2(tmp_path, capsys, game):
    code, _ = run("legal", game, "--position", write(tmp_path, POSITION))
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot start from a position file; --position works for: jikaida" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read position file"),
        ("{not json", "is not JSON: "),
        ("[1, 2]", "bad position file"),
        ({"turn": "yellow"}, '"pieces"'),
        ({"pieces": {"z1": "YK"}}, "no square 'z1'"),
        ({"pieces": {"a19": "YK"}}, "no square 'a19'"),
        ({"pieces": {"h1": "YX"}}, "unknown piece 'YX' on h1"),
        ({"pieces": {"h1": "GK"}}, "unknown piece 'GK' on h1"),
        ({"pieces": {"h1": ""}}, "unknown piece ''"),
        ({"pieces": {"h1": "YK", "h2": "YK"}}, "more than one King"),
        ({"turn": "red", "pieces": KINGS}, '"turn"'),
        ({"variant": "chess", "pieces": {"h1": "YK"}}, '"variant"'),
        ({"pieces": KINGS, "unmoved": ["q9"]}, "no square 'q9'"),
        ({"variant": "pastang", "pieces": {"h1": "YD"}}, "no square 'h1'"),
        # what is not a position (issue 11)
        ({"pieces": {"h1": "YK"}}, "blue has no King"),
        ({"pieces": {**KINGS, " h1": "YS"}}, "two pieces on h1"),
        ('{"pieces": {"h1": "YK", "f18": "BK", "h1": "YS"}}', "'h1' appears twice"),
        ({"pieces": {**KINGS, "c3": 7}}, "unknown piece"),
        ({"pieces": {**KINGS, "c3": {"kind": "YS"}}}, "unknown piece"),
        ({"pieces": KINGS, "note": [[[[["deep"]]]]]}, "nested deeper than a position can be"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper than a position can be"),
        ('{"pieces": {"h1": "YK", "f18": "BK"}, "x": "' + "a" * 4_000_000 + '"}', "larger than"),
        (b"\xff\xfe{}", "not UTF-8 text"),
    ],
)
def test_bad_position_file_is_one_line_exit_2(tmp_path, capsys, content, message):
    path = str(tmp_path / "missing.json") if content is None else write(tmp_path, content)
    for command in ("legal", "show", "play"):
        code, text = run(command, "jikaida", "--position", path)
        err = capsys.readouterr().err
        assert code == 2 and text == ""
        assert err.startswith("idzeva: ") and err.count("\n") == 1, err
        assert message in err and "Traceback" not in err


def test_illegal_move_after_a_position_file(tmp_path, capsys):
    code, _ = run("legal", "jikaida", "--position", write(tmp_path, POSITION), "c3-c7")
    assert code == 2
    assert "illegal move 'c3-c7' at ply 1" in capsys.readouterr().err


def test_position_already_over_shows_the_result_and_no_moves(tmp_path):
    # The example: Blue is a bare King and Yellow, to move, has a Deldar: Nikaida.
    data = {"variant": "poron", "turn": "yellow", "pieces": {"a1": "YK", "c3": "YD", "f18": "BK"}}
    path = write(tmp_path, data)
    assert run("legal", "jikaida", "--position", path) == (0, "")
    code, text = run("show", "jikaida", "--position", path)
    assert code == 0 and "Yellow wins: Nikaida" in text


def test_play_from_a_position_file(tmp_path, monkeypatch):
    lines = iter(["e5-e9", "undo", "c3-c6", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    out_dir = tmp_path / "images"
    code, text = run(
        "play", "jikaida", "--position", write(tmp_path, POSITION), "--out", str(out_dir)
    )
    assert code == 0
    assert "Played e5-e9" in text and "Blue to move (movement)" in text
    # undo goes back to the position of the file, not to the initial array: c3 is unmoved
    taken_back = text.split("Took back the last move.")[1]
    assert "Material: Yellow 3 · Blue 2" in taken_back and "Played c3-c6" in taken_back


# ---- any JSON at all: a game, or one line saying why not -------------------------------

SQUARE_NAMES = st.sampled_from(["h1", " h1", "H1", "f18", "c3", "f6", "a1", "z9", "h01", ""])
CODES = st.sampled_from(["YK", "BK", "YS", "BS", "YD", "BD", "YP", "yk", "YX", "Y", ""])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
POSITIONS = st.fixed_dictionaries(
    {"pieces": st.dictionaries(SQUARE_NAMES, CODES | JSON, max_size=6)},
    optional={
        "variant": st.sampled_from(["poron", "pastang", "chess"]) | JSON,
        "turn": st.sampled_from(["yellow", "blue"]) | JSON,
        "unmoved": st.lists(SQUARE_NAMES, max_size=3) | JSON,
        "fluttember": st.fixed_dictionaries({}, optional={"yellow": st.booleans()}) | JSON,
        "last": JSON,
    },
)


@settings(max_examples=60, deadline=None)
@given(POSITIONS)
def test_any_json_is_a_playable_position_or_one_line_why_not(data):
    try:
        game = Jikaida.from_position(data)
    except ValueError as error:
        assert str(error) and "\n" not in str(error)
        return
    for side in ("yellow", "blue"):
        assert game.pastang or game.king_square(("yellow", "blue").index(side)) is not None
    moves = game.legal_moves()
    assert game.text_board() and game.summary()
    assert not game.is_over or moves == []
    assert load_game(game.to_json()).to_json() == game.to_json()
