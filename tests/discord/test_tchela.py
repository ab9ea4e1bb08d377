"""Tchela through Discord: challenge with board options, a whole game, autocomplete, refusals.

The moves are scripted by asking the engine (``Tchela(variants)``) with a fixed rule, so the
script follows the rules as the engine has them. Until a Tchela renderer is registered the
bot logs a render error and posts boards without a picture; both are accepted here, and
once ``render.RENDERERS`` knows Tchela every board must carry its picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from simcord import ChannelHandle, MemberActor

from bot.domain.service import natural_key
from games import Tchela
from render import RENDERERS

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

RENDERED = "tchela" in RENDERERS


@pytest.fixture(autouse=True)
def tolerate_missing_renderer(no_logged_errors):
    """Without a Tchela renderer the service logs each failed render; nothing else may log."""
    yield
    if not RENDERED:
        no_logged_errors.records[:] = [
            r for r in no_logged_errors.records if r.getMessage() != "rendering tchela failed"
        ]


@dataclass
class Game:
    """A Tchela game seen from the test: the players, its thread, and the engine's view."""

    game_id: int
    where: ChannelHandle
    south: MemberActor
    north: MemberActor
    engine: Tchela = field(default_factory=Tchela)

    @property
    def to_move(self) -> MemberActor:
        seat = self.engine.to_move
        assert seat is not None, "the game is over"
        return (self.south, self.north)[seat]


def boards(where: ChannelHandle) -> list:
    return [
        m for m in where.history() if any((e.title or "").startswith("Tchela · ") for e in m.embeds)
    ]


def greedy(engine: Tchela) -> str:
    """The fixed rule of the scripts: the move capturing most, the first such in natural order."""
    best, gain = "", -1
    for move in sorted(engine.legal_moves(), key=natural_key):
        trial = engine.copy()
        trial.push(move)
        taken = trial.captured[engine.turn] - engine.captured[engine.turn]
        if taken > gain:
            best, gain = move, taken
    return best


async def check_picture(board: Message) -> None:
    if RENDERED:
        await assert_board_image(board)
    else:
        assert board.attachments == [] and not board.embeds[0].image.url


async def start(world, *, variants: tuple[str, ...] = (), **options) -> Game:
    """Alice challenges Bob choosing South; Bob accepts; returns the game."""
    w = world
    result = await w.alice.slash(
        w.channel, "tchela challenge", opponent=w.bob, first="me", **options
    )
    message = public(result)
    assert message.embeds[0].title == "Tchela challenge"
    assert labels(message) == ["Accept", "Decline", "Help"]
    note = description(updated(await w.bob.click(message, label="Accept")))
    game_id = int(note.split("Accepted: game #")[1].split("*")[0])
    [thread] = [t for t in w.channel.threads if t.id == message.id]
    assert thread.name == f"Tchela #{game_id}"
    return Game(game_id, thread, w.alice, w.bob, Tchela(variants))


async def play(game: Game, moves: list[str]) -> list:
    """Each move by the player to move, with ``/tchela move`` in the game's thread."""
    posted = []
    for move in moves:
        before = version(boards(game.where)[-1])
        board = public(await game.to_move.slash(game.where, "tchela move", move=move))
        game.engine.push(move)
        assert version(board) == before + 1
        check_board(game, board)
        await check_picture(board)
        posted.append(board)
    return posted


def check_board(game: Game, board: Message) -> None:
    """The embed tells what the engine says: the last sowing, the captures, whose turn."""
    engine = game.engine
    summary = dict(engine.summary())
    assert description(board).partition("\n")[2] == f"Last move: {summary['Last move']}"
    assert field_value(board, "Captured") == summary["Captured"]
    assert field_value(board, "Phase") == summary["Phase"]
    assert field_value(board, "Last move") is None  # shown once, on top
    assert field_value(board, "South") == game.south.mention
    assert field_value(board, "North") == game.north.mention
    if engine.is_over:
        assert board.content == f"Game over: {engine.result_text()}"
        assert labels(board) == ["Rematch", "Analysis"]
    else:
        assert board.embeds[0].description.startswith(engine.status_line() + "\n")
        assert board.content == f"{game.to_move.mention}, your turn."
        assert labels(board) == BOARD_BUTTONS


