"""Poron Jikaida through the service: colour and first move chosen apart (Blue may start),
Pastang, and the autocomplete search reading pieces and drin squares."""

from __future__ import annotations

import pytest

from bot.domain.service import BoardView, GameService, ServiceError
from tests.fakes import QueuedRoller

from .conftest import ALICE, BOB, CHANNEL, GUILD


@pytest.fixture
def dice(roller) -> QueuedRoller:
    return roller


async def start(
    service: GameService, *, first: str, colour: str, variants: tuple[str, ...] = ()
) -> BoardView:
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="jikaida",
        challenger_id=ALICE,
        opponent_id=BOB,
        first=first,
        variants=variants,
        options={"colour": colour},
    )
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert isinstance(board, BoardView)
    return board


async def test_challenger_plays_blue_and_moves_first(service):
    board = await start(service, first="me", colour="blue")
    assert board.players == (BOB, ALICE)  # Yellow, Blue
    assert board.to_move_user == ALICE  # Blue starts: the blue-first variant
    assert dict(board.fields)["Variants"] == "blue-first"
    assert dict(board.fields)["Sides"] == (
        f"Colours chosen by <@{ALICE}>: <@{BOB}> plays Yellow, <@{ALICE}> Blue.\n"
        f"First move chosen by <@{ALICE}>: <@{ALICE}> (Blue)."
    )


async def test_random_colour_and_first_are_drawn_by_the_server(service, dice):
    dice.queued += [(1,), (2,)]  # colour: die 1 -> Yellow for Alice; first: die 2 -> them
    board = await start(service, first="random", colour="random")
    assert board.players == (ALICE, BOB)
    assert board.to_move_user == BOB  # Bob, Blue, was drawn to start
    assert dict(board.fields)["Sides"] == (
        f"Colours drawn at random: <@{ALICE}> plays Yellow, <@{BOB}> Blue.\n"
        f"First move drawn at random: <@{BOB}> (Blue)."
    )


async def test_pastang_yellow_first(service):
    board = await start(service, first="me", colour="yellow", variants=("pastang",))
    assert board.players == (ALICE, BOB) and board.to_move_user == ALICE
    assert dict(board.fields)["Variants"] == "pastang"


async def test_a_colour_must_be_one_of_the_sides(service):
    with pytest.raises(ServiceError, match="yellow or blue or random"):
        await start(service, first="me", colour="green")


async def test_autocomplete_reads_pieces_and_drin_squares(service):
    board = await start(service, first="me", colour="yellow")
    swod = await service.move_choices(board.game_id, GUILD, typed="swod mortil c3")
    # The unmoved Swod on c3: straight 1-3 (c4 c5 c6), diagonally 1-3 (b4 a5, d4 e5 f6).
    assert sorted(move for move, _ in swod) == sorted(
        ["c3-c4", "c3-c5", "c3-c6", "c3-b4", "c3-a5", "c3-d4", "c3-e5", "c3-f6"]
    )
    assert ("c3-c4", "Swod Mortil C3 → Mortil C4 (c3-c4)") in swod
