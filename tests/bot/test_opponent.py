"""The bot opponent through the service: challenging it, its seats and levels, its moves after
a human's (its own dice first in dice games), Šačidjun with bot seats, a restart while it is
to move, and races: a human acting while it thinks, and two processes playing its turn.

Its search is a small fixed tree with the position's seed, so each move here is exactly the
one ``search.bot_turn`` gives for the stored game: the tests compute it the same way.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from bot.config import Settings
from bot.domain.opponent import Opponent, draw_accepted
from bot.domain.service import (
    BoardView,
    ChallengeView,
    GameService,
    NotAllowed,
    ServiceError,
    StaleBoard,
)
from bot.runtime.workers import Workers
from bot.storage import open_store
from bot.storage.rows import decode_state
from games import DiceSpec, load_game
from search import bot_turn

from .conftest import ALICE, BOB, CAROL, CHANNEL, DAY, GUILD, HOUR, fake_renderer

IDZEVA = 1_234_567_890_123_456_700  # the bot's own user
ITERATIONS = 20
CLOCK = {"time": 3 * DAY, "grace": DAY}  # every game's default time per move and grace


@pytest.fixture
def service(store, clock, roller) -> GameService:
    return GameService(
        store,
        settings=Settings(),
        clock=clock,
        roller=roller,
        renderer=fake_renderer,
        bot_user_id=IDZEVA,
    )


@pytest.fixture
def opponent(service) -> Opponent:
    return Opponent(service, IDZEVA, iterations=ITERATIONS)


async def challenge_bot(
    service: GameService, kind: str = "shax", first: str = "me", **extra
) -> ChallengeView:
    return await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind=kind,
        challenger_id=ALICE,
        opponent_id=IDZEVA,
        bots=[IDZEVA],
        first=first,
        **extra,
    )


async def bot_game(service: GameService, kind: str = "shax", first: str = "me", **extra):
    created = await challenge_bot(service, kind, first, **extra)
    board = await service.accept_challenge(created.challenge_id, IDZEVA)
    assert isinstance(board, BoardView)
    return board


def expected_turn(saved: str, game_id: int, version: int, level: str = "normal") -> list[str]:
    """What the bot's search plays in this stored game (its seed: the position's)."""
    seed = (game_id * 1_000_003 + version) & 0xFFFFFFFF
    return bot_turn(saved, level, seed, ITERATIONS)


# ---- challenges ---------------------------------------------------------------------


async def test_the_bot_accepts_at_once_and_its_seat_gets_the_level(service, store):
    created = await challenge_bot(service, options={"level": "hard"})
    assert dict(created.options) == {"level": "hard"} | CLOCK and created.invited == (IDZEVA,)
    board = await service.accept_challenge(created.challenge_id, IDZEVA)
    assert isinstance(board, BoardView)
    assert board.players == (ALICE, IDZEVA) and board.bot_levels == ((1, "hard"),)
    assert (await store.get_game(board.game_id)).options == {"bot_levels": {"1": "hard"}} | CLOCK
    # Without a level the bot plays normal; with "them" first it plays White, seat 0.
    board = await bot_game(service, first="them")
    assert board.players == (IDZEVA, ALICE) and board.bot_levels == ((0, "normal"),)
    assert (await store.get_game(board.game_id)).options == {"bot_levels": {"0": "normal"}} | CLOCK


@pytest.mark.parametrize(
    "opponent_id, bots, options, refusal",
    [
        (CAROL, [CAROL], {}, "Bots cannot play; challenge people (or me, <@"),
        (CAROL, [CAROL], {"level": "easy"}, "Bots cannot play"),
        (
            BOB,
            [],
            {"level": "easy"},
            f"The level is for games against the computer: challenge <@{IDZEVA}>",
        ),
        (IDZEVA, [IDZEVA], {"level": "grandmaster"}, "The level must be one of easy, normal, hard"),
        (IDZEVA, [IDZEVA], {"level": ""}, "The level must be one of"),
    ],
)
async def test_other_bots_and_misplaced_levels_are_refused(
    service, store, opponent_id, bots, options, refusal
):
    with pytest.raises(NotAllowed) as refused:
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="tchela",
            challenger_id=ALICE,
            opponent_id=opponent_id,
            bots=bots,
            options=options,
        )
    assert refused.value.message.startswith(refusal)
    assert await store.challenges_expired(float("inf")) == []  # nothing was stored


async def test_a_service_that_knows_no_bot_user_refuses_every_bot(store, clock, roller):
    plain = GameService(store, settings=Settings(), clock=clock, roller=roller)
    with pytest.raises(NotAllowed, match=r"^Bots cannot play; challenge people\.$"):
        await plain.create_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="shax",
            challenger_id=ALICE,
            opponent_id=IDZEVA,
            bots=[IDZEVA],
        )


# ---- its moves ----------------------------------------------------------------------


async def test_the_bot_moves_after_the_human_with_the_searchs_turn(service, store, opponent):
    board = await bot_game(service)  # Alice plays White and places first
    assert not opponent.to_act(board)
    assert await opponent.step(board.game_id, GUILD) is None  # not its turn: nothing done
    board = await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    assert board.to_move_user == IDZEVA and opponent.to_act(board)
    row = await store.get_game(board.game_id)
    expected = expected_turn(row.state, row.id, row.version)

    reply = await opponent.step(board.game_id, GUILD)

    assert reply is not None and reply.version == board.version + 1
    assert reply.last_action == " ".join(expected)
    assert reply.to_move_user == ALICE and not opponent.to_act(reply)
    assert reply.note == f"Played by <@{IDZEVA}> at level **normal**."
    assert reply.image == b"PNG"
    game = load_game((await store.get_game(board.game_id)).state)
    assert [(e.seat, e.move) for e in game.log] == [(0, "d2"), (1, expected[0])]
    assert await opponent.step(board.game_id, GUILD) is None


async def test_in_a_dice_game_the_bot_rolls_its_own_dice_then_moves(service, store, roller):
    opponent = Opponent(service, IDZEVA, iterations=ITERATIONS)
    board = await bot_game(service, kind="chebache", first="them")  # the bot plays White
    assert board.dice_needed == "2d6" and opponent.to_act(board)
    _, saved = await service.saved_game(board.game_id, GUILD)
    rolled = load_game(saved)
    rolled.roll((3, 2))
    roller.queued.append((3, 2))

    reply = await opponent.step(board.game_id, GUILD)

    # The roll was the service's (one 2d6), stored as its own version before the move.
    assert roller.calls == [DiceSpec(2, 6)] and roller.rolled == [(3, 2)]
    assert reply is not None and reply.version == board.version + 2
    assert reply.note == f"White rolled 3 2\nPlayed by <@{IDZEVA}> at level **normal**."
    game = load_game((await store.get_game(board.game_id)).state)
    assert game.log[0].seat == 0 and game.log[0].dice == (3, 2)
    moves = [entry.move for entry in game.log[1:]]
    assert moves and all(entry.seat == 0 for entry in game.log)
    # Its whole turn is the search's for the position just after the roll.
    assert moves == expected_turn(rolled.to_json(), board.game_id, board.version + 1)
    assert reply.last_action == "[3 2] " + " ".join(moves)
    assert reply.to_move_user == ALICE and reply.dice_needed == "2d6"
    # Now it is Alice's roll: the bot does nothing, and she cannot roll for it later.
    assert await opponent.step(board.game_id, GUILD) is None


async def test_nobody_else_acts_for_the_bot(service, opponent):
    board = await bot_game(service, kind="chebache", first="them")  # the bot is to roll
    with pytest.raises(NotAllowed, match=f"It is <@{IDZEVA}>'s turn"):
        await service.roll(board.game_id, ALICE, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="You are not playing"):
        await service.roll(board.game_id, CAROL, guild_id=GUILD)
    board = await bot_game(service, first="them")  # Shax: the bot places first
    for user, refusal in ((ALICE, f"It is <@{IDZEVA}>'s turn"), (CAROL, "not playing")):
        with pytest.raises(NotAllowed, match=refusal):
            await service.move(board.game_id, user, "d2", guild_id=GUILD)
        with pytest.raises(NotAllowed, match=refusal):
            await service.play_turn(
                board.game_id, user, ["d2"], guild_id=GUILD, expected_version=board.version
            )
    assert (await service.board(board.game_id, GUILD)).version == board.version


# ---- Šačidjun: the bot in any seats -------------------------------------------------


async def test_two_friends_against_two_bot_seats(service, store, roller):
    opponent = Opponent(service, IDZEVA, iterations=ITERATIONS)
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="sachi",
        challenger_id=ALICE,
        partner_id=BOB,
        opponent_id=IDZEVA,
        opponent_partner_id=IDZEVA,
        bots=[IDZEVA, IDZEVA],
        options={"level": "easy"},
    )
    assert created.invited == (IDZEVA, BOB, IDZEVA)
    waiting = await service.accept_challenge(created.challenge_id, IDZEVA)
    assert isinstance(waiting, ChallengeView) and waiting.waiting_for == (BOB,)
    # Alice's side 2, the bot's 7: the bot's side is veradi. Its seats tie-break 5 to 1 (the
    # first keeps raža); Alice 8, Bob 3: Alice raža.
    roller.queued += [(2, 7), (5, 1), (8, 3), (3, 5)]
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert isinstance(board, BoardView)
    assert board.players == (IDZEVA, ALICE, IDZEVA, BOB)
    assert board.bot_levels == ((0, "easy"), (2, "easy"))
    options = (await store.get_game(board.game_id)).options
    assert options == {"bot_levels": {"0": "easy", "2": "easy"}} | CLOCK
    assert board.to_move_user == IDZEVA and board.dice_needed == "2d8"

    reply = await opponent.step(board.game_id, GUILD)  # veradi raža rolls 3 5 and moves

    assert reply is not None and reply.note.startswith("Veradi raža rolled 3 5\n")
    assert reply.note.endswith(f"Played by <@{IDZEVA}> at level **easy**.")
    assert reply.to_move_user == ALICE and reply.status == "Tameg raža to roll"
    assert not opponent.to_act(reply)
    # Alice's sub-turn, then the bot's second seat (veradi čadra) acts.
    roller.queued += [(1, 2)]
    alice = await service.roll(board.game_id, ALICE, guild_id=GUILD)
    while alice.to_move_user == ALICE:  # she plays her sub-turn, a move at a time
        move = (await service.legal_moves(board.game_id, GUILD))[0]
        alice = await service.move(board.game_id, ALICE, move, guild_id=GUILD)
        assert not opponent.to_act(alice) or alice.to_move_user == IDZEVA
    assert alice.to_move_user == IDZEVA and alice.status == "Veradi čadra to roll"
    second = await opponent.step(board.game_id, GUILD)
    assert second is not None and second.note.startswith("Veradi čadra rolled")
    assert second.to_move_user == BOB


async def test_the_bot_as_a_partner(service, store):
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="sachi",
        challenger_id=ALICE,
        partner_id=IDZEVA,
        opponent_id=BOB,
        bots=[IDZEVA],
        options={"level": "hard"},
    )
    assert created.teams == ((ALICE, IDZEVA), (BOB,))
    waiting = await service.accept_challenge(created.challenge_id, IDZEVA)
    assert isinstance(waiting, ChallengeView) and waiting.waiting_for == (BOB,)
    service._roller.queued += [(6, 2), (1, 4)]  # Alice's side veradi; the bot raža
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert board.players == (IDZEVA, BOB, ALICE)
    assert board.bot_levels == ((0, "hard"),)
    assert (await store.get_game(board.game_id)).options == {"bot_levels": {"0": "hard"}} | CLOCK


async def test_people_still_take_one_place_each(service):
    with pytest.raises(NotAllowed, match="only one place"):
        await service.create_challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            kind="sachi",
            challenger_id=ALICE,
            partner_id=IDZEVA,
            opponent_id=BOB,
            opponent_partner_id=BOB,
            bots=[IDZEVA],
        )


# ---- restarts and races -------------------------------------------------------------


async def test_a_game_where_the_bot_was_to_move_is_played_by_the_next_process(
    service, store_url, clock, roller
):
    board = await bot_game(service, first="them")  # the bot places first; nobody played it
    alices_turn = await bot_game(service)  # Alice to move: nothing to do there
    assert alices_turn.to_move_user == ALICE

    store = await open_store(store_url)  # a new process on the same database
    try:
        again = GameService(
            store,
            settings=Settings(),
            clock=clock,
            roller=roller,
            renderer=fake_renderer,
            bot_user_id=IDZEVA,
        )
        opponent = Opponent(again, IDZEVA, iterations=ITERATIONS)
        assert await opponent.waiting([GUILD]) == [(board.game_id, GUILD)]
        reply = await opponent.step(board.game_id, GUILD)
        assert reply is not None and reply.version == 2 and reply.to_move_user == ALICE
        assert await opponent.waiting([GUILD]) == []
    finally:
        await store.close()


class RacingWorkers(Workers):
    """Runs the search in a thread; before its answer comes back, ``during`` acts."""

    def __init__(self, during):
        super().__init__(0)
        self.during = during
        self.searches = 0

    async def run(self, job, *args):
        result = await super().run(job, *args)
        self.searches += 1
        if self.searches == 1:
            await self.during()
        return result


async def test_a_human_acting_while_the_bot_thinks_is_kept_and_the_bot_plays_once(service, store):
    board = await bot_game(service, first="them")
    game_id = board.game_id
    _, saved = await service.saved_game(game_id, GUILD)

    async def offer_a_draw():
        await service.offer_draw(game_id, ALICE, guild_id=GUILD)

    workers = RacingWorkers(offer_a_draw)
    opponent = Opponent(service, IDZEVA, workers=workers, iterations=ITERATIONS)

    reply = await opponent.step(game_id, GUILD)

    # The first search's move lost to the draw offer (version 2); the bot looked again and
    # played once, on version 2: its move clears the offer, as any move does.
    assert workers.searches == 2
    assert reply is not None and reply.version == 3
    row = await store.get_game(game_id)
    assert row.version == 3 and row.draw_offer_seat is None
    log = json.loads(decode_state(row.state))["log"]
    assert [entry["seat"] for entry in log] == [0]
    assert log[0]["move"] == expected_turn(saved, game_id, 2)[0]


class Counted(Workers):
    """Runs the search in a thread, counting the searches; with ``gate``, each search waits
    for the test to open it before it starts (a search in progress, to race or to kill)."""

    def __init__(self, gate: bool = False):
        super().__init__(0)
        self.searches = 0
        self.started = asyncio.Event()
        self.opened = asyncio.Event()
        if not gate:
            self.opened.set()

    async def run(self, job, *args):
        self.searches += 1
        self.started.set()
        await self.opened.wait()
        return await super().run(job, *args)


async def second_process(store_url, clock, roller):
    """Another process's service on the same database (its own outbox owner)."""
    store = await open_store(store_url)
    other = GameService(
        store,
        settings=Settings(),
        clock=clock,
        roller=roller,
        renderer=fake_renderer,
        bot_user_id=IDZEVA,
    )
    return store, other


