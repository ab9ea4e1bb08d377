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
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games import Game

from .service import NotAllowed, ServiceError, _check_pending, _new_game, _parse_game
from .storage import GameStore
from .store import ChallengeRow, GameRow

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
