"""Issue 11, Discord: every input gets a clear answer, and no committed move loses its board."""

from __future__ import annotations

import discord
from simcord import SetupError

from cogs.common.answers import NO_HOME, SORRY
from cogs.common.buttons import single_button_view
from cogs.common.game_buttons import BoardButton, ChallengeButton

from .helpers import (
    BOARD_BUTTONS,
    answer,
    boards,
    challenge,
    footer,
    labels,
    latest_board,
    play,
    public,
    refused,
    sent_mentions,
    start_game,
    updated,
)

CALLBACK = "/interactions/*/callback"


def acknowledged(env, before: int) -> list[int]:
    """The callback types the bot sent since request ``before`` (5: thinking, 6: silent)."""
    return [
        entry.json["type"]
        for entry in env.http_requests[before:]
        if entry.method == "POST" and entry.path.endswith("/callback")
    ]


async def test_moves_rolls_and_accepts_are_acknowledged_before_the_work(world):
    w = world
    service = w.env.bot.service
    seen: list[tuple[str, list[int]]] = []
    start = len(w.env.http_requests)

    def spy(name):
        original = getattr(service, name)

        async def wrapper(*args, **kwargs):
            seen.append((name, acknowledged(w.env, start)))
            return await original(*args, **kwargs)

        setattr(service, name, wrapper)

    for name in ("accept_challenge", "move", "board", "resign"):
        spy(name)
    match = await start_game(w)
    await play(match, ["d2"])
    await w.alice.slash(w.channel, "game board", game=str(match.game_id))
    await w.bob.slash(match.where, "game resign")
    # Each call found the interaction already acknowledged, by a private "thinking…" for a
    # command (5) and silently for the Accept button (6).
    assert [name for name, _ in seen] == ["accept_challenge", "move", "board", "resign"]
    assert [types[-1] for _, types in seen] == [6, 5, 5, 5]
    # One acknowledgement per interaction: the challenge is answered at once (4), with no wait.
    assert acknowledged(w.env, start) == [4, 6, 5, 5, 5]


async def test_a_move_reaches_the_thread_when_the_token_has_expired(world):
    w = world
    match = await start_game(w)
    w.env.inject_error("POST", CALLBACK, status=404, code=10062, message="Unknown interaction")
    w.env.inject_error("POST", "/webhooks/*", status=404, code=10015, times=None)
    w.env.inject_error("DELETE", "/webhooks/*", status=404, code=10015, times=None)
    await w.alice.slash(match.where, "shax move", move="d2")
    board = latest_board(match.where)
    assert footer(board) == f"Game {match.game_id} · version 2"
    assert board.content == f"{w.bob.mention}, your turn."
    assert sent_mentions(w.env, board.content) == [[w.alice.id, w.bob.id]]
    # Nobody was told to try again (nothing could be told at all), and the game goes on.
    assert all(SORRY not in m.content for m in match.where.history())


async def test_a_move_reaches_the_thread_when_the_followup_fails(world):
    w = world
    match = await start_game(w)
    w.env.inject_error("POST", "/webhooks/*", status=500, times=None)
    w.env.inject_error("PATCH", "/webhooks/*", status=500, times=None)
    result = await w.alice.slash(w.channel, "shax move", move="d2")  # from the channel
    assert result.response is None or SORRY not in (result.response.content or "")
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 2"
    assert latest_board(match.where).content == f"{w.bob.mention}, your turn."


async def test_a_failure_after_a_committed_move_never_says_try_again(world, no_logged_errors):
    w = world
    match = await start_game(w)

    async def broken(*args, **kwargs):
        raise RuntimeError("database on fire")

    w.env.bot.service.set_board_message = broken  # fails after the board went out
    result = await w.alice.slash(match.where, "shax move", move="d2")
    assert result.response is None  # the "thinking…" was taken away, nothing else said
    board = latest_board(match.where)
    assert footer(board) == f"Game {match.game_id} · version 2"
    assert board.content == f"{w.bob.mention}, your turn."
    assert [r.getMessage() for r in no_logged_errors.records] == [
        f"game {match.game_id}: version 2 committed; posting its board failed"
    ]
    no_logged_errors.records.clear()