def two_opponents(
    service: GameService, other: GameService
) -> tuple[Opponent, Opponent, Counted, Counted]:
    """The bot in two processes, each with its own service on one database, and their
    workers: the first's searches wait at their gate, the second's are only counted."""
    gated, counted = Counted(gate=True), Counted()
    first = Opponent(service, IDZEVA, workers=gated, iterations=ITERATIONS)
    second = Opponent(other, IDZEVA, workers=counted, iterations=ITERATIONS)
    return first, second, gated, counted


async def played_once(service: GameService, game_id: int, saved: str, reply) -> None:
    """The bot's reply is its one turn from ``saved``, stored once, and Alice is to move."""
    assert reply is not None and reply.version == 2 and reply.to_move_user == ALICE
    row = await store_row(service, game_id)
    assert [entry["move"] for entry in row] == [expected_turn(saved, game_id, 1)[0]]


async def test_two_processes_finding_the_bots_turn_search_it_once(
    service, store_url, clock, roller
):
    board = await bot_game(service, first="them")
    _, saved = await service.saved_game(board.game_id, GUILD)
    store, other = await second_process(store_url, clock, roller)
    try:
        first, second, mine, theirs = two_opponents(service, other)
        playing = asyncio.create_task(first.step(board.game_id, GUILD))
        await mine.started.wait()  # the first process is searching the position
        # The second process finds the same turn (its sweep): the turn is claimed, so it
        # neither searches nor posts anything.
        assert await second.step(board.game_id, GUILD) is None
        assert theirs.searches == 0
        mine.opened.set()
        reply = await playing
    finally:
        await store.close()
    assert mine.searches == 1
    await played_once(service, board.game_id, saved, reply)


