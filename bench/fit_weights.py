"""Fit the weights of a dice game's evaluation by self-play (issue 35): the bot plays itself,
every position where a roll is due (a turn just ended: where the ``turn`` policies judge
their turns) is kept with its features (``search.evaluate.WEIGHTED``) and the game's final
result for seat 0's team, and a logistic regression of the results on the features gives
the weights, saved as ``search/weights/<game>.json`` (``search/learnt.py`` loads them).

    python -m bench.fit_weights --game sachidjun --games 1000 --jobs 2

``--samples FILE`` also appends each game played (its positions' features and its result)
as a JSON line, and ``--from FILE`` fits from such lines instead of playing (a long run's
games survive its being stopped, and several runs' games can be pooled).

The regression has no intercept: every feature changes sign when the sides swap, and so
must the evaluation. Each game counts as one observation (its positions share one result:
each weighs 1 / its positions), and a ridge (``RIDGE``) pulls the weights towards the
hand-set ones, so that few games move them little. The fit is a few Newton steps. The last
``--holdout`` of the games is kept apart to compare the log loss of the fitted weights with
the hand-set ones on games neither saw.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import UTC, datetime

import numpy as np

from games import new_game
from search import learnt
from search.arena import MAX_PLIES, chooser, points_share
from search.evaluate import WEIGHTED, features

RIDGE = 2.0  # the penalty on the squared distance from the hand-set weights (in games)
NEWTON_STEPS = 25

Sample = tuple[list[tuple[float, ...]], float]  # one game: its positions' features, result


def self_play(
    key: str,
    player: str,
    seats: int,
    seed: int,
    iterations: int | None = None,
    max_plies: int = MAX_PLIES,
) -> Sample:
    """One game of ``player`` against itself (dice and searches seeded by ``seed``; each
    search of ``iterations`` where given, else the level's size): the features of every
    position where a roll is due, and seat 0's team's share of the points at the end (a
    game still running at ``max_plies`` is a draw, as the arena scores one at its limit)."""
    game = new_game(key, seats=seats)
    dice = random.Random(seed)
    movers = [chooser(player, seed * 31 + s + 1, iterations) for s in range(game.seats)]
    positions = []
    while not game.is_over and game.ply < max_plies:
        spec = game.dice_needed()
        if spec is not None:
            positions.append(features(game))
            game.roll([dice.randint(1, spec.sides) for _ in range(spec.count)])
            continue
        seat = game.to_move
        assert seat is not None
        for move in movers[seat](game):
            game.push(move)
    if not game.is_over:
        game.agree_draw()
    return positions, points_share(game, game.team_of(0))


def play(args: argparse.Namespace) -> list[Sample]:
    """The games ``args`` asks for, in the order of their seeds (each appended to
    ``args.samples`` as it ends, where given)."""
    seeds = [args.seed * 1_000_003 + index for index in range(args.games)]
    done: dict[int, Sample] = {}
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    play_one = (args.game, args.player, args.seats)
    size = (args.iterations, args.max_plies)
    if pool is None:
        results = ((s, self_play(*play_one, s, *size)) for s in seeds)
    else:
        futures = {pool.submit(self_play, *play_one, s, *size): s for s in seeds}
        results = ((futures[f], f.result()) for f in as_completed(futures))
    for seed, sample in results:
        done[seed] = sample
        if args.samples:
            with open(args.samples, "a", encoding="utf-8") as out:
                out.write(json.dumps({"seed": seed, "positions": sample[0], "result": sample[1]}))
                out.write("\n")
        print(f"  game {len(done)}/{len(seeds)}: {len(sample[0])} positions", file=sys.stderr)
    if pool is not None:
        pool.shutdown()
    return [done[seed] for seed in seeds]


def read_samples(path: str) -> list[Sample]:
    """The games of a ``--samples`` file in the order of their seeds (as ``play`` gives them:
    the same games fit the same whichever order they ended in)."""
    with open(path, encoding="utf-8") as lines:
        games = sorted(
            (json.loads(line) for line in lines if line.strip()), key=lambda g: g["seed"]
        )
    return [([tuple(p) for p in g["positions"]], g["result"]) for g in games]


def fit(
    x: np.ndarray,
    y: np.ndarray,
    ridge: float = RIDGE,
    prior: np.ndarray | None = None,
    weight: np.ndarray | None = None,
) -> np.ndarray:
    """The weights w maximising sum(c (y log p + (1 - y) log(1 - p))) - ridge/2 |w - prior|^2,
    where p = 1 / (1 + exp(-x w)) and c each row's ``weight`` (1 by default; no intercept;
    ``y`` may be 1/2 for a draw; ``prior`` 0 by default)."""
    k = x.shape[1]
    prior = np.zeros(k) if prior is None else np.asarray(prior, dtype=float)
    c = np.ones(len(y)) if weight is None else weight

    def objective(w: np.ndarray) -> float:  # to minimise
        z = np.clip(x @ w, -30, 30)
        losses = np.logaddexp(0.0, z) - y * z  # -(y log p + (1 - y) log(1 - p))
        return float(c @ losses + ridge / 2 * np.sum((w - prior) ** 2))

    w = prior.copy()
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (c * (y - p)) - ridge * (w - prior)
        hessian = (x * (c * p * (1 - p))[:, None]).T @ x + ridge * np.eye(k)
        step = np.linalg.solve(hessian, gradient)
        # Halve the step until it helps: a full Newton step can overshoot where a few
        # positions have large values (the end of a race) and the results separate.
        before = objective(w)
        while objective(w + step) > before and np.max(np.abs(step)) > 1e-12:
            step /= 2
        w += step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def log_loss(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, weight: np.ndarray | None = None
) -> float:
    """The mean log loss of the predictions 1 / (1 + exp(-x w)) against ``y`` (each row
    counted by its ``weight`` where given)."""
    p = np.clip(1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30))), 1e-9, 1 - 1e-9)
    losses = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(np.average(losses, weights=weight))


def arrays(samples: list[Sample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions' features, the results and each position's weight: one game counts
    as one observation (its positions follow from each other and share its result), each
    of its positions 1 / (its positions)."""
    rows = [row for positions, _ in samples for row in positions]
    results = [result for positions, result in samples for _ in positions]
    weights = [1.0 / len(positions) for positions, _ in samples for _ in positions]
    x = np.array(rows, dtype=float).reshape(-1, len(rows[0]) if rows else 0)
    return x, np.array(results, dtype=float), np.array(weights)


