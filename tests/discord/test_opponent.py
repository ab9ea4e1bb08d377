"""The bot opponent through Discord: a whole game against it with the real commands (and a
restart while it is to move), Šačidjun with bot seats, and what nobody may do for it.

The bot searches a small fixed tree here (``BOT_ITERATIONS`` in conftest): its moves are
quick and, its seed being the position's, the same on every run. The human's moves are
drawn by a seeded generator among those the Legal moves button lists.
"""

from __future__ import annotations

import json
import random
import re

from simcord import ChannelHandle, MemberActor
from simcord.builders import UserHandle

from .helpers import (
    BOARD_BUTTONS,
    Message,
    answer,
    boards,
    current,
    description,
    field_value,
    labels,
    public,
    refused,
    updated,
    version,
)

MOVE = re.compile(r"`([^`]+)`")


def the_bot(world) -> MemberActor:
    """The bot's own user, as a member of the test server (to name it in a command)."""
    env = world.env
    return MemberActor(env, world.guild, UserHandle(env, env.backend.bot_user))


def played_by(bot: MemberActor, level: str) -> str:
    return f"Played by {bot.mention} at level **{level}**."


def thread_of(world, message: Message) -> ChannelHandle:
    [thread] = [t for t in world.channel.threads if t.id == message.id]
    return thread


async def legal(member: MemberActor, board: Message) -> list[str]:
    """The moves the Legal moves button lists on this board."""
    text = refused(await member.click(board, label="Legal moves"), "Legal moves (")
    moves = MOVE.findall(text)
    assert moves and "in all" not in text, text
    return moves


async def test_a_whole_shax_game_against_the_bot_with_a_restart_while_it_is_to_move(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=idzeva, first="me", level="easy"
    )
    challenge = result.response
    # No accept step: the bot accepts at once, and the game has its thread.
    assert challenge.content == f"{idzeva.mention} accepts."
    text = description(updated(result))
    assert "The bot plays at level **easy**." in text and "**Accepted: game #1**" in text
    assert labels(updated(result)) == []
    thread = thread_of(w, challenge)
    [first] = boards(thread)
    assert version(first) == 1 and first.content == f"{w.alice.mention}, your turn."
    assert field_value(first, "White").split("\n")[0] == w.alice.mention
    assert field_value(first, "Black").split("\n")[0] == f"{idzeva.mention} (bot, easy)"
    # Left without a move, the game is lost on time, rated: the challenge and board say so.
    lost = "A turn left for 3 days (and 1 day of grace) loses the game on time, and it is rated."
    assert lost in text.split("\n") and field_value(first, "Time-out") == lost

    rng = random.Random(2)
    shown = [first]  # every board, in the order posted
    human_moves = 0
    restarted = False
    while not shown[-1].content.startswith("Game over"):
        board = shown[-1]
        assert board.content == f"{w.alice.mention}, your turn.", board.content
        move = rng.choice(await legal(w.alice, board))
        opponent = w.env.bot.opponent
        if human_moves >= 12 and not restarted:
            # The process stops right after the human's move is committed and posted, before
            # the bot moves: this bot instance does not play.
            w.env.bot.opponent = None
        await w.alice.slash(thread, "shax move", move=move)
        human_moves += 1
        new = boards(thread)[len(shown) :]
        mine = new[0]
        assert version(mine) == version(board) + 1
        assert f"Last move: `{move}" in description(mine) or move.startswith("x")
        thinking = mine.content.startswith(f"{idzeva.mention} is thinking")
        if w.env.bot.opponent is None and not thinking:
            # The human's mill (Alice removes next) or the end: stop on a later move.
            w.env.bot.opponent = opponent
        if w.env.bot.opponent is None:
            # The bot is to move and nobody may move for it, not even its opponent.
            assert new == [mine]
            refused(await w.alice.slash(thread, "shax move", move="a1"), "It is", "turn")
            refused(await w.carol.slash(thread, "shax move", move="a1"), "not playing")
            refused(await w.carol.click(mine, label="Resign"), "not playing")
            await w.restart()
            restarted = True
            new = boards(thread)[len(shown) :]  # the new process played the bot's move
        shown += new
        if mine.content.startswith(f"{idzeva.mention} is thinking"):
            assert len(new) == 2, [m.content for m in new]
            reply = new[1]
            assert version(reply) == version(mine) + 1
            assert played_by(idzeva, "easy") in description(reply)
            assert labels(current(thread, mine)) == []  # the bot's board has the buttons now
        else:
            assert new == [mine]  # the human's mill: Alice removes next; or the game is over
        assert human_moves < 200
    assert restarted
    # It showed itself typing in the game's thread before each of its boards.
    replies = [m for m in shown if played_by(idzeva, "easy") in description(m)]
    typing = [
        entry
        for entry in w.env.http_requests
        if entry.method == "POST" and entry.path == f"/channels/{thread.id}/typing"
    ]
    assert len(typing) >= len(replies) > 10
    # Every version was posted once, in order: the bot never played a move twice.
    assert [version(m) for m in boards(thread)] == list(range(1, len(shown) + 1))
    final = shown[-1]
    assert labels(final) == ["Rematch", "Analysis"]
    history = refused(await w.alice.slash(thread, "game history"))
    assert final.content.removeprefix("Game over: ") in history

    # A rematch: the bot accepts at once, the sides swap, the level stays.
    await w.alice.click(final, label="Rematch")
    [rematch] = [m for m in w.channel.history() if m.embeds and "game #2" in description(m)]
    assert rematch.content == f"{idzeva.mention} accepts."
    text = description(rematch)
    assert "The bot plays at level **easy**." in text and "bot_levels" not in text
    assert "**Accepted: game #2**" in text and labels(rematch) == []
    [again, *_] = boards(thread_of(w, rematch))
    assert field_value(again, "White").split("\n")[0] == f"{idzeva.mention} (bot, easy)"
    assert field_value(again, "Black").split("\n")[0] == w.alice.mention


