"""``/idzeva help`` and the Help button of a newcomer's challenge (issue 36): the same private
answer, naming only commands that exist, and a button that survives a restart."""

from __future__ import annotations

import re

from .helpers import answer, challenge, current, labels, start_game

TITLE = "Idzeva: board games with your friends"
GAMES = (
    "**The games**\n"
    "• **Shax, the Somali mill game**: `/shax challenge`\n"
    "• **Tchela, a four-row mancala**: `/tchela challenge`\n"
    "• **Chebache, a race with a King**: `/chebache challenge`\n"
    "• **Šačidjun, a race round a ring**: `/sachi challenge`\n"
    "• **Poron Jikaida and Pastang**: `/jikaida challenge`\n"
)


def expected_help(bot_id: int) -> str:
    return GAMES + (
        "\n**Start one**\n"
        "Challenge a friend: `/<game> challenge opponent:@friend` (leave `opponent` empty for "
        "an open challenge: anyone here may accept). They accept with the button.\n"
        f"Or play me: challenge <@{bot_id}> as the opponent, at `level` `easy`, `normal`, "
        "`hard`.\n"
        "\n**The commands you will use most**\n"
        "`/<game> move` (e.g. `/shax move`) plays a move: start typing to see the legal ones. "
        "The board's buttons roll, offer a draw, take back or resign.\n"
        "`/game board` shows a game's board, and `/game list` your games here.\n"
        "`/game rules` shows a game's rules, a section at a time (a summary first).\n"
        "\n**Rules and lessons**\n"
        "`/game rules` for each game's rules; `/game learn` for lessons."
    )


def private_help(result) -> str:
    said = answer(result)
    assert said.ephemeral, said
    (embed,) = said.embeds
    assert embed.title == TITLE
    return embed.description


async def test_idzeva_help_is_private_and_tells_a_newcomer_what_to_do(world):
    w = world
    text = private_help(await w.carol.slash(w.channel, "idzeva help"))
    assert text == expected_help(w.env.bot.user.id)


async def test_help_names_only_commands_that_exist(world):
    w = world
    text = private_help(await w.carol.slash(w.channel, "idzeva help"))
    named = set(re.findall(r"`/([a-z]+(?: [a-z]+)?)", text))
    tree = {c.qualified_name for c in w.env.bot.tree.walk_commands()}
    assert named == {
        "shax challenge",
        "tchela challenge",
        "chebache challenge",
        "sachi challenge",
        "jikaida challenge",
        "shax move",
        "game board",
        "game list",
        "game rules",
        "game learn",
    }
    assert named <= tree


async def test_a_first_timers_challenge_has_help_and_a_regulars_has_not(world):
    w = world
    first = await challenge(w.alice, w.bob, w.channel)  # neither has played here
    assert labels(first) == ["Accept", "Decline", "Help"]
    await w.bob.click(first, label="Decline")
    await start_game(w)  # now Alice and Bob have a game here
    again = await challenge(w.alice, w.bob, w.channel)
    assert labels(again) == ["Accept", "Decline"]
    newcomer = await challenge(w.alice, w.carol, w.channel)  # Carol has never played here
    assert labels(newcomer) == ["Accept", "Decline", "Help"]
    by_newcomer = await challenge(w.carol, w.bob, w.channel)  # nor has she challenged
    assert labels(by_newcomer) == ["Accept", "Decline", "Help"]


async def test_the_help_button_answers_whoever_clicks_privately_even_after_a_restart(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    expected = expected_help(w.env.bot.user.id)
    assert private_help(await w.carol.click(message, label="Help")) == expected  # a bystander
    assert private_help(await w.bob.click(message, label="Help")) == expected
    await w.restart()  # a fresh client rebuilds the button from its custom id
    assert private_help(await w.alice.click(message, custom_id="idz:help")) == expected
    assert labels(current(w.channel, message)) == ["Accept", "Decline", "Help"]  # still pending
