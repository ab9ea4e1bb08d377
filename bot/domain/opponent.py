"""The bot opponent on Discord: the bot's own user plays seats of a game, at a level.

A challenge to the bot's own user (``/shax challenge opponent:@Idzeva level:hard``) stores
the level in the challenge's options (``"level"``); when the game starts, the seats the bot
holds get it in the game's settings: ``options["bot_levels"] = {"<seat>": "hard", ...}``
(its seats hold the bot's user id in ``players``, once per seat: in Šačidjun it may hold
several). Other bots are still refused. The service does that part (``bot_seats.py``).

Whenever the bot is to act, ``Opponent.step`` does one thing through the service's own
paths, exactly as a player would: it rolls its dice with the service's roller (the roll is
stored before anything is shown), has its whole turn chosen by ``search.bot_turn`` in its
own worker pool (never on the event loop, and never in the pool that serves the players'
moves), and plays it with the version it searched (``GameService.play_turn``). An action that
raced it (a human's draw offer, another process playing the same move) makes it look again:
the version check lets exactly one writer win, and the loser says nothing.

Its search is done once across processes: before searching a position, the bot claims it
(``bot-turn:<game>:<version>``, a lease in the shared jobs table, bot/domain/jobs.py). Another
process finding the same turn meanwhile (its start-up sweep, its tick) is refused the claim
and leaves the turn alone, spending no CPU on it; if the holder dies in the middle of its
search, the claim's lease runs out and the next process to look plays the turn.

The Discord side (``cogs/opponent.py``) posts the boards and shows the bot typing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import replace

from bot.domain.jobs import Outbox
from bot.domain.service import GameService
from bot.domain.takebacks import TakebackView
from bot.domain.views import BoardView, ServiceError, StaleBoard
from bot.runtime.workers import Workers
from games import load_game
from search import DEFAULT_LEVEL, LEVELS, bot_turn, share_of

log = logging.getLogger(__name__)

# Looks at the game again after a lost race at most this many times in one step.
ATTEMPTS = 3
# How long a process holds the bot's turn while it searches: far above a search (hard: about
# 5 s), short enough that a turn left by a dead process is played within a few minutes.
TURN_LEASE = 120.0


# A draw offered to the bot: in a rated game it accepts only where its side is clearly
# behind by its evaluation (its share of the points below this); an even position is
# played on, so that an offer on move 1 does not take half a point from a stronger player.
RATED_DRAW_BELOW = 0.35


def draw_accepted(share: float, *, rated: bool) -> bool:
    """Whether the bot accepts a draw where its evaluation gives its side ``share`` of the
    points (0.5 even): in a friendly game when it is not ahead, as a friend would; in a
    rated one only when it is clearly behind."""
    return share < RATED_DRAW_BELOW if rated else share <= 0.5


def turn_key(game_id: int, version: int) -> str:
    """The claim of the bot's search of one position."""
    return f"bot-turn:{game_id}:{version}"


# ---- playing ------------------------------------------------------------------------


