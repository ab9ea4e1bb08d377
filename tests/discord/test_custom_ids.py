"""The persistent buttons' custom ids: what each spells, and the button rebuilt from it.

Boards posted before a restart carry these ids, so their spelling is a stored format: it must
not drift when the buttons' code changes.
"""

from __future__ import annotations

import asyncio

import discord
import pytest

from cogs.analysis import PostAnalysisButton
from cogs.common.buttons import PersistentButton
from cogs.common.game_buttons import (
    DYNAMIC_ITEMS,
    AnalysisButton,
    AnswerButton,
    BoardButton,
    ChallengeButton,
    ClaimButton,
    DrawAnswerButton,
    HelpButton,
    RematchButton,
    RollButton,
)
from cogs.learn import CourseButton, LessonButton
from cogs.replay import ReplayButton
from cogs.rules import RulesButton
from cogs.takeback import TakebackAnswerButton
from cogs.tournaments import TournamentButton

BUTTONS = [
    (ChallengeButton(7, "accept"), "idz:ch:7:accept", "Accept", discord.ButtonStyle.success),
    (ChallengeButton(7, "decline"), "idz:ch:7:decline", "Decline", discord.ButtonStyle.danger),
    (BoardButton(12, 3, "moves"), "idz:g:12:3:moves", "Legal moves", discord.ButtonStyle.secondary),
    (
        BoardButton(12, 3, "resign!"),
        "idz:g:12:3:resign!",
        "Yes, resign",
        discord.ButtonStyle.danger,
    ),
    (RollButton(12, 4), "idz:r:12:4", "Roll", discord.ButtonStyle.primary),
    (AnswerButton(12, 5, "accept"), "idz:a:12:5:accept", "Accept", discord.ButtonStyle.success),
    (AnswerButton(12, 5, "refuse"), "idz:a:12:5:refuse", "Refuse", discord.ButtonStyle.secondary),
    (DrawAnswerButton(12, "yes"), "idz:dr:12:yes", "Accept draw", discord.ButtonStyle.success),
    (DrawAnswerButton(12, "no"), "idz:dr:12:no", "Decline", discord.ButtonStyle.secondary),
    (ClaimButton(12), "idz:cl:12", "Claim the win", discord.ButtonStyle.primary),
    (RematchButton(12), "idz:rm:12", "Rematch", discord.ButtonStyle.primary),
    (AnalysisButton(12), "idz:an:12", "Analysis", discord.ButtonStyle.secondary),
    (
        PostAnalysisButton(12),
        "idz:anp:12",
        "Post in the game's thread",
        discord.ButtonStyle.primary,
    ),
    (
        TakebackAnswerButton(12, 6, "yes"),
        "idz:tb:12:6:yes",
        "Accept takeback",
        discord.ButtonStyle.success,
    ),
    (ReplayButton(12, 99, 40, "next"), "idz:rp:12:99:40:next", "▶", discord.ButtonStyle.secondary),
    (HelpButton(), "idz:help", "Help", discord.ButtonStyle.secondary),
    (RulesButton("shax", 3, "next"), "idz:ru:shax:3:next", "Next ▶", discord.ButtonStyle.secondary),
    (
        RulesButton("jikaida", 0, "back"),
        "idz:ru:jikaida:0:back",
        "◀ Previous",
        discord.ButtonStyle.secondary,
    ),
    (
        LessonButton("shax", "first-removal", 2, "answer", label="Answer"),
        "idz:le:shax:first-removal:2:answer",
        "Answer",
        discord.ButtonStyle.primary,
    ),
    (
        LessonButton("shax", "board", 3, "c1", label="No"),
        "idz:le:shax:board:3:c1",
        "No",
        discord.ButtonStyle.primary,
    ),
    (CourseButton("all"), "idz:lc:all", "Courses", discord.ButtonStyle.secondary),
    (CourseButton("shax", label="Shax"), "idz:lc:shax", "Shax", discord.ButtonStyle.secondary),
    (TournamentButton(5, "join"), "idz:t:5:join", "Join", discord.ButtonStyle.success),
    (TournamentButton(5, "leave"), "idz:t:5:leave", "Leave", discord.ButtonStyle.secondary),
]

FIELDS = (
    "challenge_id",
    "game_id",
    "version",
    "user_id",
    "ply",
    "action",
    "move",
    "answer",
    "game",
    "page",
    "step",
    "course",
    "lesson",
    "event_id",
)


def fields(button: PersistentButton) -> dict:
    return {name: getattr(button, name) for name in FIELDS if hasattr(button, name)}


def rebuilt(custom_id: str) -> PersistentButton:
    """The button discord.py makes of a click on ``custom_id`` after a restart."""
    extra = (
        TakebackAnswerButton,
        ReplayButton,
        RulesButton,
        LessonButton,
        CourseButton,
        PostAnalysisButton,
        TournamentButton,
    )
    for cls in (*DYNAMIC_ITEMS, *extra):
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match:
            return asyncio.run(cls.from_custom_id(None, None, match))
    raise AssertionError(f"no button answers {custom_id}")


@pytest.mark.parametrize(("button", "custom_id", "label", "style"), BUTTONS)
def test_each_button_spells_its_custom_id_and_is_rebuilt_from_it(button, custom_id, label, style):
    assert (button.custom_id, button.item.label, button.item.style) == (custom_id, label, style)
    again = rebuilt(custom_id)
    assert type(again) is type(button)
    assert fields(again) == fields(button)
    assert again.custom_id == custom_id


def test_a_number_that_is_no_id_is_rebuilt_as_none_and_spelled_0():
    again = rebuilt("idz:g:99999999999999999999:3:moves")  # 20 digits: beyond any id
    assert (again.game_id, again.version, again.action) == (None, 3, "moves")
    assert again.custom_id == "idz:g:0:3:moves"


def test_the_shared_base_matches_no_custom_id():
    for custom_id in ("", "idz:", "idz:g:1:1:moves", "(?!)"):
        assert PersistentButton.__discord_ui_compiled_template__.fullmatch(custom_id) is None
