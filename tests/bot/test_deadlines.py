"""Turn clocks through the service, with the injectable clock (issue 16).

Each game has its time per move T (``options["time"]``). Reminders go at T/2 and at
max(0.9 T, T - 1 day) after the turn started; the waiting side may claim at T; the bot ends the
game on time at T + grace (the server's setting, a day unless changed). Worked out by hand:

- 1 hour: reminders at 30 min and 54 min, claim at 60 min, time-out at 2 h with 1 h of grace;
- 7 days: reminders at 3.5 days and 6.3 days (6 d 7 h 12 min), claim at 7 days, time-out at
  8 days.
"""

import asyncio

import pytest

from bot.config import Settings
from bot.domain.jobs import LEASE_SECONDS
from bot.domain.service import GameService, NotAllowed, ServiceError
from bot.storage import open_store

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAY,
    GUILD,
    HOUR,
    fake_renderer,
    shax_result,
    start_game,
)

MINUTE = 60


async def timed_game(service, time, first="me", opponent=BOB, challenger=ALICE):
    """``challenger`` plays White (moves first with first="me") against ``opponent``."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        challenger_id=challenger,
        opponent_id=opponent,
        first=first,
        options={"time": time},
    )
    return await service.accept_challenge(challenge.challenge_id, opponent)


async def kinds(service):
    return [(n.kind, n.user_id) for n in await service.tick()]


async def test_a_one_hour_game_reminds_twice_then_offers_the_claim_then_times_out(
    service, clock, store
):
    await service.change_server_settings(GUILD, CAROL, manager=True, grace=HOUR)
    start = clock.now
    board = await timed_game(service, HOUR)  # Alice to move
    assert board.clock == f"<@{ALICE}> moves <t:{int(start + HOUR)}:R>"

    clock.now = start + 30 * MINUTE - 1
    assert await service.tick() == []
    clock.now = start + 30 * MINUTE
    [half] = await service.tick()
    assert (half.kind, half.user_id) == ("reminder", ALICE)
    assert half.text == (
        f"<@{ALICE}>, it is your turn in Shax #{board.game_id}: your time runs out "
        f"<t:{int(start + HOUR)}:R>."
    )
    assert await service.tick() == []
    clock.now = start + 54 * MINUTE - 1
    assert await service.tick() == []
    clock.now = start + 54 * MINUTE
    assert await kinds(service) == [("reminder", ALICE)]
    assert await service.tick() == []

    clock.now = start + HOUR - 1
    with pytest.raises(NotAllowed, match="claim a win by timeout"):
        await service.claim_timeout(board.game_id, BOB, guild_id=GUILD)
    assert await service.tick() == []
    clock.now = start + HOUR
    [claim] = await service.tick()
    assert (claim.kind, claim.user_id) == ("claimable", BOB)
    assert claim.text.endswith(
        f"you may claim the win by timeout; otherwise the game ends on time "
        f"<t:{int(start + 2 * HOUR)}:R>."
    )
    shown = await service.board(board.game_id, GUILD, with_image=False)
    assert shown.clock == f"<@{ALICE}>'s time ran out <t:{int(start + HOUR)}:R>"

    clock.now = start + 2 * HOUR - 1
    assert await service.tick() == []
    clock.now = start + 2 * HOUR
    [out] = await service.tick()
    result = shax_result(lambda game: game.claim_timeout(1))
    assert (out.kind, out.user_id, out.game_id) == ("timed_out", ALICE, board.game_id)
    assert out.text == (
        f"<@{ALICE}> ran out of time in Shax #{board.game_id} against <@{BOB}>:"
        f" the game is over ({result})."
    )
    over = await service.board(board.game_id, GUILD, with_image=False)
    assert over.finished and over.result == result and over.clock is None
    assert (await store.get_game(board.game_id)).status == "finished"
    clock.advance(30 * DAY)
    assert await service.tick() == []


async def test_a_seven_day_game_reminds_at_half_and_at_nine_tenths_then_times_out(service, clock):
    start = clock.now
    board = await timed_game(service, 7 * DAY)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)  # Bob's clock
    assert board.clock == f"<@{BOB}> moves <t:{int(start + 7 * DAY)}:R>"
    moments = [
        (3.5 * DAY, [("reminder", BOB)]),
        (6 * DAY + 7 * HOUR + 12 * MINUTE, [("reminder", BOB)]),
        (7 * DAY, [("claimable", ALICE)]),
        (8 * DAY, [("timed_out", BOB)]),
    ]
    for at, expected in moments:
        clock.now = start + at - 1
        assert await service.tick() == [], at
        clock.now = start + at
        assert await kinds(service) == expected, at
    over = await service.board(board.game_id, GUILD, with_image=False)
    assert over.result == shax_result(lambda game: game.claim_timeout(0))


async def test_the_waiting_side_claims_before_the_bot_ends_the_game(service, clock):
    start = clock.now
    board = await timed_game(service, DAY)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)  # Bob to move
    clock.now = start + DAY - 1
    with pytest.raises(NotAllowed, match="claim"):
        await service.claim_timeout(board.game_id, ALICE, guild_id=GUILD)
    clock.now = start + DAY
    with pytest.raises(NotAllowed, match="your turn"):
        await service.claim_timeout(board.game_id, BOB, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.claim_timeout(board.game_id, CAROL, guild_id=GUILD)
    board = await service.claim_timeout(board.game_id, ALICE, guild_id=GUILD)
    assert board.finished and board.result == shax_result(lambda game: game.claim_timeout(0))
    clock.advance(30 * DAY)
    assert await service.tick() == []  # no time-out after the claim


async def test_reminders_missed_while_the_bot_was_down_come_as_one(service, clock):
    start = clock.now
    await timed_game(service, HOUR)
    clock.now = start + 59 * MINUTE  # both reminders' times have passed
    assert await kinds(service) == [("reminder", ALICE)]
    assert await service.tick() == []


async def test_a_move_restarts_the_clock_and_a_same_player_action_does_not(service, clock):
    start = clock.now
    board = await timed_game(service, DAY)
    clock.now = start + 10 * HOUR
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)  # Bob: 10 h + 1 d
    await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)  # a new version, same turn
    clock.now = start + 22 * HOUR - 1
    assert await service.tick() == []
    clock.now = start + 22 * HOUR
    assert await kinds(service) == [("reminder", BOB)]


async def test_a_roll_then_a_move_is_one_clock(service, clock, roller):
    """Chebache: the roll and the move are one turn of one player: one clock."""
    start = clock.now
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="chebache",
        challenger_id=ALICE,
        opponent_id=BOB,
        first="me",
        options={"time": DAY},
    )
    board = await service.accept_challenge(challenge.challenge_id, BOB)
    clock.now = start + 11 * HOUR
    roller.queued.append((3, 2))
    board = await service.roll(board.game_id, ALICE, guild_id=GUILD)
    assert board.dice_needed is None and board.to_move_user == ALICE
    assert board.clock == f"<@{ALICE}> moves <t:{int(start + DAY)}:R>"
    clock.now = start + 12 * HOUR
    assert await kinds(service) == [("reminder", ALICE)]


async def test_a_challenge_without_a_time_takes_the_servers_then_the_bots(service, clock, store):
    plain = await start_game(service)
    assert (await store.get_game(plain.game_id)).options["time"] == 3 * DAY
    await service.change_server_settings(GUILD, ALICE, manager=True, time=12 * HOUR)
    board = await start_game(service)
    assert (await store.get_game(board.game_id)).options["time"] == 12 * HOUR
    chosen = await timed_game(service, 14 * DAY)
    assert (await store.get_game(chosen.game_id)).options["time"] == 14 * DAY
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        challenger_id=ALICE,
        opponent_id=BOB,
        options={"time": 14 * DAY},
    )
    assert challenge.time == 14 * DAY


@pytest.mark.parametrize("time", [0, -HOUR, 2 * HOUR, "3600x", "١", 10**30, True, None])
async def test_times_that_are_not_offered_are_refused(service, time):
    if time is None:  # None is "not chosen": the default
        await timed_game(service, time)
        return
    with pytest.raises(ServiceError, match="time per move must be one of: 1 hour, 6 hours"):
        await timed_game(service, time)


async def test_two_processes_ticking_at_once_send_each_notice_once(
    service, store, clock, roller, store_url
):
    """Two bots on one database (each its own store: a second process) run the clock at
    the same moment: every reminder, claim notice, time-out and challenge expiry is sent by
    one of them."""
    games = [await start_game(service) for _ in range(4)]  # 3 days per move
    pending = [
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, kind="shax", challenger_id=ALICE, opponent_id=BOB
        )
        for _ in range(3)
    ]
    clock.advance(3 * DAY)  # every game is due a reminder and a claim notice
    async with await open_store(store_url) as other_store:
        other = GameService(
            other_store, settings=Settings(), clock=clock, roller=roller, renderer=fake_renderer
        )
        first, second = await asyncio.gather(service.tick(), other.tick())
        sent = sorted((n.kind, n.game_id or 0, n.challenge_id or 0) for n in first + second)
        assert sent == sorted(
            [("reminder", board.game_id, 0) for board in games]
            + [("claimable", board.game_id, 0) for board in games]
            + [("challenge_expired", 0, challenge.challenge_id) for challenge in pending]
        )
        assert await asyncio.gather(service.tick(), other.tick()) == [[], []]
        clock.advance(DAY)  # the grace is over: each game ends on time, once
        first, second = await asyncio.gather(service.tick(), other.tick())
        ended = sorted((n.kind, n.game_id) for n in first + second)
        assert ended == [("timed_out", board.game_id) for board in games]
        assert await asyncio.gather(service.tick(), other.tick()) == [[], []]


class Killed(BaseException):
    """The process dies here: nothing after this point runs."""


async def test_a_time_out_left_by_a_killed_process_is_ended_and_announced_once(
    service, store, clock, roller, store_url, monkeypatch
):
    """The time-out's job is written before the game's write: a process killed between the
    two leaves the job, and another process ends the game, then sends the notice once, with
    the final result."""
    board = await timed_game(service, HOUR)
    clock.advance(2 * DAY)  # the hour and any grace are out

    async def killed(*_):
        raise Killed

    monkeypatch.setattr(service._deadlines, "_end_on_time", killed)
    with pytest.raises(Killed):
        await service.tick()
    assert (await store.get_game(board.game_id)).status == "active"
    async with await open_store(store_url) as other_store:
        other = GameService(
            other_store, settings=Settings(), clock=clock, roller=roller, renderer=fake_renderer
        )
        # The next scan ends the game; the job is still held by the dead process's lease.
        assert "timed_out" not in [n.kind for n in await other.tick()]
        assert (await store.get_game(board.game_id)).status == "finished"
        clock.advance(LEASE_SECONDS + 1)  # the lease runs out: the job is taken over
        [out] = [n for n in await other.tick() if n.kind == "timed_out"]
        result = shax_result(lambda game: game.claim_timeout(1))
        assert out.text == (
            f"<@{ALICE}> ran out of time in Shax #{board.game_id} against <@{BOB}>:"
            f" the game is over ({result})."
        )
        clock.advance(LEASE_SECONDS + 1)
        assert await other.tick() == [] and await service.tick() == []
