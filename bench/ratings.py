"""``/game stats`` and ``/game leaderboard`` on a server with 100,000 rated games (SQLite).

How it is filled: 200 players in one guild, 100,000 finished Shax games (and a sixth of
them Tchela) between random pairs, each rated in order by
``bot.storage.rating_model.rate`` (the same function the store calls) and written in bulk:
the games' rows (a small state), one history row per player and game, the final standings.
Then each query the commands run is timed through the store
(``python -m bench.ratings [games]``), and the chart's rendering.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.domain.ratings import load_leaderboard, load_stats
from bot.storage.rating_model import Player, RatingJob, Standing, rate
from bot.storage.rows import encode_state
from bot.storage.sql import CHANGE_COLUMNS, STANDING_COLUMNS, change_values, standing_values
from bot.storage.sqlite import Store
from render.chart import rating_chart

GUILD = 1_100_000_000_000_000_001
PLAYERS = [1_234_567_890_000_000_000 + n for n in range(200)]


async def fill(store: Store, count: int) -> None:
    rng = random.Random(15)
    current: dict[tuple[str, int], Standing] = {}
    games, history = [], []
    state = encode_state(json.dumps({"game": "shax"}))
    now = time.time() - count * 60
    for game_id in range(1, count + 1):
        a, b = rng.sample(PLAYERS, 2)
        kind = "tchela" if game_id % 6 == 0 else "shax"
        at = now + game_id * 60
        games.append((game_id, GUILD, 1, kind, json.dumps([a, b]), state, at))
        job = RatingJob(game_id, GUILD, kind, at, ((Player(a),), (Player(b),)), (0, 1))
        standings, changes = rate(job, current)
        for s in standings:
            current[(s.game, s.user_id)] = s
        history += [change_values(c) for c in changes]
    db = store._db  # noqa: SLF001  (a bulk fill, outside the store's interface)
    await db.execute("BEGIN")
    await db.executemany(
        "INSERT INTO games (id, guild_id, channel_id, kind, players, state, status, result,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'finished', 'White wins', ?, ?)",
        [(*g, g[-1]) for g in games],
    )
    await db.executemany(
        f"INSERT INTO rating_history ({CHANGE_COLUMNS}) VALUES ({', '.join('?' * 10)})", history
    )
    await db.executemany(
        f"INSERT INTO ratings ({STANDING_COLUMNS}) VALUES ({', '.join('?' * 13)})",
        [standing_values(s) for s in current.values()],
    )
    await db.execute("COMMIT")
    await db.execute("ANALYZE")


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


TARGET_MS = 50.0  # issue 15: p99 of /game stats and /game leaderboard


async def run(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.db")
        store = await Store.open(path)
        started = time.perf_counter()
        await fill(store, count)
        print(f"filled {count} rated games in {time.perf_counter() - started:.1f} s")
        rng = random.Random(1)
        timings: dict[str, list[float]] = {}
        cases = {
            "stats (all games)": lambda u: load_stats(store, GUILD, u, None, time.time()),
            "stats (shax)": lambda u: load_stats(store, GUILD, u, "shax", time.time()),
            "leaderboard (shax)": lambda u: load_leaderboard(store, GUILD, u, "shax"),
            "leaderboard (overall)": lambda u: load_leaderboard(store, GUILD, u, None),
        }
        points = None
        for _ in range(200):
            for name, case in cases.items():
                user = rng.choice(PLAYERS)
                start = time.perf_counter()
                found = await case(user)
                timings.setdefault(name, []).append((time.perf_counter() - start) * 1000)
                if name == "stats (all games)":
                    points = found.points
        print(f"ratings queries, {count} games, 200 players (target p99 <= {TARGET_MS:.0f} ms):")
        for name, values in timings.items():
            worst = p(values, 0.99)
            print(
                f"{name:24} p50 {statistics.median(values):6.2f} ms  p99 {worst:6.2f} ms"
                f"  {'ok' if worst <= TARGET_MS else 'OVER'}"
            )
        charts = []
        for _ in range(20):
            start = time.perf_counter()
            rating_chart(points or (), "Shax: somebody")
            charts.append((time.perf_counter() - start) * 1000)
        print(
            f"chart ({len(points or ())} points)  p50 {statistics.median(charts):6.2f} ms"
            f"  p99 {p(charts, 0.99):6.2f} ms"
        )
        await store.close()


def main() -> None:
    asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))


if __name__ == "__main__":
    main()
