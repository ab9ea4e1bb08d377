"""``/sachi ...``: challenge (with partners), roll, move and redemption offers. Everything
else is in ``/game``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from games.sachidjun import parse_counts, parse_home

from . import autocomplete, challenge_flow, play
from .common.answers import refuse
from .common.options import ChallengeOptions, challenge_options

KIND = "sachidjun"
OFFER_KINDS = [
    app_commands.Choice(name="exchange: their pieces you hold for yours they hold", value="give"),
    app_commands.Choice(
        name="position: send your pieces home, get captured ones back", value="home"
    ),
]
ADDRESSEES = [
    app_commands.Choice(name="their raža player", value="r"),
    app_commands.Choice(name="their čadra player", value="c"),
]


OFFER_HELP = (
    "Write `get` and `give` as counts of pieces, e.g. `1r` or `2r 1c` (r raža, c čadra), and "
    "`home` as pieces on cells, e.g. `rW3 cN2`. The offer then reads "
    "`offer:give(2r,1c)+get(1r)` or `offer:home(rW3,cN2)+get(1c)`."
)
FIELD_LIMIT = 60  # characters in one field: far more than any real offer needs


def offer_problem(get: str, give: str | None, home: str | None) -> str | None:
    """Why the fields cannot make an offer (the notation to use), or None when they read.
    Only the form is checked here; the game judges the offer itself."""

    def items(text: str) -> list[str]:
        return text.replace(",", " ").split()

    fields = [("get", get), ("give", give or ""), ("home", home or "")]
    for name, text in fields:
        if len(text) > FIELD_LIMIT or not text.isascii():
            return f"`{name}` is not something I can read. {OFFER_HELP}"
    for name, text in fields[:2]:
        if (text or name == "get") and parse_counts(",".join(items(text)).lower()) is None:
            return f"`{name}`: `{text.strip()[:20]}` is not a count of pieces. {OFFER_HELP}"
    cells = [part[:1].lower() + part[1:].upper() for part in items(home or "")]
    if home and parse_home(",".join(cells)) is None:
        return f"`home`: `{home.strip()[:20]}` is not pieces on cells. {OFFER_HELP}"
    return None


def offer_text(kind: str, get: str, give: str | None, home: str | None, to: str | None) -> str:
    """The engine's offer notation from the command's fields: ``offer:give(2r,1c)+get(1r)``
    or ``offer:home(rW3,cN2)+get(1c)@r``. Spaces between items read as commas."""

    def items(text: str) -> str:
        return ",".join(text.replace(",", " ").split())

    head = f"give({items(give or '')})" if kind == "give" else f"home({items(home or '')})"
    return f"offer:{head}+get({items(get)})" + (f"@{to}" if to else "")


@app_commands.guild_only()
class SachidjunCog(
    commands.GroupCog, group_name="sachi", group_description="Šačidjun, a race round a ring"
):
    kind = KIND

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(description="Challenge someone (and partners) to a game of Šačidjun")
    @app_commands.describe(
        partner="Your partner (plays one colour of your side)",
        opponent_partner="Your opponent's partner",
    )
    @challenge_options(
        opponent="Who you want to play; empty: an open one-against-one challenge (anyone here)",
        level="How well I play the seats you give me (any of them): normal by default",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        shared: ChallengeOptions,
        partner: discord.Member | None = None,
        opponent_partner: discord.Member | None = None,
    ) -> None:
        await challenge_flow.challenge(
            interaction, KIND, shared, partner=partner, opponent_partner=opponent_partner
        )

    @app_commands.command(description="Roll the two idzeva (eight-sided dice) of your sub-turn")
    @app_commands.describe(game="Which game")
    async def roll(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.roll(interaction, KIND, game)

    @app_commands.command(description="Move: M-SW, W3-N2, W3xN2; or a whole sub-turn: M-SW W2-W7")
    @app_commands.describe(
        moves="One move or your whole sub-turn (spaced); start typing to see them",
        game="Which game",
    )
    async def move(
        self, interaction: discord.Interaction, moves: str, game: str | None = None
    ) -> None:
        await play.move(interaction, KIND, moves, game)

    @app_commands.command(description="Offer a redemption to the other side (before your move)")
    @app_commands.describe(
        kind="Exchange prisoners, or send pieces home to get prisoners back",
        get="Your captured pieces you want back, e.g. 1r or 2r 1c (r raža, c čadra)",
        give="Exchange: their pieces you hold that you give back, e.g. 2r 1c",
        home="Position: your pieces on the track to send home, e.g. rW3 cN2",
        to="Which of their players the offer is for, when they are two",
        game="Which game",
    )
    @app_commands.choices(kind=OFFER_KINDS, to=ADDRESSEES)
    async def offer(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        get: str,
        give: str | None = None,
        home: str | None = None,
        to: app_commands.Choice[str] | None = None,
        game: str | None = None,
    ) -> None:
        if kind.value == "give" and not give:
            await refuse(interaction, "An exchange needs `give`: their pieces you hold, e.g. 1r.")
            return
        if kind.value == "home" and not home:
            await refuse(interaction, "A position offer needs `home`: e.g. rW3 cN2.")
            return
        problem = offer_problem(
            get, give if kind.value == "give" else None, home if kind.value == "home" else None
        )
        if problem:
            await refuse(interaction, problem)
            return
        text = offer_text(kind.value, get, give, home, to.value if to else None)
        await play.move(interaction, KIND, text, game)

    @move.autocomplete("moves")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await autocomplete.move_autocomplete(interaction, current, KIND)

    @roll.autocomplete("game")
    @move.autocomplete("game")
    @offer.autocomplete("game")
    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await autocomplete.game_autocomplete(interaction, current, KIND)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SachidjunCog(bot))
