"""Dice handling, with a tiny race game: roll one d6, move that far; first to 10 wins."""

import random
from typing import Any

import pytest

import games
from bot.config import Settings
from bot.domain.service import GameService, IllegalMoveError, NotAllowed
from bot.storage.sqlite import Store
from games.base import DiceSpec, Game

from .conftest import ALICE, BOB, GUILD, fake_renderer, start_game, stored_log


class Race(Game):
    key = "race"
    title = "Race"
    seat_names = ("Red", "Blue")

    def _setup(self) -> None:
        self.position = [0, 0]
        self.turn = 0
        self.die: int | None = None

    def _legal(self) -> list[str]:
        return [f"+{self.die}"]

    def _apply(self, move: str) -> None:
        self.position[self.turn] += self.die or 0
        self.die = None
        if self.position[self.turn] >= 10:
            self.outcome = self._outcome((self.turn,), "reached 10")
        else:
            self.turn = 1 - self.turn

    def _roll_needed(self) -> DiceSpec | None:
        return DiceSpec(1, 6) if self.die is None else None

    def _apply_roll(self, dice: tuple[int, ...]) -> None:
        (self.die,) = dice

    def _state(self) -> dict[str, Any]:
        return {"position": self.position, "turn": self.turn, "die": self.die}

    def _load_state(self, data: dict[str, Any]) -> None:
        self.position, self.turn, self.die = data["position"], data["turn"], data["die"]

    @property
    def to_move(self) -> int | None:
        return None if self.outcome else self.turn

    @property
    def phase(self) -> str:
        return "race"

    def text_board(self) -> str:
        return str(self.position)


@pytest.fixture(autouse=True)
def register_race(monkeypatch):
    monkeypatch.setitem(games.GAMES, Race.key, Race)


async def test_roll_is_stored_before_the_move(service, roller, db_path):
    board = await start_game(service, kind="race")
    assert board.dice_needed == "1d6" and board.legal_count == 0
    assert board.status == "Red to roll (race)"
    with pytest.raises(IllegalMoveError, match="roll the dice first"):
        await service.move(board.game_id, ALICE, "+1", guild_id=GUILD)
    with pytest.raises(NotAllowed):
        await service.roll(board.game_id, BOB, guild_id=GUILD)
    board = await service.roll(board.game_id, ALICE, guild_id=GUILD, expected_version=1)
    die = random.Random(roller.seed).randint(1, 6)  # the seeded roller's first roll
    assert [str(spec) for spec in roller.calls] == ["1d6"]
    assert board.dice_needed is None and board.legal_count == 1 and board.version == 2
    assert board.last_action == f"[{die}]"
    assert stored_log(db_path) == [(board.game_id, 1, 0, None, (die,))]
    # Another process sees the roll: it is in the stored state, not only in memory.
    async with await Store.open(db_path) as other_store:
        other = GameService(other_store, settings=Settings(), renderer=fake_renderer)
        assert await other.legal_moves(board.game_id, GUILD) == [f"+{die}"]
    with pytest.raises(NotAllowed, match="No roll is due"):
        await service.roll(board.game_id, ALICE, guild_id=GUILD)
    board = await service.move(board.game_id, ALICE, f"+{die}", guild_id=GUILD)
    assert board.last_action == f"[{die}] +{die}"
    assert board.to_move_user == BOB and board.dice_needed == "1d6"
    assert await service.history(board.game_id, GUILD) == [
        f"1. Red rolls [{die}]",
        f"2. Red +{die}",
    ]


async def test_a_race_to_the_end(service):
    board = await start_game(service, kind="race")
    while not board.finished:
        user = board.to_move_user
        board = await service.roll(board.game_id, user, guild_id=GUILD)
        [move] = await service.legal_moves(board.game_id, GUILD)
        board = await service.move(board.game_id, user, move, guild_id=GUILD)
    assert board.result is not None and board.result.endswith("wins: reached 10")
    with pytest.raises(Exception, match="over"):
        await service.roll(board.game_id, board.players[0], guild_id=GUILD)
