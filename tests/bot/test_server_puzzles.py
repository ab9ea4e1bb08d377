"""Puzzles from a server's own finished games (issue 34, ``bot/domain/puzzles/server.py``):
kept once per game, in the store for that server only, offered first by ``/game puzzle``
there (``game:server`` for them alone), never elsewhere; games that ended before the miner's
first run are left. The confirming search is small here (``ITERATIONS``)."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.domain import puzzles
from bot.domain.puzzles.server import parse_server_id, server_puzzle_id, set_of_game
from bot.domain.service import GameService, NotAllowed
from tests.discord.helpers import SHAX_WIN

from .conftest import ALICE, BOB, CAROL, GUILD, OTHER_GUILD, fake_renderer, start_game

ITERATIONS = 200


@pytest.fixture
def service(store, clock, roller) -> GameService:
    settings = Settings(bot_iterations=ITERATIONS)
    return GameService(store, settings=settings, clock=clock, roller=roller, renderer=fake_renderer)


async def finish_shax(service: GameService, clock, moves: list[str]) -> int:
    """A Shax game between ALICE (White) and BOB: ``moves``, then BOB resigns if it is not
    over. Its id."""
    board = await start_game(service)
    for move in moves:
        clock.advance(60)
        board = await service.move(board.game_id, board.to_move_user, move, guild_id=GUILD)
    if not board.finished:
        board = await service.resign(board.game_id, BOB, guild_id=GUILD)
    assert board.finished
    return board.game_id


async def test_the_store_keeps_a_servers_puzzles_once(store):
    puzzle = '{"kind": "wins"}'
    assert await store.add_server_puzzles(GUILD, 7, [(4, "shax", puzzle)], 10.0) == 1
    added = await store.add_server_puzzles(GUILD, 7, [(4, "shax", "{}"), (9, "shax", "{}")], 11.0)
    assert added == 1  # entry 4 was kept already: left as it was
    assert await store.server_puzzles(GUILD) == [(7, 4, "shax"), (7, 9, "shax")]
    assert await store.server_puzzles(OTHER_GUILD) == []
    assert await store.server_puzzle(7, 4) == (GUILD, "shax", puzzle)
    assert await store.server_puzzle(7, 5) is None


def test_a_server_puzzles_id_names_its_set_game_and_entry():
    assert server_puzzle_id("shax", 12, 30) == "shax:g12-30"
    assert parse_server_id("shax:g12-30") == ("shax", 12, 30)
    assert parse_server_id("shax:12") is None and parse_server_id("shax:g12-x") is None
    assert puzzles.title_of_puzzle("tchela:g3-7") == "Tchela puzzle from game #3"
    assert set_of_game("jikaida", ("pastang",)) == "pastang"
    assert set_of_game("jikaida", ()) == "jikaida"


async def test_a_finished_game_gives_its_server_puzzles_shown_there_only(service, store, clock):
    await finish_shax(service, clock, SHAX_WIN[:5])  # before the miner's first run: left
    assert await service.mine_server_puzzles() == 0
    clock.advance(60)
    game_id = await finish_shax(service, clock, SHAX_WIN)  # the shortest game, 51 plies
    # Worked from the rules: before entry 4 White has c3 and c4, c5 empty: c5 completes the
    # mill c3-c4-c5 (a removal while placing comes later), and nothing else does. Before
    # entry 49 Black has three pieces (d6, g1, g7) and e5-e4 closes a mill: any removal
    # leaves two, a win.
    assert await service.mine_server_puzzles() == 2
    assert await service.mine_server_puzzles() == 0  # a game is mined once
    assert await store.server_puzzles(GUILD) == [(game_id, 4, "shax"), (game_id, 49, "shax")]
    placing = f"shax:g{game_id}-4"
    shown = await service.puzzle(CAROL, guild_id=GUILD)  # the server's own first
    assert (shown.puzzle_id, shown.title) == (placing, f"Shax puzzle from game #{game_id}")
    assert shown.image == b"PNG"
    assert [turn for turn, _ in await service.puzzle_choices(CAROL, "c5")][:1] == ["c5"]
    verdict = await service.answer_puzzle(CAROL, "c5")
    assert verdict.solved and verdict.counted and verdict.stats.solved == 1
    shown = await service.puzzle(CAROL, "server", guild_id=GUILD)
    assert shown.puzzle_id == f"shax:g{game_id}-49"
    verdict = await service.answer_puzzle(CAROL, "e5-e4 xg1")
    assert verdict.solved and verdict.stats.streak == 2
    # Elsewhere: the shipped ones only; the server's own are refused with why.
    elsewhere = await service.puzzle(BOB, guild_id=OTHER_GUILD)
    assert parse_server_id(elsewhere.puzzle_id) is None
    with pytest.raises(NotAllowed, match="no puzzles of its own yet"):
        await service.puzzle(ALICE, "server", guild_id=OTHER_GUILD)
    assert await store.puzzle_answers(ALICE) == []
