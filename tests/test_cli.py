"""The ``idzeva`` command line: legal, show, play."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from PIL import Image

from bot.cli.main import HotSeat, main
from games import new_game

ALL_POINTS = "a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7".split()


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_legal_at_start_lists_all_24_points_sorted():
    code, text = run("legal", "shax")
    assert code == 0
    assert text.split("\n")[:-1] == ALL_POINTS


def test_legal_after_moves_leaves_out_occupied_points():
    code, text = run("legal", "shax", "d2", "d3")
    assert code == 0
    lines = text.split()
    assert "d2" not in lines and "d3" not in lines and len(lines) == 22


def test_each_prints_one_line_per_ply_before_each_move_and_after_the_last():
    code, text = run("legal", "shax", "--each", "a1", "a4")
    lines = text.splitlines()
    assert code == 0
    assert len(lines) == 3
    assert lines[0] == "0: " + " ".join(ALL_POINTS)
    assert lines[1].startswith("1: a4 a7 ")
    assert lines[2].startswith("2: a7 b2 ")


def test_options_and_moves_in_any_order():
    _, before = run("legal", "shax", "--variant", "two-removals", "d2")
    _, after = run("legal", "shax", "d2", "--variant", "two-removals")
    assert before == after and "d2" not in before.split()


def test_illegal_move_exits_2_naming_move_ply_and_reason(capsys):
    code, _ = run("legal", "shax", "a1", "b2", "a1")
    err = capsys.readouterr().err
    assert code == 2
    assert "'a1'" in err and "ply 3" in err and "occupied" in err


def test_unknown_game_and_variant_exit_2(capsys):
    assert run("legal", "chess")[0] == 2
    assert "unknown game" in capsys.readouterr().err
    assert run("legal", "shax", "--variant", "flying")[0] == 2
    assert "unknown variant" in capsys.readouterr().err


def test_show_prints_board_and_status_and_writes_png(tmp_path):
    png = tmp_path / "board.png"
    code, text = run("show", "shax", "d2", "--png", str(png), "d3")
    assert code == 0
    assert "White to place (11 in hand)" in text
    assert "Black: 1 on board, 11 in hand" in text
    with Image.open(png) as image:
        assert image.format == "PNG" and image.width >= 600


def test_console_script_exit_code_for_illegal_move():
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli.main", "legal", "shax", "zz9"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "zz9" in result.stderr and "ply 1" in result.stderr


def test_usage_without_command(capsys):
    assert main([]) == 2
    assert "legal GAME" in capsys.readouterr().err


@pytest.fixture
def hot_seat(tmp_path):
    out = io.StringIO()
    return HotSeat(new_game("shax"), tmp_path / "images", out), out


def test_play_moves_help_undo_save_load(hot_seat, tmp_path):
    seat, out = hot_seat
    seat.out_dir.mkdir()
    save = tmp_path / "game.json"
    lines = ["d2", "help", "d2", "d3", "undo", "save " + str(save), "c3", "load " + str(save)]
    seat.run(iter(lines))
    text = out.getvalue()
    assert "Played d2" in text
    assert "Illegal: d2 is occupied" in text
    assert "Took back the last move." in text
    assert seat.game.moves() == ["d2"]  # loaded back the save made after the undo
    assert (seat.out_dir / "ply-000.png").exists() and (seat.out_dir / "ply-002.png").exists()


def test_play_resign_ends_the_game(hot_seat):
    seat, out = hot_seat
    seat.out_dir.mkdir()
    seat.run(iter(["d2", "resign", "d3"]))
    assert seat.game.outcome is not None and seat.game.outcome.winners == (0,)
    assert "Game over" in out.getvalue()
    assert seat.game.moves() == ["d2"]


def test_run_without_a_token_exits_at_once_with_help(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 1
    err = capsys.readouterr().err
    assert "No Discord token" in err and "idzeva play shax" in err
    assert not (tmp_path / "idzeva.db").exists()  # nothing created without a token


# ---- files that cannot be written or read (issue 11, "CLI") ---------------------------

# A folder, a folder that does not exist, and a full disk (/dev/full answers every write
# with ENOSPC). The tests run as root in the container, so no permission case here.
UNWRITABLE = [
    ("folder", "Is a directory"),
    ("missing/board.png", "No such file or directory"),
    ("/dev/full", "No space left on device"),
]


def unwritable(tmp_path, name: str) -> str:
    return name if name.startswith("/") else str(tmp_path / name).replace("/folder", "")


@pytest.mark.parametrize(("name", "reason"), UNWRITABLE)
def test_show_png_that_cannot_be_written_is_one_line_exit_2(tmp_path, capsys, name, reason):
    path = unwritable(tmp_path, name)
    code, text = run("show", "shax", "d2", "--png", path)
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err == f"idzeva: cannot write image {path}: {reason}\n"


def test_play_save_that_cannot_be_written_says_so_and_the_game_goes_on(hot_seat, tmp_path):
    seat, out = hot_seat
    seat.out_dir.mkdir()
    paths = [unwritable(tmp_path, name) for name, _ in UNWRITABLE]
    seat.run(iter(["d2", *(f"save {path}" for path in paths), "d3"]))
    text = out.getvalue()
    for path, (_, reason) in zip(paths, UNWRITABLE, strict=True):
        assert f"Could not save to {path}: {reason}. The game goes on." in text
    assert "Saved to" not in text
    assert seat.game.moves() == ["d2", "d3"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "No such file or directory"),
        (b"\xff\xfe\x00binary", "not UTF-8 text"),
        (b"{not json", "Expecting property name"),
        (b'{"game": "chess"}', "unknown game"),
        (b"[" * 100_000, "nested"),
        (b"x" * 4_000_001, "larger than 4 MB"),
    ],
)
def test_play_load_of_a_bad_file_says_so_and_the_game_goes_on(hot_seat, tmp_path, content, reason):
    seat, out = hot_seat
    seat.out_dir.mkdir()
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_bytes(content)
    seat.run(iter(["d2", f"load {path}", "d3"]))
    text = out.getvalue()
    assert f"Could not load {path}: " in text and ". The game goes on." in text
    assert reason in text.split(f"Could not load {path}: ")[1].splitlines()[0]
    assert seat.game.moves() == ["d2", "d3"]


def test_play_load_of_a_saved_game_that_does_not_rebuild_is_refused(hot_seat, tmp_path):
    # Loads without complaint but has one count of pieces in hand: refused before it
    # replaces the game in play (before, the board drawn next crashed and lost the game).
    seat, out = hot_seat
    seat.out_dir.mkdir()
    saved = new_game("shax")
    saved.push("a1")
    data = json.loads(saved.to_json())
    data["state"]["in_hand"] = [11]
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    seat.run(iter(["d2", f"load {path}", "d3"]))
    assert f"Could not load {path}: damaged saved game. The game goes on." in out.getvalue()
    assert seat.game.moves() == ["d2", "d3"]


def test_play_images_that_cannot_be_written_are_turned_off_once(tmp_path):
    out = io.StringIO()
    seat = HotSeat(new_game("shax"), tmp_path / "gone", out)  # the folder was never made
    seat.run(iter(["d2", "d3"]))
    text = out.getvalue()
    assert text.count("Could not write the image") == 1
    assert "No such file or directory. The game goes on without images." in text
    assert seat.game.moves() == ["d2", "d3"]


def test_play_out_folder_that_cannot_be_made_is_one_line_exit_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    code, text = run("play", "shax", "--out", str(blocker))
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err == f"idzeva: cannot make the image folder {blocker}: File exists\n"


def test_legal_into_a_closed_pipe_prints_no_traceback():
    # `idzeva legal jikaida | head -0`: the reader is gone before the first write.
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli.main", "legal", "jikaida"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()
    err = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait() == 1
    assert err == ""


def test_play_interrupted_with_ctrl_c_exits_130_without_a_traceback(tmp_path, monkeypatch, capsys):
    def interrupted(prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    code, text = run("play", "shax", "--out", str(tmp_path / "images"))
    assert code == 130 and "White to place" in text
    assert capsys.readouterr().err == "\nidzeva: interrupted\n"


def test_a_terminal_without_unicode_gets_question_marks_not_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli.main", "show", "sachi"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        check=False,
    )
    assert result.returncode == 0 and result.stderr == b""
    assert b"veradi ra?a" in result.stdout  # raža