async def test_a_board_the_bot_cannot_post_comes_as_the_answer(world):
    w = world
    match = await start_game(w)
    w.env.inject_error("POST", f"/channels/{match.where.id}/messages", status=403, code=50013)
    result = await w.alice.slash(match.where, "shax move", move="d2")
    told, board = result.response, public(result)
    assert told.ephemeral and told.content == NO_HOME
    assert board.id in [m.id for m in result.followups] and board.channel.id == match.where.id
    assert board.content == f"{w.bob.mention}, your turn."
    # It is the game's latest board: its buttons work, the older board's are gone.
    assert [labels(m) for m in boards(match.where)] == [[], BOARD_BUTTONS]
    text = refused(await w.bob.click(board, label="Legal moves"), "Legal moves (23)")
    assert "`d2`" not in text


async def test_game_numbers_are_ascii_digits_within_sqlite_range(world):
    w = world
    match = await start_game(w)
    for text in ("99999999999999999999999", str(2**63), "²", "٣", "１", "1 OR 1=1", "-1", "1.0"):
        refused(await w.alice.slash(w.channel, "game board", game=text), "not a game number")
        refused(await w.alice.slash(w.channel, "shax move", move="d2", game=text), "not a game")
        assert await w.alice.autocomplete(w.channel, "shax move", "move", "d", game=text) == []
    refused(await w.alice.slash(w.channel, "game board", game=str(2**63 - 1)), "no game #")
    refused(await w.alice.slash(w.channel, "game history", game=f"#{match.game_id}"))  # "#1"
    # A button whose custom id names no storable game is refused, not a crash.
    bot_channel = w.env.bot.get_channel(w.channel.id)
    for game in (10**23, 2**63):
        forged = await bot_channel.send(view=single_button_view(BoardButton(game, 1, "moves")))
        refused(await w.alice.click(forged, label="Legal moves"), "names no game")
    assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 1"


async def test_a_games_command_refuses_a_game_of_another_kind(world):
    w = world
    result = await w.alice.slash(w.channel, "tchela challenge", opponent=w.bob, first="me")
    updated(await w.bob.click(result.response, label="Accept"))  # Tchela is game #1
    shax = await start_game(w)  # game #2
    text = refused(await w.alice.slash(w.channel, "shax move", move="open5", game="1"))
    assert text == "Game #1 is Tchela: use `/tchela move`."
    text = refused(await w.alice.slash(w.channel, "chebache roll", game="2"))
    assert text == "Game #2 is Shax: use `/shax move`."
    text = refused(await w.alice.slash(w.channel, "sachi move", moves="M-W2", game="1"))
    assert text == "Game #1 is Tchela: use `/tchela move`."
    assert await w.alice.autocomplete(w.channel, "shax move", "move", "", game="1") == []
    # In the Tchela game's thread, without `game`, the same: the thread holds that game only.
    [tchela_thread] = [t for t in w.channel.threads if t.name == "Tchela #1"]
    text = refused(await w.alice.slash(tchela_thread, "shax move", move="d2"))
    assert text == "Game #1 is Tchela: use `/tchela move`."
    history = refused(await w.alice.slash(w.channel, "game history", game="1"))
    assert "No moves yet." in history  # Tchela #1 untouched
    assert footer(latest_board(shax.where)) == f"Game {shax.game_id} · version 1"


async def test_malformed_offers_answer_with_the_notation(world):
    w = world
    for get in ("1x", "one raza", "😀", "1" * 5000, " "):
        text = refused(
            await w.alice.slash(w.channel, "sachi offer", kind="give", get=get, give="1r")
        )
        assert "offer:give(2r,1c)+get(1r)" in text, text
    text = refused(await w.alice.slash(w.channel, "sachi offer", kind="home", get="1r", home="x9"))
    assert "`home`" in text and "offer:home(rW3,cN2)+get(1c)" in text
    refused(await w.alice.slash(w.channel, "sachi offer", kind="give", get="1r", give="2r 1c"))


async def test_numbers_past_the_int_digit_limit_are_refused(world):
    w = world
    refused(await w.alice.slash(w.channel, "roll", dice="1" * 5000 + "d6"), "not a roll")
    refused(await w.alice.slash(w.channel, "roll", dice="1d" + "9" * 5000), "not a roll")
    refused(await w.alice.slash(w.channel, "roll", dice="²d6"), "not a roll")
    result = await w.alice.slash(w.channel, "tchela challenge", opponent=w.bob, first="me")
    updated(await w.bob.click(result.response, label="Accept"))
    refused(await w.alice.slash(w.channel, "tchela move", move="1" * 5000), "1111")


