"""Whole move handling through the game service on a real SQLite file, and autocomplete.

A move here is everything the bot does for ``/shax move`` but talk to Discord: load the
game, validate, write state and move row in one transaction, prepare the next player's move
menu, render the new board (in a worker thread). Autocomplete goes through the cog's own
function with a stand-in interaction, so it measures the same code Discord calls on every
keystroke: once as it runs after a move (the menu is ready), once with the caches cleared.
In dice games the player to move rolls through the service first (``/chebache roll``), timed
on its own.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

from bot.config import Settings
from bot.domain.service import GameService
from bot.storage.sqlite import Store
from cogs.autocomplete import move_autocomplete
from games import DiceSpec

from .timing import summary_row

GUILD, CHANNEL, ALICE, BOB = 1, 2, 101, 102
TARGETS: dict[str, tuple[float, float]] = {  # p50 in ms: (whole move, autocomplete answer)
    "shax": (60, 20),
    "tchela": (60, 20),
    "chebache": (60, 20),
    "sachidjun": (60, 20),
    "jikaida": (40, 50),
}
TYPED = {  # keystrokes
    "shax": ["", "d", "x", "a1", "-"],
    "tchela": ["", "1", "open", "s"],
    "chebache": ["", "S", "2", "K(", "^"],
    "sachidjun": ["", "M", "W", "M-", "M-SW "],
    "jikaida": ["", "swod", "c3", "pallan", "mortil c", "Ka", "takes", "d2-"],
}
KINDS = ("shax", "tchela", "chebache", "sachidjun", "jikaida")
MOVES_PER_GAME = {"jikaida": 120}  # random Poron games run long: time their openings


def seeded_roller(rng: random.Random) -> Callable[[DiceSpec], tuple[int, ...]]:
    """Dice from the benchmark's own generator, so a run is repeatable."""

    def roll(spec: DiceSpec) -> tuple[int, ...]:
        return tuple(rng.randint(1, spec.sides) for _ in range(spec.count))

    return roll


def fake_interaction(service: GameService, user_id: int, game_id: int) -> SimpleNamespace:
    """The attributes ``cogs.autocomplete.move_autocomplete`` reads from a discord.Interaction:
    typed in the game's thread, without the ``game`` option (the bot finds the thread's game)."""
    return SimpleNamespace(
        client=SimpleNamespace(service=service),
        guild_id=GUILD,
        channel_id=thread_of(game_id),
        user=SimpleNamespace(id=user_id),
        namespace=SimpleNamespace(game=None),
    )


def thread_of(game_id: int) -> int:
    return 1_000_000 + game_id


async def start_game(service: GameService, kind: str) -> int:
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind=kind,
        challenger_id=ALICE,
        opponent_id=BOB,
        first="me",
    )
    board = await service.accept_challenge(challenge.challenge_id, BOB)
    await service.set_game_location(board.game_id, thread_id=thread_of(board.game_id), message_id=1)
    return board.game_id


async def bench_async(kind: str, games: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"move": [], "complete": [], "cold": [], "roll": []}
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.db"))
        service = GameService(
            store, settings=Settings(db_path=":unused:"), roller=seeded_roller(rng)
        )
        try:
            for _ in range(games):
                game_id = await start_game(service, kind)
                await play_one(service, game_id, rng, times)
        finally:
            await store.close()
    move_target, complete_target = TARGETS[kind]
    move_times = times["move"]
    lines = [
        f"{kind} through the service: {len(move_times)} moves in {games} games (SQLite file)",
        summary_row("whole move", move_times, limits={"p50": move_target}),
        summary_row("autocomplete answer", times["complete"], limits={"p50": complete_target}),
        summary_row("autocomplete, cold cache", times["cold"], "e.g. after a restart"),
    ]
    if times["roll"]:
        lines.append(summary_row("whole roll", times["roll"], f"{len(times['roll'])} rolls"))
    return lines


async def play_one(
    service: GameService,
    game_id: int,
    rng: random.Random,
    times: dict[str, list[float]],
) -> None:
    loop = asyncio.get_running_loop()
    board = await service.board(game_id, GUILD)
    limit = len(times["move"]) + MOVES_PER_GAME.get(board.kind, 10_000)
    while not board.finished and len(times["move"]) < limit:
        user = board.to_move_user
        assert user is not None
        if board.dice_needed:  # rolled by the server, stored before any move
            started = loop.time()
            board = await service.roll(game_id, user, guild_id=GUILD)
            times["roll"].append((loop.time() - started) * 1000)
            continue
        typed = rng.choice(TYPED[board.kind])
        interaction = fake_interaction(service, user, game_id)
        started = loop.time()
        await move_autocomplete(interaction, typed, board.kind)
        times["complete"].append((loop.time() - started) * 1000)
        service.clear_caches()
        started = loop.time()
        await move_autocomplete(interaction, typed, board.kind)
        times["cold"].append((loop.time() - started) * 1000)
        move = rng.choice(await service.legal_moves(game_id, GUILD))
        started = loop.time()
        board = await service.move(game_id, user, move, guild_id=GUILD)
        times["move"].append((loop.time() - started) * 1000)


def bench_service(kind: str = "shax", games: int = 3, seed: int = 5) -> list[str]:
    return asyncio.run(bench_async(kind, games, seed))


def main() -> None:
    for kind in KINDS:
        print("\n".join(bench_service(kind)))
        print()
