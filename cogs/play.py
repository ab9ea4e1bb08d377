"""Interaction flows shared by every game: challenge, accept, move, buttons, draws, claims.

Each function parses the interaction, calls the game service and answers. Service errors
become short ephemeral answers; nothing here knows a game's rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.domain.service import (
    BoardView,
    ChallengeView,
    GameService,
    GameSummary,
    IllegalMoveError,
    RollDue,
    ServiceError,
)

from . import opponent as opponent_side
from .options import ChallengeOptions, parse_game_option
from .ui import (
    BoardButton,
    DrawAnswerButton,
    acknowledge,
    answer_error,
    answer_publicly,
    board_message,
    challenge_content,
    challenge_embed,
    challenge_view,
    done,
    legal_moves_text,
    mention,
    players_only,
    post_board,
    refresh_board,
    refuse,
    send_in,
    show_board_here,
    single_button_view,
    tell,
    tell_with,
    update_source,
)

if TYPE_CHECKING:
    from bot.app import IdzevaBot

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25  # Discord's maximum number of choices
CHOICE_NAME_LIMIT = 100  # Discord's maximum length of a choice's name


def service(interaction: discord.Interaction) -> GameService:
    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    return bot.service


def guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("Games are played in servers, not in direct messages.")
    return interaction.guild_id


# ---- finding the game a command is about ----------------------------------------


async def resolve_game(
    interaction: discord.Interaction, option: str | None, kind: str | None = None
) -> int:
    """The game a command means: the option, else this thread's game, else the only one."""
    svc, guild = service(interaction), guild_id(interaction)
    if option:
        game_id = parse_game_option(option)
        if kind is not None:
            refuse_other_kind(interaction, await svc.summary(game_id, guild), kind)
        return game_id
    here = await svc.game_in_thread(guild, interaction.channel_id or 0)
    if here is not None:  # a game's thread holds that game only
        if kind is not None:
            refuse_other_kind(interaction, here, kind)
        return here.game_id
    games = [
        g
        for g in await svc.list_games(guild, interaction.user.id)
        if kind is None or g.kind == kind
    ]
    if len(games) == 1:
        return games[0].game_id
    my_turn = [g for g in games if g.to_move_user == interaction.user.id]
    if len(my_turn) == 1:
        return my_turn[0].game_id
    if not games:
        raise ServiceError("You have no game in progress here. Start one with a challenge.")
    raise ServiceError("You have several games here: choose one with the `game` option.")


def refuse_other_kind(interaction: discord.Interaction, game: GameSummary, kind: str) -> None:
    """``/shax move`` on a Tchela game changes nothing and says which command to use."""
    if game.kind != kind:
        use = command_for(interaction, game.kind)
        raise ServiceError(f"Game #{game.game_id} is {game.title}: use `{use}`.")


def command_for(interaction: discord.Interaction, kind: str) -> str:
    """The command of the game ``kind`` that does what this one does (``/tchela move`` for
    ``/shax move``); its ``move`` when it has no such command (``/shax`` has no ``roll``)."""
    name = interaction.command.name if interaction.command else "move"
    for cog in interaction.client.cogs.values():  # type: ignore[attr-defined]
        group = getattr(cog, "app_command", None)
        if getattr(cog, "kind", None) == kind and isinstance(group, app_commands.Group):
            found = group.get_command(name) or group.get_command("move")
            return f"/{found.qualified_name}" if found else f"/{group.name}"
    return f"/{kind}"


async def visible_game(interaction: discord.Interaction, game_id: int) -> GameSummary:
    """The game, for its players and for whoever can see its channel; to anyone else it does
    not exist (the same answer as a game of another server)."""
    found = await service(interaction).summary(game_id, guild_id(interaction))
    if interaction.user.id in found.players or can_view(interaction, found):
        return found
    raise ServiceError(f"There is no game #{game_id} in this server.")


