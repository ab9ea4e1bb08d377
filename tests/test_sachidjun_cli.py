"""The ``idzeva`` command line with Šačidjun: legal and show with ``--dice``."""

from __future__ import annotations

import io

import pytest

import games
from bot.cli.main import HotSeat, main
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


# ---- --seats: three and four players from the command line ------------------------------


def test_tameg_pair_needs_its_three_seats_and_then_lists_the_moves(capsys):
    code, _ = run("legal", "sachi", "--variant", "tameg-pair", "--dice", "1,2")
    assert code == 2 and "for three players" in capsys.readouterr().err
    # Veradi raža enters with 1 and 2 (M-SW, M-W1); tameg raža then rolls 3-4 and enters
    # at NE going south: 3 is E2, 4 is E3, 3+4 as one move is E6.
    code, text = run(
        "legal", "sachi", "--seats", "3", "--variant", "tameg-pair",
        "--dice", "1,2", "--dice", "3,4", "M-SW", "M-W1",
    )  # fmt: skip
    assert code == 0
    assert text.splitlines() == ["M-E2", "M-E3", "M-E6"]


@pytest.mark.parametrize("seats", ["2", "3", "4"])
def test_every_seat_count_sees_the_same_moves(seats):
    code, text = run("legal", "sachi", "--seats", seats, "--dice", "3,5", "M-W2")
    assert code == 0
    assert text.splitlines() == ["M-W4"]


def test_best_with_four_seats_plays_one_of_the_legal_moves():
    args = ("sachi", "--seats", "4", "--dice", "1,2", "--dice", "3,4", "M-SW", "M-W1")
    _, legal = run("legal", *args)
    code, best = run("best", *args, "--level", "easy", "--seed", "1", "--iterations", "40")
    assert code == 0
    assert best.strip() in legal.split()


def test_a_seat_count_the_game_has_not_exits_2(capsys):
    code, text = run("legal", "sachi", "--seats", "5", "--dice", "1,2")
    assert code == 2 and text == ""
    assert "played by (2, 3, 4) seats, not 5" in capsys.readouterr().err


def test_seats_with_a_position_file_exits_2(tmp_path, capsys):
    position = tmp_path / "position.json"
    position.write_text('{"variant": "poron", "turn": "yellow", "pieces": {}}')
    code, _ = run("legal", "jikaida", "--position", str(position), "--seats", "2")
    assert code == 2
    assert "--position sets the seats" in capsys.readouterr().err


def test_seats_with_a_loaded_record_exits_2(tmp_path, capsys):
    code, _ = run("play", "sachi", "--load", str(tmp_path / "none.json"), "--seats", "4")
    assert code == 2
    assert "no --position, --variant or --seats" in capsys.readouterr().err
