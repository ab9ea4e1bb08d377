"""Discord presentation shared by every game cog: embeds, board messages, buttons.

Everything here turns service results (``BoardView``, ``ChallengeView``) into Discord
messages and routes clicks back to the service. No rules, no SQL.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.domain import bot_seats
from bot.domain.clocks import describe
from bot.domain.service import BoardView, ChallengeView, ServiceError, StaleBoard, natural_key

from .options import parse_id

if TYPE_CHECKING:
    from bot.app import IdzevaBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
COLOUR_ACTIVE = discord.Colour.from_rgb(88, 101, 242)
COLOUR_FINISHED = discord.Colour.from_rgb(87, 242, 135)
COLOUR_CHALLENGE = discord.Colour.from_rgb(254, 231, 92)
LEGAL_LIST_LIMIT = 1800  # characters of legal moves shown in one ephemeral message
LAST_MOVE = "Last move"  # a summary field that the board's description shows instead
WARNING = "Warning"  # a summary field shown in bold in the description, e.g. "CHEBACHE! ..."
ON_TOP = (LAST_MOVE, WARNING)  # summary fields the description shows instead of a field
INLINE_FIELD_LIMIT = 40  # longer field values get the embed's full width
CONTENT_LIMIT = 2000  # Discord's limit for a message's text
DESCRIPTION_LIMIT, FIELD_NAME_LIMIT, FIELD_VALUE_LIMIT = 4096, 256, 1024  # Discord's limits
MENTION = re.compile(r"<@!?\d+>")  # shown as a short @name
CLOCK = "Clock"  # the board's field: who moves, by when (or their vacation)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def players_only(board: BoardView | ChallengeView) -> discord.AllowedMentions:
    """Ping the players of this game and nobody else (each once: the bot may hold seats)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(i) for i in dict.fromkeys(board.players)]
    )


def message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


def board_link(board: BoardView) -> str:
    return message_link(board.guild_id, home_id(board), board.message_id)


# ---- board messages ------------------------------------------------------------


def board_embed(board: BoardView) -> discord.Embed:
    """Status and last move on top, one field per seat (player and their counts), then the rest.

    A game that reads its last move itself (a ``Last move`` entry in its summary, e.g. where a
    sowing ended and what it captured) has that reading on top instead of the bare notation.
    What just happened (the board's ``note``, e.g. the roll and a turn passed for want of a
    move) and a ``Warning`` from the summary come right under the status.
    Short fields sit side by side; long ones get the full width.
    """
    colour = COLOUR_FINISHED if board.finished else COLOUR_ACTIVE
    embed = discord.Embed(title=f"{board.title} · game #{board.game_id}", colour=colour)
    lines = [f"**{board.result}**" if board.finished else board.status]
    if board.note:
        lines.append(board.note)
    lines += [f"**{value}**" for label, value in board.fields if label == WARNING]
    told = dict(board.fields).get(LAST_MOVE)
    if told:
        lines.append(f"{LAST_MOVE}: {told}")
    elif board.last_action:
        lines.append(f"{LAST_MOVE}: `{board.last_action}`")
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    per_seat = {label: value for label, value in board.fields if label in board.seat_names}
    levels = dict(board.bot_levels)
    for seat, (name, user_id) in enumerate(zip(board.seat_names, board.players, strict=True)):
        detail = per_seat.get(name)
        who = mention(user_id) + (f" (bot, {levels[seat]})" if seat in levels else "")
        add_field(embed, name, who + (f"\n{detail}" if detail else ""))
    if board.clock:
        add_field(embed, CLOCK, board.clock)
    for label, value in board.fields:
        if label not in per_seat and label not in ON_TOP:
            add_field(embed, label, value)
    if board.dice_needed:
        add_field(embed, "Roll due", board.dice_needed)
    if board.image:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=f"Game {board.game_id} · version {board.version}")
    return embed


