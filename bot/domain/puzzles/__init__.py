"""Puzzles (issue 34): ``/game puzzle [game] [answer]``, a position where one turn wins or
decides the game and the others do not (``search.puzzles`` judges them), privately.

- The shipped sets are package data, ``data/<set>.jsonl`` (one puzzle per line, mined from
  bot games by ``bench/mine_puzzles.py``): a set per game, Šačidjun's for two seats and
  Pastang's apart from Poron Jikaida's. A puzzle's id is ``<set>:<number>`` (from 1), its
  line in the file: the players' answers name it, so a shipped file is only appended to.
- Asking for a puzzle shows the player's open one (the last shown and not answered), else
  the next they have not answered in the set asked (any set when none is named), and keeps
  it as their open puzzle (``bot_values``: ``puzzle:<user>``). ``game:daily`` shows the
  server's puzzle of the day.
- The answer is the whole turn as the game writes it (moves separated by spaces: a Shax mill
  and its removal, a dice roll's moves; the roll is already made), offered by the same
  autocomplete as ``/game move``. An illegal or unfinished turn is refused and changes
  nothing; a legal one is right when it reaches the position a solution reaches (any order
  of the same moves). The first answer to each puzzle counts: solved or failed, and the
  streak of puzzles solved in a row (``puzzle_answers``). A wrong answer is told why (what
  the bot's judgement makes of it) and shown the solution with its reason.
- A server's own finished games give it puzzles of its own (``server.py``: mined in the
  background, ids ``<set>:g<game>-<entry>``): asking for a puzzle in that server offers those
  not yet answered first, then the shipped ones; ``game:server`` asks for them alone.
- A server may ask for a daily puzzle in a channel (``/idzeva settings``: ``daily_puzzle``).
  The day's puzzle is chosen from the date and the server alone (every process chooses the
  same) and kept the first time it is asked for (``bot_values``: ``daily-choice:<server>:
  <day>``), so that a deploy adding puzzles cannot change a day's puzzle once posted or
  shown. It is posted once per day: a once-only job (``bot/domain/jobs.py``) keyed by
  server and day.

The position checks and the board pictures run in the worker processes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from importlib import resources

from bot.domain.jobs import Outbox
from bot.domain.server_settings import ServerSettings
from bot.domain.views import NotAllowed, NotFound, Notice
from bot.runtime.workers import Workers
from bot.storage import GameStore
from games import GAMES, Game, IllegalMove
from search.fastcopy import clone
from search.puzzles import DECIDES, Puzzle, complete_turns, play_turn, share_for, state_key

from .server import parse_server_id, puzzle_from_json, server_puzzle_id

SETS = {
    "shax": "Shax",
    "tchela": "Tchela",
    "sachidjun": "Šačidjun",
    "chebache": "Chebache",
    "jikaida": "Poron Jikaida",
    "pastang": "Pastang",
}
DAILY = "daily"
SERVER = "server"  # ``game:server``: the server's own puzzles
NO_SERVER_PUZZLES = (
    "This server has no puzzles of its own yet: they are found in its finished games, a"
    " while after each ends. `/game puzzle` offers the shipped ones meanwhile."
)
CURRENT_KEY = "puzzle:{user}"
DAILY_PREFIX = "daily-puzzle:"
DAILY_JOB = DAILY_PREFIX + "{guild}:{day}"
DAILY_CHOICE_KEY = "daily-choice:{guild}:{day}"
MENU_SIZE = 25  # Discord's autocomplete shows at most 25 choices
Renderer = Callable[[Game], bytes]


# ---- the shipped sets ------------------------------------------------------------------


@functools.cache
def shipped(name: str) -> tuple[Puzzle, ...]:
    """The set's puzzles, in their file's order."""
    text = resources.files(__package__).joinpath("data", f"{name}.jsonl").read_text("utf-8")
    return tuple(Puzzle.from_dict(json.loads(line)) for line in text.splitlines() if line)


def all_ids() -> list[str]:
    return [f"{name}:{n}" for name in SETS for n in range(1, len(shipped(name)) + 1)]


def puzzle_of(puzzle_id: str) -> Puzzle:
    """The puzzle ``<set>:<number>``; ``NotFound`` when there is none."""
    name, _, number = puzzle_id.partition(":")
    puzzles = shipped(name) if name in SETS else ()
    if not number.isdigit() or not 1 <= int(number) <= len(puzzles):
        raise NotFound(f"There is no puzzle {puzzle_id[:30]!r}.")
    return puzzles[int(number) - 1]


def set_named(text: str) -> str:
    """The set a player's ``game:`` names (a set, a game's name or alias, ``daily``)."""
    wanted = text.strip().lower()
    if wanted in SETS or wanted in (DAILY, SERVER):
        return wanted
    for name, title in SETS.items():
        if wanted == title.lower():
            return name
    for key, cls in GAMES.items():
        if wanted in (cls.title.lower(), *cls.aliases):
            return key
    known = ", ".join([*SETS, DAILY, SERVER])
    raise NotAllowed(f"There are no puzzles for {text[:30]!r}: choose one of {known}.")


def title_of_puzzle(puzzle_id: str) -> str:
    """``Shax puzzle 7``; a server's own: ``Shax puzzle from game #12``."""
    name, _, number = puzzle_id.partition(":")
    own = parse_server_id(puzzle_id)
    if own is not None:
        return f"{SETS[name]} puzzle from game #{own[1]}"
    return f"{SETS[name]} puzzle {number}"


