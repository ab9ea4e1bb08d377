"""A whole game of Shax, challenge to win, driven through Discord as the players would."""

from __future__ import annotations

from .helpers import (
    BOARD_BUTTONS,
    SHAX_RESULT,
    SHAX_WIN,
    assert_board_image,
    boards,
    description,
    field_value,
    footer,
    labels,
    play,
    refused,
    start_game,
)


async def test_challenge_accept_and_play_to_a_win(world):
    w = world
    match = await start_game(w)
    assert match.where.is_thread and match.where.name == f"Shax #{match.game_id}"
    first = boards(match.where)[0]
    await assert_board_image(first)
    assert first.content == f"{w.alice.mention}, your turn."
    assert labels(first) == BOARD_BUTTONS

    posted = await play(match, SHAX_WIN, check_image=True)

    assert len(posted) == len(SHAX_WIN) == 51
    assert match.engine.result_text() == SHAX_RESULT
    in_thread = boards(match.where)
    assert [m.id for m in in_thread] == [first.id] + [m.id for m in posted]
    for message in in_thread[:-1]:  # every older board lost its buttons
        assert labels(message) == []
    final = posted[-1]
    assert final.content == f"Game over: {SHAX_RESULT}"
    assert description(final) == f"**{SHAX_RESULT}**\nLast move: `e5-e4 xd6`"
    assert field_value(final, "Black") == f"{match.black.mention}\n2 on board, 0 in hand"
    assert footer(final) == f"Game {match.game_id} · version 52"
    assert labels(final) == ["Rematch", "Analysis"]  # the only button left on the final board
    # Boards mention whoever is to move next.
    assert posted[0].content == f"{w.bob.mention}, your turn."
    assert posted[24].content == f"{w.alice.mention}, your turn."  # after the last placement

    history = refused(await w.bob.slash(match.where, "game history"))
    assert f"**Game #{match.game_id}**" in history
    assert "1. White c3" in history and "51. White xd6" in history
    assert SHAX_RESULT in history

    over = await w.bob.slash(match.where, "shax move", move="a1")
    refused(over, "over")
    assert len(boards(match.where)) == 52

    listed = refused(await w.alice.slash(w.channel, "game list"), "no games")
    assert "/shax challenge" in listed
    finished = await w.alice.slash(w.channel, "game list", finished=True)
    text = finished.response.embeds[0].description
    assert f"#{match.game_id} Shax" in text and SHAX_RESULT in text
