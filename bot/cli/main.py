"""The ``idzeva`` command: engine tools for every game, offline play, and the bot itself.

idzeva legal GAME [--variant V]... [--dice A,B]... [--position FILE] [--each] [MOVE ...]
idzeva show  GAME [--variant V]... [--dice A,B]... [--position FILE] [--png FILE] [MOVE ...]
idzeva play  GAME [--variant V]... [--position FILE | --load RECORD] [--out DIR]
             [--bot [LEVEL]] [--seat N]
idzeva best  GAME [--level L] [--seed S] [--variant V]... [--dice A,B]... [--position FILE]
             [MOVE ...]
idzeva arena GAME --a LEVEL --b LEVEL --games N [--variant V]... [--seed S]
idzeva replay RECORD [--ply N] [--png FILE | --gif FILE]
idzeva rules GAME [SECTION]
idzeva learn COURSE [--lesson ID] [--png DIR]
idzeva run
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.cli.options import GAMES_BOUNDS, ITERATIONS_BOUNDS, OneLineParser
from bot.domain.rules_pages import UnknownSection, section_text
from games import GAMES, Game, IllegalMove, game_class, load_game
from games.record import GameRecord, RecordError, is_record, load_record, record_from_game
from games.record import text_record as record_text
from search import DEFAULT_LEVEL, LEVELS, Search
from search.arena import PLAYERS, arena

EXIT_ILLEGAL = 2
# Position files and saved games are small (a long saved game is tens of kilobytes); reading
# stops here, so that a wrong path (a disk image, /dev/zero) is refused instead of filling
# the memory.
MAX_FILE_BYTES = 4_000_000


class CliError(Exception):
    """A problem with what the user asked for; printed without a traceback."""

    def __init__(self, message: str, code: int = EXIT_ILLEGAL):
        super().__init__(message)
        self.code = code


# ---- argument parsing --------------------------------------------------------


def _dice(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"dice are numbers separated by commas: {text!r}"
        ) from None
    return values


SEATS_HELP = "number of seats (Šačidjun: 2-4; its tameg-pair variant is for 3)"


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"one of: {', '.join(sorted(GAMES))}")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves played from the start")
    parser.add_argument("--variant", action="append", default=[], metavar="V")
    parser.add_argument("--seats", type=int, metavar="N", help=SEATS_HELP)
    parser.add_argument(
        "--dice",
        action="append",
        default=[],
        type=_dice,
        metavar="A,B",
        help="dice used, in order, whenever the game needs a roll",
    )
    parser.add_argument(
        "--position",
        metavar="FILE",
        help="start from this JSON position instead of the initial array (games with "
        "from_position, e.g. jikaida); MOVEs are played from there",
    )


def build_parsers() -> dict[str, argparse.ArgumentParser]:
    """One parser per command; each parses options and moves in any order."""
    legal = OneLineParser(prog="idzeva legal", description="legal moves after MOVEs")
    _add_game_options(legal)
    legal.add_argument("--each", action="store_true", help="one line per ply: 'PLY: m1 m2 ...'")

    show = OneLineParser(prog="idzeva show", description="the board after MOVEs")
    _add_game_options(show)
    show.add_argument("--png", metavar="FILE", help="write the board image here")

    play = OneLineParser(prog="idzeva play", description="hot-seat play in a terminal")
    play.add_argument("game")
    play.add_argument("--variant", action="append", default=[], metavar="V")
    play.add_argument("--position", metavar="FILE", help="start from this JSON position")
    play.add_argument("--load", metavar="RECORD", help="continue the game of this record")
    play.add_argument("--out", metavar="DIR", help="folder for the board images")
    play.add_argument(
        "--bot",
        nargs="?",
        const=DEFAULT_LEVEL,
        choices=list(LEVELS),
        metavar="LEVEL",
        help=f"play against the bot ({', '.join(LEVELS)}; default {DEFAULT_LEVEL})",
    )
    play.add_argument("--seat", type=int, default=0, metavar="N", help="your seat against the bot")
    play.add_argument("--seats", type=int, metavar="N", help=SEATS_HELP)
    play.add_argument("--bot-vs-bot", action="store_true", help="watch the bot play every seat")
    play.add_argument("--seed", type=int, metavar="S", help="seed of the bot and the dice")
    ITERATIONS_BOUNDS.add_option(play, "--iterations", "bot: a fixed search size")

    best = OneLineParser(prog="idzeva best", description="the bot's move after MOVEs")
    _add_game_options(best)
    best.add_argument("--level", choices=list(LEVELS), default=DEFAULT_LEVEL)
    best.add_argument("--seed", type=int, metavar="S", help="seed of the search (reproducible)")
    ITERATIONS_BOUNDS.add_option(best, "--iterations", "a fixed search size instead of the clock")

    arena = OneLineParser(prog="idzeva arena", description="bot against bot")
    arena.add_argument("game")
    arena.add_argument("--a", required=True, choices=list(PLAYERS), metavar="LEVEL")
    arena.add_argument("--b", required=True, choices=list(PLAYERS), metavar="LEVEL")
    GAMES_BOUNDS.add_option(arena, "--games", "games, seats alternating; default 10", default=10)
    arena.add_argument("--variant", action="append", default=[], metavar="V")
    arena.add_argument("--seats", type=int, metavar="N", help=SEATS_HELP)
    arena.add_argument("--seed", type=int, default=0, metavar="S")
    ITERATIONS_BOUNDS.add_option(arena, "--iterations", "a fixed search size")
    arena.add_argument(
        "--clock", action="store_true", help="each level also within its time, as on Discord"
    )

    replay = OneLineParser(prog="idzeva replay", description="a game record's position at any ply")
    replay.add_argument("record", metavar="RECORD")
    replay.add_argument("--ply", type=int, metavar="N", help="moves played (default: all)")
    images = replay.add_mutually_exclusive_group()
    images.add_argument("--png", metavar="FILE", help="write the board at ply N here")
    images.add_argument("--gif", metavar="FILE", help="write the whole game as a GIF here")

    analyse = OneLineParser(
        prog="idzeva analyse",
        description="a finished game judged turn by turn by the bot: win chances, each"
        " player's average loss, the largest swings with the better move",
    )
    analyse.add_argument("record", metavar="RECORD")
    analyse.add_argument("--png", metavar="FILE", help="write the win-chance chart here")
    analyse.add_argument("--json", action="store_true", help="print the analysis as JSON")
    analyse.add_argument("--seed", type=int, default=0, metavar="S")
    ITERATIONS_BOUNDS.add_option(analyse, "--iterations", "a search size per position")

    rules = OneLineParser(prog="idzeva rules", description="a game's rules, or one section")
    rules.add_argument("game")
    rules.add_argument("section", nargs="?", help="a heading of the rules page (default: all)")

    learn = OneLineParser(prog="idzeva learn", description="a course of lessons, answers on stdin")
    learn.add_argument("course", help="a course or game name (shax, tchela, ...)")
    learn.add_argument("--lesson", metavar="ID", help="start at this lesson (default: the first)")
    learn.add_argument("--png", metavar="DIR", help="write each step's picture in this folder")

    run = OneLineParser(prog="idzeva run", description="start the Discord bot")
    sync = OneLineParser(
        prog="idzeva sync",
        description="send the slash commands to Discord now (the bot syncs by itself only"
        " when they changed)",
    )

    migrate = OneLineParser(
        prog="idzeva migrate-db",
        description="copy a stopped bot's SQLite database into an empty PostgreSQL one, then"
        " verify it",
    )
    migrate.add_argument("--from", dest="source", required=True, metavar="SQLITE_PATH")
    migrate.add_argument("--to", dest="target", required=True, metavar="POSTGRES_URL")
    return {
        "legal": legal,
        "show": show,
        "play": play,
        "best": best,
        "arena": arena,
        "replay": replay,
        "analyse": analyse,
        "rules": rules,
        "learn": learn,
        "run": run,
        "sync": sync,
        "migrate-db": migrate,
    }


USAGE = """usage: idzeva COMMAND ...

