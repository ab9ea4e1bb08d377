"""The Discord bot: opens the store, builds the game service, loads the cogs, runs the clock.

``create_bot`` is the one place that wires things together; tests call it with an
in-memory or temporary database, a fake clock and a seeded roller.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable

import discord
from discord.ext import commands, tasks

from games import DiceSpec

from .config import Settings
from .service import GameService, Notice
from .storage import GameStore, open_store
from .store import StoreError
from .workers import Workers

log = logging.getLogger("idzeva")

EXTENSIONS = (
    "cogs.shared",
    "cogs.dice",
    "cogs.shax",
    "cogs.tchela",
    "cogs.chebache",
    "cogs.sachidjun",
    "cogs.jikaida",
    "cogs.settings",
)
TICK_SECONDS = 60.0

NO_TOKEN_HELP = """No Discord token found (DISCORD_TOKEN in .env).

To run the bot:
  1. Create an application at https://discord.com/developers/applications
  2. Under "Bot", reset and copy the token, then: cp .env.example .env
     and put it in .env as DISCORD_TOKEN=...
  3. Under "OAuth2 > URL Generator", tick the scopes "bot" and "applications.commands"
     and the permissions Send Messages, Attach Files, Embed Links, Create Public Threads,
     Send Messages in Threads; open the URL to invite the bot to your server.
  4. make run

To try the games offline without Discord:  idzeva play shax
"""


class IdzevaBot(commands.Bot):
    """The bot. ``service`` is ready once ``setup_hook`` has run."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        roller: Callable[[DiceSpec], tuple[int, ...]] | None = None,
        tick_seconds: float = TICK_SECONDS,
    ):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.clock = clock
        self.roller = roller
        self.tick_seconds = tick_seconds
        self.store: GameStore | None = None
        self.service: GameService = None  # type: ignore[assignment]  # set in setup_hook
        # Set here, not in setup_hook: a harness that wraps the tree's handler (SimCord records
        # errors that way) attaches before login, and must not have its wrapper replaced.
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.db_path)
        self.service = GameService(
            self.store,
            settings=self.settings,
            clock=self.clock,
            roller=self.roller,
            workers=Workers(self.settings.workers),
        )
        from cogs.ui import DYNAMIC_ITEMS  # the composition root knows the cogs by name

        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        self.deadlines.change_interval(seconds=self.tick_seconds)
        self.deadlines.start()

    async def sync_commands(self) -> None:
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        self.deadlines.cancel()
        if self.service is not None:
            await self.service.close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        await super().close()

    @tasks.loop(seconds=TICK_SECONDS)
    async def deadlines(self) -> None:
        await self.run_deadlines()

    @deadlines.before_loop
    async def before_deadlines(self) -> None:
        await self.wait_until_ready()

    async def run_deadlines(self) -> None:
        """Post reminders, claim offers and expired challenges that are due."""
        from cogs.notices import post_notice

        try:
            notices: list[Notice] = await self.service.tick()
        except Exception:
            log.exception("deadline check failed")
            return
        for notice in notices:
            try:
                await post_notice(self, notice)
            except discord.HTTPException:
                log.warning("could not post notice %s", notice)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Last resort: log it and tell the user briefly; never leave them hanging."""
        log.exception("command failed", exc_info=error)
        from cogs.ui import SORRY as text

        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


def create_bot(settings: Settings | None = None, **options) -> IdzevaBot:
    return IdzevaBot(settings or Settings.from_env(), **options)


def run_bot() -> int:
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 1
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 1
    try:
        # Before connecting to Discord: a database the bot cannot use stops it here, with
        # one line, not with a traceback or at the first move.
        asyncio.run(check_database(settings.db_path))
        discord.utils.setup_logging(level=logging.INFO)
        create_bot(settings).run(settings.token, log_handler=None)
    except StoreError as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        return 1
    return 0


async def check_database(path: str) -> None:
    """Open (creating or upgrading) the database and check it (SQLite: ``PRAGMA
    quick_check``; PostgreSQL: every table read once); ``StoreError`` says what is wrong."""
    store = await open_store(path, check=True)
    await store.close()
