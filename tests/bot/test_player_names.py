"""Players' names per server (issue 37): kept in the store, tidied, and named in records."""

from __future__ import annotations

import json

from bot.domain.names import PlayerNames, tidy_name
from bot.storage.rows import NAME_LIMIT

from .conftest import ALICE, BOB, CAROL, GUILD, OTHER_GUILD, START, start_game


async def test_a_name_is_kept_then_refreshed_only_when_it_changes(store):
    assert await store.put_player_name(GUILD, ALICE, "Alice", START) is True
    assert await store.put_player_name(GUILD, ALICE, "Alice", START + 1) is False
    assert await store.player_names(GUILD, [ALICE]) == {ALICE: "Alice"}
    assert await store.put_player_name(GUILD, ALICE, "Ally", START + 2) is True
    assert await store.player_names(GUILD, [ALICE, BOB]) == {ALICE: "Ally"}


async def test_names_are_per_server(store):
    await store.put_player_name(GUILD, ALICE, "Alice", START)
    await store.put_player_name(OTHER_GUILD, ALICE, "Queen of Shax", START)
    await store.put_player_name(OTHER_GUILD, BOB, "Bob", START)
    assert await store.player_names(GUILD, [ALICE, BOB]) == {ALICE: "Alice"}
    assert await store.player_names(OTHER_GUILD, [ALICE, BOB, ALICE]) == {
        ALICE: "Queen of Shax",
        BOB: "Bob",
    }
    assert await store.player_names(GUILD, []) == {}


async def test_the_store_keeps_at_most_32_characters(store):
    assert NAME_LIMIT == 32
    await store.put_player_name(GUILD, CAROL, "c" * 200, START)
    assert await store.player_names(GUILD, [CAROL]) == {CAROL: "c" * 32}
    # The same long name again is no change.
    assert await store.put_player_name(GUILD, CAROL, "c" * 200, START) is False


def test_a_name_is_tidied_to_one_line_without_direction_marks():
    assert tidy_name("  Alice \n\n the  Great ") == "Alice the Great"
    assert tidy_name("\u202eevil\u200f\u2066") == "evil"
    assert tidy_name("**bold** @everyone") == "**bold** @everyone"  # escaped where shown
    assert tidy_name("x" * 40 + " y") == "x" * 32
    assert tidy_name("\u200f \t") is None


async def test_an_unchanged_name_does_not_reach_the_store_again(store, clock):
    names = PlayerNames(store, clock)
    await names.remember(GUILD, ALICE, "Alice")
    await store.put_player_name(GUILD, ALICE, "Changed elsewhere", START)
    await names.remember(GUILD, ALICE, "Alice")  # as this process last kept it: no write
    assert await names.of(GUILD, [ALICE]) == {ALICE: "Changed elsewhere"}
    await names.remember(GUILD, ALICE, "Ally")
    assert await names.of(GUILD, [ALICE]) == {ALICE: "Ally"}


async def test_an_export_after_challenge_and_accept_names_both_players(service):
    await service.remember_name(GUILD, ALICE, "Alice")  # the challenge
    await service.remember_name(GUILD, BOB, "Bob \u202e")  # the accept
    board = await start_game(service)
    data, moves = await service.record_files(board.game_id, GUILD)
    players = json.loads(data)["players"]
    assert [(p["id"], p["name"]) for p in players] == [(ALICE, "Alice"), (BOB, "Bob")]
    assert '[White "Alice"]' in moves and '[Black "Bob"]' in moves
    # A name known now (the asker's) wins over the kept one.
    data, moves = await service.record_files(board.game_id, GUILD, {BOB: "Robert"})
    assert [p["name"] for p in json.loads(data)["players"]] == ["Alice", "Robert"]
    await service.remember_name(OTHER_GUILD, ALICE, "Elsewhere")
    assert await service.player_names(GUILD, [ALICE, CAROL]) == {ALICE: "Alice"}
