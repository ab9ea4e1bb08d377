"""``/game rules game: [section:]``: the rules a page at a time, privately (issue 37)."""

from __future__ import annotations

import dataclasses

import pytest
from simcord import SetupError

from bot.domain.rules_pages import rules_pages, section_index, section_titles
from cogs.common.buttons import single_button_view
from cogs.rules import NO_PAGE, RulesButton
from games import Shax

from .helpers import answer, labels, refused

PAGES = len(rules_pages("shax"))  # 13: the summary and the 12 headings of shax.md


def shown(message) -> tuple[str, str, str]:
    [embed] = message.embeds
    return embed.title, embed.description, embed.footer.text


async def test_rules_open_at_the_summary_with_buttons_and_the_page_number(world):
    w = world
    said = answer(await w.carol.slash(w.channel, "game rules", game="shax"))
    assert said.ephemeral
    assert shown(said) == ("Shax: In short", Shax.rules_summary, f"1 / {PAGES}")
    assert labels(said) == ["◀ Previous", "Next ▶"]
    assert said.embeds[0].fields == []  # IDZEVA_DOCS_URL unset: no link at all


async def test_a_section_opens_at_its_page(world):
    w = world
    # "Movement" is part of the heading "3. Movement", not the heading: refused
    refused(
        await w.alice.slash(w.channel, "game rules", game="shax", section="Movement"),
        "no such section",
    )
    said = answer(await w.alice.slash(w.channel, "game rules", game="shax", section="3. movement"))
    title, text, page = shown(said)
    assert title == "Shax: 3. Movement"
    assert page == f"{section_index('shax', '3. Movement') + 1} / {PAGES}" == f"7 / {PAGES}"
    assert text == rules_pages("shax")[6].text and text.startswith(
        "Players take turns moving one of their own pieces"
    )


async def test_next_and_previous_page_through_the_whole_of_one_game(world):
    w = world
    pages = rules_pages("jikaida")
    said = answer(await w.bob.slash(w.channel, "game rules", game="jikaida"))
    with pytest.raises(SetupError, match="disabled"):  # nothing before the first page
        await w.bob.click(said, label="◀ Previous")
    seen = [shown(said)]
    for _ in pages[1:]:
        said = (await w.bob.click(said, label="Next ▶")).response
        assert said.ephemeral
        seen.append(shown(said))
    expected = [
        (f"Poron Jikaida: {p.title}", p.text, f"{n} / {len(pages)}") for n, p in enumerate(pages, 1)
    ]
    assert seen == expected
    assert any("Pastang" in title for title, _, _ in seen)
    with pytest.raises(SetupError, match="disabled"):  # nothing after the last
        await w.bob.click(said, label="Next ▶")
    for back in reversed(expected[:-1]):
        said = (await w.bob.click(said, label="◀ Previous")).response
        assert shown(said) == back


async def test_a_published_docs_url_links_each_page_to_its_full_page(world):
    w = world
    w.env.bot.settings = dataclasses.replace(w.env.bot.settings, docs_url="https://ex.org/r/")
    said = answer(await w.carol.slash(w.channel, "game rules", game="tchela", section="Sowing"))
    [link] = said.embeds[0].fields
    assert (link.name, link.value) == ("Full rules", "https://ex.org/r/tchela.md")
    stepped = (await w.carol.click(said, label="Next ▶")).response
    assert stepped.embeds[0].fields[0].value == "https://ex.org/r/tchela.md"


async def test_the_section_autocomplete_offers_the_chosen_games_headings(world):
    w = world
    offered = await w.alice.autocomplete(w.channel, "game rules", "section", "remov", game="shax")
    assert [c["value"] for c in offered] == [
        "2. The first removal, and who moves first",
        "4. Mills and removal",
        "Variant: `two-removals`",
    ]
    everything = await w.alice.autocomplete(w.channel, "game rules", "section", "", game="shax")
    assert [c["value"] for c in everything] == section_titles("shax")
    # No game chosen yet: every game's headings, named with their game, at most 25.
    anywhere = await w.alice.autocomplete(w.channel, "game rules", "section", "notation")
    assert [c["name"] for c in anywhere] == [
        "Šačidjun: Notation",
        "Chebache: Notation",
        "Poron Jikaida: Notation",
    ]
    assert len(await w.alice.autocomplete(w.channel, "game rules", "section", "")) == 25


async def test_an_unknown_section_lists_the_sections_privately(world):
    w = world
    text = refused(
        await w.alice.slash(w.channel, "game rules", game="tchela", section="Castling"),
        "no such section",
    )
    for title in section_titles("tchela"):
        assert f"**{title}**" in text


async def test_the_buttons_work_after_a_restart_and_a_forged_page_changes_nothing(world):
    w = world
    said = answer(await w.alice.slash(w.channel, "game rules", game="chebache"))
    await w.restart()
    stepped = (await w.alice.click(said, label="Next ▶")).response
    page = rules_pages("chebache")[1]
    assert shown(stepped) == (
        f"Chebache: {page.title}",
        page.text,
        f"2 / {len(rules_pages('chebache'))}",
    )
    # Stale or forged page numbers (a page past the end, a game that is none): refused
    # privately, and the message stays as it was.
    bot_channel = w.env.bot.get_channel(w.channel.id)
    for game, page in (("chebache", 999), ("nogame", 1), ("shax", PAGES)):
        forged = await bot_channel.send(
            "rules", view=single_button_view(RulesButton(game, page, "next"))
        )
        assert refused(await w.carol.click(forged, label="Next ▶")) == NO_PAGE
        again = await bot_channel.fetch_message(forged.id)
        assert again.content == "rules" and not again.embeds
