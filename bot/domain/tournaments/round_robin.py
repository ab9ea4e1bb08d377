"""Round robin by the Berger tables, and the double round robin (each pair both ways).

Seed ``1..n`` in the order given (the service gives the players by rating, best first). With
an odd field a dummy takes the last number; whoever is paired with it rests that round (a
bye worth nothing in a round robin). The Berger table (FIDE Handbook C.05, annex 1): the
last number stays put, the others turn round it by ``n/2`` places a round, so that with
``m = n - 1`` the last number meets ``h = ((r - 1) * n/2) mod m + 1`` in round ``r`` (White
in even rounds, Black in odd ones), and the others meet in pairs ``h + i`` (White) against
``h - i`` (Black), counted round ``1..m``. Each player's whites and blacks differ by at most
one.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.tournaments.model import Pairing

Schedule = list[tuple[list[Pairing], int | None]]  # per round: its games, who rests


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` (even) numbers: per round, (white, black) numbers 1..n."""
    if n < 2 or n % 2:
        raise ValueError("a Berger table needs an even number of at least 2")
    m, half = n - 1, n // 2

    def turned(x: int) -> int:
        return (x - 1) % m + 1

    table = []
    for r in range(1, n):
        head = ((r - 1) * half) % m + 1
        games = [(n, head) if r % 2 == 0 else (head, n)]
        games += [(turned(head + i), turned(head - i)) for i in range(1, half)]
        table.append(games)
    return table


def round_robin(players: Sequence[int], cycles: int = 1) -> Schedule:
    """Every round of the event: ``cycles`` 2 is the double round robin, whose second half
    repeats the first with the colours swapped."""
    if len(players) < 2:
        raise ValueError("a round robin needs at least 2 players")
    numbered = list(players) + ([None] if len(players) % 2 else [])
    single: Schedule = []
    for numbers in berger_numbers(len(numbered)):
        games, rests = [], None
        for white, black in numbers:
            a, b = numbered[white - 1], numbered[black - 1]
            if a is None or b is None:
                rests = b if a is None else a
            else:
                games.append(Pairing(a, b))
        single.append((games, rests))
    schedule = list(single)
    for cycle in range(1, cycles):
        for games, rests in single:
            swapped = [Pairing(g.black, g.white) if cycle % 2 else g for g in games]
            schedule.append((swapped, rests))
    return schedule
