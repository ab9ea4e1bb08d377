"""Vacations through the service: a player's clocks wait in all their games in the server,
and nobody else's (issue 16). Times worked out by hand from the rules in bot/domain/vacations.py."""

import pytest

from bot.domain.service import NotAllowed, ServiceError

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, HOUR, OTHER_GUILD

TIME = 2 * DAY


async def game(service, white, black, guild=GUILD):
    challenge = await service.create_challenge(
        guild_id=guild,
        channel_id=CHANNEL,
        kind="shax",
        challenger_id=white,
        opponent_id=black,
        first="me",
        options={"time": TIME},
    )
    return (await service.accept_challenge(challenge.challenge_id, black)).game_id


async def deadlines(store, game_id):
    row = await store.get_game(game_id)
    return row.claim_at, row.paused_until


async def test_a_vacation_pauses_every_clock_of_the_player_and_nothing_else(service, store, clock):
    t0 = clock.now
    mine = await game(service, ALICE, BOB)  # Alice to move
    mine_too = await game(service, ALICE, CAROL)  # Alice to move
    theirs = await game(service, BOB, ALICE)  # Bob to move, Alice waits
    others = await game(service, BOB, CAROL)  # not Alice's game
    elsewhere = await game(service, ALICE, BOB, guild=OTHER_GUILD)  # another server

    clock.now = t0 + DAY
    status = await service.start_vacation(GUILD, ALICE, 5)
    assert (status.used, status.allowance, status.left, status.until) == (5, 30, 25, t0 + 6 * DAY)
    assert await deadlines(store, mine) == (t0 + 7 * DAY, t0 + 6 * DAY)
    assert await deadlines(store, mine_too) == (t0 + 7 * DAY, t0 + 6 * DAY)
    assert await deadlines(store, theirs) == (t0 + 2 * DAY, None)
    assert await deadlines(store, others) == (t0 + 2 * DAY, None)
    assert await deadlines(store, elsewhere) == (t0 + 2 * DAY, None)
    told = await service.vacation_notices(GUILD, ALICE)
    assert sorted((n.kind, n.game_id) for n in told) == [("vacation", mine), ("vacation", mine_too)]
    assert await service.vacation_notices(GUILD, BOB) == []
    board = await service.board(mine, GUILD, with_image=False)
    assert (
        board.clock == f"<@{ALICE}> is on vacation until <t:{int(t0 + 6 * DAY)}:f>: the clock waits"
    )

    clock.now = t0 + 2 * DAY  # the old deadline: only the others' games are due
    notices = {(n.kind, n.game_id) for n in await service.tick()}
    assert notices == {
        ("reminder", theirs),
        ("claimable", theirs),
        ("reminder", others),
        ("claimable", others),
        ("reminder", elsewhere),
        ("claimable", elsewhere),
    }
    with pytest.raises(NotAllowed, match="on vacation until"):
        await service.claim_timeout(mine, BOB, guild_id=GUILD)
    # A turn that reaches her during the vacation starts its clock when it ends.
    await service.move(theirs, BOB, "d2", guild_id=GUILD)
    assert await deadlines(store, theirs) == (t0 + 8 * DAY, t0 + 6 * DAY)

    clock.now = t0 + 3 * DAY  # she comes back early: the 3 days not begun are given back
    board = await service.move(mine, ALICE, "d2", guild_id=GUILD)
    assert board.clock == f"<@{BOB}> moves <t:{int(t0 + 5 * DAY)}:R>"
    status = await service.vacation(GUILD, ALICE)
    assert (status.used, status.until) == (2, None)
    assert await deadlines(store, mine) == (t0 + 5 * DAY, None)  # Bob's new turn
    assert await deadlines(store, mine_too) == (t0 + 4 * DAY, None)  # 1 day of hers left
    assert await deadlines(store, theirs) == (t0 + 5 * DAY, None)  # her turn, from now
    assert await deadlines(store, others) == (t0 + 2 * DAY, None)
    board = await service.claim_timeout(others, CAROL, guild_id=GUILD)  # never paused
    assert board.finished


async def test_no_time_out_while_on_vacation(service, store, clock):
    t0 = clock.now
    mine = await game(service, ALICE, BOB)
    await service.start_vacation(GUILD, ALICE, 10)
    clock.now = t0 + 10 * DAY + TIME + DAY - 1  # vacation, time, grace: one second short
    assert await service.tick() != []  # reminders and the claim notice, after the vacation
    assert not (await service.board(mine, GUILD, with_image=False)).finished
    clock.now += 1
    [out] = await service.tick()
    assert (out.kind, out.game_id, out.user_id) == ("timed_out", mine, ALICE)


