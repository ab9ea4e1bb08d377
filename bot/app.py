"""The Discord bot: opens the store, builds the game service, loads the cogs, runs the clock.

``create_bot`` is the one place that wires things together; tests call it with an
in-memory or temporary database, a fake clock and a seeded roller.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace

import discord
from discord.ext import commands, tasks

from bot.config import Settings
from bot.domain import engine_jobs
from bot.domain.opponent import Opponent
from bot.domain.service import GameService, Notice
from bot.runtime.workers import Workers
from bot.storage import GameStore, open_store
from bot.storage.rows import StoreError
from cogs.clicks import wired_buttons
from cogs.common.answers import SORRY
from cogs.notices import post_notice
from cogs.opponent import play_waiting_games
from games import DiceSpec

log = logging.getLogger("idzeva")

EXTENSIONS = (
    "cogs.names",
    "cogs.shared",
    "cogs.dice",
    "cogs.shax",
    "cogs.tchela",
    "cogs.chebache",
    "cogs.sachidjun",
    "cogs.jikaida",
    "cogs.settings",
    "cogs.tournaments",
)
TICK_SECONDS = 60.0
# How often the servers' games finished meanwhile are looked at for puzzles of their own.
PUZZLE_MINING_SECONDS = 300.0

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
        force_sync: bool = False,
        **options,
    ):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.force_sync = force_sync
        self.settings = settings
        self.clock = clock
        self.roller = roller
        self.tick_seconds = tick_seconds
        self.store: GameStore | None = None
        self.service: GameService = None  # type: ignore[assignment]  # set in setup_hook
        self.opponent: Opponent | None = None  # the bot's own seats (set in setup_hook)
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
            workers=Workers(self.settings.workers, preload=engine_jobs.PRELOAD),
            analysis_workers=Workers(
                analysis_processes(self.settings.workers), preload=engine_jobs.PRELOAD
            ),
            bot_user_id=self.user.id if self.user else None,
        )
        if self.user is not None:
            self.opponent = Opponent(
                self.service,
                self.user.id,
                workers=Workers(
                    search_processes(self.settings.workers), preload=engine_jobs.PRELOAD
                ),
                iterations=self.settings.bot_iterations,
            )
        self.add_dynamic_items(*wired_buttons())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        self.deadlines.change_interval(seconds=self.tick_seconds)
        self.deadlines.start()
        if self.settings.server_puzzles:
            self.puzzle_miner.start()

    async def sync_commands(self, *, force: bool | None = None) -> bool:
        """Send the command tree to Discord when it changed since the last sync (its hash is
        kept in the database, shared by every process), or when forced (``idzeva sync``).
        Only the process holding shard 0 syncs. True when it synced."""
        force = self.force_sync if force is None else force
        if not self.settings.syncs_commands and not force:
            log.info("commands: synced by the process holding shard 0")
            return False
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        key = f"commands:{guild.id if guild else 'global'}"
        digest = command_tree_hash(self.tree, guild)
        assert self.store is not None
        if not force and await self.store.get_value(key) == digest:
            log.info("commands: unchanged since the last sync (%s)", digest[:12])
            return False
        await self.tree.sync(guild=guild)
        await self.store.put_value(key, digest, self.clock())
        log.info("commands: synced (%s)", digest[:12])
        return True

    async def close(self) -> None:
        self.deadlines.cancel()
        self.puzzle_miner.cancel()
        if self.opponent is not None:
            await self.opponent.close()
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

    @tasks.loop(seconds=PUZZLE_MINING_SECONDS)
    async def puzzle_miner(self) -> None:
        await self.mine_puzzles()

    @puzzle_miner.before_loop
    async def before_puzzle_miner(self) -> None:
        await self.wait_until_ready()

    async def mine_puzzles(self) -> None:
        """The servers' games finished since the last run, mined for puzzles of their own
        (in the low-priority analysis worker: bot/domain/puzzles/server.py)."""
        try:
            kept = await self.service.mine_server_puzzles()
        except Exception:
            log.exception("server puzzles: the miner failed")
            return
        if kept:
            log.info("server puzzles: %d found", kept)

    async def run_deadlines(self) -> None:
        """Post reminders, claim offers and expired challenges that are due; the bot opponent
        plays where it is to move (the first run is at start-up: where it was to move when
        the process stopped)."""
        await self.post_notices()
        await play_waiting_games(self)

    async def post_notices(self) -> None:
        """Post the notices that are due: each by one process, and again by another if this
        one dies before it is sent (bot/domain/jobs.py)."""

        async def send(notice: Notice) -> None:
            try:
                await post_notice(self, notice)
            except discord.HTTPException:  # Discord refused it: trying again would not help
                log.warning("could not post notice %s", notice)

        try:
            await self.service.tick(send)
        except Exception:
            log.exception("deadline check failed")

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Last resort: log it and tell the user briefly; never leave them hanging."""
        log.exception("command failed", exc_info=error)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(SORRY, ephemeral=True)
            else:
                await interaction.response.send_message(SORRY, ephemeral=True)
        except discord.HTTPException:
            pass


