"""Storage: the cost of ``synchronous=FULL``, and a server with 100,000 finished games.

About five minutes and 2.5 GB of disk in a temporary folder (``BENCH_DIR`` to choose it):
the schema-2 database is that large.

- Durability: a game's update (what every move writes) on a real file, NORMAL against FULL,
  then whole Shax moves through the service, both ways.
- History: a database of 100,000 finished games (plus a few hundred active ones) in one
  server, built quickly with ``executemany`` from real random games of every kind, once at
  schema 2 (each move also in a moves table) and once at the current schema: both sizes,
  the upgrade of the old one, the list of a player's games (``store.games_of_user`` and
  ``service.list_games``, as ``/game list`` asks), and the plan of every hot query.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bot.config import Settings
from bot.domain.service import GameService
from bot.storage.migrations import SQLITE as MIGRATIONS
from bot.storage.rows import encode_state
from bot.storage.sqlite import Store
from cogs.shared import LIST_LIMIT
from games import GAMES, Game, new_game

from .timing import percentile, summary_row

GUILD, CHANNEL = 1_100_000_000_000_000_001, 1_200_000_000_000_000_003
PLAYER_BASE = 1_234_567_890_123_456_000
FINISHED, ACTIVE, PLAYERS = 100_000, 300, 1_000
HEAVY = PLAYER_BASE  # a player seated in one game in ten (10,000 finished games)
START = 1_800_000_000.0
OLD_LIST_SQL = (  # schema 2's games_of_user: every game of the server through json_each
    "SELECT * FROM games WHERE guild_id = ?"
    " AND EXISTS (SELECT 1 FROM json_each(games.players) WHERE value = ?)"
    " ORDER BY status = 'finished', updated_at DESC, id DESC"
)


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# ---- durability --------------------------------------------------------------------------


async def writes_per_second(folder: Path, synchronous: str, writes: int = 300) -> float:
    path = folder / f"sync-{synchronous.lower()}.db"
    state = random_game("shax", random.Random(1), 60).to_json()  # 60 plies, then resigned
    async with await Store.open(str(path), synchronous=synchronous) as store:
        game_id = await store.insert_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="shax",
            players=(1, 2),
            state=state,
            created_at=START,
            updated_at=START,
        )
        started = time.perf_counter()
        for version in range(1, writes + 1):
            assert await store.update_game(game_id, version, state=state, updated_at=START)
        elapsed = time.perf_counter() - started
    return writes / elapsed


async def service_moves_per_second(folder: Path, synchronous: str) -> tuple[float, list[float]]:
    """Whole Shax moves (validate, write, render) for one game, seeded."""
    from .service import play_one, seeded_roller, start_game

    rng = random.Random(3)
    times: dict[str, list[float]] = {"move": [], "complete": [], "cold": [], "roll": []}
    path = folder / f"service-{synchronous.lower()}.db"
    async with await Store.open(str(path), synchronous=synchronous) as store:
        service = GameService(store, settings=Settings(), roller=seeded_roller(rng))
        game_id = await start_game(service, "shax")
        await play_one(service, game_id, rng, times)
    moves = times["move"]
    return 1000 * len(moves) / sum(moves), moves


async def reads_while_writing(folder: Path, synchronous: str) -> list[float]:
    """Look-ups (20 readers, like autocomplete) while moves are committed about every 4 ms:
    the reading connection does not wait for a commit's fsync."""
    state = random_game("shax", random.Random(1), 60).to_json()
    path = folder / f"reads-{synchronous.lower()}.db"
    async with await Store.open(str(path), synchronous=synchronous) as store:
        games = {}
        for number in range(50):
            game_id = await store.insert_game(
                guild_id=GUILD,
                channel_id=CHANNEL,
                kind="shax",
                players=(number, number + 1),
                state=state,
                created_at=START,
                updated_at=START,
            )
            games[game_id] = 1
        ids, reads, writing = list(games), [], True
        loop = asyncio.get_running_loop()

        async def writer() -> None:
            number = 0
            while writing:
                game_id = ids[number % len(ids)]
                assert await store.update_game(game_id, games[game_id], state=state)
                games[game_id] += 1
                number += 1
                await asyncio.sleep(0.004)

        async def reader(first: int) -> None:
            for step in range(100):
                started = loop.time()
                await store.game_version(ids[(first + step) % len(ids)])
                reads.append((loop.time() - started) * 1000)
                await asyncio.sleep(0.005)

        task = asyncio.create_task(writer())
        await asyncio.gather(*(reader(first) for first in range(20)))
        writing = False
        await task
    return reads


