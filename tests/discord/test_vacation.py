"""``/game vacation`` in Discord: the player's clocks wait, the opponent sees it on the board
and cannot claim, a move ends it early; across a restart (issue 16). The clock starts on
2027-01-15 (tests/fakes.py), with 3 days per move."""

from __future__ import annotations

from .helpers import (
    DAY,
    TICK,
    field_value,
    labels,
    latest_board,
    play,
    public,
    refused,
    sent_mentions,
    start_game,
)


async def test_a_vacation_holds_the_clock_until_the_player_moves(world):
    w = world
    start = w.clock.now
    match = await start_game(w)  # Alice to move
    text = refused(await w.alice.slash(w.channel, "game vacation"))
    assert text == "Not on vacation.\n2027: 0 of 30 days taken, 30 left."

    until = int(start + 5 * DAY)
    text = refused(await w.alice.slash(w.channel, "game vacation", days=5))
    assert text == (
        f"On vacation until <t:{until}:f>: your clocks wait.\n2027: 5 of 30 days taken, 25 left."
    )
    [told] = [m for m in match.where.history() if "on vacation" in m.content]
    assert told.content == (
        f"{w.alice.mention} is on vacation until <t:{until}:f>: the clock of Shax #1 waits."
    )
    assert sent_mentions(w.env, told.content) == [[]]  # nobody pinged
    board = public(await w.bob.slash(match.where, "game board"))
    assert field_value(board, "Clock") == (
        f"{w.alice.mention} is on vacation until <t:{until}:f>: the clock waits"
    )

    await w.restart()
    w.clock.now = start + 3 * DAY  # her old deadline: nothing, and no claim
    await w.env.advance_time(TICK)
    assert [m for m in match.where.history() if "claim the win" in m.content] == []
    refused(await w.bob.slash(match.where, "game claim"), "is on vacation until")
    refused(await w.alice.slash(w.channel, "game vacation", days=1), "on vacation until")

    w.clock.now = start + 4 * DAY  # back a day early: that day is given back
    [board] = await play(match, ["d2"])
    assert (
        field_value(board, "Clock") == f"{w.bob.mention} moves <t:{int(w.clock.now + 3 * DAY)}:R>"
    )
    text = refused(await w.alice.slash(w.channel, "game vacation"))
    assert text == "Not on vacation.\n2027: 4 of 30 days taken, 26 left."


async def test_the_allowance_and_ending_by_hand(world):
    w = world
    refused(await w.bob.slash(w.channel, "game vacation", days=31), "30 days of vacation left")
    refused(await w.bob.slash(w.channel, "game vacation", days=0), "not on vacation")
    refused(await w.bob.slash(w.channel, "game vacation", days=30), "30 of 30 days taken, 0 left")
    await w.restart()
    text = refused(await w.bob.slash(w.channel, "game vacation", days=0))
    assert text == "Not on vacation.\n2027: 0 of 30 days taken, 30 left."  # none begun
    text = refused(await w.carol.slash(w.channel, "game vacation"))
    assert text.endswith("0 of 30 days taken, 30 left.")  # Bob's days are his own


async def test_the_latest_board_shows_the_clock_as_a_vacation_starts_and_ends(world):
    """The board already posted keeps its picture and buttons; its clock line is made true
    when the vacation starts and again when it is ended by hand (issue 37)."""
    w = world
    start = w.clock.now
    match = await start_game(w)  # Alice to move, 3 days a move
    board = latest_board(match.where)
    buttons = labels(board)
    moves_by = f"{w.alice.mention} moves <t:{int(start + 3 * DAY)}:R>"
    assert field_value(board, "Clock") == moves_by

    refused(await w.alice.slash(w.channel, "game vacation", days=5))
    shown = latest_board(match.where)
    assert shown.id == board.id  # edited, not posted again
    until = int(start + 5 * DAY)
    assert field_value(shown, "Clock") == (
        f"{w.alice.mention} is on vacation until <t:{until}:f>: the clock waits"
    )
    assert labels(shown) == buttons
    assert shown.embeds[0].image.url == board.embeds[0].image.url

    w.clock.now = start + DAY  # back after a day: four days given back, her clock moved on
    refused(await w.alice.slash(w.channel, "game vacation", days=0))
    shown = latest_board(match.where)
    assert shown.id == board.id
    assert field_value(shown, "Clock") == f"{w.alice.mention} moves <t:{int(start + 4 * DAY)}:R>"
    assert labels(shown) == buttons


async def test_a_vacation_leaves_the_boards_of_games_where_the_player_waits_alone(world):
    w = world
    match = await start_game(w)  # Alice to move: Bob's vacation holds no clock here
    board = latest_board(match.where)
    refused(await w.bob.slash(w.channel, "game vacation", days=2))
    shown = latest_board(match.where)
    assert shown.id == board.id
    assert field_value(shown, "Clock") == field_value(board, "Clock")


async def test_a_move_that_ends_a_vacation_shows_the_other_clocks_running_again(world):
    w = world
    start = w.clock.now
    first = await start_game(w)  # Alice to move against Bob
    second = await start_game(w, white=w.alice, black=w.carol)  # and against Carol
    refused(await w.alice.slash(w.channel, "game vacation", days=5))
    held = latest_board(second.where)
    assert "is on vacation until" in (field_value(held, "Clock") or "")

    w.clock.now = start + 2 * DAY  # back early: her move ends the vacation everywhere
    await play(first, ["d2"])
    shown = latest_board(second.where)
    assert shown.id == held.id
    assert field_value(shown, "Clock") == f"{w.alice.mention} moves <t:{int(start + 5 * DAY)}:R>"