def can_view(interaction: discord.Interaction, game: GameSummary) -> bool:
    guild, user = interaction.guild, interaction.user
    if guild is None or not isinstance(user, discord.Member):
        return False
    channel = guild.get_channel_or_thread(game.thread_id or 0) or guild.get_channel(game.channel_id)
    return channel is not None and channel.permissions_for(user).view_channel


def game_choice_name(game: GameSummary, user_id: int) -> str:
    others = ", ".join(f"@{p}" for p in game.players if p != user_id)  # ids; names unknown here
    turn = "your turn" if game.to_move_user == user_id else game.status
    return f"#{game.game_id} {game.title} — {turn}"[:100] if others else f"#{game.game_id}"


async def game_autocomplete(
    interaction: discord.Interaction, current: str, kind: str | None = None
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    games = await service(interaction).list_games(interaction.guild_id, interaction.user.id)
    choices = [
        app_commands.Choice(name=game_choice_name(g, interaction.user.id), value=str(g.game_id))
        for g in games
        if kind is None or g.kind == kind
    ]
    typed = current.strip().lower().lstrip("#")
    return [c for c in choices if typed in c.name.lower()][:AUTOCOMPLETE_LIMIT]


async def move_autocomplete(
    interaction: discord.Interaction,
    current: str,
    kind: str,
    keep: Callable[[str], bool] | None = None,
) -> list[app_commands.Choice[str]]:
    """Legal moves of the game the command is about, filtered by what was typed.

    Each choice is named by the move and the game's reading of it, and its value is the
    canonical move (the service checks it again on submission). ``keep`` narrows the moves
    for a command that plays one sort of them (e.g. only jumps).
    """
    try:
        option = getattr(interaction.namespace, "game", None)
        game_id = await resolve_game(interaction, option, kind)
        choices = await service(interaction).move_choices(
            game_id, guild_id(interaction), typed=current
        )
    except (ServiceError, ValueError):  # ValueError: a parser that could not read ``current``
        return []
    if keep is not None:
        choices = [(move, text) for move, text in choices if keep(move)]
    return [
        app_commands.Choice(name=move_choice_name(move, text), value=move)
        for move, text in choices[:AUTOCOMPLETE_LIMIT]
    ]


def move_choice_name(move: str, description: str) -> str:
    """``"7+s · hole 7 — sow 3, …"``: the move first, so it can be typed; just the move when
    the game has nothing to add, and the reading alone when it starts or ends with the move
    (``"2/7 — piece forward 5 to …"``, ``"Swod Mortil C3 → Mortil C4 (c3-c4)"``). Discord
    allows 100 characters."""
    if not description or description == move:
        return move[:CHOICE_NAME_LIMIT]
    told = description.startswith(move) or description.endswith(f"({move})")
    name = description if told else f"{move} · {description}"
    if len(name) <= CHOICE_NAME_LIMIT:
        return name
    cut = name[: CHOICE_NAME_LIMIT - 1].rsplit(" ", 1)[0].rstrip(" ,—·")
    return cut + "…"


# ---- challenges -----------------------------------------------------------------


async def challenge(
    interaction: discord.Interaction,
    kind: str,
    shared: ChallengeOptions,
    first: str = "random",
    variants: tuple[str, ...] = (),
    *,
    partner: discord.Member | discord.User | None = None,
    opponent_partner: discord.Member | discord.User | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """``shared``: the options of every challenge (``cogs/options.py``): the opponent, the
    bot's level when it is challenged (it accepts at once), rated, and the time per move."""
    opponent, level, rated, time = shared.opponent, shared.level, shared.rated, shared.time
    svc = service(interaction)
    if not rated:  # absent means rated (bot/domain/ratings.py)
        options = {**(options or {}), "rated": False}
    invited = [user for user in (opponent, partner, opponent_partner) if user is not None]
    if level is not None:
        options = {**(options or {}), "level": level}
    chosen: dict[str, object] = {**(options or {}), **({"time": time} if time else {})}
    try:
        await refuse_in_game_thread(interaction)
        created = await svc.create_challenge(
            guild_id=guild_id(interaction),
            channel_id=interaction.channel_id or 0,
            kind=kind,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id if opponent else None,
            first=first,
            variants=variants,
            partner_id=partner.id if partner else None,
            opponent_partner_id=opponent_partner.id if opponent_partner else None,
            bots=[user.id for user in invited if user.bot],
            options=chosen,
            parent_channel_id=getattr(interaction.channel, "parent_id", None),
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await interaction.response.send_message(
        content=challenge_content(created, interaction.client.user.id),  # type: ignore[union-attr]
        embed=challenge_embed(created),
        view=challenge_view(created),
        allowed_mentions=players_only(created),
    )
    message = await interaction.original_response()
    await svc.set_challenge_message(created.challenge_id, message.id)
    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    try:
        board = await opponent_side.accept_for_bot(bot, created, message)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if board is not None:  # the bot was the last to accept: the game starts
        await start_game(interaction, board, message)


async def refuse_in_game_thread(interaction: discord.Interaction) -> None:
    """A game's thread holds that game only: a new game there would have no home of its own."""
    here = await service(interaction).game_in_thread(
        guild_id(interaction), interaction.channel_id or 0
    )
    if here is not None:
        raise ServiceError(
            f"This thread belongs to {here.title} #{here.game_id}. "
            "Challenge from the channel instead, and the new game gets its own thread."
        )


async def here_challenge(interaction: discord.Interaction, challenge_id: int) -> ChallengeView:
    """The challenge, if it belongs to the server the click comes from."""
    found = await service(interaction).get_challenge(challenge_id)
    if found.guild_id != interaction.guild_id:
        raise ServiceError(f"There is no challenge #{challenge_id}.")
    return found


async def accept(interaction: discord.Interaction, challenge_id: int) -> None:
    svc = service(interaction)
    await acknowledge(interaction)
    try:
        await here_challenge(interaction, challenge_id)
        board = await svc.accept_challenge(challenge_id, interaction.user.id)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if isinstance(board, ChallengeView):  # others still have to accept
        await update_source(interaction, embed=challenge_embed(board), view=challenge_view(board))
        return
    accepted = await svc.get_challenge(challenge_id)
    await update_source(
        interaction,
        embed=challenge_embed(accepted, note=f"Accepted: game #{board.game_id}"),
        view=None,
    )
    await start_game(interaction, board, interaction.message)


async def start_game(
    interaction: discord.Interaction, board: BoardView, challenge: discord.Message | None
) -> None:
    """Post the new game's first board: in a new thread on the challenge message; where the
    bot cannot make one or cannot post in it, into the channel; failing that, as an answer to
    the interaction. The first player's "your turn" goes where they chose (``/game notify``).
    The bot opponent then plays, if it moves first."""
    from .notify import quiet_turn, tell_turn, turn_route

    svc = service(interaction)
    bot: IdzevaBot = interaction.client  # type: ignore[assignment]
    route = await turn_route(bot, board)
    first = quiet_turn(board_message(board), board, route)
    threads = (await svc.server_settings(board.guild_id)).threads  # the server may say not
    thread = await open_thread(interaction, board, challenge) if threads else None
    message = await send_in(thread, first, board.game_id)
    if message is None:
        thread = None
        channel = challenge.channel if challenge else interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            message = await send_in(channel, first, board.game_id)
    if message is None:
        message = await answer_publicly(interaction, first)
    await svc.set_game_location(
        board.game_id,
        thread_id=thread.id if thread else None,
        message_id=message.id if message else None,
    )
    if message is not None:
        shown = replace(board, thread_id=thread.id if thread else None, message_id=message.id)
        await tell_turn(bot, shown, route, message.jump_url)
    opponent_side.after_board(bot, board)


async def open_thread(
    interaction: discord.Interaction, board: BoardView, challenge: discord.Message | None
) -> discord.Thread | None:
    """A public thread for the game on the challenge message; None where threads can't be."""
    if challenge is None or isinstance(challenge.channel, discord.Thread):
        return None
    name = f"{board.title} #{board.game_id}"
    try:
        return await challenge.create_thread(name=name, auto_archive_duration=10080)
    except (discord.HTTPException, ValueError):
        log.info("no thread for game %s; playing in the channel", board.game_id)
        return None


async def decline(interaction: discord.Interaction, challenge_id: int) -> None:
    await acknowledge(interaction)
    try:
        await here_challenge(interaction, challenge_id)
        declined = await service(interaction).decline_challenge(challenge_id, interaction.user.id)
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await update_source(interaction, embed=challenge_embed(declined), view=None)


# ---- moves and game actions -----------------------------------------------------


async def move(
    interaction: discord.Interaction,
    kind: str,
    text: str,
    game: str | None,
    *,
    illegal: str | None = None,
) -> None:
    """Play ``text``; ``illegal`` replaces the engine's reason when the move is not legal
    (for commands that play one fixed action and can say when it is allowed)."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game, kind)
        board = await service(interaction).move(
            game_id, interaction.user.id, text, guild_id=guild_id(interaction)
        )
    except RollDue as error:
        command = interaction.command  # e.g. /sachi move: its group also has roll
        group = command.parent.name if command and command.parent else kind
        await refuse(interaction, f"{error.message} Use the Roll button or `/{group} roll`.")
        return
    except IllegalMoveError as error:
        await refuse(interaction, illegal or error.message)
        return
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def roll(interaction: discord.Interaction, kind: str, game: str | None) -> None:
    """Roll the dice due in the game the command is about, and post the board with them."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game, kind)
        board = await service(interaction).roll(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def move_on_board(
    interaction: discord.Interaction, game_id: int, version: int, text: str
) -> None:
    """A move button (e.g. Accept offer) of the board at ``version``: an outdated board
    refuses."""
    try:
        board = await service(interaction).move(
            game_id,
            interaction.user.id,
            text,
            guild_id=guild_id(interaction),
            expected_version=version,
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def roll_on_board(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """The Roll button of the board at ``version``: an outdated board refuses."""
    try:
        board = await service(interaction).roll(
            game_id, interaction.user.id, guild_id=guild_id(interaction), expected_version=version
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def show_board(interaction: discord.Interaction, game: str | None) -> None:
    """The board where asked: public for a player, private (and naming nobody) for anyone
    else who can see the game's channel."""
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
        found = await visible_game(interaction, game_id)
        board = await service(interaction).board(game_id, guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    bystander = interaction.user.id not in found.players
    await show_board_here(interaction, board, bystander=bystander)


async def resign(
    interaction: discord.Interaction, game_id: int, expected_version: int | None = None
) -> None:
    await acknowledge(interaction)
    try:
        board = await service(interaction).resign(
            game_id,
            interaction.user.id,
            guild_id=guild_id(interaction),
            expected_version=expected_version,
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


RESIGN_CHOICES = 5  # buttons in one "which game?" question (Discord allows 25 per message)


async def resign_command(interaction: discord.Interaction, option: str | None) -> None:
    """``/game resign``: at once for a game named (the option, or this game's thread); for a
    game the command would have to guess, a question with a confirm button per game."""
    svc = service(interaction)
    await acknowledge(interaction)
    try:
        guild = guild_id(interaction)
        if option:
            await resign(interaction, parse_game_option(option))
            return
        here = await svc.game_in_thread(guild, interaction.channel_id or 0)
        if here is not None:  # the thread's game is named by the place
            await resign(interaction, here.game_id)
            return
        games = await svc.list_games(guild, interaction.user.id)
        if not games:
            raise ServiceError("You have no game in progress here.")
        shown = games[:RESIGN_CHOICES]
        boards = [await svc.board(g.game_id, guild, with_image=False) for g in shown]
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    view = discord.ui.View(timeout=None)
    for board in boards:
        label = f"Resign {board.title} #{board.game_id}"
        view.add_item(BoardButton(board.game_id, board.version, "resign!", label=label))
    if len(games) == 1:
        question = f"Resign {boards[0].title} #{boards[0].game_id}? This cannot be undone."
    else:
        more = "" if len(games) <= RESIGN_CHOICES else " (or name another with `game`)"
        question = f"You have {len(games)} games here: which one do you resign{more}? "
        question += "This cannot be undone."
    await tell_with(interaction, {"content": question, "view": view})


async def offer_draw(interaction: discord.Interaction, game_id: int) -> None:
    svc = service(interaction)
    await acknowledge(interaction)
    try:
        board = await svc.offer_draw(game_id, interaction.user.id, guild_id=guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if board.finished:  # the opponent's offer was standing: this agreed to it
        await post_board(interaction, board)
        return
    others = [p for p in board.players if p != interaction.user.id]
    view = discord.ui.View(timeout=None)
    view.add_item(DrawAnswerButton(game_id, "yes"))
    view.add_item(DrawAnswerButton(game_id, "no"))
    offer = {
        "content": f"{mention(interaction.user.id)} offers a draw in {board.title} #{game_id}. "
        f"{' '.join(mention(p) for p in others)}, do you accept?",
        "view": view,
        "allowed_mentions": players_only(board),
    }
    here = interaction.channel if isinstance(interaction.channel, discord.abc.Messageable) else None
    posted = await send_in(here, offer, game_id)
    if posted is None:
        posted = await answer_publicly(interaction, offer)
    else:
        await done(interaction)
    await refresh_board(interaction.client, board)  # type: ignore[arg-type]
    await opponent_side.answer_draw(interaction.client, board, interaction.user.id, posted)  # type: ignore[arg-type]


async def answer_draw(interaction: discord.Interaction, game_id: int, accepted: bool) -> None:
    svc = service(interaction)
    try:
        board = await svc.answer_draw(
            game_id, interaction.user.id, accepted, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    verdict = "accepted" if accepted else "declined"
    await update_source(
        interaction,
        content=f"Draw offer {verdict} by {mention(interaction.user.id)}.",
        view=None,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    if accepted:
        await post_board(interaction, board)
    else:
        await refresh_board(interaction.client, board)  # type: ignore[arg-type]


async def claim(interaction: discord.Interaction, game_id: int) -> None:
    await acknowledge(interaction)
    try:
        board = await service(interaction).claim_timeout(
            game_id, interaction.user.id, guild_id=guild_id(interaction)
        )
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    await post_board(interaction, board)


async def history(interaction: discord.Interaction, game: str | None) -> None:
    await acknowledge(interaction)
    try:
        game_id = await resolve_game(interaction, game)
        await visible_game(interaction, game_id)
        lines = await service(interaction).history(game_id, guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    text = "\n".join(lines) if lines else "No moves yet."
    if len(text) > 1900:
        text = "…\n" + text[-1900:].split("\n", 1)[-1]
    await tell(interaction, f"**Game #{game_id}**\n```\n{text}\n```")


async def board_button(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    """A click on a board's buttons; an outdated board refuses."""
    svc = service(interaction)
    try:
        current = await svc.board(game_id, guild_id(interaction))
    except ServiceError as error:
        await answer_error(interaction, error)
        return
    if current.version != version or current.finished:
        from .ui import board_link

        await refuse(
            interaction,
            f"This board is outdated. The current one: {board_link(current)} — {current.status}",
        )
        return
    if action == "moves" and current.dice_needed:
        await refuse(interaction, f"Roll the dice first ({current.dice_needed}): no moves yet.")
    elif action == "moves":
        moves = await svc.legal_moves(game_id, current.guild_id)
        await refuse(interaction, legal_moves_text(moves))
    elif action == "draw":
        await offer_draw(interaction, game_id)
    elif action == "takeback":
        from . import takeback

        await takeback.ask(interaction, game_id)
    elif action == "resign":
        if interaction.user.id not in current.players:
            await refuse(interaction, "You are not playing in this game.")
            return
        confirm = single_button_view(BoardButton(game_id, version, "resign!"))
        await tell_with(
            interaction, {"content": "Resign this game? This cannot be undone.", "view": confirm}
        )
    elif action == "resign!":
        await resign(interaction, game_id, expected_version=version)