async def offered(member, where, typed) -> list[dict]:
    choices = await member.autocomplete(where, "tchela move", "move", typed)
    assert len(choices) <= 25
    assert all(len(c["name"]) <= 100 for c in choices)
    return choices


async def test_small_board_two_stores_played_to_the_end(world):
    w = world
    variants = ("4x6", "two-stores")
    game = await start(w, variants=variants, board="4x6", stores=2)
    challenge = w.channel.history()[0]
    assert "Plays first: challenger\nVariant: 4x6, two-stores" in description(challenge)
    [first] = boards(game.where)
    await check_picture(first)
    assert first.content == f"{w.alice.mention}, your turn."
    assert description(first) == "South to open"
    assert field_value(first, "Captured") == "South 0 · North 0"
    assert field_value(first, "Variants") == "4x6, two-stores"
    assert field_value(first, "South") == w.alice.mention
    assert footer(first) == f"Game {game.game_id} · version 1"

    script = []
    engine = Tchela(variants)
    while not engine.is_over:
        script.append(greedy(engine))
        engine.push(script[-1])
    assert len(script) == 50 and any(m.startswith("s") for m in script)  # a store sown
    posted = await play(game, script)

    assert [m.id for m in boards(game.where)] == [first.id] + [m.id for m in posted]
    assert all(labels(m) == [] for m in boards(game.where)[:-1])
    final = posted[-1]
    result = engine.result_text()
    assert result == "North wins: no legal move"
    assert final.content == f"Game over: {result}"
    assert description(final).startswith(f"**{result}**\nLast move: North ")
    assert field_value(final, "Captured") == "South 11 · North 12"
    assert footer(final) == f"Game {game.game_id} · version 51"

    history = refused(await w.carol.slash(game.where, "game history"))
    assert f"1. South {script[0]}\n2. North {script[1]}\n3. South {script[2]}\n" in history
    assert f"50. North {script[-1]}\n{result}" in history
    refused(await w.alice.slash(game.where, "tchela move", move="1"), "over")


async def test_openings_then_a_capture_on_the_default_board(world):
    w = world
    game = await start(w)
    [first] = boards(game.where)
    assert field_value(first, "Variants") is None
    # Typed "5" means open5 in the opening; the record keeps the canonical move.
    board = public(await w.alice.slash(game.where, "tchela move", move=" 5 "))
    game.engine.push("5")
    check_board(game, board)
    await check_picture(board)
    assert description(board) == (
        "North to open\nLast move: South open5: open from hole 5 — 8 pairs, sow 2 from hole 4, "
        "1 relay, ends in hole 9, captures 2"
    )
    assert field_value(board, "Phase") == "opening"
    assert field_value(board, "Captured") == "South 2 · North 0"
    await play(game, ["open2"])
    assert game.engine.phase == "main"

    # Main phase until the next capture, by the fixed rule.
    while game.engine.captured == [2, 0]:
        [board] = await play(game, [greedy(game.engine)])
    last, (south, north) = game.engine.last, game.engine.captured
    mover = ("South", "North")[last["seat"]]
    taken = sum(count for _, count in last["captured"])
    assert f"Last move: {mover} {last['move']}: hole {last['start']} — sow " in description(board)
    assert description(board).endswith(f"ends in hole {last['end']}, captures {taken}")
    assert field_value(board, "Captured") == f"South {south} · North {north}"
    inline = {f.name: f.inline for f in board.embeds[0].fields}
    assert inline == {"South": True, "North": True, "Clock": True, "Phase": True, "Captured": True}
    history = refused(await w.bob.slash(game.where, "game history"))
    assert history.startswith(f"**Game #{game.game_id}**\n```\n1. South open5\n2. North open2\n")


