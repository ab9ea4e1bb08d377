"""Challenges (``Challenges``: made, accepted, declined, for the service), and the loop back
to the next game (issue 15): rematches and open challenges.

Rematch
    Any player of a finished game may ask for its rematch (the button on its final board)
    until the challenge timeout has passed since the game ended (its last update). The
    rematch is the same challenge (game, variants, options, partners) with the sides
    swapped, sent by the player who asked to everyone else in the game; they accept as any
    challenge is accepted. The challenge fixes the seats (``ChallengeRow.seats``):

    - a two-seat game: each player takes the other's seat; everything else stays, so in
      Poron Jikaida the colours swap and so does who moves first (the same seat starts);
    - Šačidjun: the sides swap (veradi plays tameg and tameg veradi), each pair keeping its
      raža and čadra players; a three-player game keeps its pair (``tameg-pair`` follows).

    A game has at most one rematch pending or accepted at a time (a unique index: two clicks
    at the same instant make one challenge); a declined or expired one may be asked again.
    A rematch is a challenge: it passes every check a challenge command passes
    (``Challenges.allowed_options``: the game turned on and challenges allowed in the game's
    channel by the server's settings, the bot's seats and levels, the time per move) and
    takes the server's clock as any new challenge does (its grace, a time no challenge can
    choose replaced by the default).

Open challenges
    A challenge without an opponent is open to anyone in the channel: the first to accept
    plays (the accepting transaction writes them in as the opponent, only while the
    challenge is still open), never the challenger. It expires like any challenge. An open
    challenge is one against one: a team game (Šačidjun with partners) names its players.

Seats
    When everyone invited has accepted, ``seat_players`` gives the seats: fixed by the
    challenge (a rematch), drawn by dice as the game's text says (Šačidjun's sides), chosen
    apart as colour and first move (Poron Jikaida), or by the ``first`` option.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from functools import partial
from typing import Any

from bot.config import Settings
from bot.domain import bot_seats, clocks, hints
from bot.domain.actions import game_class_named, known_game_class, new_game, parse_game, title_of
from bot.domain.server_settings import Refused, ServerSettings
from bot.domain.views import (
    BoardView,
    ChallengeView,
    Fields,
    NotAllowed,
    NotFound,
    ServiceError,
)
from bot.storage import GameStore
from bot.storage.rows import ChallengeRow, GameRow
from games import Game
from games.base import DiceSpec

Roll = Callable[[DiceSpec], tuple[int, ...]]  # the service's dice, rolled server-side

OPEN_IS_ONE_AGAINST_ONE = (
    "An open challenge is one against one: to play with partners, name your opponent too."
)


# ---- open challenges -------------------------------------------------------------


def take_open(row: ChallengeRow, user_id: int, now: float) -> ChallengeRow:
    """The open challenge as ``user_id`` would take it (not written yet: the store's
    ``accept_challenge(taken_by=...)`` does, if nobody was faster)."""
    if user_id == row.challenger_id:
        raise NotAllowed(
            "This is your own open challenge: someone else must accept it (Decline withdraws it)."
        )
    check_pending(row, now)
    return replace(row, opponent_id=user_id)


def too_late(row: ChallengeRow) -> ServiceError:
    """For whoever accepts a challenge someone else has just taken."""
    game = f" (game #{row.game_id})" if row.game_id else ""
    if row.partners == (None, None) and row.opponent_id is not None:
        return ServiceError(f"Too late: <@{row.opponent_id}> accepted this challenge first{game}.")
    return ServiceError(f"Too late: this challenge was already accepted{game}.")


# ---- rematches -------------------------------------------------------------------


# The checks of any new challenge, given who is invited, the bots and the options: the
# options it is made with (``Challenges.allowed_options`` for the game's guild, game, channel).
Allowed = Callable[[Iterable[int], Iterable[int], dict[str, Any]], Awaitable[dict[str, Any]]]


async def create_rematch(
    store: GameStore, row: GameRow, user_id: int, now: float, ttl: float, allowed: Allowed
) -> int:
    """The rematch of the finished game ``row``, asked for by ``user_id``: the new
    challenge's id. Refused for anyone but its players, before its end, after the timeout
    and while another rematch of it is pending or accepted; and, being a challenge, when
    any challenge would be (``allowed``: the server's settings, the bot's levels)."""
    if user_id not in row.players:
        raise NotAllowed(f"Only the players of game #{row.id} can ask for its rematch.")
    if row.status != "finished":
        raise NotAllowed(f"Game #{row.id} is not over yet: a rematch comes after its end.")
    if now >= row.updated_at + ttl:
        raise ServiceError(
            f"The rematch of game #{row.id} could be asked for until"
            f" <t:{int(row.updated_at + ttl)}:f>: send a new challenge instead."
        )
    await _refuse_second(store, row.id)
    game = parse_game(row, full_check=False)
    players, variants = swapped_seats(game, row.players, row.variants)
    rematch_game = new_game(type(game), variants, len(players))  # validates the seating
    mine = _team(game, row.players, row.players.index(user_id))
    theirs = next(
        _team(game, row.players, seat)
        for seat in range(len(row.players))
        if row.players[seat] not in mine
    )
    partner = next((user for user in mine if user != user_id), None)
    invited = [user for user in (theirs[0], partner, *theirs[1:2]) if user is not None]
    colour = rematch_game.seat_names[players.index(user_id)]
    options = _swapped_options(row, players, colour)
    if options.get("time") not in dict(clocks.TIME_CHOICES).values():
        options.pop("time", None)  # the bot's own default, not a choice: the default again
    options = await allowed(invited, _bot_users(row), options)
    challenge_id = await store.insert_rematch(
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        kind=row.kind,
        variants=variants,
        challenger_id=user_id,
        opponent_id=theirs[0],
        first="me" if players[0] == user_id else "them",
        status="pending",
        created_at=now,
        expires_at=now + ttl,
        partners=(partner, theirs[1] if len(theirs) > 1 else None),
        accepted=(),
        options=options,
        seats=players,
        rematch_of=row.id,
    )
    if challenge_id is None:  # someone asked at the same instant
        await _refuse_second(store, row.id)
        raise ServiceError(f"A rematch of game #{row.id} was just asked for.")
    return challenge_id


async def _refuse_second(store: GameStore, game_id: int) -> None:
    other = await store.rematch_of(game_id)
    if other is None:
        return
    if other.status == "accepted":
        raise ServiceError(f"Game #{game_id} was already rematched: game #{other.game_id}.")
    raise ServiceError(
        f"A rematch of game #{game_id} is already waiting for an answer"
        f" (challenge #{other.id}, sent by <@{other.challenger_id}>)."
    )


def swapped_seats(
    game: Game, players: tuple[int, ...], variants: tuple[str, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The players per seat and the variants of the game with its sides swapped."""
    seating = getattr(type(game), "seating", None)
    if callable(seating):  # sides of one or two players (Šačidjun): veradi <-> tameg
        sides = [
            tuple(user for seat, user in enumerate(players) if game.team_of(seat) == side)
            for side in (0, 1)
        ]
        _, old = seating(sides[0], sides[1])
        new_players, new = seating(sides[1], sides[0])
        return tuple(new_players), tuple(sorted(set(variants) - set(old) | set(new)))
    if len(players) != 2:
        raise ServiceError("Only two-player games and Šačidjun have rematches.")
    return (players[1], players[0]), tuple(variants)


