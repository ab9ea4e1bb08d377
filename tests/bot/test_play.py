import asyncio
import json

import pytest

from bot.config import Settings
from bot.domain.service import (
    CorruptGame,
    GameService,
    IllegalMoveError,
    NotAllowed,
    NotFound,
    ServiceError,
    StaleBoard,
)
from bot.storage import open_store
from bot.storage.rows import decode_state
from games import Shax

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAY,
    GUILD,
    OTHER_GUILD,
    fake_renderer,
    raw_sql,
    shax_result,
    start_game,
    stored_log,
)


def moves(text: str) -> list[str]:
    return text.split()


# White makes mill after mill until Black is down to two pieces (51 plies).
SHAX_WIN = moves(
    "d6 e4 b2 f6 f2 e5 c5 g7 c3 a4 b6 g1 c4 b4 d2 d7 a1 e3 d3 d5 f4 d1 a7 g4 "
    "xb4 c4-b4 xg4 g7-g4 b4-c4 xd7 g4-g7 c4-b4 xa4 g7-g4 b4-a4 xe3 g4-g7 a4-b4 xf6 "
    "g7-d7 b4-a4 xd1 g1-g4 a1-d1 xe4 g4-g1 a4-b4 xd5 d7-g7 b4-c4 xg7"
)


def stored(db_path, game_id):
    [(version, state)] = raw_sql(
        db_path, "SELECT version, state FROM games WHERE id = ?", (game_id,)
    )
    return version, state


async def test_a_full_game_to_a_win(service, clock, db_path):
    board = await start_game(service)
    for ply, move in enumerate(SHAX_WIN, start=1):
        user = board.to_move_user
        clock.advance(60)
        board = await service.move(board.game_id, user, move, guild_id=GUILD)
        assert board.version == ply + 1
    assert board.finished and board.to_move_user is None
    expected = Shax()
    for move in SHAX_WIN:
        expected.push(move)
    assert board.result == board.status == expected.result_text()
    assert board.result.startswith("White wins")
    assert board.last_action == "b4-c4 xg7"
    assert board.legal_count == 0
    moves = stored_log(db_path)
    assert [move for _, _, _, move, _ in moves] == SHAX_WIN
    assert [ply for _, ply, _, _, _ in moves] == list(range(1, len(SHAX_WIN) + 1))
    [(status, result, remind_at)] = raw_sql(db_path, "SELECT status, result, remind_at FROM games")
    assert (status, result, remind_at) == ("finished", board.result, None)
    history = await service.history(board.game_id, GUILD)
    assert history[:2] == ["1. White d6", "2. Black e4"]
    assert history[-2:] == ["51. White xg7", board.result]
    with pytest.raises(ServiceError, match="This game is over"):
        await service.move(board.game_id, BOB, "a1", guild_id=GUILD)


async def test_the_turn_clock_restarts_only_when_the_mover_changes(service, clock, db_path):
    board = await start_game(service)
    for move in SHAX_WIN[:26]:  # through "xb4 c4-b4": White removes then moves on
        before = raw_sql(db_path, "SELECT turn_started_at FROM games")[0][0]
        mover = board.to_move_user
        clock.advance(60)
        board = await service.move(board.game_id, mover, move, guild_id=GUILD)
        after = raw_sql(db_path, "SELECT turn_started_at FROM games")[0][0]
        assert (after == before) == (board.to_move_user == mover)
    assert board.last_action == "c4-b4"


async def test_wrong_player_and_non_player(service, db_path):
    board = await start_game(service)
    with pytest.raises(NotAllowed, match=f"It is <@{ALICE}>'s turn"):
        await service.move(board.game_id, BOB, "d2", guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.move(board.game_id, CAROL, "d2", guild_id=GUILD)
    assert stored(db_path, board.game_id)[0] == 1


async def test_illegal_move_changes_nothing(service, db_path):
    board = await start_game(service)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    before = stored(db_path, board.game_id)
    with pytest.raises(IllegalMoveError) as caught:
        await service.move(board.game_id, BOB, "D2", guild_id=GUILD)
    assert caught.value.message.startswith("`D2` is not legal: ")
    assert "Legal moves include" in caught.value.message
    assert len(caught.value.legal) == 23 and "d2" not in caught.value.legal
    assert stored(db_path, board.game_id) == before
    assert len(stored_log(db_path)) == 1


async def test_stale_expected_version(service):
    board = await start_game(service)
    await service.move(board.game_id, ALICE, "d2", guild_id=GUILD, expected_version=1)
    with pytest.raises(StaleBoard) as caught:
        await service.move(board.game_id, BOB, "a1", guild_id=GUILD, expected_version=1)
    assert caught.value.board.version == 2
    assert caught.value.board.last_action == "d2"
    assert caught.value.message == "The board changed; here is the current one."


async def test_double_submit(service):
    board = await start_game(service)
    await service.move(board.game_id, ALICE, "d2", guild_id=GUILD, expected_version=1)
    with pytest.raises(StaleBoard):
        await service.move(board.game_id, ALICE, "d2", guild_id=GUILD, expected_version=1)
    with pytest.raises(NotAllowed, match="turn"):
        await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)


