"""Once-only work shared by several processes: an outbox of keyed jobs with leases.

A job is something to send once (a reminder, a claim notice, an expired challenge), named by
a key that says what it is for (``reminder:12:7``: game 12 at version 7). Its life:

1. ``add``: the process that finds it due writes it, held by itself for ``lease`` seconds
   (a key already written is not written again: two processes finding the same work at
   once make one job). Only then does the caller change the state that made it due (the
   ``reminded`` flag, the challenge's status): a process killed in between leaves the job.
2. the holder sends it, then ``done``.
3. ``take``: a job left undone when its lease ran out (its process was killed, or sending
   failed) is taken by whichever process ticks next, with a new lease, and sent by it.
   PostgreSQL takes them with ``FOR UPDATE SKIP LOCKED``; SQLite with one ``UPDATE ...
   WHERE lease_until <= now`` in a write transaction (one writer at a time).

So a job is sent once when nothing dies, and never lost: a process killed after sending
and before ``done`` makes the only repeat (at least once, not at most once). A job is
tried ``MAX_ATTEMPTS`` times at most, so one that always fails does not come back forever.

A claim (``Outbox.claim``) is the lease alone, for work that is not sent but done, and that
must not be done twice at once: the bot opponent's search of one position (bot/domain/opponent.py).
The first process to claim the key does the work; another claiming it meanwhile is refused
until the lease runs out (its holder died in the middle), and then takes it over. A claim is
never taken by ``take`` (it is written done), and forgotten a week later with the jobs.

The mechanism knows nothing of games: a key, a JSON payload, a clock.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage import GameStore

LEASE_SECONDS = 120.0  # long beside one send (under a second), short beside a deadline
MAX_ATTEMPTS = 5
KEEP_DONE_SECONDS = 7 * 24 * 3600.0  # done jobs are kept a week, then forgotten
TAKE_LIMIT = 100


def process_name() -> str:
    """Who holds a lease: host, process id and a random part (a restarted process with the
    same id is someone else)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Outbox:
    """The jobs of one process. ``clock`` is the service's (tests move it)."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        *,
        lease: float = LEASE_SECONDS,
        owner: str | None = None,
        max_attempts: int = MAX_ATTEMPTS,
    ):
        self._store = store
        self._clock = clock
        self.lease = lease
        self.owner = owner or process_name()
        self.max_attempts = max_attempts
        self._written_due: list[str] = []  # since the last ``take_written_due``

    async def add(self, key: str, payload: dict[str, Any]) -> bool:
        """Write the job, held by this process; False if the key was written already."""
        text = json.dumps(payload, sort_keys=True)
        return await self._store.add_job(key, text, self._clock(), self.owner, self.lease)

    async def add_due(self, key: str, payload: dict[str, Any]) -> bool:
        """Write the job held by nobody: the next ``take`` of any process sends it (what a
        command or a move found to post, and leaves to the tick). False if written already."""
        text = json.dumps(payload, sort_keys=True)
        written = await self._store.add_job(key, text, self._clock(), self.owner, 0.0)
        if written:
            self._written_due.append(key)
        return written

    async def take(self, limit: int = TAKE_LIMIT) -> list[tuple[str, dict[str, Any]]]:
        """The undone jobs whose lease ran out, now held by this process."""
        taken = await self._store.take_jobs(
            self.owner, self._clock(), self.lease, limit, self.max_attempts
        )
        return [(key, json.loads(text)) for key, text in taken]

    async def take_written_due(self) -> list[tuple[str, dict[str, Any]]]:
        """The jobs this process wrote due since it last asked, now held by it: those no
        other process took meanwhile (a tick's own work, such as a round paired after a
        time-out, sent by that tick; never a job another process holds)."""
        keys, self._written_due = self._written_due, []
        if not keys:
            return []
        taken = await self._store.take_named_jobs(keys, self.owner, self._clock(), self.lease)
        return [(key, json.loads(text)) for key, text in taken]

    async def claim(self, key: str, lease: float | None = None) -> bool:
        """Hold ``key`` for ``lease`` seconds (the outbox's by default): True when this process
        now holds it (nobody did, its holder's lease ran out, or this process held it)."""
        lease = self.lease if lease is None else lease
        return await self._store.claim_job(key, self._clock(), self.owner, lease)

    async def done(self, key: str) -> None:
        await self._store.finish_job(key, self._clock())

    async def purge(self) -> int:
        return await self._store.purge_jobs(self._clock() - KEEP_DONE_SECONDS)


async def once(
    outbox: Outbox,
    key: str,
    payload: dict[str, Any],
    mark: Callable[[], Awaitable[bool]],
    done_elsewhere: Callable[[], Awaitable[bool]],
) -> bool:
    """Found due: write the job ``key``, then ``mark`` the state that made it due (a
    compare-and-set, such as the ``reminded`` flag of the game's version). True when this
    process wrote the job and is to send it now.

    The job is written before the mark, so a process killed between the two leaves a job
    (sent by another once its lease runs out), never a mark without a job. When the mark
    fails, ``done_elsewhere`` tells why: another process marked the same thing (keep the
    job) or the state moved on, a move or an accepted challenge (the job is cancelled)."""
    added = await outbox.add(key, payload)
    if await mark() or not added:
        return added
    if await done_elsewhere():
        return True
    await outbox.done(key)  # nothing to send any more
    return False