async def test_a_bots_turn_left_by_a_dead_process_is_played_by_another_after_the_lease(
    service, store_url, clock, roller
):
    board = await bot_game(service, first="them")
    _, saved = await service.saved_game(board.game_id, GUILD)
    store, other = await second_process(store_url, clock, roller)
    try:
        first, second, dying, theirs = two_opponents(service, other)
        playing = asyncio.create_task(first.step(board.game_id, GUILD))
        await dying.started.wait()
        playing.cancel()  # the first process dies in the middle of its search
        with pytest.raises(asyncio.CancelledError):
            await playing
        assert await second.step(board.game_id, GUILD) is None  # its lease still runs
        clock.advance(first.lease - 1)
        assert await second.step(board.game_id, GUILD) is None
        assert theirs.searches == 0
        clock.advance(1)  # the lease is out: the next process to look plays the turn
        reply = await second.step(board.game_id, GUILD)
    finally:
        await store.close()
    assert theirs.searches == 1
    await played_once(service, board.game_id, saved, reply)


async def store_row(service: GameService, game_id: int) -> list[dict]:
    """The game's log as stored."""
    _, saved = await service.saved_game(game_id, GUILD)
    return json.loads(saved)["log"]


async def test_nobody_reminds_the_bot_nor_offers_it_a_claim(service, clock):
    await bot_game(service, first="them")  # the bot to move, and it does not (it is down)
    clock.advance(3 * DAY + HOUR)  # its 3 days per move are out, the day of grace is not
    # No "it is your turn" for the bot; Alice may claim the win, as against anyone.
    assert [(n.kind, n.user_id) for n in await service.tick()] == [("claimable", ALICE)]
    await bot_game(service)  # Alice to move, and she does not
    clock.advance(3 * DAY + HOUR)
    # Her reminder; no claim offered to the bot, which claims nothing. (The first game, its
    # grace gone too, has ended on time: the bot lost it.)
    assert [(n.kind, n.user_id) for n in await service.tick()] == [
        ("reminder", ALICE),
        ("timed_out", IDZEVA),
    ]


