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
``--table FILE`` prints those lines as a Markdown table. ``--table FILE --docs PAGE`` instead
rewrites the generated part of PAGE (between ``BEGIN`` and ``END``) from FILE: where each
target stands, the pooled runs and every run by section (``make docs`` does it for
docs/bot.md from docs/data/arena.jsonl, which also holds the run's seed, date, conditions,
whether it counts now, ``current``, and the pools it belongs to).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import UTC, datetime
from pathlib import Path

from bot.cli.options import GAMES_BOUNDS, Bounds, OneLineParser
from games import new_game
from search.arena import SETUPS, Tally, arena, percentile
from search.yardsticks import YARDSTICKS

MATCHES = [("normal", "random"), ("normal", "easy"), ("hard", "normal")]
# ``--outside``: each level the issue measures against each outside player
OUTSIDE_MATCHES = [(level, player) for player in YARDSTICKS for level in ("normal", "hard")]
# Shown beside them: issue 35 asks ``easy`` for half the points against flat Monte Carlo
# in the dice games.
OUTSIDE_SHOWN = [*OUTSIDE_MATCHES, ("easy", "flatmc")]
BUDGET = {"easy": 0.3, "normal": 2.0, "hard": 8.0}
JOBS_BOUNDS = Bounds(1, 64)  # processes: more than the machine has cores only slows it down


def games_for(name: str, variants: tuple[str, ...], a: str, b: str) -> int:
    poron = name == "jikaida" and "pastang" not in variants
    if b in YARDSTICKS:
        return 20 if poron else 40
    if poron and b == "random":
        return 30
    return 100


def verdict(tally: Tally, b: str) -> str:
    """Against random: 95% of the points; against an outside player: the 95% interval
    clears one half; against a level: it clears 0.55."""
    low, _ = tally.interval()
    if b == "random":
        return "ok" if tally.share() >= 0.95 else "MISS"
    return "ok" if low > (0.5 if b in YARDSTICKS else 0.55) else "MISS"


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
                "cpu_p50": round(percentile(tally.cpu.get(p, []), 0.5), 3),
                "cpu_p95": round(percentile(tally.cpu.get(p, []), 0.95), 3),
            }
            for p in dict.fromkeys((a, b))
            if p != "random"
        },
        "endings": tally.endings,
        "seconds": round(seconds),
    }


def times_text(times: dict[str, dict]) -> str:
    """``normal 0.50 / 0.71 (CPU 0.48 / 0.66); easy p95 0.06``: each level's p50 / p95
    seconds a turn, and of CPU where the run recorded it (since 29 November; a transcribed
    run may lack the p50 or the count of moves; a level with no move is left out)."""
    shown = []
    for player, t in times.items():
        if t["moves"] == 0:
            continue
        p50 = t["p50"]
        text = (
            f"{player} {p50:.2f} / {t['p95']:.2f}"
            if p50 is not None
            else f"{player} p95 {t['p95']:.2f}"
        )
        if "cpu_p95" in t:
            text += f" (CPU {t['cpu_p50']:.2f} / {t['cpu_p95']:.2f})"
        shown.append(text)
    return "; ".join(shown)


