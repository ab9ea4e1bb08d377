"""A Swiss round: who plays whom, by a maximum-weight matching (networkx).

The rules are ours, written as weights; the matching is the library's (Edmonds' blossom
algorithm, ``networkx.max_weight_matching``). A pair may meet when they have not met (a
forfeit counts as met) and a colour can be given to each that keeps their whites and blacks
within ``MAX_COLOUR_DIFFERENCE`` of each other. Among the pairings with the most games, the
weights prefer, in this order (each level outweighs everything below it):

1. the higher-ranked players paired, so that the one left over floats down to the next
   players (the ranking: points, then rating);
2. equal points (the squared difference in half points: score groups);
3. colours: each player's whites minus blacks as near 0 as possible afterwards;
4. within a score group, the top half against the bottom half (the fold: 1-5, 2-6, 3-7, 4-8
   in a group of eight), and a player floating down meets the top of the group below.

An odd field gives one player the bye (worth a point): the lowest-ranked player who has not
had one. It is a node of the matching, so a bye that would leave the rest unpairable is
not given.

An event of up to ``WHOLE`` players is matched whole. A larger field is matched in blocks
of about ``BLOCK`` players down the ranking (the matching costs about the cube of its size):
whoever a block leaves unpaired floats into the next one, and when the last block cannot be
paired whole it is merged with the one before and paired again, up to the whole field.
(bench/tournaments.py times a round of 1,000 players: target 1 s.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from bot.domain.tournaments.model import BLACK, WHITE, Entrant, NoPairing, Pairing, Record

MAX_COLOUR_DIFFERENCE = 2
WHOLE = 64  # up to this many players, the field is matched whole
BLOCK = 24  # a larger field is matched in blocks of about this many

# The weight levels: each outweighs the most that every level below it can add up to.
_RANK = 10**9
_SCORE = 10**5
_COLOUR = 10**3
_MOST_SCORE_STEPS = 999
_BYE = "bye"


@dataclass(frozen=True)
class SwissRound:
    pairings: list[Pairing]  # board 1 first
    bye: int | None


def default_rounds(players: int) -> int:
    """The usual length of a Swiss event: ceil(log2 n) + 1 rounds."""
    return math.ceil(math.log2(max(players, 2))) + 1


def ranking(entrants: Sequence[Entrant], records: dict[int, Record]) -> list[Entrant]:
    """The order of pairing: points, then rating, best first."""
    return sorted(entrants, key=lambda e: (-records[e.player].points, -e.rating, e.player))


def pair_swiss(entrants: Sequence[Entrant], records: dict[int, Record]) -> SwissRound:
    """The next round among ``entrants`` (those still playing), given everyone's records.
    ``NoPairing`` when no legal pairing is left."""
    ranked = [e.player for e in ranking(entrants, records)]
    if len(ranked) < 2:
        raise NoPairing("fewer than two players are left")
    pairs, bye = _pair_in_blocks(ranked, records, needs_bye=len(ranked) % 2 == 1)
    return SwissRound(_boards(pairs, ranked, records), bye)


def _block_bounds(count: int) -> list[tuple[int, int]]:
    if count <= WHOLE:
        return [(0, count)]
    starts = list(range(0, count, BLOCK))
    if len(starts) > 1 and count - starts[-1] < BLOCK // 2:
        starts.pop()  # a short remainder joins the block before it
    return [(s, e) for s, e in zip(starts, [*starts[1:], count], strict=True)]


def _pair_in_blocks(
    ranked: list[int], records: dict[int, Record], needs_bye: bool
) -> tuple[list[tuple[int, int]], int | None]:
    place = {player: index for index, player in enumerate(ranked)}
    bounds = _block_bounds(len(ranked))
    done: list[list[tuple[int, int]]] = []  # the pairs of each block paired so far
    carried: list[list[int]] = [[]]  # who floats into each block
    index = 0
    while True:
        start, end = bounds[index]
        last = index == len(bounds) - 1
        members = carried[index] + ranked[start:end]
        pairs, bye, left = _match(members, place, records, needs_bye and last)
        if last and left:
            if index == 0:
                raise NoPairing("no legal pairing is left for this round")
            bounds[index - 1 : index + 1] = [(bounds[index - 1][0], end)]
            index -= 1
            del done[index:], carried[index + 1 :]
            continue
        done.append(pairs)
        if last:
            return [pair for block in done for pair in block], bye
        carried.append(left)
        index += 1


def _networkx() -> ModuleType:
    """networkx, imported on the first pairing rather than with the bot: importing it
    takes 22 MiB (every algorithm and drawing module comes with the package) in every
    process that imports the service, for a round paired now and then (issue 33)."""
    import networkx

    return networkx


def _match(
    members: list[int], place: dict[int, int], records: dict[int, Record], with_bye: bool
) -> tuple[list[tuple[int, int]], int | None, list[int]]:
    """The best pairing of ``members`` (and the bye); who is left unpaired, best first."""
    members = sorted(members, key=place.__getitem__)
    size = len(members)
    bonus = {player: _RANK * (size - i) for i, player in enumerate(members)}
    in_group = _places_in_score_groups(members, records)
    nx = _networkx()
    graph = nx.Graph()
    graph.add_nodes_from(members)
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            cost = _pair_cost(a, b, records, in_group)
            if cost is not None:
                graph.add_edge(a, b, weight=bonus[a] + bonus[b] - cost)
        if with_bye and records[a].byes == 0:
            graph.add_edge(a, _BYE, weight=_RANK * size - bonus[a])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs, bye, paired = [], None, set()
    for a, b in matching:
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            paired.add(bye)
            continue
        paired.update((a, b))
        pairs.append((a, b) if place[a] < place[b] else (b, a))
    left = [p for p in members if p not in paired]
    return pairs, bye, left


def _places_in_score_groups(
    members: list[int], records: dict[int, Record]
) -> dict[int, tuple[int, int]]:
    """Each member's place in their score group among ``members``, and the group's size."""
    groups: dict[float, list[int]] = {}
    for player in members:
        groups.setdefault(records[player].points, []).append(player)
    return {p: (i, len(group)) for group in groups.values() for i, p in enumerate(group)}


def _pair_cost(
    a: int, b: int, records: dict[int, Record], in_group: dict[int, tuple[int, int]]
) -> int | None:
    """What pairing ``a`` (the higher-ranked) with ``b`` costs, or None when they may not meet."""
    if b in records[a].opponents:
        return None
    colours = colours_for(a, b, records)
    if colours is None:
        return None
    _, colour_cost, _ = colours
    steps = round(2 * abs(records[a].points - records[b].points))
    score_cost = min(steps * steps, _MOST_SCORE_STEPS)
    (place_a, size), (place_b, _) = in_group[a], in_group[b]
    # Within a score group, the fold; floating down, the top of the group below.
    fold_cost = abs(abs(place_b - place_a) - size // 2) if steps == 0 else place_b
    return _SCORE * score_cost + _COLOUR * colour_cost + fold_cost


def colours_for(a: int, b: int, records: dict[int, Record]) -> tuple[Pairing, int, bool] | None:
    """Who of ``a`` (the higher-ranked) and ``b`` takes White, what it costs (each one's
    whites minus blacks afterwards, in size), and whether the choice was free (nothing tells
    them apart: the board's number decides). None when no choice keeps both within
    ``MAX_COLOUR_DIFFERENCE``."""
    diff_a, diff_b = records[a].colour_difference, records[b].colour_difference
    allowed = [
        Pairing(white, black)
        for white, black in ((a, b), (b, a))
        if abs(records[white].colour_difference + 1) <= MAX_COLOUR_DIFFERENCE
        and abs(records[black].colour_difference - 1) <= MAX_COLOUR_DIFFERENCE
    ]
    if not allowed:
        return None
    if len(allowed) == 1:
        chosen = allowed[0]
        return chosen, _colour_cost(chosen, records), False
    last_a = records[a].colours[-1] if records[a].colours else None
    last_b = records[b].colours[-1] if records[b].colours else None
    free = False
    if diff_a != diff_b:  # fewer whites so far: White
        a_white = diff_a < diff_b
    elif last_a != last_b:  # the one who had Black last: White
        a_white = last_a == BLACK or last_b == WHITE
    elif last_a is not None:  # the higher-ranked alternates
        a_white = last_a == BLACK
    else:
        a_white, free = True, True
    chosen = Pairing(a, b) if a_white else Pairing(b, a)
    return chosen, _colour_cost(chosen, records), free


def _colour_cost(pairing: Pairing, records: dict[int, Record]) -> int:
    return abs(records[pairing.white].colour_difference + 1) + abs(
        records[pairing.black].colour_difference - 1
    )


def _boards(
    pairs: list[tuple[int, int]], ranked: list[int], records: dict[int, Record]
) -> list[Pairing]:
    """The games in board order (the higher-ranked player's rank), with their colours; a free
    choice gives the higher-ranked player White on odd boards and Black on even ones."""
    place = {player: index for index, player in enumerate(ranked)}
    boards = []
    for number, (a, b) in enumerate(sorted(pairs, key=lambda pair: place[pair[0]])):
        chosen = colours_for(a, b, records)
        assert chosen is not None  # the matching only holds pairs that may meet
        pairing, _, free = chosen
        if free and number % 2 == 1:
            pairing = Pairing(pairing.black, pairing.white)
        boards.append(pairing)
    return boards
