"""The table of an event: points, then the tie-breaks Buchholz cut-1, Sonneborn-Berger,
direct encounter, and rating.

- Points: 1 a win, 1/2 a draw, 0 a loss; a forfeit counts like the game; a Swiss bye 1, a
  round robin's rest 0.
- Buchholz cut-1: the sum of the opponents' points, less the lowest of them. A round
  without a game played (a bye, a forfeit) counts as an opponent with the player's own
  points (FIDE's rule for unplayed games, C.07 16.2.5, simplified).
- Sonneborn-Berger: over the games played, each opponent's points times what the player
  scored against them (all of a beaten opponent's points, half of a drawn one's).
- Direct encounter: among the players equal on everything above, the points each scored
  against the others of that group.
- Rating: the rating the player had when the event started, higher first.

Players equal on everything share a place. ``first`` puts a key before the points (a
knockout's stage reached).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.domain.tournaments.model import Bye, Entrant, Result


@dataclass(frozen=True)
class Standing:
    place: int
    player: int
    points: float
    buchholz: float
    sonneborn_berger: float
    direct: float
    rating: float
    games: int  # results, forfeits included; byes not
    withdrawn: bool = False


def standings(
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    byes: Sequence[Bye],
    *,
    withdrawn: Collection[int] = (),
    first: Mapping[int, int] | None = None,
) -> list[Standing]:
    """The table, first place first."""
    players = [e.player for e in entrants]
    rating = {e.player: e.rating for e in entrants}
    points = _points(players, results, byes)
    sonneborn = dict.fromkeys(players, 0.0)
    games = dict.fromkeys(players, 0)
    faced: dict[int, list[float]] = {p: [] for p in players}
    for result in results:
        white, black, scored = result.white, result.black, result.white_points
        for player, opponent, own in ((white, black, scored), (black, white, 1.0 - scored)):
            scores = faced.get(player)
            if scores is None:
                continue
            games[player] += 1
            if result.forfeit:  # unplayed: an opponent with the player's own points
                scores.append(points[player])
                continue
            opponent_points = points.get(opponent, 0.0)
            scores.append(opponent_points)
            sonneborn[player] += own * opponent_points
    for bye in byes:
        if bye.player in faced:
            faced[bye.player].append(points[bye.player])
    buchholz = {p: sum(scores) - min(scores) if scores else 0.0 for p, scores in faced.items()}
    stage = first or {}
    before_direct = {
        p: (-stage.get(p, 0), -points[p], -buchholz[p], -sonneborn[p]) for p in players
    }
    direct = _direct_encounters(players, results, before_direct.__getitem__)
    key = {p: (*before_direct[p], -direct[p], -rating[p]) for p in players}

    table, place, previous = [], 0, None
    for index, player in enumerate(sorted(players, key=lambda p: (key[p], p))):
        if key[player] != previous:
            place, previous = index + 1, key[player]
        table.append(
            Standing(
                place=place,
                player=player,
                points=points[player],
                buchholz=buchholz[player],
                sonneborn_berger=sonneborn[player],
                direct=direct[player],
                rating=rating[player],
                games=games[player],
                withdrawn=player in withdrawn,
            )
        )
    return table


def _points(
    players: Sequence[int], results: Sequence[Result], byes: Sequence[Bye]
) -> dict[int, float]:
    points = dict.fromkeys(players, 0.0)
    for result in results:
        points[result.white] = points.get(result.white, 0.0) + result.white_points
        points[result.black] = points.get(result.black, 0.0) + 1.0 - result.white_points
    for bye in byes:
        points[bye.player] = points.get(bye.player, 0.0) + bye.points
    return points


def _direct_encounters(players, results, key) -> dict[int, float]:
    """Points scored in played games against the others equal on ``key``."""
    group_of = {player: key(player) for player in players}
    direct = dict.fromkeys(players, 0.0)
    for result in results:
        if result.forfeit or result.white not in group_of or result.black not in group_of:
            continue
        if group_of[result.white] == group_of[result.black]:
            direct[result.white] += result.white_points
            direct[result.black] += result.black_points
    return direct
