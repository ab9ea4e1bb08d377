import pytest

from bot.service import NotAllowed

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, HOUR, shax_result, start_game


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
