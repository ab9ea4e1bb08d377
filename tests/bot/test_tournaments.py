"""Tournaments through the game service (bot/domain/tournaments/events.py), on SQLite and
PostgreSQL: sign-ups, rounds started at once, the next round paired once when the last game
ends (two processes included), the bot as a player, withdrawals, the final table."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.domain.jobs import Outbox
from bot.domain.service import GameService, NotAllowed, NotFound, ServiceError

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, OTHER_GUILD, fake_renderer

DAVE = 1_234_567_890_123_456_784
ERIN = 1_234_567_890_123_456_785
BOT = 1_999_999_999_999_999_999
ROLE = 1_300_000_000_000_000_009


@pytest.fixture
def service(store, clock, roller) -> GameService:
    return GameService(
        store,
        settings=Settings(),
        clock=clock,
        roller=roller,
        renderer=fake_renderer,
        bot_user_id=BOT,
    )


async def event_with(service, players, **options):
    request = dict(
        guild_id=GUILD, channel_id=CHANNEL, organiser_id=ALICE, kind="shax",
        format="round-robin", name="Autumn Shax",
    )  # fmt: skip
    event = await service.create_tournament(**(request | options))
    for player in players:
        await service.join_tournament(event.id, GUILD, player)
    return await service.tournament(event.id, GUILD)


async def finish_round(service, event_id, number, loser_of):
    """Every game of the round ends: ``loser_of(white, black)`` resigns."""
    view = await service.tournament_round(event_id, GUILD, number)
    for board in view.boards:
        if board.game_id is not None and board.white_points is None:
            loser = loser_of(board.white_id, board.black_id)
            await service.resign(board.game_id, loser, guild_id=GUILD)


def lower_id_wins(white, black):
    return max(white, black)  # the higher id resigns


async def test_a_round_robin_of_four_runs_to_its_winner(service, clock):
    event = await event_with(service, [ALICE, BOB, CAROL, DAVE])
    assert event.status == "signup" and event.players == (ALICE, BOB, CAROL, DAVE)
    started = await service.start_tournament(event.id, GUILD, ALICE)
    assert started.event.status == "running" and started.event.rounds == 3
    # Nobody is rated: the seeds are the sign-up order, and round 1 of Berger's table of
    # four is 1-4, 2-3.
    assert [(b.white_id, b.black_id) for b in started.boards] == [(ALICE, DAVE), (BOB, CAROL)]
    assert all(b.game_id is not None for b in started.boards)
    board = await service.board(started.boards[0].game_id, GUILD, with_image=False)
    assert ("Tournament", "Autumn Shax, round 1") in board.fields
    assert board.players == (ALICE, DAVE)

    notices = await service.tick()
    kinds = sorted(n.kind for n in notices)
    assert kinds == ["tournament", "tournament_game", "tournament_game"]
    [announcement] = [n for n in notices if n.kind == "tournament"]
    assert announcement.text == (
        "**Autumn Shax**, round 1 of 3:\n"
        f"1. <@{ALICE}> (White) against <@{DAVE}> (Black)\n"
        f"2. <@{BOB}> (White) against <@{CAROL}> (Black)"
    )
    assert await service.tick() == []  # posted once

    for number in (1, 2, 3):
        await finish_round(service, event.id, number, lower_id_wins)
    final = await service.tournament_table(event.id, GUILD)
    assert final.event.status == "finished"
    # The lower id won every game: ALICE 3, BOB 2, CAROL 1, DAVE 0.
    assert [(s.player, s.points) for s in final.rows] == [
        (ALICE, 3.0), (BOB, 2.0), (CAROL, 1.0), (DAVE, 0.0),
    ]  # fmt: skip
    texts = [n.text for n in await service.tick() if n.kind == "tournament"]
    assert (
        f"**Autumn Shax** is over: <@{ALICE}> wins with 3 points!"
        " `/tournament standings` shows the final table."
    ) in texts
    assert len(texts) == 3  # rounds 2 and 3, and the winner
    # The results in /game stats.
    assert (await service.stats(GUILD, ALICE, None)).tournaments == (
        "Autumn Shax (Shax round robin): 1st of 4, 3 points",
    )
    assert (await service.stats(GUILD, CAROL, None)).tournaments == (
        "Autumn Shax (Shax round robin): 3rd of 4, 1 point",
    )


async def test_the_next_round_is_paired_once_when_two_games_end_together(service, store, clock):
    other = GameService(
        store,
        settings=Settings(),
        clock=clock,
        renderer=fake_renderer,
        bot_user_id=BOT,
        outbox=Outbox(store, clock, owner="second process"),
    )
    event = await event_with(service, [ALICE, BOB, CAROL, DAVE], format="swiss")
    started = await service.start_tournament(event.id, GUILD, ALICE)
    assert started.event.rounds == 3  # ceil(log2 4) + 1
    first, second = started.boards
    await asyncio.gather(
        service.resign(first.game_id, first.black_id, guild_id=GUILD),
        other.resign(second.game_id, second.black_id, guild_id=GUILD),
    )
    boards = (await service.tournament_round(event.id, GUILD, 2)).boards
    assert len(boards) == 2 and all(b.game_id is not None for b in boards)
    assert (await service.tournament(event.id, GUILD)).round == 2
    # The two winners meet, and the two losers.
    winners = {first.white_id, second.white_id}
    for board in boards:
        assert (board.white_id in winners) == (board.black_id in winners)
    games = await asyncio.gather(service.tick(), other.tick())
    posted = [n for notices in games for n in notices if n.kind == "tournament_game"]
    assert len(posted) == 4  # two games a round, each posted once


async def test_sign_up_rules(service):
    event = await event_with(service, [ALICE], max_players=2)
    with pytest.raises(NotAllowed, match="in \\*\\*Autumn Shax\\*\\* already"):
        await service.join_tournament(event.id, GUILD, ALICE)
    await service.join_tournament(event.id, GUILD, BOB)
    with pytest.raises(NotAllowed, match="full"):
        await service.join_tournament(event.id, GUILD, CAROL)
    # One open event per game and player.
    other = await event_with(service, [], name="Second")
    with pytest.raises(NotAllowed, match="another Shax event"):
        await service.join_tournament(other.id, GUILD, BOB)
    await service.leave_tournament(event.id, GUILD, BOB)
    with pytest.raises(NotAllowed, match="not signed up"):
        await service.leave_tournament(event.id, GUILD, BOB)
    with pytest.raises(NotFound):
        await service.join_tournament(event.id, OTHER_GUILD, CAROL)
    with pytest.raises(NotAllowed, match="organiser"):
        await service.start_tournament(event.id, GUILD, BOB)
    with pytest.raises(NotAllowed, match="at least 2"):
        await service.start_tournament(event.id, GUILD, ALICE)
    with pytest.raises(NotAllowed, match="organiser"):
        await service.cancel_tournament(event.id, GUILD, BOB)
    cancelled = await service.cancel_tournament(event.id, GUILD, CAROL, manager=True)
    assert cancelled.status == "cancelled"
    with pytest.raises(NotAllowed, match="closed"):
        await service.join_tournament(event.id, GUILD, CAROL)


async def test_creation_is_checked(service):
    with pytest.raises(ServiceError, match="format"):
        await event_with(service, [], format="ladder")
    with pytest.raises(ServiceError, match="rounds"):
        await event_with(service, [], rounds=3)
    with pytest.raises(ServiceError, match="1 to 20"):
        await event_with(service, [], format="swiss", rounds=99)
    with pytest.raises(ServiceError, match="max_players"):
        await event_with(service, [], max_players=1)
    with pytest.raises(ServiceError):
        await event_with(service, [], time=5)
    with pytest.raises(ServiceError, match="no game"):
        await event_with(service, [], kind="chess")
    named = await event_with(service, [], name="  @everyone <@1> **big**\n`cup`  " + "x" * 80)
    assert "@everyone" not in named.name and "<@" not in named.name
    assert len(named.name) <= 40 and "\n" not in named.name
    await service.change_server_settings(GUILD, CAROL, manager=True, tournament_role=ROLE)
    with pytest.raises(NotAllowed, match=f"<@&{ROLE}>"):
        await event_with(service, [], organiser_id=BOB)
    made = await event_with(service, [], organiser_id=BOB, roles=[ROLE])
    assert made.time == 3 * DAY  # the bot's default time per move


async def test_the_bot_fills_an_odd_field(service, clock):
    event = await event_with(service, [ALICE, BOB])
    with pytest.raises(NotAllowed, match="organiser enters me"):
        await service.join_tournament(event.id, GUILD, BOT)
    with pytest.raises(NotAllowed, match="organiser"):
        await service.join_tournament(event.id, GUILD, BOB, bot_level="easy")
    with pytest.raises(ServiceError, match="level"):
        await service.join_tournament(event.id, GUILD, ALICE, bot_level="godlike")
    joined = await service.join_tournament(event.id, GUILD, ALICE, bot_level="easy")
    assert joined.players == (ALICE, BOB, BOT)
    started = await service.start_tournament(event.id, GUILD, ALICE)
    # Three players: Berger's table of four with a dummy as 4; ALICE (1) rests in round 1.
    game = [b for b in started.boards if b.game_id is not None]
    assert [(b.white_id, b.black_id) for b in game] == [(BOB, BOT)]
    rest = [b for b in started.boards if b.is_bye]
    assert [(b.white_id, b.white_points) for b in rest] == [(ALICE, 0.0)]
    board = await service.board(game[0].game_id, GUILD, with_image=False)
    assert board.bot_levels == ((1, "easy"),)


async def test_a_withdrawal_forfeits_the_remaining_games(service):
    event = await event_with(service, [ALICE, BOB, CAROL, DAVE])
    started = await service.start_tournament(event.id, GUILD, ALICE)
    before = await service.tournament_table(event.id, GUILD)  # kept until a result or a withdrawal
    assert not any(s.withdrawn for s in before.rows)
    await service.withdraw_from_tournament(event.id, GUILD, DAVE)
    first = {(b.white_id, b.black_id): b for b in
             (await service.tournament_round(event.id, GUILD, 1)).boards}  # fmt: skip
    assert first[(ALICE, DAVE)].white_points == 1.0  # DAVE resigned his game
    await service.resign(started.boards[1].game_id, CAROL, guild_id=GUILD)
    second = (await service.tournament_round(event.id, GUILD, 2)).boards
    # Round 2 of Berger's four: 4-3, 1-2. DAVE's game is a forfeit, not started.
    by_pair = {(b.white_id, b.black_id): b for b in second}
    assert by_pair[(DAVE, CAROL)].forfeit and by_pair[(DAVE, CAROL)].white_points == 0.0
    assert by_pair[(DAVE, CAROL)].game_id is None
    assert by_pair[(ALICE, BOB)].game_id is not None
    with pytest.raises(NotAllowed, match="not playing"):
        await service.withdraw_from_tournament(event.id, GUILD, DAVE)
    table = await service.tournament_table(event.id, GUILD)
    assert [s.player for s in table.rows if s.withdrawn] == [DAVE]


async def test_a_knockout_replays_a_draw_then_the_better_seed_goes_through(service):
    event = await event_with(service, [ALICE, BOB], format="knockout")
    started = await service.start_tournament(event.id, GUILD, ALICE)
    [board] = started.boards
    for _ in range(3):  # the game and its two replays are drawn
        round_view = await service.tournament_round(event.id, GUILD)
        [board] = round_view.boards
        await service.offer_draw(board.game_id, board.white_id, guild_id=GUILD)
        await service.answer_draw(board.game_id, board.black_id, True, guild_id=GUILD)
    table = await service.tournament_table(event.id, GUILD)
    assert table.event.status == "finished"
    assert table.event.round == 3
    assert table.rows[0].player == ALICE  # the better seed (the first to sign up)


async def test_a_scheduled_event_starts_on_time_or_is_cancelled(service, clock):
    event = await event_with(service, [ALICE, BOB], starts_in_hours=2)
    lonely = await event_with(service, [CAROL], starts_in_hours=1, kind="tchela", name="T")
    clock.advance(2 * 3600)
    notices = await service.tick()
    assert (await service.tournament(event.id, GUILD)).status == "running"
    assert (await service.tournament(lonely.id, GUILD)).status == "cancelled"
    assert any("**T** could not start" in n.text for n in notices)


async def test_a_long_round_is_announced_once(service, clock):
    # Past the week the outbox keeps its done jobs, round 1's pairings are not posted again.
    event = await event_with(service, [ALICE, BOB, CAROL, DAVE], time=14 * DAY)
    await service.start_tournament(event.id, GUILD, ALICE)
    assert len([n for n in await service.tick() if n.kind == "tournament"]) == 1
    for _ in range(3):
        clock.advance(4 * DAY)
        notices = await service.tick()
        assert not [n for n in notices if n.kind.startswith("tournament")]


async def test_a_round_ended_by_a_time_out_is_followed_in_the_same_tick(service, clock):
    # The tick that ends the round's last game on time posts the next round too, not the
    # tick after (the time-out's write pairs round 2 while the tick runs).
    event = await event_with(service, [ALICE, BOB, CAROL, DAVE], time=3600)
    started = await service.start_tournament(event.id, GUILD, ALICE)
    await service.tick()  # round 1 posted
    await service.resign(started.boards[1].game_id, CAROL, guild_id=GUILD)
    clock.advance(3600 + DAY)  # ALICE, White against DAVE, lets her time and grace run out
    notices = await service.tick()
    assert [n.kind for n in notices if n.kind in ("timed_out", "tournament")] == [
        "timed_out",
        "tournament",
    ]
    assert "round 2 of 3" in [n for n in notices if n.kind == "tournament"][0].text
    assert len([n for n in notices if n.kind == "tournament_game"]) == 2


async def test_the_kept_table_follows_every_change_made_by_any_process(service, store, clock):
    def process(owner: str) -> GameService:
        outbox = Outbox(store, clock, owner=owner)
        return GameService(store, settings=Settings(), clock=clock, bot_user_id=BOT, outbox=outbox)

    other = process("second process")

    async def table_is_fresh() -> None:
        fresh = await process("a new process").tournament_table(event.id, GUILD)
        assert await service.tournament_table(event.id, GUILD) == fresh

    event = await event_with(service, [ALICE, BOB, CAROL])
    await service.tournament_table(event.id, GUILD)
    await other.join_tournament(event.id, GUILD, DAVE)
    await table_is_fresh()
    await service.start_tournament(event.id, GUILD, ALICE)
    for number in (1, 2, 3):
        for board in (await service.tournament_round(event.id, GUILD, number)).boards:
            await table_is_fresh()
            await other.resign(board.game_id, lower_id_wins(board.white_id, board.black_id),
                               guild_id=GUILD)  # fmt: skip
            await table_is_fresh()
    final = await service.tournament_table(event.id, GUILD)
    assert final.event.status == "finished"
    assert [(s.player, s.points) for s in final.rows] == [
        (ALICE, 3.0), (BOB, 2.0), (CAROL, 1.0), (DAVE, 0.0),
    ]  # fmt: skip


async def test_a_player_who_left_the_server_leaves_every_event_here(service):
    signing_up = await event_with(service, [ALICE, BOB, CAROL], kind="tchela", name="Tchela")
    running = await event_with(service, [ALICE, BOB, CAROL, DAVE])
    started = await service.start_tournament(running.id, GUILD, ALICE)
    await service.tick()
    changed = await service.tournament_player_left(GUILD, DAVE)
    assert [e.id for e in changed] == [running.id]  # DAVE was in one event
    changed = await service.tournament_player_left(GUILD, ALICE)
    assert {e.id: e.players for e in changed} == {signing_up.id: (BOB, CAROL), running.id:
                                                  (ALICE, BOB, CAROL, DAVE)}  # fmt: skip
    assert (await service.tournament(running.id, GUILD)).withdrawn == (ALICE, DAVE)
    # ALICE against DAVE, both gone: the one who left first resigned it.
    first = (await service.tournament_round(running.id, GUILD, 1)).boards
    assert first[0].white_points == 1.0 and started.boards[0].white_id == ALICE
    assert await service.tournament_player_left(GUILD, DAVE) == []  # once
    lines = [n.text for n in await service.tick() if "left the server" in n.text]
    assert sorted(lines) == [
        f"<@{ALICE}> has left the server and is off the sign-up of **Tchela**.",
        f"<@{ALICE}> has left the server and is withdrawn from **Autumn Shax**: their games"
        " left are lost.",
        f"<@{DAVE}> has left the server and is withdrawn from **Autumn Shax**: their games"
        " left are lost.",
    ]