def durability_lines(folder: Path, rounds: int = 2) -> list[str]:
    """Each mode in turn, ``rounds`` times: the machine's load changes under a benchmark."""
    lines = ["Durability: synchronous NORMAL against FULL (WAL, a real file), modes alternating"]
    writes: dict[str, list[float]] = {"NORMAL": [], "FULL": []}
    moves: dict[str, list[float]] = {"NORMAL": [], "FULL": []}
    for _ in range(rounds):
        for mode in writes:
            rate = asyncio.run(writes_per_second(folder, mode))
            writes[mode].append(1000 / rate)
            moves[mode] += asyncio.run(service_moves_per_second(folder, mode))[1]
    for mode, each in writes.items():
        lines.append(
            f"  {'game update, ' + mode:<28} {1000 * len(each) / sum(each):8.0f} writes/s   "
            f"{' / '.join(f'{ms:.2f}' for ms in each)} ms each"
        )
    for mode, times in moves.items():
        rate = 1000 * len(times) / sum(times)
        lines.append(summary_row(f"whole Shax move, {mode}", times, f"{rate:.1f} moves/s"))
    for mode in writes:
        reads = asyncio.run(reads_while_writing(folder, mode))
        lines.append(summary_row(f"look-up during writes, {mode}", reads, "20 readers"))
    cost = sum(writes["FULL"]) / rounds - sum(writes["NORMAL"]) / rounds
    lines.append(
        f"  FULL costs {cost:.2f} ms per write; the store uses FULL"
        " (SYNCHRONOUS in bot/storage/sqlite.py says why)"
    )
    return lines


# ---- a server with a long history ----------------------------------------------------------


def random_game(key: str, rng: random.Random, limit: int) -> Game:
    """A seeded random game played to its end, or resigned after ``limit`` actions."""
    game = new_game(key)
    for _ in range(limit):
        if game.is_over:
            return game
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
        else:
            game.push(rng.choice(game.legal_moves()))
    if not game.is_over:
        game.resign(game.to_move or 0)
    return game


def template_games(per_kind: int = 3) -> list[Game]:
    """Finished games of every kind (Poron Jikaida's random games run long: resigned)."""
    rng = random.Random(2024)
    return [
        random_game(key, rng, 150 if key == "jikaida" else 1_000)
        for key in GAMES
        for _ in range(per_kind)
    ]


def game_rows(templates: list[Game], rng: random.Random, *, old: bool) -> Iterator[tuple]:
    """(row, game) for FINISHED finished games then ACTIVE active ones (their openings), with
    the state as each schema stores it (text at schema 2, compressed since)."""
    stored = [
        tuple(
            text if old else encode_state(text) for text in (g.to_json(), new_game(g.key).to_json())
        )
        for g in templates
    ]
    for number in range(FINISHED + ACTIVE):
        game, (ended, opening) = templates[number % len(templates)], stored[number % len(templates)]
        finished = number < FINISHED
        first = HEAVY if number % 10 == 0 else PLAYER_BASE + 1 + rng.randrange(PLAYERS - 1)
        second = PLAYER_BASE + 1 + rng.randrange(PLAYERS - 1)
        while second == first:
            second = PLAYER_BASE + 1 + rng.randrange(PLAYERS - 1)
        state = ended if finished else opening
        updated = START + number * 60.0
        row = (
            GUILD,
            CHANNEL,
            2_000_000_000_000_000_000 + number,  # thread
            3_000_000_000_000_000_000 + number,  # board message
            game.key,
            json.dumps([first, second]),
            state,
            1 + len(game.log) if finished else 1,
            "finished" if finished else "active",
            game.result_text() if finished else None,
            START,
            updated,
            None if finished else updated,
            None if finished else updated + 86_400,
            None if finished else updated + 7 * 86_400,
        )
        yield row, (game if finished else None)


INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, thread_id, message_id, kind, players, state,"
    " version, status, result, created_at, updated_at, turn_started_at, remind_at, claim_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


async def create_schema(path: Path, migrations: list[str]) -> None:
    async with await Store.open(str(path), migrations):
        pass


def build(path: Path, templates: list[Game], *, old: bool) -> float:
    """Fill a database at schema 2 (``old``) or the current one; returns seconds taken."""
    asyncio.run(create_schema(path, MIGRATIONS[:2] if old else MIGRATIONS))
    started = time.perf_counter()
    rng = random.Random(7)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    batch: list[tuple] = []
    moves: list[tuple] = []
    for game_id, (row, game) in enumerate(game_rows(templates, rng, old=old), start=1):
        batch.append(row)
        if old and game is not None:  # what schema 2 wrote with every move
            moves.extend(
                (
                    game_id,
                    ply,
                    entry.seat,
                    entry.move,
                    json.dumps(list(entry.dice)) if entry.dice is not None else None,
                    START + ply,
                )
                for ply, entry in enumerate(game.log, start=1)
            )
        if len(batch) >= 5_000:
            flush(db, batch, moves)
    flush(db, batch, moves)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return time.perf_counter() - started


def flush(db: sqlite3.Connection, batch: list[tuple], moves: list[tuple]) -> None:
    db.executemany(INSERT_GAME, batch)
    if moves:  # schema 2 only
        db.executemany(
            "INSERT INTO moves (game_id, ply, seat, move, dice, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            moves,
        )
    batch.clear()
    moves.clear()


def size_mb(path: Path) -> float:
    return sum(os.path.getsize(f) for f in (path, Path(f"{path}-wal")) if os.path.exists(f)) / (
        1024 * 1024
    )


def old_list_ms(path: Path, samples: int = 5) -> list[float]:
    """Schema 2's listing query, timed on the schema-2 database (the 'before' figure)."""
    db = sqlite3.connect(path)
    times = []
    for sample in range(samples):
        user = HEAVY if sample == 0 else PLAYER_BASE + 1 + sample
        started = time.perf_counter()
        db.execute(OLD_LIST_SQL, (GUILD, user)).fetchall()
        times.append((time.perf_counter() - started) * 1000)
    db.close()
    return times


async def time_lists(path: Path) -> tuple[dict[str, list[float]], dict[str, list[str]]]:
    rng = random.Random(11)
    users = [HEAVY] * 20 + [PLAYER_BASE + 1 + rng.randrange(PLAYERS - 1) for _ in range(180)]
    times: dict[str, list[float]] = {
        "store": [],
        "service": [],
        "active": [],
        "heavy": [],
        "cpu": [],  # processor time of the service's list, every thread of the process
    }
    async with await Store.open(str(path)) as store:
        service = GameService(store, settings=Settings())
        loop = asyncio.get_running_loop()
        for user in users:
            started = loop.time()
            rows = await store.games_of_user(GUILD, user, include_finished=True, limit=LIST_LIMIT)
            times["store"].append((loop.time() - started) * 1000)
            assert rows
            started, cpu = loop.time(), time.process_time()
            await service.list_games(GUILD, user, include_finished=True, limit=LIST_LIMIT)
            elapsed = (loop.time() - started) * 1000
            times["cpu"].append((time.process_time() - cpu) * 1000)
            times["heavy" if user == HEAVY else "service"].append(elapsed)
            started = loop.time()
            await service.list_games(GUILD, user)  # active games only (autocomplete, resolve)
            times["active"].append((loop.time() - started) * 1000)
        plans = {
            name: await store.query_plan(name, params) for name, params in plan_params().items()
        }
    return times, plans