async def test_move_autocomplete(world):
    w = world
    variants = ("two-stores",)
    game = await start(w, variants=variants, stores=2)
    engine = game.engine
    legal = sorted(engine.legal_moves(), key=natural_key)
    assert len(legal) == 27  # more than Discord shows

    everything = await offered(w.alice, game.where, "")
    assert [c["value"] for c in everything] == legal[:25]  # natural order: open2 before open10
    for choice in everything:
        move, text = choice["value"], engine.describe_move(choice["value"])
        full = f"{move} · {text}"
        assert choice["name"] == full or (
            len(full) > 100
            and choice["name"].endswith("…")
            and full.startswith(choice["name"][:-1])
        )
    assert any(c["name"].endswith("…") for c in everything)  # the longest readings are cut
    named = {c["value"]: c["name"] for c in everything}
    assert named["open1"] == (
        "open1 · open from hole 1 — 8 pairs, sow 2 from hole 16, 1 relay, ends in hole 5"
    )

    # The canonical move's start first, then moves containing it, then the readings.
    values = [c["value"] for c in await offered(w.alice, game.where, "open1")]
    assert values == [m for m in legal if m.startswith("open1")]
    assert values[:4] == ["open1", "open10", "open10+s2", "open11"]
    assert [c["value"] for c in await offered(w.alice, game.where, "OPEN 7")] == [
        "open7",
        "open7+s1",
        "open7+s1s2",
    ]
    assert [c["value"] for c in await offered(w.alice, game.where, "7+")] == [
        "open7+s1",
        "open7+s1s2",
    ]
    fives = [c["value"] for c in await offered(w.alice, game.where, "5")]
    assert fives[:3] == ["open5", "open5+s1", "open15"]
    capturing = await offered(w.alice, game.where, "captures")
    assert capturing and all("captures" in engine.describe_move(c["value"]) for c in capturing)
    assert len(capturing) == sum("captures" in engine.describe_move(m) for m in legal)
    assert await offered(w.alice, game.where, "zz") == []
    # A choice's value is what gets played; then the other side's moves are offered.
    chosen = capturing[0]["value"]
    await play(game, [chosen])
    assert game.engine.moves() == [chosen]
    north = sorted(game.engine.legal_moves(), key=natural_key)
    assert [c["value"] for c in await offered(w.bob, game.where, "")] == north[:25]


async def test_illegal_and_out_of_turn_moves_are_refused(world):
    w = world
    game = await start(w, variants=("4x6",), board="4x6")
    refused(await w.bob.slash(game.where, "tchela move", move="open1"), f"{w.alice.mention}'s turn")
    refused(await w.carol.slash(game.where, "tchela move", move="open1"), "not playing")
    text = refused(await w.alice.slash(game.where, "tchela move", move="13"), "`13` is not legal")
    assert "holes are numbered 1 to 12" in text
    assert "Legal moves include open1, open2, open3, open3+s, open4 and 12 more." in text
    refused(await w.alice.slash(game.where, "tchela move", move="s"), "not legal")
    await play(game, ["open1", "open1"])
    empty = next(h + 1 for h, n in enumerate(game.engine.holes(0)) if n == 0)
    refused(
        await w.alice.slash(game.where, "tchela move", move=str(empty)), f"hole {empty} is empty"
    )
    refused(await w.alice.slash(game.where, "tchela move", move="open3"), "the opening is over")

    assert len(boards(game.where)) == 3
    assert footer(boards(game.where)[-1]) == f"Game {game.game_id} · version 3"
    history = refused(await w.alice.slash(game.where, "game history"))
    assert history == f"**Game #{game.game_id}**\n```\n1. South open1\n2. North open1\n```"
    await play(game, [greedy(game.engine)])  # and the game goes on


async def test_rules_and_board_commands_know_tchela(world):
    w = world
    result = await w.carol.slash(w.channel, "game rules", game="tchela")
    [embed] = result.response.embeds
    assert result.response.ephemeral and embed.title == "Tchela: In short"
    assert embed.description == Tchela.rules_summary
    assert embed.fields == []  # no IDZEVA_DOCS_URL: no link (tests/discord/test_rules.py)
    game = await start(w)
    shown = public(await w.alice.slash(w.channel, "game board", game=str(game.game_id)))
    assert description(shown) == "South to open" and labels(shown) == BOARD_BUTTONS
    await check_picture(shown)
    text = refused(await w.alice.click(boards(game.where)[-1], label="Legal moves"))
    assert text.startswith("Legal moves (21): `open1` `open2` `open3`")
