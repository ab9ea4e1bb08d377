"""The ``idzeva`` command line with Chebache: legal and show with ``--dice``."""

from __future__ import annotations

import io

import pytest

import games
from bot.cli.main import main
from games.chebache import Chebache


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, Chebache.key, Chebache)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_legal_after_the_first_roll():
    code, text = run("legal", "chebache", "--dice", "5,2")
    assert code == 0
    assert text.splitlines() == ["K(S/2)", "K(S/5)", "S/2", "S/5"]


def test_legal_for_black_after_whites_turn():
    # White plays S/5 and S/2; Black rolls 6,1: from Start to 1 or 6 (Black's 1 is
    # I(ab,12) and 6 is d2, both empty).
    code, text = run("legal", "chebache", "--dice", "5,2", "--dice", "6,1", "S/5", "S/2")
    assert code == 0
    assert text.splitlines() == ["K(S/1)", "K(S/6)", "S/1", "S/6"]


def test_without_dice_the_roll_is_due(capsys):
    code, text = run("legal", "chebache")
    assert code == 0 and text == ""
    assert "2d6" in capsys.readouterr().err


def test_illegal_move_exits_2():
    code, _ = run("legal", "chebache", "--dice", "5,2", "S/4")
    assert code == 2


def test_show_prints_board_and_summary():
    code, text = run("show", "chebache", "--dice", "3,3", "S/3", "S/3")
    assert code == 0
    assert "a4 wS" in text and "W10K" in text and "(W2)" in text
    assert "White to move (phase I, dice left: 3 3)" in text
    assert "White: Start 11 · Finish 0" in text
