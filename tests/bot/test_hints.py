"""Hints through the service (issue 34, ``bot/domain/hints.py``): where they are allowed, the
hint itself (a legal turn and its reason), and the ``hint`` event the record and the history
count. The search is a small fixed tree (``Settings.bot_iterations``)."""

from __future__ import annotations

import json

import pytest

from bot.config import Settings
from bot.domain import hints
from bot.domain.service import GameService, NotAllowed, NotFound, ServiceError
from games import load_game
from games.record import load_record

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, OTHER_GUILD, fake_renderer

IDZEVA = 1_234_567_890_123_456_700  # the bot's own user
ITERATIONS = 20


@pytest.fixture
def service(store, clock, roller) -> GameService:
    return GameService(
        store,
        settings=Settings(bot_iterations=ITERATIONS),
        clock=clock,
        roller=roller,
        renderer=fake_renderer,
        bot_user_id=IDZEVA,
    )


async def start(
    service: GameService, kind: str = "shax", *, bot: bool = False, guild: int = GUILD, **options
) -> int:
    """Alice challenges Bob (or the bot) with ``options``, moving first; the game's id."""
    opponent = IDZEVA if bot else BOB
    challenge = await service.create_challenge(
        guild_id=guild,
        channel_id=CHANNEL,
        kind=kind,
        challenger_id=ALICE,
        opponent_id=opponent,
        bots=[IDZEVA] if bot else [],
        first="me",
        options=options,
    )
    board = await service.accept_challenge(challenge.challenge_id, opponent)
    return board.game_id


async def legal_now(service: GameService, game_id: int) -> list[str]:
    return await service.legal_moves(game_id, GUILD)


# ---- allowed ------------------------------------------------------------------------


async def test_a_friendly_game_against_the_bot_allows_hints_without_the_option(service, store):
    game_id = await start(service, bot=True, rated=False)
    hint = await service.hint(game_id, ALICE, guild_id=GUILD)
    assert len(hint.moves) == 1 and hint.moves[0] in await legal_now(service, game_id)
    assert hint.reason and hint.counted == 1 and hint.title == "Shax"
    events = [e for e in await store.game_events(game_id) if e.kind == "hint"]
    assert [(e.seat, e.ply) for e in events] == [(0, 0)]


async def test_asking_again_at_the_same_position_shows_the_same_hint_counted_once(service, store):
    game_id = await start(service, bot=True, rated=False)
    first = await service.hint(game_id, ALICE, guild_id=GUILD)
    again = await service.hint(game_id, ALICE, guild_id=GUILD)
    assert again == first and again.counted == 1
    assert len([e for e in await store.game_events(game_id) if e.kind == "hint"]) == 1


async def test_a_friendly_game_with_hints_true_allows_them_to_each_side_on_its_turn(service):
    game_id = await start(service, rated=False, hints=True)
    alice = await service.hint(game_id, ALICE, guild_id=GUILD)
    await service.move(game_id, ALICE, alice.moves[0], guild_id=GUILD)
    bob = await service.hint(game_id, BOB, guild_id=GUILD)
    assert bob.moves[0] in await legal_now(service, game_id)
    await service.move(game_id, BOB, bob.moves[0], guild_id=GUILD)
    again = await service.hint(game_id, ALICE, guild_id=GUILD)
    assert (alice.counted, bob.counted, again.counted) == (1, 1, 2)
    board = await service.board(game_id, GUILD, with_image=False)
    assert hints.BOARD_FIELD in board.fields


async def test_the_record_and_the_history_count_the_hints_of_each_side(service, clock):
    game_id = await start(service, rated=False, hints=True)
    for user in (ALICE, BOB, ALICE):
        hint = await service.hint(game_id, user, guild_id=GUILD)
        clock.advance(60)
        await service.move(game_id, user, hint.moves[0], guild_id=GUILD)
    data, text = await service.record_files(game_id, GUILD)
    record = json.loads(data)
    hinted = [(e["seat"], e["ply"]) for e in record["events"] if e["event"] == "hint"]
    assert hinted == [(0, 0), (1, 1), (0, 2)]
    loaded, _ = load_record(data)
    assert loaded.events == record["events"]
    assert '[Hints "White 2, Black 1"]' in text.splitlines()
    history = await service.history(game_id, GUILD)
    assert sum("White takes a hint" in line for line in history) == 2
    assert sum("Black takes a hint" in line for line in history) == 1


async def test_the_hint_of_a_dice_game_is_the_whole_turn_after_the_roll(service, roller):
    game_id = await start(service, "chebache", rated=False, hints=True)
    with pytest.raises(NotAllowed, match="Roll the dice first"):
        await service.hint(game_id, ALICE, guild_id=GUILD)
    roller.queued.append((3, 5))
    await service.roll(game_id, ALICE, guild_id=GUILD)
    hint = await service.hint(game_id, ALICE, guild_id=GUILD)
    row = await service._store.get_game(game_id)
    assert row is not None
    game = load_game(row.state)
    for move in hint.moves:
        assert move in game.legal_moves()
        game.push(move)
    assert game.to_move != 0 or game.dice_needed() is not None  # the turn is over


# ---- refused ------------------------------------------------------------------------


async def test_a_rated_game_refuses_hints_with_the_way_to_get_them(service, store):
    game_id = await start(service)
    with pytest.raises(NotAllowed) as refused:
        await service.hint(game_id, ALICE, guild_id=GUILD)
    assert refused.value.message == hints.RATED
    assert [e for e in await store.game_events(game_id) if e.kind == "hint"] == []


async def test_a_rated_game_against_the_bot_refuses_hints(service):
    game_id = await start(service, bot=True)
    with pytest.raises(NotAllowed) as refused:
        await service.hint(game_id, ALICE, guild_id=GUILD)
    assert refused.value.message == hints.RATED_BOT


async def test_a_friendly_game_without_the_option_refuses_hints(service):
    game_id = await start(service, rated=False)
    with pytest.raises(NotAllowed) as refused:
        await service.hint(game_id, ALICE, guild_id=GUILD)
    assert refused.value.message == hints.NOT_CHOSEN


async def test_a_rated_challenge_with_hints_is_refused(service):
    with pytest.raises(NotAllowed) as refused:
        await start(service, hints=True)
    assert refused.value.message == hints.HINTS_NEED_FRIENDLY


async def test_a_challenge_shows_its_hints(service):
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        challenger_id=ALICE,
        opponent_id=BOB,
        options={"rated": False, "hints": True},
    )
    assert dict(challenge.options)["hints"] is True


async def test_a_finished_game_refuses_hints(service):
    game_id = await start(service, rated=False, hints=True)
    await service.resign(game_id, BOB, guild_id=GUILD)
    with pytest.raises(ServiceError, match="is over"):
        await service.hint(game_id, ALICE, guild_id=GUILD)


async def test_another_servers_game_is_not_found(service):
    game_id = await start(service, rated=False, hints=True, guild=OTHER_GUILD)
    with pytest.raises(NotFound):
        await service.hint(game_id, ALICE, guild_id=GUILD)


async def test_someone_not_playing_gets_no_hint(service):
    game_id = await start(service, rated=False, hints=True)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.hint(game_id, CAROL, guild_id=GUILD)


async def test_a_hint_is_for_your_own_turn(service, store):
    game_id = await start(service, rated=False, hints=True)
    with pytest.raises(NotAllowed, match="a hint is for your own move"):
        await service.hint(game_id, BOB, guild_id=GUILD)
    assert [e for e in await store.game_events(game_id) if e.kind == "hint"] == []
