"""Command sync: only when the command tree changed (its hash kept in the database, shared
by every process), by the process holding shard 0; ``idzeva sync`` forces it."""

from __future__ import annotations

import discord

from bot.app import command_tree_hash, create_bot
from bot.config import Settings


async def test_commands_are_synced_only_when_the_tree_changed(world):
    bot = world.env.bot
    digest = command_tree_hash(bot.tree, None)
    # The first start synced, and kept the hash.
    assert await bot.store.get_value("commands:global") == digest
    assert await bot.sync_commands() is False  # unchanged: nothing sent
    assert await bot.sync_commands(force=True) is True  # idzeva sync

    @discord.app_commands.command(name="ping", description="a new command")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    bot.tree.add_command(ping)
    try:
        changed = command_tree_hash(bot.tree, None)
        assert changed != digest
        assert await bot.sync_commands() is True
        assert await bot.store.get_value("commands:global") == changed
        assert await bot.sync_commands() is False
    finally:
        bot.tree.remove_command("ping")


async def test_a_restart_with_the_same_commands_does_not_sync(world):
    synced = []
    await world.restart()
    bot = world.env.bot
    original = bot.tree.sync

    async def counted(**kwargs):
        synced.append(kwargs)
        return await original(**kwargs)

    bot.tree.sync = counted
    assert await bot.sync_commands() is False and synced == []
    # The commands still answer after the restart.
    result = await world.alice.slash(world.channel, "game list")
    assert result.response.ephemeral


async def test_a_process_without_shard_0_leaves_the_sync_to_the_one_with_it():
    bot = create_bot(Settings(shard_count=4, shard_ids=(1, 2), workers=0))
    # Never started (no store): it must not need one to decide.
    assert await bot.sync_commands() is False


def test_idzeva_sync_without_a_token_says_how_to_get_one(monkeypatch, tmp_path, capsys):
    from bot.cli.main import main

    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["sync"]) == 1
    assert capsys.readouterr().err.startswith("No Discord token found (DISCORD_TOKEN in .env).")
