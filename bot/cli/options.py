"""What the command lines share about their options: number options with bounds, and a
parser that refuses bad arguments with one line (``idzeva`` and ``python -m bench.arena``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

EXIT_USAGE = 2


@dataclass(frozen=True)
class Bounds:
    """The whole numbers a number option takes, ``low`` to ``high``."""

    low: int
    high: int

    @property
    def text(self) -> str:
        """``1 to 1,000,000``: for the help and the refusals."""
        return f"{self.low:,} to {self.high:,}"

    def help(self, what: str) -> str:
        return f"{what} ({self.text})"

    def add_option(
        self, parser: argparse.ArgumentParser, flag: str, what: str, default: int | None = None
    ) -> None:
        """Add ``flag N`` to ``parser``: a whole number within the bounds, said in its help."""
        parser.add_argument(
            flag, type=self.type(), default=default, metavar="N", help=self.help(what)
        )

    def type(self) -> Callable[[str], int]:
        """An argparse ``type=`` that reads a whole number within the bounds."""

        def bounded(text: str) -> int:
            try:
                value = int(text)
            except ValueError:
                value = None
            if value is None or not self.low <= value <= self.high:
                raise argparse.ArgumentTypeError(
                    f"a whole number from {self.text}, not {text!r}"
                ) from None
            return value

        bounded.__name__ = "whole number"
        return bounded


# Generous for a person: a million iterations is minutes of search (a level uses up to a
# few thousand); a hundred thousand games of the weakest bots is hours.
ITERATIONS_BOUNDS = Bounds(1, 1_000_000)
GAMES_BOUNDS = Bounds(1, 100_000)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that refuses bad arguments with one line on stderr, naming the
    command, and exit status 2 (argparse's own prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n")
