"""The table of an event and its tie-breaks (bot/domain/tournaments/standings.py), on small
events worked out by hand."""

from __future__ import annotations

from bot.domain.tournaments.knockout import bracket
from bot.domain.tournaments.model import Bye, Entrant, Result
from bot.domain.tournaments.standings import standings

A, B, C, D, E = 1, 2, 3, 4, 5


def test_swiss_of_five_with_byes():
    entrants = [Entrant(A, 1600), Entrant(B, 1550), Entrant(C, 1500), Entrant(D, 1450),
                Entrant(E, 1400)]  # fmt: skip
    results = [
        Result(1, A, D, 1.0),
        Result(1, B, E, 0.5),
        Result(2, C, A, 0.0),
        Result(2, D, B, 0.0),
        Result(3, A, B, 0.5),
        Result(3, E, C, 0.0),
    ]
    byes = [Bye(1, C, 1.0), Bye(2, E, 1.0), Bye(3, D, 1.0)]
    table = standings(entrants, results, byes)
    # Points: A 1 + 1 + 1/2 = 2.5; B 1/2 + 1 + 1/2 = 2; C 1 (bye) + 0 + 1 = 2;
    # E 1/2 + 1 (bye) + 0 = 1.5; D 0 + 0 + 1 (bye) = 1.
    # Buchholz cut-1 (a bye counts as an opponent with the player's own points):
    #   A: D 1, C 2, B 2 -> 5 - 1 = 4;     B: E 1.5, D 1, A 2.5 -> 5 - 1 = 4
    #   C: bye 2, A 2.5, E 1.5 -> 6 - 1.5 = 4.5;  D: A 2.5, B 2, bye 1 -> 5.5 - 1 = 4.5
    #   E: B 2, bye 1.5, C 2 -> 5.5 - 1.5 = 4
    # Sonneborn-Berger: A: D 1 + C 2 + B 2/2 = 4; B: E 1.5/2 + D 1 + A 2.5/2 = 3;
    #   C: E 1.5 = 1.5; D: 0; E: B 2/2 = 1.
    # B and C are equal on points; C's Buchholz is higher.
    assert [
        (s.place, s.player, s.points, s.buchholz, s.sonneborn_berger, s.games) for s in table
    ] == [
        (1, A, 2.5, 4.0, 4.0, 3),
        (2, C, 2.0, 4.5, 1.5, 2),
        (3, B, 2.0, 4.0, 3.0, 3),
        (4, E, 1.5, 4.0, 1.0, 2),
        (5, D, 1.0, 4.5, 0.0, 2),
    ]


def test_direct_encounter_then_rating():
    # A round robin of four (pairs in order 1-2, 1-3, 1-4, 2-3, 2-4, 3-4):
    # A beats B, draws C, beats D; B loses to C, draws D; C loses to D.
    entrants = [Entrant(A, 1500), Entrant(B, 1450), Entrant(C, 1400), Entrant(D, 1350)]
    results = [
        Result(1, A, B, 1.0),
        Result(2, A, C, 0.5),
        Result(3, A, D, 1.0),
        Result(3, B, C, 0.0),
        Result(2, B, D, 0.5),
        Result(1, C, D, 0.0),
    ]
    table = standings(entrants, results, [])
    # Points: A 2.5, B 0.5, C 1/2 + 1 + 0 = 1.5, D 0 + 1/2 + 1 = 1.5.
    # Buchholz cut-1: C: A 2.5 + B 0.5 + D 1.5 - 0.5 = 4; D: A 2.5 + B 0.5 + C 1.5 - 0.5 = 4.
    # Sonneborn-Berger: C: A 2.5/2 + B 0.5 = 1.75; D: C 1.5 + B 0.5/2 = 1.75.
    # Equal so far; D beat C: D's direct encounter 1, C's 0, and D is placed above C
    # although C is rated higher.
    assert [(s.player, s.points, s.buchholz, s.sonneborn_berger, s.direct) for s in table] == [
        (A, 2.5, 3.0, 2.75, 0.0),
        (D, 1.5, 4.0, 1.75, 1.0),
        (C, 1.5, 4.0, 1.75, 0.0),
        (B, 0.5, 4.0, 0.75, 0.0),
    ]
    assert [s.place for s in table] == [1, 2, 3, 4]


def test_rating_last_and_shared_places():
    entrants = [Entrant(A, 1500), Entrant(B, 1600), Entrant(C, 1500)]
    table = standings(entrants, [], [])
    # Nobody played: the rating alone orders; A and C are equal on everything.
    assert [(s.place, s.player) for s in table] == [(1, B), (2, A), (2, C)]


def test_forfeits_count_in_points_not_in_sonneborn_berger():
    entrants = [Entrant(A, 1500), Entrant(B, 1400), Entrant(C, 1300)]
    results = [Result(1, A, B, 1.0), Result(2, C, A, 0.0, forfeit=True)]
    table = standings(entrants, results, [], withdrawn={C})
    by_player = {s.player: s for s in table}
    # A: 2 points; Buchholz: B 0 and the forfeit as A's own 2, less the lowest: 2.
    # Sonneborn-Berger: B's 0 points only.
    assert (by_player[A].points, by_player[A].buchholz, by_player[A].sonneborn_berger) == (
        2.0,
        2.0,
        0.0,
    )
    assert by_player[C].withdrawn and by_player[C].games == 1


def test_knockout_table_orders_by_the_stage_reached():
    entrants = [Entrant(A, 1600), Entrant(B, 1500), Entrant(C, 1400), Entrant(D, 1300)]
    results = [Result(1, A, D, 0.0), Result(1, B, C, 1.0), Result(2, D, B, 1.0)]
    state = bracket([A, B, C, D], results)
    assert state.champion == D
    table = standings(entrants, results, [], first=state.reached)
    # D won twice (the champion), B reached the final, A and C lost in the first stage.
    # A and C: no points, Buchholz cut-1 of one opponent 0, Sonneborn-Berger 0: the higher
    # rating, A, first.
    assert [s.player for s in table] == [D, B, A, C]