def add_field(embed: discord.Embed, name: str, value: str) -> None:
    """A field within Discord's limits; side by side unless it is long."""
    value = clip(value, FIELD_VALUE_LIMIT) or "—"
    inline = len(MENTION.sub("@someone", value)) <= INLINE_FIELD_LIMIT
    embed.add_field(name=clip(name, FIELD_NAME_LIMIT), value=value, inline=inline)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_content(board: BoardView) -> str:
    """Mentions the player who must act next: to roll, or to move."""
    if board.finished:
        return f"Game over: {board.result}"
    if board.to_move_user is None:
        return board.status
    if bot_to_act(board):
        return f"{mention(board.to_move_user)} is thinking: {board.status}."
    if board.answers:
        return f"{mention(board.to_move_user)}, your answer: {board.status}"
    if board.dice_needed:
        return f"{mention(board.to_move_user)}, your turn to roll ({board.dice_needed})."
    return f"{mention(board.to_move_user)}, your turn."


def bot_to_act(board: BoardView) -> bool:
    """Whether the bot opponent acts next (it rolls and moves by itself)."""
    return any(board.players[seat] == board.to_move_user for seat, _ in board.bot_levels)


def board_view(board: BoardView) -> discord.ui.View | None:
    """Buttons under the latest board (Roll first when a roll is due); once it is over, the
    Rematch button."""
    if board.finished:
        return single_button_view(RematchButton(board.game_id))
    view = discord.ui.View(timeout=None)
    for move, label in board.answers:
        view.add_item(AnswerButton(board.game_id, board.version, move, label))
    if board.dice_needed and not bot_to_act(board):
        view.add_item(RollButton(board.game_id, board.version))
    view.add_item(BoardButton(board.game_id, board.version, "moves"))
    view.add_item(BoardButton(board.game_id, board.version, "draw"))
    view.add_item(BoardButton(board.game_id, board.version, "takeback"))
    view.add_item(BoardButton(board.game_id, board.version, "resign"))
    return view


def board_message(board: BoardView, *, quiet: bool = False) -> dict[str, Any]:
    """Keyword arguments for ``send``/``send_message`` that post a board. A ``quiet`` copy (for
    a bystander) names nobody in its text, pings nobody and has no buttons."""
    kwargs: dict[str, Any] = {
        "content": board_content(board),
        "embed": board_embed(board),
        "allowed_mentions": players_only(board),
    }
    if quiet:
        status = board.result if board.finished else board.status
        kwargs.update(content=status, allowed_mentions=discord.AllowedMentions.none())
    if board.image:  # empty when rendering failed: the embed still tells the position
        kwargs["file"] = discord.File(io.BytesIO(board.image), filename=BOARD_FILE)
    view = None if quiet else board_view(board)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def home_id(board: BoardView) -> int:
    """Where the game is played: its thread, or its channel when it has none."""
    return board.thread_id or board.channel_id


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge at once, before any work that can be slow (engine, render, database wait):
    a command shows a private "thinking…" that its first answer replaces; a button defers
    silently. Answers then go as follow-ups, and boards through the channel. A token that has
    already expired is no reason to stop: the work is still done and its board still posted."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=True)
    except discord.HTTPException:
        log.info("could not acknowledge interaction %s; going on", interaction.id)


def is_command(interaction: discord.Interaction) -> bool:
    return interaction.type is discord.InteractionType.application_command


async def post_board(interaction: discord.Interaction, board: BoardView) -> None:
    """Post a changed board in the game's home (its thread, or its channel) and make it the
    latest board, then tell the player where it is (nothing more in the home itself).

    The board goes through the channel, not the interaction: a move that is committed reaches
    the game's home with the next player's mention even when the interaction's token has
    expired. Only when the bot cannot post there does the board answer the interaction, and a
    failure of both is logged, never answered with "try again" (the move was made).
    """
    try:
        await deliver_board(interaction, board)
    except Exception:  # the change is committed: report it, never answer "try again"
        log.exception(
            "game %s: version %s committed; posting its board failed", board.game_id, board.version
        )
        await done(interaction)
    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    if board.finished and bot.settings.game_gifs:
        await post_game_gif(bot, board)
    from .opponent import after_board

    after_board(bot, board)  # the bot opponent's reply, when it is to act, comes after


