"""Options the commands share.

Game and challenge numbers: one rule everywhere, in commands, autocomplete and button ids
alike: a number is ASCII digits only (``²`` and ``٣`` are digits to Python, not to us) and
fits SQLite's integer, at most 2**63 - 1; anything else is "not a game number", answered like
any other refusal.

Challenges: every game's ``challenge`` command has ``opponent``, ``level``, ``rated``,
``time`` and ``hints``, added by ``challenge_options`` with their descriptions and choices.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.domain.clocks import TIME_CHOICES as TIMES
from bot.domain.service import ServiceError

MAX_ID = 2**63 - 1  # SQLite's largest integer
ID_PATTERN = r"[0-9]{1,19}"  # for DynamicItem templates; parse_id still checks the range


def parse_id(text: str) -> int | None:
    """The number ``text`` spells, or None when it is not a plain number we can store."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    number = int(text)
    return number if number <= MAX_ID else None


def parse_game_option(text: str) -> int:
    """The ``game`` option: ``12`` (what the autocomplete sends) or ``#12``; nothing else, so
    ``1 OR 1=1`` is not game 1."""
    word = text.strip()
    number = parse_id(word[1:] if word.startswith("#") else word)
    if number is None:
        shown = text.strip().replace("`", "")[:20] or "(nothing)"
        raise ServiceError(f"`{shown}` is not a game number; pick one from the list.")
    return number


# ---- the options of every challenge -------------------------------------------------

OPEN_HELP = "Who you want to play; leave it empty for an open challenge (anyone here)"
# The bot opponent's strength, for a challenge to the bot itself (search.LEVELS).
LEVEL_CHOICES = [
    app_commands.Choice(name="easy (quick, beatable)", value="easy"),
    app_commands.Choice(name="normal (about a second a move)", value="normal"),
    app_commands.Choice(name="hard (several seconds a move)", value="hard"),
]
LEVEL_HELP = "When you challenge me: how well I play (normal by default)"
RATED_HELP = "Counts for the ratings (default: yes); no makes a friendly game"
HINTS_HELP = "Allow /game hint in this friendly game (default: no; needs rated:False)"
# Hours or days per move (seconds as the value).
TIME_CHOICES = [app_commands.Choice(name=name, value=seconds) for name, seconds in TIMES]
TIME_HELP = "Time per move (default: the server's setting, else 3 days)"


@dataclass(frozen=True)
class ChallengeOptions:
    """What every challenge asks, whatever the game (``play.challenge`` takes it)."""

    opponent: discord.Member | None  # None: an open challenge
    level: str | None  # how well the bot plays, when it is challenged
    rated: bool
    time: int | None  # seconds per move; None: the server's default
    hints: bool = False  # /game hint allowed (a friendly game only)


def _option(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Parameter(name, kind, default=default, annotation=annotation)


FIRST_OPTIONS = (_option("opponent", discord.Member | None, None),)
LAST_OPTIONS = (
    _option("level", app_commands.Choice[str] | None, None),
    _option("rated", bool, True),
    _option("time", app_commands.Choice[int] | None, None),
    _option("hints", bool, False),
)
Callback = Callable[..., Coroutine[Any, Any, None]]


def challenge_options(
    *, opponent: str = OPEN_HELP, level: str = LEVEL_HELP
) -> Callable[[Callback], Callback]:
    """Give a game's challenge command the options every challenge has: ``opponent`` first,
    then the game's own, then ``level``, ``rated``, ``time`` and ``hints``, with their descriptions
    (``opponent`` and ``level`` may be said the game's way) and choices.

    The command is written ``async def challenge(self, interaction, shared:
    ChallengeOptions, <its own options>)`` and decorated with this below
    ``app_commands.command`` and its own ``describe``/``choices``. discord.py reads the
    options from the signature (``inspect.signature``, which honours ``__signature__``): the
    one it reads has the shared options in place of ``shared``, and the call gathers them
    into a ``ChallengeOptions``."""

    def decorate(func: Callback) -> Callback:
        # Annotations as objects, read in the game's module (the command's globals are ours).
        written = list(inspect.signature(func, eval_str=True).parameters.values())
        head, own = written[:2], written[3:]  # (self, interaction), shared, the game's own

        @functools.wraps(func)
        async def command(self: Any, interaction: discord.Interaction, **options: Any) -> None:
            level, time = options.pop("level", None), options.pop("time", None)
            shared = ChallengeOptions(
                opponent=options.pop("opponent", None),
                level=level.value if level else None,
                rated=options.pop("rated", True),
                time=time.value if time else None,
                hints=options.pop("hints", False),
            )
            await func(self, interaction, shared, **options)

        parameters = [*head, *FIRST_OPTIONS, *own, *LAST_OPTIONS]
        command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        described = {
            "opponent": opponent,
            "level": level,
            "rated": RATED_HELP,
            "time": TIME_HELP,
            "hints": HINTS_HELP,
        }
        app_commands.describe(**described)(command)
        return app_commands.choices(level=LEVEL_CHOICES, time=TIME_CHOICES)(command)

    return decorate
