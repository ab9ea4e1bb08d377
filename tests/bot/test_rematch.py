"""Rematches and open challenges through the service and the store (bot/domain/challenges.py).

Every expected seating below is worked out by hand from the rule "sides swapped": each
player takes the other's seat in a two-seat game (whatever else the game had stays, so the
same seat starts); in Šačidjun veradi and tameg swap, each pair keeping its raža and čadra.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.domain import bot_seats
from bot.domain.service import (
    BoardView,
    ChallengeView,
    GameService,
    NotAllowed,
    NotFound,
    ServiceError,
)
from bot.storage.migrations import POSTGRES as PG_MIGRATIONS
from bot.storage.migrations import SQLITE as MIGRATIONS
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import Store
from tests.fakes import QueuedRoller

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAY,
    GUILD,
    HOUR,
    OTHER_GUILD,
    START,
    fake_renderer,
    in_thread,
    raw_sql,
)
from .test_opponent import IDZEVA

DAVE = 1_234_567_890_123_456_784


@pytest.fixture
def dice(roller) -> QueuedRoller:
    return roller


async def finished_game(
    service: GameService, clock, *, kind: str = "shax", challenger: int = ALICE, **fields
) -> BoardView:
    """A game started by ``challenger`` against BOB (or the partners given), accepted by
    everyone invited, then resigned by BOB an hour later."""
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind=kind,
        challenger_id=challenger,
        **({"opponent_id": BOB} | fields),
    )
    board: BoardView | ChallengeView = created
    for user in created.invited:
        board = await service.accept_challenge(created.challenge_id, user)
    assert isinstance(board, BoardView)
    clock.advance(HOUR)
    return await service.resign(board.game_id, BOB, guild_id=GUILD)


async def accept_all(service: GameService, view: ChallengeView) -> BoardView:
    board: BoardView | ChallengeView = view
    for user in view.invited:
        board = await service.accept_challenge(view.challenge_id, user)
    assert isinstance(board, BoardView)
    return board


async def game_options(store, game_id: int) -> dict:
    row = await store.get_game(game_id)
    return row.options


# ---- rematch: sides swapped, the rest kept --------------------------------------------


async def test_a_shax_rematch_swaps_the_seats_and_keeps_variant_and_options(service, store, clock):
    chosen = {"rated": False, "time": 3600}
    old = await finished_game(service, clock, first="me", variants=["two-removals"], options=chosen)
    options = chosen | {"grace": 86400}  # the server's time-out grace comes along
    assert old.players == (ALICE, BOB) and old.finished  # Alice was White
    asked = await service.rematch(old.game_id, BOB, guild_id=GUILD)  # the loser asks
    assert (asked.challenger_id, asked.opponent_id, asked.invited) == (BOB, ALICE, (ALICE,))
    assert asked.kind == "shax" and asked.variants == ("two-removals",)
    assert dict(asked.options) == options
    assert asked.seats == (BOB, ALICE) and asked.seat_names == ("White", "Black")
    assert asked.rematch_of == old.game_id and asked.status == "pending"
    assert asked.expires_at == clock.now + DAY and not asked.draws_sides

    board = await service.accept_challenge(asked.challenge_id, ALICE)
    assert isinstance(board, BoardView)
    assert board.players == (BOB, ALICE) and board.to_move_user == BOB  # Bob is White now
    assert dict(board.fields)["Variants"] == "two-removals"
    assert dict(board.fields)["Sides"] == (
        f"Rematch of game #{old.game_id}, sides swapped: <@{BOB}> White, <@{ALICE}> Black"
    )
    assert await game_options(store, board.game_id) == options
    # The rematch of the rematch swaps back.
    clock.advance(HOUR)
    await service.resign(board.game_id, ALICE, guild_id=GUILD)
    again = await service.rematch(board.game_id, ALICE, guild_id=GUILD)
    assert again.seats == (ALICE, BOB) and again.opponent_id == BOB


async def test_a_jikaida_rematch_swaps_colours_and_who_starts(service, store, clock):
    # Alice chose Blue and to move first: Bob Yellow, Alice Blue, and Blue starts.
    old = await finished_game(
        service, clock, kind="jikaida", first="me", options={"colour": "blue"}
    )
    assert old.players == (BOB, ALICE)
    asked = await service.rematch(old.game_id, ALICE, guild_id=GUILD)
    assert asked.seats == (ALICE, BOB) and asked.variants == ("blue-first",)
    clock_options = {"time": 3 * 86400, "grace": 86400}  # the default clock comes along
    assert dict(asked.options) == {"colour": "yellow", **clock_options}  # what Alice plays
    board = await accept_all(service, asked)
    assert board.players == (ALICE, BOB)  # Alice Yellow, Bob Blue ...
    assert board.to_move_user == BOB  # ... and Blue starts again: Bob this time
    assert await game_options(store, board.game_id) == {"colour": "yellow", **clock_options}


async def test_a_sachidjun_rematch_swaps_the_sides_and_keeps_the_pairs(service, dice, clock):
    # From test_teams: Bob alone is veradi, Alice and Carol tameg (Carol raža).
    dice.queued += [(1, 2), (5, 6)]
    old = await finished_game(service, clock, kind="sachi", partner_id=CAROL)
    assert old.players == (BOB, CAROL, ALICE)
    assert old.seat_names == ("Veradi", "Tameg raža", "Tameg čadra")
    asked = await service.rematch(old.game_id, CAROL, guild_id=GUILD)
    # Carol asks: her partner is Alice, the other side Bob. Carol and Alice are veradi now,
    # still Carol raža and Alice čadra; Bob alone is tameg (no tameg-pair variant).
    assert (asked.challenger_id, asked.opponent_id, asked.teams) == (
        CAROL,
        BOB,
        ((CAROL, ALICE), (BOB,)),
    )
    assert asked.seats == (CAROL, BOB, ALICE) and asked.variants == ()
    assert asked.seat_names == ("Veradi raža", "Tameg", "Veradi čadra")
    calls = len(dice.calls)
    waiting = await service.accept_challenge(asked.challenge_id, BOB)
    assert isinstance(waiting, ChallengeView) and waiting.waiting_for == (ALICE,)
    board = await service.accept_challenge(asked.challenge_id, ALICE)
    assert isinstance(board, BoardView)
    assert board.players == (CAROL, BOB, ALICE)
    assert board.seat_names == ("Veradi raža", "Tameg", "Veradi čadra")
    assert len(dice.calls) == calls  # the seats were fixed: no draw


async def test_a_four_player_sachidjun_rematch(service, dice, clock):
    # From test_teams: seats Dave (veradi raža), Alice (tameg raža), Bob, Carol.
    dice.queued += [(3, 6), (1, 5), (8, 8), (4, 2)]
    old = await finished_game(
        service, clock, kind="sachi", partner_id=CAROL, opponent_partner_id=DAVE
    )
    assert old.players == (DAVE, ALICE, BOB, CAROL)
    asked = await service.rematch(old.game_id, DAVE, guild_id=GUILD)
    # Veradi (Dave raža, Bob čadra) and tameg (Alice raža, Carol čadra) swap.
    assert asked.seats == (ALICE, DAVE, CAROL, BOB)
    assert asked.teams == ((DAVE, BOB), (ALICE, CAROL))
    board = await accept_all(service, asked)
    assert board.players == (ALICE, DAVE, CAROL, BOB) and board.to_move_user == ALICE


# ---- rematch: who, when, how often ------------------------------------------------------


async def test_only_the_players_of_a_finished_game_ask_for_its_rematch(service, clock):
    old = await finished_game(service, clock)
    with pytest.raises(NotAllowed, match="Only the players"):
        await service.rematch(old.game_id, CAROL, guild_id=GUILD)
    with pytest.raises(NotFound):
        await service.rematch(old.game_id, ALICE, guild_id=OTHER_GUILD)
    with pytest.raises(NotFound):
        await service.rematch(old.game_id + 100, ALICE, guild_id=GUILD)
    created = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, kind="shax", challenger_id=ALICE, opponent_id=BOB
    )
    active = await service.accept_challenge(created.challenge_id, BOB)
    with pytest.raises(NotAllowed, match="not over yet"):
        await service.rematch(active.game_id, ALICE, guild_id=GUILD)


async def test_a_rematch_is_a_challenge_the_server_settings_may_refuse(service, store, clock):
    old = await finished_game(service, clock, options={"time": 3600})
    other_channel = CHANNEL + 1
    await service.change_server_settings(GUILD, CAROL, manager=True, disable="shax")
    with pytest.raises(NotAllowed, match=r"^Shax is turned off in this server\.$"):
        await service.rematch(old.game_id, ALICE, guild_id=GUILD)
    await service.change_server_settings(
        GUILD, CAROL, manager=True, enable="shax", allow_channel=other_channel
    )
    with pytest.raises(NotAllowed, match=rf"^Challenges are made in <#{other_channel}>"):
        await service.rematch(old.game_id, BOB, guild_id=GUILD)
    assert await store.rematch_of(old.game_id) is None  # nothing was made
    # Allowed again, the rematch takes the server's clock as any new challenge does.
    await service.change_server_settings(
        GUILD, CAROL, manager=True, allow_channel=CHANNEL, grace=6 * 3600
    )
    asked = await service.rematch(old.game_id, ALICE, guild_id=GUILD)
    assert dict(asked.options) == {"time": 3600, "grace": 6 * 3600}


async def test_a_rematch_with_the_bot_keeps_its_level_and_needs_the_bot(store, clock, roller):
    bot = IDZEVA
    service = GameService(
        store,
        settings=Settings(),
        clock=clock,
        roller=roller,
        renderer=fake_renderer,
        bot_user_id=bot,
    )
    old = await finished_game(
        service,
        clock,
        challenger=BOB,
        opponent_id=bot,
        bots=[bot],
        first="me",
        options={"level": "hard"},
    )
    asked = await service.rematch(old.game_id, BOB, guild_id=GUILD)
    assert dict(asked.options)["bot_levels"] == {"0": "hard"} and "level" not in dict(asked.options)
    await service.decline_challenge(asked.challenge_id, BOB)
    no_bot = GameService(
        store, settings=Settings(), clock=clock, roller=roller, renderer=fake_renderer
    )
    with pytest.raises(NotAllowed, match="Bots cannot play"):  # the bot plays no more here
        await no_bot.rematch(old.game_id, BOB, guild_id=GUILD)
    assert await store.rematch_of(old.game_id) is None  # nothing new was made


def test_a_rematch_with_a_level_no_longer_offered_is_refused():
    bot = IDZEVA
    carried = {"bot_levels": {"1": "hard"}}
    assert bot_seats.check_challenge(bot, [bot], [bot], carried) == carried  # no default added
    with pytest.raises(ValueError, match="The level must be one of"):
        bot_seats.check_challenge(bot, [bot], [bot], {"bot_levels": {"1": "grandmaster"}})


async def test_one_rematch_at_a_time(service, clock):
    old = await finished_game(service, clock)
    asked = await service.rematch(old.game_id, ALICE, guild_id=GUILD)
    for user in (BOB, ALICE):
        with pytest.raises(ServiceError, match="already waiting for an answer") as caught:
            await service.rematch(old.game_id, user, guild_id=GUILD)
        assert f"challenge #{asked.challenge_id}, sent by <@{ALICE}>" in caught.value.message
    await service.decline_challenge(asked.challenge_id, BOB)  # declined: ask again
    again = await service.rematch(old.game_id, BOB, guild_id=GUILD)
    board = await service.accept_challenge(again.challenge_id, ALICE)
    with pytest.raises(ServiceError, match=f"already rematched: game #{board.game_id}"):
        await service.rematch(old.game_id, ALICE, guild_id=GUILD)


async def test_the_rematch_stops_a_challenge_timeout_after_the_end(service, clock):
    old = await finished_game(service, clock)
    ended = clock.now
    clock.advance(DAY - 1)
    asked = await service.rematch(old.game_id, ALICE, guild_id=GUILD)  # one second left
    await service.decline_challenge(asked.challenge_id, BOB)
    clock.advance(1)
    with pytest.raises(ServiceError, match="could be asked for until") as caught:
        await service.rematch(old.game_id, BOB, guild_id=GUILD)
    assert f"<t:{int(ended + DAY)}:f>" in caught.value.message


async def test_two_rematch_clicks_at_the_same_instant_make_one_challenge(service, store, clock):
    old = await finished_game(service, clock)
    results = await asyncio.gather(
        service.rematch(old.game_id, ALICE, guild_id=GUILD),
        service.rematch(old.game_id, BOB, guild_id=GUILD),
        return_exceptions=True,
    )
    made = [r for r in results if isinstance(r, ChallengeView)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(made) == 1 and len(refused) == 1, results
    assert (await store.rematch_of(old.game_id)).id == made[0].challenge_id


async def test_the_store_keeps_one_pending_or_accepted_rematch_per_game(store, clock):
    game_id = await store.insert_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        players=(ALICE, BOB),
        state="{}",
        status="finished",
        created_at=START,
        updated_at=START,
    )
    columns = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "kind": "shax",
        "challenger_id": ALICE,
        "opponent_id": BOB,
        "first": "me",
        "status": "pending",
        "created_at": START,
        "expires_at": START + DAY,
        "seats": (BOB, ALICE),
        "rematch_of": game_id,
    }
    first = await store.insert_rematch(**columns)
    assert first is not None
    assert await store.insert_rematch(**(columns | {"challenger_id": BOB})) is None
    row = await store.rematch_of(game_id)
    assert (row.id, row.seats, row.challenger_id) == (first, (BOB, ALICE), ALICE)
    assert await store.update_challenge(first, expected_status="pending", status="expired")
    assert await store.rematch_of(game_id) is None
    second = await store.insert_rematch(**columns)
    assert second not in (None, first)
    assert await store.rematch_of(game_id + 1) is None


# ---- open challenges ------------------------------------------------------------------


async def open_challenge(service: GameService, **fields) -> ChallengeView:
    return await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind=fields.pop("kind", "shax"),
        challenger_id=ALICE,
        opponent_id=None,
        **fields,
    )


async def test_the_first_to_accept_an_open_challenge_plays(service, store):
    view = await open_challenge(service, first="them")
    assert view.is_open and view.invited == () and view.players == (ALICE,)
    with pytest.raises(NotAllowed, match="your own open challenge"):
        await service.accept_challenge(view.challenge_id, ALICE)
    board = await service.accept_challenge(view.challenge_id, CAROL)
    assert isinstance(board, BoardView)
    assert board.players == (CAROL, ALICE) and board.to_move_user == CAROL  # "them" first
    taken = await service.get_challenge(view.challenge_id)
    assert (taken.status, taken.opponent_id, taken.is_open) == ("accepted", CAROL, False)
    with pytest.raises(ServiceError, match=f"Too late: <@{CAROL}> accepted this challenge first"):
        await service.accept_challenge(view.challenge_id, BOB)
    with pytest.raises(ServiceError, match="already accepted"):
        await service.accept_challenge(view.challenge_id, CAROL)
    assert len(await store.games_of_user(GUILD, ALICE)) == 1


async def test_two_accepts_of_an_open_challenge_at_the_same_instant(service, store):
    view = await open_challenge(service, first="me")
    results = await asyncio.gather(
        service.accept_challenge(view.challenge_id, BOB),
        service.accept_challenge(view.challenge_id, CAROL),
        return_exceptions=True,
    )
    boards = [r for r in results if isinstance(r, BoardView)]
    late = [r for r in results if isinstance(r, ServiceError)]
    assert len(boards) == 1 and len(late) == 1, results
    winner = boards[0].players[1]
    assert late[0].message.startswith(f"Too late: <@{winner}> accepted this challenge first")
    assert (await service.get_challenge(view.challenge_id)).opponent_id == winner
    assert len(await store.games_of_user(GUILD, ALICE)) == 1


async def test_the_store_lets_one_taker_have_an_open_challenge(service, store, clock):
    view = await open_challenge(service)
    game = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "kind": "shax",
        "players": (ALICE, BOB),
        "state": "{}",
        "created_at": START,
        "updated_at": START,
    }
    first = await store.accept_challenge(view.challenge_id, clock.now, taken_by=BOB, **game)
    assert first is not None
    second = await store.accept_challenge(view.challenge_id, clock.now, taken_by=CAROL, **game)
    assert second is None  # rolled back: no second game
    row = await store.get_challenge(view.challenge_id)
    assert (row.opponent_id, row.game_id, row.status) == (BOB, first, "accepted")
    assert await store.games_of_user(GUILD, CAROL) == []


async def test_an_open_challenge_expires_like_any(service, clock):
    view = await open_challenge(service)
    clock.advance(DAY)
    with pytest.raises(ServiceError, match="expired"):
        await service.accept_challenge(view.challenge_id, BOB)
    [notice] = await service.tick()
    assert notice.text == f"<@{ALICE}>, your open Shax challenge expired: nobody took it."
    assert (await service.get_challenge(view.challenge_id)).status == "expired"


async def test_an_open_challenge_is_one_against_one(service, dice):
    with pytest.raises(NotAllowed, match="one against one"):
        await open_challenge(service, kind="sachi", partner_id=CAROL)
    with pytest.raises(NotAllowed, match="one against one"):
        await open_challenge(service, kind="sachi", opponent_partner_id=CAROL)
    view = await open_challenge(service, kind="sachi")
    assert view.draws_sides
    dice.queued.append((2, 7))  # Alice 2, Carol 7: Carol veradi
    board = await service.accept_challenge(view.challenge_id, CAROL)
    assert isinstance(board, BoardView) and board.players == (CAROL, ALICE)


async def test_only_the_challenger_withdraws_an_open_challenge(service):
    view = await open_challenge(service)
    with pytest.raises(NotAllowed, match="not your challenge"):
        await service.decline_challenge(view.challenge_id, BOB)
    withdrawn = await service.decline_challenge(view.challenge_id, ALICE)
    assert withdrawn.status == "declined"
    with pytest.raises(ServiceError, match="already declined"):
        await service.accept_challenge(view.challenge_id, BOB)


# ---- the migration --------------------------------------------------------------------

# The schema just before the migration that frees the opponent (whatever its number).
BEFORE = next(n for n, script in enumerate(MIGRATIONS) if "rematch_of" in script)
PG_BEFORE = next(n for n, script in enumerate(PG_MIGRATIONS) if "rematch_of" in script)


@pytest.mark.sqlite_only
async def test_the_migration_keeps_the_challenges_and_frees_the_opponent(db_path):
    async with await Store.open(db_path, MIGRATIONS[:BEFORE]) as old:
        kept = await old.insert_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="sachidjun",
            challenger_id=ALICE,
            opponent_id=BOB,
            first="me",
            status="pending",
            created_at=START,
            expires_at=START + DAY,
            partners=(CAROL, None),
            accepted=(BOB,),
            options={"colour": "blue"},
        )
    columns = (
        "id, guild_id, channel_id, message_id, kind, variants, challenger_id, opponent_id,"
        " first, status, created_at, expires_at, game_id, partners, accepted, options"
    )
    before = raw_sql(db_path, f"SELECT {columns} FROM challenges")
    async with await Store.open(db_path) as store:
        assert raw_sql(db_path, f"SELECT {columns} FROM challenges") == before
        after = await store.get_challenge(kept)
        assert (after.opponent_id, after.partners, after.accepted) == (BOB, (CAROL, None), (BOB,))
        assert after.options == {"colour": "blue"}
        assert after.seats is None and after.rematch_of is None
        opened = await store.insert_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="shax",
            challenger_id=ALICE,
            opponent_id=None,
            first="me",
            status="pending",
            created_at=START,
            expires_at=START + DAY,
        )
        assert (await store.get_challenge(opened)).is_open
    indexes = raw_sql(db_path, "SELECT name FROM sqlite_master WHERE tbl_name = 'challenges'")
    assert {name for (name,) in indexes} >= {"challenges_by_status", "challenges_rematch"}


async def test_the_postgresql_migration_keeps_the_challenges_and_frees_the_opponent(pg_server):
    url = in_thread(pg_server.new_database, None)  # no schema at all
    try:
        async with await PostgresStore.open(url, PG_MIGRATIONS[:PG_BEFORE]) as old:
            kept = await old.insert_challenge(
                guild_id=GUILD,
                channel_id=CHANNEL,
                kind="shax",
                challenger_id=ALICE,
                opponent_id=BOB,
                first="them",
                status="pending",
                created_at=START,
                expires_at=START + DAY,
                options={"rated": False},
            )
        async with await PostgresStore.open(url) as store:
            after = await store.get_challenge(kept)
            assert (after.challenger_id, after.opponent_id, after.first) == (ALICE, BOB, "them")
            assert after.options == {"rated": False}
            assert after.seats is None and after.rematch_of is None
            opened = await store.insert_challenge(
                guild_id=GUILD,
                channel_id=CHANNEL,
                kind="shax",
                challenger_id=ALICE,
                opponent_id=None,
                first="me",
                status="pending",
                created_at=START,
                expires_at=START + DAY,
            )
            assert (await store.get_challenge(opened)).is_open
    finally:
        in_thread(pg_server.drop_database, url)
