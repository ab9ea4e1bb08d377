"""Tchela through the game service: variants, and move choices cached per game version."""

from __future__ import annotations

import pytest

from bot.domain.service import NotFound, natural_key
from games import Tchela

from .conftest import ALICE, BOB, CHANNEL, GUILD, OTHER_GUILD, start_game


async def test_variants_reach_the_engine(service):
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="tchela",
        challenger_id=ALICE,
        opponent_id=BOB,
        first="them",
        variants=("two-stores", "4x6"),
    )
    assert challenge.variants == ("4x6", "two-stores")
    board = await service.accept_challenge(challenge.challenge_id, BOB)
    assert board.seat_names == ("South", "North") and board.players == (BOB, ALICE)
    assert board.to_move_user == BOB and board.status == "South to open"
    assert ("Variants", "4x6, two-stores") in board.fields
    assert (
        await service.legal_moves(board.game_id, GUILD)
        == Tchela(["4x6", "two-stores"]).legal_moves()
    )


async def test_move_choices_describe_every_legal_move_in_natural_order(service):
    board = await start_game(service, kind="tchela")
    engine = Tchela()
    choices = await service.move_choices(board.game_id, GUILD)
    moves = [move for move, _ in choices]
    assert moves == sorted(engine.legal_moves(), key=natural_key)
    assert moves[:3] == ["open1", "open2", "open3"]
    assert choices == [(move, engine.describe_move(move)) for move in moves]

    board = await service.move(board.game_id, ALICE, "open5", guild_id=GUILD)
    engine.push("open5")
    choices = await service.move_choices(board.game_id, GUILD)  # a new version: recomputed
    assert [move for move, _ in choices] == sorted(engine.legal_moves(), key=natural_key)
    await service.resign(board.game_id, BOB, guild_id=GUILD)
    assert await service.move_choices(board.game_id, GUILD) == []
    with pytest.raises(NotFound):
        await service.move_choices(board.game_id, OTHER_GUILD)


async def test_move_choices_are_computed_once_per_version(service, monkeypatch):
    described = []
    original = Tchela.describe_move

    def counting(self, move):
        described.append(move)
        return original(self, move)

    monkeypatch.setattr(Tchela, "describe_move", counting)
    board = await start_game(service, kind="tchela")  # the menu is made with the board
    first = await service.move_choices(board.game_id, GUILD)
    assert len(described) == len(first)
    assert await service.move_choices(board.game_id, GUILD) == first
    assert len(described) == len(first)  # cached
    await service.move(board.game_id, ALICE, "open1", guild_id=GUILD)
    second = await service.move_choices(board.game_id, GUILD)
    assert len(described) == len(first) + len(second)


async def test_shax_choices_are_the_moves_themselves(service):
    board = await start_game(service)
    choices = await service.move_choices(board.game_id, GUILD)
    assert [move for move, _ in choices] == await service.legal_moves(board.game_id, GUILD)
    assert all(move == text for move, text in choices)