def _team(game: Game, players: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The players of ``seat``'s side, in seat order."""
    side = game.team_of(seat)
    return tuple(user for s, user in enumerate(players) if game.team_of(s) == side)


def _bot_users(row: GameRow) -> list[int]:
    """The users holding the game's bot seats (``bot_levels``)."""
    seats = sorted(bot_seats.seats_of(row.options))
    return [row.players[seat] for seat in seats if seat < len(row.players)]


def _swapped_options(row: GameRow, players: tuple[int, ...], colour: str) -> dict[str, Any]:
    """The game's options for the rematch: the same, but the colour the asker now plays
    (a ``colour`` choice) and the bot levels' seats (``bot_levels``) follow the swap."""
    options = dict(row.options)
    if "colour" in options:
        options["colour"] = colour.lower()
    levels = options.get("bot_levels")
    if isinstance(levels, dict):
        moved = {}
        for seat, level in levels.items():
            if str(seat).isdigit() and int(seat) < len(row.players):
                moved[str(players.index(row.players[int(seat)]))] = level
        options["bot_levels"] = moved
    return options


def fixed_seats(row: ChallengeRow, game: Game) -> tuple[str, str]:
    """The note on the first board of a game whose challenge fixed the seats."""
    seats = row.seats or ()
    who = ", ".join(f"<@{user}> {game.seat_names[seat]}" for seat, user in enumerate(seats))
    if row.rematch_of is not None:
        return ("Sides", f"Rematch of game #{row.rematch_of}, sides swapped: {who}")
    return ("Sides", who)


# ---- seats, when everyone invited has accepted ----------------------------------


def seat_players(
    row: ChallengeRow, cls: type[Game], roll: Roll
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, str]]:
    """User ids per seat, the game's variants, and a (label, note) field saying how the
    seats were given; ``roll``: the service's dice."""
    if row.seats:  # fixed by the challenge (a rematch)
        note = fixed_seats(row, new_game(cls, row.variants, len(row.seats)))
        return row.seats, row.variants, note
    seating = getattr(cls, "seating", None)
    if callable(seating):
        return _draw_sides(row, seating, roll)
    if "colour" in row.options:
        return _colours_and_first(row, cls, roll)
    if row.first == "random":
        (die,) = roll(DiceSpec(1, 2))
        white = row.challenger_id if die == 1 else row.opponent_id
        how = "drawn at random"
    else:
        white = row.challenger_id if row.first == "me" else row.opponent_id
        how = f"chosen by <@{row.challenger_id}>"
    black = row.opponent_id if white == row.challenger_id else row.challenger_id
    note = f"{how}: <@{white}> plays {cls.seat_names[0]}"
    return (white, black), row.variants, ("First move", note)


