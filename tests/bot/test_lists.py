"""A player's games through the service: active first, then the most recent, up to a limit."""

from __future__ import annotations

from .conftest import ALICE, BOB, CAROL, GUILD, shax_result, start_game


async def test_list_games_puts_active_games_first_and_keeps_to_the_limit(service, clock):
    finished = []
    for _ in range(5):
        board = await start_game(service)
        clock.advance(60)
        await service.resign(board.game_id, BOB, guild_id=GUILD)
        finished.append(board.game_id)
    clock.advance(60)
    active = (await start_game(service)).game_id
    listed = await service.list_games(GUILD, ALICE, include_finished=True, limit=3)
    assert [game.game_id for game in listed] == [active, finished[4], finished[3]]
    assert [game.finished for game in listed] == [False, True, True]
    resigned = shax_result(lambda game: game.resign(1))
    assert [game.status for game in listed[1:]] == [resigned, resigned]  # the stored result
    everything = await service.list_games(GUILD, BOB, include_finished=True)
    assert [game.game_id for game in everything] == [active, *reversed(finished)]
    assert [game.game_id for game in await service.list_games(GUILD, ALICE)] == [active]
    assert await service.list_games(GUILD, CAROL, include_finished=True) == []
