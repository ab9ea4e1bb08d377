"""The bot opponent as players meet it: from a human's move to the bot's board, per level.

A game against the bot through the service on a real SQLite file, with the bot's process
pools (the service's, one per core; the bot's searches, a pool of their own) and the real
renderer: the human plays random legal moves (rolling first in dice games), and after each
the bot acts as it does on Discord (``Opponent.step``: its roll, its search, its move through
the service, its board rendered). Timed:

- the human's move (``service.move``): what a player waits for before their own board is
  posted, in a game against the bot and in the same moves' game between two people (the bot
  replies after the board is posted, in its own task, so the two should agree);
- the bot's reply: from the human's move being stored to the bot's board ready to post.

``python -m bench.opponent [--levels easy,normal,hard] [--moves N] [--only GAME]``
(``make bench-opponent``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bot.app import search_processes
from bot.config import Settings
from bot.domain import engine_jobs
from bot.domain.opponent import Opponent
from bot.domain.service import BoardView, GameService
from bot.runtime.workers import Workers
from bot.storage.sqlite import Store
from games import Game, new_game
from search import bot_turn
from search.arena import percentile

from .service import seeded_roller
from .timing import machine_load

GUILD, CHANNEL, ALICE, BOB, IDZEVA = 1, 2, 101, 102, 999
SETUPS = {  # name: (kind, variants option of the challenge)
    "shax": ("shax", ()),
    "tchela": ("tchela", ()),
    "chebache": ("chebache", ()),
    "sachidjun": ("sachidjun", ()),
    "pastang": ("jikaida", ("pastang",)),
    "jikaida": ("jikaida", ()),
}


async def human_turn(
    service: GameService, board: BoardView, user: int, rng: random.Random
) -> tuple[BoardView, float]:
    """The human's roll (if due) and one move; the move's time in ms."""
    game_id = board.game_id
    while board.dice_needed and board.to_move_user == user:
        board = await service.roll(game_id, user, guild_id=GUILD)
    if board.finished or board.to_move_user != user:
        return board, 0.0
    move = rng.choice(await service.legal_moves(game_id, GUILD))
    started = time.perf_counter()
    board = await service.move(game_id, user, move, guild_id=GUILD)
    return board, (time.perf_counter() - started) * 1000


async def run(name: str, level: str, moves: int, seed: int) -> dict[str, list[float]]:
    kind, variants = SETUPS[name]
    times: dict[str, list[float]] = {"human": [], "bot": [], "people": []}
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.db"))
        pool = Workers(None, preload=engine_jobs.PRELOAD)
        searches = Workers(search_processes(None), preload=engine_jobs.PRELOAD)
        rng = random.Random(seed)
        service = GameService(
            store,
            settings=Settings(db_path=":unused:"),
            roller=seeded_roller(random.Random(seed)),
            workers=pool,
            bot_user_id=IDZEVA,
        )
        opponent = Opponent(service, IDZEVA, workers=searches)
        try:
            await service.legal_moves(*await start(service, kind, variants, BOB))  # warm pools
            await searches.run(bot_turn, Game.to_json(new_game("shax", ())), "easy", 0, 5)
            game_id, _ = await start(service, kind, variants, IDZEVA, level)
            board = await service.board(game_id, GUILD, with_image=False)
            while not board.finished and len(times["bot"]) < moves:
                board, spent = await human_turn(service, board, ALICE, rng)
                if spent:
                    times["human"].append(spent)
                if opponent.to_act(board):
                    started = time.perf_counter()
                    reply = await opponent.step(game_id, GUILD)
                    times["bot"].append((time.perf_counter() - started) * 1000)
                    assert reply is not None
                    board = reply
            # The same number of moves between two people, for the human's side.
            people, _ = await start(service, kind, variants, BOB)
            board = await service.board(people, GUILD, with_image=False)
            while not board.finished and len(times["people"]) < len(times["human"]):
                board, spent = await human_turn(service, board, board.to_move_user, rng)
                if spent:
                    times["people"].append(spent)
        finally:
            await opponent.close()
            await service.close()
            await store.close()
    return times


async def start(
    service: GameService, kind: str, variants: tuple[str, ...], opponent: int, level: str = ""
) -> tuple[int, int]:
    options = {"level": level} if opponent == IDZEVA else {}
    if kind == "jikaida":
        options["colour"] = "yellow"
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind=kind,
        challenger_id=ALICE,
        opponent_id=opponent,
        bots=[IDZEVA] if opponent == IDZEVA else [],
        first="me",
        variants=variants,
        options=options,
    )
    board = await service.accept_challenge(created.challenge_id, opponent)
    assert isinstance(board, BoardView)
    return board.game_id, GUILD


def row(label: str, samples: list[float]) -> str:
    if not samples:
        return f"  {label:<34} (none)"
    p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
    return (
        f"  {label:<34} n {len(samples):4d}   p50 {p50:8.1f} ms   p95 {p95:8.1f} ms"
        f"   max {max(samples):8.1f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--moves", type=int, default=20, help="bot replies per game and level")
    parser.add_argument("--only", action="append", choices=sorted(SETUPS))
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"The bot opponent: human move -> bot's board ({machine_load()})")
    for name in args.only or list(SETUPS):
        for level in args.levels.split(","):
            times = asyncio.run(run(name, level, args.moves, args.seed))
            print(f"{name}, level {level}")
            print(row("bot's reply (roll, search, move)", times["bot"]))
            print(row("human's move, against the bot", times["human"]))
            print(row("human's move, between people", times["people"]))


if __name__ == "__main__":
    main()
