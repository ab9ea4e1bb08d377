"""The outbox of once-only work (bot/domain/jobs.py), on both backends: leases, retries, and the
deadline tick sending through it."""

from __future__ import annotations

from bot.domain.jobs import KEEP_DONE_SECONDS, Outbox, once

from .conftest import DAY, raw_sql, start_game

LEASE = 120.0


def outbox(store, clock, owner: str) -> Outbox:
    return Outbox(store, clock, lease=LEASE, owner=owner, max_attempts=3)


async def test_a_job_is_written_once_and_taken_only_when_its_lease_runs_out(store, clock):
    a, b = outbox(store, clock, "a"), outbox(store, clock, "b")
    assert await a.add("k", {"text": "hello"}) is True
    assert await b.add("k", {"text": "other"}) is False  # one job per key
    assert await b.take() == []  # a holds it
    clock.advance(LEASE - 1)
    assert await b.take() == []
    clock.advance(1)  # a's lease is over: a died, or failed to send
    assert await b.take() == [("k", {"text": "hello"})]
    assert await a.take() == []  # b holds it now, for a new lease
    await b.done("k")
    clock.advance(10 * LEASE)
    assert await a.take() == [] and await b.take() == []


async def test_a_process_takes_back_the_jobs_it_wrote_due_unless_another_took_them(store, clock):
    a, b = outbox(store, clock, "a"), outbox(store, clock, "b")
    assert await a.add_due("round:1", {"n": 1}) and await a.add_due("round:2", {"n": 2})
    assert not await a.add_due("round:1", {"n": 1})  # written once
    assert sorted(await b.take()) == [("round:1", {"n": 1}), ("round:2", {"n": 2})]
    assert await a.take_written_due() == []  # b holds both: a does not take them
    assert await a.add_due("round:3", {"n": 3})
    assert await a.take_written_due() == [("round:3", {"n": 3})]
    assert await a.take_written_due() == [] and await b.take() == []  # held by a now


async def test_a_job_that_keeps_failing_is_tried_max_attempts_times(store, clock):
    a = outbox(store, clock, "a")
    await a.add("k", {})
    taken = 0
    for _ in range(5):
        clock.advance(LEASE)
        taken += len(await a.take())
    assert taken == 2  # written (attempt 1), then taken twice: 3 attempts


async def test_done_jobs_are_forgotten_after_a_week(store, clock):
    a = outbox(store, clock, "a")
    await a.add("old", {})
    await a.done("old")
    await a.add("open", {})
    clock.advance(KEEP_DONE_SECONDS - 1)
    assert await a.purge() == 0
    clock.advance(2)
    assert await a.purge() == 1  # the undone job stays
    assert await a.add("open", {}) is False and await a.add("old", {}) is True


async def test_a_claim_is_held_until_its_lease_runs_out_and_is_never_sent(store, clock):
    a, b = outbox(store, clock, "a"), outbox(store, clock, "b")
    assert await a.claim("bot-turn:7:3") is True
    assert await b.claim("bot-turn:7:3") is False  # a holds it
    assert await a.claim("bot-turn:7:3") is True  # a's own claim: a may try again
    assert await b.claim("bot-turn:7:4") is True  # another key: free
    clock.advance(LEASE - 1)
    assert await b.claim("bot-turn:7:3") is False
    assert await a.take() == [] and await b.take() == []  # nothing to send, ever
    clock.advance(1)  # a's lease is out: b takes the claim over
    assert await b.claim("bot-turn:7:3") is True
    assert await a.claim("bot-turn:7:3") is False
    clock.advance(10 * LEASE)
    assert await a.take() == [] and await b.take() == []
    clock.advance(KEEP_DONE_SECONDS)
    assert await a.purge() == 2  # forgotten after a week, with the jobs done


async def test_once_cancels_the_job_when_the_state_moved_on(store, clock):
    a = outbox(store, clock, "a")

    async def fails() -> bool:
        return False

    async def succeeds() -> bool:
        return True

    # Marked here: send it.
    assert await once(a, "k1", {}, succeeds, fails) is True
    # Marked by another process meanwhile (same version): still this job, send it.
    assert await once(a, "k2", {}, fails, succeeds) is True
    # The game moved on before the mark: nothing to send, and the job is done.
    assert await once(a, "k3", {}, fails, fails) is False
    # Written already (by a process that died before marking): mark, leave the job to take.
    assert await once(a, "k1", {}, succeeds, fails) is False
    clock.advance(LEASE)
    assert sorted(key for key, _ in await a.take()) == ["k1", "k2"]


async def test_a_notice_whose_sending_failed_is_sent_by_a_later_tick(service, clock):
    board = await start_game(service)
    clock.advance(1.5 * DAY)  # a reminder is due (half of the 3 days per move)
    sent = []

    async def broken(notice) -> None:
        raise ConnectionResetError("the connection dropped")

    async def send(notice) -> None:
        sent.append(notice.key)

    assert [n.key for n in await service.tick(broken)] == [f"reminder:{board.game_id}:1:1"]
    await service.tick(send)
    assert sent == []  # its lease still runs
    clock.advance(LEASE)
    await service.tick(send)
    assert sent == [f"reminder:{board.game_id}:1:1"]
    clock.advance(LEASE)
    await service.tick(send)
    assert sent == [f"reminder:{board.game_id}:1:1"]  # done: once


async def test_a_reminder_found_stale_is_not_sent(service, store, clock):
    """The game moved between the scan and the mark: no job left to send."""
    board = await start_game(service)
    clock.advance(1.5 * DAY)
    [row] = await store.games_to_remind(clock())
    await service.move(board.game_id, board.to_move_user, "d2", guild_id=board.guild_id)
    original = store.games_to_remind

    async def stale_scan(now):
        return [row]

    store.games_to_remind = stale_scan
    try:
        assert [n.kind for n in await service.tick()] == []
    finally:
        store.games_to_remind = original
    clock.advance(LEASE)
    assert await Outbox(store, clock).take() == []


async def test_due_jobs_are_found_through_their_partial_index(store, db_path, clock):
    """The outbox's scan reads only undone jobs, in lease order (SQLite's plan; the bench
    prints PostgreSQL's)."""
    a = outbox(store, clock, "a")
    for number in range(50):
        await a.add(f"k{number}", {})
        if number % 2:
            await a.done(f"k{number}")
    plan = " | ".join(
        row[3]
        for row in raw_sql(
            db_path,
            "EXPLAIN QUERY PLAN SELECT key FROM jobs WHERE done_at IS NULL AND lease_until <= ?"
            " AND attempts < ? ORDER BY lease_until LIMIT ?",
            (clock(), 5, 100),
        )
    )
    assert "USING INDEX jobs_due" in plan and "TEMP B-TREE" not in plan, plan
