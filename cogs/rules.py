"""``/game rules game: [section:]``: a game's rules, privately, a page at a time (issue 37).

The pages come from ``bot.domain.rules_pages`` (the rules pages shipped with the package).
◀ Previous / Next ▶ carry the game and the page they go to, so they work after a restart;
anyone may click them (the message is the clicker's own, ephemeral), and a page number that
is no page (stale or forged) is answered privately and changes nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.domain.rules_pages import (
    UnknownSection,
    matching_sections,
    rules_pages,
    section_index,
)
from games import GAMES

from .common.answers import refuse, tell_with
from .common.buttons import PersistentButton, guarded
from .common.client import client_of
from .common.text import clip

CHOICES_LIMIT = 25  # Discord shows at most 25 autocomplete choices
CHOICE_LIMIT = 100  # characters of a choice's name and value
STEPS = {"back": ("◀ Previous", -1), "next": ("Next ▶", 1)}
NO_PAGE = "That page of the rules is not there any more: `/game rules` shows them afresh."


class RulesButton(
    PersistentButton,
    template=r"idz:ru:(?P<game>[a-z]{1,20}):(?P<page>[0-9]{1,6}):(?P<step>back|next)",
):
    """Previous or Next on a page of the rules: goes to page ``page`` (counted from 0)."""

    def __init__(self, game: str, page: int | None, step: str, disabled: bool = False):
        label, _ = STEPS[step]
        style = discord.ButtonStyle.secondary
        super().__init__("ru", game, page, step, label=label, style=style, disabled=disabled)
        self.game = game
        self.page = page
        self.step = step

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in GAMES or self.page is None or self.page >= len(rules_pages(self.game)):
            await refuse(interaction, NO_PAGE)
            return
        await interaction.edit_original_response(**rules_message(interaction, self.game, self.page))


def rules_view(game: str, page: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = len(rules_pages(game)) - 1
    for step, (_, direction) in STEPS.items():
        goes_to = min(max(page + direction, 0), last)
        view.add_item(RulesButton(game, goes_to, step, disabled=goes_to == page))
    return view


def rules_message(interaction: discord.Interaction, game: str, page: int) -> dict:
    """Page ``page`` of a game's rules: its embed (with a link to the full page when the
    operator published them) and the buttons to the pages around it."""
    pages = rules_pages(game)
    shown = pages[page]
    title = GAMES[game].title
    embed = discord.Embed(title=clip(f"{title}: {shown.title}", 256), description=shown.text)
    embed.set_footer(text=f"{page + 1} / {len(pages)}")
    docs = client_of(interaction).settings.docs_url.rstrip("/")
    if docs:
        embed.add_field(name="Full rules", value=f"{docs}/{game}.md", inline=False)
    return {"embed": embed, "view": rules_view(game, page)}


async def show(interaction: discord.Interaction, game: str, section: str | None) -> None:
    try:
        page = 0 if section is None else section_index(game, section)
    except UnknownSection as unknown:
        names = ", ".join(f"**{name}**" for name in unknown.sections)
        await refuse(interaction, f"{GAMES[game].title} has no such section. Its sections: {names}")
        return
    await tell_with(interaction, rules_message(interaction, game, page))


def section_choices(game: str | None, typed: str) -> list[app_commands.Choice[str]]:
    """The headings of the chosen game that contain what was typed; before a game is chosen,
    every game's (named with their game)."""
    games = [game] if game in GAMES else list(GAMES)
    choices = []
    for key in games:
        for heading in matching_sections(key, typed[:CHOICE_LIMIT]):
            name = heading if len(games) == 1 else f"{GAMES[key].title}: {heading}"
            choices.append(
                app_commands.Choice(name=clip(name, CHOICE_LIMIT), value=heading[:CHOICE_LIMIT])
            )
    return choices[:CHOICES_LIMIT]
