"""``idzeva run`` checks the database before connecting to Discord: one line, exit 1."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot import app
from bot.storage.sqlite import Store

from .test_store import damage


@pytest.fixture
def start(tmp_path, monkeypatch, capsys):
    """Run ``run_bot`` with a token and ``IDZEVA_DB``; Discord is never reached."""
    monkeypatch.chdir(tmp_path)  # no .env from the developer's folder
    monkeypatch.setenv("DISCORD_TOKEN", "token-for-tests")
    connected = []
    monkeypatch.setattr(app.IdzevaBot, "run", lambda bot, *a, **k: connected.append(bot))
    monkeypatch.setattr(app.discord.utils, "setup_logging", lambda **options: None)

    def run(db_path: str) -> tuple[int, str, list]:
        monkeypatch.setenv("IDZEVA_DB", db_path)
        code = app.run_bot()
        captured = capsys.readouterr()
        return code, captured.err, connected

    return run


def refused(outcome: tuple[int, str, list], line: str) -> None:
    code, err, connected = outcome
    assert (code, err, connected) == (1, f"Cannot start: {line}\n", [])


def test_a_missing_folder_stops_the_bot(start, tmp_path):
    path = str(tmp_path / "data" / "idzeva.db")
    refused(
        start(path),
        f"cannot open the database {path}: the folder {tmp_path / 'data'} does not exist",
    )


def test_a_file_that_is_not_sqlite_stops_the_bot(start, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n" * 20)
    refused(start(str(path)), f"{path} is not an SQLite database (IDZEVA_DB names it)")


async def test_a_read_only_database_stops_the_bot(start, tmp_path):
    path = str(tmp_path / "idzeva.db")
    async with await Store.open(path):
        pass
    os.chmod(path, 0o400)
    try:
        outcome = await run_in_thread(start, path)
    finally:
        os.chmod(path, 0o600)
    refused(outcome, f"the database {path} is read-only: the bot must be able to write it")


async def test_a_damaged_database_stops_the_bot(start, tmp_path):
    path = str(tmp_path / "idzeva.db")
    await damage(path)
    code, err, connected = await run_in_thread(start, path)
    assert (code, connected) == (1, [])
    assert err.startswith(f"Cannot start: the database {path} is damaged (quick_check: ")
    assert err.endswith("): restore it from a backup\n") and err.count("\n") == 1


def test_a_sound_database_is_created_and_the_bot_connects(start, tmp_path):
    path = tmp_path / "idzeva.db"
    code, err, connected = start(str(path))
    assert (code, err, len(connected)) == (0, "", 1)
    assert path.exists()


async def run_in_thread(start, path):
    """``run_bot`` runs its own event loop: call it outside the test's."""
    return await asyncio.to_thread(start, path)
