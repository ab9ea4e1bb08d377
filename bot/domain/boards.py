"""What a stored game shows: its board (``board_view``, from the row and the snapshot of its
version) and its line in lists (``game_summary``, from the row alone).
"""

from __future__ import annotations

from bot.domain import clocks, hints
from bot.domain.actions import parse_game, title_of
from bot.domain.bot_seats import BOT_LEVELS
from bot.domain.engine_jobs import Snapshot
from bot.domain.views import BoardView, CorruptGame, Fields, GameSummary
from bot.storage.rows import GameRow


def board_view(
    row: GameRow, snapshot: Snapshot, now: float, extra: Fields = (), *, image: bytes = b""
) -> BoardView:
    """What to show of the row's version at ``now`` (``image``: its board, when rendered;
    ``extra``: fields shown after the game's own)."""
    seat = snapshot.to_move
    spec = snapshot.dice_needed
    return BoardView(
        game_id=row.id,
        kind=row.kind,
        title=snapshot.title,
        version=row.version,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=row.thread_id,
        message_id=row.message_id,
        players=row.players,
        seat_names=snapshot.seat_names,
        to_move_user=None if seat is None else row.players[seat],
        status=snapshot.status,
        last_action=snapshot.last_action,
        fields=snapshot.summary + _extra_fields(row, snapshot) + tuple(extra),
        finished=snapshot.is_over,
        result=snapshot.result,
        image=image,
        dice_needed=None if spec is None else str(spec),
        legal_count=len(snapshot.legal),
        answers=snapshot.answers,
        bot_levels=_bot_levels(row),
        clock=None
        if seat is None or snapshot.is_over
        else clocks.clock_line(row.players[seat], row.claim_at, row.paused_until, now),
    )


def game_summary(row: GameRow) -> GameSummary:
    """The game's line in lists: loaded only while it is not finished."""
    if row.status == "finished" and row.result:
        # Stored with the game when it ended: lists of old games need not load them.
        status, finished, seat = row.result, True, None
    else:
        try:
            game = parse_game(row, full_check=False)
            status, finished, seat = game.status_line(), game.is_over, game.to_move
        except CorruptGame:
            status, finished, seat = "This game's saved state is damaged.", False, None
    return GameSummary(
        game_id=row.id,
        kind=row.kind,
        title=title_of(row.kind),
        players=row.players,
        status=status,
        finished=finished or row.status == "finished",
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=row.thread_id,
        message_id=row.message_id,
        to_move_user=None if seat is None else row.players[seat],
    )


def _bot_levels(row: GameRow) -> tuple[tuple[int, str], ...]:
    levels = row.options.get(BOT_LEVELS) or {}
    return tuple(sorted((int(seat), str(level)) for seat, level in levels.items()))


def _extra_fields(row: GameRow, game: Snapshot) -> Fields:
    fields: list[tuple[str, str]] = []
    if row.variants:
        fields.append(("Variants", ", ".join(row.variants)))
    seat = row.draw_offer_seat
    if seat is not None and not game.is_over:
        name = game.seat_names[seat]
        fields.append(("Draw offer", f"<@{row.players[seat]}> ({name}) offers a draw"))
    event = row.options.get("tournament")
    if isinstance(event, dict) and event.get("name"):
        fields.append(("Tournament", f"{event['name']}, round {event.get('round', '?')}"))
    return tuple(fields) + hints.board_fields(row.options)
