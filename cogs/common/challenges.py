"""A challenge as a Discord message: its text, its embed, its buttons."""

from __future__ import annotations

import discord

from bot.domain import bot_seats, hints
from bot.domain.clocks import describe
from bot.domain.service import ChallengeView

from .game_buttons import ChallengeButton, HelpButton
from .text import COLOUR_CHALLENGE, mention, team_names


def challenge_embed(challenge: ChallengeView, note: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=f"{challenge.title} challenge", colour=COLOUR_CHALLENGE)
    first = {"me": "challenger", "them": "challenged player", "random": "drawn at random"}
    mine, theirs = challenge.teams
    verb = "challenge" if len(mine) > 1 else "challenges"
    if challenge.is_open:
        lines = [f"{team_names(mine)} {verb} anyone here: the first to accept plays."]
    else:
        lines = [f"{team_names(mine)} {verb} {team_names(theirs)}."]
    if challenge.seats:
        again = "Sides"
        if challenge.rematch_of:
            again = f"Rematch of game #{challenge.rematch_of}, sides swapped"
        seats = zip(challenge.seat_names, challenge.seats, strict=True)
        lines.append(f"{again}: " + ", ".join(f"{mention(user)} {name}" for name, user in seats))
    elif challenge.draws_sides:
        lines.append("Sides and colours: drawn with the server's dice once everyone accepts.")
    else:
        lines.append(f"Plays first: {first.get(challenge.first, challenge.first)}")
    lines += [
        f"{mention(challenge.challenger_id)} plays {name}: {value}"
        for name, value in challenge.options
        if name == "colour"
    ]
    options = dict(challenge.options)
    levels = sorted(set(options.get("bot_levels", {}).values()))  # a rematch's bot seats
    for level in [options["level"]] if "level" in options else levels:
        lines.append(f"The bot plays at level **{level}**.")
    if options.get("rated", True) is False:
        lines.append("Friendly game: not rated.")
    if hints.chosen(options):
        lines.append("Hints allowed (`/game hint`).")
    timeout = bot_seats.timeout_line(options)
    if timeout:
        lines.append(timeout)
    if challenge.variants:
        lines.append(f"Variant: {', '.join(challenge.variants)}")
    if challenge.time:
        lines.append(f"Time per move: {describe(challenge.time)}")
    if challenge.status == "pending" and len(challenge.invited) > 1:
        if challenge.accepted:
            lines.append(f"Accepted: {team_names(challenge.accepted)}")
        lines.append(f"Waiting for: {team_names(challenge.waiting_for)}")
    if challenge.status == "pending":
        lines.append(f"Expires <t:{int(challenge.expires_at)}:R>.")
    else:
        lines.append(f"**{note or challenge.status.capitalize()}**")
    embed.description = "\n".join(lines)
    return embed


def challenge_content(challenge: ChallengeView, bot_id: int | None = None) -> str:
    """The text of a challenge message: whom it calls (the bot opponent, ``bot_id``, is not
    called: it accepts at once)."""
    if challenge.is_open:
        return (
            f"Open {challenge.title} challenge: anyone here may accept; the first to accept plays."
        )
    people = [user for user in challenge.invited if user != bot_id]
    if not people:
        return f"{mention(bot_id)} accepts."
    called = " ".join(mention(user) for user in people)
    if challenge.rematch_of is not None:
        asker = mention(challenge.challenger_id)
        return f"{called}, {asker} asks for a rematch of {challenge.title} #{challenge.rematch_of}!"
    return f"{called}, you are challenged!"


def challenge_view(challenge: ChallengeView, *, newcomer: bool = False) -> discord.ui.View | None:
    """Accept and Decline while the challenge is pending; and Help when someone in it plays
    here for the first time (``newcomer``)."""
    if challenge.status != "pending":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(challenge.challenge_id, "accept"))
    view.add_item(ChallengeButton(challenge.challenge_id, "decline"))
    if newcomer:
        view.add_item(HelpButton())
    return view