def _colours_and_first(
    row: ChallengeRow, cls: type[Game], roll: Roll
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, str]]:
    """Games where the colour and who moves first are chosen apart (Poron Jikaida): the
    challenger's ``colour`` option picks the seat, ``first`` who starts; ``random``
    either way is drawn by the server. A second seat that starts adds the class's
    ``second_seat_first`` variant."""
    me, them = row.challenger_id, row.opponent_id
    names = [name.lower() for name in cls.seat_names]
    colour = row.options["colour"]
    if colour == "random":
        colour = names[roll(DiceSpec(1, 2))[0] - 1]
        how = "drawn at random"
    else:
        how = f"chosen by <@{me}>"
    players = (me, them) if colour == names[0] else (them, me)
    first = row.first
    if first == "random":
        first = ("me", "them")[roll(DiceSpec(1, 2))[0] - 1]
        first_how = "drawn at random"
    else:
        first_how = f"chosen by <@{me}>"
    starter = me if first == "me" else them
    variants = set(row.variants)
    if players.index(starter) == 1 and cls.second_seat_first:
        variants.add(cls.second_seat_first)
    note = (
        f"Colours {how}: <@{players[0]}> plays {cls.seat_names[0]}, "
        f"<@{players[1]}> {cls.seat_names[1]}.\n"
        f"First move {first_how}: <@{starter}> ({cls.seat_names[players.index(starter)]})."
    )
    return players, tuple(sorted(variants)), ("Sides", note)


