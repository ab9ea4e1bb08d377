"""The daily digest at each player's hour in their time zone (``bot/domain/notify.py``): when it is
due, once across processes, refused inputs, and the migration that keeps old players' time.

The expected moments are worked out by hand from the zones' UTC offsets (Berlin is UTC+1 in
winter and UTC+2 in summer; New York UTC-5 in winter), written as UTC datetimes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from bot.domain import notify
from bot.domain.notify import NotifyChoice, next_digest, time_zone, zone_suggestions
from bot.domain.service import ServiceError
from bot.storage.migrations import POSTGRES as PG_MIGRATIONS
from bot.storage.migrations import SQLITE as MIGRATIONS
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import Store

from .conftest import ALICE, BOB, DAY, GUILD, HOUR, START, in_thread, raw_sql, start_game


def utc(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())


def test_the_world_starts_at_eight_utc():
    assert utc(2027, 1, 15, 8) == START


@pytest.mark.parametrize(
    ("after", "hour", "zone", "due"),
    [
        (utc(2027, 1, 15, 8), 10, "Europe/Berlin", utc(2027, 1, 15, 9)),  # 10:00 at UTC+1
        (utc(2027, 1, 15, 8), 7, "America/New_York", utc(2027, 1, 15, 12)),  # 07:00 at UTC-5
        (utc(2027, 1, 15, 8), 8, "UTC", utc(2027, 1, 16, 8)),  # strictly after: tomorrow
        (utc(2027, 1, 15, 8), 0, "UTC", utc(2027, 1, 16, 0)),
        (utc(2027, 7, 15, 8), 10, "Europe/Berlin", utc(2027, 7, 16, 8)),  # UTC+2: 08:00 passed
        (utc(2027, 1, 15, 23, 30), 8, "Asia/Tokyo", utc(2027, 1, 16, 23)),  # 08:30 there
        # Berlin skips 02:00-03:00 on 28 March 2027: the digest comes when the clock jumps.
        (utc(2027, 3, 27, 12), 2, "Europe/Berlin", utc(2027, 3, 28, 1)),
        # Berlin lives 02:00-03:00 twice on 31 October 2027: the first one.
        (utc(2027, 10, 30, 12), 2, "Europe/Berlin", utc(2027, 10, 31, 0)),
    ],
)
def test_the_next_digest_is_the_players_hour_in_their_zone(after, hour, zone, due):
    assert next_digest(after, hour, zone) == due


def test_across_the_autumn_change_a_digest_a_day_at_the_same_local_hour():
    due, moments = utc(2027, 10, 29, 12), []
    for _ in range(4):
        due = next_digest(due, 2, "Europe/Berlin")
        moments.append(due)
    # 30 Oct 02:00 CEST, 31 Oct the first 02:00 (CEST) and not the second, 1 and 2 Nov (CET).
    assert moments == [
        utc(2027, 10, 30, 0),
        utc(2027, 10, 31, 0),
        utc(2027, 11, 1, 1),
        utc(2027, 11, 2, 1),
    ]


@pytest.mark.parametrize("stored", ["Mars/Olympus", "../../etc/passwd", ""])
def test_a_stored_zone_this_machine_does_not_know_counts_as_utc(stored):
    # 10:00 UTC after 08:00 UTC on 15 January, rather than an error for every digest.
    assert next_digest(utc(2027, 1, 15, 8), 10, stored) == utc(2027, 1, 15, 10)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("europe/berlin", "Europe/Berlin"),
        (" America/New York ", "America/New_York"),
        ("utc", "UTC"),
    ],
)
def test_a_time_zone_is_read_in_any_case(typed, name):
    assert time_zone(typed) == name


@pytest.mark.parametrize("typed", ["Mars/Olympus", "", "../../etc/passwd", "Berlin", "+01:00"])
def test_what_is_no_time_zone_is_refused(typed):
    with pytest.raises(ValueError):
        time_zone(typed)


def test_the_suggestions_put_the_place_typed_first():
    assert zone_suggestions("")[0] == "UTC"
    assert zone_suggestions("berl") == ["Europe/Berlin"]
    assert zone_suggestions("new y")[0] == "America/New_York"
    assert zone_suggestions("york")[0] == "America/New_York"
    assert len(zone_suggestions("a")) == 25
    assert zone_suggestions("nowhere at all") == []


# ---- the service: choosing, refusing, sending once ---------------------------------------


async def test_choosing_a_time_schedules_the_next_digest(service):
    chosen = await service.set_notify(
        GUILD, ALICE, NotifyChoice(digest=True, hour=10, zone="europe/berlin")
    )
    assert (chosen.digest, chosen.hour, chosen.zone) == (True, 10, "Europe/Berlin")
    assert chosen.next_digest == utc(2027, 1, 15, 9)
    # Only the zone changes: New York's 10:00 is 15:00 UTC.
    chosen = await service.set_notify(GUILD, ALICE, NotifyChoice(zone="America/New_York"))
    assert (chosen.hour, chosen.next_digest) == (10, utc(2027, 1, 15, 15))
    # Switched off, then on again: scheduled anew.
    await service.set_notify(GUILD, ALICE, NotifyChoice(digest=False))
    chosen = await service.set_notify(GUILD, ALICE, NotifyChoice(digest=True))
    assert (chosen.digest, chosen.next_digest) == (True, utc(2027, 1, 15, 15))


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        (NotifyChoice(digest=True, zone="Mars/Olympus"), "is not a time zone I know"),
        (NotifyChoice(digest=True, hour=24), "hour is 0 to 23"),
        (NotifyChoice(digest=True, hour=-1), "hour is 0 to 23"),
        (NotifyChoice(route="sms", digest=True), "is not a choice"),
    ],
)
async def test_a_refused_choice_changes_nothing(service, choice, message):
    await service.set_notify(GUILD, ALICE, NotifyChoice(route="dm", hour=9))
    before = await service.notify_settings(GUILD, ALICE)
    with pytest.raises(ServiceError, match=message):
        await service.set_notify(GUILD, ALICE, choice)
    assert await service.notify_settings(GUILD, ALICE) == before


async def test_a_digest_goes_once_at_its_hour_then_the_next_day(service, store, clock):
    digests = partial(notify.digests, store, service.list_games)
    board = await start_game(service)
    assert board.to_move_user == ALICE
    await service.set_notify(GUILD, ALICE, NotifyChoice(digest=True, hour=10, zone="Europe/Berlin"))
    await service.set_notify(GUILD, BOB, NotifyChoice(digest=True, hour=10, zone="Europe/Berlin"))
    assert await digests(clock()) == []  # 09:00 in Berlin
    clock.advance(HOUR)
    [notice] = await digests(clock())  # Bob is not to move: nothing for him
    assert (notice.kind, notice.user_id) == ("digest", ALICE)
    assert notice.text.startswith("Your turn in 1 game (2027-01-15):\n- Shax #")
    assert await digests(clock()) == []  # a second process finds it sent
    settings = await service.notify_settings(GUILD, ALICE)
    assert settings.next_digest == utc(2027, 1, 16, 9)
    clock.advance(DAY)
    assert [n.user_id for n in await digests(clock())] == [ALICE]


async def test_a_bot_back_after_days_sends_one_digest_not_one_a_day(service, store, clock):
    digests = partial(notify.digests, store, service.list_games)
    await start_game(service)
    await service.set_notify(GUILD, ALICE, NotifyChoice(digest=True, hour=10, zone="UTC"))
    clock.advance(3 * DAY)  # 2027-01-18 08:00 UTC: three 10:00s were missed
    assert len(await digests(clock())) == 1
    assert await digests(clock()) == []
    settings = await service.notify_settings(GUILD, ALICE)
    assert settings.next_digest == utc(2027, 1, 18, 10)


# ---- migration 10: players who had the digest keep its time ------------------------------

BEFORE = next(n for n, script in enumerate(MIGRATIONS) if "digest_next" in script)
PG_BEFORE = next(n for n, script in enumerate(PG_MIGRATIONS) if "digest_next" in script)
OLD_ROWS = [(GUILD, ALICE, "2027-01-15"), (GUILD, BOB, "")]
INSERT_OLD = "INSERT INTO notify_prefs (guild_id, user_id, digest, digest_day) VALUES"


async def check_migrated(store) -> None:
    alice, bob = await store.notify_pref(GUILD, ALICE), await store.notify_pref(GUILD, BOB)
    # Alice had her digest on 15 January: the next at midnight UTC. Bob never had one: at once.
    assert (alice.digest_hour, alice.digest_zone, alice.digest_next) == (0, "UTC", utc(2027, 1, 16))
    assert (bob.digest, bob.digest_hour, bob.digest_zone, bob.digest_next) == (True, 0, "UTC", 0)
    assert [p.user_id for p in await store.digests_due(int(START))] == [BOB]


@pytest.mark.sqlite_only
async def test_the_migration_keeps_each_digests_time(db_path):
    async with await Store.open(db_path, MIGRATIONS[:BEFORE]):
        pass
    for guild, user, day in OLD_ROWS:
        raw_sql(db_path, f"{INSERT_OLD} (?, ?, 1, ?)", (guild, user, day))
    async with await Store.open(db_path) as store:
        await check_migrated(store)


async def test_the_postgresql_migration_keeps_each_digests_time(pg_server):
    url = in_thread(pg_server.new_database, None)
    try:
        async with await PostgresStore.open(url, PG_MIGRATIONS[:PG_BEFORE]) as old:
            for row in OLD_ROWS:
                await old._pool.execute(f"{INSERT_OLD} ($1, $2, 1, $3)", *row)
        async with await PostgresStore.open(url) as store:
            await check_migrated(store)
    finally:
        in_thread(pg_server.drop_database, url)
