import asyncio

import pytest

from bot.config import Settings
from bot.service import GameService, NotAllowed
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


async def test_reminders_once_per_turn(service, clock):
    board = await start_game(service)
    await service.set_game_location(board.game_id, thread_id=77, message_id=88)
    clock.advance(DAY - 1)
    assert await service.tick() == []
    clock.advance(1)
    [notice] = await service.tick()
    assert notice.kind == "reminder" and notice.user_id == ALICE
    assert (notice.game_id, notice.challenge_id) == (board.game_id, None)
    assert (notice.guild_id, notice.channel_id, notice.thread_id, notice.message_id) == (
        GUILD,
        CHANNEL,
        77,
        88,
    )
    assert f"<@{ALICE}>" in notice.text and f"#{board.game_id}" in notice.text
    clock.advance(HOUR)
    assert await service.tick() == []
    await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    clock.advance(DAY)
    [notice] = await service.tick()
    assert notice.kind == "reminder" and notice.user_id == BOB
    assert await service.tick() == []


async def test_a_reminder_is_not_repeated_by_a_same_player_action(service, clock):
    board = await start_game(service)
    clock.advance(DAY)
    assert len(await service.tick()) == 1
    await service.offer_draw(board.game_id, BOB, guild_id=GUILD)  # Alice still to move
    clock.advance(HOUR)
    assert await service.tick() == []


async def test_claim_after_seven_days(service, clock):
    board = await start_game(service)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)  # Bob to move
    clock.advance(DAY)
    [reminder] = await service.tick()
    assert reminder.user_id == BOB
    clock.advance(5 * DAY)
    with pytest.raises(NotAllowed, match="claim"):
        await service.claim_timeout(board.game_id, ALICE, guild_id=GUILD)
    clock.advance(DAY)
    [notice] = await service.tick()
    assert notice.kind == "claimable" and notice.user_id == ALICE
    assert f"<@{BOB}>" in notice.text
    assert await service.tick() == []
    with pytest.raises(NotAllowed, match="your turn"):
        await service.claim_timeout(board.game_id, BOB, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.claim_timeout(board.game_id, CAROL, guild_id=GUILD)
    board = await service.claim_timeout(board.game_id, ALICE, guild_id=GUILD)
    assert board.finished and board.result == shax_result(lambda game: game.claim_timeout(0))
    clock.advance(30 * DAY)
    assert await service.tick() == []


async def test_a_move_restarts_the_claim_clock(service, clock):
    board = await start_game(service)
    clock.advance(6 * DAY)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    clock.advance(6 * DAY)
    with pytest.raises(NotAllowed):
        await service.claim_timeout(board.game_id, ALICE, guild_id=GUILD)
    clock.advance(DAY)
    notices = await service.tick()
    assert [n.kind for n in notices] == ["reminder", "claimable"]
    board = await service.claim_timeout(board.game_id, ALICE, guild_id=GUILD)
    assert board.result == shax_result(lambda game: game.claim_timeout(0))


async def test_two_processes_ticking_at_once_send_each_notice_once(
    service, store, clock, roller, store_url
):
    """Two bots on one database (each its own store: a second process) run the clock at
    the same moment: every reminder, claim notice and challenge expiry is sent by one."""
    games = [await start_game(service) for _ in range(4)]
    pending = [
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, kind="shax", challenger_id=ALICE, opponent_id=BOB
        )
        for _ in range(3)
    ]
    clock.advance(7 * DAY)  # every game is due a reminder and a claim notice
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