def _draw_sides(
    row: ChallengeRow,
    seating: Callable[..., tuple[tuple[int, ...], tuple[str, ...]]],
    roll: Roll,
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, str]]:
    """Šačidjun's draw, as the text says: "Each side rolls a single die to see whether
    they will play veradi or tameg. (High roll gets veradi.) If two people are playing
    on one side, then they roll to see who will play raža and čadra. (High roll gets
    raža.)" Ties are rolled again; every roll is shown."""
    mine, theirs = row.teams
    lines: list[str] = []
    high, _ = _roll_off(mine, theirs, lines, roll)
    veradi, tameg = (mine, theirs) if high == 0 else (theirs, mine)
    lines[-1] += f" → {' and '.join(f'<@{user}>' for user in veradi)} veradi"
    teams = []
    for team in (veradi, tameg):
        if len(team) == 2:
            first, _ = _roll_off((team[0],), (team[1],), lines, roll)
            team = team if first == 0 else (team[1], team[0])
            lines[-1] += f" → <@{team[0]}> raža, <@{team[1]}> čadra"
        teams.append(team)
    players, variants = seating(*teams)
    return players, tuple(sorted({*row.variants, *variants})), ("Sides drawn", "\n".join(lines))


def _roll_off(
    first: tuple[int, ...], second: tuple[int, ...], lines: list[str], roll: Roll
) -> tuple[int, int]:
    """Each of two sides (or players) rolls a d8 until the rolls differ; returns
    (index of the high roller, index of the low one) and notes every roll."""
    names = [" and ".join(f"<@{user}>" for user in team) for team in (first, second)]
    while True:
        a, b = roll(DiceSpec(2, 8))
        lines.append(f"{names[0]} {a}, {names[1]} {b}" + (" (tie, again)" if a == b else ""))
        if a != b:
            return (0, 1) if a > b else (1, 0)


# ---- the service's challenges ----------------------------------------------------

FIRST_CHOICES = ("me", "them", "random")

RulesOf = Callable[[int], Awaitable[ServerSettings]]  # a guild's server settings
# A new turn's deadlines: (guild, the game's options, the user to move, now) -> columns.
TurnColumns = Callable[[int, dict[str, Any], int | None, float], Awaitable[dict[str, Any]]]
Started = Callable[[int, int, Fields], Awaitable[BoardView]]  # (game, guild, note) -> board


