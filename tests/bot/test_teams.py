"""Team games through the service: Šačidjun challenges with partners (everyone invited
accepts), the side and colour draw with server dice, draws and claims between sides, offers
made before the roll, whole sub-turns in the move menu, and the free ``/roll``.
"""

from __future__ import annotations

import pytest

from bot.domain.service import (
    BoardView,
    ChallengeView,
    GameService,
    NotAllowed,
    RollDue,
    ServiceError,
    parse_dice,
)
from games import DiceSpec, Sachidjun
from tests.fakes import QueuedRoller

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, raw_sql

DAVE = 1_234_567_890_123_456_784


@pytest.fixture
def dice(roller) -> QueuedRoller:
    return roller


async def challenge(service: GameService, **partners: int) -> ChallengeView:
    return await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="sachi",
        challenger_id=ALICE,
        opponent_id=BOB,
        **partners,
    )


async def test_two_player_draw_high_roll_takes_veradi(service, dice):
    created = await challenge(service)
    assert created.invited == (BOB,) and created.draws_sides
    dice.queued.append((2, 7))  # Alice 2, Bob 7: Bob plays veradi
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert isinstance(board, BoardView)
    assert board.players == (BOB, ALICE)
    assert board.seat_names == ("Veradi", "Tameg")
    assert dict(board.fields)["Sides drawn"] == f"<@{ALICE}> 2, <@{BOB}> 7 → <@{BOB}> veradi"
    assert dice.calls == [DiceSpec(2, 8)]


async def test_four_players_all_accept_then_sides_and_colours(service, dice):
    created = await challenge(service, partner_id=CAROL, opponent_partner_id=DAVE)
    assert created.invited == (BOB, CAROL, DAVE)
    with pytest.raises(NotAllowed, match="Only"):
        await service.accept_challenge(created.challenge_id, ALICE)
    waiting = await service.accept_challenge(created.challenge_id, DAVE)
    assert isinstance(waiting, ChallengeView) and waiting.waiting_for == (BOB, CAROL)
    with pytest.raises(NotAllowed, match="already accepted"):
        await service.accept_challenge(created.challenge_id, DAVE)
    assert isinstance(await service.accept_challenge(created.challenge_id, CAROL), ChallengeView)
    # Bob's side 6 beats 3: Bob and Dave are veradi; Bob 1 < Dave 5: Dave raža.
    # Alice and Carol tie at 8, then Alice 4 > Carol 2: Alice raža.
    dice.queued += [(3, 6), (1, 5), (8, 8), (4, 2)]
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert isinstance(board, BoardView)
    # Seats: veradi raža, tameg raža, veradi čadra, tameg čadra.
    assert board.players == (DAVE, ALICE, BOB, CAROL)
    assert board.to_move_user == DAVE
    lines = dict(board.fields)["Sides drawn"].split("\n")
    assert lines[2] == f"<@{ALICE}> 8, <@{CAROL}> 8 (tie, again)"
    assert lines[3] == f"<@{ALICE}> 4, <@{CAROL}> 2 → <@{ALICE}> raža, <@{CAROL}> čadra"


async def test_three_players_with_tameg_as_the_pair(service, dice):
    created = await challenge(service, partner_id=CAROL)
    await service.accept_challenge(created.challenge_id, CAROL)
    # Alice and Carol 1, Bob 2: Bob alone plays veradi, Alice and Carol tameg (a pair).
    dice.queued += [(1, 2), (5, 6)]  # Alice 5 < Carol 6: Carol raža
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert isinstance(board, BoardView)
    assert board.players == (BOB, CAROL, ALICE)
    assert board.seat_names == ("Veradi", "Tameg raža", "Tameg čadra")
    assert dict(board.fields)["Variants"] == "tameg-pair"


async def test_bad_team_challenges_are_refused(service):
    with pytest.raises(NotAllowed, match="yourself"):
        await challenge(service, partner_id=ALICE)
    with pytest.raises(NotAllowed, match="only one place"):
        await challenge(service, partner_id=CAROL, opponent_partner_id=CAROL)
    with pytest.raises(NotAllowed, match="Bots"):
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="sachi",
            challenger_id=ALICE,
            opponent_id=BOB,
            partner_id=CAROL,
            bots=[CAROL],
        )
    with pytest.raises(ServiceError, match="not played with partners"):
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="shax",
            challenger_id=ALICE,
            opponent_id=BOB,
            partner_id=CAROL,
        )