commands:
  legal GAME [--variant V]... [--seats N] [--dice A,B]... [--position FILE] [--each] [MOVE ...]
  show  GAME [--variant V]... [--seats N] [--dice A,B]... [--position FILE] [--png FILE]
        [MOVE ...]
  play  GAME [--variant V]... [--position FILE | --load RECORD] [--out DIR]
        [--bot [LEVEL]] [--seat N] [--seats N] [--bot-vs-bot]
                                   hot-seat play in the terminal, or against the bot
  best  GAME [--level L] [--seed S] [--variant V]... [--seats N] [--dice A,B]...
        [--position FILE] [MOVE ...]
                                   the move the bot plays after MOVEs
  arena GAME --a LEVEL --b LEVEL --games N [--variant V]... [--seats N] [--seed S]
                                   bot against bot (levels: easy normal hard, and
                                   easy_fitted normal_fitted hard_fitted with the dice
                                   games' fitted weights; random; outside players:
                                   greedy flatmc alphabeta2 uct)
  replay RECORD [--ply N] [--png FILE | --gif FILE]
                                   a game record at any ply, or as an animated GIF
  analyse RECORD [--png FILE] [--json] [--seed S] [--iterations N]
                                   a game judged by the bot: win chances, average
                                   losses, the largest swings and the better moves
  rules GAME [SECTION]             the rules of a game, or one section of them
  learn COURSE [--lesson ID] [--png DIR]
                                   a game's course of lessons, answered on stdin
  run                              start the Discord bot (token from .env)
  sync                             send the slash commands to Discord now
  migrate-db --from SQLITE_PATH --to POSTGRES_URL
                                   copy the bot's data to PostgreSQL, then verify it