async def test_the_yearly_allowance(service, clock):
    with pytest.raises(ServiceError, match="30 days of vacation left this year"):
        await service.start_vacation(GUILD, ALICE, 31)
    with pytest.raises(ServiceError, match="not on vacation"):
        await service.start_vacation(GUILD, ALICE, 0)
    status = await service.start_vacation(GUILD, ALICE, 30)
    assert status.left == 0
    with pytest.raises(ServiceError, match="on vacation until"):
        await service.start_vacation(GUILD, ALICE, 1)
    clock.advance(DAY / 2)  # ended during its first day: that day counts
    status = await service.start_vacation(GUILD, ALICE, 0)
    assert (status.used, status.until) == (1, None)
    assert (await service.vacation(GUILD, BOB)).used == 0  # hers alone
    assert (await service.vacation(OTHER_GUILD, ALICE)).used == 0  # in this server alone
    await service.change_server_settings(GUILD, CAROL, manager=True, vacation_days=0)
    with pytest.raises(ServiceError, match="0 days of vacation left"):
        await service.start_vacation(GUILD, BOB, 1)


async def test_the_allowance_is_per_calendar_year(service, clock):
    clock.now = 1_798_761_600.0  # 2027-01-01 00:00 UTC
    clock.advance(-2 * DAY)  # 2026-12-30
    await service.start_vacation(GUILD, ALICE, 2)
    assert (await service.vacation(GUILD, ALICE)).year == 2026
    clock.advance(2 * DAY)  # 2027: the vacation is over, and the year's days are all there
    status = await service.vacation(GUILD, ALICE)
    assert (status.year, status.used, status.until) == (2027, 0, None)
    assert (await service.start_vacation(GUILD, ALICE, 30)).left == 0


async def test_a_vacation_does_not_rescue_a_turn_already_out_of_time(service, store, clock):
    t0 = clock.now
    late = await game(service, BOB, ALICE)  # Bob to move, Alice waits
    clock.now = t0 + TIME + HOUR  # Bob's time ran out an hour ago
    assert ("claimable", late) in {(n.kind, n.game_id) for n in await service.tick()}

    status = await service.start_vacation(GUILD, BOB, 1)
    assert status.until == t0 + TIME + HOUR + DAY
    assert await deadlines(store, late) == (t0 + TIME, None)  # not moved, not paused
    assert await service.vacation_notices(GUILD, BOB) == []  # no clock of his waits
    board = await service.claim_timeout(late, ALICE, guild_id=GUILD)
    assert board.finished


async def test_an_expired_turn_still_times_out_after_the_grace_during_a_vacation(
    service, store, clock
):
    t0 = clock.now
    late = await game(service, BOB, ALICE)
    running = await game(service, BOB, CAROL)
    clock.now = t0 + TIME - HOUR  # the running game's turn has an hour left ...
    await service.move(running, BOB, "d2", guild_id=GUILD)
    clock.now = t0 + TIME + HOUR  # ... the late one ran out an hour ago
    await service.start_vacation(GUILD, BOB, 1)
    clock.now = t0 + TIME + DAY  # time and grace (a day) are out: the game ends on time
    timed_out = [n for n in await service.tick() if n.kind == "timed_out"]
    assert [(n.game_id, n.user_id) for n in timed_out] == [(late, BOB)]
    assert (await service.board(late, GUILD, with_image=False)).finished


async def test_ending_a_vacation_early_moves_back_only_what_it_moved(service, store, clock):
    t0 = clock.now
    late = await game(service, BOB, ALICE)  # Bob's time runs out at t0 + 2 days
    running = await game(service, ALICE, BOB)
    clock.now = t0 + DAY
    await service.move(running, ALICE, "d2", guild_id=GUILD)  # Bob's turn until t0 + 3 days
    clock.now = t0 + TIME + HOUR  # the late turn ran out; the running one has 23 hours left
    await service.start_vacation(GUILD, BOB, 3)  # until t0 + 5 days + 1 hour
    assert await deadlines(store, running) == (t0 + 6 * DAY, t0 + 5 * DAY + HOUR)
    assert await deadlines(store, late) == (t0 + TIME, None)

    clock.now = t0 + TIME + 2 * HOUR  # back after an hour: 2 whole days given back
    status = await service.start_vacation(GUILD, BOB, 0)
    assert (status.used, status.until) == (1, None)
    assert await deadlines(store, running) == (t0 + 3 * DAY + HOUR, None)  # the hour away
    assert await deadlines(store, late) == (t0 + TIME, None)  # untouched, still claimable
    assert (await service.claim_timeout(late, ALICE, guild_id=GUILD)).finished
    with pytest.raises(NotAllowed, match="You can claim a win by timeout"):
        await service.claim_timeout(running, ALICE, guild_id=GUILD)
