"""Chebache through Discord: server-side rolls (slash command and Roll button), Phase I moves,
jumps, attacks, the CHEBACHE! warning, forfeits and the game record in the text's notation.

The dice come from the bot's roller: seeded (``SeededRoller(seed=7)``, as in every SimCord
test) unless a test queues fixed dice. The turns are scripted by asking the engine
(``Chebache``) with a fixed rule and the dice the bot rolled, so the script follows the
rules as the engine has them. Positions the opening cannot reach quickly are written into
the game's stored state, as a saved game would hold them. Until a Chebache renderer is
registered the bot logs a render error and posts boards without a picture; both are
accepted here, and once ``render.RENDERERS`` knows Chebache every board must carry its
picture.
"""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass, field

import pytest
from simcord import ChannelHandle, MemberActor

from bot.domain.service import natural_key
from games import Chebache, DiceSpec
from render import RENDERERS
from tests.fakes import QueuedRoller

from .helpers import (
    BOARD_BUTTONS,
    Message,
    assert_board_image,
    description,
    field_value,
    footer,
    labels,
    public,
    refused,
    updated,
    version,
)

RENDERED = "chebache" in RENDERERS
ROLL_BUTTONS = ["Roll", *BOARD_BUTTONS]
TWO_D6 = DiceSpec(2, 6)


@pytest.fixture(autouse=True)
def tolerate_missing_renderer(no_logged_errors):
    """Without a Chebache renderer the service logs each failed render; nothing else may log."""
    yield
    if not RENDERED:
        no_logged_errors.records[:] = [
            r for r in no_logged_errors.records if r.getMessage() != "rendering chebache failed"
        ]


Dice = QueuedRoller


@dataclass
class Game:
    """A Chebache game seen from the test: the players, its thread, and the engine's view."""

    game_id: int
    where: ChannelHandle
    white: MemberActor
    black: MemberActor
    engine: Chebache = field(default_factory=Chebache)
    edits: int = 0  # versions stored behind the latest board's back (``put_position``)

    def next_version(self, before: Message) -> int:
        expected, self.edits = version(before) + self.edits + 1, 0
        return expected

    @property
    def to_act(self) -> MemberActor:
        seat = self.engine.to_move
        assert seat is not None, "the game is over"
        return (self.white, self.black)[seat]


def boards(where: ChannelHandle) -> list:
    return [
        m
        for m in where.history()
        if any((e.title or "").startswith("Chebache · ") for e in m.embeds)
    ]


def dice_text(dice: tuple[int, ...]) -> str:
    return " ".join(map(str, dice))


def choose(engine: Chebache) -> str:
    """The fixed rule of the scripts: attack if possible, else the first jump, else the last
    other move in natural order (forward moves of the furthest-back pieces come last)."""
    legal = sorted(engine.legal_moves(), key=natural_key)
    attacks = [m for m in legal if "X" in m]
    jumps = [m for m in legal if "^" in m]
    others = [m for m in legal if m not in ("end", "pass")]
    return (attacks or jumps or others[-1:] or legal)[0]


def phase_one(engine: Chebache) -> list[str]:
    """The rule's Phase I moves for the roll just made (none when the roll passed)."""
    trial, moves = engine.copy(), []
    seat = trial.to_move
    while trial.to_move == seat and trial.phase == "phase I":
        moves.append(choose(trial))
        trial.push(moves[-1])
    return moves


async def check_picture(board: Message) -> None:
    if RENDERED:
        await assert_board_image(board)
    else:
        assert board.attachments == [] and not board.embeds[0].image.url


def check_board(game: Game, board: Message) -> None:
    """The embed tells what the engine says: status, warning, fields; the mention goes to
    whoever acts next, and the Roll button is there exactly when a roll is due."""
    engine = game.engine
    summary = dict(engine.summary())
    assert description(board).startswith(engine.status_line())
    assert field_value(board, "Phase") == summary["Phase"]
    assert field_value(board, "Chebaches") == summary["Chebaches"]
    assert field_value(board, "Last turn") == summary.get("Last turn")
    assert field_value(board, "White") == f"{game.white.mention}\n{summary['White']}"
    assert field_value(board, "Black") == f"{game.black.mention}\n{summary['Black']}"
    assert field_value(board, "Warning") is None  # shown on top, in bold
    if "Warning" in summary:
        assert f"\n**{summary['Warning']}**" in description(board)
    else:
        assert "CHEBACHE!" not in description(board)
    if engine.dice_needed():
        assert board.content == f"{game.to_act.mention}, your turn to roll (2d6)."
        assert labels(board) == ROLL_BUTTONS
        assert field_value(board, "Roll due") == "2d6"
    else:
        assert board.content == f"{game.to_act.mention}, your turn."
        assert labels(board) == BOARD_BUTTONS
        assert field_value(board, "Dice left") == summary["Dice left"]