class Challenges:
    """Challenges made, accepted, declined and rematched, for the service: over its store,
    clock and settings (``claim_after``: the default time per move; ``challenge_ttl``).
    ``bot_user_id``: the bot's own user (``bot_seats.py``); ``roll``: the service's dice;
    ``rules_of``: a server's settings; ``turn_columns``: a new turn's deadlines;
    ``started``: the board of a game just started, with a note."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        settings: Settings,
        *,
        bot_user_id: int | None,
        roll: Roll,
        rules_of: RulesOf,
        turn_columns: TurnColumns,
        started: Started,
    ):
        self._store = store
        self._clock = clock
        self._settings = settings
        self.bot_user_id = bot_user_id
        self._roll = roll
        self._rules_of = rules_of
        self._turn_columns = turn_columns
        self._started = started

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        challenger_id: int,
        opponent_id: int | None,
        opponent_is_bot: bool = False,
        first: str = "random",
        variants: Iterable[str] = (),
        partner_id: int | None = None,
        opponent_partner_id: int | None = None,
        bots: Iterable[int] = (),
        options: dict[str, Any] | None = None,
        parent_channel_id: int | None = None,
    ) -> ChallengeView:
        """A challenge to ``opponent_id``; team games may name a partner for either side
        (every invited player must accept). ``bots``: invited users who are bots; only the
        bot's own user may play (any number of seats), with a ``level`` option. Without an
        opponent, the challenge is open (this module's text): one against one.
        ``options["time"]``: seconds per move (default: the server's); the server's settings
        may refuse the game or the channel (``parent_channel_id``: a thread's channel)."""
        partners = (partner_id, opponent_partner_id)
        if opponent_id is None and partners != (None, None):
            raise NotAllowed(OPEN_IS_ONE_AGAINST_ONE)
        invited = [p for p in (opponent_id, *partners) if p is not None]
        bots = [*bots, *([opponent_id] if opponent_is_bot and opponent_id is not None else [])]
        if challenger_id in invited:
            raise NotAllowed("You cannot challenge yourself or be your own partner.")
        people = [user for user in invited if user != self.bot_user_id]
        if len(set(people)) != len(people):
            raise NotAllowed("Each player can take only one place in a game.")
        if first not in FIRST_CHOICES:
            raise ServiceError("Who moves first must be `me`, `them` or `random`.")
        cls = game_class_named(kind)
        seats = 1 + max(len(invited), 1)  # an open challenge has one place
        if seats not in cls.seat_counts:
            raise ServiceError(f"{cls.title} is not played with partners.")
        chosen = tuple(sorted(set(variants)))
        new_game(cls, chosen, seats)  # validates variants and the seat count
        colour = (options or {}).get("colour")
        colours = [name.lower() for name in cls.seat_names[:2]]
        if colour is not None and colour not in (*colours, "random"):
            raise ServiceError(f"The colour must be {' or '.join(colours)} or random.")
        here = (channel_id, parent_channel_id or channel_id)
        options = await self.allowed_options(guild_id, cls.key, here, invited, bots, options or {})
        now = self._clock()
        challenge_id = await self._store.insert_challenge(
            guild_id=guild_id,
            channel_id=channel_id,
            kind=cls.key,
            variants=chosen,
            challenger_id=challenger_id,
            opponent_id=opponent_id,
            first=first,
            status="pending",
            created_at=now,
            expires_at=now + self._settings.challenge_ttl,
            partners=partners,
            options=options,
        )
        return await self.get(challenge_id)

    async def allowed_options(
        self,
        guild_id: int,
        kind: str,
        channel_ids: tuple[int, ...],
        invited: Iterable[int],
        bots: Iterable[int],
        options: dict[str, Any],
    ) -> dict[str, Any]:
        """What a new challenge must pass, whoever makes it (a challenge command, a
        rematch): hints only in a friendly game (``hints.check_challenge``), the bot's seats
        and levels (``bot_seats.check_challenge``), then the
        server's settings (the game turned on, challenges allowed in the channel or the
        thread's channel, ``channel_ids``; the time per move): the options with the clock.
        ``NotAllowed``/``ServiceError`` say why not."""
        try:
            options = hints.check_challenge(options)
            options = bot_seats.check_challenge(self.bot_user_id, list(invited), bots, options)
        except ValueError as error:
            raise NotAllowed(str(error)) from None
        rules = await self._rules_of(guild_id)
        try:
            by_default = self._settings.claim_after  # the time per move
            return rules.challenge_options(kind, channel_ids, options, by_default)
        except Refused as refused:
            raise NotAllowed(str(refused)) from None
        except clocks.ClockError as error:
            raise ServiceError(str(error)) from None

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        if not await self._store.update_challenge(challenge_id, message_id=message_id):
            raise not_found(challenge_id)

    async def get(self, challenge_id: int) -> ChallengeView:
        row = await self._challenge(challenge_id)
        return challenge_view(row, self._clock())

    async def accept(self, challenge_id: int, user_id: int) -> BoardView | ChallengeView:
        """An invited player accepts. The game starts (a ``BoardView``) once everyone invited
        has accepted; until then the challenge (a ``ChallengeView``) says who is missing.
        An open challenge is taken by the first to accept (this module's text)."""
        row = await self._challenge(challenge_id)
        taker = None
        if row.is_open:
            row, taker = take_open(row, user_id, self._clock()), user_id
        elif user_id not in row.invited and row.status == "accepted":
            raise too_late(row)
        if user_id not in row.invited:
            who = ", ".join(f"<@{user}>" for user in row.invited)
            raise NotAllowed(f"Only {who} can accept this challenge.")
        if user_id in row.accepted:
            raise NotAllowed("You have already accepted; the others still have to.")
        now = self._clock()
        check_pending(row, now)
        accepted = (*row.accepted, user_id)
        if set(row.invited) - set(accepted):
            if not await self._store.update_challenge(
                challenge_id,
                expected_status="pending",
                expected_accepted=row.accepted,
                accepted=accepted,
            ):
                check_pending(await self._challenge(challenge_id), now)
                raise ServiceError("Someone else answered at the same moment; click again.")
            return await self.get(challenge_id)
        cls = game_class_named(row.kind)
        players, variants, first_note = seat_players(row, cls, self._roll)
        game = new_game(cls, variants, len(players))
        mover = None if game.to_move is None else players[game.to_move]
        options = bot_seats.game_options(row.options, players, self.bot_user_id)
        game_id = await self._store.accept_challenge(
            challenge_id,
            now,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            kind=cls.key,
            variants=variants,
            players=players,
            state=game.to_json(),
            version=1,
            status="active",
            created_at=now,
            updated_at=now,
            options=options,
            taken_by=taker,
            **await self._turn_columns(row.guild_id, row.options, mover, now),
        )
        if game_id is None:  # answered or expired meanwhile
            fresh = await self._challenge(challenge_id)
            if taker is not None and fresh.status == "accepted":
                raise too_late(fresh)
            check_pending(fresh, now)
            raise ServiceError("This challenge can no longer be accepted.")
        timeout = bot_seats.timeout_line(options)
        told = (first_note, *([(bot_seats.TIMEOUT_LABEL, timeout)] if timeout else []))
        return await self._started(game_id, row.guild_id, told)

    async def decline(self, challenge_id: int, user_id: int) -> ChallengeView:
        """The challenged player declines (or the challenger withdraws)."""
        row = await self._challenge(challenge_id)
        if user_id != row.challenger_id and user_id not in row.invited:
            raise NotAllowed("This is not your challenge.")
        now = self._clock()
        check_pending(row, now)
        if not await self._store.update_challenge(
            challenge_id, expected_status="pending", status="declined"
        ):
            check_pending(await self._challenge(challenge_id), now)
        return await self.get(challenge_id)

    async def rematch(self, row: GameRow, user_id: int) -> ChallengeView:
        """A player of the finished game ``row`` asks for its rematch (``create_rematch``)."""
        ttl = self._settings.challenge_ttl
        allowed = partial(self.allowed_options, row.guild_id, row.kind, (row.channel_id,))
        challenge_id = await create_rematch(self._store, row, user_id, self._clock(), ttl, allowed)
        return await self.get(challenge_id)

    async def _challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self._store.get_challenge(challenge_id)
        if row is None:
            raise not_found(challenge_id)
        return row


def not_found(challenge_id: int) -> NotFound:
    return NotFound(f"There is no challenge #{challenge_id}.")


# ---- challenges as the service checks and shows them ------------------------------


def check_pending(row: ChallengeRow, now: float) -> None:
    if row.status == "expired" or (row.status == "pending" and now >= row.expires_at):
        raise ServiceError("This challenge has expired.")
    if row.status != "pending":
        raise ServiceError(f"This challenge was already {row.status}.")


def challenge_view(row: ChallengeRow, now: float) -> ChallengeView:
    expired = row.status == "pending" and now >= row.expires_at
    cls = known_game_class(row.kind)
    seat_names: tuple[str, ...] = ()
    if row.seats and cls is not None:
        seat_names = tuple(new_game(cls, row.variants, len(row.seats)).seat_names)
    return ChallengeView(
        challenge_id=row.id,
        kind=row.kind,
        title=title_of(row.kind),
        variants=row.variants,
        challenger_id=row.challenger_id,
        opponent_id=row.opponent_id,
        first=row.first,
        status="expired" if expired else row.status,
        expires_at=row.expires_at,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        teams=row.teams,
        invited=row.invited,
        accepted=row.accepted,
        options=tuple(sorted(row.options.items())),
        draws_sides=callable(getattr(cls, "seating", None)) and not row.seats,
        seats=row.seats or (),
        seat_names=seat_names,
        rematch_of=row.rematch_of,
        time=row.options.get("time") if isinstance(row.options.get("time"), int) else None,
    )