@pytest.mark.parametrize(
    "options, said",
    [
        (
            {},
            "A turn left for 3 days (and 1 day of grace) loses the game on time, and it is rated.",
        ),
        ({"rated": False}, "A turn left for 3 days (and 1 day of grace) loses the game on time."),
    ],
)
async def test_a_game_against_the_bot_left_without_a_move_is_lost_on_time_as_it_says(
    service, store, clock, options, said
):
    start = clock.now
    challenge = await challenge_bot(service, options=options)
    assert dict(challenge.options)["time"] == 3 * DAY and dict(challenge.options)["grace"] == DAY
    board = await service.accept_challenge(challenge.challenge_id, IDZEVA)
    assert ("Time-out", said) in board.fields  # on the first board, once
    moved = await service.move(board.game_id, ALICE, "a1", guild_id=GUILD)
    assert "Time-out" not in dict(moved.fields)
    await service.resign(board.game_id, ALICE, guild_id=GUILD)

    left = await bot_game(service, options=options)  # Alice to move, and she never does
    clock.now = start + 4 * DAY  # 3 days per move and a day of grace
    [out] = [n for n in await service.tick() if n.kind == "timed_out"]
    assert out.text == (
        f"<@{ALICE}> ran out of time in Shax #{left.game_id} against <@{IDZEVA}>:"
        " the game is over (Black wins: timeout)."
    )
    changes = await store.rating_changes(left.game_id)
    rated = [(change.user_id, change.outcome) for change in changes]
    assert rated == ([] if options else [(ALICE, "loss")])  # rated unless friendly


