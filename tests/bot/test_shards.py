"""Sharding settings: IDZEVA_SHARD_COUNT and IDZEVA_SHARD_IDS, refused clearly when wrong."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot.app import IdzevaBot, ShardedIdzevaBot, create_bot
from bot.config import Settings


def settings(**env: str) -> Settings:
    return Settings.from_env(env, env_file=None)


def test_no_shard_settings_give_one_plain_bot():
    plain = settings()
    assert plain.shard_count is None and plain.shard_ids is None
    assert not plain.sharded and plain.syncs_commands
    bot = create_bot(plain)
    assert type(bot) is IdzevaBot and not isinstance(bot, commands.AutoShardedBot)


def test_some_shards_of_four_give_an_auto_sharded_bot_for_those():
    chosen = settings(IDZEVA_SHARD_COUNT="4", IDZEVA_SHARD_IDS=" 2, 3 ")
    assert (chosen.shard_count, chosen.shard_ids) == (4, (2, 3))
    assert not chosen.syncs_commands  # the process holding shard 0 syncs
    bot = create_bot(chosen)
    assert isinstance(bot, ShardedIdzevaBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    first = settings(IDZEVA_SHARD_COUNT="4", IDZEVA_SHARD_IDS="0,1")
    assert first.shard_ids == (0, 1) and first.syncs_commands


def test_a_count_alone_runs_every_shard_here():
    every = settings(IDZEVA_SHARD_COUNT="2")
    assert (every.shard_count, every.shard_ids, every.syncs_commands) == (2, None, True)
    bot = create_bot(every)
    assert isinstance(bot, ShardedIdzevaBot) and bot.shard_count == 2 and bot.shard_ids is None


@pytest.mark.parametrize(
    "env, message",
    [
        ({"IDZEVA_SHARD_COUNT": "four"}, "IDZEVA_SHARD_COUNT must be a whole number, not 'four'"),
        ({"IDZEVA_SHARD_COUNT": "0"}, "IDZEVA_SHARD_COUNT must be 1 or more, not 0"),
        (
            {"IDZEVA_SHARD_IDS": "0,1"},
            "IDZEVA_SHARD_IDS needs IDZEVA_SHARD_COUNT (how many shards in all)",
        ),
        (
            {"IDZEVA_SHARD_COUNT": "4", "IDZEVA_SHARD_IDS": "0,4"},
            "IDZEVA_SHARD_IDS: shard 4 does not exist with IDZEVA_SHARD_COUNT=4"
            " (shards are numbered 0 to 3)",
        ),
        (
            {"IDZEVA_SHARD_COUNT": "4", "IDZEVA_SHARD_IDS": "-1"},
            "IDZEVA_SHARD_IDS: shard -1 does not exist with IDZEVA_SHARD_COUNT=4"
            " (shards are numbered 0 to 3)",
        ),
        (
            {"IDZEVA_SHARD_COUNT": "4", "IDZEVA_SHARD_IDS": "1,2,1"},
            "IDZEVA_SHARD_IDS names shard 1 twice",
        ),
        (
            {"IDZEVA_SHARD_COUNT": "4", "IDZEVA_SHARD_IDS": "0;1"},
            "IDZEVA_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not '0;1'",
        ),
        (
            {"IDZEVA_SHARD_COUNT": "4", "IDZEVA_SHARD_IDS": "0,,1"},
            "IDZEVA_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), not '0,,1'",
        ),
    ],
)
def test_wrong_shard_settings_are_refused_with_the_reason(env, message):
    with pytest.raises(ValueError) as caught:
        settings(**env)
    assert str(caught.value) == message


def test_the_bot_refuses_to_start_on_wrong_shard_settings(monkeypatch, tmp_path, capsys):
    from bot.app import run_bot

    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("IDZEVA_SHARD_COUNT", "2")
    monkeypatch.setenv("IDZEVA_SHARD_IDS", "2")
    assert run_bot() == 1
    assert capsys.readouterr().err == (
        "Configuration error: IDZEVA_SHARD_IDS: shard 2 does not exist with"
        " IDZEVA_SHARD_COUNT=2 (shards are numbered 0 to 1)\n"
    )