class Opponent:
    """The bot's own user at the table. ``workers``: where its searches run (a pool of its
    own); ``iterations``: a fixed search size instead of the level's clock (tests, demos);
    ``outbox``: where it claims its turns (the service's, shared with other processes)."""

    def __init__(
        self,
        service: GameService,
        user_id: int,
        *,
        workers: Workers | None = None,
        iterations: int | None = None,
        outbox: Outbox | None = None,
        lease: float = TURN_LEASE,
    ):
        self.service = service
        self.user_id = user_id
        self.workers = workers or Workers(0)
        self.iterations = iterations
        self.outbox = outbox or service._outbox
        self.lease = lease
        # The Discord side's task per game playing the bot's turns (cogs/opponent.py).
        self.tasks: dict[int, asyncio.Task[None]] = {}

    async def close(self) -> None:
        for task in list(self.tasks.values()):
            task.cancel()
        await self.workers.close()

    def to_act(self, board: BoardView) -> bool:
        """Whether one of the bot's seats must act (roll, move or answer) on this board."""
        if board.finished or board.to_move_user != self.user_id:
            return False
        return any(board.players[seat] == self.user_id for seat, _ in board.bot_levels)

    def level(self, board: BoardView) -> str:
        """The level of the bot's seats in this game."""
        levels = [level for seat, level in board.bot_levels if board.players[seat] == self.user_id]
        return levels[0] if levels and levels[0] in LEVELS else DEFAULT_LEVEL

    async def step(self, game_id: int, guild_id: int) -> BoardView | None:
        """The bot's next action if it is to act: a roll when one is due (then its turn, when
        the roll leaves it one), else its whole turn. Returns the board to show (its ``note``
        tells the roll and the level), or None when there is nothing for the bot to do: not
        its turn, or no longer (another process played it, or the game ended), or another
        process is searching this turn now (it holds the claim)."""
        svc = self.service
        for _ in range(ATTEMPTS):
            board = await svc.board(game_id, guild_id, with_image=False)
            if not self.to_act(board):
                return None
            level = self.level(board)
            notes: list[str] = []
            try:
                if board.dice_needed:
                    board = await svc.roll(
                        game_id, self.user_id, guild_id=guild_id, expected_version=board.version
                    )
                    notes.append(board.note or "")
                    if not self.to_act(board) or board.dice_needed:
                        return self._signed(board, notes, level)  # the roll passed the turn on
                version, saved = await svc.saved_game(game_id, guild_id)
                if version != board.version:
                    continue
                if not await self.outbox.claim(turn_key(game_id, version), self.lease):
                    log.info("game %s: another process is playing the bot's turn", game_id)
                    return self._signed(board, notes, level) if notes else None
                # The same position gives the same search: a game replays the same.
                seed = (game_id * 1_000_003 + version) & 0xFFFFFFFF
                moves = await self.workers.run(bot_turn, saved, level, seed, self.iterations)
                board = await svc.play_turn(
                    game_id, self.user_id, moves, guild_id=guild_id, expected_version=version
                )
            except StaleBoard:
                # Someone acted meanwhile (a draw offer; another process's bot): look again.
                log.info("game %s: the bot's action lost a race; looking again", game_id)
                continue
            return self._signed(board, notes, level)
        return None

    async def answer_draw(self, game_id: int, guild_id: int, offerer_id: int) -> BoardView | None:
        """A draw offered to the bot's side, answered when only its own seats may answer (a
        person of its side answers for themselves: None, nothing done). Its evaluation of
        the position says (``draw_accepted``): the board after its answer, finished when
        it accepted; None when no offer stands any more."""
        svc = self.service
        board = await svc.board(game_id, guild_id, with_image=False)
        if board.finished or offerer_id not in board.players or not board.bot_levels:
            return None
        _, saved = await svc.saved_game(game_id, guild_id)
        game = load_game(saved)  # its teams only: no move generation
        side = game.team_of(board.players.index(offerer_id))
        answering = {user for seat, user in enumerate(board.players) if game.team_of(seat) != side}
        if answering != {self.user_id}:
            return None
        mine = next(seat for seat in range(game.seats) if game.team_of(seat) != side)
        share = await self.workers.run(share_of, saved, mine, self.level(board))
        row = await svc._game_row(game_id, guild_id)
        accept = draw_accepted(share, rated=row.options.get("rated", True) is not False)
        try:
            return await svc.answer_draw(game_id, self.user_id, accept, guild_id=guild_id)
        except ServiceError:  # no offer standing any more (a move cleared it meanwhile)
            return None

    async def answer_takeback(
        self, view: TakebackView, guild_id: int
    ) -> tuple[TakebackView, BoardView | None] | None:
        """A takeback asked of the bot's side, when it alone answers: granted in a friendly
        game (someone learning the game may take a misclick back), declined in a rated one
        (its rating is an anchor for everyone's). None: a person answers, or it lapsed."""
        if set(view.answerers) != {self.user_id}:
            return None
        row = await self.service._game_row(view.game_id, guild_id)
        grant = row.options.get("rated", True) is False
        try:
            return await self.service.answer_takeback(
                view.game_id, self.user_id, grant, guild_id=guild_id, version=view.version
            )
        except ServiceError:  # the game moved on meanwhile
            return None

    async def waiting(self, guild_ids: Iterable[int]) -> list[tuple[int, int]]:
        """(game, guild) of every active game in these guilds where the bot is to act: played
        at start-up (the process may have stopped while the bot was to move)."""
        found = []
        for guild_id in guild_ids:
            for game in await self.service.list_games(guild_id, self.user_id):
                if not game.finished and game.to_move_user == self.user_id:
                    found.append((game.game_id, guild_id))
        return found

    def _signed(self, board: BoardView, notes: list[str], level: str) -> BoardView:
        """The board with what the bot did: its roll, and the level it played at."""
        told = [note for note in notes if note]
        told.append(f"Played by <@{self.user_id}> at level **{level}**.")
        return replace(board, note="\n".join(told))
