"""Helpers for the SimCord suite: start a game as users would, find and check board messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
from simcord import ChannelHandle, InteractionResult, MemberActor, ResponseMessage
from simcord.results import to_discord_message

from games import Shax

HOUR = 3600.0
DAY = 24 * HOUR
TICK = 60.0  # the bot's deadline loop interval (bot.app.TICK_SECONDS)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EPHEMERAL = 1 << 6  # the message flag

# A shortest Shax game (51 plies): White makes the first mill while placing (c3 c4 c5) and
# removes a7, closes a mill with d7-a7, then swings e4<->e5 between two mills, removing a
# black piece after each swing until Black has two left.
SHAX_PLACEMENT = "c3 f6 c4 d1 c5 b6 e4 d6 a4 d3 g4 b2 d7 e5 d5 e3 a1 d2 b4 g1 f4 a7 f2 g7".split()
SHAX_MOVEMENT = (
    "xa7 d7-a7 xe5 d6-d7 e4-e5 xb2 b6-d6 e5-e4 xd1 d2-b2 e4-e5 xb2 d3-d2 e5-e4 xd2 "
    "d6-b6 e4-e5 xb6 d7-d6 e5-e4 xd6 e3-d3 e4-e5 xd3 f6-d6 e5-e4 xd6"
).split()
SHAX_WIN = SHAX_PLACEMENT + SHAX_MOVEMENT
SHAX_RESULT = "White wins: opponent reduced to two pieces"

BOARD_BUTTONS = ["Legal moves", "Offer draw", "Takeback", "Resign"]

Message = discord.Message | ResponseMessage


@dataclass
class Match:
    """A game in progress, seen from the test: who plays, where, and the engine's view."""

    game_id: int
    where: ChannelHandle  # the game's thread, or the channel when there is no thread
    challenge: Message
    white: MemberActor
    black: MemberActor
    engine: Shax = field(default_factory=Shax)

    @property
    def to_move(self) -> MemberActor:
        seat = self.engine.to_move
        assert seat is not None, "the game is over"
        return (self.white, self.black)[seat]


def is_board(message: Message) -> bool:
    return any((e.title or "").startswith("Shax · game #") for e in message.embeds)


def boards(where: ChannelHandle) -> list[discord.Message]:
    return [m for m in where.history() if is_board(m)]


def latest_board(where: ChannelHandle) -> discord.Message:
    found = boards(where)
    assert found, f"no board message in {where!r}"
    return found[-1]


def current(where: ChannelHandle, message: Message) -> discord.Message:
    """The message as it is now (edits included)."""
    return next(m for m in where.history() if m.id == message.id)


def footer(message: Message) -> str:
    return message.embeds[0].footer.text or ""


def version(message: Message) -> int:
    return int(footer(message).rsplit(" ", 1)[1])


def description(message: Message) -> str:
    return message.embeds[0].description or ""


def field_value(message: Message, name: str) -> str | None:
    return next((f.value for f in message.embeds[0].fields if f.name == name), None)


def labels(message: Message) -> list[str]:
    rows = (
        message.components
        if isinstance(message, ResponseMessage)
        else [c.to_dict() for c in message.components]
    )
    found = []
    for row in rows:
        for item in row.get("components", [row]):
            if item.get("label"):
                found.append(item["label"])
    return found


async def assert_board_image(message: Message) -> None:
    """The board message carries one PNG attachment, shown as the embed's image."""
    attachments = message.attachments
    assert [a.filename for a in attachments] == ["board.png"], attachments
    data = await attachments[0].read()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000
    assert message.embeds[0].image.url == "attachment://board.png"


COMPONENT = 3  # Discord's interaction type for a button click


def answer(result: InteractionResult) -> ResponseMessage:
    """What the user was told: a command's response (its "thinking…" completed), or a click's
    last follow-up (a click is acknowledged silently, and its answers are follow-ups)."""
    if result._interaction.type == COMPONENT:
        followups = result.followups
        assert followups, f"no answer to the click: {result!r}"
        return followups[-1]
    response = result.response
    assert response is not None, f"no answer: {result!r}"
    return response


