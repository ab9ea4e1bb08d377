"""A server's settings through the service: who may change them, what the challenges obey,
and stored values that are damaged (issue 16)."""

import pytest

from bot.domain.server_settings import ServerSettings
from bot.domain.service import NotAllowed, ServiceError

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, HOUR, OTHER_GUILD, raw_sql

GAMES_CHANNEL, THREAD = 1_300_000_000_000_000_001, 1_300_000_000_000_000_002


async def challenge(service, kind="shax", channel=CHANNEL, parent=None, guild=GUILD):
    return await service.create_challenge(
        guild_id=guild,
        channel_id=channel,
        kind=kind,
        challenger_id=ALICE,
        opponent_id=BOB,
        parent_channel_id=parent,
    )


async def test_only_managers_change_the_settings_and_everyone_sees_them(service):
    with pytest.raises(NotAllowed, match="Manage Server"):
        await service.change_server_settings(GUILD, BOB, manager=False, threads=False)
    assert await service.server_settings(GUILD) == ServerSettings()
    changed = await service.change_server_settings(
        GUILD, CAROL, manager=True, threads=False, time=DAY, grace=6 * HOUR
    )
    assert await service.server_settings(GUILD) == changed
    assert (changed.threads, changed.time, changed.grace) == (False, DAY, 6 * HOUR)
    assert await service.server_settings(OTHER_GUILD) == ServerSettings()  # per server
    assert changed.lines() == [
        "Challenges: any channel",
        "Threads for games: no",
        "Default time per move: 1 day",
        "Time-out grace: 6 hours (then the bot ends the game)",
        "Games on: Shax, Tchela, Šačidjun, Chebache, Poron Jikaida",
        "Vacation: 30 days a year per player",
        "Tournaments created by: everyone",
        "Daily puzzle: off (daily_puzzle:)",
    ]


async def test_challenges_only_in_the_channels_listed(service):
    await service.change_server_settings(GUILD, CAROL, manager=True, allow_channel=GAMES_CHANNEL)
    with pytest.raises(NotAllowed, match=f"Challenges are made in <#{GAMES_CHANNEL}>"):
        await challenge(service)
    assert (await challenge(service, channel=GAMES_CHANNEL)).status == "pending"
    made = await challenge(service, channel=THREAD, parent=GAMES_CHANNEL)  # a thread of it
    assert made.channel_id == THREAD
    assert (await challenge(service, guild=OTHER_GUILD)).status == "pending"
    await service.change_server_settings(GUILD, CAROL, manager=True, any_channel=True)
    assert (await challenge(service)).status == "pending"


async def test_a_game_turned_off_cannot_be_challenged(service):
    await service.change_server_settings(GUILD, CAROL, manager=True, disable="shax")
    with pytest.raises(NotAllowed, match="Shax is turned off in this server"):
        await challenge(service)
    assert (await challenge(service, kind="tchela")).status == "pending"
    await service.change_server_settings(GUILD, CAROL, manager=True, enable="shax")
    assert (await challenge(service)).status == "pending"


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"grace": 5}, "time-out grace must be one of"),
        ({"time": 2 * HOUR}, "time per move must be one of"),
        ({"vacation_days": 366}, "0 to 365 days"),
        ({"vacation_days": -1}, "0 to 365 days"),
        ({"disallow_channel": GAMES_CHANNEL}, "is not in the list"),
        ({"enable": "chess"}, "no game called"),
        ({"disable": "'; DROP TABLE games; --"}, "no game called"),
    ],
)
async def test_bad_values_are_refused_and_change_nothing(service, changes, message):
    with pytest.raises(ServiceError, match=message):
        await service.change_server_settings(GUILD, CAROL, manager=True, **changes)
    assert await service.server_settings(GUILD) == ServerSettings()


@pytest.mark.parametrize(
    "stored",
    [
        "{not json",
        "[1, 2]",
        '{"channels": ["x"], "threads": "yes", "time": 5, "grace": -1, "disabled": 3}',
        '{"vacation_days": true, "channels": [0]}',
    ],
)
@pytest.mark.sqlite_only
async def test_damaged_stored_settings_read_as_the_defaults(service, stored, db_path):
    await service.change_server_settings(GUILD, CAROL, manager=True, threads=False)
    raw_sql(db_path, "UPDATE guild_settings SET settings = ?", (stored,))
    assert await service.server_settings(GUILD) == ServerSettings()
    assert (await challenge(service)).time == 3 * DAY


async def test_who_may_create_tournaments(service):
    rules = await service.server_settings(GUILD)
    assert rules.may_create_tournaments([], manager=False)  # everyone, by default
    role = 1_300_000_000_000_000_009
    changed = await service.change_server_settings(GUILD, CAROL, manager=True, tournament_role=role)
    assert changed.tournament_role == role
    assert f"Tournaments created by: <@&{role}>" in changed.lines()
    assert not changed.may_create_tournaments([], manager=False)
    assert changed.may_create_tournaments([role], manager=False)
    assert changed.may_create_tournaments([], manager=True)
    back = await service.change_server_settings(
        GUILD, CAROL, manager=True, tournaments_by_everyone=True
    )
    assert back.tournament_role is None
    assert ServerSettings.from_json('{"tournament_role": "x"}').tournament_role is None
