"""A takeback restores exactly the position it goes back to, in every game (``bot/takebacks``).

Seeded random games of each kind: whenever the last entry of the log is a move, the takeback
its player could ask for goes back to a position seen during the game (kept as it was, JSON),
just after the player's roll in dice games, with no roll due."""

from __future__ import annotations

import random

import pytest

from bot.domain.service import NotAllowed
from bot.domain.takebacks import plan_for, restored
from games import GAMES, new_game

SETUPS = [(key, None) for key in GAMES] + [("sachidjun", 3), ("sachidjun", 4)]


@pytest.mark.parametrize(("key", "seats"), SETUPS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_takeback_goes_back_to_a_position_of_the_game(key, seats, seed):
    rng = random.Random(seed)
    game = new_game(key, (), seats)
    seen = {0: game.to_json()}  # entries in the log -> the game then
    checked = 0
    while not game.is_over and len(game.log) < 120:
        spec = game.dice_needed()
        if spec is not None:
            game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
        else:
            game.push(rng.choice(game.legal_moves()))
        seen[len(game.log)] = game.to_json()
        last = game.log[-1]
        if last.move is None or game.is_over:
            continue
        plan = plan_for(game, last.seat)
        back = restored(game, plan.cut)
        assert back.to_json() == seen[plan.cut]
        kept = game.log[: plan.cut]
        assert all(entry.seat == last.seat and entry.move for entry in game.log[plan.cut :])
        assert not kept or kept[-1].seat != last.seat or kept[-1].dice is not None
        if kept and kept[-1].dice is not None:  # just after the roll: the same dice, no roll due
            assert back.dice_needed() is None and back.to_move == last.seat
        assert plan.undone == tuple(entry.move for entry in game.log[plan.cut :])
        others = [s for s in range(game.seats) if game.team_of(s) != game.team_of(last.seat)]
        assert plan.opponents == tuple(others)
        for seat in range(game.seats):
            if seat != last.seat:
                with pytest.raises(NotAllowed, match="Too late"):
                    plan_for(game, seat)
        checked += 1
    assert checked >= 3
