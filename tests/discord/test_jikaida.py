"""Poron Jikaida and Pastang through Discord: challenge with colour, first move and variant, a
Pastang game played to its end, and a Poron opening with a bent vault, front turns and a Kaida;
autocomplete by piece and square; refusals.

The move lists were worked out on the engine beforehand and are checked here move by move
against the rules as the tests state them (who moves, what the board says).
"""

from __future__ import annotations

from simcord import ChannelHandle, MemberActor

from .helpers import (
    BOARD_BUTTONS,
    Message,
    assert_board_image,
    description,
    field_value,
    labels,
    public,
    refused,
    updated,
    version,
)

# Pastang: Yellow (Alice) moves first; captures on both sides until Blue's Swod takes Yellow's
# last piece on c5 (b6xc5): Blue wins, last side standing.
PASTANG = (
    "b2-c3 a5xc3 d2xc3 a6xa2 d1xf5 a2xb1 f5xe5 f6xe5 a1xc5 b1xc2 c5xc6 c2xc1 c6xb5 e5xc3 "
    "b5xb6 d6xb6 e1xc3 c1xc3 f1-d2 c3xd2 e2-d3 d2xd3 f2-c5 b6xc5"
).split()

# Poron: Yellow's Swod e3-b6 (opening bonus, diagonally 3, typed in drin notation); Blue's
# Pallan vaults e18-k15 along its back rank and bends at h18 down the diagonal (a bent vault);
# Yellow's Deldar d2-h4 (opening double move); the Pallan turns at the 12|13 front (k15-g8);
# Yellow c3-f6; the Pallan turns again (g8-j7) and the Yellow King on h1 is in Kaida.
PORON = [
    ("Mortil E3-Mortil B6", "e3-b6"),
    ("e18-k15", "e18-k15"),
    ("d2-h4", "d2-h4"),
    ("Chavonth E3 - Leem A2", "k15-g8"),
    ("c3-f6", "c3-f6"),
    ("g8~j7", "g8-j7"),
]


def boards(where: ChannelHandle, title: str) -> list:
    return [m for m in where.history() if any(f"{title} · " in (e.title or "") for e in m.embeds)]


async def start(world, **options: str) -> tuple[int, ChannelHandle]:
    w = world
    message = public(await w.alice.slash(w.channel, "jikaida challenge", opponent=w.bob, **options))
    assert message.embeds[0].title == "Poron Jikaida challenge"
    note = description(updated(await w.bob.click(message, label="Accept")))
    game_id = int(note.split("Accepted: game #")[1].split("*")[0])
    [thread] = [t for t in w.channel.threads if t.id == message.id]
    return game_id, thread


async def play(member: MemberActor, where: ChannelHandle, typed: str) -> Message:
    before = boards(where, "Poron Jikaida")[-1]
    board = public(await member.slash(where, "jikaida move", move=typed))
    assert version(board) == version(before) + 1
    return board


async def test_pastang_played_to_its_end(world):
    w = world
    game_id, thread = await start(w, variant="pastang", colour="yellow", first="me")
    [first] = boards(thread, "Poron Jikaida")
    assert field_value(first, "Yellow") == w.alice.mention
    assert field_value(first, "Blue") == w.bob.mention
    assert field_value(first, "Variants") == "pastang"
    assert first.content == f"{w.alice.mention}, your turn."
    await assert_board_image(first)
    refused(await w.bob.slash(thread, "jikaida move", move="a5-a4"), "turn")

    players = (w.alice, w.bob)
    for ply, move in enumerate(PASTANG):
        board = await play(players[ply % 2], thread, move)
    await assert_board_image(board)
    assert description(board).startswith("**Blue wins: last side standing**")
    assert board.content == "Game over: Blue wins: last side standing"
    assert labels(board) == ["Rematch", "Analysis"]
    refused(await w.alice.slash(thread, "jikaida move", move="a1-a2"), "over")
    history = public_or_ephemeral_text(await w.alice.slash(thread, "game history"))
    assert "b6xc5" in history and "last side standing" in history
    assert f"Game {game_id}" in board.embeds[0].footer.text


def public_or_ephemeral_text(result) -> str:
    assert result.response is not None
    return result.response.content


async def test_poron_opening_with_a_vault_and_a_kaida(world):
    w = world
    _, thread = await start(w, colour="blue", first="them")  # Bob: Yellow, moves first
    [first] = boards(thread, "Poron Jikaida")
    assert field_value(first, "Yellow") == w.bob.mention
    sides = field_value(first, "Sides")
    assert "chosen by" in sides and f"First move chosen by {w.alice.mention}: " in sides
    assert first.content == f"{w.bob.mention}, your turn."

    # Autocomplete by piece and square: the unmoved Swod on c3 goes straight 1-3 (c4 c5 c6)
    # or diagonally 1-3 (b4 a5; d4 e5 f6).
    choices = await w.bob.autocomplete(thread, "jikaida move", "move", "swod c3")
    assert sorted(c["value"] for c in choices) == sorted(
        ["c3-c4", "c3-c5", "c3-c6", "c3-b4", "c3-a5", "c3-d4", "c3-e5", "c3-f6"]
    )
    assert {"name": "Swod Mortil C3 → Mortil C4 (c3-c4)", "value": "c3-c4"} in choices
    pallan = await w.bob.autocomplete(thread, "jikaida move", "move", "pallan")
    assert pallan and all(c["value"].startswith("g1") for c in pallan)
    assert await w.bob.autocomplete(thread, "jikaida move", "move", "queen") == []

    players = (w.bob, w.alice)
    for ply, (typed, canonical) in enumerate(PORON):
        board = await play(players[ply % 2], thread, typed)
        assert f"({canonical})" in description(board)
        await assert_board_image(board)
        told = {
            "e18-k15": (
                "Blue Pallan Wersting E6 → Chavonth E3 (e18-k15), a bent vault over 5 pieces"
            ),
            "d2-h4": "Yellow Deldar Mortil D2 → Zhantil B4 (d2-h4), a double move by f4",
            "k15-g8": "Blue Pallan Chavonth E3 → Leem A2 (k15-g8), turning at k12",
        }.get(canonical)
        if told:
            assert f"Last move: {told}" in description(board)
    text = description(board)
    assert text.startswith("Yellow to move (movement) — Kaida!")
    assert "**Kaida! The Yellow King is attacked**" in text
    assert board.content == f"{w.bob.mention}, your turn."
    assert labels(board) == BOARD_BUTTONS
    refused(
        await w.bob.slash(thread, "jikaida move", move="a3-a4"),
        "would leave your King in Kaida",
    )
    refused(await w.bob.slash(thread, "jikaida move", move="h1-z9"), "write a move as")
