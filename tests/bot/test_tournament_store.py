"""Tournaments in the store (migration 13), on SQLite and PostgreSQL: sign-ups, rounds
written once, games started once per board, results written once, nothing lost on reopening."""

from __future__ import annotations

import asyncio

from bot.storage import open_store
from bot.storage.tournament_rows import BoardRow

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, START

DAVE = 1_234_567_890_123_456_784


async def new_event(store, **columns) -> int:
    values = dict(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser_id=ALICE,
        name="Autumn Shax",
        kind="shax",
        variants=(),
        format="round-robin",
        options={"time": 86400},
        created_at=START,
        updated_at=START,
    )
    return await store.insert_tournament(**(values | columns))


async def test_an_event_is_kept_with_its_options(store):
    event_id = await new_event(store, max_players=8)
    row = await store.get_tournament(event_id)
    assert (row.name, row.kind, row.format, row.status, row.round) == (
        "Autumn Shax",
        "shax",
        "round-robin",
        "signup",
        0,
    )
    assert row.options == {"time": 86400} and row.max_players == 8
    assert await store.get_tournament(event_id + 1) is None
    assert [r.id for r in await store.tournaments_of_guild(GUILD)] == [event_id]


async def test_sign_ups_are_once_each_and_within_the_limit(store):
    event_id = await new_event(store, max_players=2)
    assert await store.join_tournament(event_id, ALICE, START)
    assert not await store.join_tournament(event_id, ALICE, START + 1)  # once
    assert await store.join_tournament(event_id, BOB, START + 2, level=None)
    assert not await store.join_tournament(event_id, CAROL, START + 3)  # full
    assert [p.user_id for p in await store.tournament_players(event_id)] == [ALICE, BOB]
    assert await store.leave_tournament(event_id, ALICE)
    assert not await store.leave_tournament(event_id, ALICE)
    assert [p.user_id for p in await store.tournament_players(event_id)] == [BOB]
    assert [r.id for r in await store.open_tournaments_of_user(GUILD, BOB, "shax")] == [event_id]
    assert await store.open_tournaments_of_user(GUILD, BOB, "tchela") == []


async def test_a_round_is_written_once_and_games_started_once(store):
    event_id = await new_event(store)
    for user in (ALICE, BOB, CAROL, DAVE):
        await store.join_tournament(event_id, user, START)
    first = [
        BoardRow(event_id, 1, 1, ALICE, DAVE),
        BoardRow(event_id, 1, 2, BOB, CAROL),
    ]
    seeds = [(ALICE, 30.0), (BOB, 25.0), (CAROL, 20.0), (DAVE, 10.0)]
    assert await store.start_tournament(event_id, seeds, 3, first, START)
    assert not await store.start_tournament(event_id, seeds, 3, first, START)
    assert not await store.join_tournament(event_id, 99, START)  # running: no sign-up
    assert not await store.leave_tournament(event_id, BOB)
    row = await store.get_tournament(event_id)
    assert (row.status, row.round, row.rounds) == ("running", 1, 3)
    assert {p.user_id: p.rating for p in await store.tournament_players(event_id)} == dict(seeds)
    assert await store.tournament_boards(event_id) == first

    columns = dict(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        variants=(),
        players=(ALICE, DAVE),
        state="{}",
        version=1,
        status="active",
        created_at=START,
        updated_at=START,
        options={},
    )
    game_id = await store.start_board_game(event_id, 1, 1, **columns)
    assert game_id is not None
    assert await store.start_board_game(event_id, 1, 1, **columns) is None
    assert (await store.board_of_game(game_id)).board == 1

    assert await store.record_result(event_id, 1, 1, 1.0)
    assert not await store.record_result(event_id, 1, 1, 0.0)  # written once
    assert await store.record_result(event_id, 1, 2, 0.5, forfeit=True)

    second = [BoardRow(event_id, 2, 1, DAVE, CAROL), BoardRow(event_id, 2, 2, ALICE, BOB)]
    # Two processes pairing round 2 at the same instant: one writes it.
    written = await asyncio.gather(
        store.add_round(event_id, 2, second, START + 5),
        store.add_round(event_id, 2, second, START + 5),
    )
    assert sorted(written) == [False, True]
    boards = await store.tournament_boards(event_id)
    assert len(boards) == 4
    assert boards[0].white_points == 1.0 and boards[1].forfeit
    assert await store.tournament_boards(event_id, 2) == second
    assert await store.finish_tournament(event_id, 3, START + 9) is False  # not at round 3
    assert await store.finish_tournament(event_id, 2, START + 9)
    assert (await store.get_tournament(event_id)).status == "finished"