def refused(result: InteractionResult, *fragments: str) -> str:
    """The interaction was answered ephemerally; returns the text (all fragments in it)."""
    response = answer(result)
    assert response.ephemeral, f"answer not ephemeral: {response.content!r}"
    text = response.content
    for fragment in fragments:
        assert fragment.lower() in text.lower(), f"{fragment!r} not in {text!r}"
    return text


def public(result: InteractionResult) -> discord.Message:
    """The public message the bot posted in answer (a board goes through the channel, not as
    the interaction's response): the latest one the bot sent anywhere since the interaction."""
    env = result._env
    since = result._interaction.id
    posted = [
        message
        for channel in env.backend.messages.values()
        for message in channel.values()
        if message.id > since
        and message.author_id == env.bot.user.id
        and not message.flags & EPHEMERAL
    ]
    assert posted, f"nothing public posted: {result!r}; told {told(result)!r}"
    return to_discord_message(env, max(posted, key=lambda m: m.id))


def told(result: InteractionResult) -> str | None:
    try:
        return answer(result).content
    except AssertionError:
        return None


def updated(result: InteractionResult) -> discord.Message:
    """The clicked message, as the click left it (e.g. an accepted challenge)."""
    response = result.response
    assert response is not None and not response.ephemeral, f"no update: {result!r}"
    return response.message


async def challenge(
    challenger: MemberActor, opponent: MemberActor, channel: ChannelHandle, **options: Any
) -> ResponseMessage:
    result = await challenger.slash(channel, "shax challenge", opponent=opponent, **options)
    message = result.response
    assert message is not None and not message.ephemeral, result
    assert message.embeds[0].title == "Shax challenge"
    # Help too while one of them has no game here yet (tests/discord/test_help.py)
    assert labels(message) in (["Accept", "Decline"], ["Accept", "Decline", "Help"])
    return message


async def start_game(
    world: Any,
    white: MemberActor | None = None,
    black: MemberActor | None = None,
    channel: ChannelHandle | None = None,
) -> Match:
    """White challenges Black (choosing to play White), Black accepts; returns the match."""
    white, black = white or world.alice, black or world.bob
    channel = channel or world.channel
    message = await challenge(white, black, channel, first="me")
    accepted = await black.click(message, label="Accept")
    edited = updated(accepted)
    assert edited.id == message.id  # the challenge message itself is updated
    note = description(edited)
    assert "Accepted: game #" in note
    game_id = int(note.split("game #")[1].split("*")[0])
    threads = [t for t in channel.threads if t.id == message.id]
    where = threads[0] if threads else channel
    board = latest_board(where)
    assert footer(board) == f"Game {game_id} · version 1"
    return Match(game_id, where, message, white, black)


async def play(
    match: Match, moves: list[str], *, check_image: bool = False
) -> list[ResponseMessage]:
    """Each move by the player to move, with ``/shax move`` in the game's thread."""
    posted = []
    before = version(latest_board(match.where))
    for move in moves:
        result = await match.to_move.slash(match.where, "shax move", move=move)
        board = public(result)
        match.engine.push(move)
        assert footer(board).startswith(f"Game {match.game_id} · ")
        assert version(board) > before  # a draw offer bumps it too
        before = version(board)
        if check_image:
            await assert_board_image(board)
        posted.append(board)
    return posted


def sent_mentions(env: Any, content: str) -> list[list[int]]:
    """The users the bot allowed to be pinged, for each message it sent with this content."""
    found = []
    for entry in env.http_requests:
        payload = entry.json.get("data", entry.json) if isinstance(entry.json, dict) else None
        if not payload or payload.get("content") != content:
            continue
        mentions = payload.get("allowed_mentions") or {}
        assert mentions.get("parse") == [], mentions  # no @everyone, no roles, no free parsing
        found.append(sorted(int(user) for user in mentions.get("users", [])))
    return found
