"""``idzeva analyse RECORD [--png FILE] [--json]``: the post-game analysis offline."""

from __future__ import annotations

import io
import json

from bot.cli.main import main
from tests.test_analysis import blunder_record


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_the_summary_names_blacks_blunder_and_the_winning_mill(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(blunder_record().to_json())
    chart = tmp_path / "chart.png"
    code, text = run("analyse", str(path), "--iterations", "200", "--png", str(chart))
    assert code == 0
    assert "Shax: 3 moves, 2 turns judged" in text
    assert "Black: average loss 100% a turn" in text and "White: average loss 0% a turn" in text
    assert "1. Black, move 1: played c3-d3 (win chance 100% -> 0%); better d5-c5 x" in text
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_json_is_the_analysis_itself(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(blunder_record().to_json())
    code, text = run("analyse", str(path), "--json", "--iterations", "200", "--seed", "4")
    data = json.loads(text)
    assert code == 0 and data["game"] == "shax" and data["seed"] == 4
    assert [turn["played"] for turn in data["turns"]] == [["c3-d3"], ["d7-a7", "xc4"]]


def test_a_record_that_does_not_replay_is_refused_with_its_ply(tmp_path, capsys):
    data = json.loads(blunder_record().to_json())
    data["moves"][0]["move"] = "c3-c5"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, text = run("analyse", str(path))
    assert code != 0 and text == ""
    assert "does not replay: ply 1" in capsys.readouterr().err