async def test_concurrent_moves_in_one_process(service, store):
    board = await start_game(service)
    results = await asyncio.gather(
        *(service.move(board.game_id, ALICE, move, guild_id=GUILD) for move in ("d2", "a1", "g7")),
        return_exceptions=True,
    )
    assert sum(not isinstance(result, Exception) for result in results) == 1
    assert all(isinstance(r, StaleBoard | NotAllowed) for r in results if isinstance(r, Exception))
    assert (await store.get_game(board.game_id)).version == 2
    assert len(await store.moves(board.game_id)) == 1


async def test_concurrent_moves_from_two_processes(service, store, clock, roller, store_url):
    """A second store on the same database (SQLite file or PostgreSQL), as a second
    process holds: of the same turn's two moves, exactly one is applied."""
    board = await start_game(service)
    async with await open_store(store_url) as other_store:
        other = GameService(
            other_store, settings=Settings(), clock=clock, roller=roller, renderer=fake_renderer
        )
        for version, (mine, theirs) in enumerate([("d2", "a1"), ("g7", "d7")], start=1):
            results = await asyncio.gather(
                service.move(
                    board.game_id,
                    board.to_move_user,
                    mine,
                    guild_id=GUILD,
                    expected_version=version,
                ),
                other.move(
                    board.game_id,
                    board.to_move_user,
                    theirs,
                    guild_id=GUILD,
                    expected_version=version,
                ),
                return_exceptions=True,
            )
            names = sorted(type(result).__name__ for result in results)
            assert names == ["BoardView", "StaleBoard"], results
            [board] = [result for result in results if not isinstance(result, Exception)]
    assert (await store.get_game(board.game_id)).version == 3
    assert len(await store.moves(board.game_id)) == 2


async def test_resign(service, db_path):
    board = await start_game(service)
    with pytest.raises(NotAllowed):
        await service.resign(board.game_id, CAROL, guild_id=GUILD)
    board = await service.resign(board.game_id, BOB, guild_id=GUILD)  # not Bob's turn: fine
    assert board.finished and board.result == shax_result(lambda game: game.resign(1))
    with pytest.raises(ServiceError, match="over"):
        await service.resign(board.game_id, ALICE, guild_id=GUILD)
    assert raw_sql(db_path, "SELECT status FROM games")[0][0] == "finished"
    assert await service.list_games(GUILD, ALICE) == []
    [summary] = await service.list_games(GUILD, ALICE, include_finished=True)
    assert summary.finished and summary.status == board.result


async def test_draw_offer_declined_then_accepted(service):
    board = await start_game(service)
    game_id = board.game_id
    board = await service.offer_draw(game_id, ALICE, guild_id=GUILD)
    assert dict(board.fields)["Draw offer"] == f"<@{ALICE}> (White) offers a draw"
    with pytest.raises(NotAllowed):
        await service.offer_draw(game_id, ALICE, guild_id=GUILD)
    with pytest.raises(NotAllowed):
        await service.answer_draw(game_id, ALICE, True, guild_id=GUILD)
    with pytest.raises(NotAllowed):
        await service.answer_draw(game_id, CAROL, True, guild_id=GUILD)
    board = await service.answer_draw(game_id, BOB, False, guild_id=GUILD)
    assert "Draw offer" not in dict(board.fields) and not board.finished
    with pytest.raises(ServiceError, match="no draw offer"):
        await service.answer_draw(game_id, BOB, True, guild_id=GUILD)
    await service.offer_draw(game_id, BOB, guild_id=GUILD)
    board = await service.answer_draw(game_id, ALICE, True, guild_id=GUILD)
    assert board.finished and board.result.startswith("Draw")
    with pytest.raises(ServiceError, match="over"):
        await service.offer_draw(game_id, ALICE, guild_id=GUILD)