async def post_game_gif(bot: IdzevaBot, board: BoardView) -> None:
    """The whole game as an animated GIF in its home, after its last board (issue 17). It is
    made in the service's worker pool: the event loop goes on serving everyone meanwhile."""
    try:
        data = await bot.service.game_gif(board.game_id, board.guild_id)
        if data is None:
            return
        file = discord.File(io.BytesIO(data), filename=f"{board.kind}-{board.game_id}.gif")
        text = f"{board.title} #{board.game_id}, the whole game: {board.result}"
        message = {
            "content": text,
            "file": file,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        await send_in(await home_channel(bot, board), message, board.game_id)
    except Exception:  # the game is over and its board posted: the GIF is a bonus
        log.exception("game %s: posting the GIF of the game failed", board.game_id)


async def deliver_board(interaction: discord.Interaction, board: BoardView) -> None:
    from .notify import quiet_turn, tell_turn, turn_route

    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    route = await turn_route(bot, board)  # where the next player wants "your turn"
    message = await post_turn_board(
        interaction, board, quiet_turn(board_message(board), board, route)
    )
    link = message.jump_url if message is not None else board_link(board)
    await tell_turn(bot, board, route, link)


async def post_turn_board(
    interaction: discord.Interaction, board: BoardView, posted: dict[str, Any]
) -> discord.Message | None:
    """Post the board (see ``post_board``); the message posted, if any."""
    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    home = await home_channel(bot, board)
    message = await send_in(home, posted, board.game_id)
    if message is not None:
        await make_latest_board(bot, board, message.id)
        if interaction.channel_id == home_id(board):
            await done(interaction)
        else:
            summary = board.result if board.finished else board.status
            await tell(
                interaction,
                f"{board.title} #{board.game_id}: {summary}. The board: <#{home_id(board)}>",
            )
        return message
    message = await answer_publicly(interaction, posted)
    if message is not None and interaction.channel_id == home_id(board):
        await make_latest_board(bot, board, message.id)
    return message


async def show_board_here(
    interaction: discord.Interaction, board: BoardView, *, bystander: bool
) -> None:
    """``/game board``: a player's copy is posted where asked (the latest board when that is
    the game's home); a bystander's is private and pings nobody."""
    if bystander:
        await tell_with(interaction, board_message(board, quiet=True))
        return
    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    here = interaction.channel if isinstance(interaction.channel, discord.abc.Messageable) else None
    message = await send_in(here, board_message(board), board.game_id)
    if message is None:
        message = await answer_publicly(interaction, board_message(board))
    else:
        await done(interaction)
    if message is not None and interaction.channel_id == home_id(board):
        await make_latest_board(bot, board, message.id)


async def home_channel(bot: IdzevaBot, board: BoardView) -> discord.abc.Messageable | None:
    """The game's thread or channel; an archived thread is not cached, so fetch it then."""
    channel = bot.get_channel(home_id(board))
    if channel is None:
        try:
            channel = await bot.fetch_channel(home_id(board))
        except discord.HTTPException:
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def send_in(
    channel: discord.abc.Messageable | None, message: dict[str, Any], game_id: int
) -> discord.Message | None:
    """Post through the channel; None when the bot cannot (no access, no permission)."""
    if channel is None:
        return None
    try:
        return await channel.send(**message)
    except discord.HTTPException:
        log.info("game %s: could not post in channel %s", game_id, getattr(channel, "id", "?"))
        return None


async def answer_publicly(
    interaction: discord.Interaction, message: dict[str, Any]
) -> discord.Message | None:
    """A public answer through the interaction (the private "thinking…" is completed first,
    since the first follow-up would take its place and its privacy)."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(**message)
            return await interaction.original_response()
        if is_command(interaction):
            await interaction.followup.send(NO_HOME, ephemeral=True)
        return await interaction.followup.send(**message, wait=True)
    except discord.HTTPException:
        log.warning("interaction %s: could not post the board anywhere", interaction.id)
        return None


async def done(interaction: discord.Interaction) -> None:
    """Nothing left to say: take a command's private "thinking…" away."""
    if is_command(interaction) and interaction.response.is_done():
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


async def update_source(interaction: discord.Interaction, **changes: Any) -> None:
    """Edit the message whose button was clicked (through the channel if the token failed)."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**changes)
        else:
            await interaction.response.edit_message(**changes)
    except discord.HTTPException:
        if interaction.message is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await interaction.message.edit(**changes)


async def make_latest_board(bot: IdzevaBot, board: BoardView, message_id: int) -> None:
    await retire_old_board(bot, board)
    await bot.service.set_board_message(board.game_id, message_id)


async def retire_old_board(bot: IdzevaBot, board: BoardView) -> None:
    """Take the buttons off the previous board message (best effort)."""
    if not board.message_id:
        return
    channel = bot.get_channel(home_id(board))
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        await channel.get_partial_message(board.message_id).edit(view=None)  # type: ignore[attr-defined]
    except discord.HTTPException:
        log.debug("could not retire board message %s", board.message_id)


async def refresh_board(bot: IdzevaBot, board: BoardView) -> None:
    """Give the latest board the buttons of a new version of the same position.

    A draw offer (or its refusal) bumps the game's version; without this the latest board's
    buttons would answer "outdated". Only the buttons change: the embed shows the uploaded
    picture, which an edit is best not to touch.
    """
    if not board.message_id:
        return
    channel = bot.get_channel(home_id(board))
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        await channel.get_partial_message(board.message_id).edit(  # type: ignore[attr-defined]
            view=board_view(board)
        )
    except discord.HTTPException:
        log.debug("could not refresh board message %s", board.message_id)


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer (within Discord's 2,000 characters, whatever it quotes)."""
    await tell_with(interaction, {"content": clip(text, CONTENT_LIMIT)})


async def tell_with(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    """An ephemeral answer; one that cannot be delivered (expired token) is only logged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**message, ephemeral=True)
        else:
            await interaction.response.send_message(**message, ephemeral=True)
    except discord.HTTPException:
        log.info("interaction %s: could not answer", interaction.id)


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer that changes nothing."""
    await tell(interaction, text)


async def answer_error(interaction: discord.Interaction, error: ServiceError) -> None:
    if isinstance(error, StaleBoard):
        board = error.board
        text = f"{error.message}\nCurrent board: {board_link(board)} — {board.status}"
        await refuse(interaction, text)
        return
    await refuse(interaction, error.message)


def legal_moves_text(moves: list[str]) -> str:
    if not moves:
        return "No legal moves right now."
    text = " ".join(f"`{m}`" for m in sorted(moves, key=natural_key))
    if len(text) > LEGAL_LIST_LIMIT:
        text = text[:LEGAL_LIST_LIMIT].rsplit(" ", 1)[0] + f" … ({len(moves)} in all)"
    return f"Legal moves ({len(moves)}): {text}"


# ---- challenge messages --------------------------------------------------------


def challenge_embed(challenge: ChallengeView, note: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=f"{challenge.title} challenge", colour=COLOUR_CHALLENGE)
    first = {"me": "challenger", "them": "challenged player", "random": "drawn at random"}
    mine, theirs = challenge.teams
    verb = "challenge" if len(mine) > 1 else "challenges"
    if challenge.is_open:
        lines = [f"{team_names(mine)} {verb} anyone here: the first to accept plays."]
    else:
        lines = [f"{team_names(mine)} {verb} {team_names(theirs)}."]
    if challenge.seats:
        again = "Sides"
        if challenge.rematch_of:
            again = f"Rematch of game #{challenge.rematch_of}, sides swapped"
        seats = zip(challenge.seat_names, challenge.seats, strict=True)
        lines.append(f"{again}: " + ", ".join(f"{mention(user)} {name}" for name, user in seats))
    elif challenge.draws_sides:
        lines.append("Sides and colours: drawn with the server's dice once everyone accepts.")
    else:
        lines.append(f"Plays first: {first.get(challenge.first, challenge.first)}")
    lines += [
        f"{mention(challenge.challenger_id)} plays {name}: {value}"
        for name, value in challenge.options
        if name == "colour"
    ]
    options = dict(challenge.options)
    levels = sorted(set(options.get("bot_levels", {}).values()))  # a rematch's bot seats
    for level in [options["level"]] if "level" in options else levels:
        lines.append(f"The bot plays at level **{level}**.")
    if options.get("rated", True) is False:
        lines.append("Friendly game: not rated.")
    timeout = bot_seats.timeout_line(options)
    if timeout:
        lines.append(timeout)
    if challenge.variants:
        lines.append(f"Variant: {', '.join(challenge.variants)}")
    if challenge.time:
        lines.append(f"Time per move: {describe(challenge.time)}")
    if challenge.status == "pending" and len(challenge.invited) > 1:
        if challenge.accepted:
            lines.append(f"Accepted: {team_names(challenge.accepted)}")
        lines.append(f"Waiting for: {team_names(challenge.waiting_for)}")
    if challenge.status == "pending":
        lines.append(f"Expires <t:{int(challenge.expires_at)}:R>.")
    else:
        lines.append(f"**{note or challenge.status.capitalize()}**")
    embed.description = "\n".join(lines)
    return embed


def challenge_content(challenge: ChallengeView, bot_id: int | None = None) -> str:
    """The text of a challenge message: whom it calls (the bot opponent, ``bot_id``, is not
    called: it accepts at once)."""
    if challenge.is_open:
        return (
            f"Open {challenge.title} challenge: anyone here may accept; the first to accept plays."
        )
    people = [user for user in challenge.invited if user != bot_id]
    if not people:
        return f"{mention(bot_id)} accepts."
    called = " ".join(mention(user) for user in people)
    if challenge.rematch_of is not None:
        asker = mention(challenge.challenger_id)
        return f"{called}, {asker} asks for a rematch of {challenge.title} #{challenge.rematch_of}!"
    return f"{called}, you are challenged!"


def team_names(users: tuple[int, ...]) -> str:
    return " and ".join(mention(user) for user in users)


def challenge_view(challenge: ChallengeView) -> discord.ui.View | None:
    if challenge.status != "pending":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(challenge.challenge_id, "accept"))
    view.add_item(ChallengeButton(challenge.challenge_id, "decline"))
    return view


# ---- persistent buttons (they survive restarts) -------------------------------


NO_HOME = "I cannot post there myself, so it follows here as an answer."
SORRY = "Something went wrong on our side. Please try again; `/game board` shows the current game."


def shown(number: int | None) -> str:
    """A number in a custom id; 0 (no game, no challenge) for one that was not an id."""
    return "0" if number is None else str(number)


ID_FIELDS = ("challenge_id", "game_id", "version")  # None when a custom id's number is no id


def guarded(callback: Callable[[Any, discord.Interaction], Awaitable[None]]):
    """Acknowledge a click at once, and answer the clicker even when the button's code fails
    (discord.py would only log it); a custom id whose numbers are no ids is refused."""

    @functools.wraps(callback)
    async def wrapper(item: Any, interaction: discord.Interaction) -> None:
        await acknowledge(interaction)
        if any(getattr(item, name, 0) is None for name in ID_FIELDS):
            await refuse(interaction, "This button names no game I can find.")
            return
        try:
            await callback(item, interaction)
        except Exception:
            log.exception("button %s failed", getattr(item, "custom_id", item))
            with contextlib.suppress(discord.HTTPException):
                await refuse(interaction, SORRY)

    return wrapper


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button], template=r"(?!)"):
    """A button that outlives the process. Its custom id ``idz:KIND:PART:...`` names what it
    acts on, and after a restart discord.py rebuilds it from that id: ``from_custom_id``
    passes the subclass's template groups, in order, to the subclass's constructor (numbers
    as ``parse_id`` reads them, so None where a number is no id, which ``guarded`` refuses).
    This base class matches no custom id and is never registered."""

    def __init__(
        self,
        kind: str,
        *parts: int | str | None,
        label: str,
        style: discord.ButtonStyle,
        disabled: bool = False,
    ):
        spelled = (part if isinstance(part, str) else shown(part) for part in parts)
        custom_id = ":".join(("idz", kind, *spelled))
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled)
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):  # noqa: ANN001
        return cls(*(read_part(text) for text in match.groups()))


