"""The client as the cogs see it: what they reach through ``interaction.client``.

``bot.app.IdzevaBot`` satisfies this Protocol. The cogs name the Protocol, never the bot's
class, so that nothing in ``cogs`` imports the composition root.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.domain.service import GameService, ServiceError

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.domain.opponent import Opponent


class IdzevaClient(Protocol):
    """The bot: its game service, settings and bot opponent, and discord.py's lookups."""

    service: GameService
    settings: Settings
    opponent: Opponent | None  # the bot's own seats; None before login
    clock: Callable[[], float]

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def guilds(self) -> Sequence[discord.Guild]: ...

    @property
    def cogs(self) -> Mapping[str, Any]: ...

    def get_channel(self, id: int, /) -> Any: ...  # noqa: A002  (discord.py's name)

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, id: int, /) -> discord.User | None: ...  # noqa: A002

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    async def post_notices(self) -> None:
        """Post what the outbox holds that is due (the deadline loop's work, at once)."""
        ...


def client_of(interaction: discord.Interaction) -> IdzevaClient:
    return interaction.client  # type: ignore[return-value]


def service(interaction: discord.Interaction) -> GameService:
    return client_of(interaction).service


def guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("Games are played in servers, not in direct messages.")
    return interaction.guild_id
