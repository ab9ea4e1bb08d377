"""Both storage backends for the store, service and SimCord suites.

A test that uses ``store_url`` (through ``store``, ``service`` or the SimCord bot) runs
twice: on an SQLite file and on a fresh PostgreSQL database (``tests/pg.py``: one server
per session). A test that also asks for ``db_path`` reads or writes the SQLite file
directly, and runs on SQLite only (as does one marked ``sqlite_only``).
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from tests import pg

BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = "db_path" in metafunc.fixturenames or bool(
            metafunc.definition.get_closest_marker("sqlite_only")
        )
        if metafunc.definition.get_closest_marker("postgres_only"):
            metafunc.parametrize("backend", BACKENDS[1:])
            return
        metafunc.parametrize("backend", BACKENDS[:1] if sqlite_only else BACKENDS)


def in_thread(function, *args):
    """Run ``function(*args)`` (a coroutine function) to the end in a thread of its own: sync
    fixtures run beside the tests' event loop, which must not be touched."""
    result: list = []

    def run() -> None:
        try:
            result.append(("ok", asyncio.run(function(*args))))
        except BaseException as error:  # handed to the caller
            result.append(("error", error))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    [(outcome, value)] = result
    if outcome == "error":
        raise value
    return value


@pytest.fixture(scope="session")
def pg_server():
    """PostgreSQL 16 (pgserver) in a temporary folder, for the whole run; stopped at the end."""
    try:
        server = pg.start()
    except Exception as error:
        pytest.fail(f"PostgreSQL (pgserver) could not start: {error!r}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def store_url(backend, tmp_path, request):
    """What IDZEVA_DB would say: the SQLite file, or a fresh migrated PostgreSQL database."""
    if backend == "sqlite":
        yield str(tmp_path / "idzeva.db")
        return
    server = request.getfixturevalue("pg_server")
    url = in_thread(server.new_database)
    yield url
    in_thread(server.drop_database, url)