"""


# ---- shared helpers ----------------------------------------------------------


def new_from_args(name: str, variants: Sequence[str], seats: int | None = None) -> Game:
    try:
        cls = game_class(name)
    except KeyError as error:
        raise CliError(str(error.args[0])) from None
    try:
        return cls(variants, seats)
    except ValueError as error:
        raise CliError(str(error)) from None


def loads_positions(cls: type[Game]) -> bool:
    """Does ``cls`` have ``from_position(data)`` taking one JSON object (Poron Jikaida)?
    Other games' ``from_position`` (Chebache's takes Python arguments) do not count."""
    loader = getattr(cls, "from_position", None)
    if loader is None:
        return False
    try:
        inspect.signature(loader).bind({})
    except (TypeError, ValueError):
        return False
    return True


def game_from_position(name: str, path: str, variants: Sequence[str]) -> Game:
    """The game in position file ``path``. The file's variant decides; a ``--variant`` that
    does not describe the same game is an error rather than silently ignored."""
    try:
        cls = game_class(name)
    except KeyError as error:
        raise CliError(str(error.args[0])) from None
    if not loads_positions(cls):
        able = sorted(key for key, other in GAMES.items() if loads_positions(other))
        raise CliError(
            f"{cls.title} cannot start from a position file; --position works for: "
            f"{', '.join(able) or 'no game'}"
        )
    try:
        text = read_text(path)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read position file {path}: {reason_of(error)}") from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as error:
        raise CliError(
            f"position file {path} is not JSON: {error.msg} (line {error.lineno}, "
            f"column {error.colno})"
        ) from None
    except ValueError as error:
        raise CliError(f"bad position file {path}: {error}") from None
    except RecursionError:
        raise CliError(f"bad position file {path}: nested deeper than a position can be") from None
    try:
        game = cls.from_position(data)  # type: ignore[attr-defined]
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CliError(f"bad position file {path}: {reason}") from None
    if variants and frozenset(variants) != game.variant_set:
        said = data.get("variant") if isinstance(data, dict) else None
        shown = said or ", ".join(sorted(game.variant_set)) or "the standard game"
        raise CliError(
            f"--variant {' '.join(variants)} contradicts position file {path} "
            f"(variant {shown}); leave --variant out: the file sets the variant"
        )
    return game


def reason_of(error: BaseException) -> str:
    """One line saying what went wrong with a file: ``No such file or directory``."""
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return text.splitlines()[0]


def read_text(path: str | Path) -> str:
    """A small UTF-8 text file; OSError or ValueError (with a reason) otherwise."""
    with open(path, "rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES // 1_000_000} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None


def write_file(path: str | Path, data: bytes, what: str) -> None:
    """Write ``data`` to ``path`` or raise CliError with one line saying why not (a missing
    folder, a folder, a full disk, no permission)."""
    try:
        Path(path).write_bytes(data)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot write {what} {path}: {reason_of(error)}") from None


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json`` keeps the last of two equal keys; in a position that hides a piece."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"{key!r} appears twice")
        data[key] = value
    return data


def read_record(path: str) -> tuple[GameRecord, Game]:
    """The record in ``path``, replayed; CliError naming the ply where it fails."""
    try:
        text = read_text(path)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read record {path}: {reason_of(error)}") from None
    try:
        return load_record(text)
    except RecordError as error:
        raise CliError(f"record {path} does not replay: {error}") from None


def start_game(args: argparse.Namespace) -> Game:
    if args.position:
        if args.seats is not None:
            raise CliError("--position sets the seats: no --seats")
        return game_from_position(args.game, args.position, args.variant)
    return new_from_args(args.game, args.variant, args.seats)


def roll_if_needed(game: Game, dice: Iterator[tuple[int, ...]]) -> bool:
    """Feed the next ``--dice`` roll while the game wants one; False if we ran out."""
    while game.dice_needed() is not None:
        roll = next(dice, None)
        if roll is None:
            return False
        try:
            game.roll(roll)
        except IllegalMove as error:
            raise CliError(f"bad roll {list(roll)}: {error.reason}") from None
    return True


def play_moves(
    game: Game,
    moves: Sequence[str],
    dice: Sequence[tuple[int, ...]],
    before_each: Callable[[int, Game], None] | None = None,
) -> None:
    """Play ``moves`` from the game's position, rolling ``dice`` in order when needed."""
    rolls = iter(dice)
    for index, move in enumerate(moves, start=1):
        if not roll_if_needed(game, rolls):
            spec = game.dice_needed()
            raise CliError(f"move {move!r} at ply {index}: a {spec} roll is due; add --dice")
        if before_each:
            before_each(index - 1, game)
        try:
            game.push(move)
        except IllegalMove as error:
            hint = _legal_hint(error.legal)
            raise CliError(f"illegal move {move!r} at ply {index}: {error.reason}{hint}") from None
    roll_if_needed(game, rolls)


