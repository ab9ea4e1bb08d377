"""Tournaments (issue 32): pairing a Swiss round of 1,000 players, rounds 1 to 7 of an
event whose results are drawn from the ratings (seeded); target every round <= 1 s (wall
clock, with the CPU time beside it for a busy machine). Then the table of a 1,000-player
Swiss of 11 rounds read through the service, on SQLite and PostgreSQL: target p99 <= 50 ms
(needs the test extra: pgserver)."""

from __future__ import annotations

import random
import time

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


async def table_times(
    url: str, field: list[Entrant], boards: list
) -> tuple[list[float], list[float]]:
    """Milliseconds of ``GameService.tournament_table`` on the event written to the store
    ``url`` names: as players ask for it (the table kept between results: a count of
    results and withdrawals read each time), and cold (the boards read and weighed)."""
    cold: list[float] = []
    from dataclasses import replace

    from bot.config import Settings
    from bot.domain.service import GameService
    from bot.storage import open_store

    store = await open_store(url)
    try:
        event_id = await store.insert_tournament(
            guild_id=GUILD, channel_id=1, organiser_id=1, name="Bench", kind="shax",
            format="swiss", created_at=0.0, updated_at=0.0,
        )  # fmt: skip
        for entrant in field:
            await store.join_tournament(event_id, entrant.player, 0.0)
        mine = [replace(b, tournament_id=event_id) for b in boards]
        seeds = [(e.player, e.rating) for e in field]
        rounds = max(b.round for b in mine)
        await store.start_tournament(event_id, seeds, rounds, [b for b in mine if b.round == 1], 0)
        for number in range(2, rounds + 1):
            await store.add_round(event_id, number, [b for b in mine if b.round == number], 0)
        times = []
        for sample in range(TABLE_SAMPLES + 1):
            if sample % 10 == 0:  # a service of its own: nothing kept, the whole work
                service = GameService(store, settings=Settings())
                start = time.perf_counter()
                table = await service.tournament_table(event_id, GUILD)
                cold.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            table = await service.tournament_table(event_id, GUILD)
            times.append((time.perf_counter() - start) * 1000)
        assert len(table.rows) == len(field)
        return times, cold
    finally:
        await store.close()


def table_main() -> None:
    import asyncio
    import os
    import shutil
    import tempfile
    from pathlib import Path

    import pgserver

    print(f"Tournaments: the table of a {PLAYERS:,}-player Swiss of 11 rounds ({machine_load()})")
    field, boards = simulated_event()
    folder = Path(tempfile.mkdtemp(prefix="idzeva-bench-tournament-"))
    folder.chmod(0o755)
    runtime = Path(tempfile.gettempdir()) / f"idzeva-pgserver-{os.getuid()}"
    runtime.mkdir(mode=0o700, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    server = pgserver.get_server(folder / "pgdata", cleanup_mode="stop")
    try:
        for label, url in (("sqlite", str(folder / "idzeva.db")), ("postgres", server.get_uri())):
            times, cold = asyncio.run(table_times(url, field, boards))
            p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
            mark = verdict(p99, TARGET_TABLE_P99_MS)
            print(
                f"  {label:<9} p50 {p50:5.1f} ms  p99 {p99:5.1f} ms   target p99 <= 50 ms {mark};"
                f" cold (after a result) p50 {percentile(cold, 0.5):5.1f} ms,"
                f" worst {max(cold):5.1f} ms"
            )
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)
    print()


if __name__ == "__main__":
    main()
