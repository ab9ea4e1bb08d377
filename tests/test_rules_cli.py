"""``idzeva rules GAME [SECTION]``: the rules pages as text, offline."""

from __future__ import annotations

import io
from itertools import pairwise

from bot.cli.main import main
from bot.domain.rules_pages import rules_pages, section_titles


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["rules", *argv], out=out), out.getvalue()


def test_one_section_is_printed_under_its_underlined_title():
    code, text = run("shax", "3. movement")
    assert code == 0
    assert text == f"3. Movement\n===========\n\n{rules_pages('shax')[6].text}\n"


def test_without_a_section_every_page_is_printed_in_order():
    code, text = run("sachi")  # an alias of Šačidjun
    assert code == 0
    titles = [line for line, under in pairwise(text.splitlines()) if under == "=" * len(line) != ""]
    assert titles == section_titles("sachidjun")


def test_an_unknown_game_or_section_is_refused_in_one_line(capsys):
    assert run("go")[0] == 2
    assert capsys.readouterr().err == (
        "idzeva: unknown game 'go'; known: chebache, jikaida, sachidjun, shax, tchela\n"
    )
    assert run("tchela", "Castling")[0] == 2
    err = capsys.readouterr().err
    assert err.startswith("idzeva: Tchela has no section 'Castling'; its sections: In short, ")
    assert err.count("\n") == 1
    assert run("x" * 5000)[0] == 2  # bounded: not echoed back
    assert capsys.readouterr().err == "idzeva: a game or section name has at most 100 characters\n"
    assert run("shax", "s" * 101)[0] == 2
    assert run()[0] == 2  # GAME is required