def in_set(puzzle_id: str, wanted: str | None) -> bool:
    """Whether the puzzle answers a ``game:`` asked for (None: any)."""
    if wanted is None:
        return True
    if wanted == SERVER:
        return parse_server_id(puzzle_id) is not None
    return puzzle_id.startswith(f"{wanted}:")


def daily_id(guild_id: int, day: str) -> str:
    """The server's puzzle of ``day`` (``YYYY-MM-DD``): the same in every process."""
    ids = all_ids()
    digest = hashlib.sha256(f"{guild_id}:{day}".encode()).digest()
    return ids[int.from_bytes(digest[:8], "big") % len(ids)]


def daily_of_job(key: str) -> tuple[int, str] | None:
    """The server and day a daily post's job (``DAILY_JOB``) names, None for another key."""
    if not key.startswith(DAILY_PREFIX):
        return None
    guild, _, day = key.removeprefix(DAILY_PREFIX).partition(":")
    if not guild.isdigit() or not day:
        return None
    return int(guild), day


# ---- what a player sees ----------------------------------------------------------------


@dataclass(frozen=True)
class Stats:
    solved: int = 0
    failed: int = 0
    streak: int = 0  # solved in a row, up to the last answer
    best_streak: int = 0


def stats_of(answers: Iterable[tuple[str, bool, float]]) -> Stats:
    """The counts and streaks from a player's answers, the first answered first."""
    solved = failed = streak = best = 0
    for _puzzle, right, _when in answers:
        if right:
            solved += 1
            streak += 1
            best = max(best, streak)
        else:
            failed += 1
            streak = 0
    return Stats(solved, failed, streak, best)


@dataclass(frozen=True)
class PuzzleView:
    puzzle_id: str
    title: str  # "Shax puzzle 7"
    task: str  # "White to move: find the turn that wins the game."
    situation: str  # the game's status line (the roll already made, the stage)
    image: bytes
    stats: Stats
    answered: bool | None  # None: not yet; else the first answer's result


@dataclass(frozen=True)
class Verdict:
    puzzle_id: str
    solved: bool
    counted: bool  # the first answer to the puzzle (later ones change no count)
    turn: str  # the answer, as the game writes it
    why: str  # why it is right, or why not
    solution: str  # a solution's turn
    solution_reason: str
    stats: Stats


# ---- jobs for the worker pool ------------------------------------------------------------


def as_puzzle(puzzle: Puzzle | str) -> Puzzle:
    """A puzzle, or a shipped one named by its id."""
    return puzzle if isinstance(puzzle, Puzzle) else puzzle_of(puzzle)


