"""Engine work and rendering in worker processes: a dice game played through a real pool
(the dice still rolled by the service's seeded roller), errors that cross the process
boundary intact, the pool's life, and a Jikaida move that does not generate the moves of a
position whose menu the service already holds."""

from __future__ import annotations

import json
import logging
import multiprocessing.forkserver
import os
import signal
import subprocess
import sys

import pytest

from bot.config import Settings
from bot.domain import engine_jobs
from bot.domain.service import GameService, IllegalMoveError, NotAllowed
from bot.runtime.workers import Workers, echo
from games import DiceSpec, Jikaida

from .conftest import ALICE, BOB, GUILD, start_game

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def pool():
    workers = Workers(1, preload=engine_jobs.PRELOAD)
    yield workers
    await workers.close()


@pytest.fixture
def pooled(store, clock, roller, pool) -> GameService:
    """The service as the bot builds it: a process pool, the real renderer."""
    return GameService(store, settings=Settings(), clock=clock, roller=roller, workers=pool)


async def test_a_dice_game_through_worker_processes(pooled, roller, pool):
    board = await start_game(pooled, kind="chebache")
    assert pool.pids(), "the pool starts with the first job"
    assert board.image.startswith(PNG) and board.dice_needed == "2d6"
    with pytest.raises(NotAllowed, match="turn"):
        await pooled.roll(board.game_id, BOB, guild_id=GUILD)
    assert roller.calls == []  # refused before any dice were rolled

    roller.queued.append((3, 2))
    board = await pooled.roll(board.game_id, ALICE, guild_id=GUILD)
    assert roller.calls == [DiceSpec(2, 6)]  # rolled here, once
    assert board.note == "White rolled 3 2" and board.last_action == "[3 2]"
    assert board.legal_count == 4 and board.image.startswith(PNG)

    with pytest.raises(IllegalMoveError) as raised:
        await pooled.move(board.game_id, ALICE, "S/6", guild_id=GUILD)
    assert raised.value.legal == tuple(await pooled.legal_moves(board.game_id, GUILD))
    assert len(raised.value.legal) == 4  # the list crossed the process boundary

    await pooled.move(board.game_id, ALICE, "S/3 S/2", guild_id=GUILD)
    board = await pooled.move(board.game_id, ALICE, "2^4", guild_id=GUILD)
    assert board.to_move_user == BOB and board.dice_needed == "2d6"
    assert await pooled.history(board.game_id, GUILD) == ["1W: [3 2]; S/3, S/2; 2^4"]


async def test_closing_stops_the_workers_and_a_later_job_starts_new_ones(pool):
    assert pool.pids() == []  # spawned lazily
    assert await pool.run(echo, "ping") == "ping"
    (first,) = pool.pids()
    await pool.close()
    assert pool.pids() == []
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)
    assert await pool.run(echo, 7) == 7


async def test_a_killed_worker_is_replaced(pool):
    await pool.run(echo, None)
    (worker,) = pool.pids()
    os.kill(worker, signal.SIGKILL)
    assert await pool.run(echo, "again") == "again"  # the job is pure: run on a new pool
    assert pool.pids() != [worker]


def test_workers_default_to_one_per_core():
    assert Workers().processes == max(1, os.cpu_count() or 1)
    assert Workers(0).processes == 0
    with pytest.raises(ValueError):
        Workers(-1)


def test_the_pool_knows_no_jobs_and_the_service_names_what_its_workers_preload():
    assert Workers(1).preload == ("games", "render")
    assert engine_jobs.PRELOAD == ("games", "render", "bot.domain.engine_jobs")
    assert Workers(1, preload=engine_jobs.PRELOAD).preload == engine_jobs.PRELOAD


async def test_the_fork_server_is_told_what_to_preload(monkeypatch):
    asked: list[list[str]] = []
    monkeypatch.setattr(multiprocessing.forkserver, "set_forkserver_preload", asked.append)
    workers = Workers(1, preload=engine_jobs.PRELOAD)
    try:
        assert await workers.run(echo, "up") == "up"
    finally:
        await workers.close()
    assert asked == [["games", "render", "bot.domain.engine_jobs"]]


async def test_a_failed_render_is_logged_here_with_the_workers_traceback(
    store, clock, roller, caplog
):
    def broken(game) -> bytes:
        raise RuntimeError("no ink")

    service = GameService(store, settings=Settings(), clock=clock, roller=roller, renderer=broken)
    with caplog.at_level(logging.ERROR, logger="bot.domain.service"):
        board = await start_game(service)
    assert board.image == b"" and board.status == "White to place (12 in hand)"
    (record,) = caplog.records
    assert record.getMessage() == "rendering shax failed"
    assert "RuntimeError: no ink" in caplog.text


async def test_a_jikaida_move_does_not_generate_the_known_menu_again(service, monkeypatch):
    generated: list[str] = []
    original = Jikaida._legal

    def spy(self):
        generated.append(json.dumps(self._state(), sort_keys=True))
        return original(self)

    monkeypatch.setattr(Jikaida, "_legal", spy)
    board = await start_game(service, kind="jikaida")
    start = json.dumps(Jikaida()._state(), sort_keys=True)
    assert generated == [start]  # once, for the board and its menu
    move = (await service.legal_moves(board.game_id, GUILD))[0]
    generated.clear()
    await service.move(board.game_id, ALICE, move, guild_id=GUILD)
    assert generated and start not in generated  # only positions after the move

    generated.clear()  # after a restart nothing is known: the stored position is checked
    service.clear_caches()
    board = await service.board(board.game_id, GUILD)
    assert generated[0] != start and len(set(generated)) == 1


def test_a_worker_imports_its_preload_not_the_main_module_that_started_it(tmp_path):
    # A bot started from a script that imports discord.py (as `idzeva run` imports the
    # CLI): its workers hold the preload and their jobs' modules, not the script's imports.
    script = tmp_path / "main_with_discord.py"
    script.write_text(
        "import asyncio, json\n"
        "import discord\n"
        "from bot.runtime.workers import Workers, imported\n"
        "async def main():\n"
        "    workers = Workers(1, preload=('games',))\n"
        "    try:\n"
        "        print(json.dumps(await workers.run(imported)))\n"
        "    finally:\n"
        "        await workers.close()\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], check=True, capture_output=True, text=True, timeout=60
    )
    in_worker = set(json.loads(done.stdout.splitlines()[-1]))
    assert {"games", "bot.runtime.workers"} <= in_worker
    assert "discord" not in in_worker
    assert "render" not in in_worker  # not preloaded here, nor needed by the job