def markdown(header: list[str], rows: Iterable[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def wdl(line: dict) -> str:
    return f"{line['wins']}-{line['draws']}-{line['losses']}"


def table(lines: list[dict]) -> str:
    """The arena table from ``--out`` lines."""
    header = "game, match, games, A's W-D-L, share, 95% interval, target, s/move p50 / p95"
    return markdown(
        header.split(", "),
        (
            [
                line["game"],
                line["match"].replace("-", " - "),
                line["games"],
                wdl(line),
                f"{line['share']:.3f}",
                f"{line['low']:.3f}-{line['high']:.3f}",
                line["verdict"],
                times_text(line["times"]),
            ]
            for line in lines
        ),
    )


# ---- the generated part of docs/bot.md ------------------------------------------------

BEGIN = "<!-- generated by `make docs` from docs/data/arena.jsonl: do not edit by hand -->"
END = "<!-- end of the generated part -->"
TARGETS = {
    "normal-random": "normal - random (>= 95%)",
    "normal-easy": "normal - easy (low > 0.55)",
    "hard-normal": "hard - normal (low > 0.55)",
}


def target_games(game: str, match: str) -> int:
    """Games a match needs (the targets' 100; 30 for Poron Jikaida against random)."""
    name, _, rest = game.partition(" (")
    variants = tuple(rest.rstrip(")").split(", ")) if rest else ()
    a, b = match.split("-", 1)
    return games_for(name, variants, a, b)


def pooled(lines: list[dict]) -> Tally:
    """The runs of one match summed (their results only)."""
    tally = Tally()
    for line in lines:
        tally.wins += line["wins"]
        tally.draws += line["draws"]
        tally.losses += line["losses"]
        tally.points += line["wins"] + line["draws"] / 2
    return tally


def summary(tally: Tally, match: str) -> str:
    """``88-0-12 in 100 (0.802-0.930) ok``."""
    low, high = tally.interval()
    verdict_ = verdict(tally, match.split("-", 1)[1])
    return (
        f"{tally.wins}-{tally.draws}-{tally.losses} in {tally.games} "
        f"({low:.3f}-{high:.3f}) {verdict_}"
    )


def standing(lines: list[dict]) -> str:
    """Where each target stands: per setup and match, the runs that count now, summed; in
    bold where the match has its target number of games."""
    setups = [label(*setup) for setup in SETUPS]
    rows = []
    for setup in setups:
        cells = [setup]
        for match in TARGETS:
            runs = [x for x in lines if x["current"] and x["game"] == setup and x["match"] == match]
            tally = pooled(runs)
            text = summary(tally, match) if runs else "-"
            bold = runs and tally.games >= target_games(setup, match)
            cells.append(f"**{text}**" if bold else text)
        rows.append(cells)
    return markdown(["setup", *TARGETS.values()], rows)


def outside_standing(lines: list[dict]) -> str:
    """Each level against each outside player, per setup: the runs that count now, summed;
    "ok" where the 95% interval clears one half; in bold at the target number of games."""
    setups = [label(*setup) for setup in SETUPS]
    matches = [f"{a}-{b}" for a, b in OUTSIDE_SHOWN]
    rows = []
    for setup in setups:
        cells = [setup]
        for match in matches:
            runs = [x for x in lines if x["current"] and x["game"] == setup and x["match"] == match]
            tally = pooled(runs)
            text = f"{summary(tally, match)} {tally.share():.2f}" if runs else "-"
            bold = runs and tally.games >= target_games(setup, match)
            cells.append(f"**{text}**" if bold else text)
        if any(cell != "-" for cell in cells[1:]):
            rows.append(cells)
    return markdown(["setup", *(m.replace("-", " - ") for m in matches)], rows)


def pools(lines: list[dict]) -> str:
    """Each named pool of runs (several seeds, seat counts or dates of one match), summed."""
    names = dict.fromkeys(name for line in lines for name in line.get("pools", []))
    rows = []
    for name in names:
        runs = [line for line in lines if name in line.get("pools", [])]
        tally = pooled(runs)
        share = f"{tally.share():.3f}"
        rows.append([name, len(runs), summary(tally, runs[0]["match"]), share])
    return markdown(["pool", "runs", "W-D-L in games (95% interval) verdict", "share"], rows)


def seeds_text(seed: int | list[int] | None) -> str:
    if seed is None:
        return "-"
    if isinstance(seed, int):
        return str(seed)
    consecutive = len(seed) > 2 and seed == list(range(seed[0], seed[-1] + 1))
    return f"{seed[0]}-{seed[-1]}" if consecutive else ", ".join(map(str, seed))


def run_notes(line: dict, section_date: str) -> str:
    parts = []
    if line["date"] != section_date:
        parts.append(line["date"])
    if "tried" in line:
        parts.append(f"tried: {line['tried']}" + ("" if line.get("kept") else ", not kept"))
    elif line.get("kept") is False:
        parts.append("not kept")
    if "iterations" in line:
        parts.append(f"both sides {line['iterations']:,} iterations")
    if "levels" in line:
        parts.append(f"levels: {line['levels']}")
    if "command" in line:
        parts.append(f"`{line['command']}`")
    if line.get("seconds"):
        parts.append(f"{line['seconds']:,} s")
    if line.get("endings"):
        parts.append(", ".join(f"{reason} {n}" for reason, n in line["endings"].items()))
    if "note" in line:
        parts.append(line["note"])
    return "; ".join(parts)


def runs(lines: list[dict]) -> str:
    """Every run, a table per section, the latest section first."""
    sections = dict.fromkeys(line["section"] for line in lines)
    header = (
        "game, match, seed, A's W-D-L, share, 95% interval, verdict, now, s/turn p50 / p95, notes"
    )
    parts = []
    for section in reversed(sections):
        these = [line for line in lines if line["section"] == section]
        first = these[0]
        rows = [
            [
                line["game"],
                line["match"].replace("-", " - "),
                seeds_text(line["seed"]),
                f"{wdl(line)} in {line['games']}",
                f"{line['share']:.3f}",
                f"{line['low']:.3f}-{line['high']:.3f}",
                line["verdict"],
                "yes" if line["current"] else "",
                times_text(line["times"]),
                run_notes(line, first["date"]),
            ]
            for line in these
        ]
        heading = f"#### {section}\n\n{first['conditions'][0].upper()}{first['conditions'][1:]}."
        parts.append(heading + "\n\n" + markdown(header.split(", "), rows))
    return "\n\n".join(parts)


def generated(lines: list[dict]) -> str:
    """The generated part of docs/bot.md, markers included."""
    return "\n\n".join(
        [
            BEGIN,
            "### Where each target stands",
            "Every run that counts now (`current`: the levels as they are) summed per setup and "
            'match; "ok" where the 95% interval clears the bar at that size (for `- random`, '
            'the share of the points reaches 95%), MISS where it does not, "-" where no game '
            "was played with the current levels; **bold** where the match has its target number "
            "of games (100; 30 for Poron Jikaida against random).",
            standing(lines),
            "### Against outside players",
            "Each level against the players of `search/yardsticks.py`, written apart from the "
            "search: `greedy` (one ply on a plain material count), `flatmc` (flat Monte Carlo: "
            "50 random playouts of 40 plies per legal move), `alphabeta2` (a two-ply "
            "alpha-beta on material, captures first) and `uct` (plain UCT as Ludii ships it, "
            "random playouts to the end, 3 s of CPU a move). W-D-L in games (95% interval), "
            'verdict ("ok" where the interval clears one half), share of the points; **bold** '
            "at the target number of games (40; 20 for Poron Jikaida). Setups with no run yet are "
            "left out. Flat Monte Carlo on the big board is not played: about 130 s of CPU a "
            "move there (195 moves of 50 playouts of 40 plies), some 3 hours a game.",
            outside_standing(lines),
            "### Pooled runs",
            pools(lines),
            "### Every run",
            'The latest first. "now": the run counts in the table above. "s/turn": each '
            "bot's wall time a turn, p50 / p95, and since the night of 29 November its CPU time "
            "(what the search cost; the rest of the wall time waited for a core).",
            runs(lines),
            END,
        ]
    )


def read_lines(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def with_generated(page: str, lines: list[dict]) -> str:
    """``page`` with its generated part (from BEGIN to END) made anew from ``lines``."""
    return replace_between(page, BEGIN, END, generated(lines))


def replace_between(page: str, begin: str, end: str, part: str) -> str:
    """``page`` with ``part`` instead of what runs from ``begin`` to ``end``, both included."""
    start, stop = page.index(begin), page.index(end) + len(end)
    return page[:start] + part + page[stop:]


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


def run_fields(args: argparse.Namespace, started_at: datetime) -> dict:
    """What docs/data/arena.jsonl keeps of a run besides its results."""
    ended = datetime.now(UTC)
    return {
        "section": args.section,
        "conditions": args.conditions,
        "date": f"{started_at:%Y-%m-%d %H:%M}-{ended:%H:%M}",
        "seed": args.seed,
        "current": True,
    }


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
    parser.add_argument(
        "--outside",
        action="store_true",
        help="normal and hard against each outside player (greedy, flatmc, alphabeta2, uct)",
    )
    parser.add_argument("--out", metavar="FILE", help="append one JSON line per match")
    parser.add_argument(
        "--section",
        metavar="TEXT",
        help="with --out: the docs/data/arena.jsonl fields of a run that counts now (section, "
        "conditions, date, seed, current), so that its lines can be appended there as they are",
    )
    parser.add_argument("--conditions", metavar="TEXT", default="by search size")
    parser.add_argument("--table", metavar="FILE", help="print a --out file as Markdown")
    parser.add_argument(
        "--docs", metavar="PAGE", help="with --table: rewrite PAGE's generated part instead"
    )
    args = parser.parse_args(argv)
    if args.table:
        lines = read_lines(args.table)
        if args.docs:
            page = Path(args.docs)
            page.write_text(with_generated(page.read_text(encoding="utf-8"), lines), "utf-8")
        else:
            print(table(lines))
        return 0
    matches = [tuple(m.split("-")) for m in args.match] or (
        OUTSIDE_MATCHES if args.outside else MATCHES
    )
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
            started_at = datetime.now(UTC)
            tally = play_match((name, variants, seats), a, b, n, args, pool)
            for player, spent in tally.times.items():
                times.setdefault(player, []).extend(spent)
            if args.out:
                line = record(name, variants, seats, a, b, tally, time.perf_counter() - started)
                if args.section:
                    line |= run_fields(args, started_at)
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
