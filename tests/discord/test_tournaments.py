"""Tournaments on SimCord (issue 32): through the real commands and buttons, from the sign-up
to the winner, with a time-out, a restart between rounds, a withdrawal, a Swiss round whose
last two games end at the same instant, a player who left the server, and a game's thread
deleted by the admins."""

from __future__ import annotations

import asyncio
import sys

from .helpers import (
    DAY,
    HOUR,
    TICK,
    answer,
    current,
    description,
    latest_board,
    public,
    refused,
    version,
)


def thread_of(w, game_id: int):
    [thread] = [t for t in w.channel.threads if t.name.endswith(f"#{game_id}")]
    return thread


async def boards_of_round(w, event_id: int, number: int):
    view = await w.env.bot.service.tournament_round(event_id, w.guild.id, number)
    return view.boards


def said(w, fragment: str) -> list[str]:
    return [m.content for m in w.channel.history() if fragment in m.content]


async def signed_up(w, players, **options):
    """``players[0]`` creates the event; each player clicks Join on the sign-up message."""
    request = {"game": "shax", "format": "round-robin", "name": "Autumn Shax", "time": 3600}
    created = await players[0].slash(w.channel, "tournament create", **(request | options))
    signup = public(created)
    for player in players:
        await player.click(signup, label="Join")
    event_id = int(signup.embeds[0].title.rsplit("#", 1)[1].rstrip(")"))
    return event_id, current(w.channel, signup)


async def test_a_round_robin_of_four_to_its_winner(world):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    alice, bob, carol = w.alice, w.bob, w.carol
    event_id, signup = await signed_up(w, [alice, bob, carol, dave])
    assert f"Players (4): {alice.mention}, {bob.mention}, {carol.mention}, {dave.mention}" in (
        description(signup)
    )
    refused(await bob.slash(w.channel, "tournament start"), "Only the organiser")
    refused(await bob.click(signup, label="Join"), "already")

    answer_text = refused(await alice.slash(w.channel, "tournament start"), "has started")
    assert "round 1" in answer_text
    # Round 1 of Berger's table of four (seeds in sign-up order, nobody rated): 1-4, 2-3.
    assert said(w, "**Autumn Shax**, round 1 of 3:") == [
        f"**Autumn Shax**, round 1 of 3:\n1. {alice.mention} (White) against {dave.mention}"
        f" (Black)\n2. {bob.mention} (White) against {carol.mention} (Black)"
    ]
    assert not current(w.channel, signup).components  # no more Join and Leave
    first = await boards_of_round(w, event_id, 1)
    assert len(w.channel.threads) == 2
    for board in first:
        assert thread_of(w, board.game_id).history()  # the first board is in its thread
    # The higher user id resigns each game here: ALICE > BOB > CAROL > DAVE in the end.
    await dave.slash(thread_of(w, first[0].game_id), "game resign")
    await carol.slash(thread_of(w, first[1].game_id), "game resign")

    # Round 2: 4-3, 1-2. ALICE-BOB ends by resignation; DAVE (White, to move) lets his
    # time run out: after the hour and the grace of a day, the bot ends it on time.
    assert said(w, "**Autumn Shax**, round 2 of 3:")
    second = await boards_of_round(w, event_id, 2)
    assert [(b.white_id, b.black_id) for b in second] == [(dave.id, carol.id), (alice.id, bob.id)]
    await bob.slash(thread_of(w, second[1].game_id), "game resign")
    assert not said(w, "round 3 of 3")
    w.clock.now += HOUR + DAY
    await w.env.advance_time(TICK)
    assert said(w, "**Autumn Shax**, round 3 of 3:")  # posted after the time-out

    third = await boards_of_round(w, event_id, 3)
    assert [(b.white_id, b.black_id) for b in third] == [(bob.id, dave.id), (carol.id, alice.id)]
    await dave.slash(thread_of(w, third[0].game_id), "game resign")
    await carol.slash(thread_of(w, third[1].game_id), "game resign")
    assert said(w, "is over") == [
        f"**Autumn Shax** is over: {alice.mention} wins with 3 points!"
        " `/tournament standings` shows the final table."
    ]
    table = answer(await bob.slash(w.channel, "tournament standings"))
    assert table.ephemeral
    assert [a.filename for a in table.attachments] == ["standings.png"]
    # Buchholz cut-1 (the opponents' points less the lowest) and Sonneborn-Berger (the
    # beaten opponents' points): ALICE met 0, 2, 1: 3, and beat all: 3. BOB met 1, 3, 0: 4,
    # beat CAROL (1) and DAVE (0): 1. CAROL met 2, 0, 3: 5, beat DAVE: 0. DAVE met 3, 1, 2: 5.
    assert table.content.splitlines()[1:] == [
        "1. alice: 3 (3, 3)",
        "2. bob: 2 (4, 1)",
        "3. carol: 1 (5, 0)",
        "4. dave: 0 (5, 0)",
    ]
    stats = answer(await dave.slash(w.channel, "game stats"))
    events = next(f.value for f in stats.embeds[0].fields if f.name == "Tournaments")
    assert events == "Autumn Shax (Shax round robin): 4th of 4, 0 points"


