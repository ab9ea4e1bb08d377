"""One bot process for tests/bot/test_processes.py: a GameService on its own store, driven
over stdin/stdout, one JSON line each way. Run as ``python -m tests.bot.process URL``.

Commands (one JSON object a line):
- ``{"do": "move", "game": id, "version": v, "pick": i}``: play the ``i``-th legal move
  (modulo their number) at version ``v``; answers ``{"result": "BoardView"}`` or the
  refusal's class name.
- ``{"do": "tick", "until": n, "hang_at": k, "hang_in": "send" | "add" | "mark"}``: run
  the clock (every 0.05 s) until this process has sent ``n`` notices in all; each sent
  notice's key is written to stdout as ``{"sent": key}`` before the next. With ``hang_at``,
  the process stops forever (to be killed), saying ``{"hung": k}`` first: before the
  ``k``-th send, or just after the ``k``-th job is written, or the ``k``-th game or
  challenge is marked (its reminder counted, its status "expired").

The clock starts at ``--clock`` (an epoch second, to match the tests' fake one) and runs
at real speed, so leases (``--lease`` seconds) run out in real time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

from bot.config import Settings
from bot.domain.jobs import Outbox
from bot.domain.service import GameService, Notice
from bot.runtime.workers import Workers
from bot.storage import open_store

GUILD = 1_100_000_000_000_000_001


def fake_renderer(game) -> bytes:
    return b"PNG"


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def hang(number: int) -> None:
    say({"hung": number})
    await asyncio.Event().wait()  # until SIGKILL


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--clock", type=float, default=time.time())
    parser.add_argument("--lease", type=float, default=1.0)
    args = parser.parse_args()
    started = time.monotonic()

    def clock() -> float:
        return args.clock + (time.monotonic() - started)

    store = await open_store(args.url)
    outbox = Outbox(store, clock, lease=args.lease)
    service = GameService(
        store,
        settings=Settings(),
        clock=clock,
        renderer=fake_renderer,
        workers=Workers(0),
        outbox=outbox,
    )
    loop = asyncio.get_running_loop()
    say({"ready": outbox.owner})
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        command = json.loads(line)
        if command["do"] == "move":
            say({"result": await move(service, command)})
        elif command["do"] == "tick":
            await tick(service, store, command)
            say({"ticked": True})
    await store.close()


async def move(service: GameService, command: dict) -> str:
    try:
        board = await service.board(command["game"], GUILD, with_image=False)
        choices = await service.move_choices(command["game"], GUILD)
        text = choices[command["pick"] % len(choices)][0]
        await service.move(
            command["game"],
            board.to_move_user,
            text,
            guild_id=GUILD,
            expected_version=command["version"],
        )
    except Exception as error:
        return type(error).__name__
    return "BoardView"


def after(method, hang_at: int):
    """``method``, which stops the process for good once its ``hang_at``-th call (counting
    the hooked methods together) has returned."""

    async def hooked(*args, **kwargs):
        result = await method(*args, **kwargs)
        CALLS[0] += 1
        if CALLS[0] == hang_at:
            await hang(CALLS[0])
        return result

    return hooked


CALLS = [0]


async def tick(service: GameService, store, command: dict) -> None:
    sent = 0
    hang_at = command.get("hang_at")
    hooked = {
        "add": ["add_job"],  # a job written, its game or challenge not yet marked
        # marked (and its job written): a reminder, a claim notice, an expired challenge
        "mark": ["mark_reminded", "mark_notified", "update_challenge"],
    }.get(command.get("hang_in"), [])
    for name in hooked:
        setattr(store, name, after(getattr(store, name), hang_at))

    async def send(notice: Notice) -> None:
        nonlocal sent
        if command.get("hang_in") == "send" and sent + 1 == hang_at:
            await hang(sent + 1)
        sent += 1
        say({"sent": notice.key})

    while True:  # at least one tick
        await service.tick(send)
        if sent >= command["until"]:
            return
        await asyncio.sleep(0.05)


if __name__ == "__main__":
    asyncio.run(main())
