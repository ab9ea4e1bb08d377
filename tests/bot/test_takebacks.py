"""Takebacks through the service (issue 16): asked, accepted or declined, and what they restore.

The expected positions are the states the store held before the moves taken back (read from
the store at the time), never recomputed by the takeback code.
"""

from __future__ import annotations

import json

import pytest

from bot.domain.service import GameService, NotAllowed, NotFound, ServiceError
from bot.domain.takebacks import LAPSED
from games.record import RECORD_VERSION, load_record
from tests.discord.helpers import SHAX_WIN
from tests.fakes import QueuedRoller

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, start_game
from .test_teams import DAVE


@pytest.fixture
def dice(roller: QueuedRoller) -> QueuedRoller:
    return roller


async def state(service: GameService, game_id: int) -> str:
    row = await service._store.get_game(game_id)
    assert row is not None
    return row.state


async def play(service: GameService, game_id: int, moves: list[str]) -> None:
    for move in moves:
        board = await service.board(game_id, GUILD, with_image=False)
        await service.move(game_id, board.to_move_user, move, guild_id=GUILD)


async def ask_and_accept(service, game_id, asker, answerer):
    asked = await service.ask_takeback(game_id, asker, guild_id=GUILD)
    view, board = await service.answer_takeback(
        game_id, answerer, True, guild_id=GUILD, version=asked.version
    )
    return asked, view, board


# ---- Shax ---------------------------------------------------------------------------


async def test_shax_takeback_of_a_placement_restores_the_position(service, clock):
    board = await start_game(service)  # Alice plays White, first
    game_id = board.game_id
    await play(service, game_id, ["c3", "f6"])
    before = await state(service, game_id)
    clock.advance(60)
    await service.move(game_id, ALICE, "c4", guild_id=GUILD)
    asked = await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    assert (asked.asker, asked.answerers, asked.undone) == (ALICE, (BOB,), ("c4",))
    view, after = await service.answer_takeback(
        game_id, BOB, True, guild_id=GUILD, version=asked.version
    )
    assert view.status == "accepted" and after is not None
    assert await state(service, game_id) == before
    assert after.to_move_user == ALICE and after.last_action == "f6"
    assert after.note == f"Takeback accepted by <@{BOB}>: <@{ALICE}>'s `c4` undone."
    # The game goes on from there.
    board = await service.move(game_id, ALICE, "d7", guild_id=GUILD)
    assert board.to_move_user == BOB


async def test_shax_takeback_undoes_a_move_and_its_removal_together(service):
    board = await start_game(service)
    game_id = board.game_id
    await play(service, game_id, SHAX_WIN[:28])  # ... Black's d6-d7
    before = await state(service, game_id)
    await play(service, game_id, ["e4-e5", "xb2"])  # White's mill and its removal
    asked, _, after = await ask_and_accept(service, game_id, ALICE, BOB)
    assert asked.undone == ("e4-e5", "xb2")
    assert await state(service, game_id) == before
    assert after.to_move_user == ALICE