def _legal_hint(legal: Sequence[str], shown: int = 12) -> str:
    if not legal:
        return ""
    more = f" ... ({len(legal)} in all)" if len(legal) > shown else ""
    return f"\n  legal: {' '.join(legal[:shown])}{more}"


def render_png(game: Game) -> bytes:
    from render import render_png as render  # Pillow only when an image is asked for

    return render(game)


def status_text(game: Game) -> str:
    lines = [game.status_line()]
    lines += [f"{label}: {value}" for label, value in game.summary()]
    spec = game.dice_needed()
    if spec is not None:
        lines.append(f"Roll due: {spec}")
    return "\n".join(lines)


# ---- commands ----------------------------------------------------------------


def cmd_legal(args: argparse.Namespace, out: TextIO) -> int:
    game = start_game(args)

    def print_ply(ply: int, position: Game) -> None:
        out.write(f"{ply}: {' '.join(position.legal_moves())}".rstrip() + "\n")

    play_moves(game, args.moves, args.dice, print_ply if args.each else None)
    if args.each:
        print_ply(len(args.moves), game)
    else:
        for move in game.legal_moves():
            out.write(move + "\n")
    if game.dice_needed() is not None:
        print(f"(a {game.dice_needed()} roll is due: add --dice)", file=sys.stderr)
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    game = start_game(args)
    play_moves(game, args.moves, args.dice)
    if args.png:  # first, so that a path that cannot be written prints nothing else
        try:
            image = render_png(game)
        except KeyError:
            raise CliError(f"no board image for {game.title} yet") from None
        write_file(args.png, image, "image")
    out.write(game.text_board() + "\n\n" + status_text(game) + "\n")
    if args.png:
        out.write(f"Image written to {args.png}\n")
    return 0


PLAY_HELP = """Commands:
  <move>       play a move in the game's notation
  help         list the legal moves
  undo         take back the last move
  save FILE    save the game to a file
  record FILE  write the game record (JSON) to FILE and its move list beside it (.txt)
  load FILE    load a game saved with 'save' or 'record'
  resign       the player to move resigns
  draw         both players agree to a draw
  quit         leave"""


