"""Past one process: moves through the service with 1, 2 and 4 processes on PostgreSQL
against 1 on SQLite, and the list and deadline queries on a large database.

``make bench-scale`` (``python -m bench.scale [--finished N] [--active N] [--seconds S]``;
needs the test extra: asyncpg and pgserver). PostgreSQL 16 (pgserver's wheel) in a
temporary folder with its default durability (fsync on, ``synchronous_commit = on``);
SQLite a real file with ``synchronous = FULL``: the bot's settings on both.

1. Moves: each process is a ``GameService`` on its own store (as a shard would be), playing
   random legal Shax moves in its own games for ``--seconds``; each move is the whole
   service action (load, rules in the engine, the write ``WHERE version = v``), without
   the board's picture (rendering is CPU work in the worker pool, the same on both stores,
   and on a 2-core machine it would hide the database). Moves per second in all, and each
   move's p50/p99.
2. Scale: ``--finished`` finished games and ``--active`` active ones (the issue's figure is
   1,000,000 and 10,000), copied in SQL from real rows made by the service, over 100
   servers and 50,000 players; then p99 of ``/game list`` (a player's games: active only,
   and all), the deadline scans (reminders, claims, expired challenges) and the outbox's
   scan, each with its plan (``EXPLAIN``) and the index it uses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from bot.config import Settings
from bot.service import GameService
from bot.storage import is_postgres, open_store
from bot.workers import Workers

from .timing import machine_load, percentile

START = 1_800_000_000.0
GUILD = 1_100_000_000_000_000_001
GUILDS = 100
PLAYERS = 50_000
USER_BASE = 1_234_567_890_000_000_000


def no_picture(game) -> bytes:
    return b""


# ---- 1. moves from several processes ------------------------------------------------------


def mover(url: str, number: int, games: int, seconds: float, barrier, results) -> None:
    results.put(asyncio.run(play(url, number, games, seconds, barrier)))


async def play(url: str, number: int, games: int, seconds: float, barrier) -> dict:
    store = await open_store(url)
    service = GameService(
        store, settings=Settings(), renderer=no_picture, workers=Workers(0), clock=time.time
    )
    rng = random.Random(number)
    players = (USER_BASE + 2 * number, USER_BASE + 2 * number + 1)

    async def new_game() -> int:
        challenge = await service.create_challenge(
            guild_id=GUILD,
            channel_id=1,
            kind="shax",
            challenger_id=players[0],
            opponent_id=players[1],
            first="me",
        )
        return (await service.accept_challenge(challenge.challenge_id, players[1])).game_id

    ids = [await new_game() for _ in range(games)]
    latencies: list[float] = []
    await asyncio.to_thread(barrier.wait)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        slot = rng.randrange(len(ids))
        game_id = ids[slot]
        started = time.perf_counter()
        board = await service.board(game_id, GUILD, with_image=False)
        if board.finished or board.to_move_user is None:
            ids[slot] = await new_game()
            continue
        choices = await service.move_choices(game_id, GUILD)
        await service.move(
            game_id,
            board.to_move_user,
            rng.choice(choices)[0],
            guild_id=GUILD,
            expected_version=board.version,
        )
        latencies.append((time.perf_counter() - started) * 1000)
    await service.close()
    await store.close()
    return {"latencies": latencies, "seconds": seconds}


def moves_with(url: str, processes: int, seconds: float, games: int = 20) -> dict:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes)
    results = context.Queue()
    workers = [
        context.Process(target=mover, args=(url, n, games, seconds, barrier, results))
        for n in range(processes)
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=300) for _ in workers]
    for worker in workers:
        worker.join()
    latencies = [value for outcome in outcomes for value in outcome["latencies"]]
    return {
        "moves_per_s": len(latencies) / seconds,
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "moves": len(latencies),
    }


# ---- 2. a large database ---------------------------------------------------------------


async def template_rows(url: str) -> tuple[int, int]:
    """A finished game (resigned) and an active one, made by the service: their ids."""
    store = await open_store(url)
    service = GameService(store, settings=Settings(), renderer=no_picture, workers=Workers(0))
    ids = []
    for _ in range(2):
        challenge = await service.create_challenge(
            guild_id=GUILD, channel_id=1, kind="shax", challenger_id=1, opponent_id=2, first="me"
        )
        board = await service.accept_challenge(challenge.challenge_id, 2)
        for move in ("d2", "a1", "g7"):
            board = await service.move(board.game_id, board.to_move_user, move, guild_id=GUILD)
        ids.append(board.game_id)
    await service.resign(ids[0], 1, guild_id=GUILD)
    await service.close()
    await store.close()
    return ids[0], ids[1]


# Copies of the template rows: game g of the copies is in server g % 100, between players
# a and b (two of 50,000, spread by multiplying), updated at START - g seconds.
COPY_COLUMNS = (
    "channel_id, thread_id, message_id, kind, variants, state, version, status, result,"
    " created_at, turn_started_at, reminded, claim_notified, draw_offer_seat"
)


def pg_copy_sql(template: int, count: int, offset: int, active: bool) -> str:
    deadlines = (
        # 1% of the active games are due a reminder now, 0.2% a claim notice.
        ", CASE WHEN g % 100 = 0 THEN {now} - 60 ELSE {now} + g END"
        ", CASE WHEN g % 500 = 0 THEN {now} - 60 ELSE {now} + 7 * 86400 + g END"
        if active
        else ", NULL, NULL"
    ).format(now=START)
    return (
        f"INSERT INTO games (guild_id, players, updated_at, remind_at, claim_at, {COPY_COLUMNS})"
        f" SELECT {GUILD} + (g % {GUILDS}), '[' || ({USER_BASE} + (g * 7919) % {PLAYERS})"
        f" || ', ' || ({USER_BASE} + (g * 104729 + 13) % {PLAYERS}) || ']',"
        f" {START} - g {deadlines}, {COPY_COLUMNS}"
        f" FROM games, generate_series({offset + 1}::BIGINT, {offset + count}::BIGINT) AS g"
        f" WHERE id = {template}"
    )


def sqlite_copy_sql(template: int, count: int, offset: int, active: bool) -> str:
    deadlines = (
        ", CASE WHEN g % 100 = 0 THEN {now} - 60 ELSE {now} + g END"
        ", CASE WHEN g % 500 = 0 THEN {now} - 60 ELSE {now} + 7 * 86400 + g END"
        if active
        else ", NULL, NULL"
    ).format(now=START)
    return (
        f"WITH RECURSIVE s(g) AS (SELECT {offset + 1} UNION ALL SELECT g + 1 FROM s"
        f" WHERE g < {offset + count})"
        f" INSERT INTO games (guild_id, players, updated_at, remind_at, claim_at, {COPY_COLUMNS})"
        f" SELECT {GUILD} + (g % {GUILDS}), '[' || ({USER_BASE} + (g * 7919) % {PLAYERS})"
        f" || ', ' || ({USER_BASE} + (g * 104729 + 13) % {PLAYERS}) || ']',"
        f" {START} - g {deadlines}, {COPY_COLUMNS}"
        f" FROM games, s WHERE id = {template}"
    )


async def build(url: str, finished: int, active: int, batch: int = 100_000) -> float:
    """Fill the database; the seconds it took."""
    done_id, active_id = await template_rows(url)
    started = time.perf_counter()
    if is_postgres(url):
        import asyncpg

        db = await asyncpg.connect(url)
        try:
            for offset in range(0, finished, batch):
                await db.execute(pg_copy_sql(done_id, min(batch, finished - offset), offset, False))
            for offset in range(0, active, batch):
                count = min(batch, active - offset)
                await db.execute(pg_copy_sql(active_id, count, finished + offset, True))
            await db.execute(
                "INSERT INTO challenges (guild_id, channel_id, kind, challenger_id, opponent_id,"
                " first, created_at, expires_at)"
                f" SELECT {GUILD}, 1, 'shax', g, g + 1, 'me', {START}, {START} + g"
                " FROM generate_series(1, 10000) AS g"
            )
            await db.execute("ANALYZE")
        finally:
            await db.close()
    else:
        import sqlite3

        from bot.storage import sqlite_path

        db = sqlite3.connect(sqlite_path(url), isolation_level=None)
        try:
            for offset in range(0, finished, batch):
                db.execute("BEGIN")
                db.execute(sqlite_copy_sql(done_id, min(batch, finished - offset), offset, False))
                db.execute("COMMIT")
            for offset in range(0, active, batch):
                count = min(batch, active - offset)
                db.execute("BEGIN")
                db.execute(sqlite_copy_sql(active_id, count, finished + offset, True))
                db.execute("COMMIT")
            db.execute(
                "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 10000)"
                " INSERT INTO challenges (guild_id, channel_id, kind, challenger_id, opponent_id,"
                f" first, created_at, expires_at) SELECT {GUILD}, 1, 'shax', g, g + 1, 'me',"
                f" {START}, {START} + g FROM s"
            )
            db.execute("ANALYZE")
        finally:
            db.close()
    return time.perf_counter() - started


async def queries(url: str, samples: int = 300) -> list[str]:
    """p99 of each query on the large database, and its plan."""
    store = await open_store(url)
    rng = random.Random(1)
    lines = []
    try:
        count = await _count_games(store)
        lines.append(f"  games: {count[0]:,} finished, {count[1]:,} active")

        def user() -> tuple[int, int]:
            """A player of a random copied game, in its server (as the copies place them)."""
            g = rng.randrange(1, sum(count) + 1)
            return GUILD + g % GUILDS, USER_BASE + (g * 7919) % PLAYERS

        async def timed(call) -> tuple[float, int]:
            started = time.perf_counter()
            found = await call
            return (time.perf_counter() - started) * 1000, len(found)

        cases = {
            "/game list (active)": lambda: store.games_of_user(*user(), limit=25),
            "/game list (all)": lambda: store.games_of_user(
                *user(), include_finished=True, limit=25
            ),
            "deadline scan: reminders": lambda: store.games_to_remind(START),
            "deadline scan: claims": lambda: store.games_claimable(START),
            "deadline scan: challenges": lambda: store.challenges_expired(START + 100),
            "outbox: jobs due": lambda: store.take_jobs("bench", START, 60, 100, 5),
        }
        for name, call in cases.items():
            values, rows = [], 0
            for _ in range(samples):
                elapsed, rows = await timed(call())
                values.append(elapsed)
            lines.append(
                f"  {name:<28} p50 {percentile(values, 0.5):7.2f} ms"
                f"  p99 {percentile(values, 0.99):7.2f} ms  ({rows} rows the last time)"
            )
        plans = {
            "games_of_user": (GUILD, USER_BASE + 1, 25),
            "active_games_of_user": (GUILD, USER_BASE + 1, 25),
            "games_to_remind": (START,),
            "games_claimable": (START,),
            "challenges_expired": (START,),
        }
        for name, params in plans.items():
            lines.append(f"  plan of {name}:")
            lines += [f"    {line}" for line in await store.query_plan(name, params)]
    finally:
        await store.close()
    return lines


async def _count_games(store) -> tuple[int, int]:
    if hasattr(store, "_pool"):
        rows = await store._pool.fetch("SELECT status, count(*) FROM games GROUP BY status")
    else:
        rows = await store._fetchall("SELECT status, count(*) FROM games GROUP BY status")
    counts = {row[0]: row[1] for row in rows}
    return counts.get("finished", 0), counts.get("active", 0)


# ---- the run ---------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale")
    parser.add_argument("--seconds", type=float, default=10.0, help="per move measurement")
    parser.add_argument("--finished", type=int, default=1_000_000)
    parser.add_argument("--active", type=int, default=10_000)
    parser.add_argument("--skip-moves", action="store_true")
    parser.add_argument("--skip-scale", action="store_true")
    args = parser.parse_args()

    import asyncpg

    folder = Path(tempfile.mkdtemp(prefix="idzeva-bench-scale-"))
    folder.chmod(0o755)
    runtime = Path(tempfile.gettempdir()) / f"idzeva-pgserver-{os.getuid()}"
    runtime.mkdir(mode=0o700, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    import pgserver

    server = pgserver.get_server(folder / "pgdata", cleanup_mode="stop")

    async def new_database(name: str) -> str:
        db = await asyncpg.connect(server.get_uri())
        try:
            await db.execute(f"CREATE DATABASE {name}")
        finally:
            await db.close()
        return server.get_uri(name)

    try:
        print(f"bench-scale ({machine_load()})")
        if not args.skip_moves:
            print(f"moves through the service, {args.seconds:.0f} s each, no picture:")
            runs = [("sqlite", 1, str(folder / "moves.db"))] + [
                ("postgres", n, asyncio.run(new_database(f"moves_{n}"))) for n in (1, 2, 4)
            ]
            for label, processes, url in runs:
                found = moves_with(url, processes, args.seconds)
                print(
                    f"  {label:<8} {processes} process(es): {found['moves_per_s']:7.1f} moves/s"
                    f"  p50 {found['p50']:6.2f} ms  p99 {found['p99']:7.2f} ms"
                    f"  ({found['moves']} moves)",
                    flush=True,
                )
        if not args.skip_scale:
            print(f"large database: {args.finished:,} finished + {args.active:,} active games")
            for label, url in (
                ("postgres", asyncio.run(new_database("scale"))),
                ("sqlite", str(folder / "scale.db")),
            ):
                seconds = asyncio.run(build(url, args.finished, args.active))
                print(f" {label}: built in {seconds:.0f} s", flush=True)
                for line in asyncio.run(queries(url)):
                    print(line, flush=True)
        print(f"({machine_load()} at the end)")
        print(json.dumps({"done": True}))
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
