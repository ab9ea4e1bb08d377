"""The ``idzeva`` command line with Šačidjun: legal and show with ``--dice``."""

from __future__ import annotations

import io

import pytest

import games
from bot.cli import HotSeat, main
from games.sachidjun import Sachidjun


@pytest.fixture(autouse=True)
def registry(monkeypatch):
    monkeypatch.setitem(games.GAMES, Sachidjun.key, Sachidjun)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_legal_after_the_first_roll():
    # 1-2 from the start: M-SW (1), M-W1 (2), M-W2 (the single 3).
    code, text = run("legal", "sachi", "--dice", "1,2")
    assert code == 0
    assert text.splitlines() == ["M-SW", "M-W1", "M-W2"]


def test_legal_in_the_middle_of_a_sub_turn():
    # 3-5: after M-W2 (the 3) only the 5 by another piece is left: M-W4.
    code, text = run("legal", "šači", "--dice", "3,5", "M-W2")
    assert code == 0
    assert text.splitlines() == ["M-W4"]


def test_legal_for_tameg_raza_after_a_whole_veradi_sub_turn():
    code, text = run("legal", "sachidjun", "--dice", "3,5", "--dice", "2,2", "M-W2", "M-W4")
    assert code == 0
    assert text.splitlines() == ["M-E1", "M-E3", "M-E7"]  # d, 2d, 4d from NE; never 3d


def test_no_roll_given_lists_nothing_and_says_so(capsys):
    code, text = run("legal", "sachi")
    assert code == 0 and text == ""
    assert "2d8" in capsys.readouterr().err


def test_each_prints_every_ply():
    code, text = run("legal", "sachi", "--dice", "2,2", "--each", "M-W1", "M-W1")
    assert code == 0
    assert text.splitlines() == ["0: M-W1 M-W3 M-W7", "1: M-W1 M-W3", "2: M-W1 M-W3"]


def test_illegal_move_exits_2_with_the_reason(capsys):
    code, _ = run("legal", "sachi", "--dice", "2,2", "M-W5")
    err = capsys.readouterr().err
    assert code == 2
    assert "'M-W5'" in err and "ply 1" in err and "3d" not in err
    assert "move of 6" in err


def test_show_prints_the_ring_and_status():
    code, text = run("show", "sachi", "--dice", "3,5", "m-w2", "m-w4")
    assert code == 0
    assert "Tameg raža to roll" in text
    assert "W2 R1" in text and "W4 R1" in text
    assert "Veradi: 14 in mora · 2 on the track · 0 captured" in text
    assert "Roll due: 2d8" in text


def test_show_mid_roll_gives_dice_and_pips_left():
    code, text = run("show", "sachi", "--dice", "3,5", "M-W2")
    assert code == 0
    assert "Veradi raža to move (3-5, 5 pips left)" in text
    assert "Dice: 3 5 — 5 pips left" in text


def test_hot_seat_plays_a_roll(tmp_path):
    import random

    out = io.StringIO()
    seat = HotSeat(Sachidjun(), tmp_path, out, random.Random(7))
    seat.run(iter(["help", "Q1-Q2", "quit"]))
    text = out.getvalue()
    assert "Rolled" in text and "Illegal:" in text
