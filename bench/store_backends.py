"""The two stores side by side: each operation's latency on SQLite and on PostgreSQL.

``python -m bench.store_backends`` (about a minute; needs the test extra: asyncpg and
pgserver). SQLite: a real file, ``synchronous = FULL`` (the bot's setting). PostgreSQL 16
(pgserver's wheel) in a temporary folder, its default durability (fsync on,
``synchronous_commit = on``), reached over its Unix socket, one pool per store. Then writers
on distinct games at once: moves per second with 1, 2 and 4 concurrent writers.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from pathlib import Path

from bot.storage import open_store
from games import Shax

from .timing import machine_load, summary_row

START = 1_800_000_000.0
GUILD = 1_100_000_000_000_000_001
MOVES = ["d2", "a1", "g7", "d7", "a4", "g4", "b2", "f2"]


def states() -> list[str]:
    game, out = Shax(), [Shax().to_json()]
    for move in MOVES:
        game.push(move)
        out.append(game.to_json())
    return out


async def measure(url: str, label: str, rounds: int) -> None:
    store = await open_store(url)
    shown = states()
    samples: dict[str, list[float]] = {
        name: []
        for name in ("insert_game", "update_game", "get_game", "games_of_user", "mark_notified")
    }

    async def timed(name: str, call):
        start = time.perf_counter()
        result = await call
        samples[name].append((time.perf_counter() - start) * 1000)
        return result

    try:
        for number in range(rounds):
            players = (1000 + number % 50, 2000 + number % 50)
            game_id = await timed(
                "insert_game",
                store.insert_game(
                    guild_id=GUILD,
                    channel_id=2,
                    kind="shax",
                    players=players,
                    state=shown[0],
                    created_at=START,
                    updated_at=START,
                    remind_at=START,
                ),
            )
            for version in range(1, 4):
                assert await timed(
                    "update_game",
                    store.update_game(
                        game_id, version, state=shown[version], updated_at=START + version
                    ),
                )
            await timed("get_game", store.get_game(game_id))
            await timed("games_of_user", store.games_of_user(GUILD, players[0], limit=20))
            await timed("mark_notified", store.mark_notified(game_id, 4, "reminded"))
        for name, values in samples.items():
            print(summary_row(f"{label} {name}", values))
        for writers in (1, 2, 4):
            rate = await throughput(store, shown, writers)
            print(f"{label}: {writers} concurrent writer(s): {rate:,.0f} updates/s")
    finally:
        await store.close()


async def throughput(store, shown: list[str], writers: int, seconds: float = 2.0) -> float:
    game_ids = [
        await store.insert_game(
            guild_id=GUILD,
            channel_id=2,
            kind="shax",
            players=(1, 2),
            state=shown[0],
            created_at=START,
            updated_at=START,
        )
        for _ in range(writers)
    ]
    done = 0
    deadline = time.perf_counter() + seconds

    async def writer(game_id: int) -> None:
        nonlocal done
        version = 1
        while time.perf_counter() < deadline:
            state = shown[1 + version % (len(shown) - 1)]
            assert await store.update_game(game_id, version, state=state)
            version += 1
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(writer(game_id) for game_id in game_ids))
    return done / (time.perf_counter() - start)


def main(rounds: int = 200) -> None:
    import pgserver

    folder = Path(tempfile.mkdtemp(prefix="idzeva-bench-pg-"))
    folder.chmod(0o755)
    # pgserver's lock file, written again at exit: one lasting folder private to this user
    # (where pgserver would fall back to), not the run's folder, which is removed.
    runtime = Path(tempfile.gettempdir()) / f"idzeva-pgserver-{os.getuid()}"
    runtime.mkdir(mode=0o700, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    server = pgserver.get_server(folder / "pgdata", cleanup_mode="stop")
    try:
        print(f"store operations, SQLite against PostgreSQL ({machine_load()})")
        asyncio.run(measure(str(folder / "idzeva.db"), "sqlite", rounds))
        asyncio.run(measure(server.get_uri(), "postgres", rounds))
        print(f"({machine_load()} at the end)")
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