async def test_a_swiss_round_is_paired_once_when_its_last_two_games_end_together(world):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    players = [w.alice, w.bob, w.carol, dave]
    event_id, _ = await signed_up(w, players, format="swiss", name="Swiss cup")
    await w.alice.slash(w.channel, "tournament start")
    first = await boards_of_round(w, event_id, 1)
    # Both Black players resign at the same instant (SimCord runs one command at a time, so
    # the two resignations go through the bot's service together), then the deadline loop
    # posts what they left.
    service = w.env.bot.service
    await asyncio.gather(
        *(service.resign(b.game_id, b.black_id, guild_id=w.guild.id) for b in first)
    )
    await w.env.advance_time(TICK)
    assert len(said(w, "**Swiss cup**, round 2 of 3:")) == 1
    assert len(await boards_of_round(w, event_id, 2)) == 2
    assert len(w.channel.threads) == 4  # two games a round, each posted once


async def test_a_restart_between_rounds_and_a_withdrawal(world):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    players = [w.alice, w.bob, w.carol, dave]
    event_id, _ = await signed_up(w, players)
    await w.alice.slash(w.channel, "tournament start")
    first = await boards_of_round(w, event_id, 1)
    await dave.slash(thread_of(w, first[0].game_id), "game resign")
    await w.restart()
    await w.carol.slash(thread_of(w, first[1].game_id), "game resign")
    assert said(w, "**Autumn Shax**, round 2 of 3:")
    # DAVE withdraws: his round-2 game (against CAROL) ends, and later ones are forfeits.
    refused(await dave.slash(w.channel, "tournament withdraw"), "withdrawn")
    second = await boards_of_round(w, event_id, 2)
    assert second[0].white_points == 0.0  # DAVE was White and resigned on withdrawing
    refused(await dave.slash(w.channel, "tournament withdraw"), "not playing")
    refused(await dave.slash(w.channel, "tournament leave"), "has started")
    listed = refused(await w.bob.slash(w.channel, "tournament pairings", round=2), "round 2")
    assert "0-1" in listed


async def test_hostile_input_changes_nothing(world):
    w = world
    refused(await w.alice.slash(w.channel, "tournament join"), "Which tournament")
    refused(await w.alice.slash(w.channel, "tournament join", tournament="1 OR 1=1"), "Which")
    refused(await w.alice.slash(w.channel, "tournament standings", tournament="#99"), "no tour")
    refused(
        await w.alice.slash(
            w.channel, "tournament create", game="shax", format="knockout", rounds=3
        ),  # fmt: skip
        "Swiss",
    )
    refused(
        await w.alice.slash(
            w.channel, "tournament create", game="jikaida", format="swiss", variants="nope"
        ),
        "variant",
    )
    created = public(
        await w.alice.slash(
            w.channel, "tournament create", game="tchela", format="swiss",
            name="@everyone <@123> **x**",
        )
    )  # fmt: skip
    title = created.embeds[0].title
    assert "@everyone" not in title.replace("@\u200beveryone", "") and "<@" not in title
    refused(await w.bob.slash(w.channel, "tournament join", player=w.carol), "themselves")
    refused(await w.bob.slash(w.channel, "tournament cancel"), "organiser")
    refused(await w.bob.slash(w.channel, "tournament start"), "organiser")
    refused(await w.alice.slash(w.channel, "tournament start"), "at least 2")
    refused(await w.alice.slash(w.channel, "tournament pairings"), "no round")


