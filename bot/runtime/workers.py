"""A process pool for CPU-bound work (engines, search, rendering), off the event loop.

``Workers`` runs jobs in a process pool sized to the machine, so that loading games,
generating legal moves and rendering boards use every core while the event loop only does
I/O (Discord, the database). The pool is spawned on first use and shut down with its owner.
``Workers(0)`` runs the same jobs in threads of this process instead, one a core: for
tests, whose injected renderers need not be picklable, and where a pool is not wanted.

A job is a top-level function over picklable values; the pool knows nothing of what it
does (the service's jobs are in ``bot/domain/engine_jobs.py``). The modules named in
``preload`` are imported once by the fork server, so that every worker starts with them;
a worker imports nothing else but what its jobs need (not the main module of the process
that started it, see ``_LeanProcess``).
"""

from __future__ import annotations

import asyncio
import os
import sys
import types
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing.context import ForkServerContext, ForkServerProcess
from typing import Any, TypeVar

T = TypeVar("T")

# Imported once by the fork server unless the owner names its own list (``Workers(preload=)``).
PRELOAD = ("games", "render")


CORES = max(1, os.cpu_count() or 1)


def echo(value: T) -> T:
    """Nothing: measures the pool's round trip."""
    return value


def imported() -> list[str]:
    """The modules this process holds (in a worker: what it imported)."""
    return sorted(sys.modules)


# ---- the pool ------------------------------------------------------------------------


class Workers:
    """Where jobs run: ``processes`` worker processes (None: one per core), or, with 0,
    threads of this process, one per core. ``preload``: the modules every worker imports
    once, before its first job. The fork server is one per process, shared by its pools:
    the first pool started sets what it preloads, so the pools of one process name the
    same list.

    Threads one per core, not asyncio's default executor (up to 6 threads on 2 cores): the
    jobs hold the GIL but for Pillow's and SQLite's C calls, so more threads do not go
    faster, and each drawing thread keeps a canvas and a C heap of its own. Measured 29
    November (bench/memory.py, 100 games acting 50 at a time, twice, in one process):
    266 MiB RSS with the default executor, 159 MiB with 2 threads."""

    def __init__(self, processes: int | None = None, *, preload: Sequence[str] = PRELOAD):
        if processes is None:
            processes = CORES
        if processes < 0:
            raise ValueError(f"workers must be 0 (threads) or more, not {processes}")
        self.processes = processes
        self.preload = tuple(preload)
        self._pool: ProcessPoolExecutor | None = None
        self._threads: ThreadPoolExecutor | None = None

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        if not self.processes:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(CORES, thread_name_prefix="idzeva-job")
            return await loop.run_in_executor(self._threads, partial(job, *args))
        try:
            return await loop.run_in_executor(self._executor(), job, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the jobs are pure, so start a new pool
            # and try once more.
            self._discard()
            return await loop.run_in_executor(self._executor(), job, *args)

    def pids(self) -> list[int]:
        """The worker processes running now (none before the first job)."""
        pool = self._pool
        return [] if pool is None else sorted(pool._processes)  # noqa: SLF001

    async def close(self) -> None:
        """Stop the workers (a later job starts a new pool)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A fork server, not fork: the bot's process has threads (SQLite, asyncio's
            # executor) that a forked child must not inherit mid-operation.
            context = _LeanForkServer()
            context.set_forkserver_preload(list(self.preload))
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context)
        return self._pool

    def _discard(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


# ---- workers that import what they need ---------------------------------------------


class _LeanProcess(ForkServerProcess):
    """A worker that does not run the main module of the process that started it.

    multiprocessing imports the parent's ``__main__`` into every new worker, as
    ``__mp_main__`` (for a job defined there): for ``idzeva run`` the console script
    (``bot.cli.main``, 1.8 MiB), for ``python -m bench.memory`` the service, discord.py and
    aiohttp (22 MiB of every worker; issue 33). Our jobs are top-level functions of modules
    (``bot/domain/engine_jobs.py``), imported by name when a job arrives, so the worker is
    started as if the main module were empty: it holds the fork server's preload and its
    jobs' modules, whoever started it. A job defined in a ``__main__`` cannot run here."""

    @staticmethod
    def _Popen(process_obj):  # noqa: N802 (multiprocessing's name)
        from multiprocessing.popen_forkserver import Popen

        # Looked up only while the worker's start is prepared, in this thread (the pool
        # starts its workers from ``submit``); the jobs, pickled by the pool's own threads,
        # are named by their modules, not by __main__.
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            return Popen(process_obj)
        finally:
            sys.modules["__main__"] = main


class _LeanForkServer(ForkServerContext):
    Process = _LeanProcess
