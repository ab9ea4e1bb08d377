"""A knockout bracket: seeded by rating, byes for the top seeds, drawn games replayed.

The bracket has the next power of two of places; seed ``s`` meets seed ``size + 1 - s`` in
the first stage (1-8, 4-5, 2-7, 3-6 for eight), so the seeds that have no opponent (the
field is not a power of two) are the top ones: they pass the first stage by a bye.

A match is one game. A drawn game is replayed with the colours swapped, at most
``MAX_REPLAYS`` times; when the last replay is drawn too, the better seed (the higher rating
when the event started) goes through: our choice, known to everyone before the event,
rather than a game of chance or a faster game the correspondence clock cannot give. In the
first game of a match, White goes to the player with fewer whites than blacks so far,
then to the better seed.

All is worked out from the seeds and the results: the service stores nothing else.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.domain.tournaments.model import DRAW, Pairing, Record, Result, records

MAX_REPLAYS = 2


@dataclass(frozen=True)
class Bracket:
    """Where a knockout stands: the games to play next (none while games are running or
    once it is over), the champion, and the last stage each player reached (1 = the first;
    the champion's is one past the final)."""

    next_games: list[Pairing]
    champion: int | None
    reached: dict[int, int]
    stages: int


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order for ``size`` places (a power of two): 1, 8, 4, 5, 2, 7,
    3, 6 for eight; neighbours meet."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def stages_for(players: int) -> int:
    return max(1, (players - 1).bit_length())


def bracket(
    seeds: Sequence[int], results: Sequence[Result], withdrawn: Collection[int] = ()
) -> Bracket:
    """The knockout among ``seeds`` (best first) after ``results``. A player who withdrew
    loses the match they are in (the service writes that game as a forfeit) and is passed
    over in later stages."""
    stages = stages_for(len(seeds))
    size = 2**stages
    seed_of = {player: number for number, player in enumerate(seeds, 1)}
    entries: list[int | None] = [
        seeds[s - 1] if s <= len(seeds) else None for s in seed_order(size)
    ]
    reached = dict.fromkeys(seeds, 1)
    colours = records(seeds, results, ())
    for stage in range(1, stages + 1):
        winners: list[int | None] = []
        replays: list[Pairing] = []
        for a, b in zip(entries[::2], entries[1::2], strict=True):
            winner, replay = _match(a, b, results, withdrawn, seed_of, colours)
            winners.append(winner)
            if replay is not None:
                replays.append(replay)
        if replays:  # the stage goes on
            return Bracket(replays, None, reached, stages)
        for player in winners:
            if player is not None:
                reached[player] = stage + 1
        entries = winners
    return Bracket([], entries[0], reached, stages)


def _match(
    a: int | None,
    b: int | None,
    results: Sequence[Result],
    withdrawn: Collection[int],
    seed_of: dict[int, int],
    colours: dict[int, Record],
) -> tuple[int | None, Pairing | None]:
    """The winner of the match between ``a`` and ``b`` (None: not decided yet), and the
    game to play next in it."""
    if a is None or b is None:
        return (b if a is None else a), None
    games = sorted((r for r in results if {r.white, r.black} == {a, b}), key=lambda r: r.round)
    for game in games:
        if game.white_points != DRAW:
            return (game.white if game.white_points > DRAW else game.black), None
    better = a if seed_of[a] < seed_of[b] else b
    if a in withdrawn or b in withdrawn:
        if a in withdrawn and b in withdrawn:
            return None, None
        return (b if a in withdrawn else a), None
    if len(games) > MAX_REPLAYS:
        return better, None
    if games:
        last = games[-1]
        return None, Pairing(last.black, last.white)
    worse = b if better == a else a
    if colours[worse].colour_difference < colours[better].colour_difference:
        return None, Pairing(worse, better)
    return None, Pairing(better, worse)
