"""The store's interface (``GameStore``, bot/storage/__init__.py) is whole: every public method
of the SQL store both backends share is declared in it, and the SQLite and PostgreSQL stores
each have every declared method, with the declared signature."""

from __future__ import annotations

import inspect

import pytest

from bot.storage import GameStore, Store
from bot.storage.postgres import PostgresStore
from bot.storage.sql import SqlStore


def public_coroutines(cls: type) -> set[str]:
    return {
        name
        for name in dir(cls)
        if not name.startswith("_") and inspect.iscoroutinefunction(getattr(cls, name))
    }


def test_every_shared_method_of_the_stores_is_declared() -> None:
    assert public_coroutines(SqlStore) - public_coroutines(GameStore) == set()


@pytest.mark.parametrize("store_class", [Store, PostgresStore])
def test_each_store_has_every_declared_method_as_declared(store_class: type) -> None:
    declared = public_coroutines(GameStore)
    assert declared <= public_coroutines(store_class)
    for name in sorted(declared):
        expected = inspect.signature(getattr(GameStore, name))
        assert inspect.signature(getattr(store_class, name)) == expected, name
