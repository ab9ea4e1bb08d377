"""Legal-move generation, random playouts and rendering, per game, over positions from random
games; python-chess, when installed (``pip install -e .[bench]``), as a yardstick."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from games import GAMES, Game, new_game
from render import RENDERERS, render_png

from .shax_plain import plain_playout
from .timing import (
    machine_load,
    percentile,
    random_positions,
    summary_row,
    time_ms,
    time_wall_cpu_ms,
    verdict,
)

# Targets in ms from the issues: legal-move list (p50, and p99 where set), render p50.
LEGAL_TARGETS: dict[str, dict[str, float]] = {
    "shax": {"p50": 1},
    "tchela": {"p50": 2},
    "sachidjun": {"p50": 5},
    "chebache": {"p50": 5},
    "jikaida": {"p50": 1.5, "p99": 5},
}
RENDER_TARGETS: dict[str, dict[str, float]] = {
    "shax": {"p50": 40},
    "tchela": {"p50": 40},
    "sachidjun": {"p50": 50},
    "chebache": {"p50": 50},
    "jikaida": {"p50": 80},
}
PLAYOUT_TARGETS = {"jikaida": 2000.0}  # plies per second
# Ludii (a Java general game system) on this machine, random playouts: games per second.
LUDII_GAMES_PER_S = {"shax": ("Shah", 500.0), "tchela": ("Tchela", 150.0)}
CHESS_RATIO_TARGET = 10.0  # Poron Jikaida's time per move generated, at most 10x python-chess
PLAYOUT_SECONDS = 2.0
PLAYOUT_MAX_PLIES = 400
# Shax's playouts against our plain reference (bench/shax_plain.py), the same seeded games
# played by both, interleaved: issue 33 asks for at least 1.2x the reference's speed.
SHAX_PLAIN_TARGET = 1.2
SHAX_PLAIN_GAMES = 300
SHAX_PLAIN_ROUNDS = 3


def fresh_legal_moves(game: Game) -> list[str]:
    game._legal_cache = None  # measure the generation, not the cache
    memo = getattr(game, "_memo", None)
    if memo is not None:
        game._memo = None  # Jikaida's own position memo
    return game.legal_moves()


def per_move_us(positions: list[Game], times_ms: list[float]) -> float:
    """Median time per move generated, in microseconds."""
    pairs = zip(positions, times_ms, strict=True)
    per = [t * 1000 / max(1, len(g.legal_moves())) for g, t in pairs]
    return percentile(per, 0.5)


def playouts(
    key: str, seconds: float = PLAYOUT_SECONDS, seed: int = 7
) -> tuple[float, float, float]:
    """Seeded random games from the start through the public API (``legal_moves`` then
    ``push``; dice rolled as drawn) for about ``seconds``: (plies/s, games/s, plies per CPU
    second). A game counts when it ends or reaches ``PLAYOUT_MAX_PLIES`` plies."""
    rng = random.Random(seed)
    plies = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        game = new_game(key)
        played = 0
        while not game.is_over and played < PLAYOUT_MAX_PLIES:
            spec = game.dice_needed()
            if spec is not None:
                game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
                continue
            game.push(rng.choice(game.legal_moves()))
            played += 1
        plies += played
        games += 1
    elapsed = time.perf_counter() - start
    return plies / elapsed, games / elapsed, plies / max(1e-9, time.process_time() - cpu)


def engine_playout(rng: random.Random, max_plies: int) -> list[str]:
    """One random Shax game through the public API (``legal_moves`` then ``push``), as
    ``playouts`` plays it: the moves played."""
    game = new_game("shax")
    moves: list[str] = []
    while not game.is_over and len(moves) < max_plies:
        moves.append(game.push(rng.choice(game.legal_moves())))
    return moves


def timed_games(
    playout: Callable[[random.Random, int], list[str]], games: int
) -> tuple[float, float, int]:
    """Wall and CPU seconds to play ``games`` seeded random games (seeds 0..games-1), and the
    plies played."""
    plies = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        plies += len(playout(random.Random(seed), PLAYOUT_MAX_PLIES))
    return time.perf_counter() - start, time.process_time() - cpu, plies


def shax_against_plain(games: int = SHAX_PLAIN_GAMES, rounds: int = SHAX_PLAIN_ROUNDS) -> list[str]:
    """The engine's random playouts against our plain reference over the same seeded games,
    interleaved round by round: medians of ``rounds``, the ratio judged on CPU time (the
    work, not the waits for a core of a busy machine)."""
    load_before = machine_load()
    engine, plain = [], []
    for _ in range(rounds):
        engine.append(timed_games(engine_playout, games))
        plain.append(timed_games(plain_playout, games))
    same = {plies for _, _, plies in engine} == {plies for _, _, plies in plain}
    wall_ratio = statistics.median(p[0] / e[0] for e, p in zip(engine, plain, strict=True))
    cpu_ratio = statistics.median(p[1] / e[1] for e, p in zip(engine, plain, strict=True))
    engine_rate = games / statistics.median(wall for wall, _, _ in engine)
    plain_rate = games / statistics.median(wall for wall, _, _ in plain)
    return [
        f"  {'against the plain reference':<28} {games} seeded games x {rounds} rounds, "
        f"interleaved ({load_before} before, {machine_load()} after); "
        f"same games: {'yes' if same else 'NO'}",
        f"  {'':<28} engine {engine_rate:7.1f} games/s, plain reference {plain_rate:7.1f} "
        f"games/s (medians): x{wall_ratio:.2f} wall, x{cpu_ratio:.2f} CPU time, "
        f"target >= x{SHAX_PLAIN_TARGET:g} {verdict(cpu_ratio, SHAX_PLAIN_TARGET, at_least=True)}",
    ]


def playout_row(key: str) -> str:
    plies_s, games_s, cpu_plies_s = playouts(key)
    row = (
        f"  {'random playouts':<28} {plies_s:9.0f} plies/s   {games_s:7.2f} games/s "
        f"(to the end or {PLAYOUT_MAX_PLIES} plies; CPU time: {cpu_plies_s:.0f} plies/s)"
    )
    if key in PLAYOUT_TARGETS:
        limit = PLAYOUT_TARGETS[key]
        row += f"   target >= {limit:g} plies/s {verdict(plies_s, limit, at_least=True)}"
    if key in LUDII_GAMES_PER_S:
        name, ludii = LUDII_GAMES_PER_S[key]
        # On a busy machine the wall clock counts the waits for a core: the CPU time's
        # games per second are what a quiet core does.
        cpu_games_s = games_s * cpu_plies_s / max(1e-9, plies_s)
        row += (
            f"   Ludii {name} {ludii:g} games/s: ours x{games_s / ludii:.2f} "
            f"(x{cpu_games_s / ludii:.2f} on CPU time)"
        )
    return row


def chess_yardstick(games: int = 20) -> tuple[list[str], float | None]:
    """python-chess's legal-move lists over positions of seeded random games: the rows and
    its median time per move generated (µs), or a note when it is not installed."""
    try:
        import chess
    except ImportError:
        return ["python-chess not installed (pip install -e .[bench]): no yardstick"], None
    rng = random.Random(1)
    boards = []
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 400:
            boards.append(board.copy(stack=False))
            board.push(rng.choice(list(board.legal_moves)))
    times = [time_ms(lambda b=b: list(b.legal_moves)) for b in boards]
    per = [t * 1000 / max(1, b.legal_moves.count()) for b, t in zip(boards, times, strict=True)]
    us = percentile(per, 0.5)
    return [
        f"python-chess {chess.__version__} (yardstick): {len(boards)} positions",
        summary_row("legal moves", times),
        f"  {'per move generated':<28} p50 {us:8.2f} µs",
    ], us


def bench_game(key: str, games: int = 20, renders: int = 60, chess_us: float | None = None):
    positions = random_positions(key, games)
    timed = [time_wall_cpu_ms(lambda g=g: fresh_legal_moves(g)) for g in positions]
    legal = [wall for wall, _ in timed]
    header = [
        f"{GAMES[key].title}: {len(positions)} positions from {games} random games",
        summary_row("legal moves", legal, limits=LEGAL_TARGETS.get(key)),
        summary_row("legal moves, CPU time", [cpu for _, cpu in timed], "(no waits for a core)"),
    ]
    us = per_move_us(positions, legal)
    row = f"  {'per move generated':<28} p50 {us:8.2f} µs"
    if key == "jikaida":
        if chess_us is None:
            row += "   target <= 10x python-chess: python-chess not installed"
        else:
            ratio = us / chess_us
            row += (
                f"   x{ratio:.1f} python-chess, target <= x{CHESS_RATIO_TARGET:g} "
                f"{verdict(ratio, CHESS_RATIO_TARGET)}"
            )
    header += [row, playout_row(key)]
    if key == "shax":
        header += shax_against_plain()
    if key not in RENDERERS:
        return [*header, "  (no renderer yet)"]
    step = max(1, len(positions) // renders)
    sampled = positions[::step][:renders]
    render_times, sizes = [], []
    for game in sampled:
        render_times.append(time_ms(lambda g=game: sizes.append(len(render_png(g)))))
    return [
        *header,
        summary_row(
            f"render ({len(sampled)} images)", render_times, limits=RENDER_TARGETS.get(key)
        ),
        f"  {'image size':<28} max {max(sizes) / 1024:6.1f} KB   "
        f"mean {sum(sizes) / len(sizes) / 1024:6.1f} KB",
    ]


def main() -> None:
    print(f"Machine: {machine_load()}; wall-clock figures include waits for a core")
    lines, chess_us = chess_yardstick()
    print("\n".join(lines))
    print()
    for key in GAMES:
        print("\n".join(bench_game(key, chess_us=chess_us)))
        print()