def show_job(puzzle: Puzzle | str, renderer: Renderer | None) -> tuple[str, str, bytes]:
    """The puzzle's task and situation lines and its board (b"" without a renderer)."""
    puzzle = as_puzzle(puzzle)
    game = puzzle.game()
    mover = game.seat_names[puzzle.seat]
    goal = "decides the game" if puzzle.kind == DECIDES else "wins the game"
    task = f"{mover} to move: find the turn that {goal}, where every other does not."
    image = renderer(game) if renderer is not None else b""
    return task, game.status_line(), image


def check_job(puzzle: Puzzle | str, text: str) -> tuple[bool, str, str]:
    """Whether ``text`` (a whole turn) solves the puzzle, the turn as the game writes it,
    and why; ``NotAllowed`` for a move that is not legal there or a turn not finished."""
    puzzle = as_puzzle(puzzle)
    game = puzzle.game()
    try:
        after = play_turn(game.copy(), text)
    except IllegalMove as error:
        raise NotAllowed(f"{error.move[:40]!r} is not legal here: {error.reason}.") from None
    moves = [entry.move for entry in after.log[len(game.log) :] if entry.move]
    turn = " ".join(moves)
    if not moves:
        raise NotAllowed("Type the moves of your turn.")
    going_on = not after.is_over and after.to_move == puzzle.seat
    if going_on and after.dice_needed() is None:
        raise NotAllowed(
            f"Your turn goes on after {turn}: type the whole turn, its moves separated by spaces."
        )
    if state_key(after) in puzzle.solution_states():
        return True, turn, puzzle.reason
    return False, turn, wrong_reason(puzzle, game, after)


def wrong_reason(puzzle: Puzzle, game: Game, after: Game) -> str:
    """Why a legal turn that is not a solution falls short, in the bot's judgement."""
    team = game.team_of(puzzle.seat)
    mine = round(100 * share_for(after, team))
    best = round(100 * share_for(play_turn(game.copy(), puzzle.solutions[0]), team))
    if after.is_over:
        return f"it ends the game without winning it: {after.result_text()}"
    if puzzle.kind == DECIDES:
        return (
            f"it leaves you a win chance of {mine}% by the bot's judgement, where the"
            f" solution leaves {best}%"
        )
    return f"the game goes on (a win chance of {mine}% by the bot's judgement)"


def turn_choices(puzzle: Puzzle | str) -> tuple[tuple[str, str], ...]:
    """Every legal turn in the puzzle (as typed) for the answer's autocomplete, with what it
    leaves to move; the game's first moves alone when the turns are too many to list."""
    game = as_puzzle(puzzle).game()
    turns = complete_turns(game)
    if turns is None:
        return tuple((move, game.describe_move(move)) for move in game.legal_moves())
    return tuple((" ".join(line), _turn_label(line, after)) for line, after in sorted(turns))


def wrong_turn(puzzle: Puzzle | str) -> str | None:
    """A legal whole turn that is not a solution (tests and the benchmark), if any."""
    puzzle = as_puzzle(puzzle)
    solutions = puzzle.solution_states()
    for line, after in complete_turns(puzzle.game()) or []:
        if state_key(after) not in solutions:
            return " ".join(line)
    return None


def _turn_label(line: list[str], after: Game) -> str:
    return f"{' '.join(line)}: then {after.status_line()}"[:100]


_TURN_CHOICES: OrderedDict[str, tuple[tuple[str, str], ...]] = OrderedDict()
TURN_CHOICES_KEPT = 64  # puzzles whose turns a worker keeps listed (the open ones, typed in)


def cached_turn_choices(puzzle_id: str, puzzle: Puzzle) -> tuple[tuple[str, str], ...]:
    """``turn_choices``, kept for the last puzzles asked (ids name one puzzle for good)."""
    choices = _TURN_CHOICES.get(puzzle_id)
    if choices is None:
        choices = _TURN_CHOICES[puzzle_id] = turn_choices(puzzle)
        while len(_TURN_CHOICES) > TURN_CHOICES_KEPT:
            _TURN_CHOICES.popitem(last=False)
    _TURN_CHOICES.move_to_end(puzzle_id)
    return choices


