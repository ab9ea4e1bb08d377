"""Turn clocks for correspondence play: time per move, reminders, time-outs and vacations.

Pure arithmetic on epoch seconds (no I/O): the service stores what these functions return in
the game's deadline columns and asks them what is due.

One clock runs per player's turn: it starts when the turn passes to another player (never on
a sub-action of the same player, such as Chebache's roll then move) and gives that player
``time`` seconds (the game's ``options["time"]``). Along the way:

- reminders at half the time and when a tenth of it is left (but at most a day before the
  end): two per move, whatever the time (``REMINDER_SHARES``);
- at the end (``claim_at``) the waiting side may claim the win;
- ``grace`` seconds later (``timeout_at``) the bot ends the game on time itself.

A player on vacation has their clock paused: a turn that reaches them starts when the
vacation ends (``paused_until``), and starting a vacation moves the deadlines of the turns
still running by its length (never of a turn whose time already ran out); ending it early
moves them back by the part not taken.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.wording import plural

HOUR = 3600
DAY = 24 * HOUR

# The time per move a challenge may choose (seconds), as Discord choices show them.
TIME_CHOICES: tuple[tuple[str, int], ...] = (
    ("1 hour", HOUR),
    ("6 hours", 6 * HOUR),
    ("12 hours", 12 * HOUR),
    ("1 day", DAY),
    ("2 days", 2 * DAY),
    ("3 days", 3 * DAY),
    ("5 days", 5 * DAY),
    ("7 days", 7 * DAY),
    ("14 days", 14 * DAY),
)
DEFAULT_TIME = 3 * DAY
# How long after the time is out the bot ends the game itself (a server setting).
GRACE_CHOICES: tuple[tuple[str, int], ...] = (
    ("1 hour", HOUR),
    ("6 hours", 6 * HOUR),
    ("12 hours", 12 * HOUR),
    ("1 day", DAY),
    ("2 days", 2 * DAY),
    ("3 days", 3 * DAY),
    ("7 days", 7 * DAY),
)
DEFAULT_GRACE = DAY
VACATION_ALLOWANCE = 30  # days a year, unless the server says otherwise
MAX_ALLOWANCE = 365

# Reminder times as a share of the time per move: half of it gone, then near the end.
LAST_REMINDER_SHARE = 0.9  # a tenth of the time left ...
LAST_REMINDER_MAX_LEAD = DAY  # ... but not more than a day before the end


class ClockError(ValueError):
    """A time or a number of days that cannot be used; ``str()`` says why, for players."""


def describe(seconds: float) -> str:
    """``3600`` -> ``"1 hour"``, ``259200`` -> ``"3 days"``, ``5400`` -> ``"1.5 hours"``."""
    for unit, name in ((DAY, "day"), (HOUR, "hour"), (60, "minute")):
        if seconds >= unit:
            amount = seconds / unit
            return plural(amount, name)
    return plural(seconds, "second")


def parse_choice(value: object, choices: Sequence[tuple[str, int]], what: str) -> int:
    """One of ``choices``' seconds, given as the number (int or its ASCII digits)."""
    allowed = {seconds for _, seconds in choices}
    number = None
    whole = isinstance(value, float) and value.is_integer()
    digits = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif whole or digits:
        number = int(value)  # type: ignore[arg-type]
    if number not in allowed:
        names = ", ".join(name for name, _ in choices)
        raise ClockError(f"The {what} must be one of: {names}.")
    return number


def parse_time(value: object) -> int:
    return parse_choice(value, TIME_CHOICES, "time per move")


def parse_grace(value: object) -> int:
    return parse_choice(value, GRACE_CHOICES, "time-out grace")


def seconds(options: dict, key: str, default: float) -> float:
    """A game's ``options[key]`` (``"time"``, ``"grace"``) in seconds; ``default`` for a
    game stored without it (or with a value that is not a positive number)."""
    value = options.get(key)
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value > 0
    return float(value) if ok else default


def reminder_offsets(time: float) -> tuple[float, float]:
    """Seconds after the turn's start at which the player is reminded."""
    last = max(time * LAST_REMINDER_SHARE, time - LAST_REMINDER_MAX_LEAD)
    return time / 2, last


def new_turn(now: float, time: float, grace: float, paused_until: float | None) -> dict:
    """The deadline columns of a turn starting ``now`` (when its player is on vacation until
    ``paused_until``, the clock starts then)."""
    paused = paused_until is not None and paused_until > now
    start = paused_until if paused else now
    return {
        "turn_started_at": start,
        "remind_at": start + reminder_offsets(time)[0],
        "reminded": 0,
        "claim_at": start + time,
        "claim_notified": 0,
        "timeout_at": start + time + grace,
        "paused_until": paused_until if paused else None,
    }


def clock_line(mover: int, claim_at: float | None, paused_until: float | None, now: float) -> str:
    """What a board says of the clock: ``<@1> moves <t:...:R>``, or the vacation."""
    if paused_until is not None and paused_until > now:
        return f"<@{mover}> is on vacation until <t:{int(paused_until)}:f>: the clock waits"
    if claim_at is None:
        return ""
    if claim_at <= now:
        return f"<@{mover}>'s time ran out <t:{int(claim_at)}:R>"
    return f"<@{mover}> moves <t:{int(claim_at)}:R>"


# ---- vacations -----------------------------------------------------------------------


def year_of(now: float) -> int:
    """The allowance's year (UTC) for a vacation starting at ``now``."""
    return dt.datetime.fromtimestamp(now, dt.UTC).year


def refund_days(until: float, now: float) -> int:
    """Whole days not taken of a vacation ended at ``now``: a started day counts as taken."""
    return max(0, math.floor((until - now) / DAY))


def check_days(days: int, used: int, allowance: int) -> None:
    left = max(0, allowance - used)
    if days < 1:
        raise ClockError("A vacation lasts at least one day.")
    if days > left:
        raise ClockError(
            f"You have {plural(left, 'day')} of vacation left this year (of {allowance})."
        )


def paused(paused_until: float | None, now: float) -> bool:
    return paused_until is not None and paused_until > now


def running(claim_at: float | None, now: float) -> bool:
    """Whether a turn's time is still running at ``now`` (not over, not run out): only such a
    turn may wait for a vacation."""
    return claim_at is not None and claim_at > now


def reminder_state(started: float, time: float, now: float) -> tuple[int, float | None]:
    """How many of the turn's reminders are due by ``now``, and when the next one is (None:
    no more this turn). Reminders whose time passed meanwhile (the bot was down) fold into
    one notice, never a burst."""
    offsets = reminder_offsets(time)
    passed = sum(1 for offset in offsets if started + offset <= now)
    return passed, (started + offsets[passed] if passed < len(offsets) else None)


@dataclass(frozen=True)
class VacationStatus:
    """A player's vacation in a server, as ``/game vacation`` shows it."""

    year: int
    used: int  # days taken this year
    allowance: int  # days a year (the server's setting)
    until: float | None  # the vacation running now, if any

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)

    def lines(self, now: float) -> list[str]:
        lines = []
        if paused(self.until, now):
            lines.append(f"On vacation until <t:{int(self.until or 0)}:f>: your clocks wait.")
        else:
            lines.append("Not on vacation.")
        taken = f"{self.used} of {plural(self.allowance, 'day')} taken"
        lines.append(f"{self.year}: {taken}, {self.left} left.")
        return lines
