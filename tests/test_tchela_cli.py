"""The ``idzeva`` command line with Tchela: legal, show, play."""

from __future__ import annotations

import io

from bot.cli.main import HotSeat, main
from games import new_game

# From a full row every opening is legal; the store choice only for h = 5..9 (hand-worked in
# test_tchela_rules.py).
START = sorted([f"open{h}" for h in range(1, 17)] + [f"open{h}+s" for h in range(5, 10)])


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_legal_at_start_lists_the_openings():
    code, text = run("legal", "tchela")
    assert code == 0
    assert text.splitlines() == START


def test_legal_after_south_opens_lists_north_openings():
    # open1 captures nothing, so North's row is still full: the same 21 openings.
    code, text = run("legal", "tchela", "open1")
    assert code == 0
    assert text.splitlines() == START


def test_legal_in_the_main_phase_lists_hole_numbers():
    # After open1 open1 South holds 1, 3, 4, 5, 6, 8, 10, 12, 14 (see the rules tests).
    code, text = run("legal", "tchela", "open1", "open1")
    assert code == 0
    moves = text.split()
    assert {"1", "3", "4", "5", "6", "8", "10", "12", "14"} <= set(moves)
    assert not {"2", "7", "9", "11", "13", "15", "16"} & set(moves)


def test_each_and_variant_4x6():
    code, text = run("legal", "tchela", "--variant", "4x6", "--each", "open1")
    lines = text.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].startswith("0: open1 open10 open11 open12 open2 open3 open3+s")
    assert lines[1].startswith("1: open1 ")


def test_accepted_spellings_on_the_command_line():
    code, text = run("legal", "tchela", "OPEN5+S", "7")  # "7" in North's opening is open7
    assert code == 0 and text


def test_illegal_move_exits_2_with_the_reason(capsys):
    code, _ = run("legal", "tchela", "open4+s")
    err = capsys.readouterr().err
    assert code == 2
    assert "'open4+s'" in err and "ply 1" in err and "store" in err


def test_show_prints_the_board_status_and_captures():
    code, text = run("show", "tchela", "open10")
    assert code == 0
    assert "North · captured 0" in text and "South · captured 2" in text
    assert "North to open" in text
    assert "Captured: South 2 · North 0" in text
    assert "Last move: South open10: open from hole 10" in text


def test_show_two_stores():
    code, text = run("show", "tchela", "--variant", "two-stores")
    assert code == 0
    assert text.count("s1(0)") == 2 and text.count("s2(0)") == 2


def test_hot_seat_plays_tchela_as_text(tmp_path):
    out = io.StringIO()
    seat = HotSeat(new_game("tchela"), tmp_path, out)
    seat.run(iter(["open1", "help", "open99", "5", "quit"]))
    text = out.getvalue()
    assert "Played open1" in text
    assert "Illegal: holes are numbered 1 to 16" in text
    assert "Played open5" in text
    assert seat.game.moves() == ["open1", "open5"]