class HotSeat:
    """Two people, one keyboard: the board after every move, images in a folder."""

    def __init__(
        self,
        game: Game,
        out_dir: Path,
        out: TextIO,
        rng: random.Random | None = None,
        origin: Game | None = None,
    ):
        self.game = game
        self.out_dir = out_dir
        self.out = out
        self.rng = rng or random.SystemRandom()
        self.images = True  # off after an image could not be written
        # The position the log starts from (a position file's, not always the start): undo
        # replays the log from here.
        self.origin = origin.copy() if origin is not None else game.copy()
        self.started_at = utc_now()

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def show(self) -> None:
        self.say("\n" + self.game.text_board() + "\n\n" + status_text(self.game))
        if not self.images:
            return
        path = self.out_dir / f"ply-{self.game.ply:03d}.png"
        try:
            image = render_png(self.game)
        except (ImportError, KeyError):
            return  # a game without a renderer yet still plays as text
        try:
            path.write_bytes(image)
        except (OSError, ValueError) as error:
            self.images = False
            self.say(
                f"Could not write the image {path}: {reason_of(error)}. "
                "The game goes on without images."
            )
            return
        self.say(f"Image: {path}")

    def roll_dice(self) -> None:
        while (spec := self.game.dice_needed()) is not None:
            dice = tuple(self.rng.randint(1, spec.sides) for _ in range(spec.count))
            self.game.roll(dice)
            self.say(f"Rolled {' '.join(map(str, dice))}")

    def handle(self, line: str) -> bool:
        """Act on one input line; False means quit."""
        command, _, argument = line.strip().partition(" ")
        argument = argument.strip()
        if not command:
            return True
        if command in ("quit", "exit"):
            return False
        if command in ("help", "?", "moves"):
            legal = self.game.legal_moves()
            self.say(" ".join(legal) if legal else "No legal moves.")
            self.say(PLAY_HELP)
        elif command == "undo":
            self.undo()
        elif command == "save":
            self.save(argument)
        elif command == "record":
            self.record(argument)
        elif command == "load":
            self.load(argument)
        elif command in ("resign", "draw"):
            self.finish(command)
        else:
            self.play(line.strip())
        return True

    def play(self, move: str) -> None:
        try:
            played = self.game.push(move)
        except IllegalMove as error:
            self.say(f"Illegal: {error.reason}.{_legal_hint(error.legal)}")
            return
        self.say(f"Played {played}")
        self.roll_dice()
        self.show()

    def undo(self) -> None:
        moves_played = [i for i, entry in enumerate(self.game.log) if entry.move is not None]
        if not moves_played:
            self.say("Nothing to undo.")
            return
        fresh = self.origin.copy()
        try:
            fresh.replay(self.game.log[: moves_played[-1]])
        except IllegalMove:
            self.say("Cannot take back moves of a game that was saved from a position.")
            return
        self.game = fresh
        self.say("Took back the last move.")
        self.show()

    def save(self, name: str) -> None:
        if not name:
            self.say("Usage: save FILE")
            return
        try:
            Path(name).write_text(self.game.to_json(), encoding="utf-8")
        except (OSError, ValueError) as error:
            self.say(f"Could not save to {name}: {reason_of(error)}. The game goes on.")
            return
        self.say(f"Saved to {name}")

    def record(self, name: str) -> None:
        if not name:
            self.say("Usage: record FILE")
            return
        record = record_from_game(
            self.game,
            origin=self.origin,
            started_at=self.started_at,
            ended_at=utc_now() if self.game.is_over else None,
        )
        path = Path(name)
        moves = path.with_suffix(".txt")
        if moves == path:
            moves = path.with_suffix(".moves.txt")
        try:
            path.write_text(record.to_json(self.game), encoding="utf-8")
            moves.write_text(record_text(record, self.game), encoding="utf-8")
        except (OSError, ValueError) as error:
            self.say(f"Could not write {name}: {reason_of(error)}. The game goes on.")
            return
        self.say(f"Record written to {path}, the move list to {moves}")

    def load(self, name: str) -> None:
        if not name:
            self.say("Usage: load FILE")
            return
        try:
            text = read_text(name)
        except (OSError, ValueError) as error:
            self.say(f"Could not load {name}: {reason_of(error)}. The game goes on.")
            return
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if is_record(data):
            try:
                record, game = load_record(data)
            except RecordError as error:
                self.say(f"Could not load {name}: {str(error)[:200]}. The game goes on.")
                return
            self.game = game
            self.origin = record.new_game()
            self.say(f"Loaded {name}")
            self.show()
            return
        try:
            game = load_game(text)
            # A saved game is only as good as the position it rebuilds: try it out before
            # the game in play is replaced.
            game.legal_moves()
            game.text_board()
            status_text(game)
        except Exception as error:  # any damage refuses the file and nothing more
            reason = reason_of(error) if isinstance(error, ValueError) else "damaged saved game"
            self.say(f"Could not load {name}: {reason[:200]}. The game goes on.")
            return
        self.game = game
        self.origin = type(game)(game.variant_set, game.seats)
        self.say(f"Loaded {name}")
        self.show()

    def finish(self, how: str) -> None:
        seat = self.game.to_move
        if seat is None:
            self.say("The game is over.")
            return
        if how == "resign":
            self.game.resign(seat)
        else:
            self.game.agree_draw()
        self.show()

    def run(self, lines: Iterator[str]) -> None:
        self.say(f"{self.game.title}: type a move, or 'help'. Images go to {self.out_dir}")
        self.roll_dice()
        self.show()
        for line in lines:
            if not self.handle(line):
                break
            if self.game.is_over:
                self.say("Game over. 'undo', 'record FILE', 'save FILE', 'load FILE' or 'quit'.")