async def test_two_friends_against_two_bot_seats_in_sachidjun(world, dice):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(
        w.channel,
        "sachi challenge",
        opponent=idzeva,
        partner=w.bob,
        opponent_partner=idzeva,
        level="easy",
    )
    challenge = result.response
    assert challenge.content == f"{w.bob.mention}, you are challenged!"
    waiting = description(updated(result))  # the bot accepted at once; Bob has not yet
    assert f"Accepted: {idzeva.mention}" in waiting and f"Waiting for: {w.bob.mention}" in waiting
    # Alice and Bob 2, the bot's side 7: veradi. The bot's seats 5, 1: its first seat raža.
    # Alice 8, Bob 3: Alice raža. The bot's first roll: 3 5.
    dice.queued += [(2, 7), (5, 1), (8, 3), (3, 5)]
    updated(await w.bob.click(challenge, label="Accept"))
    thread = thread_of(w, challenge)
    first, reply = sachi_boards(thread)
    assert first.content == f"{idzeva.mention} is thinking: Veradi raža to roll."
    assert field_value(first, "Veradi raža").startswith(f"{idzeva.mention} (bot, easy)")
    assert field_value(first, "Veradi čadra").startswith(f"{idzeva.mention} (bot, easy)")
    assert labels(current(thread, first)) == []
    text = description(reply)
    assert text.startswith("Tameg raža to roll\nVeradi raža rolled 3 5\n")
    assert played_by(idzeva, "easy") in text
    assert reply.content == f"{w.alice.mention}, your turn to roll (2d8)."
    assert labels(reply) == ["Roll", *BOARD_BUTTONS]

    # Bob may not roll for Alice, nor anyone for the bot; Alice rolls and plays her sub-turn.
    refused(await w.bob.click(reply, label="Roll"), f"It is {w.alice.mention}'s turn")
    dice.queued.append((1, 2))
    board = public(await w.alice.click(reply, label="Roll"))
    while board.content == f"{w.alice.mention}, your turn.":
        move = (await legal(w.alice, board))[0]
        board = public(await w.alice.slash(thread, "sachi move", moves=move))
    # The reply to Alice's last move is the bot's second seat's sub-turn, after her board.
    mine, bots = sachi_boards(thread)[-2:]
    assert mine.content == f"{idzeva.mention} is thinking: Veradi čadra to roll."
    assert labels(current(thread, mine)) == []  # no Roll button for anyone but the bot
    assert version(bots) == version(mine) + 2  # its roll, then its move
    assert description(bots).startswith("Tameg čadra to roll\nVeradi čadra rolled ")
    assert bots.content == f"{w.bob.mention}, your turn to roll (2d8)."
    refused(await w.alice.slash(thread, "sachi roll"), f"It is {w.bob.mention}'s turn")


def sachi_boards(where: ChannelHandle) -> list[Message]:
    return [m for m in where.history() if any("Šačidjun · " in (e.title or "") for e in m.embeds)]


async def test_the_level_is_for_the_bot_and_other_bots_still_cannot_play(world):
    w = world
    robot = w.guild.add_member(w.env.create_user("robot", bot=True))
    for command in ("shax", "tchela", "chebache", "jikaida", "sachi"):
        result = await w.alice.slash(
            w.channel, f"{command} challenge", opponent=w.bob, level="hard"
        )
        refused(result, "The level is for games against the computer", the_bot(w).mention)
        result = await w.alice.slash(
            w.channel, f"{command} challenge", opponent=robot, level="easy"
        )
        refused(result, "Bots cannot play; challenge people (or me,")
    assert w.channel.history() == []


