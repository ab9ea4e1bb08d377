"""Shax board picture: ``render_shax(game) -> PNG bytes``.

Layout, top to bottom: a status line (with a disc of the side to act), the board with
point names on all four edges, then one row per player with pieces in hand and counts.
The last action is highlighted: a placement gets a ring, a step an arrow, a removal a red
cross on a faded piece, and a removal also shows the move that earned it (plus the mill).
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

from games.shax import BLACK, MILLS, MILLS_THROUGH, PIECES_EACH, POINTS, WHITE, Shax

from .common import (
    ACCENT,
    BAND,
    DANGER,
    DARK_PIECE,
    INK,
    INK_SOFT,
    LIGHT_PIECE,
    MILL,
    PANEL,
    Painter,
    Point,
    cached_background,
    framed_panel,
)

WIDTH = 800
RIM = 6
STATUS_BOTTOM = 72
GRID_LEFT = 100
GRID_TOP = 160
SPACING = 100
GRID_BOTTOM = GRID_TOP + 6 * SPACING
LABEL_GAP = 62  # from the outermost points to the centre of the edge labels
HANDS_TOP = GRID_BOTTOM + LABEL_GAP + 30
HAND_ROW = 48
HEIGHT = HANDS_TOP + 2 * HAND_ROW + 14 + RIM

PIECE_RADIUS = 36
DOT_RADIUS = 7
LINE_WIDTH = 5
LABEL_SIZE = 26
STATUS_SIZE = 26
HAND_SIZE = 22
HAND_PIECE_RADIUS = 13
STATUS_PIECE_RADIUS = 17
MILL_BAND_WIDTH = 22
RING_WIDTH = 6  # last-move ring round a piece
MARK_RADIUS = 46  # a marked point's ring (a lesson's "look here"), clear of its neighbours
MARK_WIDTH = 8
ARROW_WIDTH = 7

STYLES = {WHITE: LIGHT_PIECE, BLACK: DARK_PIECE}
FILES = "abcdefg"


def point_xy(point: str) -> Point:
    column = FILES.index(point[0])
    row = int(point[1]) - 1
    return (GRID_LEFT + column * SPACING, GRID_BOTTOM - row * SPACING)


# ---- the empty board, drawn once ---------------------------------------------------


@cached_background
def _background() -> Image.Image:
    image = framed_panel(WIDTH, HEIGHT, RIM)
    paint = Painter(image)
    paint.rect((RIM, RIM, WIDTH - RIM, STATUS_BOTTOM), fill=BAND)
    paint.rect((RIM, HANDS_TOP - 8, WIDTH - RIM, HEIGHT - RIM), fill=BAND)
    for mill in MILLS:  # every drawn line is the line of some mill
        paint.capped_line(point_xy(mill[0]), point_xy(mill[2]), INK, LINE_WIDTH)
    for point in POINTS:
        paint.disc(point_xy(point), DOT_RADIUS, INK)
    _draw_coordinates(paint)
    return image


def _draw_coordinates(paint: Painter) -> None:
    left, right = GRID_LEFT - LABEL_GAP, GRID_LEFT + 6 * SPACING + LABEL_GAP
    top, bottom = GRID_TOP - LABEL_GAP, GRID_BOTTOM + LABEL_GAP
    for column, name in enumerate(FILES):
        x = GRID_LEFT + column * SPACING
        paint.text((x, top), name, LABEL_SIZE, INK_SOFT)
        paint.text((x, bottom), name, LABEL_SIZE, INK_SOFT)
    for row in range(7):
        y = GRID_BOTTOM - row * SPACING
        paint.text((left, y), str(row + 1), LABEL_SIZE, INK_SOFT)
        paint.text((right, y), str(row + 1), LABEL_SIZE, INK_SOFT)


# ---- what to highlight ---------------------------------------------------------------


def highlighted_actions(game: Shax) -> list[tuple[int, str]]:
    """(seat, move) of the last action; a removal brings along the actions leading to it."""
    entries = [entry for entry in game.log if entry.move is not None]
    shown: list[tuple[int, str]] = []
    for entry in reversed(entries):
        assert entry.move is not None
        shown.append((entry.seat, entry.move))
        if not entry.move.startswith("x"):
            break
    return shown[::-1]


def mills_to_show(game: Shax, actions: list[tuple[int, str]]) -> list[tuple[str, str, str]]:
    """Mills completed by a highlighted step that earned (or is about to earn) a removal."""
    steps = [(seat, move) for seat, move in actions if "-" in move]
    if not steps:
        return []
    seat, move = steps[-1]
    earned = any(m.startswith("x") and s == seat for s, m in actions) or (
        game.stage == "removal" and game.to_move == seat and actions[-1][1] == move
    )
    if not earned:
        return []
    target = move.split("-")[1]
    return [m for m in MILLS_THROUGH[target] if all(game.board.get(p) == seat for p in m)]


# ---- drawing -----------------------------------------------------------------------


def _draw_mills(paint: Painter, mills: list[tuple[str, str, str]]) -> None:
    for mill in mills:
        paint.capped_line(point_xy(mill[0]), point_xy(mill[2]), MILL, MILL_BAND_WIDTH)


def _draw_marks(paint: Painter, marks: Iterable[str]) -> None:
    """A green ring round each marked point, under the pieces (``ValueError`` for a name
    that is no point)."""
    for point in marks:
        if point not in POINTS:
            raise ValueError(f"no point {point!r} to mark on a Shax board")
        paint.ring(point_xy(point), MARK_RADIUS, MILL, MARK_WIDTH)


def _draw_pieces(paint: Painter, game: Shax) -> None:
    for point in POINTS:
        seat = game.board.get(point)
        if seat is not None:
            paint.piece(point_xy(point), PIECE_RADIUS, STYLES[seat])


def _draw_step_arrow(paint: Painter, move: str) -> None:
    origin, target = (point_xy(p) for p in move.split("-"))
    (x0, y0), (x1, y1) = origin, target
    length = max(abs(x1 - x0), abs(y1 - y0))  # lines are horizontal or vertical
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    start = (x0 + ux * 20, y0 + uy * 20)
    end = (x1 - ux * (PIECE_RADIUS + 6), y1 - uy * (PIECE_RADIUS + 6))
    paint.ring(origin, 18, ACCENT, RING_WIDTH - 1)
    paint.arrow(start, end, ACCENT, ARROW_WIDTH, head=3 * ARROW_WIDTH)


def _draw_action(paint: Painter, seat: int, move: str) -> None:
    if move.startswith("x"):
        center = point_xy(move[1:])
        victim = BLACK if seat == WHITE else WHITE
        paint.ghost(center, PIECE_RADIUS, STYLES[victim], PANEL)
        paint.cross(center, PIECE_RADIUS * 0.55, DANGER, 8)
        return
    if "-" in move:
        _draw_step_arrow(paint, move)
        move = move.split("-")[1]
    paint.ring(point_xy(move), PIECE_RADIUS + 7, ACCENT, RING_WIDTH)


def _status_seats(game: Shax) -> list[int]:
    """Disc(s) shown next to the status: the side to act, the winner(s), or both on a draw."""
    if game.outcome is None:
        return [game.to_move] if game.to_move is not None else []
    return list(game.outcome.winners) or [WHITE, BLACK]


def _draw_status(paint: Painter, game: Shax) -> None:
    y = (RIM + STATUS_BOTTOM) / 2
    x = 40
    for seat in _status_seats(game):
        paint.piece((x, y), STATUS_PIECE_RADIUS, STYLES[seat])
        x += STATUS_PIECE_RADIUS * 1.5
    status = game.status_line()
    paint.text((x + 14, y), status, STATUS_SIZE, INK, anchor="lm")
    moves = " ".join(move for _, move in highlighted_actions(game))
    if not moves:
        return
    last = f"last: {moves}"
    room = WIDTH - 24 - (x + 14 + paint.text_width(status, STATUS_SIZE) + 24)
    if paint.text_width(last, HAND_SIZE) <= room:
        paint.text((WIDTH - 24, y), last, HAND_SIZE, ACCENT, anchor="rm")


def _draw_hand(paint: Painter, game: Shax, seat: int, y: float) -> None:
    name = game.seat_names[seat]
    paint.text((28, y), name, HAND_SIZE, INK, anchor="lm")
    on_board = game.count(seat)
    lost = PIECES_EACH - on_board - game.in_hand[seat]
    step = 2 * HAND_PIECE_RADIUS + 4
    x = 120
    for _ in range(game.in_hand[seat]):
        paint.piece((x, y), HAND_PIECE_RADIUS, STYLES[seat])
        x += step
    for _ in range(lost):
        paint.ghost((x, y), HAND_PIECE_RADIUS, STYLES[seat], BAND)
        paint.cross((x, y), HAND_PIECE_RADIUS * 0.5, DANGER, 3)
        x += step
    counts = f"{game.in_hand[seat]} in hand · {on_board} on board"
    if lost:
        counts += f" · {lost} lost"
    paint.text((WIDTH - 24, y), counts, HAND_SIZE, INK, anchor="rm")


def render_shax(game: Shax, marks: Iterable[str] = ()) -> bytes:
    """The position as PNG bytes (about 800 px wide, deterministic); ``marks``: points to
    ring (a lesson's)."""
    paint = Painter.on_board(_background())
    actions = highlighted_actions(game)
    _draw_mills(paint, mills_to_show(game, actions))
    _draw_marks(paint, marks)
    _draw_pieces(paint, game)
    for seat, move in actions:
        _draw_action(paint, seat, move)
    _draw_status(paint, game)
    for row, seat in enumerate((WHITE, BLACK)):
        _draw_hand(paint, game, seat, HANDS_TOP + HAND_ROW * row + HAND_ROW / 2 - 4)
    return paint.png("shax")
