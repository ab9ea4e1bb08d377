"""``/game notify``: where each player wants "your turn" (``bot/domain/notify.py``; the
delivery itself is in ``cogs/common/turns.py``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.domain.notify import (
    DEFAULT_HOUR,
    DEFAULT_ZONE,
    NotifyChoice,
    NotifySettings,
    zone_suggestions,
)
from bot.domain.service import ServiceError

from .common.answers import answer_error, tell
from .common.client import guild_id, service

WHERE_CHOICES = [
    app_commands.Choice(name="thread (a mention in the game's thread)", value="thread"),
    app_commands.Choice(name="dm (a direct message)", value="dm"),
    app_commands.Choice(name="both", value="both"),
    app_commands.Choice(name="off", value="off"),
]
WORDS = {
    "thread": "a mention in the game's thread",
    "dm": "a direct message",
    "both": "a mention in the game's thread and a direct message",
    "off": "nowhere (no notice)",
}


async def command(interaction: discord.Interaction, choice: NotifyChoice) -> None:
    try:
        guild = guild_id(interaction)
        svc = service(interaction)
        if choice == NotifyChoice():
            chosen = await svc.notify_settings(guild, interaction.user.id)
            intro = "Your turn notices in this server"
        else:
            chosen = await svc.set_notify(guild, interaction.user.id, choice)
            intro = "Saved. Your turn notices in this server"
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await tell(interaction, f"{intro}: {WORDS[chosen.route]}; {daily_words(chosen)}.")


def daily_words(chosen: NotifySettings) -> str:
    """The digest part of the answer; its next time in the reader's own clock (``<t:...>``)."""
    at = f"{chosen.hour:02d}:00 {chosen.zone}"
    if not chosen.digest:
        chose_a_time = (chosen.hour, chosen.zone) != (DEFAULT_HOUR, DEFAULT_ZONE)
        return f"no daily DM (`digest:true` sends one at {at})" if chose_a_time else "no daily DM"
    following = f", next <t:{chosen.next_digest}:f>" if chosen.next_digest else ""
    return f"a daily DM of the games where it is your turn at {at}{following}"


async def zone_autocomplete(current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=zone, value=zone) for zone in zone_suggestions(current)]