async def test_a_move_for_a_finished_game_is_refused(service):
    board = await bot_game(service)
    await service.resign(board.game_id, ALICE, guild_id=GUILD)
    with pytest.raises(ServiceError, match="over"):
        await service.play_turn(
            board.game_id, IDZEVA, ["d2"], guild_id=GUILD, expected_version=board.version + 1
        )


@pytest.mark.parametrize(
    "share, rated, accepted",
    [(0.5, True, False), (0.36, True, False), (0.34, True, True), (0.1, True, True)]
    + [(0.51, False, False), (0.5, False, True), (0.2, False, True)],
)
def test_the_bot_takes_a_draw_when_behind_and_in_a_friendly_game_when_not_ahead(
    share, rated, accepted
):
    assert draw_accepted(share, rated=rated) is accepted


async def test_in_a_rated_game_the_bot_declines_a_draw_in_an_even_position(
    service, opponent, store
):
    board = await bot_game(service)  # the start: even, 0.5
    offered = await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)
    assert (await store.get_game(board.game_id)).draw_offer_seat == 0
    declined = await opponent.answer_draw(board.game_id, GUILD, ALICE)
    assert declined is not None and declined.version == offered.version + 1
    assert (await store.get_game(board.game_id)).draw_offer_seat is None
    assert not declined.finished
    # No offer standing: nothing to answer.
    assert await opponent.answer_draw(board.game_id, GUILD, ALICE) is None


