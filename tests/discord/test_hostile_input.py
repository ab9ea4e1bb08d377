"""Hostile values in every option of every command: a refusal or a sane answer, never an error.

The commands are read from the bot's own command tree, so a command added later is covered
without touching this file. Each free-text option gets every value of ``HOSTILE`` (a ``game``
option, all read by one parser, the numeric edges among them; the other options get ordinary
values), typed both into the command and into its autocomplete; choice
options get each of their choices (Discord sends nothing else) and member options the caller
themself. Games of every kind are in progress, and both players try, so the values reach the
engines' parsers on the player's turn and the turn checks otherwise. Afterwards the database is
exactly as before, and nothing was logged (the autouse ``no_logged_errors`` fixture).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import discord
from discord import app_commands

from bot.domain.learn.progress import TRY_FIRST
from bot.domain.rules_pages import rules_pages
from cogs.common.answers import SORRY
from cogs.common.buttons import single_button_view
from cogs.learn import NO_STEP, CourseButton, LessonButton
from cogs.rules import NO_PAGE, RulesButton
from games import GAMES

from .helpers import answer, challenge, play, public, refused, sent_mentions, start_game, updated

HOSTILE = [  # no "": Discord sends no empty option (it leaves the option out)
    " ",
    "0",
    "-1",
    "#",
    "1.5",
    "1e3",
    "99999999999999999999999",  # past SQLite's integer
    str(2**63),  # one past it
    str(2**63 - 1),  # the largest: a number, of no game
    "1" * 5000,  # past Python's int digit limit (4,300)
    "1" * 4301 + "d6",
    "x" * 5000,
    "²",  # a digit to str.isdigit, not to int
    "٣",  # an Arabic-Indic three: a digit to int
    "１",  # a fullwidth one
    "1 OR 1=1",
    "'; DROP TABLE games; --",
    "\x00",
    "a\x07\x1b[31mb\r\n",
    "\u202eevil",
    "<@&1> @everyone @here",
    "`",
    "```",
    "😀🎲",
    "%s%n{0}",
    "1x",
    "one raza",
]
# The ``game`` options all go through one parser: the values that try a number's edges.
NUMBERS = [
    v for v in HOSTILE if v.strip().lstrip("-").isdigit() or v in ("1 OR 1=1", " ", "1.5", "\x00")
]
SANE = {"move": "d2", "moves": "M-W2", "get": "1r", "give": "1r", "home": "rW3", "dice": "2d8"}
# Commands that change the caller's own things by design: tried by Carol, who plays no game,
# so that the only changes are her own rows of these tables (``/game vacation days:1`` books
# her a day; nobody's clock moves; ``/game puzzle game:shax`` opens a puzzle for her, kept in
# ``bot_values``, and an answer that is a legal turn there is her first answer to it).
OWN_ROWS = {
    "game vacation": ("vacations",),
    "game puzzle": ("bot_values", "puzzle_answers"),
    "tournament create": ("tournaments",),
}
# Commands whose answer is public by design: a roll for anyone, a tournament's sign-up
# (Carol's: her events are her own rows, and no one joins them here).
PUBLIC = ("roll", "tournament create")


def database(path: str, *, but: tuple[str, ...] = ()) -> list[str]:
    return [
        line
        for line in _dump(path)
        if not line.startswith(tuple(f'INSERT INTO "{t}"' for t in but))
    ]


def _dump(path: str) -> list[str]:
    """Every row, but the players' notification settings: ``/game notify`` with each of its
    choices really sets them (and answers ephemerally, as checked)."""
    with sqlite3.connect(path) as db:
        return [line for line in db.iterdump() if 'INSERT INTO "notify_prefs"' not in line]


def fill(
    command: app_commands.Command, target: str, value: Any, caller: Any, channel: Any
) -> dict[str, Any]:
    """The options of one invocation: ``target`` gets ``value``, the required others sane ones."""
    options: dict[str, Any] = {}
    for param in command.parameters:
        if param.name == target:
            options[param.name] = value
        elif param.name == "opponent":  # left empty, a challenge is open: a public message
            options[param.name] = caller  # (the empty one: tests/discord/test_rematch.py)
        elif not param.required:
            continue
        elif param.choices:
            wanted = "home" if target == "home" else None
            values = [c.value for c in param.choices]
            options[param.name] = wanted if wanted in values else values[0]
        elif param.type is discord.AppCommandOptionType.user:
            options[param.name] = caller
        elif param.type is discord.AppCommandOptionType.channel:
            options[param.name] = channel
        else:
            options[param.name] = SANE.get(param.name, "1")
    return options


def tried_values(param: app_commands.Parameter, caller: Any, channel: Any, role: Any) -> list[Any]:
    if param.choices:
        return [c.value for c in param.choices]
    if param.type is discord.AppCommandOptionType.user:
        return [caller]
    if param.type is discord.AppCommandOptionType.channel:  # Discord sends only real ones
        return [channel]
    if param.type is discord.AppCommandOptionType.boolean:
        return [True, False]
    if param.type is discord.AppCommandOptionType.role:  # Discord sends only real ones
        return [role]
    if param.type is discord.AppCommandOptionType.string:
        return NUMBERS if param.name == "game" else HOSTILE
    if param.type is discord.AppCommandOptionType.integer:  # Discord keeps it in its range
        low, high = param.min_value or 0, param.max_value or 2**53 - 1
        return sorted(v for v in {low, 1, high} if low <= v <= high)
    raise AssertionError(f"no hostile values for a {param.type} option: add some")


async def start_every_kind(w) -> None:
    """One game of each kind between Alice and Bob, in its own thread."""
    for name in ("shax", "tchela", "chebache", "sachi", "jikaida"):
        result = await w.alice.slash(w.channel, f"{name} challenge", opponent=w.bob)
        updated(await w.bob.click(result.response, label="Accept"))


async def test_hostile_values_in_every_option_of_every_command(world, db_path):
    w = world
    await start_every_kind(w)
    kept = tuple(table for tables in OWN_ROWS.values() for table in tables)
    role = w.guild.create_role("members")
    before = database(db_path, but=kept)
    # A game's commands are typed by the player to move there, so the values reach its parser.
    games = await w.env.bot.service.list_games(w.guild.id, w.alice.id)
    to_move = {g.kind: g.to_move_user for g in games}
    cogs = {
        cog.app_command.name: cog.kind for cog in w.env.bot.cogs.values() if hasattr(cog, "kind")
    }
    commands = [c for c in w.env.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(commands) >= 20  # the tree is really walked
    assert {"game hint", "game analysis"} <= {c.qualified_name for c in commands}
    tried, plain = 0, []
    for command in commands:
        name = command.qualified_name
        kind = cogs.get(name.split()[0])
        caller = w.bob if kind and to_move[kind] == w.bob.id else w.alice
        if name in OWN_ROWS:
            caller = w.carol
        if not command.parameters:  # e.g. /idzeva help: its one invocation
            said = answer(await caller.slash(w.channel, name))
            assert SORRY not in (said.content or "") and said.ephemeral, (name, said)
            plain.append(name)
        for param in command.parameters:
            for value in tried_values(param, caller, w.channel, role):
                options = fill(command, param.name, value, caller, w.channel)
                result = await caller.slash(w.channel, name, **options)
                assert result.response is not None, (name, param.name, value, options)
                said = answer(result)
                assert SORRY not in (said.content or ""), (name, param.name, value)
                assert said.ephemeral or name in PUBLIC, (name, param.name, value, said)
                tried += 1
                if not isinstance(value, str):
                    continue
                others = {k: v for k, v in options.items() if k != param.name}
                if param.autocomplete:  # typed into the option itself ...
                    await caller.autocomplete(w.channel, name, param.name, value, **others)
                for other in command.parameters:  # ... and filled in while typing another
                    if other.autocomplete and other is not param:
                        filled = {**others, param.name: value}
                        filled.pop(other.name, None)
                        await caller.autocomplete(w.channel, name, other.name, "", **filled)
    assert tried > 400
    assert "idzeva help" in plain
    assert database(db_path, but=kept) == before
    booked = [line for line in _dump(db_path) if line.startswith('INSERT INTO "vacations"')]
    assert len(booked) == 1 and str(w.carol.id) in booked[0]  # her one day, and only hers


async def test_the_help_button_answers_anyone_privately_and_changes_nothing(world, db_path):
    """A newcomer's challenge carries Help: whoever clicks it (the challenged, the challenger,
    a bystander), again and again, is answered privately, and nothing is stored."""
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    before = database(db_path)
    for clicker in (w.bob, w.alice, w.carol, w.carol):
        said = answer(await clicker.click(message, label="Help"))
        assert said.ephemeral and SORRY not in (said.content or ""), said
        assert said.embeds and said.embeds[0].title, said
    assert database(db_path) == before


async def test_rules_buttons_with_any_page_answer_privately_and_change_nothing(world, db_path):
    """The rules' Previous / Next carry their page: the first and last page of every game
    show it; the pages that are none (past the end, the largest the custom id can spell) are
    refused privately."""
    w = world
    await start_every_kind(w)
    before = database(db_path)
    bot_channel = w.env.bot.get_channel(w.channel.id)
    for game in GAMES:
        last = len(rules_pages(game)) - 1
        for page in (0, last, last + 1, 999_999):
            forged = await bot_channel.send(
                view=single_button_view(RulesButton(game, page, "next"))
            )
            result = await w.carol.click(forged, label="Next ▶")
            if page <= last:  # the page itself, in place
                assert result.response.embeds[0].footer.text == f"{page + 1} / {last + 1}"
            else:
                assert refused(result) == NO_PAGE, (game, page)
    assert database(db_path) == before


# A display name is user input too: Markdown, mentions, a right-to-left override, 200 characters.
HOSTILE_NAME = "@everyone **b** <@&1>\u202e\n" + "y" * 200


async def test_a_player_with_a_hostile_display_name_plays_and_is_named_harmlessly(world):
    w = world
    mallory = w.guild.add_member(w.env.create_user("mallory"), nick=HOSTILE_NAME)
    match = await start_game(w, white=mallory, black=w.alice)
    await play(match, ["d2", "d3"])
    told = answer(await w.alice.slash(match.where, "game export"))
    data = json.loads(await told.attachments[0].read())
    kept = "@everyone **b** <@&1> " + "y" * 10  # one line, no direction mark, 32 characters
    assert [p["name"] for p in data["players"]] == [kept, "alice"]
    assert f'[White "{kept}"]' in (await told.attachments[1].read()).decode().splitlines()
    public(await w.alice.slash(match.where, "game resign"))  # mallory wins, rated
    stats = answer(await w.alice.slash(w.channel, "game stats", user=mallory)).embeds[0]
    assert stats.title == "@\u200beveryone \\*\\*b\\*\\* <@&1> " + "y" * 10 + ": all games"
    # Whatever the bot sent pinged nobody but the players (``sent_mentions`` checks no
    # @everyone and no roles).
    for entry in w.env.http_requests:
        payload = entry.json.get("data", entry.json) if isinstance(entry.json, dict) else None
        if payload and payload.get("content"):
            for users in sent_mentions(w.env, payload["content"]):
                assert set(users) <= {mallory.id, w.alice.id}


async def test_lesson_buttons_naming_no_step_answer_privately_and_change_nothing(world, db_path):
    """/game learn's buttons carry their course, lesson and step: those that name none (a
    course or lesson that is not there, a step past the lesson's end or none at all, a
    choice past the step's choices), and a Hint before any try, are refused privately."""
    w = world
    await w.alice.slash(w.channel, "game learn", course="shax")  # Alice's place: kept
    before = database(db_path)
    bot_channel = w.env.bot.get_channel(w.channel.id)
    forged = [
        (LessonButton("chess", "board", 1, "go"), NO_STEP),
        (LessonButton("shax", "castling", 1, "go"), NO_STEP),
        (LessonButton("shax", "board", 5, "go"), NO_STEP),
        (LessonButton("shax", "board", 9999, "hint"), NO_STEP),
        (LessonButton("shax", "board", None, "c0"), NO_STEP),
        (LessonButton("shax", "board", 2, "c7"), NO_STEP),
        (LessonButton("shax", "board", 1, "c0"), NO_STEP),  # step 1 only tells
        (LessonButton("shax", "board", 2, "go"), NO_STEP),  # step 2 asks a choice
        (LessonButton("shax", "castling", 1, "answer"), NO_STEP),
        (LessonButton("shax", "board", 99, "bot"), NO_STEP),
        (LessonButton("shax", "placement", 1, "hint"), TRY_FIRST),
        (CourseButton("chess"), "There is no course 'chess'"),
    ]
    for button, reason in forged:
        message = await bot_channel.send(view=single_button_view(button))
        result = await w.carol.click(message, label=button.item.label)
        # Answer and Play answer the click itself (a form, a public challenge), not deferred.
        said = result.followups[-1] if result.followups else result.response
        assert said.ephemeral and reason in said.content, (button.custom_id, said)
    assert database(db_path) == before
