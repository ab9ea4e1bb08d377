"""Šačidjun through Discord: team challenges with the side draw by server dice, rolls (the
Roll button and ``/sachi roll``), single moves and whole sub-turns, refused re-rolls and
early moves, redemption offers answered with buttons, and the generic ``/roll``.

Every die comes from the bot's roller: the tests queue the dice they need (the side draw
rolls one d8 per side as a 2d8 call, high roll veradi; partners roll the same way, high roll
raža), so each expectation below is worked out from the rules by hand.
"""

from __future__ import annotations

import json
import sqlite3

from simcord import ChannelHandle, MemberActor

from bot.storage.rows import decode_state
from games import Sachidjun
from tests.fakes import QueuedRoller

from .helpers import (
    BOARD_BUTTONS,
    Message,
    assert_board_image,
    description,
    field_value,
    footer,
    labels,
    public,
    refused,
    updated,
    version,
)

ROLL_BUTTONS = ["Roll", *BOARD_BUTTONS]
ANSWER_BUTTONS = ["Accept the offer", "Refuse the offer", *BOARD_BUTTONS]


def boards(where: ChannelHandle) -> list:
    return [m for m in where.history() if any("Šačidjun · " in (e.title or "") for e in m.embeds)]


async def accept_all(challenge: Message, *members: MemberActor) -> int:
    """Each invited member clicks Accept in turn; the last click starts the game."""
    for member in members[:-1]:
        edited = updated(await member.click(challenge, label="Accept"))
        assert "Waiting for:" in description(edited)
        assert labels(edited) == ["Accept", "Decline", "Help"]
    note = description(updated(await members[-1].click(challenge, label="Accept")))
    game_id = int(note.split("Accepted: game #")[1].split("*")[0])
    return game_id


def thread_of(world, challenge: Message) -> ChannelHandle:
    [thread] = [t for t in world.channel.threads if t.id == challenge.id]
    return thread


async def start_two(world, dice: QueuedRoller) -> tuple[int, ChannelHandle]:
    """Alice challenges Bob; the side draw gives Alice 6, Bob 2: Alice plays veradi."""
    w = world
    message = public(await w.alice.slash(w.channel, "sachi challenge", opponent=w.bob))
    assert message.embeds[0].title == "Šačidjun challenge"
    assert "drawn with the server's dice" in description(message)
    dice.queued.append((6, 2))
    game_id = await accept_all(message, w.bob)
    return game_id, thread_of(w, message)


def put_state(db_path: str, game_id: int, game: Sachidjun) -> None:
    """Store ``game`` as the game's state (a new version), as a saved game would hold it."""
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
            (game.to_json(), game_id),
        )
    db.close()