async def test_a_player_who_left_the_server_is_withdrawn_when_a_game_of_theirs_starts(world):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    event_id, _ = await signed_up(w, [w.alice, w.bob, w.carol, dave])
    w.guild.remove_member(dave)  # the bot is not told (no members intent)
    await w.alice.slash(w.channel, "tournament start")
    # Round 1 (1-4, 2-3): DAVE's game is not posted; he is withdrawn by the withdrawal's
    # rule: his game is lost (ALICE, White, wins it) and so are his later ones.
    assert said(w, "has left the server") == [
        f"{dave.mention} has left the server and is withdrawn from **Autumn Shax**: their"
        " games left are lost."
    ]
    first = await boards_of_round(w, event_id, 1)
    assert (first[0].white_id, first[0].black_id, first[0].white_points) == (
        w.alice.id, dave.id, 1.0,
    )  # fmt: skip
    assert [t.name for t in w.channel.threads] == [f"Shax #{first[1].game_id}"]
    await w.carol.slash(thread_of(w, first[1].game_id), "game resign")
    second = await boards_of_round(w, event_id, 2)  # 4-3, 1-2: DAVE's a forfeit
    assert (second[0].white_id, second[0].forfeit, second[0].white_points) == (dave.id, True, 0.0)
    assert second[0].game_id is None and second[1].game_id is not None
    view = await w.env.bot.service.tournament(event_id, w.guild.id)
    assert view.withdrawn == (dave.id,)


async def test_a_game_whose_thread_the_admins_deleted_goes_on_in_a_new_one(world, monkeypatch):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    event_id, _ = await signed_up(w, [w.alice, w.bob, w.carol, dave])
    await w.alice.slash(w.channel, "tournament start")
    first = await boards_of_round(w, event_id, 1)
    deleted = thread_of(w, first[0].game_id)
    w.env.backend.delete_channel(deleted.id)
    await w.env.settle()
    # The bot is told: the game goes on in a new thread, its board posted there.
    moved = thread_of(w, first[0].game_id)
    assert moved.id != deleted.id
    assert "goes on here: its thread was deleted" in latest_board(moved).content
    await w.alice.slash(moved, "shax move", move="c3")
    assert version(latest_board(moved)) == 2
    # A thread deleted while the bot was not told (it was away): the next board that the
    # game posts opens a new thread.
    shared_cog = sys.modules["cogs.shared"]  # loaded as the bot's extension
    monkeypatch.setattr(shared_cog, "thread_deleted", lambda *_: asyncio.sleep(0))
    w.env.backend.delete_channel(moved.id)
    await w.env.settle()
    assert [t for t in w.channel.threads if t.name.endswith(f"#{first[0].game_id}")] == []
    await w.alice.slash(w.channel, "game notify", where="both")  # "your turn" by DM too
    moved_on = await dave.slash(w.channel, "shax move", move="c4")  # his only game
    third = thread_of(w, first[0].game_id)
    assert version(latest_board(third)) == 3
    refused(moved_on, f"The board: <#{third.id}>")  # told privately where it is now
    # The event goes on: both games end, and round 2 is paired and posted.
    await dave.slash(third, "game resign")
    await w.carol.slash(thread_of(w, first[1].game_id), "game resign")
    assert said(w, "**Autumn Shax**, round 2 of 3:")


async def test_a_player_who_left_during_a_game_is_withdrawn_at_its_reminder(world):
    w = world
    dave = w.guild.add_member(w.env.create_user("dave"))
    event_id, _ = await signed_up(w, [w.alice, w.bob, w.carol, dave])
    await w.alice.slash(w.channel, "tournament start")
    first = await boards_of_round(w, event_id, 1)
    game = thread_of(w, first[0].game_id)
    await w.alice.slash(game, "shax move", move="c3")  # DAVE (Black) to move
    w.guild.remove_member(dave)
    w.clock.now += HOUR / 2  # half his time: the reminder is due
    await w.env.advance_time(TICK)
    assert not [m for m in game.history() if "it is your turn" in m.content]
    assert len(said(w, f"{dave.mention} has left the server and is withdrawn")) == 1
    first = await boards_of_round(w, event_id, 1)
    assert first[0].white_points == 1.0  # his game is lost now, not at its time-out
