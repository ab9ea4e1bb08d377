"""The deadlines' work, done by ``GameService.tick()``: what is due, said once.

- A challenge past its time expires; its challenger is told.
- The player to move is reminded at half the time per move and near its end (not the bot
  opponent, nor a player on vacation).
- When the time is out, the waiting side is told it may claim the win by timeout.
- When the server's grace after it is out too, the game ends on time (recorded as the
  waiting side's claim), announced to both sides.

Every notice is a keyed job of the outbox (``bot/domain/jobs.py``), written before the state that
made it due is marked, so that several processes ticking together send each once.
``bot/domain/clocks.py`` stays the pure arithmetic of the clocks (no I/O); this module does the I/O
with what the service gives it: the store, the clock, the outbox, and the service's own
version-checked write (``apply``) to end a game on time.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import Any

from bot.domain import clocks
from bot.domain.actions import claim_timeout_action, parse_game, require_player, title_of
from bot.domain.jobs import Outbox, once
from bot.domain.views import Notice, ServiceError
from bot.storage import GameStore
from bot.storage.rows import ChallengeRow, GameRow
from games import Game

log = logging.getLogger(__name__)

Send = Callable[[Notice], Awaitable[None]]
Scan = Callable[[float], Awaitable[list[Notice]]]  # the notices due at a time


class Deadlines:
    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], float],
        outbox: Outbox,
        *,
        bot_user_id: int | None,
        time_of: Callable[[dict[str, Any]], float],
        mover_and_waiting: Callable[[GameRow], tuple[int | None, int | None]],
        apply: Callable[..., Awaitable[Any]],
    ):
        """``time_of``: a game's seconds per move from its options; ``mover_and_waiting``:
        the user to move and the first of the other side; ``apply``: the service's write of
        an action to a game's version (``StaleBoard``/``ServiceError`` when it moved on)."""
        self._store = store
        self._clock = clock
        self._outbox = outbox
        self.bot_user_id = bot_user_id
        self._time_of = time_of
        self._mover_and_waiting = mover_and_waiting
        self._apply = apply

    async def tick(self, send: Send | None, digests: Scan) -> list[Notice]:
        """Expire challenges, remind idle players once per turn, announce claimable games,
        end games on time; then ``digests`` (bot/domain/notify.py).

        Each notice is a job of the outbox (bot/domain/jobs.py), shared by every process: with
        ``send`` (the bot), each is sent, then marked done; one whose sending raised, or left
        by a process that died, is sent by a later tick. Without ``send``, the notices are
        marked done and returned for the caller to post."""
        now = self._clock()
        notices = [Notice(**payload, key=key) for key, payload in await self._outbox.take()]
        notices += await self._expire_challenges(now)
        notices += await self._reminders(now)
        notices += await self._claimables(now)
        notices += await self._timeouts(now)
        # A game ended on time may have ended its tournament's round: the next round's
        # pairings and games, which this tick wrote due meanwhile, go out now, not a tick
        # later (a job it holds already is not taken twice).
        held = {notice.key for notice in notices}
        written = await self._outbox.take_written_due()
        notices += [Notice(**payload, key=key) for key, payload in written if key not in held]
        notices += await digests(now)  # marked sent for the day first (bot/domain/notify.py)
        for notice in notices:
            if send is not None:
                try:
                    await send(notice)
                except Exception:
                    log.warning(
                        "could not send %s; a later tick retries", notice.key, exc_info=True
                    )
                    continue
            if notice.key is not None:
                await self._outbox.done(notice.key)
        await self._outbox.purge()
        return notices

    async def _notice_once(
        self, notice: Notice, key: str, mark: Callable[[], Awaitable[bool]], done_elsewhere
    ) -> Notice | None:
        """``notice`` with its key when this process is to send it (bot/domain/jobs.py ``once``)."""
        payload = {name: value for name, value in vars(notice).items() if name != "key"}
        if await once(self._outbox, key, payload, mark, done_elsewhere):
            return replace(notice, key=key)
        return None

    async def vacation_notices(self, guild_id: int, user_id: int) -> list[Notice]:
        """For the opponents, in each game whose clock the player's vacation holds now."""
        now = self._clock()
        notices = []
        for row in await self._store.games_of_user(guild_id, user_id):
            mover, _ = self._mover_and_waiting(row)
            if mover == user_id and clocks.paused(row.paused_until, now):
                text = (
                    f"<@{user_id}> is on vacation until <t:{int(row.paused_until or 0)}:f>:"
                    f" the clock of {title_of(row.kind)} #{row.id} waits."
                )
                notices.append(_game_notice("vacation", row, user_id, text))
        return notices

    async def _expire_challenges(self, now: float) -> list[Notice]:
        notices = []
        for row in await self._store.challenges_expired(now):

            async def expired_elsewhere(challenge_id: int = row.id) -> bool:
                challenge = await self._store.get_challenge(challenge_id)
                return challenge is not None and challenge.status == "expired"

            notice = await self._notice_once(
                _expiry_notice(row),
                f"challenge_expired:{row.id}",
                partial(
                    self._store.update_challenge,
                    row.id,
                    expected_status="pending",
                    status="expired",
                ),
                expired_elsewhere,
            )
            if notice is not None:
                notices.append(notice)
        return notices

    async def _reminders(self, now: float) -> list[Notice]:
        """At half the time per move and near its end (``clocks.reminder_offsets``)."""
        notices = []
        for row in await self._store.games_to_remind(now):
            started = row.turn_started_at if row.turn_started_at is not None else now
            due, next_at = clocks.reminder_state(started, self._time_of(row.options), now)
            sent = max(due, row.reminded)
            mark = partial(
                self._store.mark_reminded, row.id, row.version, row.reminded, sent, next_at
            )
            mover, _ = self._mover_and_waiting(row)
            if (
                mover is None
                or mover == self.bot_user_id  # the bot opponent needs no nudge
                or due <= row.reminded
                or clocks.paused(row.paused_until, now)
            ):
                await mark()  # nothing to say: the next reminder's time only
                continue
            ends = f": your time runs out <t:{int(row.claim_at)}:R>" if row.claim_at else ""
            text = f"<@{mover}>, it is your turn in {title_of(row.kind)} #{row.id}{ends}."
            notice = await self._notice_once(
                _game_notice("reminder", row, mover, text),
                f"reminder:{row.id}:{row.version}:{sent}",
                mark,
                partial(self._same_version, row),
            )
            if notice is not None:
                notices.append(notice)
        return notices

    async def _claimables(self, now: float) -> list[Notice]:
        notices = []
        for row in await self._store.games_claimable(now):
            if clocks.paused(row.paused_until, now):  # the mover is on vacation
                continue
            mark = partial(self._store.mark_notified, row.id, row.version, "claim_notified")
            mover, waiting = self._mover_and_waiting(row)
            if mover is None or waiting is None or waiting == self.bot_user_id:
                await mark()
                continue
            ends = f" <t:{int(row.timeout_at)}:R>" if row.timeout_at else ""
            text = (
                f"<@{waiting}>, <@{mover}> has not moved in {title_of(row.kind)} #{row.id}"
                f"{_since(row.turn_started_at)}: you may claim the win by timeout"
                + (f"; otherwise the game ends on time{ends}." if ends else ".")
            )
            notice = await self._notice_once(
                _game_notice("claimable", row, waiting, text),
                f"claimable:{row.id}:{row.version}",
                mark,
                partial(self._same_version, row),
            )
            if notice is not None:
                notices.append(notice)
        return notices

    async def _timeouts(self, now: float) -> list[Notice]:
        """End on time the games whose time and grace are out: recorded as a claim by the
        waiting side, once. Like every notice, the announcement is written as a job before
        the game's write (its mark), so a process killed between the two leaves the job to
        another (bot/domain/jobs.py): the game is then ended by whichever process scans it next,
        and the job waits for that (``cogs.notices.post_timed_out`` shows only a final
        board)."""
        notices = []
        for row in await self._store.games_timed_out(now):
            mover, waiting = self._mover_and_waiting(row)
            if mover is None or waiting is None or clocks.paused(row.paused_until, now):
                continue
            ended = parse_game(row, full_check=False)  # the result it ends with
            against = _opponents(row, ended, ended.to_move or 0)  # to move: not over
            ended.claim_timeout(require_player(row, waiting))
            text = (
                f"<@{mover}> ran out of time in {title_of(row.kind)} #{row.id} against {against}:"
                f" the game is over ({ended.result_text()})."
            )
            notice = await self._notice_once(
                _game_notice("timed_out", row, mover, text),
                f"timed_out:{row.id}",
                partial(self._end_on_time, row, waiting),
                partial(self._finished, row),
            )
            if notice is not None:
                notices.append(notice)
        return notices

    async def _end_on_time(self, row: GameRow, waiting: int) -> bool:
        """The time-out's mark: the game's own version-checked write."""
        try:
            await self._apply(row, partial(claim_timeout_action, waiting))
        except ServiceError:  # another process ended it, or it changed meanwhile
            return False
        return True

    async def _finished(self, row: GameRow) -> bool:
        """Whether another process ended the game meanwhile (the job stands for it)."""
        current = await self._store.get_game(row.id)
        return current is not None and current.status == "finished"

    async def _same_version(self, row: GameRow) -> bool:
        """Whether the game is still at ``row``'s version (nobody moved since the scan)."""
        current = await self._store.game_version(row.id)
        return current is not None and current[1] == row.version


def _opponents(row: GameRow, game: Game, seat: int) -> str:
    """The players of the sides against ``seat``, mentioned (each once)."""
    users = (row.players[s] for s in range(game.seats) if game.team_of(s) != game.team_of(seat))
    return " and ".join(f"<@{user}>" for user in dict.fromkeys(users))


def _since(started: float | None) -> str:
    return "" if started is None else f" (waiting since <t:{int(started)}:R>)"


def _game_notice(kind: str, row: GameRow, user_id: int, text: str) -> Notice:
    return Notice(
        kind=kind,
        game_id=row.id,
        challenge_id=None,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=row.thread_id,
        message_id=row.message_id,
        user_id=user_id,
        text=text,
    )


def _expiry_notice(row: ChallengeRow) -> Notice:
    text = (
        f"<@{row.challenger_id}>, your open {title_of(row.kind)} challenge expired: nobody took it."
        if row.is_open
        else f"<@{row.challenger_id}>, your {title_of(row.kind)} challenge to "
        f"<@{row.opponent_id}> expired unanswered."
    )
    return Notice(
        kind="challenge_expired",
        game_id=None,
        challenge_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=None,
        message_id=row.message_id,
        user_id=row.challenger_id,
        text=text,
    )
