"""Puzzles from a server's own finished games (issue 34: "positions mined from finished games,
the server's own"), shown by ``/game puzzle`` in that server beside the shipped sets.

- Every game that ends in a server is mined, in the order the games ended, with the miner
  of the shipped sets (``search.puzzles.puzzles_in``: each position where a turn begins,
  judged, confirmed by the ``hard`` search); at most ``PER_GAME`` puzzles from one game (the
  clearest: ``clearness``), kept in the store (``server_puzzles``) for that server
  only. A game is mined once; games that ended before the first run are left (no backlog
  at an upgrade).
- Off the event loop and out of the moves' way: the judging runs in the analysis workers
  (one process at low priority, ``bot/domain/analysis.py``), ``STEP`` log entries per job,
  so that an analysis asked for meanwhile waits one step at most. The bot runs the miner
  from its own loop (``bot/app.py``: ``IDZEVA_SERVER_PUZZLES``, on by default); one process
  at a time mines (a claim, ``bot/domain/jobs.py``), and the games mined are remembered
  (a cursor in ``bot_values``), so a restart goes on from the next game.
- A server puzzle's id is ``<set>:g<game>-<entry>`` (the log entry it stands before):
  ``shax:g12-30``. Answers are counted as the shipped puzzles' are.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable

from bot.domain.analysis import lower_priority_in_worker
from bot.domain.jobs import Outbox
from bot.runtime.workers import Workers
from bot.storage import GameStore
from bot.storage.rows import GameRow
from games import load_game
from search.puzzles import WINS, Puzzle, puzzles_in

log = logging.getLogger(__name__)

PER_GAME = 3  # puzzles kept from one game at most
STEP = 12  # log entries judged per worker job
BATCH = 20  # finished games read from the store at a time
MINER_KEY = "server-puzzles:miner"  # the claim: one process mines at a time
CURSOR_KEY = "server-puzzles:cursor"  # bot_values: [updated_at, id] of the last game mined
LAST_ID = 2**63 - 1  # above every game's id
CLAIM_SECONDS = 900.0  # renewed at every step (a step takes seconds, a minute at most)
SERVER_ID = re.compile(r"(?P<set>[a-z]+):g(?P<game>[0-9]{1,18})-(?P<entry>[0-9]{1,6})")


def server_puzzle_id(set_name: str, game_id: int, entry: int) -> str:
    return f"{set_name}:g{game_id}-{entry}"


def parse_server_id(puzzle_id: str) -> tuple[str, int, int] | None:
    """``(set, game, entry)`` of a server puzzle's id; None for any other text."""
    found = SERVER_ID.fullmatch(puzzle_id)
    if found is None:
        return None
    return found["set"], int(found["game"]), int(found["entry"])


def set_of_game(kind: str, variants: list[str] | tuple[str, ...]) -> str:
    """The set a game's puzzles belong to: Pastang apart from Poron Jikaida."""
    return "pastang" if kind == "jikaida" and "pastang" in variants else kind


# ---- the job for the worker pool ------------------------------------------------------


def mine_step(
    row: GameRow, first: int, stop: int, iterations: int | None
) -> list[tuple[int, dict, float]]:
    """The puzzles before the log entries ``first`` to ``stop`` of a finished game:
    ``(entry, puzzle as a dict, margin)``. In a worker process, at low priority (the analysis
    workers run nothing else); in a thread (tests, tools) the process is left alone."""
    lower_priority_in_worker()
    record = load_game(row.state)
    seed = row.id * 1009
    return [
        (entry, puzzle.to_dict(), puzzle.margin)
        for entry, puzzle in puzzles_in(record, seed, first, stop, iterations)
    ]


def clearness(found: tuple[int, dict, float]) -> tuple[bool, float, int]:
    """The order puzzles are kept from a game: a win first (its margin says little: the
    others may come close by the evaluation), then the largest margin, then the first."""
    entry, data, margin = found
    return data["kind"] != WINS, -margin, entry


def log_length(row: GameRow) -> int:
    return len(load_game(row.state).log)


# ---- the service's side ----------------------------------------------------------------


class ServerPuzzles:
    """The miner of the servers' finished games, over the store, clock, outbox and the
    analysis workers; ``iterations``: the confirming search's size (tests) instead of the
    ``hard`` level's."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        outbox: Outbox,
        workers: Workers,
        *,
        iterations: int | None = None,
    ):
        self._store = store
        self._clock = clock
        self._outbox = outbox
        self._workers = workers
        self._iterations = iterations

    async def mine(self) -> int:
        """Mine every game finished since the last one mined (none the first time: the
        cursor starts now); the puzzles kept. Nothing while another process mines."""
        if not await self._outbox.claim(MINER_KEY, CLAIM_SECONDS):
            return 0
        cursor = await self._cursor()
        kept = 0
        while rows := await self._store.finished_games(cursor, BATCH):
            for row in rows:
                try:
                    kept += await self._mine_game(row)
                except Exception:  # a damaged game is skipped, not mined again and again
                    log.exception("server puzzles: game %s could not be mined", row.id)
                cursor = (row.updated_at, row.id)
                await self._store.put_value(CURSOR_KEY, json.dumps(cursor), self._clock())
        return kept

    async def _cursor(self) -> tuple[float, int]:
        kept = await self._store.get_value(CURSOR_KEY)
        if kept is not None:
            updated_at, game_id = json.loads(kept)
            return float(updated_at), int(game_id)
        # The first run: the games that end from now on (any that ended at this very time
        # and before is left: ids are below the largest).
        cursor = (self._clock(), LAST_ID)
        await self._store.put_value(CURSOR_KEY, json.dumps(cursor), self._clock())
        return cursor

    async def _mine_game(self, row: GameRow) -> int:
        """The game's puzzles judged ``STEP`` entries at a time, the clearest kept."""
        total = await self._workers.run(log_length, row)
        found: list[tuple[int, dict, float]] = []
        for first in range(0, total, STEP):
            found += await self._workers.run(mine_step, row, first, first + STEP, self._iterations)
            await self._outbox.claim(MINER_KEY, CLAIM_SECONDS)  # still at it
        clearest = sorted(found, key=clearness)[:PER_GAME]
        set_name = set_of_game(row.kind, row.variants)
        kept = [(entry, set_name, json.dumps(data)) for entry, data, _margin in clearest]
        if not kept:
            return 0
        return await self._store.add_server_puzzles(row.guild_id, row.id, kept, self._clock())


def puzzle_from_json(text: str) -> Puzzle:
    return Puzzle.from_dict(json.loads(text))
