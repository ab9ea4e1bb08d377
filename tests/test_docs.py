"""The README and docs/: links that resolve, and arena tables that follow their data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.arena import BEGIN, END, generated, read_lines, summary, verdict, with_generated
from search.arena import Tally, wilson

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "docs" / "rules" / "README.md",
    *sorted((ROOT / "bot" / "domain" / "rules").glob("*.md")),  # the rules pages
]
ARENA_DATA = ROOT / "docs" / "data" / "arena.jsonl"
BOT_PAGE = ROOT / "docs" / "bot.md"
# [text](target) and <img src="target">; a target with a scheme (https:, mailto:) is not ours.
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def relative_links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_points_at_a_file(page: Path) -> None:
    missing = [
        target
        for target in relative_links(page)
        if not (page.parent / target.split("#")[0]).exists()
    ]
    assert missing == []


def test_the_link_check_sees_the_readme_links() -> None:
    links = relative_links(ROOT / "README.md")
    assert "docs/deploy.md" in links
    assert "docs/images/shax-movement.png" in links


def test_the_arena_tables_of_docs_bot_md_follow_the_data() -> None:
    page = BOT_PAGE.read_text(encoding="utf-8")
    assert page.count(BEGIN) == 1 and page.count(END) == 1
    assert with_generated(page, read_lines(ARENA_DATA)) == page, "run `make docs`"


def test_each_arena_line_says_what_its_results_give() -> None:
    for line in read_lines(ARENA_DATA):
        points = line["wins"] + line["draws"] / 2
        tally = Tally(line["wins"], line["draws"], line["losses"], points)
        low, high = wilson(points, tally.games)
        assert line["games"] == tally.games, line
        assert (line["share"], line["low"], line["high"]) == (
            round(tally.share(), 3),
            round(low, 3),
            round(high, 3),
        ), line
        assert line["verdict"] == verdict(tally, line["match"].split("-", 1)[1]), line


def test_a_pooled_cell_sums_its_runs() -> None:
    # Tchela hard - normal, three seeds: 25-0-13 + 27-0-17 + 20-0-9 = 72-0-39 in 111,
    # share 72/111 = 0.649, Wilson interval 0.556-0.731, low above 0.55: ok.
    tally = Tally(72, 0, 39, 72.0)
    assert summary(tally, "hard-normal") == "72-0-39 in 111 (0.556-0.731) ok"
    assert "| tchela | " in generated(read_lines(ARENA_DATA))
    assert "**72-0-39 in 111 (0.556-0.731) ok**" in BOT_PAGE.read_text(encoding="utf-8")