async def start(world) -> Game:
    """Alice challenges Bob choosing White; Bob accepts; returns the game."""
    w = world
    result = await w.alice.slash(w.channel, "chebache challenge", opponent=w.bob, first="me")
    message = public(result)
    assert message.embeds[0].title == "Chebache challenge"
    assert "Plays first: challenger" in description(message)
    note = description(updated(await w.bob.click(message, label="Accept")))
    game_id = int(note.split("Accepted: game #")[1].split("*")[0])
    [thread] = [t for t in w.channel.threads if t.id == message.id]
    assert thread.name == f"Chebache #{game_id}"
    return Game(game_id, thread, w.alice, w.bob)


async def roll(game: Game, dice: Dice, *, button: bool) -> Message:
    """The player to move rolls (the latest board's button, or ``/chebache roll``)."""
    player, before = game.to_act, boards(game.where)[-1]
    if button:
        result = await player.click(before, label="Roll")
    else:
        result = await player.slash(game.where, "chebache roll")
    board = public(result)
    rolled = dice.rolled[-1]
    name = game.engine.seat_names[game.engine.to_move]
    game.engine.roll(rolled)
    assert version(board) == game.next_version(before)
    assert labels(boards(game.where)[-2]) == []  # the rolled board lost its buttons
    lines = description(board).split("\n")
    told = f"{name} rolled {dice_text(rolled)}"
    assert lines[1] in (told, f"{told}: no legal move, the turn passes")
    assert f"Last move: `[{dice_text(rolled)}]`" in lines
    check_board(game, board)
    await check_picture(board)
    return board


async def play(game: Game, command: str, line: str) -> Message:
    """``/chebache move`` or ``/chebache jump`` by the player to move; the engine follows."""
    before = boards(game.where)[-1]
    board = public(await game.to_act.slash(game.where, f"chebache {command}", move=line))
    game.engine.push_line(line)
    assert version(board) == game.next_version(before)
    check_board(game, board)
    await check_picture(board)
    return board


async def offered(member, where, typed, command: str = "move") -> list[str]:
    choices = await member.autocomplete(where, f"chebache {command}", "move", typed)
    assert len(choices) <= 25
    assert all(len(c["name"]) <= 100 for c in choices)
    return [c["value"] for c in choices]


def put_position(db_path: str, game: Game, position: Chebache) -> None:
    """Store ``position`` as the game's state (a new version), as a saved game would hold it."""
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
            (position.to_json(), game.game_id),
        )
    db.close()
    game.engine, game.edits = position, game.edits + 1


async def test_roll_then_move_and_jump_with_the_roll_button_and_the_commands(world, dice):
    w = world
    game = await start(w)
    [first] = boards(game.where)
    await check_picture(first)
    assert description(first) == "White to roll"
    assert first.content == f"{w.alice.mention}, your turn to roll (2d6)."
    assert labels(first) == ROLL_BUTTONS
    assert field_value(first, "Roll due") == "2d6"
    assert footer(first) == f"Game {game.game_id} · version 1"

    # Nothing moves before the roll, and only White may roll.
    refused(
        await w.alice.slash(game.where, "chebache move", move="S/3"),
        "roll the dice first (2d6)",
        "/chebache roll",
    )
    assert await offered(w.alice, game.where, "") == []
    refused(await w.alice.click(first, label="Legal moves"), "Roll the dice first")
    refused(await w.bob.click(first, label="Roll"), f"It is {w.alice.mention}'s turn")
    refused(await w.carol.click(first, label="Roll"), "not playing")
    refused(await w.bob.slash(game.where, "chebache roll"), f"{w.alice.mention}'s turn")
    assert dice.rolled == [] and len(boards(game.where)) == 1
    shown = public(await w.alice.slash(w.channel, "game board", game=str(game.game_id)))
    assert labels(shown) == ROLL_BUTTONS  # shown elsewhere, not the latest board

    board = await roll(game, dice, button=False)
    seeded = random.Random(7)
    assert dice.rolled == [(seeded.randint(1, 6), seeded.randint(1, 6))] == [(3, 2)]
    assert description(board) == (
        "White to move (phase I, dice left: 2 3)\nWhite rolled 3 2\nLast move: `[3 2]`"
    )
    assert labels(boards(game.where)[0]) == []
    # Rolled once, stored, never rolled again.
    refused(await w.alice.slash(game.where, "chebache roll"), "No roll is due")
    refused(await w.alice.click(shown, label="Roll"), "The board changed", "White to move")
    assert dice.rolled == [(3, 2)] and len(boards(game.where)) == 2

    # Autocomplete: the legal single actions, canonical, filtered by what is typed.
    legal = sorted(game.engine.legal_moves(), key=natural_key)
    assert legal == ["K(S/2)", "K(S/3)", "S/2", "S/3"]
    assert await offered(w.alice, game.where, "") == legal
    assert await offered(w.alice, game.where, "s") == ["S/2", "S/3", "K(S/2)", "K(S/3)"]
    assert await offered(w.alice, game.where, "K(") == ["K(S/2)", "K(S/3)"]
    assert await offered(w.alice, game.where, "^", "jump") == []  # no jump in Phase I
    choices = await w.alice.autocomplete(game.where, "chebache move", "move", "K")
    assert choices[0] == {"name": "K(S/2) — King forward 2 to b3", "value": "K(S/2)"}

    refused(await w.alice.slash(game.where, "chebache end"), "You cannot `end` now")
    refused(await w.alice.slash(game.where, "chebache jump", move="S/3"), "not a jump")
    refused(await w.alice.slash(game.where, "chebache jump", move="2^4"), "Phase II")
    refused(await w.alice.slash(game.where, "chebache move", move="S/5"), "not legal")

    # Both dice in one line (all or nothing), then the jump.
    board = await play(game, "move", "S/3 S/2")
    assert description(board).startswith("White to jump or pass (phase II)\n")
    assert "Last move: `[3 2] S/3 S/2`" in description(board)
    assert await offered(w.alice, game.where, "", "jump") == ["2^4", "pass"]
    assert await offered(w.alice, game.where, "pa", "jump") == ["pass"]
    refused(await w.alice.slash(game.where, "chebache end"), "You cannot `end` now")
    board = await play(game, "jump", "2^4")
    assert description(board) == "Black to roll\nLast move: `[3 2] S/3 S/2 2^4`"
    assert field_value(board, "Last turn") == "1W: [3 2]; S/3, S/2; 2^4"
    assert board.content == f"{w.bob.mention}, your turn to roll (2d6)."

    # The Roll button of the latest board is Black's now; it survives a restart.
    refused(await w.alice.click(board, label="Roll"), f"It is {w.bob.mention}'s turn")
    await w.restart()
    board = await roll(game, dice, button=True)
    assert dice.rolled[-1] == (4, 6)
    history = refused(await w.carol.slash(game.where, "game history"))
    assert history == f"**Game #{game.game_id}**\n```\n1W: [3 2]; S/3, S/2; 2^4\n```"
    rules = await w.carol.slash(w.channel, "game rules", game="chebache")
    assert rules.response.embeds[0].description == Chebache.rules_summary


