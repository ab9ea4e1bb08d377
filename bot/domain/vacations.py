"""Vacations: a player's clocks wait in every game of theirs in a server (issue 16).

Booking a vacation of N days (within the year's allowance, the server's setting) moves the
deadlines of every turn of theirs still running by N days and marks those games paused
until the vacation's end (``paused_until``); a turn that reaches them meanwhile starts its
clock at the end (``clocks.new_turn``). A turn whose time has already run out is left as it
is (issue 37): it stays claimable and still ends on time after the grace, so a vacation
never rescues a lost turn. Moving ends the vacation at once: the days not begun are given
back and the paused games' deadlines (only those the vacation moved or started: their
``paused_until`` is its end) move back by the part not taken, which leaves each of them
later than the moment of return.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.domain import clocks
from bot.domain.clocks import DAY, VacationStatus
from bot.storage import GameStore
from bot.storage.rows import GameRow

Mover = Callable[[GameRow], int | None]  # the user to move in a stored game, if any


class Vacations:
    def __init__(self, store: GameStore, clock: Callable[[], float], mover_of: Mover):
        self._store = store
        self._clock = clock
        self._mover_of = mover_of

    async def status(self, guild_id: int, user_id: int, allowance: int) -> VacationStatus:
        now = self._clock()
        year = clocks.year_of(now)
        running = await self._store.active_vacation(guild_id, user_id, now)
        booked = await self._store.vacation(guild_id, user_id, year)
        return VacationStatus(
            year=year,
            used=booked.used if booked else 0,
            allowance=allowance,
            until=running.until if running else None,
        )

    async def start(self, guild_id: int, user_id: int, days: int, allowance: int) -> VacationStatus:
        """Book ``days`` from now; ``clocks.ClockError`` says why not."""
        now = self._clock()
        before = await self.status(guild_id, user_id, allowance)
        if clocks.paused(before.until, now):
            raise clocks.ClockError(
                f"You are on vacation until <t:{int(before.until or 0)}:f> already; "
                "make a move (or ask for 0 days) to end it first."
            )
        clocks.check_days(days, before.used, allowance)
        until = now + days * DAY
        booked = await self._store.book_vacation(
            guild_id, user_id, before.year, days=days, allowance=allowance, now=now, until=until
        )
        if not booked:  # another click booked meanwhile
            raise clocks.ClockError("Your vacation changed meanwhile: look again.")
        for row in await self.turns_of(guild_id, user_id):
            if clocks.running(row.claim_at, now) and not clocks.paused(row.paused_until, now):
                await self._store.shift_clock(row.id, row.version, until - now, until)
        return await self.status(guild_id, user_id, allowance)

    async def end(self, guild_id: int, user_id: int) -> bool:
        """End the running vacation now (days not begun given back); False if none runs."""
        now = self._clock()
        running = await self._store.active_vacation(guild_id, user_id, now)
        if running is None or running.until is None:
            return False
        until = running.until
        refund = clocks.refund_days(until, now)
        if not await self._store.end_vacation(
            guild_id, user_id, running.year, until=until, now=now, refund=refund
        ):
            return False
        for row in await self.turns_of(guild_id, user_id):
            if row.paused_until == until:
                await self._store.shift_clock(row.id, row.version, now - until, None)
        return True

    async def turns_of(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The player's games here where they are to move: the clocks a vacation holds."""
        rows = await self._store.games_of_user(guild_id, user_id)
        return [row for row in rows if self._mover_of(row) == user_id]
