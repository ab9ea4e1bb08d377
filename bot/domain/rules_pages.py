"""The rules pages (``bot/domain/rules/<game>.md``, shipped with the package) cut into pages
Discord can show: one section per heading, a long section over several pages, and the Markdown
Discord cannot show (tables, images, relative links) made readable.

Pure: no Discord, no I/O but reading the packaged pages. ``/game rules`` and ``idzeva rules``
share it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from games import GAMES

DESCRIPTION_LIMIT = 4096  # an embed's description
TITLE_LIMIT = 256  # an embed's title
SUMMARY_TITLE = "In short"

HEADING = re.compile(r"(#{1,6})\s+(.+?)\s*#*\s*$")
FENCE = "```"
# ![alt](target), the alt text may hold [brackets] of its own.
IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)")
LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]*)\)")
SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:", re.IGNORECASE)


class UnknownSection(LookupError):
    """A section no page of the game has; ``sections`` lists the ones it has."""

    def __init__(self, game: str, asked: str, sections: list[str]):
        super().__init__(f"{GAMES[game].title} has no section {asked!r}")
        self.sections = sections


@dataclass(frozen=True)
class Section:
    title: str
    text: str


@dataclass(frozen=True)
class Page:
    section: str  # the heading it comes under
    title: str  # the heading, with "(2/3)" when the section takes several pages
    text: str


def page_source(game: str) -> str:
    """The Markdown of a game's rules page, as shipped with the package."""
    return resources.files(__package__).joinpath("rules", f"{game}.md").read_text("utf-8")


def split_sections(markdown: str) -> list[Section]:
    """One section per heading (any level), its text up to the next heading; the text before
    the first heading, if any, under the page's first heading."""
    sections: list[Section] = []
    title, lines, in_code = "", [], False
    for line in markdown.splitlines():
        if line.startswith(FENCE):
            in_code = not in_code
        heading = None if in_code else HEADING.fullmatch(line)
        if heading is None:
            lines.append(line)
            continue
        if title or "\n".join(lines).strip():
            sections.append(Section(title, "\n".join(lines).strip("\n")))
        title, lines = heading.group(2), []
    sections.append(Section(title, "\n".join(lines).strip("\n")))
    return sections


def discord_text(markdown: str) -> str:
    """Markdown Discord shows: tables as aligned code blocks, images as their alt text,
    relative links as their text (links with a scheme are kept)."""
    out: list[str] = []
    table: list[str] = []
    in_code = False
    for line in [*markdown.splitlines(), ""]:
        if line.startswith(FENCE):
            in_code = not in_code
        if not in_code and line.lstrip().startswith("|"):
            table.append(line)
            continue
        if table:
            out.extend(table_block(table))
            table = []
        out.append(line if in_code or line.startswith(FENCE) else readable_line(line))
    return "\n".join(out).strip("\n")


def readable_line(line: str) -> str:
    line = IMAGE.sub(lambda m: f"*Picture: {m.group(1)}*", line)
    return LINK.sub(lambda m: m.group(0) if SCHEME.match(m.group(2)) else m.group(1), line)


def table_cells(row: str) -> list[str]:
    cells = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [cell.strip().replace("\\|", "|").replace("`", "") for cell in cells]


def table_block(rows: list[str]) -> list[str]:
    """A Markdown table as lines of aligned columns in a code block (its --- row dropped)."""
    cells = [table_cells(row) for row in rows if not re.fullmatch(r"[\s|:-]+", row)]
    columns = max(len(row) for row in cells)
    cells = [row + [""] * (columns - len(row)) for row in cells]
    widths = [max(len(row[i]) for row in cells) for i in range(columns)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    return [FENCE, *lines, FENCE]


def blocks(text: str) -> list[str]:
    """Paragraphs (a code block whole), the units a long section is cut between."""
    found: list[str] = []
    current: list[str] = []
    in_code = False
    for line in text.splitlines():
        if line.startswith(FENCE):
            in_code = not in_code
        if not line.strip() and not in_code:
            if current:
                found.append("\n".join(current))
            current = []
        else:
            current.append(line)
    if current:
        found.append("\n".join(current))
    return found


def cut_block(block: str, limit: int) -> list[str]:
    """A block longer than ``limit`` cut between lines (a code block stays fenced in each
    piece); a line longer than that, cut anywhere."""
    fenced = block.startswith(FENCE) and block.endswith(FENCE) and "\n" in block
    lines = block.splitlines()[1:-1] if fenced else block.splitlines()
    room = limit - (2 * len(FENCE) + 2 if fenced else 0)
    pieces: list[str] = []
    current = ""
    for line in lines:
        for part in [line[i : i + room] for i in range(0, len(line), room)] or [""]:
            joined = f"{current}\n{part}" if current else part
            if current and len(joined) > room:
                pieces.append(current)
                joined = part
            current = joined
    pieces.append(current)
    return [f"{FENCE}\n{piece}\n{FENCE}" if fenced else piece for piece in pieces]


def fit(text: str, limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between paragraphs."""
    pieces: list[str] = []
    current = ""
    for block in blocks(text):
        for part in cut_block(block, limit) if len(block) > limit else [block]:
            joined = f"{current}\n\n{part}" if current else part
            if current and len(joined) > limit:
                pieces.append(current)
                joined = part
            current = joined
    return [*pieces, current] if current or not pieces else pieces


def section_pages(section: Section, limit: int = DESCRIPTION_LIMIT) -> list[Page]:
    pieces = fit(discord_text(section.text), limit)
    title = section.title[:TITLE_LIMIT]
    if len(pieces) == 1:
        return [Page(section.title, title, pieces[0])]
    count = len(pieces)
    return [
        Page(section.title, f"{title[: TITLE_LIMIT - 12]} ({n}/{count})", piece)
        for n, piece in enumerate(pieces, 1)
    ]


@functools.cache
def rules_pages(game: str) -> tuple[Page, ...]:
    """A game's rules as pages: its short summary first, then each section of its page."""
    summary = Page(SUMMARY_TITLE, SUMMARY_TITLE, GAMES[game].rules_summary)
    sections = split_sections(page_source(game))
    return (summary, *(page for s in sections for page in section_pages(s)))


def section_titles(game: str) -> list[str]:
    """The sections of a game's rules, in order (the summary first)."""
    return list(dict.fromkeys(page.section for page in rules_pages(game)))


def plain(title: str) -> str:
    """A heading as typed: without Markdown's marks, case folded."""
    return re.sub(r"[`*_]", "", title).casefold().strip()


def section_index(game: str, section: str) -> int:
    """The index of the first page of ``section`` (its heading, Markdown marks and case
    aside) among the game's pages; UnknownSection when it has none."""
    wanted = plain(section)
    for index, page in enumerate(rules_pages(game)):
        if plain(page.section) == wanted:
            return index
    raise UnknownSection(game, section, section_titles(game))


def matching_sections(game: str, typed: str) -> list[str]:
    """The game's sections whose heading contains what was typed (Markdown marks and case
    aside), in order."""
    wanted = plain(typed)
    return [title for title in section_titles(game) if wanted in plain(title)]


def section_text(game: str, section: str | None = None) -> str:
    """A section (every page of it), or the whole rules, as plain text for a terminal."""
    pages = rules_pages(game)
    if section is not None:
        first = section_index(game, section)
        pages = tuple(p for p in pages[first:] if p.section == pages[first].section)
    chunks: list[str] = []
    for page in pages:
        chunks.append(f"{page.title}\n{'=' * len(page.title)}\n\n{page.text}")
    return "\n\n".join(chunks) + "\n"