async def test_withdrawal_and_open_events(store):
    event_id = await new_event(store)
    await store.join_tournament(event_id, ALICE, START)
    assert await store.withdraw_player(event_id, ALICE)
    assert not await store.withdraw_player(event_id, ALICE)
    assert (await store.tournament_players(event_id))[0].withdrawn
    assert await store.open_tournaments_of_user(GUILD, ALICE) == []


async def test_status_changes_are_compare_and_set(store):
    event_id = await new_event(store, starts_at=START + 60)
    assert [r.id for r in await store.tournaments_to_start(START + 60)] == [event_id]
    assert await store.update_tournament(event_id, expected_status="signup", status="cancelled")
    assert not await store.update_tournament(event_id, expected_status="signup", status="cancelled")
    assert await store.tournaments_to_start(START + 60) == []
    assert await store.update_tournament(event_id, message_id=42)
    assert (await store.get_tournament(event_id)).message_id == 42


async def test_nothing_is_lost_on_reopening(store_url):
    store = await open_store(store_url)
    event_id = await new_event(store)
    for user in (ALICE, BOB, CAROL):
        await store.join_tournament(event_id, user, START)
    boards = [BoardRow(event_id, 1, 1, ALICE, BOB), BoardRow(event_id, 1, 2, CAROL, None, None,
                                                             1.0)]  # fmt: skip
    await store.start_tournament(event_id, [(ALICE, 1), (BOB, 2), (CAROL, 3)], 3, boards, START)
    await store.close()
    store = await open_store(store_url)
    try:
        assert await store.tournament_boards(event_id) == boards
        assert [p.user_id for p in await store.tournament_players(event_id)] == [ALICE, BOB, CAROL]
        assert (await store.get_tournament(event_id)).round == 1
    finally:
        await store.close()


async def test_the_version_moves_on_with_each_sign_up_result_and_withdrawal(store):
    event_id = await new_event(store)

    async def version() -> int:
        return (await store.get_tournament(event_id)).version

    assert await version() == 0
    for user in (ALICE, BOB, CAROL, DAVE):
        assert await store.join_tournament(event_id, user, START)
    assert not await store.join_tournament(event_id, ALICE, START)  # nothing written: no change
    assert await store.leave_tournament(event_id, DAVE)
    assert not await store.leave_tournament(event_id, DAVE)
    assert await version() == 5
    one = [BoardRow(event_id, 1, 1, ALICE, BOB), BoardRow(event_id, 1, 2, CAROL, None, None, 1.0)]
    assert await store.start_tournament(event_id, [(ALICE, 0), (BOB, 0), (CAROL, 0)], 3, one, START)
    assert await store.record_result(event_id, 1, 1, 1.0)
    assert not await store.record_result(event_id, 1, 1, 0.0)  # written once
    assert await version() == 6
    two = [BoardRow(event_id, 2, 1, CAROL, ALICE), BoardRow(event_id, 2, 2, BOB, None, None, 1.0)]
    assert await store.add_round(event_id, 2, two, START)
    assert await store.withdraw_player(event_id, CAROL)
    assert not await store.withdraw_player(event_id, CAROL)
    assert await version() == 7
    # The boards of the rounds from the second on: the open round's, read again for a table.
    later = await store.tournament_boards(event_id, from_round=2)
    assert [(b.round, b.board) for b in later] == [(2, 1), (2, 2)]
    assert len(await store.tournament_boards(event_id)) == 4
    assert [b.board for b in await store.tournament_boards(event_id, 1)] == [1, 2]
