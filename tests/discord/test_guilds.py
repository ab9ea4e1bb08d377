"""Two servers share one bot and one database, and never see each other's games."""

from __future__ import annotations

from .helpers import footer, latest_board, play, public, refused, start_game


async def test_a_game_in_one_server_is_invisible_from_another(world):
    w = world
    match = await start_game(w)  # Alice and Bob, in the first server
    other = w.env.create_guild(name="Elsewhere")
    lobby = other.create_text_channel("lobby")
    alice = other.add_member(w.alice.user)  # the same person, in the other server
    dave = other.add_member(w.env.create_user("dave"))
    game = str(match.game_id)

    refused(await alice.slash(lobby, "game list"), "no games")
    refused(await alice.slash(lobby, "game list", finished=True), "no games")
    gone = f"no game #{match.game_id} in this server"
    refused(await alice.slash(lobby, "game board", game=game), gone)
    refused(await alice.slash(lobby, "game history", game=game), gone)
    refused(await alice.slash(lobby, "game resign", game=game), gone)
    refused(await alice.slash(lobby, "game draw", game=game), gone)
    refused(await alice.slash(lobby, "game claim", game=game), gone)
    refused(await alice.slash(lobby, "shax move", move="d2", game=game), gone)
    refused(await alice.slash(lobby, "shax move", move="d2"), "no game in progress")
    assert await alice.autocomplete(lobby, "game board", "game", "") == []
    assert await alice.autocomplete(lobby, "shax move", "game", "") == []
    assert await alice.autocomplete(lobby, "shax move", "move", "", game=game) == []
    assert await alice.autocomplete(lobby, "shax move", "move", "") == []

    # A game in the second server is numbered on, and kept apart the other way round too.
    there = await start_game(w, white=alice, black=dave, channel=lobby)
    assert there.game_id != match.game_id
    choices = await w.alice.autocomplete(w.channel, "game board", "game", "")
    assert [c["value"] for c in choices] == [game]
    refused(await w.alice.slash(w.channel, "game board", game=str(there.game_id)), "no game #")
    listed = (await alice.slash(lobby, "game list")).response.embeds[0].description
    assert f"#{there.game_id} Shax" in listed and f"#{match.game_id} Shax" not in listed

    # Nothing in the first game changed; both go on.
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 1"
    await play(match, ["d2"])
    await play(there, ["d2"])
    shown = public(await w.bob.slash(w.channel, "game board"))
    assert footer(shown) == f"Game {match.game_id} · version 2"