async def test_scripted_turns_with_attacks_and_jumps_until_a_chebache_threat(world, dice):
    """Turns by the fixed rule on the seeded dice, until a player starts a turn in Chebache."""
    w = world
    game = await start(w)
    turns = 0
    while "Warning" not in dict(game.engine.summary()):
        turns += 1
        assert turns <= 20, "no threat within 20 turns"
        await roll(game, dice, button=turns % 2 == 1)
        if game.engine.phase == "phase I":
            await play(game, "move", " ".join(phase_one(game.engine)))
        if game.engine.phase == "phase II":
            jump = choose(game.engine)
            assert jump in await offered(game.to_act, game.where, jump, "jump")
            await play(game, "jump", jump)
    log = game.engine.turn_log()
    assert len(log) == turns == 15
    assert any("^" in line for line in log) and any("X1@7" in line for line in log)
    board = boards(game.where)[-1]
    warning = "CHEBACHE! Black's space 12 threatened"
    assert dict(game.engine.summary())["Warning"] == warning
    assert description(board).split("\n")[:2] == ["Black to roll", f"**{warning}**"]
    assert field_value(board, "Chebaches") == "<B12>"  # White's Chebache controls Black's 12
    # The warning stands through the turn's roll; the record shows the text's notation.
    board = await roll(game, dice, button=False)
    assert f"\n**{warning}**\n" in description(board)
    history = refused(await w.bob.slash(game.where, "game history"))
    assert history == f"**Game #{game.game_id}**\n```\n" + "\n".join(log) + "\n```"
    assert "8B: [1 4]; 6X7, S/4; X1@7; 4^6; <W12; B16>" in log


async def test_a_roll_without_a_legal_move_passes_and_end_forfeits(world, dice, db_path):
    w = world
    game = await start(w)
    # White: one piece in Start, the rest in Finish; Black holds White's space 1 with four.
    put_position(db_path, game, Chebache.from_position({"S": "1"}, {13: "4"}))
    dice.queued += [(1, 1), (2, 1)]
    board = await roll(game, dice, button=False)
    assert description(board).split("\n")[:2] == [
        "Black to roll",
        "White rolled 1 1: no legal move, the turn passes",
    ]
    assert board.content == f"{w.bob.mention}, your turn to roll (2d6)."
    assert field_value(board, "Last turn") == "1W: [1 1]"
    await roll(game, dice, button=True)

    # White at 12 and 16 with 3 3: only 16\13 is left, or forfeiting the dice (`end`).
    near_home = Chebache.from_position({"S": "0", 12: "1", 16: "1"}, {3: "2"})
    put_position(db_path, game, near_home)
    dice.queued.append((3, 3))
    await roll(game, dice, button=False)
    assert await offered(w.alice, game.where, "") == ["16\\13", "end"]
    refused(await w.bob.slash(game.where, "chebache end"), f"{w.alice.mention}'s turn")
    board = public(await w.alice.slash(game.where, "chebache end"))
    game.engine.push("end")
    check_board(game, board)
    assert field_value(board, "Last turn") == "1W: [3 3]"
    assert "Last move: `[3 3] end`" in description(board)