async def test_in_a_friendly_game_the_bot_accepts_a_draw_in_an_even_position(
    service, opponent, store
):
    board = await bot_game(service, options={"rated": False})
    await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)
    accepted = await opponent.answer_draw(board.game_id, GUILD, ALICE)
    assert accepted is not None and accepted.finished
    outcome = load_game((await store.get_game(board.game_id)).state).outcome
    assert outcome is not None and outcome.winners == () and "agreed" in outcome.reason


async def test_in_a_rated_game_the_bot_accepts_a_draw_where_it_is_clearly_behind(
    service, opponent, store, monkeypatch
):
    judged = []

    def behind(saved: str, seat: int, level: str) -> float:
        judged.append((seat, level))
        return 0.3

    monkeypatch.setattr("bot.domain.opponent.share_of", behind)
    board = await bot_game(service, first="them", options={"level": "hard"})
    await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)
    accepted = await opponent.answer_draw(board.game_id, GUILD, ALICE)
    assert accepted is not None and accepted.finished
    assert judged == [(0, "hard")]  # its own seat, at its level


async def test_a_person_of_the_bots_side_answers_for_themselves(service, opponent, store, roller):
    created = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="sachi",
        challenger_id=ALICE,
        opponent_id=BOB,
        opponent_partner_id=IDZEVA,
        bots=[IDZEVA],
    )
    await service.accept_challenge(created.challenge_id, IDZEVA)
    roller.queued += [(6, 2), (1, 4)]  # Alice veradi; on the tameg pair the bot plays raža
    board = await service.accept_challenge(created.challenge_id, BOB)
    assert board.players == (ALICE, IDZEVA, BOB)
    await service.offer_draw(board.game_id, ALICE, guild_id=GUILD)
    assert await opponent.answer_draw(board.game_id, GUILD, ALICE) is None  # Bob answers
    assert (await store.get_game(board.game_id)).draw_offer_seat == 0