def search_processes(workers: int | None) -> int:
    """The bot opponent's own pool (its searches take seconds; the players' moves never wait
    behind them): half the cores, at least one; 0 (threads) when the service uses threads."""
    if workers == 0:
        return 0
    return max(1, (os.cpu_count() or 2) // 2)


def analysis_processes(workers: int | None) -> int:
    """The post-game analyses' own pool: one process (at low priority, one analysis at a
    time: bot/domain/analysis.py), beside the move workers; 0 (threads) when the service
    uses threads."""
    return 0 if workers == 0 else 1


class ShardedIdzevaBot(IdzevaBot, commands.AutoShardedBot):
    """The bot for some of ``IDZEVA_SHARD_COUNT`` shards (``IDZEVA_SHARD_IDS``; all when
    unset) in one process: several such processes share the database."""


def create_bot(settings: Settings | None = None, **options) -> IdzevaBot:
    """A plain bot, or a sharded one when ``IDZEVA_SHARD_COUNT`` is set."""
    settings = settings or Settings.from_env()
    if settings.sharded:
        return ShardedIdzevaBot(
            settings,
            shard_count=settings.shard_count,
            shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),
            **options,
        )
    return IdzevaBot(settings, **options)


def command_tree_hash(
    tree: discord.app_commands.CommandTree, guild: discord.abc.Snowflake | None
) -> str:
    """SHA-256 of what a sync would send: every command's payload (names, options,
    descriptions, permissions), in a stable order."""
    payload = sorted(
        (command.to_dict(tree) for command in tree.get_commands(guild=guild)),
        key=lambda item: (item.get("type", 1), item["name"]),
    )
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def settings_with_token() -> Settings | None:
    """The settings from the environment, or None after saying on stderr what is wrong
    with them (a bad value, or no token)."""
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return None
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return None
    return settings


def run_bot() -> int:
    settings = settings_with_token()
    if settings is None:
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


def sync_now() -> int:
    """``idzeva sync``: log in (no gateway), send the command tree to Discord whatever its
    hash says, record the hash, log out."""
    settings = settings_with_token()
    if settings is None:
        return 1

    async def sync() -> None:
        # login() runs setup_hook, which syncs (forced); no worker processes for this.
        async with IdzevaBot(replace(settings, workers=0), force_sync=True) as bot:
            await bot.login(settings.token)

    try:
        asyncio.run(sync())
    except StoreError as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        print(f"Discord refused the sync: {error}", file=sys.stderr)
        return 1
    scope = f"server {settings.dev_guild}" if settings.dev_guild else "every server"
    print(f"Commands synced ({scope}).")
    return 0


async def check_database(path: str) -> None:
    """Open (creating or upgrading) the database and check it (SQLite: ``PRAGMA
    quick_check``; PostgreSQL: every table read once); ``StoreError`` says what is wrong."""
    store = await open_store(path, check=True)
    await store.close()
