"""``/tournament create|join|leave|start|standings|pairings|withdraw|cancel``: events in a
server (issue 32), and the sign-up message's Join and Leave buttons.

Thin: each command parses its options, calls the service (bot/domain/tournaments/events.py
holds the rules) and answers. The rounds' pairings, each new game and the winner are posted
by the outbox (cogs/tournament_posts.py); a command that moved an event on posts them at once.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.domain.service import ServiceError
from bot.domain.tournaments.events import TableView, TournamentView, points_text
from render.standings import TableRow
from search import LEVELS

from .common.answers import acknowledge, answer_error, refuse, tell, tell_with, update_source
from .common.buttons import PersistentButton, guarded
from .common.client import IdzevaClient, client_of, guild_id, service
from .common.names import keep_name
from .common.options import ID_PATTERN, parse_id
from .common.text import COLOUR_CHALLENGE, clip
from .settings import GAME_CHOICES, TIMES

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="round robin", value="round-robin"),
    app_commands.Choice(name="double round robin", value="double-round-robin"),
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="knockout", value="knockout"),
]
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
TABLE_FILE = "standings.png"
NAME_THE_EVENT = (
    "Which tournament? Name it with `tournament:` (the list offers this server's events)."
)


class TournamentButton(
    PersistentButton, template=rf"idz:t:(?P<event>{ID_PATTERN}):(?P<action>join|leave)"
):
    """On the sign-up message: join or leave the event."""

    def __init__(self, event_id: int | None, action: str):
        style = discord.ButtonStyle.success if action == "join" else discord.ButtonStyle.secondary
        super().__init__("t", event_id, action, label=action.capitalize(), style=style)
        self.event_id = event_id
        self.action = action

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.event_id is None:
            await refuse(interaction, "This button names no tournament I can find.")
            return
        svc = service(interaction)
        try:
            guild = guild_id(interaction)
            if self.action == "join":
                event = await svc.join_tournament(self.event_id, guild, interaction.user.id)
            else:
                event = await svc.leave_tournament(self.event_id, guild, interaction.user.id)
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await keep_name(interaction, player=True)
        await update_source(interaction, **signup_message(event))


def signup_message(event: TournamentView) -> dict:
    """The sign-up message: the event, its players, Join and Leave while it signs up."""
    embed = discord.Embed(
        title=clip(f"{event.name} (tournament #{event.id})", 256),
        description="\n".join(event.lines()),
        colour=COLOUR_CHALLENGE,
    )
    view = None
    if event.status == "signup":
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentButton(event.id, "join"))
        view.add_item(TournamentButton(event.id, "leave"))
    return {"embed": embed, "view": view}


async def refresh_signup(bot: IdzevaClient, event: TournamentView) -> None:
    """Show the event as it is now on its sign-up message (best effort)."""
    channel = bot.get_channel(event.channel_id)
    if not event.message_id or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        message = channel.get_partial_message(event.message_id)  # type: ignore[attr-defined]
        await message.edit(**signup_message(event))
    except discord.HTTPException:
        log.info("tournament %s: could not update its sign-up message", event.id)


def parse_event_option(text: str) -> int | None:
    """``12`` (what the list sends) or ``#12``; nothing else."""
    word = text.strip()
    return parse_id(word[1:] if word.startswith("#") else word)


async def chosen_event(
    interaction: discord.Interaction, option: str | None, *, everything: bool = False
) -> int:
    """The event named, else the one open event of this channel (or of the server); with
    ``everything`` (a table, a round: finished events too), the newest of this channel."""
    if option is not None:
        event_id = parse_event_option(option)
        if event_id is None:
            raise ServiceError(NAME_THE_EVENT)
        return event_id
    events = await service(interaction).tournaments(guild_id(interaction), everything)
    channel = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
    here = [e for e in events if e.channel_id == channel]
    if everything and here:
        return here[0].id  # newest first
    for candidates in (here, events):
        if len(candidates) == 1:
            return candidates[0].id
    raise ServiceError(NAME_THE_EVENT)