async def test_the_search_runs_in_a_worker_process_of_its_own(service, store):
    pool = Workers(1)
    opponent = Opponent(service, IDZEVA, workers=pool, iterations=ITERATIONS)
    try:
        board = await bot_game(service, first="them")
        version, saved = await service.saved_game(board.game_id, GUILD)
        reply = await opponent.step(board.game_id, GUILD)
        [pid] = pool.pids()
        assert pid != os.getpid()
        assert reply is not None
        assert reply.last_action == " ".join(expected_turn(saved, board.game_id, version))
    finally:
        await opponent.close()
    assert pool.pids() == []


# ---- takebacks ------------------------------------------------------------------------


@pytest.mark.parametrize("rated, granted", [(None, False), (False, True)])
async def test_the_bot_grants_a_takeback_in_a_friendly_game_only(
    service, opponent, store, rated, granted
):
    options = {} if rated is None else {"rated": rated}
    board = await bot_game(service, "shax", options=options)
    placed = await service.move(board.game_id, ALICE, "a1", guild_id=GUILD)
    asked = await service.ask_takeback(board.game_id, ALICE, guild_id=GUILD)
    assert asked.answerers == (IDZEVA,) and asked.undone == ("a1",)
    answer, restored = await opponent.answer_takeback(asked, GUILD)
    row = await store.get_game(board.game_id)
    if granted:  # back to the start, Alice to place again; the bot's search has lapsed
        assert answer.status == "accepted" and restored.to_move_user == ALICE
        assert load_game(row.state).log == []
    else:  # a rated game: the placement stands and the bot is to move
        assert answer.status == "declined" and restored is None
        assert row.version == placed.version and len(load_game(row.state).log) == 1
    # Asked of a person (the bot not answering alone), the bot leaves it alone.
    friends = await service.create_challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        kind="shax",
        challenger_id=ALICE,
        opponent_id=BOB,
        first="me",
    )
    human = await service.accept_challenge(friends.challenge_id, BOB)
    await service.move(human.game_id, ALICE, "a1", guild_id=GUILD)
    request = await service.ask_takeback(human.game_id, ALICE, guild_id=GUILD)
    assert await opponent.answer_takeback(request, GUILD) is None


