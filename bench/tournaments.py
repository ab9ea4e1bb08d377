"""Tournaments (issue 32): pairing a Swiss round of 1,000 players, rounds 1 to 7 of an
event whose results are drawn from the ratings (seeded); target every round <= 1 s (wall
clock, with the CPU time beside it for a busy machine). Then the table of a 1,000-player
Swiss of 11 rounds, in its last round, read through the service on SQLite and PostgreSQL as
players ask for it, after each result, and by a new process: target p99 <= 50 ms (needs the
test extra: pgserver)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace

from bot.domain.tournaments.model import Bye, Entrant, Result, records
from bot.domain.tournaments.swiss import pair_swiss

from .timing import machine_load, percentile, time_wall_cpu_ms, verdict

TARGET_PAIRING_MS = 1000.0
PLAYERS = 1000
ROUNDS = 7
SEED = 32


def swiss_round_times(players: int = PLAYERS, rounds: int = ROUNDS) -> list[tuple[float, float]]:
    """Wall-clock and CPU milliseconds to pair each round."""
    chance = random.Random(SEED)
    field = [Entrant(p, chance.gauss(1500, 250)) for p in range(1, players + 1)]
    rating = {e.player: e.rating for e in field}
    results: list[Result] = []
    byes: list[Bye] = []
    times = []
    for number in range(1, rounds + 1):
        history = records(rating, results, byes)
        found = None

        def pair(history=history):
            nonlocal found
            found = pair_swiss(field, history)

        times.append(time_wall_cpu_ms(pair))
        for game in found.pairings:
            expected = 1 / (1 + 10 ** ((rating[game.black] - rating[game.white]) / 400))
            results.append(
                Result(number, game.white, game.black, float(chance.random() < expected))
            )
        if found.bye is not None:
            byes.append(Bye(number, found.bye, 1.0))
    return times


def main() -> None:
    pairing_main()
    table_main()


def pairing_main() -> None:
    print(f"Tournaments: a Swiss round of {PLAYERS:,} players ({machine_load()})")
    times = swiss_round_times()
    for number, (wall, cpu) in enumerate(times, 1):
        mark = verdict(wall, TARGET_PAIRING_MS)
        print(f"  round {number}  {wall:6.0f} ms (CPU {cpu:4.0f})   target <= 1000 ms {mark}")
    print()


# ---- the table of a 1,000-player event, from the store ----------------------------------

TARGET_TABLE_P99_MS = 50.0
TABLE_SAMPLES = 100
GUILD = 1_100_000_000_000_000_001


def simulated_event(players: int = PLAYERS, rounds: int = 11) -> tuple[list[Entrant], list]:
    """A Swiss event's entrants and every board of its rounds, results drawn from ratings."""
    from bot.storage.tournament_rows import BoardRow

    chance = random.Random(SEED)
    field = [Entrant(p, chance.gauss(1500, 250)) for p in range(1, players + 1)]
    rating = {e.player: e.rating for e in field}
    results: list[Result] = []
    byes: list[Bye] = []
    boards: list[BoardRow] = []
    for number in range(1, rounds + 1):
        found = pair_swiss(field, records(rating, results, byes))
        for index, game in enumerate(found.pairings, 1):
            expected = 1 / (1 + 10 ** ((rating[game.black] - rating[game.white]) / 400))
            points = float(chance.random() < expected)
            results.append(Result(number, game.white, game.black, points))
            boards.append(BoardRow(0, number, index, game.white, game.black, None, points))
        if found.bye is not None:
            byes.append(Bye(number, found.bye, 1.0))
            boards.append(BoardRow(0, number, len(found.pairings) + 1, found.bye, None, None, 1.0))
    return field, boards


@dataclass
class TableTimes:
    """Milliseconds (wall clock, CPU) of ``GameService.tournament_table`` on one store."""

    asked: list[tuple[float, float]] = field(default_factory=list)  # the table kept
    after_result: list[tuple[float, float]] = field(default_factory=list)  # one result since
    first: list[tuple[float, float]] = field(default_factory=list)  # nothing kept: every round


