"""Ending a game without playing it out: resignation and draws by agreement."""

from __future__ import annotations

from .helpers import (
    BOARD_BUTTONS,
    answer,
    assert_board_image,
    boards,
    description,
    field_value,
    footer,
    labels,
    latest_board,
    play,
    public,
    refused,
    start_game,
    updated,
)


async def test_resign_with_the_button_asks_for_confirmation(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    board = latest_board(match.where)

    confirm = await w.alice.click(board, label="Resign")  # not her turn: resigning is allowed
    refused(confirm, "Resign this game? This cannot be undone.")
    assert labels(answer(confirm)) == ["Yes, resign"]
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"  # not yet

    done = public(await w.alice.click(answer(confirm), label="Yes, resign"))
    assert done.channel.id == match.where.id
    assert done.content == "Game over: Black wins: resignation"
    assert description(done) == "**Black wins: resignation**\nLast move: `d2`"
    await assert_board_image(done)
    assert [labels(m) for m in boards(match.where)] == [[], [], ["Rematch", "Analysis"]]
    refused(await w.bob.slash(match.where, "shax move", move="d3"), "This game is over")
    refused(await w.alice.click(answer(confirm), label="Yes, resign"), "outdated")


async def test_resign_with_the_command(world):
    w = world
    match = await start_game(w)
    refused(await w.carol.slash(match.where, "game resign"), "not playing")
    refused(await w.carol.slash(w.channel, "game resign"), "no game in progress")
    done = public(await w.bob.slash(match.where, "game resign"))
    assert done.content == "Game over: White wins: resignation"
    assert labels(done) == ["Rematch", "Analysis"]
    assert labels(boards(match.where)[0]) == []
    refused(await w.alice.slash(match.where, "game resign"), "This game is over")
    refused(await w.alice.slash(w.channel, "game resign"), "no game in progress")


async def test_draw_offer_accepted(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    board = latest_board(match.where)
    offer = public(await w.alice.click(board, label="Offer draw"))
    assert offer.channel.id == match.where.id
    assert offer.content == (
        f"{w.alice.mention} offers a draw in Shax #{match.game_id}. {w.bob.mention}, do you accept?"
    )
    assert labels(offer) == ["Accept draw", "Decline"]
    # The offer changed the game's version: the latest board got matching buttons.
    board = latest_board(match.where)
    assert footer(board) == f"Game {match.game_id} · version 2"  # the picture is the same
    await assert_board_image(board)
    assert refused(await w.bob.click(board, label="Legal moves")).startswith("Legal moves (23)")
    shown = answer(await w.carol.slash(w.channel, "game board", game=str(match.game_id)))
    assert shown.ephemeral  # a bystander's copy is private
    assert field_value(shown, "Draw offer") == f"{w.alice.mention} (White) offers a draw"

    refused(await w.alice.click(offer, label="Accept draw"), "You made this offer")
    refused(await w.carol.click(offer, label="Accept draw"), "not playing")
    refused(await w.alice.click(board, label="Offer draw"), "already offered a draw")

    accepted = await w.bob.click(offer, label="Accept draw")
    assert updated(accepted).content == f"Draw offer accepted by {w.bob.mention}."
    assert labels(accepted.response) == []
    assert accepted.followups == []  # the board goes to the game's thread, not to the click
    final = public(accepted)
    assert final.content == "Game over: Draw: agreed by both players"
    assert final.channel.id == match.where.id
    await assert_board_image(final)
    assert [labels(m) for m in boards(match.where)] == [[], [], ["Rematch", "Analysis"]]


async def test_draw_offer_declined_and_play_goes_on(world):
    w = world
    match = await start_game(w)
    board = latest_board(match.where)
    offer = public(await w.bob.click(board, label="Offer draw"))
    declined = await w.alice.click(offer, label="Decline")
    assert updated(declined).content == f"Draw offer declined by {w.alice.mention}."
    assert labels(declined.response) == [] and declined.followups == []
    board = latest_board(match.where)
    assert labels(board) == BOARD_BUTTONS
    assert refused(await w.alice.click(board, label="Legal moves")).startswith("Legal moves (24)")
    await play(match, ["d2"])
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 4"


async def test_a_move_withdraws_the_offer(world):
    w = world
    match = await start_game(w)
    offer = public(await w.alice.click(latest_board(match.where), label="Offer draw"))
    board = (await play(match, ["d2"]))[0]
    assert field_value(board, "Draw offer") is None
    refused(await w.bob.click(offer, label="Accept draw"), "no draw offer")


async def test_crossing_draw_offers_agree(world):
    w = world
    match = await start_game(w)
    public(await w.alice.slash(match.where, "game draw"))
    agreed = public(await w.bob.slash(match.where, "game draw"))
    assert agreed.content == "Game over: Draw: agreed by both players"
    assert labels(agreed) == ["Rematch", "Analysis"]
    assert [labels(m) for m in boards(match.where)] == [[], ["Rematch", "Analysis"]]
