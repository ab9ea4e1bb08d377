"""The bot opponent's seats in challenges and games (the player itself is ``opponent.py``).

A challenge to the bot's own user stores the level in the challenge's options (``"level"``);
when the game starts, the seats the bot holds get it in the game's settings:
``options["bot_levels"] = {"<seat>": "hard", ...}``. Other bots are refused.

A game against the bot keeps the clocks of any game: a turn the player leaves without a move
is lost on time after the time per move and the grace, and rated unless the game is
friendly; the challenge and the first board say so (``timeout_line``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.domain import clocks
from search import DEFAULT_LEVEL, LEVELS

LEVEL = "level"  # the challenge's option
BOT_LEVELS = "bot_levels"  # the game's setting: {"<seat>": level}


def check_challenge(
    bot_user_id: int | None,
    invited: Sequence[int],
    bots: Iterable[int],
    options: Mapping[str, str],
) -> dict[str, str]:
    """The challenge's options once checked: other bots are refused, the level (or a
    rematch's levels, ``bot_levels``) is one of ``LEVELS`` and only for a game with the bot
    (``normal`` when not given). ``ValueError`` says what is wrong."""
    others = set(bots) - {bot_user_id}
    if others & set(invited):
        me = f" (or me, <@{bot_user_id}>, to play the computer)" if bot_user_id else ""
        raise ValueError(f"Bots cannot play; challenge people{me}.")
    chosen = dict(options)
    level = chosen.get(LEVEL)
    if bot_user_id is None or bot_user_id not in invited:
        if level is not None:
            who = f"<@{bot_user_id}>" if bot_user_id else "the bot"
            raise ValueError(f"The level is for games against the computer: challenge {who}.")
        return chosen
    carried = chosen.get(BOT_LEVELS)  # a rematch's levels, one per bot seat
    levels = [level] if level is not None else list(dict(carried or {}).values())
    if any(chosen_level not in LEVELS for chosen_level in levels):
        raise ValueError(f"The level must be one of {', '.join(LEVELS)}.")
    if not levels:
        chosen[LEVEL] = DEFAULT_LEVEL
    return chosen


def game_options(
    options: Mapping[str, Any], players: Sequence[int], bot_user_id: int | None
) -> dict[str, Any]:
    """The game's settings from the challenge's options: with the bot's level given to each
    seat it holds."""
    settings = dict(options)
    level = settings.pop(LEVEL, None) or DEFAULT_LEVEL
    carried = settings.pop(BOT_LEVELS, {})  # a rematch keeps each bot seat's level
    seats = [str(seat) for seat, user in enumerate(players) if user == bot_user_id]
    if seats:
        settings[BOT_LEVELS] = {seat: carried.get(seat, level) for seat in seats}
    return settings


def seats_of(options: Mapping[str, Any]) -> frozenset[int]:
    """The seats the bot holds in a game (its ``bot_levels``)."""
    levels = options.get(BOT_LEVELS)
    if not isinstance(levels, Mapping):
        return frozenset()
    return frozenset(int(seat) for seat in levels if str(seat).isdigit())


TIMEOUT_LABEL = "Time-out"  # the first board's field with ``timeout_line``


def timeout_line(options: Mapping[str, Any]) -> str | None:
    """For a challenge or game with the bot (``options`` with its level): one line saying
    that a turn left without a move loses on time, and whether that counts in the ratings."""
    if LEVEL not in options and BOT_LEVELS not in options:
        return None
    time = clocks.describe(clocks.seconds(dict(options), "time", clocks.DEFAULT_TIME))
    grace = clocks.describe(clocks.seconds(dict(options), "grace", clocks.DEFAULT_GRACE))
    rated = options.get("rated", True) is not False
    return f"A turn left for {time} (and {grace} of grace) loses the game on time" + (
        ", and it is rated." if rated else "."
    )
