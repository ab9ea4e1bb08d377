"""Persistent buttons: they outlive the process, rebuilt from their custom id after a restart.

A button's class spells its custom id and names what it acts on; what a click does is its
``on_click`` flow, set by ``cogs/clicks.py`` (the flows sit above this package, and post
boards that carry these buttons: a button that imported its flow would make a cycle). A
subclass may instead define its own ``callback``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord

from .answers import SORRY, acknowledge, refuse
from .options import parse_id

log = logging.getLogger(__name__)

ID_FIELDS = ("challenge_id", "game_id", "version")  # None when a custom id's number is no id
Click = Callable[..., Awaitable[None]]  # a flow: (interaction, *the custom id's parts)


def shown(number: int | None) -> str:
    """A number in a custom id; 0 (no game, no challenge) for one that was not an id."""
    return "0" if number is None else str(number)


def guarded(callback: Callable[[Any, discord.Interaction], Awaitable[None]]):
    """Acknowledge a click at once, and answer the clicker even when the button's code fails
    (discord.py would only log it); a custom id whose numbers are no ids is refused."""

    @functools.wraps(callback)
    async def wrapper(item: Any, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        if any(getattr(item, name, 0) is None for name in ID_FIELDS):
            await refuse(interaction, "This button names no game I can find.")
            return
        try:
            await callback(item, interaction)
        except Exception:
            log.exception("button %s failed", getattr(item, "custom_id", item))
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, SORRY)

    return wrapper


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A button that outlives the process. Its custom id ``idz:KIND:PART:...`` names what it
    acts on, and after a restart discord.py rebuilds it from that id: ``from_custom_id``
    passes the subclass's template groups, in order, to the subclass's constructor (numbers
    as ``parse_id`` reads them, so None where a number is no id, which ``guarded`` refuses).
    This base class matches no custom id and is never registered.

    A click runs the class's ``on_click`` flow with the interaction and the parts the button
    was made with (``cogs/clicks.py`` sets it); a subclass may define its own ``callback``."""

    on_click: ClassVar[Click | None] = None

    def __init__(
        self,
        kind: str,
        *parts: int | str | None,
        label: str,
        style: discord.ButtonStyle,
        disabled: bool = False,
    ):
        spelled = (part if isinstance(part, str) else shown(part) for part in parts)
        custom_id = ":".join(("idz", kind, *spelled))
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled)
        )
        self.parts = parts

    @classmethod
    def handled_by(cls, flow: Click) -> None:
        """Make ``flow`` what a click on this class's buttons runs."""
        cls.on_click = flow

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        flow = type(self).on_click
        if flow is None:
            raise RuntimeError(f"no flow is wired to {type(self).__name__}")
        await flow(interaction, *self.parts)

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # noqa: ANN001
        return cls(*(read_part(text) for text in match.groups()))


def read_part(text: str) -> int | str | None:
    """A custom id's part: a number (None when it is no id we can store), else the word."""
    return parse_id(text) if text.isdigit() else text


def yes_no_style(positive: bool) -> discord.ButtonStyle:
    return discord.ButtonStyle.success if positive else discord.ButtonStyle.secondary


def single_button_view(item: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return view
