"""The loop back to the next game (issue 15): rematches and open challenges.

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

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.domain.actions import _new_game, _parse_game
from bot.domain.service import NotAllowed, ServiceError, _check_pending
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
    _check_pending(row, now)
    return replace(row, opponent_id=user_id)


def too_late(row: ChallengeRow) -> ServiceError:
    """For whoever accepts a challenge someone else has just taken."""
    game = f" (game #{row.game_id})" if row.game_id else ""
    if row.partners == (None, None) and row.opponent_id is not None:
        return ServiceError(f"Too late: <@{row.opponent_id}> accepted this challenge first{game}.")
    return ServiceError(f"Too late: this challenge was already accepted{game}.")


# ---- rematches -------------------------------------------------------------------


async def create_rematch(
    store: GameStore, row: GameRow, user_id: int, now: float, ttl: float
) -> int:
    """The rematch of the finished game ``row``, asked for by ``user_id``: the new
    challenge's id. Refused for anyone but its players, before its end, after the timeout
    and while another rematch of it is pending or accepted."""
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
    game = _parse_game(row, full_check=False)
    players, variants = swapped_seats(game, row.players, row.variants)
    new_game = _new_game(type(game), variants, len(players))  # validates the seating
    mine = _team(game, row.players, row.players.index(user_id))
    theirs = next(
        _team(game, row.players, seat)
        for seat in range(len(row.players))
        if row.players[seat] not in mine
    )
    partner = next((user for user in mine if user != user_id), None)
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
        options=_swapped_options(row, players, new_game.seat_names[players.index(user_id)]),
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
        note = fixed_seats(row, _new_game(cls, row.variants, len(row.seats)))
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
