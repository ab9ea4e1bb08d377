import random

import pytest

from bot.domain.service import NotAllowed, NotFound, ServiceError
from games import Shax

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, HOUR, START, raw_sql, start_game


async def challenge(service, **options):
    fields = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "kind": "shax",
        "challenger_id": ALICE,
        "opponent_id": BOB,
    }
    return await service.create_challenge(**(fields | options))


async def test_create_challenge(service):
    view = await challenge(service, kind="Jare", variants=["two-removals"], first="them")
    assert view.kind == "shax" and view.title == "Shax"
    assert view.variants == ("two-removals",)
    assert (view.challenger_id, view.opponent_id, view.first) == (ALICE, BOB, "them")
    assert view.status == "pending"
    assert view.expires_at == START + DAY
    assert await service.get_challenge(view.challenge_id) == view


@pytest.mark.parametrize(
    "options, error",
    [
        ({"opponent_id": ALICE}, NotAllowed),
        ({"opponent_is_bot": True}, NotAllowed),
        ({"kind": "chess"}, ServiceError),
        ({"variants": ["flying"]}, ServiceError),
        ({"first": "whoever"}, ServiceError),
    ],
)
async def test_bad_challenges_are_refused(service, options, error):
    with pytest.raises(error):
        await challenge(service, **options)


async def test_accept_creates_the_game(service):
    view = await challenge(service, first="me")
    board = await service.accept_challenge(view.challenge_id, BOB)
    assert board.players == (ALICE, BOB)
    assert board.seat_names == ("White", "Black")
    assert board.to_move_user == ALICE
    assert board.version == 1 and board.legal_count == 24
    assert board.last_action is None and board.image == b"PNG"
    assert board.status == Shax().status_line()
    assert ("First move", f"chosen by <@{ALICE}>: <@{ALICE}> plays White") in board.fields
    assert (await service.get_challenge(view.challenge_id)).status == "accepted"


async def test_the_challenges_options_become_the_games_settings(service, store):
    view = await challenge(service, kind="chebache", options={"colour": "black"})
    board = await service.accept_challenge(view.challenge_id, BOB)
    # The clock comes along: the bot's 3 days per move, the server's day of grace.
    clock = {"time": 3 * 24 * 3600, "grace": 24 * 3600}
    assert (await store.get_game(board.game_id)).options == {"colour": "black", **clock}
    plain = await challenge(service)
    board = await service.accept_challenge(plain.challenge_id, BOB)
    assert (await store.get_game(board.game_id)).options == clock


async def test_them_first_gives_white_to_the_opponent(service):
    board = await start_game(service, first="them")
    assert board.players == (BOB, ALICE)


async def test_random_first_uses_the_roller(service, roller):
    board = await start_game(service, first="random")
    assert [str(spec) for spec in roller.calls] == ["1d2"]
    die = random.Random(roller.seed).randint(1, 2)  # the seeded roller's first roll
    expected_white = ALICE if die == 1 else BOB
    assert board.players[0] == expected_white
    note = dict(board.fields)["First move"]
    assert note == f"drawn at random: <@{expected_white}> plays White"


async def test_only_the_challenged_player_accepts(service):
    view = await challenge(service)
    for user in (ALICE, CAROL):
        with pytest.raises(NotAllowed):
            await service.accept_challenge(view.challenge_id, user)
    assert (await service.get_challenge(view.challenge_id)).status == "pending"


async def test_accepting_twice_is_refused(service, db_path):
    view = await challenge(service)
    await service.accept_challenge(view.challenge_id, BOB)
    with pytest.raises(ServiceError, match="already accepted"):
        await service.accept_challenge(view.challenge_id, BOB)
    assert raw_sql(db_path, "SELECT COUNT(*) FROM games")[0][0] == 1


async def test_decline(service):
    view = await challenge(service)
    with pytest.raises(NotAllowed):
        await service.decline_challenge(view.challenge_id, CAROL)
    declined = await service.decline_challenge(view.challenge_id, BOB)
    assert declined.status == "declined"
    with pytest.raises(ServiceError, match="already declined"):
        await service.accept_challenge(view.challenge_id, BOB)
    with pytest.raises(ServiceError):
        await service.decline_challenge(view.challenge_id, BOB)


async def test_challenger_may_withdraw(service):
    view = await challenge(service)
    assert (await service.decline_challenge(view.challenge_id, ALICE)).status == "declined"


async def test_unknown_challenge(service):
    with pytest.raises(NotFound):
        await service.get_challenge(999)
    with pytest.raises(NotFound):
        await service.accept_challenge(999, BOB)
    with pytest.raises(NotFound):
        await service.set_challenge_message(999, 5)


async def test_challenge_message_is_recorded(service):
    view = await challenge(service)
    await service.set_challenge_message(view.challenge_id, 4242)
    assert (await service.get_challenge(view.challenge_id)).message_id == 4242


async def test_expiry_through_tick(service, clock):
    view = await challenge(service)
    await service.set_challenge_message(view.challenge_id, 4242)
    clock.advance(DAY - 1)
    assert await service.tick() == []
    clock.advance(1)
    with pytest.raises(ServiceError, match="expired"):
        await service.accept_challenge(view.challenge_id, BOB)
    assert (await service.get_challenge(view.challenge_id)).status == "expired"
    [notice] = await service.tick()
    assert notice.kind == "challenge_expired"
    assert (notice.challenge_id, notice.game_id) == (view.challenge_id, None)
    assert (notice.guild_id, notice.channel_id, notice.message_id) == (GUILD, CHANNEL, 4242)
    assert notice.user_id == ALICE and f"<@{BOB}>" in notice.text
    clock.advance(HOUR)
    assert await service.tick() == []
    with pytest.raises(ServiceError, match="has expired"):
        await service.accept_challenge(view.challenge_id, BOB)
