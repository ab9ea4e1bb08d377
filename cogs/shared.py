"""``/game ...``: the commands every game shares."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.domain.notify import NotifyChoice
from bot.domain.ratings import rated_game_title
from bot.domain.service import ServiceError
from bot.storage.rating_model import rated_games
from games import GAMES

from . import analysis as analysis_flow
from . import hint as hint_flow
from . import learn as learn_flow
from . import notify as notify_flow
from . import play, replay, standings
from . import puzzle as puzzle_flow
from . import rules as rules_flow
from . import takeback as takeback_flow
from .autocomplete import game_autocomplete
from .common.answers import acknowledge, answer_error, refuse, tell_with
from .common.client import client_of, guild_id, service
from .common.sending import edit_board_clock
from .common.text import message_link
from .finding import resolve_game, visible_game
from .notices import tell_opponents
from .posting import thread_deleted

log = logging.getLogger(__name__)

LIST_LIMIT = 20  # games shown by /game list (the most recent; active ones first)
GAME_CHOICES = [app_commands.Choice(name=cls.title, value=key) for key, cls in GAMES.items()]
# What is rated apart: each game, and Pastang apart from Poron Jikaida.
RATED_CHOICES = [
    app_commands.Choice(name=rated_game_title(key), value=key) for key in rated_games()
]


@app_commands.guild_only()
class SharedCog(commands.GroupCog, group_name="game", group_description="Your board games"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="list", description="Your games in this server")
    @app_commands.describe(finished="Include finished games")
    async def list_games(self, interaction: discord.Interaction, finished: bool = False) -> None:
        try:
            games = await service(interaction).list_games(
                guild_id(interaction),
                interaction.user.id,
                include_finished=finished,
                limit=LIST_LIMIT,
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        if not games:
            starts = ", ".join(f"`/{key} challenge`" for key in GAMES)
            await refuse(interaction, f"You have no games here. Start one with {starts}.")
            return
        lines = []
        for g in games[:LIST_LIMIT]:
            link = message_link(g.guild_id, g.thread_id or g.channel_id, g.message_id)
            turn = " — **your turn**" if g.to_move_user == interaction.user.id else ""
            lines.append(f"[#{g.game_id} {g.title}]({link}): {g.status}{turn}")
        embed = discord.Embed(title="Your games", description="\n".join(lines))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(description="Show the current board of a game")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def board(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.show_board(interaction, game)

    @app_commands.command(description="The moves played so far")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def history(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.history(interaction, game)

    @app_commands.command(description="The game record (JSON) and its move list, as files")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await acknowledge(interaction)
        try:
            game_id = await resolve_game(interaction, game)
            found = await visible_game(interaction, game_id)
            # Names where known without asking Discord: the asker's, and cached members'.
            names = {interaction.user.id: interaction.user.display_name}
            for user in found.players:
                member = interaction.guild.get_member(user) if interaction.guild else None
                if member is not None:
                    names[user] = member.display_name
            data, moves = await service(interaction).record_files(
                game_id, guild_id(interaction), names
            )
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        stem = f"{found.kind}-{game_id}"
        files = [
            discord.File(io.BytesIO(data.encode()), filename=f"{stem}.json"),
            discord.File(io.BytesIO(moves.encode()), filename=f"{stem}.txt"),
        ]
        note = f"**Game #{game_id}**: the record (replay it with `idzeva replay {stem}.json`)"
        await tell_with(interaction, {"content": note, "files": files})

    @app_commands.command(description="Step through any of your games, move by move")
    @app_commands.describe(
        game="The game (defaults to this thread's game)",
        ply="Moves played (default: all of them)",
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        ply: app_commands.Range[int, 0, 100_000] | None = None,
    ) -> None:
        await replay.show(interaction, game, ply)

    @app_commands.command(description="Resign a game")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def resign(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await play.resign_command(interaction, game)

    @app_commands.command(description="Offer your opponent a draw")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def draw(self, interaction: discord.Interaction, game: str | None = None) -> None:
        try:
            game_id = await resolve_game(interaction, game)
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await play.offer_draw(interaction, game_id)

    @app_commands.command(description="Ask your opponent to undo your last move")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def takeback(self, interaction: discord.Interaction, game: str | None = None) -> None:
        try:
            game_id = await resolve_game(interaction, game)
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await takeback_flow.ask(interaction, game_id)

    @app_commands.command(description="The move the bot would play for you now, and why (private)")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def hint(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await hint_flow.show(interaction, game)

    @app_commands.command(description="Learn a game in short lessons, privately, where you stopped")
    @app_commands.describe(
        course="The game to learn (leave it out for the list, with your ticks)",
        answer="Your answer to the step you are at, typed as a move in a game",
    )
    async def learn(
        self, interaction: discord.Interaction, course: str | None = None, answer: str | None = None
    ) -> None:
        await learn_flow.show(interaction, course, answer)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await learn_flow.form_submitted(interaction)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread deleted by the server's admins: the game goes on in a new one."""
        try:
            await thread_deleted(self.bot, payload.guild_id, payload.thread_id)  # type: ignore[arg-type]
        except ServiceError:
            log.info("thread %s: its game could not be moved", payload.thread_id)

    @learn.autocomplete("course")
    async def course_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return learn_flow.course_choices(current)

    @learn.autocomplete("answer")
    async def answer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        course = getattr(interaction.namespace, "course", None)
        return await learn_flow.answer_choices(interaction, course, current)

    @app_commands.command(
        description="The bot's analysis of a finished game: win chances, swings (private)"
    )
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def analysis(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await analysis_flow.command(interaction, game)

    @app_commands.command(description="A puzzle: find the turn that wins or decides (private)")
    @app_commands.describe(
        game="Which game's puzzles (default: any; daily: the server's puzzle of the day)",
        answer="Your whole turn in your open puzzle",
    )
    @app_commands.choices(game=puzzle_flow.SET_CHOICES)
    async def puzzle(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        answer: str | None = None,
    ) -> None:
        await puzzle_flow.puzzle(interaction, game, answer)

    @puzzle.autocomplete("answer")
    async def puzzle_answer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await puzzle_flow.answer_autocomplete(interaction, current)

    @app_commands.command(description="Where your turn notices reach you in this server")
    @app_commands.describe(
        where="Thread (a mention), DM, both, or off",
        digest="A daily DM of your games to play",
        digest_hour="The hour it comes, 0-23 in your time zone (default 8)",
        timezone="Your time zone, e.g. Europe/Berlin (default UTC)",
    )
    @app_commands.choices(where=notify_flow.WHERE_CHOICES)
    async def notify(
        self,
        interaction: discord.Interaction,
        where: str | None = None,
        digest: bool | None = None,
        digest_hour: app_commands.Range[int, 0, 23] | None = None,
        timezone: str | None = None,
    ) -> None:
        choice = NotifyChoice(where, digest, digest_hour, timezone)
        await notify_flow.command(interaction, choice)

    @notify.autocomplete("timezone")
    async def timezone_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await notify_flow.zone_autocomplete(current)

    @app_commands.command(description="Claim the win when your opponent has not moved in time")
    @app_commands.describe(game="The game (defaults to this thread's game)")
    async def claim(self, interaction: discord.Interaction, game: str | None = None) -> None:
        try:
            game_id = await resolve_game(interaction, game)
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        await play.claim(interaction, game_id)

    @app_commands.command(description="Pause your clocks in all your games here (or see your days)")
    @app_commands.describe(days="Days of vacation from now; 0 ends it. Leave out to see your days")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 365] | None = None
    ) -> None:
        svc = service(interaction)
        try:
            guild = guild_id(interaction)
            if days is None:
                status = await svc.vacation(guild, interaction.user.id)
            else:
                status = await svc.start_vacation(guild, interaction.user.id, days)
        except ServiceError as error:
            await answer_error(interaction, error)
            return
        now = client_of(interaction).clock()
        await refuse(interaction, "\n".join(status.lines(now)))
        if days:  # the opponents learn it where they play, without a ping
            for notice in await svc.vacation_notices(guild, interaction.user.id):
                await tell_opponents(client_of(interaction), notice)
        if days is not None:  # started or ended: the latest boards' clock lines say it
            for board in await svc.clock_boards(guild, interaction.user.id):
                await edit_board_clock(client_of(interaction), board)

    @app_commands.command(description="The rules of a game, a section at a time")
    @app_commands.describe(game="The game", section="Open at this section (default: the summary)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, game: str, section: str | None = None
    ) -> None:
        await rules_flow.show(interaction, game, section)

    @rules.autocomplete("section")
    async def section_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return rules_flow.section_choices(getattr(interaction.namespace, "game", None), current)

    @app_commands.command(description="A player's results and rating, with a chart")
    @app_commands.describe(user="Whose (default: yours)", game="One game (default: all)")
    @app_commands.choices(game=RATED_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await standings.stats(interaction, user, game)

    @app_commands.command(description="The best players in this server")
    @app_commands.describe(game="One game (default: every player's best game)")
    @app_commands.choices(game=RATED_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await standings.leaderboard(interaction, game)

    @board.autocomplete("game")
    @history.autocomplete("game")
    @export.autocomplete("game")
    @replay.autocomplete("game")
    @resign.autocomplete("game")
    @draw.autocomplete("game")
    @takeback.autocomplete("game")
    @hint.autocomplete("game")
    @claim.autocomplete("game")
    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await game_autocomplete(interaction, current)

    @analysis.autocomplete("game")
    async def finished_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await game_autocomplete(interaction, current, finished=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*learn_flow.BUTTONS)
    bot.add_dynamic_items(
        replay.ReplayButton,
        takeback_flow.TakebackAnswerButton,
        rules_flow.RulesButton,
        analysis_flow.PostAnalysisButton,
    )
    await bot.add_cog(SharedCog(bot))