def read_part(text: str) -> int | str | None:
    """A custom id's part: a number (None when it is no id we can store), else the word."""
    return parse_id(text) if text.isdigit() else text


def yes_no_style(positive: bool) -> discord.ButtonStyle:
    return discord.ButtonStyle.success if positive else discord.ButtonStyle.secondary


class ChallengeButton(
    PersistentButton, template=r"idz:ch:(?P<challenge>[0-9]+):(?P<action>accept|decline)"
):
    def __init__(self, challenge_id: int | None, action: str):
        style = discord.ButtonStyle.success if action == "accept" else discord.ButtonStyle.danger
        super().__init__("ch", challenge_id, action, label=action.capitalize(), style=style)
        self.challenge_id = challenge_id
        self.action = action

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import play

        if self.action == "accept":
            await play.accept(interaction, self.challenge_id)
        else:
            await play.decline(interaction, self.challenge_id)


class BoardButton(
    PersistentButton,
    template=(
        r"idz:g:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>moves|draw|takeback|resign|resign!)"
    ),
):
    LABELS = {
        "moves": ("Legal moves", discord.ButtonStyle.secondary),
        "draw": ("Offer draw", discord.ButtonStyle.secondary),
        "takeback": ("Takeback", discord.ButtonStyle.secondary),
        "resign": ("Resign", discord.ButtonStyle.danger),
        "resign!": ("Yes, resign", discord.ButtonStyle.danger),
    }

    def __init__(
        self, game_id: int | None, version: int | None, action: str, label: str | None = None
    ):
        default, style = self.LABELS[action]
        super().__init__("g", game_id, version, action, label=label or default, style=style)
        self.game_id = game_id
        self.version = version
        self.action = action

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import play

        await play.board_button(interaction, self.game_id, self.version, self.action)


