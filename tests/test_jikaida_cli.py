"""Poron Jikaida through the command line and through ``Jikaida.from_position``."""

from __future__ import annotations

import io
import json

import pytest

import games
from bot.cli import main
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