async def test_a_partner_neither_accepts_a_draw_for_the_side_nor_claims_its_turn(
    service, dice, clock
):
    created = await challenge(service, partner_id=CAROL, opponent_partner_id=DAVE)
    for user in (BOB, CAROL):
        await service.accept_challenge(created.challenge_id, user)
    dice.queued += [(8, 1), (2, 1), (1, 2)]  # Alice+Carol veradi, Alice raža; Dave raža
    board = await service.accept_challenge(created.challenge_id, DAVE)
    assert board.players == (ALICE, DAVE, CAROL, BOB)
    await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Your side made this offer"):
        await service.answer_draw(board.game_id, CAROL, True, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Your side has already offered"):
        await service.offer_draw(board.game_id, CAROL, guild_id=GUILD)
    done = await service.answer_draw(board.game_id, BOB, True, guild_id=GUILD)
    assert done.result == "Draw: agreed by both players"

    created = await challenge(service, partner_id=CAROL, opponent_partner_id=DAVE)
    for user in (BOB, CAROL):
        await service.accept_challenge(created.challenge_id, user)
    dice.queued += [(8, 1), (2, 1), (1, 2)]
    board = await service.accept_challenge(created.challenge_id, DAVE)
    clock.advance(8 * DAY)
    with pytest.raises(NotAllowed, match="your side's turn"):
        await service.claim_timeout(board.game_id, CAROL, guild_id=GUILD)
    claimed = await service.claim_timeout(board.game_id, DAVE, guild_id=GUILD)
    assert claimed.result == "Tameg (Tameg raža and Tameg čadra) wins: timeout"


async def test_offers_before_the_roll_and_sub_turns_in_the_menu(service, dice):
    created = await challenge(service)
    dice.queued.append((8, 1))  # Alice veradi
    board = await service.accept_challenge(created.challenge_id, BOB)
    with pytest.raises(RollDue):
        await service.move(board.game_id, ALICE, "M-W2", guild_id=GUILD)
    # Nothing is captured yet: the offer is refused for what it names, not for the roll.
    with pytest.raises(ServiceError, match="get"):
        await service.move(board.game_id, ALICE, "offer:give(1r)+get(1c)", guild_id=GUILD)
    dice.queued.append((3, 5))
    await service.roll(board.game_id, ALICE, guild_id=GUILD)
    choices = await service.move_choices(board.game_id, GUILD)
    assert choices == [
        ("M-W2", "raža from the mora 3 to W2"),
        ("M-W4", "raža from the mora 5 to W4"),
        ("M-W7", "raža from the mora 8 to W7"),
        ("M-W2 M-W4", "whole sub-turn: 3 + 5"),
    ]
    after = await service.move(board.game_id, ALICE, "M-W4 M-W2", guild_id=GUILD)
    assert after.to_move_user == BOB and after.dice_needed == "2d8"


async def test_free_rolls():
    assert parse_dice("2d8") == DiceSpec(2, 8)
    assert parse_dice(" d6 ") == DiceSpec(1, 6)
    assert parse_dice("10D100") == DiceSpec(10, 100)
    huge = "1" * 5000  # past Python's int limit (4,300 digits)
    for bad in ("0d6", "11d6", "2d1", "2d101", "2d", "d", "two dice", "", huge + "d6", "d" + huge):
        with pytest.raises(ServiceError, match="NdM"):
            parse_dice(bad)


async def test_free_roll_uses_the_server_roller(service, dice):
    dice.queued.append((3, 9, 12))
    assert service.free_roll("3d12") == (DiceSpec(3, 12), (3, 9, 12))


async def test_four_players_an_offer_is_answered_by_the_player_addressed(service, dice, db_path):
    created = await challenge(service, partner_id=CAROL, opponent_partner_id=DAVE)
    for user in (BOB, CAROL):
        await service.accept_challenge(created.challenge_id, user)
    dice.queued += [(8, 1), (2, 1), (1, 2)]  # Alice raža, Carol čadra (veradi); Dave raža
    board = await service.accept_challenge(created.challenge_id, DAVE)
    assert board.players == (ALICE, DAVE, CAROL, BOB)
    game = Sachidjun(seats=4)
    game.prisoners[0] = [1, 0]  # veradi's light mora holds a tameg raža
    game.home[1] -= 1
    game.prisoners[3] = [0, 1]  # tameg's dark mora holds a veradi čadra
    game.home[2] -= 1
    raw_sql(
        db_path,
        "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
        (game.to_json(), board.game_id),
    )
    with pytest.raises(ServiceError, match="@r .* or @c"):
        await service.move(board.game_id, ALICE, "offer:give(1r)+get(1c)", guild_id=GUILD)
    offered = await service.move(board.game_id, ALICE, "offer:give(1r)+get(1c)@c", guild_id=GUILD)
    assert offered.to_move_user == BOB  # tameg čadra
    assert offered.answers == (("accept", "Accept the offer"), ("refuse", "Refuse the offer"))
    with pytest.raises(NotAllowed, match=f"<@{BOB}>'s turn"):
        await service.move(board.game_id, DAVE, "accept", guild_id=GUILD)
    answered = await service.move(board.game_id, BOB, "accept", guild_id=GUILD)
    assert answered.to_move_user == ALICE and answered.answers == ()