async def test_a_takeback_against_the_bot_undoes_the_move_and_its_answer(
    service, opponent, store, clock
):
    board = await bot_game(service, "shax", options={"rated": False})  # Alice plays White
    start = (await store.get_game(board.game_id)).state
    await service.move(board.game_id, ALICE, "a1", guild_id=GUILD)
    clock.advance(HOUR)
    answered = await opponent.step(board.game_id, GUILD)  # the bot answers at once
    assert answered is not None and answered.to_move_user == ALICE
    reply = answered.last_action
    clock.advance(HOUR)

    asked = await service.ask_takeback(board.game_id, ALICE, guild_id=GUILD)
    assert (asked.answerers, asked.undone) == ((IDZEVA,), ("a1", reply))
    answer, restored = await opponent.answer_takeback(asked, GUILD)
    assert answer.status == "accepted" and restored is not None
    assert restored.note == (
        f"Takeback accepted by <@{IDZEVA}>: <@{ALICE}>'s `a1` undone,"
        f" with <@{IDZEVA}>'s answer `{reply}`."
    )
    row = await store.get_game(board.game_id)
    assert row.state == start and row.version == answered.version + 1
    # Her turn, its clock started again at the takeback, as after any takeback.
    assert restored.to_move_user == ALICE and not opponent.to_act(restored)
    assert (row.turn_started_at, row.claim_at) == (clock.now, clock.now + 3 * DAY)
    assert await opponent.step(board.game_id, GUILD) is None  # nothing for the bot to do
    # A bot turn searched for a version before the takeback is not played onto this one.
    with pytest.raises(StaleBoard):
        await service.play_turn(
            board.game_id, IDZEVA, [reply], guild_id=GUILD, expected_version=answered.version - 1
        )
    # The game goes on: she plays another placement, and the bot answers it.
    await service.move(board.game_id, ALICE, "d2", guild_id=GUILD)
    again = await opponent.step(board.game_id, GUILD)
    assert again is not None and again.to_move_user == ALICE
    log = load_game((await store.get_game(board.game_id)).state).log
    assert log[0].move == "d2"
    history = await service.history(board.game_id, GUILD)
    assert history[:2] == [
        "   (White asks for a takeback)",
        f"   (Black accepts the takeback: White's a1 {reply} undone)",
    ]


async def test_a_rated_game_against_the_bot_refuses_the_takeback_of_an_answered_move(
    service, opponent, store
):
    board = await bot_game(service, "shax")  # rated: the default
    await service.move(board.game_id, ALICE, "a1", guild_id=GUILD)
    await opponent.step(board.game_id, GUILD)
    before = await store.get_game(board.game_id)
    events = await store.game_events(board.game_id)
    with pytest.raises(NotAllowed) as refused:
        await service.ask_takeback(board.game_id, ALICE, guild_id=GUILD)
    assert refused.value.message == (
        "The bot has answered your move, and this game is rated: taking back a move with the"
        " bot's answer is for friendly games (challenge the bot with rated:False)."
    )
    after = await store.get_game(board.game_id)
    assert (after.version, after.state) == (before.version, before.state)
    assert await store.game_events(board.game_id) == events  # nothing asked


async def test_a_takeback_against_the_bot_in_a_dice_game_keeps_the_players_roll(
    service, opponent, store, roller
):
    board = await bot_game(service, kind="chebache", options={"rated": False})  # Alice: White
    roller.queued += [(3, 2), (4, 1)]
    await service.roll(board.game_id, ALICE, guild_id=GUILD)
    after_roll = (await store.get_game(board.game_id)).state
    mine = []
    while (await service.board(board.game_id, GUILD, with_image=False)).to_move_user == ALICE:
        move = sorted(await service.legal_moves(board.game_id, GUILD))[0]
        mine.append(move)
        await service.move(board.game_id, ALICE, move, guild_id=GUILD)
    answered = await opponent.step(board.game_id, GUILD)  # the bot rolls 4 1 and moves
    assert answered is not None and answered.to_move_user == ALICE and answered.dice_needed
    theirs = [e.move for e in load_game((await store.get_game(board.game_id)).state).log]
    theirs = [move for move in theirs[len(mine) + 2 :] if move is not None]
    assert theirs  # the bot moved after its roll
    rolls = len(roller.calls)

    asked = await service.ask_takeback(board.game_id, ALICE, guild_id=GUILD)
    assert asked.undone == (*mine, *theirs)
    _, restored = await opponent.answer_takeback(asked, GUILD)
    assert (await store.get_game(board.game_id)).state == after_roll  # her dice, unrolled
    assert restored.to_move_user == ALICE and restored.dice_needed is None
    assert len(roller.calls) == rolls  # no die was rolled again
    with pytest.raises(NotAllowed, match="No roll is due"):
        await service.roll(board.game_id, ALICE, guild_id=GUILD)
