"""The rules pages cut into Discord pages (bot/domain/rules_pages.py): a small page worked by
hand, and every shipped page within Discord's limits with every heading reachable."""

from __future__ import annotations

import re

import pytest

from bot.domain.rules_pages import (
    DESCRIPTION_LIMIT,
    SUMMARY_TITLE,
    TITLE_LIMIT,
    Page,
    Section,
    UnknownSection,
    discord_text,
    fit,
    matching_sections,
    page_source,
    rules_pages,
    section_index,
    section_pages,
    section_text,
    section_titles,
    split_sections,
)
from games import GAMES

SAMPLE = """# Sample

Intro text.

## Moving

See [the board](board.md#points) and [Wikipedia](https://en.wikipedia.org/wiki/Shax).

![A board with [2 2] dice](../images/x.png)

| a | b |
| --- | --- |
| `x1` | long cell |

```
# not a heading
```

### Long

First paragraph here.

Second one.
"""


def test_a_page_splits_at_each_heading_but_not_inside_code():
    assert split_sections(SAMPLE) == [
        Section("Sample", "Intro text."),
        Section(
            "Moving",
            "See [the board](board.md#points) and [Wikipedia](https://en.wikipedia.org/wiki/Shax)."
            "\n\n![A board with [2 2] dice](../images/x.png)\n\n"
            "| a | b |\n| --- | --- |\n| `x1` | long cell |\n\n```\n# not a heading\n```",
        ),
        Section("Long", "First paragraph here.\n\nSecond one."),
    ]


def test_tables_images_and_relative_links_become_readable():
    moving = split_sections(SAMPLE)[1]
    assert discord_text(moving.text) == (
        "See the board and [Wikipedia](https://en.wikipedia.org/wiki/Shax).\n\n"
        "*Picture: A board with [2 2] dice*\n\n"
        "```\na   b\nx1  long cell\n```\n\n"
        "```\n# not a heading\n```"
    )


def test_a_long_section_becomes_numbered_pages_cut_between_paragraphs():
    long = split_sections(SAMPLE)[2]
    # 21 + 2 + 11 = 34 characters together: over 25, so one paragraph a page
    assert section_pages(long, limit=25) == [
        Page("Long", "Long (1/2)", "First paragraph here."),
        Page("Long", "Long (2/2)", "Second one."),
    ]
    assert section_pages(long, limit=34) == [Page("Long", "Long", long.text)]


def test_a_code_block_too_long_for_a_page_is_cut_between_lines_and_stays_fenced():
    # room for 16 - 8 (the fences and their newlines) = 8 characters of code a piece
    assert fit("```\naaaa\nbbbb\ncccc\n```", limit=16) == [
        "```\naaaa\n```",
        "```\nbbbb\n```",
        "```\ncccc\n```",
    ]
    assert fit("x" * 10, limit=4) == ["xxxx", "xxxx", "xx"]  # a line too long, cut anywhere


def headings(markdown: str) -> list[str]:
    found, in_code = [], False
    for line in markdown.splitlines():
        in_code ^= line.startswith("```")
        if not in_code and re.match(r"#{1,6} ", line):
            found.append(line.lstrip("#").strip())
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_shipped_page_fits_discord_and_every_heading_is_reachable(game):
    pages = rules_pages(game)
    assert pages[0] == Page(SUMMARY_TITLE, SUMMARY_TITLE, GAMES[game].rules_summary)
    for page in pages:
        assert 0 < len(page.text) <= DESCRIPTION_LIMIT, page.title
        assert len(f"{GAMES[game].title}: {page.title}") <= TITLE_LIMIT
        assert "](" not in page.text.replace("](https://", ""), page.title  # no relative link
        assert not re.search(r"^\|", page.text, re.MULTILINE), page.title  # no table left
    titles = headings(page_source(game))
    assert section_titles(game) == [SUMMARY_TITLE, *titles]
    for title in titles:
        assert pages[section_index(game, title)].section == title
        assert pages[section_index(game, title.upper())].section == title  # case aside


def test_the_jikaida_page_has_pastang_and_a_section_is_found_as_typed():
    assert section_index("jikaida", "pastang") > 0
    assert matching_sections("shax", "REMOV") == [
        "2. The first removal, and who moves first",
        "4. Mills and removal",
        "Variant: `two-removals`",
    ]
    assert section_index("shax", "variant: two-removals") == section_index(
        "shax", "Variant: `two-removals`"
    )


def test_an_unknown_section_lists_the_sections():
    with pytest.raises(UnknownSection) as raised:
        section_index("tchela", "Castling")
    assert raised.value.sections == section_titles("tchela")


def test_a_section_as_text_has_its_title_underlined():
    text = section_text("tchela", "Sowing")
    assert text.startswith("Sowing\n======\n\n")
    assert "## " not in text and text.endswith("\n")