async def table_times(url: str, entrants: list[Entrant], boards: list) -> TableTimes:
    """The event written to the store ``url`` names, its last round still being played:
    the table as players ask for it (kept: one read of the event), after each result (the
    open round's boards read again and the table weighed), and by a new process (every
    round read)."""
    from bot.config import Settings
    from bot.domain.service import GameService
    from bot.storage import open_store

    store = await open_store(url)
    times = TableTimes()

    async def timed(samples: list[tuple[float, float]], service: GameService) -> None:
        start, cpu = time.perf_counter(), time.process_time()
        table = await service.tournament_table(event_id, GUILD)
        samples.append(((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000))
        assert len(table.rows) == len(entrants)

    try:
        event_id = await store.insert_tournament(
            guild_id=GUILD, channel_id=1, organiser_id=1, name="Bench", kind="shax",
            format="swiss", created_at=0.0, updated_at=0.0,
        )  # fmt: skip
        for entrant in entrants:
            await store.join_tournament(event_id, entrant.player, 0.0)
        rounds = max(b.round for b in boards)
        mine = [replace(b, tournament_id=event_id) for b in boards]
        last = [replace(b, white_points=None) for b in mine if b.round == rounds and b.black_id]
        mine = [b for b in mine if b.round < rounds or b.black_id is None] + last
        seeds = [(e.player, e.rating) for e in entrants]
        await store.start_tournament(event_id, seeds, rounds, [b for b in mine if b.round == 1], 0)
        for number in range(2, rounds + 1):
            await store.add_round(event_id, number, [b for b in mine if b.round == number], 0)
        service = GameService(store, settings=Settings())
        for sample in range(TABLE_SAMPLES):
            if sample % 10 == 0:  # a new process: nothing kept
                await timed(times.first, GameService(store, settings=Settings()))
            if sample % 2 == 0:  # a game of the last round ends
                board = last[sample // 2]
                await store.record_result(event_id, board.round, board.board, 1.0)
                await timed(times.after_result, service)
            await timed(times.asked, service)
        return times
    finally:
        await store.close()


def table_main() -> None:
    import asyncio
    import os
    import shutil
    import tempfile
    from pathlib import Path

    import pgserver

    print(
        f"Tournaments: the table of a {PLAYERS:,}-player Swiss of 11 rounds, in its last round"
        f" ({machine_load()})"
    )
    entrants, boards = simulated_event()
    folder = Path(tempfile.mkdtemp(prefix="idzeva-bench-tournament-"))
    folder.chmod(0o755)
    runtime = Path(tempfile.gettempdir()) / f"idzeva-pgserver-{os.getuid()}"
    runtime.mkdir(mode=0o700, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    server = pgserver.get_server(folder / "pgdata", cleanup_mode="stop")
    try:
        for label, url in (("sqlite", str(folder / "idzeva.db")), ("postgres", server.get_uri())):
            times = asyncio.run(table_times(url, entrants, boards))
            for name, samples in (
                ("as asked", times.asked),
                ("after a result", times.after_result),
                ("a new process", times.first),
            ):
                print(f"  {label:<9} {table_row(name, samples)}")
            print(f"            (then {machine_load()})")
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)
    print()


def table_row(name: str, samples: list[tuple[float, float]]) -> str:
    """p50 and p99 of the wall clock (the target's), with the CPU time's beside them."""
    wall = [w for w, _ in samples]
    cpu = [c for _, c in samples]
    p99 = percentile(wall, 0.99)
    return (
        f"{name:<15} p50 {percentile(wall, 0.5):6.1f} ms  p99 {p99:6.1f} ms"
        f" (CPU p50 {percentile(cpu, 0.5):5.1f}, p99 {percentile(cpu, 0.99):5.1f})"
        f"   target p99 <= 50 ms {verdict(p99, TARGET_TABLE_P99_MS)}  [{len(samples)} reads]"
    )


if __name__ == "__main__":
    main()
