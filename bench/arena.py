"""``make arena``: how strong the bot is and how long it thinks, per game and variant.

For every game (and variant, and Šačidjun's seat counts) three matches, seats alternating:

- ``normal`` against a uniformly random player: target at least 95% of the points
  (100 games; 30 for Poron Jikaida, whose games are long);
- ``normal`` against ``easy`` and ``hard`` against ``normal``: target the lower end of the
  95% Wilson interval of the stronger level's share of the points above 55% (100 games);
- the time per turn of each level, p95 (one search plays the turn, as the bot replies on
  Discord): ``easy`` <= 0.3 s, ``normal`` <= 2 s, ``hard`` <= 8 s.

Misses are marked ``MISS``. This is a long run (hours: a ``hard`` turn takes seconds and a
game has dozens); ``--games N`` caps every match, ``--only GAME``, ``--seats N``,
``--setup LABEL`` (a row's name) and ``--match A-B`` pick.

    python -m bench.arena --only shax --match normal-random --games 20

``--out FILE`` appends one JSON line per match (a long run's partial results survive it);
``--table FILE`` prints those lines as the Markdown table of the README.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed

from bot.cli.options import GAMES_BOUNDS, Bounds, OneLineParser
from games import new_game
from search.arena import SETUPS, Tally, arena, percentile

MATCHES = [("normal", "random"), ("normal", "easy"), ("hard", "normal")]
BUDGET = {"easy": 0.3, "normal": 2.0, "hard": 8.0}
JOBS_BOUNDS = Bounds(1, 64)  # processes: more than the machine has cores only slows it down


def games_for(name: str, variants: tuple[str, ...], a: str, b: str) -> int:
    if name == "jikaida" and "pastang" not in variants and b == "random":
        return 30
    return 100


def verdict(tally: Tally, b: str) -> str:
    low, _ = tally.interval()
    if b == "random":
        return "ok" if tally.share() >= 0.95 else "MISS"
    return "ok" if low > 0.55 else "MISS"


def label(name: str, variants: tuple[str, ...], seats: int) -> str:
    extra = [*variants] + ([f"{seats} seats"] if name == "sachidjun" else [])
    return name + (f" ({', '.join(extra)})" if extra else "")


def record(
    name: str, variants: tuple[str, ...], seats: int, a: str, b: str, tally: Tally, seconds: float
) -> dict:
    """One match as a JSON-able line."""
    low, high = tally.interval()
    return {
        "game": label(name, variants, seats),
        "match": f"{a}-{b}",
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "share": round(tally.share(), 3),
        "low": round(low, 3),
        "high": round(high, 3),
        "verdict": verdict(tally, b),
        "times": {
            p: {
                "moves": len(tally.times.get(p, [])),
                "p50": round(percentile(tally.times.get(p, []), 0.5), 3),
                "p95": round(tally.p95(p), 3),
            }
            for p in dict.fromkeys((a, b))
            if p != "random"
        },
        "endings": tally.endings,
        "seconds": round(seconds),
    }


def table(lines: list[dict]) -> str:
    """The README's arena table from ``--out`` lines."""
    rows = [
        "| game | match | games | A's W-D-L | share | 95% interval | target | s/move p50 / p95 |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for line in lines:
        times = "; ".join(
            f"{p} {t['p50']:.2f} / {t['p95']:.2f}" for p, t in line["times"].items() if t["moves"]
        )
        rows.append(
            f"| {line['game']} | {line['match'].replace('-', ' - ')} | {line['games']} "
            f"| {line['wins']}-{line['draws']}-{line['losses']} | {line['share']:.3f} "
            f"| {line['low']:.3f}-{line['high']:.3f} | {line['verdict']} | {times} |"
        )
    return "\n".join(rows)


def play_part(
    name: str,
    variants: tuple[str, ...],
    seats: int,
    a: str,
    b: str,
    first: int,
    count: int,
    seed: int,
    clock: bool,
) -> Tally:
    """Games ``first`` to ``first + count - 1`` of a match (one worker process's share)."""

    def make() -> object:
        return new_game(name, variants, seats)

    return arena(make, a, b, count, seed=seed, clock=clock, first=first)


def play_match(
    setup: tuple[str, tuple[str, ...], int],
    a: str,
    b: str,
    n: int,
    args: argparse.Namespace,
    pool: ProcessPoolExecutor | None,
) -> Tally:
    """The whole match: in this process, or in pairs of games (both seatings) over the
    pool's processes; the same games either way."""
    name, variants, seats = setup
    report = reporter(f"{label(name, variants, seats)} {a}-{b}")
    if pool is None:
        return arena(
            lambda: new_game(name, variants, seats),
            a,
            b,
            n,
            seed=args.seed,
            progress=report,
            clock=args.clock,
        )
    tally = Tally()
    parts = [
        pool.submit(
            play_part, name, variants, seats, a, b, first, min(2, n - first), args.seed, args.clock
        )
        for first in range(0, n, 2)
    ]
    for part in as_completed(parts):
        tally.add(part.result())
        report(tally.games, tally)
    return tally


def reporter(tag: str) -> Callable[[int, Tally], None]:
    """Prints each game's running tally to stderr (a long match shows it is alive), and
    how A's last game ended."""

    def report(done: int, tally: Tally) -> None:
        print(
            f"  {tag} game {done}: {tally.wins}-{tally.draws}-{tally.losses}; A {tally.last}",
            file=sys.stderr,
        )

    return report


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m bench.arena", description=__doc__)
    GAMES_BOUNDS.add_option(parser, "--games", "cap every match at N games")
    parser.add_argument("--only", action="append", default=[], metavar="GAME")
    parser.add_argument("--match", action="append", default=[], metavar="A-B")
    parser.add_argument("--seats", type=int, action="append", default=[], metavar="N")
    parser.add_argument(
        "--setup", action="append", default=[], metavar="LABEL", help='e.g. "tchela (4x6)"'
    )
    parser.add_argument("--seed", type=int, default=1)
    JOBS_BOUNDS.add_option(parser, "--jobs", "processes playing games at once", default=1)
    parser.add_argument(
        "--clock",
        action="store_true",
        help="each level also within its time, as on Discord (else by its search size alone)",
    )
    parser.add_argument("--out", metavar="FILE", help="append one JSON line per match")
    parser.add_argument("--table", metavar="FILE", help="print a --out file as Markdown")
    args = parser.parse_args(argv)
    if args.table:
        with open(args.table, encoding="utf-8") as lines:
            print(table([json.loads(line) for line in lines if line.strip()]))
        return 0
    matches = [tuple(m.split("-")) for m in args.match] or MATCHES
    times: dict[str, list[float]] = {}
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    print(
        f"{'game':34} {'match':15} {'games':>5} {'W-D-L':>10} {'share':>6} "
        f"{'95% interval':>13}  verdict  p95 s/move"
    )
    for name, variants, seats in SETUPS:
        if args.only and name not in args.only or args.seats and seats not in args.seats:
            continue
        if args.setup and label(name, variants, seats) not in args.setup:
            continue
        for a, b in matches:
            n = games_for(name, variants, a, b)
            n = min(n, args.games) if args.games is not None else n
            started = time.perf_counter()
            tally = play_match((name, variants, seats), a, b, n, args, pool)
            for player, spent in tally.times.items():
                times.setdefault(player, []).extend(spent)
            if args.out:
                line = record(name, variants, seats, a, b, tally, time.perf_counter() - started)
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(line) + "\n")
            low, high = tally.interval()
            p95 = ", ".join(
                f"{p} {tally.p95(p):.2f}" for p in dict.fromkeys((a, b)) if p != "random"
            )
            print(
                f"{label(name, variants, seats):34} {a + '-' + b:15} {tally.games:5} "
                f"{f'{tally.wins}-{tally.draws}-{tally.losses}':>10} {tally.share():6.3f} "
                f"{f'{low:.3f}-{high:.3f}':>13}  {verdict(tally, b):7}  {p95}"
                f"  ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    if pool is not None:
        pool.shutdown()
    print()
    for player, spent in times.items():
        if player in BUDGET:
            p95 = percentile(spent, 0.95)
            mark = "ok" if p95 <= BUDGET[player] else "MISS"
            print(
                f"time per turn {player}: p50 {percentile(spent, 0.5):.3f} s, "
                f"p95 {p95:.3f} s over {len(spent)} turns "
                f"(budget {BUDGET[player]} s) {mark}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
