"""Every game's challenge command has the same five shared options (``cogs/common/options.py``):
``opponent`` first, the game's own options, then ``level``, ``rated``, ``time`` and ``hints``
(issue 34), each with
the same description and choices (Šačidjun words ``opponent`` and ``level`` its own way:
partners, and seats the bot may take)."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

pytestmark = pytest.mark.sqlite_only  # the command tree is the same on every store

HOUR = 3600
OPEN = "Who you want to play; leave it empty for an open challenge (anyone here)"
LEVEL = "When you challenge me: how well I play (normal by default)"
SHARED = {
    "rated": "Counts for the ratings (default: yes); no makes a friendly game",
    "time": "Time per move (default: the server's setting, else 3 days)",
    "hints": "Allow /game hint in this friendly game (default: no; needs rated:False)",
}
OWN = {  # each game's own options, between the shared ones, in order
    "shax challenge": ["first", "variant"],
    "tchela challenge": ["first", "board", "stores"],
    "chebache challenge": ["first"],
    "jikaida challenge": ["first", "variant", "colour"],
    "sachi challenge": ["partner", "opponent_partner"],
}
LEVELS = [
    ("easy (quick, beatable)", "easy"),
    ("normal (about a second a move)", "normal"),
    ("hard (several seconds a move)", "hard"),
]
# The times per move a challenge offers, as Discord shows them and in hours.
TIME_NAMES = "1 hour, 6 hours, 12 hours, 1 day, 2 days, 3 days, 5 days, 7 days, 14 days"
TIME_HOURS = [1, 6, 12, 24, 48, 72, 120, 168, 336]


def challenges(world) -> dict[str, app_commands.Command]:
    tree = world.env.bot.tree
    return {
        command.qualified_name: command
        for command in tree.walk_commands()
        if isinstance(command, app_commands.Command) and command.name == "challenge"
    }


async def test_every_challenge_command_has_the_shared_options(world):
    commands = challenges(world)
    assert sorted(commands) == sorted(OWN)
    for name, command in commands.items():
        options = {param.name: param for param in command.parameters}
        assert list(options) == ["opponent", *OWN[name], "level", "rated", "time", "hints"], name
        opponent, level = options["opponent"], options["level"]
        rated, time = options["rated"], options["time"]
        assert opponent.type is discord.AppCommandOptionType.user
        assert level.type is discord.AppCommandOptionType.string
        assert rated.type is discord.AppCommandOptionType.boolean
        assert time.type is discord.AppCommandOptionType.integer
        assert not any(options[shared].required for shared in ("opponent", "level", "rated"))
        assert not time.required and rated.default is True
        assert [(c.name, c.value) for c in level.choices] == LEVELS, name
        assert ", ".join(choice.name for choice in time.choices) == TIME_NAMES, name
        assert [choice.value for choice in time.choices] == [h * HOUR for h in TIME_HOURS]
        assert (rated.description, time.description) == (SHARED["rated"], SHARED["time"])
        hints = options["hints"]
        assert hints.type is discord.AppCommandOptionType.boolean
        assert not hints.required and hints.default is False
        assert hints.description == SHARED["hints"], name
        if name == "sachi challenge":
            assert opponent.description.startswith("Who you want to play; empty: an open one")
            assert level.description.startswith("How well I play the seats you give me")
        else:
            assert (opponent.description, level.description) == (OPEN, LEVEL), name


async def test_the_shared_options_reach_the_challenge(world):
    """What the shared options say is what the challenge holds, beside the game's own: a
    friendly Chebache challenge to Bob at six hours a move, Alice moving first."""
    w = world
    await w.alice.slash(
        w.channel, "chebache challenge", opponent=w.bob, first="me", rated=False, time=6 * HOUR
    )
    row = await w.env.bot.store.get_challenge(1)
    assert (row.opponent_id, row.first) == (w.bob.id, "me")
    assert row.options["rated"] is False and row.options["time"] == 6 * HOUR
    assert "level" not in row.options