def search_turns(puzzle_id: str, puzzle: Puzzle, typed: str) -> list[tuple[str, str]]:
    """The autocomplete's entries for what was typed (the game's own menu search)."""
    choices = cached_turn_choices(puzzle_id, puzzle)
    game = clone(puzzle.game(), keep_log=False)
    return game.search_choices(choices, typed)[:MENU_SIZE]


# ---- the service's side ------------------------------------------------------------------


class Puzzles:
    """The service's puzzles, over its store, clock, workers and renderer."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        workers: Workers,
        outbox: Outbox,
        renderer: Renderer,
    ):
        self._store = store
        self._clock = clock
        self._workers = workers
        self._outbox = outbox
        self._renderer = renderer
        self._posted: set[tuple[int, str]] = set()  # (server, day) this process has seen to

    async def show(self, user_id: int, game: str | None, guild_id: int | None) -> PuzzleView:
        """The player's open puzzle, else the next one (module docstring); kept as open."""
        wanted = set_named(game) if game else None
        answers = await self._store.puzzle_answers(user_id)
        answered = {puzzle: right for puzzle, right, _when in answers}
        if wanted in (DAILY, SERVER) and guild_id is None:
            raise NotAllowed("That puzzle is a server's: ask in the server.")
        if wanted == DAILY:
            assert guild_id is not None
            chosen = await self.daily(guild_id, self.today())
        else:
            chosen = await self._open_or_next(user_id, wanted, answered, guild_id)
        await self._store.put_value(CURRENT_KEY.format(user=user_id), chosen, self._clock())
        return await self.view(chosen, stats_of(answers), answered.get(chosen))

    async def view(self, puzzle_id: str, stats: Stats, answered: bool | None) -> PuzzleView:
        puzzle = await self._puzzle(puzzle_id)
        task, situation, image = await self._workers.run(show_job, puzzle, self._renderer)
        title = title_of_puzzle(puzzle_id)
        return PuzzleView(puzzle_id, title, task, situation, image, stats, answered)

    async def _open_or_next(
        self, user_id: int, wanted: str | None, answered: dict, guild_id: int | None
    ) -> str:
        """The open puzzle if it fits what was asked; else the server's own not answered,
        then the shipped ones not answered (the set least answered first); else again."""
        own = await self._own_ids(guild_id)
        current = await self.current(user_id)
        here = current is not None and (parse_server_id(current) is None or current in own)
        if current is not None and here and in_set(current, wanted) and current not in answered:
            return current
        for puzzle_id in own:
            if in_set(puzzle_id, wanted) and puzzle_id not in answered:
                return puzzle_id
        if wanted == SERVER and not own:
            raise NotAllowed(NO_SERVER_PUZZLES)
        names = [] if wanted == SERVER else [wanted] if wanted else list(SETS)
        for name in sorted(names, key=lambda n: sum(p.startswith(f"{n}:") for p in answered)):
            for number in range(1, len(shipped(name)) + 1):
                if f"{name}:{number}" not in answered:
                    return f"{name}:{number}"
        # Every one answered: show them again, in turn (they count no more).
        pool = [pid for pid in [*own, *all_ids()] if in_set(pid, wanted)]
        if not pool:
            raise NotAllowed(f"There are no {SETS[wanted or 'shax']} puzzles yet.")
        return pool[len(answered) % len(pool)]

    async def _own_ids(self, guild_id: int | None) -> list[str]:
        """The server's own puzzles' ids, the first found first (none outside a server)."""
        if guild_id is None:
            return []
        found = await self._store.server_puzzles(guild_id)
        return [server_puzzle_id(name, game_id, entry) for game_id, entry, name in found]

    async def _puzzle(self, puzzle_id: str) -> Puzzle:
        """A shipped puzzle or a server's own; ``NotFound`` when there is none."""
        own = parse_server_id(puzzle_id)
        if own is None:
            return puzzle_of(puzzle_id)
        found = await self._store.server_puzzle(own[1], own[2])
        if found is None or found[1] != own[0]:
            raise NotFound(f"There is no puzzle {puzzle_id[:30]!r}.")
        return puzzle_from_json(found[2])

    async def current(self, user_id: int) -> str | None:
        """The player's open puzzle (the last shown), if it is still there."""
        kept = await self._store.get_value(CURRENT_KEY.format(user=user_id))
        if kept is None:
            return None
        try:
            await self._puzzle(kept)
        except NotFound:
            return None
        return kept

    async def answer(self, user_id: int, text: str) -> Verdict:
        """The player's answer to their open puzzle: checked, counted when it is the first."""
        puzzle_id = await self.current(user_id)
        if puzzle_id is None:
            raise NotAllowed("You have no puzzle open: ask for one with /game puzzle.")
        if not text.strip():
            raise NotAllowed("Type the moves of your turn.")
        puzzle = await self._puzzle(puzzle_id)
        solved, turn, why = await self._workers.run(check_job, puzzle, text[:200])
        counted = await self._store.add_puzzle_answer(user_id, puzzle_id, solved, self._clock())
        stats = stats_of(await self._store.puzzle_answers(user_id))
        return Verdict(
            puzzle_id, solved, counted, turn, why, puzzle.solutions[0], puzzle.reason, stats
        )

    async def choices(self, user_id: int, typed: str) -> list[tuple[str, str]]:
        """The answer's autocomplete: the open puzzle's turns matching what was typed."""
        puzzle_id = await self.current(user_id)
        if puzzle_id is None:
            return []
        puzzle = await self._puzzle(puzzle_id)
        return await self._workers.run(search_turns, puzzle_id, puzzle, typed[:100])

    # ---- the daily puzzle ----------------------------------------------------------

    async def daily(self, guild_id: int, day: str) -> str:
        """The server's puzzle of ``day``: the one kept for that day, else ``daily_id``'s
        choice, kept from now on (the first process to ask keeps it for all)."""
        key = DAILY_CHOICE_KEY.format(guild=guild_id, day=day)
        kept = await self._store.put_value_once(key, daily_id(guild_id, day), self._clock())
        try:
            puzzle_of(kept)
        except NotFound:  # shipped files are only appended to; a hand-edited value
            return daily_id(guild_id, day)
        return kept

    async def daily_picture(self, job_key: str) -> bytes:
        """The board of the daily puzzle that the post ``job_key`` names (b"" for none),
        drawn in a worker: the post shows it."""
        posted = daily_of_job(job_key)
        if posted is None:
            return b""
        puzzle_id = await self.daily(*posted)
        _task, _situation, image = await self._workers.run(show_job, puzzle_id, self._renderer)
        return image

    def today(self) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self._clock()))

    async def daily_notices(self, now: float) -> list[Notice]:
        """The daily puzzles this process is to post now, one per server that asked for one
        and has none posted today: each a job of the outbox keyed by server and day, so
        that it goes once whatever the processes (sent, then marked done, by the tick)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(now))
        notices = []
        for guild_id, text in await self._store.daily_puzzle_settings():
            channel_id = ServerSettings.from_json(text).daily_puzzle
            if channel_id is None or (guild_id, day) in self._posted:
                continue
            puzzle_id = await self.daily(guild_id, day)
            task, _situation, _image = await self._workers.run(show_job, puzzle_id, None)
            notice = Notice(
                kind="daily_puzzle",
                game_id=None,
                challenge_id=None,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=None,
                message_id=None,
                user_id=0,
                text=(
                    f"Puzzle of the day ({day}): **{title_of_puzzle(puzzle_id)}**. {task}"
                    "\nSolve it privately with `/game puzzle game:daily`."
                ),
            )
            key = DAILY_JOB.format(guild=guild_id, day=day)
            payload = {name: value for name, value in vars(notice).items() if name != "key"}
            self._posted.add((guild_id, day))
            if await self._outbox.add(key, payload):
                notices.append(replace(notice, key=key))
        return notices