def stored(db_path: str, game_id: int) -> dict:
    with sqlite3.connect(db_path) as db:
        (state,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
    db.close()
    return json.loads(decode_state(state))["state"]


async def test_two_players_draw_sides_roll_and_move(world, dice, db_path):
    w = world
    game_id, thread = await start_two(w, dice)
    [first] = boards(thread)
    await assert_board_image(first)
    assert footer(first) == f"Game {game_id} · version 1"
    drawn = f"{w.alice.mention} 6, {w.bob.mention} 2 → {w.alice.mention} veradi"
    assert field_value(first, "Sides drawn") == drawn
    assert field_value(first, "Veradi").startswith(w.alice.mention)
    assert field_value(first, "Tameg").startswith(w.bob.mention)
    assert description(first) == "Veradi raža to roll"
    assert first.content == f"{w.alice.mention}, your turn to roll (2d8)."
    assert labels(first) == ROLL_BUTTONS

    # Only the seat whose sub-turn it is may roll, and nobody moves before the roll.
    refused(await w.bob.click(first, label="Roll"), f"It is {w.alice.mention}'s turn")
    refused(
        await w.alice.slash(thread, "sachi move", moves="M-W2"),
        "roll the dice first",
        "`/sachi roll`",
    )

    dice.queued.append((3, 5))
    rolled = public(await w.alice.click(first, label="Roll"))
    assert description(rolled).split("\n")[:2] == [
        "Veradi raža to move (3-5, 8 pips left)",
        "Veradi raža rolled 3 5",
    ]
    assert labels(rolled) == BOARD_BUTTONS
    await assert_board_image(rolled)
    refused(await w.alice.slash(thread, "sachi roll"), "No roll is due")
    assert labels(boards(thread)[0]) == []  # the rolled board lost its Roll button

    # Autocomplete: the three single moves (3, 5 and 3+5 from the mora) and the whole
    # sub-turn "M-W2 M-W4"; "M-W2 " narrows to the sub-turn.
    choices = await w.alice.autocomplete(thread, "sachi move", "moves", "")
    assert [c["value"] for c in choices] == ["M-W2", "M-W4", "M-W7", "M-W2 M-W4"]
    narrowed = await w.alice.autocomplete(thread, "sachi move", "moves", "M-W2 ")
    assert [c["value"] for c in narrowed] == ["M-W2 M-W4"]

    # W2 then W2-W7 would move one piece twice: refused, nothing changes.
    refused(
        await w.alice.slash(thread, "sachi move", moves="M-W2 W2-W7"),
        "move 2 of 2",
        "already moved",
    )
    board = public(await w.alice.slash(thread, "sachi move", moves="m-w2 m-w4"))
    assert version(board) == version(rolled) + 1
    assert description(board).startswith("Tameg raža to roll")
    assert board.content == f"{w.bob.mention}, your turn to roll (2d8)."
    assert "Last move: `[3 5] M-W2 M-W4`" in description(board)
    state = stored(db_path, game_id)
    assert state["home"][0] == 6 and state["cells"][2][0] == 1 and state["cells"][4][0] == 1

    # Tameg raža: one move at a time with /sachi roll and /sachi move.
    dice.queued.append((2, 2))
    rolled = public(await w.bob.slash(thread, "sachi roll"))
    assert "Tameg raža rolled 2 2" in description(rolled)
    # Doubles 2-2: tameg raža enter at NE and go south: a move of 2 lands on E1.
    public(await w.bob.slash(thread, "sachi move", moves="M-E1"))
    board = public(await w.bob.slash(thread, "sachi move", moves="M-E1 M-E1 M-E1"))
    assert description(board).startswith("Veradi čadra to roll")
    assert board.content == f"{w.alice.mention}, your turn to roll (2d8)."


async def test_four_players_accept_then_draw_sides_and_colours(world, dice):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    message = public(
        await w.alice.slash(
            w.channel, "sachi challenge", opponent=w.bob, partner=w.carol, opponent_partner=dave
        )
    )
    text = description(message)
    assert f"{w.alice.mention} and {w.carol.mention} challenge {w.bob.mention} and " in text
    assert message.content.startswith(f"{w.bob.mention} {w.carol.mention} {dave.mention}")
    refused(await w.alice.click(message, label="Accept"), "Only")
    edited = updated(await w.bob.click(message, label="Accept"))
    assert f"Waiting for: {w.carol.mention} and {dave.mention}" in description(edited)
    refused(await w.bob.click(message, label="Accept"), "already accepted")
    updated(await dave.click(message, label="Accept"))
    assert boards(w.channel) == [] and w.channel.threads == []  # Carol has not accepted yet

    # Sides: Alice's team 5, Bob's 2 -> Alice and Carol play veradi. Alice and Carol tie on
    # 4, then 2 against 7: Carol plays raža. Bob 8, Dave 3: Bob plays raža.
    dice.queued += [(5, 2), (4, 4), (2, 7), (8, 3)]
    updated(await w.carol.click(message, label="Accept"))
    thread = thread_of(w, message)
    [first] = boards(thread)
    drawn = field_value(first, "Sides drawn")
    assert drawn.split("\n") == [
        f"{w.alice.mention} and {w.carol.mention} 5, {w.bob.mention} and {dave.mention} 2"
        f" → {w.alice.mention} and {w.carol.mention} veradi",
        f"{w.alice.mention} 4, {w.carol.mention} 4 (tie, again)",
        f"{w.alice.mention} 2, {w.carol.mention} 7 → {w.carol.mention} raža,"
        f" {w.alice.mention} čadra",
        f"{w.bob.mention} 8, {dave.mention} 3 → {w.bob.mention} raža, {dave.mention} čadra",
    ]
    assert field_value(first, "Veradi raža") == w.carol.mention
    assert field_value(first, "Tameg raža") == w.bob.mention
    assert field_value(first, "Veradi čadra") == w.alice.mention
    assert field_value(first, "Tameg čadra") == dave.mention
    assert first.content == f"{w.carol.mention}, your turn to roll (2d8)."

    # Alice is Carol's partner but plays čadra: not her sub-turn.
    refused(await w.alice.click(first, label="Roll"), f"It is {w.carol.mention}'s turn")
    dice.queued.append((1, 8))
    rolled = public(await w.carol.click(first, label="Roll"))
    assert "Veradi raža rolled 1 8" in description(rolled)
    board = public(await w.carol.slash(thread, "sachi move", moves="M-W8"))  # 1 + 8 = 9 - 1
    assert board.content == f"{w.bob.mention}, your turn to roll (2d8)."
    refused(await w.carol.slash(thread, "sachi roll"), f"It is {w.bob.mention}'s turn")


def with_prisoners() -> Sachidjun:
    """The start, except that veradi's light mora holds two tameg raža and tameg's light mora
    holds one veradi čadra (pieces out of their own moras)."""
    game = Sachidjun()
    game.prisoners[0] = [2, 0]
    game.home[1] -= 2
    game.prisoners[1] = [0, 1]
    game.home[2] -= 1
    return game


async def test_redemption_offer_refused_then_another_accepted(world, dice, db_path):
    w = world
    game_id, thread = await start_two(w, dice)  # Alice veradi, Bob tameg
    put_state(db_path, game_id, with_prisoners())
    refused(
        await w.alice.slash(thread, "sachi offer", kind="give", get="1c"),
        "An exchange needs `give`",
    )
    refused(
        await w.alice.slash(thread, "sachi offer", kind="give", give="3r", get="1c"),
        "give(...) names opponent pieces you hold: 2r",
    )
    board = public(await w.alice.slash(thread, "sachi offer", kind="give", give="1r", get="1c"))
    assert board.content.startswith(f"{w.bob.mention}, your answer")
    assert labels(board) == ANSWER_BUTTONS
    assert field_value(board, "Offer") == "offer:give(1r)+get(1c)"
    refused(await w.alice.click(board, label="Accept the offer"), f"It is {w.bob.mention}'s turn")

    refusal = public(await w.bob.click(board, label="Refuse the offer"))
    assert refusal.content == f"{w.alice.mention}, your turn to roll (2d8)."
    assert "Last move: Tameg refused the redemption offer `give(1r)+get(1c)`" in description(
        refusal
    )
    refused(
        await w.alice.slash(thread, "sachi offer", kind="give", give="1r", get="1c"),
        "a refusal is final",
    )
    assert labels(boards(thread)[-2]) == []  # the answered offer's buttons are gone

    board = public(await w.alice.slash(thread, "sachi offer", kind="give", give="2 r", get="c"))
    assert field_value(board, "Offer") == "offer:give(2r)+get(1c)"
    accepted = public(await w.bob.click(board, label="Accept the offer"))
    assert accepted.content == f"{w.alice.mention}, your turn to roll (2d8)."
    state = stored(db_path, game_id)
    assert state["prisoners"] == [[0, 0]] * 4
    assert state["home"] == [8, 8, 8, 8]


async def test_offers_expire_with_the_first_move(world, dice, db_path):
    w = world
    game_id, thread = await start_two(w, dice)
    put_state(db_path, game_id, with_prisoners())
    dice.queued.append((3, 5))
    public(await w.alice.slash(thread, "sachi roll"))
    public(await w.alice.slash(thread, "sachi move", moves="M-W2"))
    refused(
        await w.alice.slash(thread, "sachi offer", kind="give", give="1r", get="1c"),
        "before your first move",
    )


async def test_free_dice_roll(world, dice):
    w = world
    dice.queued.append((4, 8))
    said = public(await w.carol.slash(w.channel, "roll", dice="2d8"))
    assert said.content == f"🎲 {w.carol.mention} rolled 2d8: **4, 8** (total 12)"
    dice.queued.append((17,))
    assert public(await w.carol.slash(w.channel, "roll", dice="d20")).content.endswith("**17**")
    refused(await w.carol.slash(w.channel, "roll", dice="11d6"), "up to 10 dice")
    refused(await w.carol.slash(w.channel, "roll", dice="2d101"), "2 to 100 sides")
    refused(await w.carol.slash(w.channel, "roll", dice="lots"), "write NdM")


async def test_a_roll_without_a_legal_move_passes_and_says_so(world, dice, db_path):
    # Four tameg raža hold SW, so every veradi raža entry (it passes SW) is blocked, and no
    # veradi raža is on the track: whatever the roll, the sub-turn passes.
    w = world
    game_id, thread = await start_two(w, dice)
    blocked = Sachidjun()
    blocked.cells[0][1] = 4
    blocked.home[1] = 4
    put_state(db_path, game_id, blocked)
    dice.queued.append((6, 6))
    board = public(await w.alice.slash(thread, "sachi roll"))
    assert description(board).split("\n")[:2] == [
        "Tameg raža to roll",
        "Veradi raža rolled 6 6: no legal move, the turn passes",
    ]
    assert board.content == f"{w.bob.mention}, your turn to roll (2d8)."
    assert field_value(board, "Last pass") == "veradi raža rolled 6 6"


async def test_offer_buttons_survive_a_restart(world, dice, db_path):
    w = world
    game_id, thread = await start_two(w, dice)
    put_state(db_path, game_id, with_prisoners())
    board = public(await w.alice.slash(thread, "sachi offer", kind="give", give="1r", get="1c"))
    await w.restart()
    accepted = public(await w.bob.click(board, label="Accept the offer"))
    assert accepted.content == f"{w.alice.mention}, your turn to roll (2d8)."
    assert stored(db_path, game_id)["prisoners"][0] == [1, 0]  # one of the two given back
