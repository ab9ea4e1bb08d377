"""What an event is made of, for pairing and standings: players, games played, byes.

Pure data: the store keeps them, the pairing modules (round_robin, swiss, knockout) and
standings read them. A player is an ``int`` (a Discord user id, the bot's included).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

WHITE = "W"  # the first seat of a two-seat game ("White" in every game's board)
BLACK = "B"

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Entrant:
    """A player of an event, with the rating they had when it started (the seed)."""

    player: int
    rating: float


@dataclass(frozen=True)
class Pairing:
    """One game of a round: ``white`` takes the first seat."""

    white: int
    black: int


@dataclass(frozen=True)
class Result:
    """A finished game of round ``round``: ``white_points`` is 1, 0.5 or 0.

    ``forfeit``: not played (a player withdrew): it counts in the points but not as a game
    played for colours or Sonneborn-Berger."""

    round: int
    white: int
    black: int
    white_points: float
    forfeit: bool = False

    @property
    def black_points(self) -> float:
        return WIN - self.white_points

    def points_of(self, player: int) -> float:
        return self.white_points if player == self.white else self.black_points

    def opponent_of(self, player: int) -> int:
        return self.black if player == self.white else self.white


@dataclass(frozen=True)
class Bye:
    """A round without a game: ``points`` is 1 in a Swiss event, 0 for a round robin's rest."""

    round: int
    player: int
    points: float


@dataclass
class Record:
    """A player's event so far, as the pairing needs it."""

    points: float = 0.0
    colours: list[str] = field(default_factory=list)  # of games played, in order
    opponents: set[int] = field(default_factory=set)  # everyone met, forfeits included
    byes: int = 0

    @property
    def colour_difference(self) -> int:
        """Whites minus blacks."""
        return self.colours.count(WHITE) - self.colours.count(BLACK)


def records(
    players: Iterable[int], results: Iterable[Result], byes: Iterable[Bye]
) -> dict[int, Record]:
    """Each player's points, colours, opponents and byes."""
    found: dict[int, Record] = defaultdict(Record)
    for player in players:
        found[player] = Record()
    for result in sorted(results, key=lambda r: r.round):
        for player, colour in ((result.white, WHITE), (result.black, BLACK)):
            record = found[player]
            record.points += result.points_of(player)
            record.opponents.add(result.opponent_of(player))
            if not result.forfeit:
                record.colours.append(colour)
    for bye in byes:
        found[bye.player].points += bye.points
        found[bye.player].byes += 1
    return dict(found)


class NoPairing(ValueError):
    """No legal pairing is left (every pair that may still meet has met): the event ends."""