async def test_the_bot_declines_a_draw_offer_at_once(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(w.channel, "tchela challenge", opponent=idzeva, first="me")
    thread = thread_of(w, result.response)
    [board] = [m for m in thread.history() if m.embeds]
    offer = public(await w.alice.click(board, label="Offer draw"))
    assert offer.content == f"Draw offer declined by {idzeva.mention}: it plays on."
    assert labels(offer) == []
    # The board's buttons follow the new version: Alice plays on from it.
    latest = current(thread, board)
    assert labels(latest) == BOARD_BUTTONS
    refused(await w.alice.click(latest, label="Legal moves"), "Legal moves (")


async def test_in_a_friendly_game_the_bot_accepts_a_draw_in_an_even_position(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(
        w.channel, "tchela challenge", opponent=idzeva, first="me", rated=False
    )
    thread = thread_of(w, result.response)
    [board] = [m for m in thread.history() if m.embeds]
    await w.alice.click(board, label="Offer draw")
    [offer] = [m for m in thread.history() if m.content.startswith("Draw offer")]
    assert offer.content == f"Draw offer accepted by {idzeva.mention}."
    assert labels(offer) == []
    # The final board follows in the game's thread, and the old one has no buttons left.
    final = thread.history()[-1]
    assert final.content == "Game over: Draw: agreed by both players"
    assert final.embeds and labels(current(thread, board)) == []


async def test_a_takeback_against_the_bot_undoes_the_move_and_its_answer(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=idzeva, first="me", level="easy", rated=False
    )
    thread = thread_of(w, result.response)
    [first] = boards(thread)
    await w.alice.slash(thread, "shax move", move="a1")
    mine, reply = boards(thread)[1:]
    assert version(reply) == 3 and reply.content == f"{w.alice.mention}, your turn."
    [answer] = MOVE.findall(description(reply).split("Last move: ")[1])

    await w.alice.click(reply, label="Takeback")
    [request] = [m for m in thread.history() if m.content.startswith("Takeback of")]
    assert request.content == f"Takeback of `a1 {answer}` accepted by {idzeva.mention}."
    assert labels(request) == []
    restored = boards(thread)[-1]
    assert version(restored) == 4 and len(boards(thread)) == 4  # and the bot did not answer
    assert restored.content == f"{w.alice.mention}, your turn."
    assert (
        f"Takeback accepted by {idzeva.mention}: {w.alice.mention}'s `a1` undone,"
        f" with {idzeva.mention}'s answer `{answer}`."
    ) in description(restored)
    assert labels(current(thread, reply)) == []  # the undone board gave its buttons up
    # She plays on from the start, and the bot answers her new move.
    await w.alice.slash(thread, "shax move", move="d2")
    assert [version(m) for m in boards(thread)] == [1, 2, 3, 4, 5, 6]
    history = refused(await w.alice.slash(thread, "game history"))
    assert "(White asks for a takeback)" in history
    assert f"(Black accepts the takeback: White's a1 {answer} undone)" in history


async def test_a_rated_game_against_the_bot_refuses_the_takeback_privately(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(w.channel, "shax challenge", opponent=idzeva, first="me")
    thread = thread_of(w, result.response)
    await w.alice.slash(thread, "shax move", move="a1")
    reply = boards(thread)[-1]
    posted = len(thread.history())
    said = refused(await w.alice.slash(thread, "game takeback"))
    assert said == (
        "The bot has answered your move, and this game is rated: taking back a move with the"
        " bot's answer is for friendly games (challenge the bot with rated:False)."
    )
    refused(await w.alice.click(reply, label="Takeback"), "this game is rated")
    assert len(thread.history()) == posted and labels(current(thread, reply)) == BOARD_BUTTONS


async def test_an_export_of_a_game_against_the_bot_names_the_bot(world):
    w = world
    idzeva = the_bot(w)
    result = await w.alice.slash(
        w.channel, "shax challenge", opponent=idzeva, first="me", level="easy"
    )
    thread = thread_of(w, result.response)
    told = answer(await w.alice.slash(thread, "game export"))
    data = json.loads(await told.attachments[0].read())
    bot_name = w.env.bot.user.display_name
    assert [(p["id"], p["name"]) for p in data["players"]] == [
        (w.alice.id, "alice"),
        (idzeva.id, bot_name),
    ]