def _input_lines(prompt: str = "> ") -> Iterator[str]:
    while True:
        try:
            yield input(prompt)
        except EOFError:
            return


class BotPlay(HotSeat):
    """Hot-seat play where the bot takes every seat but ``human`` (None: every seat, to
    watch). The bot moves as soon as it is to move; ``undo`` takes back to your last move."""

    def __init__(
        self,
        game: Game,
        out_dir: Path,
        out: TextIO,
        level: str,
        human: int | None,
        seed: int | None = None,
        iterations: int | None = None,
        origin: Game | None = None,
    ):
        rng = random.Random(seed) if seed is not None else None
        super().__init__(game, out_dir, out, rng, origin=origin)
        self.level = level
        self.human = human
        self.search_rng = random.Random(seed)
        self.iterations = iterations

    def bot_to_move(self) -> bool:
        seat = self.game.to_move
        return seat is not None and seat != self.human and self.game.dice_needed() is None

    def bot_moves(self) -> bool:
        """Play the bot's moves until a person is to move; whether it moved."""
        moved = False
        while self.bot_to_move():
            seat = self.game.to_move
            assert seat is not None
            search = Search(self.level, self.search_rng.getrandbits(32), self.iterations)
            moves = search.choose_turn(self.game)  # the rest of its turn, from one search
            for move in moves:
                self.game.push(move)
            self.say(f"Bot ({self.level}) as {self.game.seat_names[seat]} plays {' '.join(moves)}")
            self.roll_dice()
            moved = True
            if not self.bot_to_move() or self.human is None:
                self.show()
        return moved

    def play(self, move: str) -> None:
        before = self.game.ply
        super().play(move)
        if self.game.ply > before:
            self.bot_moves()

    def undo(self) -> None:
        super().undo()
        while self.bot_to_move() and self.game.ply:
            super().undo()
        self.bot_moves()  # the bot moved first: it plays again

    def load(self, name: str) -> None:
        super().load(name)
        self.bot_moves()

    def run(self, lines: Iterator[str]) -> None:
        if self.human is None:
            self.say(f"{self.game.title}: the bot ({self.level}) plays every seat.")
            self.roll_dice()
            self.show()
            self.bot_moves()
            return
        self.say(
            f"{self.game.title}: you play {self.game.seat_names[self.human]} against the bot "
            f"({self.level}). Type a move, or 'help'. Images go to {self.out_dir}"
        )
        self.roll_dice()
        if not self.bot_moves():
            self.show()
        for line in lines:
            if not self.handle(line):
                break
            if self.game.is_over:
                self.say("Game over. 'undo', 'save FILE', 'load FILE' or 'quit'.")


def utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    origin = None
    if args.load:
        if args.position or args.variant or args.seats is not None:
            raise CliError(
                "--load takes the game from the record: no --position, --variant or --seats"
            )
        record, game = read_record(args.load)
        wanted = new_from_args(args.game, ())
        if wanted.key != game.key:
            raise CliError(f"record {args.load} is a {game.title} game, not {wanted.title}")
        origin = record.new_game()
    else:
        game = start_game(args)
    if args.bot_vs_bot or args.bot:
        human = None if args.bot_vs_bot else args.seat
        if human is not None and not 0 <= human < game.seats:
            raise CliError(f"--seat is 0..{game.seats - 1} for {game.title}")
    out_dir = Path(args.out or f"idzeva-games/{game.key}-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CliError(f"cannot make the image folder {out_dir}: {reason_of(error)}") from None
    if args.bot_vs_bot or args.bot:
        level = args.bot or DEFAULT_LEVEL
        bot = BotPlay(game, out_dir, out, level, human, args.seed, args.iterations, origin)
        bot.run(_input_lines())
    else:
        HotSeat(game, out_dir, out, origin=origin).run(_input_lines())
    return 0


def cmd_best(args: argparse.Namespace, out: TextIO) -> int:
    game = start_game(args)
    play_moves(game, args.moves, args.dice)
    if game.is_over:
        raise CliError(f"the game is over: {game.result_text()}")
    if game.dice_needed() is not None:
        raise CliError(f"a {game.dice_needed()} roll is due: add --dice")
    search = Search(args.level, seed=args.seed, iterations=args.iterations)
    out.write(search.choose(game).move + "\n")
    return 0


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    probe = new_from_args(args.game, args.variant, args.seats)

    def make() -> Game:
        return type(probe)(args.variant, probe.seats)

    def progress(done: int, tally: Any) -> None:
        print(f"  game {done}: {tally.wins}-{tally.draws}-{tally.losses}", file=sys.stderr)

    tally = arena(
        make, args.a, args.b, args.games, args.seed, progress, args.iterations, args.clock
    )
    low, high = tally.interval()
    out.write(
        f"{probe.title}{' (' + ', '.join(args.variant) + ')' if args.variant else ''}: "
        f"A={args.a} against B={args.b}, {tally.games} games, seats alternating\n"
        f"A: {tally.wins} wins, {tally.draws} draws, {tally.losses} losses; "
        f"share of the points {tally.share():.3f} (95% interval {low:.3f}-{high:.3f})\n"
        f"endings: {', '.join(f'{reason} {n}' for reason, n in sorted(tally.endings.items()))}\n"
    )
    for player in dict.fromkeys((args.a, args.b)):
        out.write(
            f"time per turn, {player}: mean {tally.mean_time(player):.3f} s, "
            f"p95 {tally.p95(player):.3f} s\n"
        )
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    record, final = read_record(args.record)
    total = len(record.moves)
    ply = total if args.ply is None else args.ply
    if not 0 <= ply <= total:
        raise CliError(f"--ply {ply}: the record has plies 0 to {total}")
    game = final if ply == total else record.replay(ply)
    if args.gif:
        from render.gif import game_gif_info  # Pillow only when an image is asked for

        try:
            info = game_gif_info(record)
        except KeyError:
            raise CliError(f"no board image for {game.title} yet") from None
        write_file(args.gif, info.data, "GIF")
    elif args.png:
        try:
            image = render_png(game)
        except KeyError:
            raise CliError(f"no board image for {game.title} yet") from None
        write_file(args.png, image, "image")
    out.write(f"{game.title}, ply {ply} of {total}")
    if ply:
        played = record.moves[ply - 1]
        dice = "".join(f"[{' '.join(map(str, roll))}] " for roll in played.dice)
        out.write(f": {game.seat_names[played.seat]} {dice}{played.move}")
    out.write("\n\n" + game.text_board() + "\n\n" + status_text(game) + "\n")
    if args.gif:
        frames = len(info.plies)
        sampled = f" ({info.note})" if info.note else ""
        out.write(
            f"GIF written to {args.gif}: {frames} frames, {len(info.data):,} bytes{sampled}\n"
        )
    elif args.png:
        out.write(f"Image written to {args.png}\n")
    return 0


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> int:
    """The post-game analysis of a record (``search/analysis.py``): the summary, or JSON;
    the chart with ``--png``. Progress goes to stderr, a line per step."""
    from bot.domain.analysis import chart_png, summary_text  # Pillow only when asked for
    from search.analysis import analyse

    record, game = read_record(args.record)
    if not record.moves:
        raise CliError(f"record {args.record} has no moves to analyse")

    def progress(done: int, total: int) -> None:
        print(f"analysed {done} of {total} positions", file=sys.stderr)

    analysis = analyse(record, args.seed, size=args.iterations, progress=progress)
    if args.png:
        write_file(args.png, chart_png(analysis), "chart")
    if args.json:
        out.write(analysis.to_json() + "\n")
        return 0
    turns = len(analysis.turns)
    out.write(f"{game.title}: {len(record.moves)} moves, {turns} turns judged\n")
    out.write(summary_text(analysis).replace("**", "") + "\n")
    if args.png:
        out.write(f"Chart written to {args.png}\n")
    return 0


NAME_LIMIT = 100  # characters of a game or section name: no heading is longer


def cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    if len(args.game) > NAME_LIMIT or len(args.section or "") > NAME_LIMIT:
        raise CliError(f"a game or section name has at most {NAME_LIMIT} characters")
    try:
        game = game_class(args.game).key
        out.write(section_text(game, args.section))
    except KeyError as error:
        raise CliError(str(error.args[0])) from None
    except UnknownSection as error:
        raise CliError(f"{error}; its sections: {', '.join(error.sections)}") from None
    return 0


def cmd_learn(args: argparse.Namespace, out: TextIO) -> int:
    """Exit 0 when the course was played to its end, 1 when the input stopped before."""
    from bot.cli.learn import LearnRun
    from bot.domain.learn import find_course
    from bot.domain.learn.pictures import step_picture

    if len(args.course) > NAME_LIMIT or len(args.lesson or "") > NAME_LIMIT:
        raise CliError(f"a course or lesson name has at most {NAME_LIMIT} characters")
    try:
        course = find_course(args.course)
    except KeyError as error:
        raise CliError(str(error.args[0])) from None
    try:
        first = course.lesson(args.lesson) if args.lesson else None
    except KeyError as error:
        ids = ", ".join(lesson.id for lesson in course.lessons)
        raise CliError(f"{error.args[0]} (its lessons: {ids})") from None
    pictures = Path(args.png) if args.png else None
    if pictures is not None:
        try:
            pictures.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CliError(f"cannot make the folder {pictures}: {reason_of(error)}") from None

    def save(path: Path, step: Any) -> None:
        write_file(path, step_picture(step), "the picture")

    run = LearnRun(course, out, pictures=pictures, save=save)
    return 0 if run.run(_input_lines(""), first) else 1


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    from bot.app import run_bot

    return run_bot()


def cmd_sync(args: argparse.Namespace, out: TextIO) -> int:
    from bot.app import sync_now

    return sync_now()


def cmd_migrate_db(args: argparse.Namespace, out: TextIO) -> int:
    import asyncio

    from bot.storage import is_postgres, sqlite_path
    from bot.storage.rows import StoreError

    if not is_postgres(args.target):
        raise CliError(f"--to must be a postgresql:// URL, not {args.target!r}", 2)
    try:
        from bot.cli.migrate_db import NotOurDatabase, migrate_db

        report = asyncio.run(migrate_db(sqlite_path(args.source), args.target))
    except ImportError as error:
        message = f"PostgreSQL needs asyncpg: pip install 'idzeva[postgres]' ({error})"
        raise CliError(message, 1) from None
    except NotOurDatabase as error:
        raise CliError(str(error), 2) from None
    except StoreError as error:
        raise CliError(str(error), 1) from None
    for line in report.lines():
        print(line, file=out)
    return 1 if report.problems else 0


COMMANDS = {
    "legal": cmd_legal,
    "show": cmd_show,
    "play": cmd_play,
    "best": cmd_best,
    "arena": cmd_arena,
    "replay": cmd_replay,
    "analyse": cmd_analyse,
    "rules": cmd_rules,
    "learn": cmd_learn,
    "run": cmd_run,
    "sync": cmd_sync,
    "migrate-db": cmd_migrate_db,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parsers = build_parsers()
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if not argv or argv[0] not in parsers:
        print(USAGE, file=sys.stderr)
        return EXIT_ILLEGAL
    command = argv.pop(0)
    try:
        args = parsers[command].parse_intermixed_args(argv)
    except SystemExit as stop:  # --help, or arguments refused (one line on stderr)
        return int(stop.code or 0)
    if out is None:
        out = sys.stdout
        if hasattr(out, "reconfigure"):
            # A terminal that cannot show "č" or "→" gets "?", not a UnicodeEncodeError.
            out.reconfigure(errors="replace")
    try:
        code = COMMANDS[command](args, out)
        out.flush()
        return code
    except CliError as error:
        print(f"idzeva: {error}", file=sys.stderr)
        return error.code
    except BrokenPipeError:
        # The reader went away (``idzeva legal ... | head``): as the Python documentation
        # recommends, point stdout at devnull so that the flush at exit does not fail too.
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        print("\nidzeva: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout is no file (tests pass a StringIO)


if __name__ == "__main__":
    sys.exit(main())
