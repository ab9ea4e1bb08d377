"""A deployment's memory: 1,000 active games through one game service, each acting twice
with its new board drawn (two passes), then every process of the bot measured.

Each process is measured by its PSS (``/proc/PID/smaps_rollup``): its private pages and its
share of the pages it shares (the worker processes share the modules their fork server
imported), so the processes' PSS add up to what the deployment takes. RSS, which counts a
shared page in full in every process, is printed beside it; the targets are the issue's
(33), in RSS: the whole bot in one process (``IDZEVA_WORKERS=0``: engines and drawing in
threads) <= 150 MiB, and each worker process <= 120 MiB.

Each mode runs in a fresh process (``python -m bench.memory threads|processes`` prints
its figures as JSON), so that one's memory is not counted in the other's.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from bot.domain.service import BoardView, GameService
from bot.storage.sqlite import Store
from render.cache import cache_bytes

from .load import KINDS, act, make_service, new_board, worker_pids

ACTIVE = 1000
PASSES = 2
BATCH = 50  # games acting at once (every worker busy)
MIB = 1 << 20
TARGETS_MIB = {"threads": 150.0, "worker": 120.0}  # issue 33, RSS


async def next_board(service: GameService, board: BoardView, rng: random.Random) -> BoardView:
    """The game's next action and its board (a new game of its kind once it is over)."""
    if board.finished:
        board = await new_board(service, board.kind)
    # Kept without its picture: the bot posts a board and forgets it, the bench must not
    # hold 1,000 of them (40 MiB) in the process it measures.
    return replace(await act(service, board, rng), image=b"")


def kept_images(service: GameService) -> int:
    """The bytes of the boards the service keeps (none before issue 33's change)."""
    images = getattr(service, "_images", None)
    return images.bytes if images is not None else 0


def memory_mib(pid: int) -> tuple[float, float]:
    """(PSS, RSS) of a process, in MiB."""
    found = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if name in ("Pss", "Rss"):
                found[name] = int(rest.split()[0]) / 1024
    return found["Pss"], found["Rss"]


def descendants(pid: int) -> list[int]:
    """Every process started under ``pid`` (worker pools' fork servers and workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return sorted(found)


async def run(mode: str, active: int, passes: int, seed: int = 33) -> dict[str, object]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "memory.db"))
        service = make_service(store, mode, rng)
        try:
            boards = []
            for index in range(active):
                board = await new_board(service, KINDS[index % len(KINDS)])
                boards.append(replace(board, image=b""))
            for _ in range(passes):  # every game acts, its board drawn, a batch at once
                for first in range(0, active, BATCH):
                    batch = range(first, min(active, first + BATCH))
                    acted = await asyncio.gather(
                        *(next_board(service, boards[i], rng) for i in batch)
                    )
                    for index, board in zip(batch, acted, strict=True):
                        boards[index] = board
            workers = worker_pids(service)
            others = [pid for pid in descendants(os.getpid()) if pid not in workers]
            return {
                "main": memory_mib(os.getpid()),
                "workers": [memory_mib(pid) for pid in workers],
                "others": [memory_mib(pid) for pid in others],
                "board_images": kept_images(service) / MIB,
                "render_caches": cache_bytes() / MIB,
            }
        finally:
            await service.close()
            await store.close()


def measured(mode: str, active: int, passes: int) -> dict:
    command = [sys.executable, "-m", "bench.memory", mode, str(active), str(passes)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def _mark(ok: bool) -> str:
    return "ok" if ok else "MISS"


def rows(active: int = ACTIVE, passes: int = PASSES) -> list[str]:
    lines = [
        f"Memory of a deployment: {active} active games, each acting {passes} times with its "
        "board (PSS from /proc/PID/smaps_rollup; RSS beside it)"
    ]
    one = measured("threads", active, passes)
    pss, rss = one["main"]
    target = TARGETS_MIB["threads"]
    lines.append(
        f"  threads, one process      PSS {pss:6.1f} MiB   RSS {rss:6.1f} MiB   "
        f"(board images {one['board_images']:.1f} MiB, render caches "
        f"{one['render_caches']:.1f} MiB)   target RSS <= {target:g} MiB "
        f"{_mark(rss <= target)}"
    )
    pool = measured("processes", active, passes)
    pss, rss = pool["main"]
    lines.append(
        f"  processes: main           PSS {pss:6.1f} MiB   RSS {rss:6.1f} MiB   "
        f"(board images {pool['board_images']:.1f} MiB)"
    )
    target = TARGETS_MIB["worker"]
    for number, (pss, rss) in enumerate(pool["workers"], start=1):
        lines.append(
            f"  processes: worker {number}       PSS {pss:6.1f} MiB   RSS {rss:6.1f} MiB   "
            f"target RSS <= {target:g} MiB {_mark(rss <= target)}"
        )
    others = pool["others"]
    if others:
        lines.append(
            f"  processes: {len(others)} other (fork servers, idle pools)  PSS "
            f"{sum(p for p, _ in others):6.1f} MiB"
        )
    total = pool["main"][0] + sum(p for p, _ in pool["workers"]) + sum(p for p, _ in others)
    lines.append(f"  processes: the whole deployment  PSS {total:6.1f} MiB")
    return lines


def main() -> None:
    print("\n".join(rows()))
    print()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        mode, active, passes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        print(json.dumps(asyncio.run(run(mode, active, passes))))
    else:
        main()