class RollButton(PersistentButton, template=r"idz:r:(?P<game>[0-9]+):(?P<version>[0-9]+)"):
    """Rolls the dice due on this board (server-side); only the player to move may."""

    def __init__(self, game_id: int | None, version: int | None):
        super().__init__("r", game_id, version, label="Roll", style=discord.ButtonStyle.primary)
        self.game_id = game_id
        self.version = version

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import play

        await play.roll_on_board(interaction, self.game_id, self.version)


class AnswerButton(
    PersistentButton,
    template=r"idz:a:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<move>[a-z]+)",
):
    """Plays an answer move (e.g. ``accept`` or ``refuse`` a redemption offer) on the board at
    ``version``; only the player addressed may, and an outdated board refuses."""

    def __init__(
        self, game_id: int | None, version: int | None, move: str, label: str | None = None
    ):
        style = yes_no_style(move == "accept")
        super().__init__("a", game_id, version, move, label=label or move.capitalize(), style=style)
        self.game_id = game_id
        self.version = version
        self.move = move

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import play

        await play.move_on_board(interaction, self.game_id, self.version, self.move)


class DrawAnswerButton(PersistentButton, template=r"idz:dr:(?P<game>[0-9]+):(?P<answer>yes|no)"):
    def __init__(self, game_id: int | None, answer: str):
        label = "Accept draw" if answer == "yes" else "Decline"
        super().__init__("dr", game_id, answer, label=label, style=yes_no_style(answer == "yes"))
        self.game_id = game_id
        self.answer = answer

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import play

        await play.answer_draw(interaction, self.game_id, self.answer == "yes")


class ClaimButton(PersistentButton, template=r"idz:cl:(?P<game>[0-9]+)"):
    def __init__(self, game_id: int | None):
        style = discord.ButtonStyle.primary
        super().__init__("cl", game_id, label="Claim the win", style=style)
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import play

        await play.claim(interaction, self.game_id)


class RematchButton(PersistentButton, template=r"idz:rm:(?P<game>[0-9]+)"):
    """On a finished game's board: its players ask for the same game with sides swapped."""

    def __init__(self, game_id: int | None):
        super().__init__("rm", game_id, label="Rematch", style=discord.ButtonStyle.primary)
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from . import rematch

        await rematch.rematch(interaction, self.game_id)


DYNAMIC_ITEMS = (
    ChallengeButton,
    RematchButton,
    BoardButton,
    RollButton,
    AnswerButton,
    DrawAnswerButton,
    ClaimButton,
)


def single_button_view(item: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return view
