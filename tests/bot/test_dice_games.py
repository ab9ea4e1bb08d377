"""A dice game through the service and the board embed: Chebache's rolls, the note of a turn
passed for want of a move, the CHEBACHE! warning, and the record in the game's notation.

Positions come from ``Chebache.from_position`` written into the stored game (as a saved game
would hold them); the dice from a roller that deals fixed rolls.
"""

from __future__ import annotations

import json

import pytest

from bot.domain.service import IllegalMoveError, NotAllowed, RollDue
from bot.storage.rows import decode_state
from cogs.common.boards import board_content, board_embed, board_view
from cogs.common.game_buttons import RollButton
from games import Chebache
from tests.fakes import QueuedRoller

from .conftest import ALICE, BOB, GUILD, raw_sql, start_game


@pytest.fixture
def dice(roller: QueuedRoller) -> QueuedRoller:
    return roller


def put_position(db_path: str, game_id: int, position: Chebache) -> None:
    raw_sql(
        db_path,
        "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
        (position.to_json(), game_id),
    )


async def test_roll_first_then_the_turn_in_the_texts_notation(service, dice, db_path):
    board = await start_game(service, kind="chebache")
    assert board.dice_needed == "2d6" and board.status == "White to roll"
    assert board_content(board) == f"<@{ALICE}>, your turn to roll (2d6)."
    assert isinstance(board_view(board).children[0], RollButton)
    with pytest.raises(RollDue, match="roll the dice first \\(2d6\\)"):
        await service.move(board.game_id, ALICE, "S/3", guild_id=GUILD)
    with pytest.raises(NotAllowed, match="turn"):
        await service.roll(board.game_id, BOB, guild_id=GUILD)
    assert dice.calls == []

    dice.queued.append((3, 2))
    board = await service.roll(board.game_id, ALICE, guild_id=GUILD, expected_version=1)
    assert board.note == "White rolled 3 2" and board.last_action == "[3 2]"
    assert board.dice_needed is None and board.legal_count == 4
    assert not any(isinstance(item, RollButton) for item in board_view(board).children)
    assert board_embed(board).description == (
        "White to move (phase I, dice left: 2 3)\nWhite rolled 3 2\nLast move: `[3 2]`"
    )
    # Stored before any move: another service on the same file sees it, and no re-roll.
    stored = json.loads(decode_state(raw_sql(db_path, "SELECT state FROM games")[0][0]))
    assert stored["state"]["roll"] == [3, 2]
    with pytest.raises(NotAllowed, match="No roll is due"):
        await service.roll(board.game_id, ALICE, guild_id=GUILD)
    assert len(dice.calls) == 1

    board = await service.move(board.game_id, ALICE, "S/3 S/2", guild_id=GUILD)
    assert board.note is None and board.last_action == "[3 2] S/3 S/2"
    board = await service.move(board.game_id, ALICE, "2^4", guild_id=GUILD)
    assert board.last_action == "[3 2] S/3 S/2 2^4" and board.to_move_user == BOB
    assert board_content(board) == f"<@{BOB}>, your turn to roll (2d6)."
    assert await service.history(board.game_id, GUILD) == ["1W: [3 2]; S/3, S/2; 2^4"]
    await service.resign(board.game_id, BOB, guild_id=GUILD)
    assert await service.history(board.game_id, GUILD) == [
        "1W: [3 2]; S/3, S/2; 2^4",
        "White wins: resignation",
    ]


async def test_a_roll_without_a_legal_move_says_the_turn_passes(service, dice, db_path):
    board = await start_game(service, kind="chebache")
    put_position(db_path, board.game_id, Chebache.from_position({"S": "1"}, {13: "4"}))
    dice.queued.append((1, 1))
    board = await service.roll(board.game_id, ALICE, guild_id=GUILD)
    assert board.note == "White rolled 1 1: no legal move, the turn passes"
    assert board.to_move_user == BOB and board.dice_needed == "2d6"
    embed = board_embed(board)
    assert embed.description == (
        "Black to roll\nWhite rolled 1 1: no legal move, the turn passes\nLast move: `[1 1]`"
    )
    assert board_content(board) == f"<@{BOB}>, your turn to roll (2d6)."


async def test_the_chebache_warning_tops_the_embed(service, dice, db_path):
    board = await start_game(service, kind="chebache")
    # White's Chebache A (1, 2, 3) controls Black's 14, where a Black piece stands.
    position = Chebache.from_position({1: "1", 2: "1", 3: "1"}, {14: "1", 4: "1"}, turn=1)
    put_position(db_path, board.game_id, position)
    board = await service.board(board.game_id, GUILD)
    warning = "CHEBACHE! Black's space 14 threatened"
    assert ("Warning", warning) in board.fields
    embed = board_embed(board)
    assert embed.description == f"Black to roll\n**{warning}**"
    assert "Warning" not in [f.name for f in embed.fields]
    assert board_content(board) == f"<@{BOB}>, your turn to roll (2d6)."
    dice.queued.append((1, 2))
    board = await service.roll(board.game_id, BOB, guild_id=GUILD)
    assert board_embed(board).description.split("\n")[:3] == [
        "Black to move (phase I, dice left: 1 2)",
        "Black rolled 1 2",
        f"**{warning}**",
    ]
    board = await service.move(board.game_id, BOB, "S/1 S/2", guild_id=GUILD)  # stays: trapped
    assert ("Warning", warning) not in board.fields
    assert (await service.history(board.game_id, GUILD))[-1] == (
        "1B: [1 2]; S/1, S/2; -1@14; <B14>"
    )


async def test_end_is_refused_unless_the_engine_offers_it(service, dice, db_path):
    board = await start_game(service, kind="chebache")
    dice.queued += [(3, 2), (3, 3)]
    await service.roll(board.game_id, ALICE, guild_id=GUILD)
    with pytest.raises(IllegalMoveError):
        await service.move(board.game_id, ALICE, "end", guild_id=GUILD)
    near_home = Chebache.from_position({"S": "0", 12: "1", 16: "1"}, {3: "2"})
    put_position(db_path, board.game_id, near_home)
    await service.roll(board.game_id, ALICE, guild_id=GUILD)
    assert await service.legal_moves(board.game_id, GUILD) == ["16\\13", "end"]
    board = await service.move(board.game_id, ALICE, "end", guild_id=GUILD)
    assert board.to_move_user == BOB and board.last_action == "[3 3] end"
