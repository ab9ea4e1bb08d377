"""Moves: refusals that change nothing, stale buttons, autocomplete, playing from elsewhere."""

from __future__ import annotations

from .helpers import (
    BOARD_BUTTONS,
    SHAX_WIN,
    answer,
    boards,
    footer,
    labels,
    latest_board,
    play,
    public,
    refused,
    start_game,
)


async def offered(member, where, typed, **filled):
    """The values ``/shax move`` autocomplete offers for ``typed``."""
    choices = await member.autocomplete(where, "shax move", "move", typed, **filled)
    assert len(choices) <= 25
    assert all(c["name"] == c["value"] for c in choices)
    return [c["value"] for c in choices]


async def test_illegal_move_is_refused_and_changes_nothing(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    before = len(match.where.history())

    text = refused(await w.bob.slash(match.where, "shax move", move="d2"), "`d2` is not legal")
    assert "d2 is occupied" in text and "Legal moves include a1, a4, a7, b2, b4" in text
    refused(await w.bob.slash(match.where, "shax move", move="d2-d3"), "not legal")
    refused(await w.bob.slash(match.where, "shax move", move="zz9"), "not legal")

    assert len(match.where.history()) == before
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"
    history = refused(await w.bob.slash(match.where, "game history"))
    assert "1. White d2" in history and "2." not in history
    await play(match, ["D3 "])  # any spelling the engine accepts, recorded canonically
    assert "2. Black d3" in refused(await w.bob.slash(match.where, "game history"))


async def test_wrong_player_is_refused(world):
    w = world
    match = await start_game(w)
    refused(await w.bob.slash(match.where, "shax move", move="d2"), f"{w.alice.mention}'s turn")
    refused(await w.carol.slash(match.where, "shax move", move="d2"), "not playing")
    refused(await w.carol.click(latest_board(match.where), label="Resign"), "not playing")
    assert len(boards(match.where)) == 1
    await play(match, ["d2"])


async def test_double_submit_records_one_move(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    again = await w.alice.slash(match.where, "shax move", move="d2")
    refused(again, f"{w.bob.mention}'s turn")
    assert len(boards(match.where)) == 2
    history = refused(await w.alice.slash(match.where, "game history"))
    assert history.count("d2") == 1


async def test_buttons_of_an_older_board_are_outdated(world):
    w = world
    match = await start_game(w)
    # A board shown outside the thread keeps its buttons, and so does a resign confirmation.
    shown = public(await w.alice.slash(w.channel, "game board", game=str(match.game_id)))
    assert labels(shown) == BOARD_BUTTONS
    confirm = await w.alice.click(latest_board(match.where), label="Resign")
    refused(confirm, "Resign this game?")
    assert labels(answer(confirm)) == ["Yes, resign"]

    await play(match, ["d2"])
    assert labels(boards(match.where)[0]) == []  # the thread's older board lost its buttons
    for label in ("Resign", "Offer draw", "Legal moves"):
        text = refused(await w.alice.click(shown, label=label), "This board is outdated")
        latest = latest_board(match.where)
        assert f"/{match.where.id}/{latest.id}" in text  # a link to the current board
    refused(await w.alice.click(answer(confirm), label="Yes, resign"), "outdated")

    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"
    assert all("offers a draw" not in m.content for m in match.where.history())
    text = refused(await w.bob.click(latest_board(match.where), label="Legal moves"))
    assert text.startswith("Legal moves (23): `a1`") and "`d2`" not in text


async def test_move_autocomplete_in_the_thread(world):
    w = world
    match = await start_game(w)
    assert len(await offered(w.alice, match.where, "")) == 24
    assert await offered(w.alice, match.where, "d") == ["d1", "d2", "d3", "d5", "d6", "d7"]
    assert await offered(w.alice, match.where, "D 2") == ["d2"]
    assert await offered(w.alice, match.where, "zz") == []
    await play(match, SHAX_WIN[:1])
    assert SHAX_WIN[0] not in await offered(w.bob, match.where, "")
    assert len(await offered(w.bob, match.where, "")) == 23

    await play(match, SHAX_WIN[1:25])  # placement and White's removal: now movement
    assert await offered(w.alice, match.where, "") == ["a4-a7", "d7-a7"]
    assert await offered(w.alice, match.where, "d7") == ["d7-a7"]
    await play(match, ["d7-a7"])  # a mill: White removes
    removals = await offered(w.alice, match.where, "x")
    assert len(removals) == 11 and all(m.startswith("x") for m in removals)
    assert await offered(w.alice, match.where, "e5") == ["xe5"]  # contains, not only starts


async def test_game_autocomplete_lists_my_games(world):
    w = world
    first = await start_game(w)
    second = await start_game(w, white=w.carol, black=w.alice)
    choices = await w.alice.autocomplete(w.channel, "shax move", "game", "")
    assert sorted(c["value"] for c in choices) == [str(first.game_id), str(second.game_id)]
    mine = next(c for c in choices if c["value"] == str(first.game_id))
    assert mine["name"].startswith(f"#{first.game_id} Shax — your turn")
    choices = await w.bob.autocomplete(w.channel, "game board", "game", "")
    assert [c["value"] for c in choices] == [str(first.game_id)]
    assert await w.carol.autocomplete(w.channel, "game board", "game", f"#{first.game_id}") == []
    # With the game chosen, move autocomplete offers that game's moves, even outside it.
    filled = {"game": str(first.game_id)}
    assert await offered(w.alice, w.channel, "a", **filled) == ["a1", "a4", "a7"]
    # Without it, outside any thread, Alice has two games and one is hers to move.
    assert await offered(w.alice, w.channel, "a") == ["a1", "a4", "a7"]


async def test_moving_from_outside_the_thread_with_the_game_option(world):
    w = world
    match = await start_game(w)
    result = await w.alice.slash(w.channel, "shax move", move="d2", game=str(match.game_id))
    match.engine.push("d2")
    # The board goes to the game's thread (one record of the game); the player gets a link.
    latest = latest_board(match.where)
    text = refused(result, f"Shax #{match.game_id}: Black to place")
    assert text.endswith(f"The board: <#{match.where.id}>")
    assert footer(latest) == f"Game {match.game_id} · version 2"
    assert latest.content == f"{w.bob.mention}, your turn."
    assert boards(w.channel) == []
    assert [labels(m) for m in boards(match.where)] == [[], BOARD_BUTTONS]
    listed = await w.bob.slash(w.channel, "game list")
    text = listed.response.embeds[0].description
    assert listed.response.ephemeral
    assert f"/{match.where.id}/{latest.id})" in text and "**your turn**" in text
    await play(match, ["d6"])  # and the thread carries on
    assert [labels(m) for m in boards(match.where)] == [[], [], BOARD_BUTTONS]