def fitted_weights(key: str, samples: list[Sample], holdout: float) -> dict:
    """The weights file's contents: per feature its fitted weight, and how they fit (the
    log loss of the fitted and of the hand-set weights on the held-out games, each game
    counted once). The ridge pulls the weights towards the hand-set ones: with few games
    they stay near them."""
    names, _values, hand = WEIGHTED[key]
    samples = [sample for sample in samples if sample[0]]
    kept = max(1, round(len(samples) * holdout)) if len(samples) > 1 and holdout > 0 else 0
    train, test = samples[: len(samples) - kept], samples[len(samples) - kept :]
    x, y, c = arrays(train)
    w = fit(x, y, prior=np.array(hand), weight=c)
    report: dict = {"games": len(train), "positions": len(y), "ridge": RIDGE}
    if test:
        tx, ty, tc = arrays(test)
        report |= {
            "held_out_games": len(test),
            "held_out_positions": len(ty),
            "log_loss_fitted": round(log_loss(tx, ty, w, tc), 4),
            "log_loss_hand": round(log_loss(tx, ty, np.array(hand), tc), 4),
        }
    return {
        "game": key,
        "weights": {name: round(float(v), 4) for name, v in zip(names, w, strict=True)},
        "hand": dict(zip(names, hand, strict=True)),
        "fitted": report,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fit_weights", description=__doc__)
    parser.add_argument("--game", required=True, choices=sorted(WEIGHTED))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--player", default="easy", help="the level playing itself")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--holdout", type=float, default=0.2, help="share of games held out")
    parser.add_argument("--iterations", type=int, help="each search's size (else the level's)")
    parser.add_argument(
        "--max-plies", type=int, default=MAX_PLIES, help="a game still running then is a draw"
    )
    parser.add_argument("--samples", help="append each game's positions and result to FILE")
    parser.add_argument("--from", dest="source", help="fit from a --samples FILE, no play")
    parser.add_argument("--played", help="with --from: how its games were played (kept)")
    parser.add_argument("--out", help="the weights file (default search/weights/<game>.json)")
    args = parser.parse_args(argv)
    started, started_at = time.perf_counter(), datetime.now(UTC)
    samples = read_samples(args.source) if args.source else play(args)
    data = fitted_weights(args.game, samples, args.holdout)
    data["fitted"] |= {
        "self_play": f"{args.player} against itself, {args.seats} seats, size "
        + (str(args.iterations) if args.iterations else "the level's"),
        "seed": None if args.source else args.seed,
        "date": f"{started_at:%Y-%m-%d}",
        "seconds": round(time.perf_counter() - started),
        "command": "python -m bench.fit_weights " + " ".join(argv or sys.argv[1:]),
    }
    if args.played:
        data["fitted"]["played"] = args.played
    out = args.out or str(learnt.path_for(args.game))
    with open(out, "w", encoding="utf-8") as file:
        file.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
