"""Game records on the command line: ``play`` writes and loads them, ``replay`` shows them."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import bot.cli.main
from bot.cli.main import HotSeat, main
from games import new_game


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


@pytest.fixture
def shax_record(tmp_path):
    """A Shax game of two placements (White a1, Black d2), recorded from ``play``."""
    out = io.StringIO()
    seat = HotSeat(new_game("shax"), tmp_path / "images", out)
    seat.images = False
    for line in ("a1", "d2", f"record {tmp_path / 'game.json'}"):
        seat.handle(line)
    assert "Record written to" in out.getvalue()
    return tmp_path / "game.json"


def test_play_record_writes_the_json_and_the_move_list(shax_record):
    data = json.loads(shax_record.read_text())
    assert data["format"] == "idzeva-record" and data["game"] == "shax"
    assert [(m["seat"], m["move"]) for m in data["moves"]] == [(0, "a1"), (1, "d2")]
    assert data["result"] is None and data["started_at"].endswith("Z")
    text = shax_record.with_suffix(".txt").read_text()
    assert '[Game "Shax"]' in text and '[Result "*"]' in text
    assert "1. White: a1\n2. Black: d2\n" in text


def test_replay_shows_the_position_at_a_ply(shax_record, tmp_path):
    code, text = run("replay", str(shax_record), "--ply", "1", "--png", str(tmp_path / "p.png"))
    assert code == 0
    assert text.startswith("Shax, ply 1 of 2: White a1\n")
    assert "Black to place" in text or "Black to move" in text
    assert Image.open(tmp_path / "p.png").format == "PNG"
    code, text = run("replay", str(shax_record))
    assert text.startswith("Shax, ply 2 of 2: Black d2\n")


def test_replay_ply_out_of_range_exits_2(shax_record, capsys):
    assert run("replay", str(shax_record), "--ply", "3")[0] == 2
    assert "the record has plies 0 to 2" in capsys.readouterr().err


def test_replay_of_an_edited_record_names_the_ply(shax_record, capsys):
    data = json.loads(shax_record.read_text())
    data["moves"][1]["move"] = "a1"  # White's point already
    shax_record.write_text(json.dumps(data))
    assert run("replay", str(shax_record))[0] == 2
    err = capsys.readouterr().err
    assert "does not replay: ply 2: move 'a1'" in err


def test_replay_gif_has_a_frame_per_ply(shax_record, tmp_path):
    code, text = run("replay", str(shax_record), "--gif", str(tmp_path / "g.gif"))
    assert code == 0
    assert "GIF written to" in text and "3 frames" in text
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.n_frames == 3


def test_play_load_continues_from_the_record(shax_record, tmp_path, monkeypatch):
    again = tmp_path / "again.json"
    lines = iter(["undo", "d7", f"record {again}", "quit"])
    monkeypatch.setattr(bot.cli.main, "_input_lines", lambda: lines)
    code, text = run("play", "shax", "--load", str(shax_record), "--out", str(tmp_path / "i"))
    assert code == 0
    assert "Took back the last move." in text
    moves = [m["move"] for m in json.loads(again.read_text())["moves"]]
    assert moves == ["a1", "d7"]  # Black's d2 taken back, d7 played instead


def test_play_load_of_another_game_exits_2(shax_record, tmp_path, capsys):
    code, _ = run("play", "tchela", "--load", str(shax_record), "--out", str(tmp_path / "i"))
    assert code == 2
    assert "is a Shax game, not Tchela" in capsys.readouterr().err


def test_load_command_reads_records_too(shax_record, tmp_path):
    out = io.StringIO()
    seat = HotSeat(new_game("shax"), tmp_path / "images", out)
    seat.images = False
    seat.handle(f"load {shax_record}")
    assert f"Loaded {shax_record}" in out.getvalue()
    assert seat.game.moves() == ["a1", "d2"]
    seat.handle("undo")
    seat.handle("undo")
    assert seat.game.moves() == []
