"""A real PostgreSQL 16 for the tests: pgserver's wheel, started once per session.

The server's data lives in a temporary folder (in memory where the machine has /dev/shm) and
the server stops at the end of the run.
Each test gets a fresh database, copied from a template that is already migrated
(``CREATE DATABASE ... TEMPLATE``: a few milliseconds, not a new server nor a new schema).
If the server cannot start, the tests that need it fail with the reason: never a skip.

As root, pgserver runs PostgreSQL as a system user ``pgserver`` (which it creates with
``useradd``) and opens the folders on the way to the data and to its binaries for reading.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.storage.postgres import PostgresStore

TEMPLATE = "idzeva_template"
# Where the data goes when the machine has it: a folder in memory. Each test's database is a
# copy of the template (hundreds of files) deleted after the test, and on a disk mounted with
# `discard` every deletion waits for the disk (about a third of a millisecond a file).
MEMORY = "/dev/shm"


@dataclass
class PgServer:
    server: object  # pgserver.PostgresServer
    folder: Path
    _numbers: itertools.count

    def url(self, database: str = "postgres") -> str:
        return self.server.get_uri(database)  # type: ignore[attr-defined]

    async def new_database(self, template: str | None = TEMPLATE) -> str:
        """A fresh database (migrated when copied from the template); its URL."""
        name = f"test_{os.getpid()}_{next(self._numbers)}"
        db = await asyncpg.connect(self.url())
        try:
            if template:
                await db.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
            else:
                await db.execute(f"CREATE DATABASE {name}")
        finally:
            await db.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[-1].split("?", 1)[0]
        db = await asyncpg.connect(self.url())
        try:
            await db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await db.close()

    def stop(self) -> None:
        """Stop at once and remove the data: no shutdown checkpoint writing the run's pages out
        to a folder about to be deleted (7-16 s at the end of a run on a busy disk)."""
        server = self.server
        try:
            from pgserver import pg_ctl  # type: ignore[attr-defined]

            stop_now = ["-w", "-m", "immediate", "stop"]
            pg_ctl(stop_now, pgdata=server.pgdata, user=server.system_user)  # type: ignore[attr-defined]
            server.cleanup_mode = None  # type: ignore[attr-defined]  # stopped: only let go of it
        finally:
            try:
                server.cleanup()  # type: ignore[attr-defined]
            finally:
                shutil.rmtree(self.folder, ignore_errors=True)


def start() -> PgServer:
    """Start PostgreSQL in a new temporary folder and make the migrated template; raise with
    the reason when that is impossible.

    The folder is made here, not by pytest: as root, the server runs as another user, who
    must be able to reach it (pytest's own folders are private to their owner)."""
    folder = Path(
        tempfile.mkdtemp(prefix="idzeva-pg-", dir=MEMORY if os.path.isdir(MEMORY) else None)
    )
    folder.chmod(0o755)
    # pgserver's lock file, written again at exit: one lasting folder private to this user
    # (where pgserver would fall back to), not the run's folder, which is removed.
    runtime = Path(tempfile.gettempdir()) / f"idzeva-pgserver-{os.getuid()}"
    runtime.mkdir(mode=0o700, exist_ok=True)
    os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
    try:
        import pgserver

        server = pgserver.get_server(folder / "pgdata", cleanup_mode="stop")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    pg = PgServer(server, folder, itertools.count(1))
    try:
        asyncio.run(_make_template(pg))
    except BaseException:
        pg.stop()
        raise
    return pg


# Throw-away data: no waiting for the disk (the shutdown checkpoint alone took seconds).
# The tests check transactions and locks, not what survives a power cut.
FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


async def _make_template(pg: PgServer) -> None:
    db = await asyncpg.connect(pg.url())
    try:
        for name, value in FAST_SETTINGS.items():
            await db.execute(f"ALTER SYSTEM SET {name} = {value}")
        await db.execute("SELECT pg_reload_conf()")
        await db.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        await db.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await db.close()
    store = await PostgresStore.open(pg.url(TEMPLATE))
    await store.close()