async def test_declined_takeback_changes_nothing_and_is_not_asked_again(service):
    board = await start_game(service)
    game_id = board.game_id
    await play(service, game_id, ["c3"])
    before = await service._store.get_game(game_id)
    asked = await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    view, shown = await service.answer_takeback(
        game_id, BOB, False, guild_id=GUILD, version=asked.version
    )
    assert view.status == "declined" and shown is None
    assert await service._store.get_game(game_id) == before  # not even the version moved
    with pytest.raises(NotAllowed, match="declined"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    with pytest.raises(ServiceError, match="no longer open"):
        await service.answer_takeback(game_id, BOB, True, guild_id=GUILD, version=asked.version)
    # Bob plays on; the game is where it was.
    board = await service.move(game_id, BOB, "f6", guild_id=GUILD)
    assert board.last_action == "f6"


async def test_strangers_and_the_asker_cannot_answer(service):
    board = await start_game(service)
    game_id = board.game_id
    await play(service, game_id, ["c3"])
    with pytest.raises(NotAllowed, match="not playing"):
        await service.ask_takeback(game_id, CAROL, guild_id=GUILD)
    asked = await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    for user, reason in ((CAROL, "not playing"), (ALICE, "You asked")):
        with pytest.raises(NotAllowed, match=reason):
            await service.answer_takeback(
                game_id, user, True, guild_id=GUILD, version=asked.version
            )
    with pytest.raises(NotAllowed, match="already asked"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    with pytest.raises(NotFound):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD + 1)
    events = await service.game_events(game_id, GUILD)
    assert [e.kind for e in events] == ["entry", "takeback-ask"]


async def test_refused_once_the_opponent_has_moved_or_before_any_move(service):
    board = await start_game(service)
    game_id = board.game_id
    with pytest.raises(NotAllowed, match="nothing to take back"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    await play(service, game_id, ["c3", "f6"])
    with pytest.raises(NotAllowed, match="Too late: Black has moved"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)


async def test_a_move_racing_with_the_request_wins_and_the_request_lapses(service):
    board = await start_game(service)
    game_id = board.game_id
    await play(service, game_id, ["c3"])
    asked = await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    await service.move(game_id, BOB, "f6", guild_id=GUILD)  # Bob plays instead
    after_move = await state(service, game_id)
    with pytest.raises(ServiceError, match="no longer open"):
        await service.answer_takeback(game_id, BOB, True, guild_id=GUILD, version=asked.version)
    assert await state(service, game_id) == after_move
    assert LAPSED.startswith("This takeback request is no longer open")


async def test_no_takeback_once_the_game_is_over(service):
    board = await start_game(service)
    game_id = board.game_id
    await play(service, game_id, ["c3"])
    await service.resign(game_id, BOB, guild_id=GUILD)
    with pytest.raises(ServiceError, match="over"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)


async def test_a_rated_game_allows_a_takeback_with_consent_and_records_it(service, store):
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        challenger_id=ALICE,
        opponent_id=BOB,
        first="me",
        options={"rated": True},
    )
    board = await service.accept_challenge(challenge.challenge_id, BOB)
    await play(service, board.game_id, ["c3"])
    await ask_and_accept(service, board.game_id, ALICE, BOB)
    kinds = [e.kind for e in await store.game_events(board.game_id)]
    assert kinds == ["entry", "takeback-ask", "takeback-accept"]


# ---- dice games: the position and the dice come back, the roll is never made again ----


async def test_chebache_takeback_restores_the_roll_and_forbids_a_second_one(service, dice):
    board = await start_game(service, kind="chebache")
    game_id = board.game_id
    dice.queued.append((3, 2))
    await service.roll(game_id, ALICE, guild_id=GUILD)
    after_roll = await state(service, game_id)
    assert json.loads(after_roll)["state"]["roll"] == [3, 2]
    played = []
    while (now := await service.board(game_id, GUILD, with_image=False)).to_move_user == ALICE:
        move = sorted(await service.legal_moves(game_id, GUILD))[0]
        played.append(move)
        await service.move(game_id, ALICE, move, guild_id=GUILD)
    assert now.dice_needed == "2d6" and now.to_move_user == BOB  # Bob's roll is due
    rolls = len(dice.calls)
    asked, _, after = await ask_and_accept(service, game_id, ALICE, BOB)
    assert asked.undone == tuple(played)
    assert await state(service, game_id) == after_roll  # the same dice, the same position
    assert after.dice_needed is None and after.to_move_user == ALICE
    with pytest.raises(NotAllowed, match="No roll is due"):
        await service.roll(game_id, ALICE, guild_id=GUILD)
    assert len(dice.calls) == rolls  # no die was rolled again
    assert sorted(await service.legal_moves(game_id, GUILD))[0] == played[0]


async def test_chebache_refused_after_the_opponent_rolled_or_with_only_a_roll(service, dice):
    board = await start_game(service, kind="chebache")
    game_id = board.game_id
    dice.queued.append((3, 2))
    await service.roll(game_id, ALICE, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="only rolled"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)
    while (await service.board(game_id, GUILD, with_image=False)).to_move_user == ALICE:
        move = sorted(await service.legal_moves(game_id, GUILD))[0]
        await service.move(game_id, ALICE, move, guild_id=GUILD)
    dice.queued.append((4, 1))
    await service.roll(game_id, BOB, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Too late: Black has rolled"):
        await service.ask_takeback(game_id, ALICE, guild_id=GUILD)


async def test_sachidjun_takeback_restores_the_sub_turn_and_its_dice(service, dice):
    board = await start_game(service, kind="sachidjun")
    game_id = board.game_id
    mover = board.to_move_user
    other = next(p for p in board.players if p != mover)
    dice.queued.append((3, 5))
    await service.roll(game_id, mover, guild_id=GUILD)
    after_roll = await state(service, game_id)
    played = []
    while (now := await service.board(game_id, GUILD, with_image=False)).to_move_user == mover:
        if now.dice_needed:
            break
        move = sorted(await service.legal_moves(game_id, GUILD))[0]
        played.append(move)
        await service.move(game_id, mover, move, guild_id=GUILD)
    assert played and now.to_move_user == other and now.dice_needed == "2d8"
    rolls = len(dice.calls)
    asked, _, after = await ask_and_accept(service, game_id, mover, other)
    assert asked.undone == tuple(played)
    assert await state(service, game_id) == after_roll
    assert after.to_move_user == mover and after.dice_needed is None
    with pytest.raises(NotAllowed, match="No roll is due"):
        await service.roll(game_id, mover, guild_id=GUILD)
    assert len(dice.calls) == rolls
    with pytest.raises(NotAllowed, match="turn"):  # nor may the other side roll in between
        await service.roll(game_id, other, guild_id=GUILD)


async def test_jikaida_takeback(service):
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="jikaida",
        challenger_id=ALICE,
        opponent_id=BOB,
        first="me",
        options={"colour": "blue"},
    )
    board = await service.accept_challenge(created.challenge_id, BOB)
    game_id = board.game_id
    start = await state(service, game_id)
    move = sorted(await service.legal_moves(game_id, GUILD))[0]
    await service.move(game_id, ALICE, move, guild_id=GUILD)
    asked, _, after = await ask_and_accept(service, game_id, ALICE, BOB)
    assert asked.undone == (move,)
    assert await state(service, game_id) == start
    assert after.to_move_user == ALICE


# ---- the history: times and events, in the record -------------------------------------


async def test_the_record_holds_times_draw_offers_and_takebacks(service, clock):
    board = await start_game(service)
    game_id = board.game_id
    clock.advance(60)
    await service.move(game_id, ALICE, "c3", guild_id=GUILD)  # START + 60
    clock.advance(60)
    await service.move(game_id, BOB, "f6", guild_id=GUILD)  # START + 120
    clock.advance(60)
    await service.offer_draw(game_id, ALICE, guild_id=GUILD)
    await service.answer_draw(game_id, BOB, False, guild_id=GUILD)
    clock.advance(60)
    await service.move(game_id, ALICE, "c4", guild_id=GUILD)  # START + 240, taken back
    clock.advance(60)
    await ask_and_accept(service, game_id, ALICE, BOB)  # START + 300
    clock.advance(60)
    await service.move(game_id, ALICE, "c5", guild_id=GUILD)  # START + 360
    data, text = await service.record_files(game_id, GUILD)
    record = json.loads(data)
    assert record["version"] == RECORD_VERSION == 2
    # START is 2027-01-15T08:00:00Z.
    assert [(m["move"], m["at"]) for m in record["moves"]] == [
        ("c3", "2027-01-15T08:01:00Z"),
        ("f6", "2027-01-15T08:02:00Z"),
        ("c5", "2027-01-15T08:06:00Z"),
    ]
    assert record["events"] == [
        {"ply": 2, "seat": 0, "event": "draw-offer", "at": "2027-01-15T08:03:00Z"},
        {"ply": 2, "seat": 1, "event": "draw-decline", "at": "2027-01-15T08:03:00Z"},
        {
            "ply": 3,
            "seat": 0,
            "event": "takeback-ask",
            "at": "2027-01-15T08:05:00Z",
            "undone": ["c4"],
            "to_ply": 2,
        },
        {
            "ply": 3,
            "seat": 1,
            "event": "takeback-accept",
            "at": "2027-01-15T08:05:00Z",
            "asker": 0,
            "undone": ["c4"],
            "to_ply": 2,
        },
    ]
    loaded, game = load_record(data)
    assert loaded.events == record["events"] and game.moves() == ["c3", "f6", "c5"]
    assert "   (White offers a draw, 2027-01-15T08:03:00Z)" in text
    assert "   (Black accepts the takeback: White's c4 undone, 2027-01-15T08:05:00Z)" in text
    lines = text.splitlines()
    assert (
        lines.index("2. Black: f6")
        < lines.index("   (Black accepts the takeback: White's c4 undone, 2027-01-15T08:05:00Z)")
        < lines.index("3. White: c5")
    )


async def test_the_history_shows_draw_offers_and_takebacks_in_order(service):
    board = await start_game(service)
    game_id = board.game_id
    await play(service, game_id, ["c3", "f6"])
    await service.offer_draw(game_id, ALICE, guild_id=GUILD)
    await service.answer_draw(game_id, BOB, False, guild_id=GUILD)
    await service.move(game_id, ALICE, "c4", guild_id=GUILD)
    await ask_and_accept(service, game_id, ALICE, BOB)
    await service.move(game_id, ALICE, "c5", guild_id=GUILD)
    await service.move(game_id, BOB, "e4", guild_id=GUILD)
    asked = await service.ask_takeback(game_id, BOB, guild_id=GUILD)
    await service.answer_takeback(game_id, ALICE, False, guild_id=GUILD, version=asked.version)
    await service.offer_draw(game_id, ALICE, guild_id=GUILD)  # still unanswered
    assert await service.history(game_id, GUILD) == [
        "1. White c3",
        "2. Black f6",
        "   (White offers a draw)",
        "   (Black declines the draw)",
        "   (White asks for a takeback)",
        "   (Black accepts the takeback: White's c4 undone)",
        "3. White c5",
        "4. Black e4",
        "   (Black asks for a takeback)",
        "   (White declines the takeback)",
        "   (White offers a draw)",
    ]
    await service.answer_draw(game_id, BOB, True, guild_id=GUILD)
    history = await service.history(game_id, GUILD)
    assert history[-2:] == ["   (Black accepts the draw)", "Draw: agreed by both players"]


async def test_the_history_of_a_dice_game_shows_a_takeback_after_its_turn(service, dice):
    board = await start_game(service, kind="chebache")
    game_id = board.game_id
    dice.queued += [(3, 2), (1, 1)]
    await service.roll(game_id, ALICE, guild_id=GUILD)
    while (await service.board(game_id, GUILD, with_image=False)).to_move_user == ALICE:
        move = sorted(await service.legal_moves(game_id, GUILD))[0]
        await service.move(game_id, ALICE, move, guild_id=GUILD)
    played = await service.history(game_id, GUILD)
    await ask_and_accept(service, game_id, ALICE, BOB)
    assert await service.history(game_id, GUILD) == [  # the turn is at its roll again
        "   (White asks for a takeback)",
        f"   (Black accepts the takeback: White's {' '.join(played_moves(played))} undone)",
    ]
    while (await service.board(game_id, GUILD, with_image=False)).to_move_user == ALICE:
        move = sorted(await service.legal_moves(game_id, GUILD))[0]
        await service.move(game_id, ALICE, move, guild_id=GUILD)
    await service.roll(game_id, BOB, guild_id=GUILD)
    move = sorted(await service.legal_moves(game_id, GUILD))[0]
    await service.move(game_id, BOB, move, guild_id=GUILD)
    history = await service.history(game_id, GUILD)
    assert history[0] == played[0]  # the same turn played again, then what happened in it
    assert history[1:3] == [
        "   (White asks for a takeback)",
        f"   (Black accepts the takeback: White's {' '.join(played_moves(played))} undone)",
    ]
    assert history[3].startswith("2B: [1 1]") and len(history) == 4


def played_moves(history: list[str]) -> list[str]:
    """The moves of Chebache's first turn line, ``1W: [3 2]; S/3, S/2; 2^4``."""
    return [m.strip() for part in history[0].split("; ")[1:] for m in part.split(",")]


async def test_sachidjun_four_players_the_other_side_answers(service, dice):
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="sachi",
        challenger_id=ALICE,
        opponent_id=BOB,
        partner_id=CAROL,
        opponent_partner_id=DAVE,
    )
    for user in (BOB, CAROL):
        await service.accept_challenge(created.challenge_id, user)
    dice.queued += [(3, 6), (1, 5), (8, 8), (4, 2)]  # as in test_teams: Dave starts, veradi
    board = await service.accept_challenge(created.challenge_id, DAVE)
    assert board.players == (DAVE, ALICE, BOB, CAROL) and board.to_move_user == DAVE
    game_id = board.game_id
    dice.queued.append((3, 5))
    await service.roll(game_id, DAVE, guild_id=GUILD)
    after_roll = await state(service, game_id)
    while (now := await service.board(game_id, GUILD, with_image=False)).to_move_user == DAVE:
        move = sorted(await service.legal_moves(game_id, GUILD))[0]
        await service.move(game_id, DAVE, move, guild_id=GUILD)
    assert now.to_move_user == ALICE and now.dice_needed == "2d8"
    asked = await service.ask_takeback(game_id, DAVE, guild_id=GUILD)
    assert asked.answerers == (ALICE, CAROL)
    with pytest.raises(NotAllowed, match="Your side asked"):
        await service.answer_takeback(game_id, BOB, True, guild_id=GUILD, version=asked.version)
    with pytest.raises(NotAllowed, match="Too late"):  # nor can the partner ask for Dave
        await service.ask_takeback(game_id, BOB, guild_id=GUILD)
    _, board = await service.answer_takeback(
        game_id, CAROL, True, guild_id=GUILD, version=asked.version
    )
    assert await state(service, game_id) == after_roll
    assert board.to_move_user == DAVE and board.dice_needed is None