async def test_a_move_clears_a_draw_offer(service):
    board = await start_game(service)
    await service.offer_draw(board.game_id, BOB, guild_id=GUILD)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    assert "Draw offer" not in dict(board.fields)
    with pytest.raises(ServiceError, match="no draw offer"):
        await service.answer_draw(board.game_id, ALICE, True, guild_id=GUILD)


async def test_crossing_draw_offers_agree(service):
    board = await start_game(service)
    await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)
    board = await service.offer_draw(board.game_id, BOB, guild_id=GUILD)
    assert board.finished and board.result.startswith("Draw")


@pytest.mark.parametrize("junk", ["{not json", '{"game": "shax", "state": {}}', "[]"])
async def test_corrupt_state_is_reported(store, clock, db_path, junk):
    first = GameService(store, settings=Settings(), clock=clock, renderer=fake_renderer)
    board = await start_game(first)
    raw_sql(db_path, "UPDATE games SET state = ? WHERE id = ?", (junk, board.game_id))
    clock.advance(30 * DAY)  # reminders and claims are due, but the game cannot be read
    service = GameService(store, settings=Settings(), clock=clock, renderer=fake_renderer)
    for call in (
        service.board(board.game_id, GUILD),
        service.move(board.game_id, ALICE, "d2", guild_id=GUILD),
        service.legal_moves(board.game_id, GUILD),
        service.history(board.game_id, GUILD),
        service.resign(board.game_id, ALICE, guild_id=GUILD),
    ):
        with pytest.raises(CorruptGame):
            await call
    [summary] = await service.list_games(GUILD, ALICE)
    assert "damaged" in summary.status and summary.to_move_user is None
    assert await service.tick() == []


async def test_guild_isolation(service):
    board = await start_game(service)
    game_id = board.game_id
    for call in (
        service.board(game_id, OTHER_GUILD),
        service.move(game_id, ALICE, "d2", guild_id=OTHER_GUILD),
        service.legal_moves(game_id, OTHER_GUILD),
        service.history(game_id, OTHER_GUILD),
        service.board(999, GUILD),
    ):
        with pytest.raises(NotFound):
            await call
    await service.set_game_location(game_id, thread_id=77, message_id=88)
    assert await service.list_games(OTHER_GUILD, ALICE) == []
    assert await service.game_in_thread(OTHER_GUILD, 77) is None
    assert (await service.game_in_thread(GUILD, 77)).game_id == game_id


async def test_location_and_listing(service):
    board = await start_game(service)
    await service.set_game_location(board.game_id, thread_id=77, message_id=88)
    await service.set_board_message(board.game_id, 99)
    board = await service.board(board.game_id, GUILD)
    assert (board.thread_id, board.message_id, board.version) == (77, 99, 1)
    [summary] = await service.list_games(GUILD, BOB)
    assert (summary.game_id, summary.players, summary.to_move_user) == (
        board.game_id,
        (ALICE, BOB),
        ALICE,
    )
    assert summary.title == "Shax" and summary.status == board.status
    assert await service.list_games(GUILD, CAROL) == []
    with pytest.raises(NotFound):
        await service.set_board_message(999, 1)


async def test_legal_moves_are_cached_per_version(service, db_path):
    board = await start_game(service)
    legal = await service.legal_moves(board.game_id, GUILD)
    assert len(legal) == 24
    # Damage the state without a version bump: the cache still answers for version 1.
    raw_sql(db_path, "UPDATE games SET state = 'junk' WHERE id = ?", (board.game_id,))
    assert await service.legal_moves(board.game_id, GUILD) == legal
    raw_sql(db_path, "UPDATE games SET version = 2 WHERE id = ?", (board.game_id,))
    with pytest.raises(CorruptGame):
        await service.legal_moves(board.game_id, GUILD)


async def test_history_lists_moves(service):
    board = await start_game(service)
    await service.move(board.game_id, ALICE, " D2 ", guild_id=GUILD)
    await service.move(board.game_id, BOB, "a1", guild_id=GUILD)
    assert await service.history(board.game_id, GUILD) == ["1. White d2", "2. Black a1"]


async def test_state_column_holds_the_engine_json(service, db_path):
    board = await start_game(service)
    await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    data = json.loads(decode_state(stored(db_path, board.game_id)[1]))  # compressed
    assert data["game"] == "shax" and data["log"] == [{"seat": 0, "move": "d2"}]


async def test_real_renderer(store, clock):
    render = pytest.importorskip("render")
    if not hasattr(render, "render_png"):
        pytest.skip("render.render_png is not written yet")
    service = GameService(store, settings=Settings(), clock=clock)
    board = await start_game(service)
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    assert board.image.startswith(b"\x89PNG\r\n\x1a\n")