def plan_params() -> dict[str, tuple]:
    return {
        "get_game": (1,),
        "game_version": (1,),
        "games_of_user": (GUILD, HEAVY, LIST_LIMIT),
        "active_games_of_user": (GUILD, HEAVY, -1),
        "game_in_thread": (GUILD, 2_000_000_000_000_000_000),
        "games_to_remind": (START,),
        "games_claimable": (START,),
        "moves": (1,),
        "get_challenge": (1,),
        "challenges_expired": (START,),
    }


def history_lines(folder: Path) -> list[str]:
    started = time.perf_counter()
    templates = template_games()
    made = time.perf_counter() - started
    plies = sum(len(game.log) for game in templates) / len(templates)
    old_path, new_path = folder / "schema2.db", folder / "current.db"
    old_seconds = build(old_path, templates, old=True)
    new_seconds = build(new_path, templates, old=False)
    old_mb, new_mb = size_mb(old_path), size_mb(new_path)
    lines = [
        f"History: {FINISHED:,} finished games and {ACTIVE} active ones in one server,"
        f" {PLAYERS:,} players (one of them in {FINISHED // 10:,} games);"
        f" {len(templates)} random games of every kind as models ({made:.1f} s),"
        f" {plies:.0f} log entries per game on average",
        f"  {'database at schema 2':<28} {old_mb:8.1f} MB   (built in {old_seconds:.1f} s;"
        " each move in the state's log and in the moves table)",
        f"  {'database, current schema':<28} {new_mb:8.1f} MB   (built in {new_seconds:.1f} s;"
        f" {new_mb / old_mb:.0%} of schema 2)   target <= 50%  {mark(new_mb <= old_mb / 2)}",
    ]
    before = old_list_ms(old_path)
    lines.append(
        summary_row("/game list, schema 2 query", before, "before: scans every game's players")
    )
    started = time.perf_counter()
    asyncio.run(create_schema(old_path, MIGRATIONS))  # the upgrade, VACUUM included
    upgrade = time.perf_counter() - started
    lines.append(
        f"  {'schema 2 upgraded':<28} {size_mb(old_path):8.1f} MB   (upgrade and VACUUM"
        f" {upgrade:.1f} s)"
    )
    times, plans = asyncio.run(time_lists(new_path))
    list_p99 = percentile(times["service"] + times["heavy"], 0.99)
    load = os.getloadavg()[0]
    lines += [
        f"  Lists (load average {load:.1f} on {os.cpu_count()} cores: above 1 a core, p99 is"
        " mostly waiting for the processor)",
        summary_row("store.games_of_user", times["store"], f"{LIST_LIMIT} games, finished too"),
        summary_row(
            "service.list_games",
            times["service"],
            f"/game list finished:True   target p99 <= 10 ms  {mark(list_p99 <= 10)}",
        ),
        summary_row("  ... player in 10,000 games", times["heavy"], ""),
        summary_row("  ... processor time", times["cpu"], "what p99 is without the load"),
        summary_row("service.list_games, active", times["active"], "autocomplete, defaults"),
        "  Query plans (every hot query on an index; a SCAN of a table is MISSED):",
    ]
    for name, plan in plans.items():
        scans = [step for step in plan if step.startswith("SCAN") and "VIRTUAL" not in step]
        lines.append(f"    {name:<22} {mark(not scans):<6} {' | '.join(plan)}")
    return lines


def main() -> None:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as folder:
        print("\n".join(durability_lines(Path(folder))))
        print()
        print("\n".join(history_lines(Path(folder))))
        print()


if __name__ == "__main__":
    main()
