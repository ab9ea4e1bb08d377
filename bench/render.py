"""Rendering: time per picture per game, picture sizes, and memory with many games.

``python -m bench.render`` (also part of ``python -m bench``). ``--memory-games`` and
``--memory-actions`` shrink the memory run for a quick look.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

from games import GAMES, Game, new_game
from render import RENDERERS, render_png
from render.cache import CACHES, MIB, cache_bytes

from .timing import percentile, random_positions

RENDER_P50_MS = 10.0  # issue 12: every game, quiet machine
RSS_MIB = 150.0  # issue 12: 1,000 active games, each with a board
FLAT_MIB = 5.0  # growth allowed over the actions after them to call RSS flat (0.5 KiB each)


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSES TARGET"


def render_rows(key: str, games: int = 20, renders: int = 60) -> list[str]:
    positions = random_positions(key, games)
    step = max(1, len(positions) // renders)
    sampled = positions[::step][:renders]
    for game in sampled[:3]:
        render_png(game)  # warm: empty board, fonts, sprites
    wall, cpu, sizes = [], [], []
    for game in sampled:
        start_wall, start_cpu = time.perf_counter(), time.thread_time()
        sizes.append(len(render_png(game)))
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
    p50, p99 = percentile(wall, 0.5), percentile(wall, 0.99)
    return [
        f"  {GAMES[key].title:<14} render ({len(sampled)} images)  p50 {p50:6.2f} ms   "
        f"p99 {p99:6.2f} ms   cpu p50 {percentile(cpu, 0.5):6.2f} ms   "
        f"size mean {sum(sizes) / len(sizes) / 1024:5.1f} KB max {max(sizes) / 1024:5.1f} KB   "
        f"target p50 <= {RENDER_P50_MS:g} ms: {mark(p50 <= RENDER_P50_MS)}"
    ]


def act(game: Game, rng: random.Random) -> None:
    """One action of a random game: a roll when dice are due, else a random legal move."""
    spec = game.dice_needed()
    if spec is not None:
        game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
    else:
        game.push(rng.choice(game.legal_moves()))


SAMPLE_EVERY = 50  # actions between two readings of RSS in the memory run


def _act_and_draw(live: list[Game], rng: random.Random, done: int) -> float:
    """One action of a random game of ``live`` (a new game for one that ended) and its
    board; RSS every ``SAMPLE_EVERY`` actions (0 between), for the peak."""
    index = rng.randrange(len(live))
    game = live[index]
    if game.is_over:
        game = live[index] = new_game(game.key)
    act(game, rng)
    render_png(game)
    return rss_mib() if done % SAMPLE_EVERY == 0 else 0.0


def memory_rows(active: int = 1000, actions: int = 10_000, seed: int = 12) -> list[str]:
    """``active`` games of every kind, each a few random moves in with its board rendered;
    then ``actions`` further actions of random games, each followed by its new board, and
    as many again to see that RSS stays flat after them."""
    rng = random.Random(seed)
    rows = [f"  RSS after imports                  {rss_mib():7.1f} MiB"]
    keys = [key for key in GAMES if key in RENDERERS]
    live: list[Game] = []
    for i in range(active):
        game = new_game(keys[i % len(keys)])
        for _ in range(rng.randint(1, 40)):
            if game.is_over:
                break
            act(game, rng)
        render_png(game)
        live.append(game)
    after_active = rss_mib()
    rows.append(
        f"  RSS, {active} games each rendered     {after_active:7.1f} MiB   "
        f"caches {cache_bytes() / MIB:5.1f} MiB   target <= {RSS_MIB:g} MiB: "
        f"{mark(after_active <= RSS_MIB)}"
    )
    peak = after_active
    checkpoints = {actions * k // 5 for k in range(1, 6)}
    for done in range(1, actions + 1):
        peak = max(peak, _act_and_draw(live, rng, done))
        if done in checkpoints:
            rows.append(f"  RSS after {done:>6} more actions      {rss_mib():7.1f} MiB")
    rows.append(f"  growth over {actions} actions (peak) {peak - after_active:7.1f} MiB")
    # Flat after them: the caches fill to their bounds and the C heap to the pictures'
    # working set over the first thousands of actions (a step of about 10 MiB when a kind
    # of board is drawn the first time, a finished Chebache near 9,000 here); then as
    # many actions again may add only the games' own moves (the bench keeps 1,000 games
    # in memory: about 0.35 KiB an action, which the service, loading a game per action,
    # does not keep).
    settled, later_peak = rss_mib(), 0.0
    for done in range(actions + 1, 2 * actions + 1):
        later_peak = max(later_peak, _act_and_draw(live, rng, done))
    later = later_peak - settled
    rows.append(
        f"  growth over the next {actions} (peak)    {later:7.1f} MiB   "
        f"flat (<= {FLAT_MIB:g} MiB): {mark(later <= FLAT_MIB)}"
    )
    for cache in CACHES:
        rows.append(
            f"  cache {cache.name:<14} {len(cache):6} entries {cache.bytes / MIB:6.1f} MiB"
            f" of {cache.max_bytes / MIB:g} MiB   hits {cache.hits} misses {cache.misses}"
        )
    return rows


def main(active: int = 1000, actions: int = 10_000) -> None:
    print("Rendering (positions from 20 seeded random games per game)")
    for key in GAMES:
        if key in RENDERERS:
            print("\n".join(render_rows(key)))
    print()
    print(
        f"Memory: {active} active games, then {actions} further actions, each with its board,"
        f" then {actions} more"
    )
    sys.stdout.flush()
    # In a fresh process, so that RSS counts only the games and the renderers.
    command = [sys.executable, "-m", "bench.render", "--memory-only"]
    command += ["--memory-games", str(active), "--memory-actions", str(actions)]
    subprocess.run(command, check=True)
    print()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memory-games", type=int, default=1000)
    parser.add_argument("--memory-actions", type=int, default=10_000)
    parser.add_argument("--memory-only", action="store_true")
    arguments = parser.parse_args()
    if arguments.memory_only:
        print("\n".join(memory_rows(arguments.memory_games, arguments.memory_actions)))
    else:
        main(arguments.memory_games, arguments.memory_actions)
