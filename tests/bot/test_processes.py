"""Several bot processes on one PostgreSQL: real OS processes (tests/bot/process.py), each
with its own store and service, as shards on several machines would run.

- Moves: two processes play the same turn of the same game at once: exactly one wins.
- Deadlines: a process killed (SIGKILL) in the middle of the deadline work, after writing
  its jobs and before sending them, or between writing a job and marking the game: another
  process sends what was left, and every notice is sent once, none lost.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.domain.jobs import Outbox

from .conftest import ALICE, BOB, CHANNEL, DAY, GUILD, START, start_game

pytestmark = pytest.mark.postgres_only

ROOT = Path(__file__).resolve().parents[2]
LEASE = 0.5  # seconds: short, so that a dead process's jobs come back quickly
WAIT = 30.0  # seconds a process may take to answer before the test fails


class Process:
    """A bot process, one JSON line each way."""

    def __init__(self, url: str, clock: float, lease: float = LEASE):
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.process", url, "--clock", repr(clock)]
            + ["--lease", repr(lease)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    async def read(self) -> dict:
        line = await asyncio.wait_for(asyncio.to_thread(self.popen.stdout.readline), WAIT)
        assert line, f"the process ended (code {self.popen.poll()})"
        return json.loads(line)

    def send(self, **command) -> None:
        self.popen.stdin.write(json.dumps(command) + "\n")
        self.popen.stdin.flush()

    async def sent_until(self, last: str) -> list[str]:
        """The keys it says it sent, until a line with ``last``."""
        keys = []
        while last not in (message := await self.read()):
            keys.append(message["sent"])
        return keys

    def kill(self) -> None:
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(WAIT)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.stdin.close()
            try:
                self.popen.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.kill()


async def started(
    url: str, count: int, clock: float = START, lease: float = LEASE
) -> list[Process]:
    processes = [Process(url, clock, lease) for _ in range(count)]
    owners = {(await process.read())["ready"] for process in processes}
    assert len(owners) == count  # each process holds leases under its own name
    return processes


async def test_two_processes_play_the_same_turn_and_exactly_one_wins(service, store, store_url):
    board = await start_game(service)
    processes = await started(store_url, 2)
    try:
        rounds = 6
        for version in range(1, rounds + 1):
            # The same turn, a different move from each: both at once.
            for pick, process in enumerate(processes):
                process.send(do="move", game=board.game_id, version=version, pick=pick)
            results = sorted([(await process.read())["result"] for process in processes])
            assert results == ["BoardView", "StaleBoard"], (version, results)
    finally:
        for process in processes:
            process.stop()
    assert (await store.get_game(board.game_id)).version == 1 + rounds
    assert len(await store.moves(board.game_id)) == rounds


async def due_notices(service, clock) -> set[str]:
    """Four games due a reminder and a claim notice, three expired challenges: the keys of
    the eleven notices due."""
    games = [await start_game(service) for _ in range(4)]
    pending = [
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, kind="shax", challenger_id=ALICE, opponent_id=BOB
        )
        for _ in range(3)
    ]
    clock.advance(3 * DAY)  # the time per move is out (both reminders' times passed)
    return (
        {f"reminder:{board.game_id}:{board.version}:2" for board in games}
        | {f"claimable:{board.game_id}:{board.version}" for board in games}
        | {f"challenge_expired:{challenge.challenge_id}" for challenge in pending}
    )


@pytest.mark.parametrize("hang_in, hang_at", [("send", 4), ("add", 3), ("mark", 2), ("mark", 9)])
async def test_a_process_killed_in_the_deadline_work_loses_no_notice_and_repeats_none(
    service, store, clock, store_url, hang_in, hang_at
):
    """The first process stops for good before its ``hang_at``-th send (its jobs written, the
    games marked, three notices sent), or just after writing a job (its game or challenge
    not yet marked), or just after marking a game or challenge, and is killed; the second
    sends the rest once the first's leases run out."""
    due = await due_notices(service, clock)
    first, second = await started(store_url, 2, clock.now)
    try:
        first.send(do="tick", until=len(due), hang_in=hang_in, hang_at=hang_at)
        sent_first = await first.sent_until("hung")
        first.kill()
        assert len(sent_first) == (hang_at - 1 if hang_in == "send" else 0)
        second.send(do="tick", until=len(due) - len(sent_first))
        sent_second = await second.sent_until("ticked")
    finally:
        first.stop()
        second.stop()
    sent = sent_first + sent_second
    assert sorted(sent) == sorted(due)  # each once: none lost, none repeated
    # Nothing is left to send, and the next tick anywhere finds nothing.
    outbox = Outbox(store, clock, lease=LEASE)
    clock.advance(DAY / 2)  # every lease is over; the games' time-out (at 4 days) is not due
    assert await outbox.take() == []
    assert await service.tick() == []


async def test_processes_ticking_together_share_the_work_once(service, store, clock, store_url):
    """Three processes run the clock at the same moment: each notice is sent by one.

    Leases as long as the test may wait: a job is taken again only when its holder stalls
    past its lease (the at-least-once rule the killed-process test below checks), and a
    loaded machine can stall a process for more than the short ``LEASE`` between taking a
    job and marking it done (seen once at load 28: four notices sent twice)."""
    due = await due_notices(service, clock)
    processes = await started(store_url, 3, clock.now, lease=WAIT)
    try:
        for process in processes:
            process.send(do="tick", until=0)
        sent = [key for process in processes for key in await process.sent_until("ticked")]
        # One tick each; whatever is left (nothing should be) goes in a last one.
        processes[0].send(do="tick", until=len(due) - len(sent))
        sent += await processes[0].sent_until("ticked")
    finally:
        for process in processes:
            process.stop()
    assert sorted(sent) == sorted(due)