async def test_game_commands_are_for_servers_only(world):
    w = world
    offered = w.alice.user.available_commands()
    assert "roll" in offered  # dice work anywhere
    for name in ("shax challenge", "shax move", "game board", "sachi offer", "jikaida move"):
        assert name not in offered
    try:
        await w.alice.user.slash("shax challenge", opponent=w.bob.user)
    except SetupError:
        pass  # Discord does not even offer it in a DM
    else:
        raise AssertionError("/shax challenge ran in a DM")


async def test_a_thread_the_bot_cannot_post_in_falls_back_to_the_channel(world):
    w = world
    me = w.env.bot.user
    games = w.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(send_messages_in_threads=False)}
    )
    message = await challenge(w.alice, w.bob, games, first="me")
    updated(await w.bob.click(message, label="Accept"))
    [board] = boards(games)  # the board is in the channel ...
    assert board.content == f"{w.alice.mention}, your turn."
    assert all(not boards(thread) for thread in games.threads)  # ... not in the thread
    # The game is played in the channel from then on.
    await w.alice.slash(games, "shax move", move="d2")
    assert footer(latest_board(games)) == "Game 1 · version 2"
    assert labels(boards(games)[0]) == []


async def test_resign_without_a_game_asks_which(world):
    w = world
    first = await start_game(w)
    second = await start_game(w, white=w.alice, black=w.carol)
    asked = await w.alice.slash(w.channel, "game resign")
    refused(asked, "2 games here", "This cannot be undone")
    assert sorted(labels(answer(asked))) == [
        f"Resign Shax #{first.game_id}",
        f"Resign Shax #{second.game_id}",
    ]
    for match in (first, second):  # nothing resigned yet
        assert footer(latest_board(match.where)) == f"Game {match.game_id} · version 1"
    await w.alice.click(answer(asked), label=f"Resign Shax #{second.game_id}")
    assert latest_board(second.where).content == "Game over: Black wins: resignation"
    assert footer(latest_board(first.where)) == f"Game {first.game_id} · version 1"
    # With one game left, still a question, since the game was not named.
    asked = await w.alice.slash(w.channel, "game resign")
    refused(asked, f"Resign Shax #{first.game_id}? This cannot be undone.")
    assert footer(latest_board(first.where)) == f"Game {first.game_id} · version 1"


async def test_bystanders_see_privately_and_hidden_games_not_at_all(world):
    w = world
    match = await start_game(w)
    await play(match, ["d2"])
    history = answer(await w.carol.slash(w.channel, "game history", game=str(match.game_id)))
    assert history.ephemeral and "<@" not in history.content
    # A game in a channel Carol cannot view does not exist for her.
    me = w.env.bot.user
    hidden = w.guild.create_text_channel(
        "private",
        overwrites={
            w.guild.default_role: discord.PermissionOverwrite(view_channel=False),
            w.alice: discord.PermissionOverwrite(view_channel=True),
            w.bob: discord.PermissionOverwrite(view_channel=True),
            me: discord.PermissionOverwrite(view_channel=True),
        },
    )
    secret = await start_game(w, channel=hidden)
    for command in ("game board", "game history"):
        text = refused(await w.carol.slash(w.channel, command, game=str(secret.game_id)))
        assert text == f"There is no game #{secret.game_id} in this server."
    shown = public(await w.bob.slash(w.channel, "game board", game=str(secret.game_id)))
    assert footer(shown) == f"Game {secret.game_id} · version 1"  # players still see it


async def test_accept_and_decline_check_the_server(world):
    w = world
    message = await challenge(w.alice, w.bob, w.channel)
    other = w.env.create_guild(name="Elsewhere")
    lobby = other.create_text_channel("lobby")
    bob = other.add_member(w.bob.user)
    there = w.env.bot.get_channel(lobby.id)
    for action, label in (("accept", "Accept"), ("decline", "Decline")):
        forged = await there.send(view=single_button_view(ChallengeButton(1, action)))
        refused(await bob.click(forged, label=label), "There is no challenge #1.")
    updated(await w.bob.click(message, label="Accept"))  # still pending in its own server
    assert boards(w.channel.threads[0])