def manager(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog, group_name="tournament", group_description="Tournaments in this server"
):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(description="Create a tournament in this channel, with a sign-up")
    @app_commands.describe(
        game="The game played",
        format="Round robin (Berger tables), double round robin, Swiss or knockout",
        rounds="Swiss only: how many rounds (default: ceil(log2 players) + 1)",
        time="Time per move of every game",
        rated="Rated games (default: yes)",
        variants="The game's variants, separated by spaces (e.g. pastang)",
        starts="Start by itself this many hours from now (else the organiser starts it)",
        max_players="At most this many players",
        name="The tournament's name",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, time=TIMES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 20] | None = None,
        time: app_commands.Choice[int] | None = None,
        rated: bool = True,
        variants: str | None = None,
        starts: app_commands.Range[int, 1, 720] | None = None,
        max_players: app_commands.Range[int, 2, 1000] | None = None,
        name: str | None = None,
    ) -> None:
        svc = service(interaction)
        roles = [role.id for role in getattr(interaction.user, "roles", [])]
        try:
            event = await svc.create_tournament(
                guild_id=guild_id(interaction),
                channel_id=interaction.channel_id or 0,
                parent_channel_id=getattr(interaction.channel, "parent_id", None),
                organiser_id=interaction.user.id,
                roles=roles,
                manager=manager(interaction),
                kind=game.value,
                format=format.value,
                variants=tuple((variants or "")[:200].lower().replace(",", " ").split()),
                rounds=rounds,
                time=time.value if time else None,
                rated=rated,
                max_players=max_players,
                starts_in_hours=starts,
                name=(name or "")[:200] or None,
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(
            **signup_message(event), allowed_mentions=discord.AllowedMentions.none()
        )
        message = await interaction.original_response()
        await svc.set_tournament_message(event.id, message.id)

    @app_commands.command(description="Sign up for a tournament (the organiser may enter the bot)")
    @app_commands.describe(
        tournament="Which tournament (default: this channel's)",
        player="Leave empty to sign yourself up; the organiser names the bot to enter it",
        level="The bot's level, when entering the bot",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def join(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        player: discord.User | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        bot = client_of(interaction)
        me = bot.user.id if bot.user else None
        if player is not None and player.id not in (interaction.user.id, me):
            await refuse(interaction, "Players sign up themselves; the organiser may enter me.")
            return
        bot_level = (level.value if level else "normal") if player and player.id == me else None
        if bot_level is None and level is not None:
            await refuse(interaction, "The level is for entering me: add `player:` with me.")
            return
        try:
            event_id = await chosen_event(interaction, tournament)
            event = await service(interaction).join_tournament(
                event_id,
                guild_id(interaction),
                interaction.user.id,
                bot_level=bot_level,
                manager=manager(interaction),
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        if bot_level is None:
            await keep_name(interaction, player=True)
        who = "I am" if bot_level else "You are"
        await tell(interaction, f"{who} in **{event.name}** ({len(event.players)} players).")
        await refresh_signup(bot, event)

    @app_commands.command(description="Take back your sign-up before the tournament starts")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def leave(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        try:
            event_id = await chosen_event(interaction, tournament)
            event = await service(interaction).leave_tournament(
                event_id, guild_id(interaction), interaction.user.id
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await tell(interaction, f"You have left **{event.name}**.")
        await refresh_signup(client_of(interaction), event)

    @app_commands.command(description="Start the tournament: round 1's games begin at once")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def start(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await acknowledge(interaction)
        bot = client_of(interaction)
        try:
            event_id = await chosen_event(interaction, tournament)
            started = await service(interaction).start_tournament(
                event_id, guild_id(interaction), interaction.user.id, manager=manager(interaction)
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await tell(interaction, f"**{started.event.name}** has started: round 1 is posted.")
        await refresh_signup(bot, started.event)
        await bot.post_notices()

    @app_commands.command(description="A tournament's table: points and tie-breaks")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def standings(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        await acknowledge(interaction)
        svc = service(interaction)
        try:
            event_id = await chosen_event(interaction, tournament, everything=True)
            table = await svc.tournament_table(event_id, guild_id(interaction))
            names = await player_names(interaction, table)
            png = await svc.standings_picture(*table_picture(table, names))
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        file = discord.File(io.BytesIO(png), filename=TABLE_FILE)
        await tell_with(interaction, {"content": table_text(table, names), "file": file})

    @app_commands.command(description="A round's games and results")
    @app_commands.describe(
        tournament="Which tournament (default: this channel's)",
        round="Which round (default: the one in play)",
    )
    async def pairings(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        round: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        try:
            event_id = await chosen_event(interaction, tournament, everything=True)
            shown = await service(interaction).tournament_round(
                event_id, guild_id(interaction), round
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        lines = [f"**{shown.event.name}**, round {shown.number}:"]
        for board in shown.boards:
            lines.append(board_line(board))
        await tell_with(
            interaction,
            {
                "content": clip("\n".join(lines), 2000),
                "allowed_mentions": discord.AllowedMentions.none(),
            },
        )

    @app_commands.command(description="Leave a running tournament: your games left are lost")
    @app_commands.describe(
        tournament="Which tournament (default: this channel's)",
        player="The organiser may withdraw a player (default: yourself)",
    )
    async def withdraw(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        player: discord.User | None = None,
    ) -> None:
        await acknowledge(interaction)
        who = player.id if player else interaction.user.id
        try:
            event_id = await chosen_event(interaction, tournament)
            event = await service(interaction).withdraw_from_tournament(
                event_id,
                guild_id(interaction),
                who,
                by=interaction.user.id,
                manager=manager(interaction),
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await tell(interaction, f"<@{who}> has withdrawn from **{event.name}**.")
        await client_of(interaction).post_notices()

    @app_commands.command(description="Cancel a tournament (its organiser, or Manage Server)")
    @app_commands.describe(tournament="Which tournament (default: this channel's)")
    async def cancel(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await acknowledge(interaction)
        bot = client_of(interaction)
        try:
            event_id = await chosen_event(interaction, tournament)
            event = await service(interaction).cancel_tournament(
                event_id, guild_id(interaction), interaction.user.id, manager=manager(interaction)
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await tell(interaction, f"**{event.name}** is cancelled.")
        await refresh_signup(bot, event)
        await bot.post_notices()

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @start.autocomplete("tournament")
    @standings.autocomplete("tournament")
    @pairings.autocomplete("tournament")
    @withdraw.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    async def tournament_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        events = await service(interaction).tournaments(interaction.guild_id, everything=True)
        typed = current.strip().lower()[:100]
        return [
            app_commands.Choice(name=clip(f"{e.name} (#{e.id}, {e.status})", 100), value=str(e.id))
            for e in events
            if typed in e.name.lower() or typed in str(e.id)
        ][:25]


async def player_names(interaction: discord.Interaction, table: TableView) -> dict[int, str]:
    """Display names: the server's members, then the names the bot kept, then the id."""
    ids = [row.player for row in table.rows]
    kept = await service(interaction).player_names(guild_id(interaction), ids)
    names = {}
    for user in ids:
        member = interaction.guild.get_member(user) if interaction.guild else None
        names[user] = member.display_name if member else kept.get(user, f"player {user}")
    return names


def table_picture(table: TableView, names: dict[int, str]) -> tuple[str, str, list[TableRow]]:
    event = table.event
    where = {"signup": "signing up", "running": f"after round {event.round}",
             "finished": "final table", "cancelled": "cancelled"}[event.status]  # fmt: skip
    subtitle = f"{event.title}, {event.format_name}, {where}"
    rows = [
        TableRow(
            place=s.place,
            name=names[s.player],
            points=decimal(s.points),
            buchholz=decimal(s.buchholz),
            sonneborn_berger=decimal(s.sonneborn_berger),
            games=str(s.games),
            withdrawn=s.withdrawn,
        )
        for s in table.rows
    ]
    return event.name, subtitle, rows


def decimal(value: float) -> str:
    return f"{value:g}"


def table_text(table: TableView, names: dict[int, str]) -> str:
    """The table's first lines as text, for screen readers and a failed picture."""
    lines = [f"**{table.event.name}**: place, player, points (Buchholz cut-1, Sonneborn-Berger)"]
    for s in table.rows[:10]:
        lines.append(
            f"{s.place}. {clip(names[s.player], 32)}: {points_text(s.points)}"
            f" ({decimal(s.buchholz)}, {decimal(s.sonneborn_berger)})"
        )
    if len(table.rows) > 10:
        lines.append(f"and {len(table.rows) - 10} more (in the picture)")
    return discord.utils.escape_mentions(clip("\n".join(lines), 1900))


def board_line(board) -> str:
    if board.is_bye:
        return f"{board.board}. <@{board.white_id}>: a bye"
    result = {None: "playing", 1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}[board.white_points]
    if board.forfeit:
        result += " (not played)"
    return f"{board.board}. <@{board.white_id}> against <@{board.black_id}>: {result}"


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(TournamentCog(bot))
