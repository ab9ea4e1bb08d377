"""Why the bot plays a move (issue 34, hints): one plain sentence, in the players' words and
the game's own notation, from what the move changes on the board.

``reason(game, turn)`` compares the position before ``turn`` (the moves of one turn: a Shax
mill and its removal, a Chebache roll's moves) with the position after it and says the first
thing of note, game by game:

- Shax: a mill completed (and the piece removed), an opponent's mill blocked, a piece
  removed that stood two in a line, the freeing move a blocked opponent needs;
- Tchela: the counters captured, and whether the opponent can take any back;
- Poron Jikaida and Pastang: a piece taken (guarded or not), the King out of Kaida, the
  enemy King put in Kaida, a promotion, a piece moved out of reach;
- Chebache: the opponent's pieces sent back to Start, a Chebache formed, pieces moved out
  of the threat of the opponent's Chebaches;
- Šačidjun: the opposing pieces captured, the holds made;
- and in both dice games what the opponent's next roll can do, counted roll by roll over
  the 36 (two d6) or 64 (two d8) ordered rolls: those whose legal moves include one that
  captures a piece at once (Šačidjun: a landing written with ``x``) or an attack that alone
  sends pieces back to Start (Chebache: an ``X`` landing; an attack made of several moves
  of the turn is not counted).

When nothing of note is found, the sentence gives the bot's judgement of the position after
the turn (``search.evaluate``): "keeps the position best by the bot's judgement: win chance
62%". Pure: imports only ``games`` and the search's evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import product
from typing import Any

from games import Game, load_game
from games.jikaida_pieces import KIND_OF
from games.jikaida_pieces import NAME as JIKAIDA_NAME
from games.jikaida_pieces import SIDE_NAME as JIKAIDA_SIDE
from games.sachidjun import CELLS
from games.shax import MILLS

from .evaluate import evaluate

Explainer = Callable[[Any, Any, int], "str | None"]  # (before, after, mover) -> sentence


def reason(game: Game, turn: str | Sequence[str]) -> str:
    """One sentence saying why ``turn`` (a move, or the moves of one turn) is good for the
    player to move in ``game``; ``game`` is left alone."""
    moves = [turn] if isinstance(turn, str) else list(turn)
    mover = game.to_move
    if mover is None or not moves:
        raise ValueError("nobody is to move")
    before = load_game(game.to_json())
    after = load_game(game.to_json())
    for move in moves:
        after.push(move)
    winners = after.outcome.winners if after.outcome is not None else ()
    if any(after.team_of(seat) == game.team_of(mover) for seat in winners):
        return f"wins the game: {after.result_text()}"
    explain = EXPLAINERS.get(game.key)
    said = explain(before, after, mover) if explain is not None else None
    return said or judgement(after, game.team_of(mover))


def judgement(after: Game, team: int) -> str:
    """The fallback: the bot's evaluation of the position after the turn, for ``team``."""
    share = evaluate(after, 2)
    if after.team_of(0) != team:
        share = 1.0 - share
    return f"keeps the position best by the bot's judgement: win chance {round(100 * share)}%"


# ---- Shax ----------------------------------------------------------------------------


def mill_name(line: Sequence[str]) -> str:
    return "-".join(line)


def _shax(before: Any, after: Any, mover: int) -> str | None:
    moves = after.log[len(before.log) :]
    said: list[str] = []
    for entry in moves:
        move = str(entry.move)
        if move.startswith("x"):
            said.append(_shax_removal(before, move[1:], mover))
            continue
        origin, _, target = move.rpartition("-")
        made = [line for line in MILLS if target in line and _all_of(after, line, mover, origin)]
        if before.blocked:  # "the opponent must move instead, and must choose a move after
            # which the blocked player has a legal move ("freeing move"). A mill formed by a
            # freeing move removes nothing."
            blocked = before.seat_names[1 - mover]
            mill = (
                f", completing a mill at {mill_name(made[0])} that removes nothing" if made else ""
            )
            said.append(f"frees {blocked}'s blocked pieces{mill}")
            continue
        if made:
            said.append(f"completes a mill at {mill_name(made[0])}")
            continue
        blocked = _open_lines(before, target, 1 - mover)
        if blocked:
            said.append(f"blocks {before.seat_names[1 - mover]}'s mill at {mill_name(blocked[0])}")
    return ", and ".join(said) or None


def _all_of(game: Any, line: Sequence[str], seat: int, origin: str) -> bool:
    """Whether ``seat`` holds the whole ``line`` in ``game`` (a step's origin excluded)."""
    return origin not in line and all(game.board.get(point) == seat for point in line)


def _open_lines(game: Any, point: str, seat: int) -> list[tuple[str, ...]]:
    """The lines through the empty ``point`` where ``seat`` holds the two other points."""
    return [
        line
        for line in MILLS
        if point in line and all(game.board.get(p) == seat for p in line if p != point)
    ]


def _shax_removal(before: Any, point: str, mover: int) -> str:
    owner = before.seat_names[1 - mover]
    said = f"removes {owner}'s piece at {point}"
    threats = [line for line in MILLS if point in line and _two_of(before, line, 1 - mover)]
    if threats:
        return f"{said}, which stood two in a line at {mill_name(threats[0])}"
    return said


def _two_of(game: Any, line: Sequence[str], seat: int) -> bool:
    """Whether ``seat`` holds two points of ``line`` and the third is empty."""
    held = [game.board.get(point) for point in line]
    return held.count(seat) == 2 and held.count(None) == 1


# ---- Tchela --------------------------------------------------------------------------


def _tchela(before: Any, after: Any, mover: int) -> str | None:
    opponent = 1 - mover
    name = before.seat_names[opponent]
    taken = after.captured[mover] - before.captured[mover]
    if taken > 0:
        back = after.best_capture(opponent) if not after.is_over else 0
        answer = "leaves none to take back" if back == 0 else f"{name} can take {back} back"
        return f"captures {counters(taken)} and {answer}"
    threat = before.best_capture(opponent)
    if threat > 0 and after.best_capture(opponent) == 0:
        return f"leaves {name} nothing to capture (it threatened {counters(threat)})"
    return None


def counters(n: int) -> str:
    return f"{n} counter" + ("" if n == 1 else "s")


# ---- Poron Jikaida and Pastang -------------------------------------------------------


def _jikaida(before: Any, after: Any, mover: int) -> str | None:
    move = str(after.log[-1].move)
    if "<>" in move:
        return None
    origin, _, rest = move.replace("x", "-").partition("-")
    square, _, promotion = rest.partition("=")
    source, target = before.geo.parse(origin), before.geo.parse(square)
    if source is None or target is None:
        return None
    enemy = JIKAIDA_SIDE[1 - mover]
    piece = JIKAIDA_NAME[before.board[source] & 15]
    said = []
    if before.in_kaida(mover) and not after.in_kaida(mover):
        said.append("gets the King out of Kaida")
    victim = before.board[target]
    if victim and victim >> 4 != mover:
        answered = any(
            t == target and answer for s, t, answer in before.captures(mover) if s == source
        )
        guard = "can be taken back" if answered else "nothing guards"
        taken = JIKAIDA_NAME[victim & 15]
        said.append(f"takes the {enemy} {taken} on {square} that {guard}")
    if promotion:
        said.append(f"promotes the {piece} to {_piece_named(promotion)}")
    if after.in_kaida(1 - mover):
        said.append(f"puts the {enemy} King in Kaida")
    if not said and _threatened(before, source, mover) and not _threatened(after, target, mover):
        said.append(f"takes the {piece} out of reach of the {enemy} pieces")
    if not said:
        return None
    return (", ".join(said[:-1]) + " and " + said[-1]) if len(said) > 1 else said[0]


def _threatened(game: Any, square: int, side: int) -> bool:
    """Whether the other side could take ``side``'s piece on ``square`` with one move."""
    return any(t == square for _, t, _ in game.captures(1 - side))


def _piece_named(code: str) -> str:
    kind = KIND_OF.get(code)
    return JIKAIDA_NAME[kind] if kind is not None else code


# ---- Chebache ------------------------------------------------------------------------


def _chebache(before: Any, after: Any, mover: int) -> str | None:
    opponent = 1 - mover
    name = before.seat_names[opponent]
    said = []
    sent = _at_start(after, opponent) - _at_start(before, opponent)
    if sent > 0:
        said.append(f"sends {sent} {name} piece{'s' if sent > 1 else ''} back to Start")
    formed = set(after.chebaches()[mover]) - set(before.chebaches()[mover])
    if formed:
        letters = ", ".join(sorted(formed))
        said.append(f"forms Chebache {letters}")
    escaped = set(before.threatened(mover)) - set(after.threatened(mover))
    if escaped and not after.threatened(mover):
        said.append("takes its pieces out of the opponent's Chebaches")
    exposure = _exposure(after, partial(_sends_back, mover), "attack")
    return _with_exposure(said, exposure)


def _sends_back(seat: int, game: Any, move: str) -> bool:
    """Whether ``move`` is an attack that alone sends ``seat``'s pieces back to Start."""
    if "X" not in move:
        return False
    before = _at_start(game, seat)
    game = load_game(game.to_json())
    game.push(move)
    return _at_start(game, seat) > before


def _at_start(game: Any, seat: int) -> int:
    board = game.board
    return sum(1 for piece in board.mine(seat) if board.pos[piece] == board.start[piece])


# ---- Šačidjun ------------------------------------------------------------------------


def _sachidjun(before: Any, after: Any, mover: int) -> str | None:
    side = before.team_of(mover)
    said = []
    taken = after.captured_of(1 - side) - before.captured_of(1 - side)  # held by ``side``
    if taken > 0:
        said.append(f"captures {taken} opposing piece{'s' if taken > 1 else ''}")
    holds = [
        CELLS[cell]
        for cell in range(len(CELLS))
        if after.held_by(cell, side) and not before.held_by(cell, side)
    ]
    if holds:
        said.append(f"makes a hold on {', '.join(holds)}")
    exposure = _exposure(after, _captures_at_once, "capture")
    return _with_exposure(said, exposure)


def _captures_at_once(game: Any, move: str) -> bool:
    """A landing that captures a lone piece at once (written with ``x``)."""
    return "x" in move


# ---- the next roll -------------------------------------------------------------------


@dataclass(frozen=True)
class Exposure:
    """Of the ``rolls`` the opponent may roll next (ordered: 36 with two d6, 64 with two
    d8), the ``hits`` that give them a first move that ``verb``s the mover's pieces."""

    hits: int
    rolls: int
    verb: str


def _exposure(after: Any, hits: Callable[[Any, str], bool], verb: str) -> Exposure | None:
    """Count, roll by roll, the opponent's next rolls whose legal moves include one that
    ``hits`` (None when no roll is due next: the game is over or the turn goes on)."""
    spec = after.dice_needed()
    if spec is None or after.is_over:
        return None
    saved = after.to_json()
    rolls = list(product(range(1, spec.sides + 1), repeat=spec.count))
    count = 0
    for dice in rolls:
        game = load_game(saved)
        game.roll(dice)
        if any(hits(game, move) for move in game.legal_moves()):
            count += 1
    return Exposure(count, len(rolls), verb)


def _with_exposure(said: list[str], exposure: Exposure | None) -> str | None:
    """The turn's sentence with what the next roll can do to the mover's pieces: said when
    no roll can (a safe turn), or as a warning after what the turn does."""
    if exposure is None:
        return " and ".join(said) or None
    if exposure.hits == 0:
        safe = f"leaves no piece that any of the {exposure.rolls} next rolls can {exposure.verb}"
        return " and ".join([*said, safe])
    if not said:
        return None
    return (
        " and ".join(said)
        + f"; {exposure.hits} of the {exposure.rolls} next rolls can {exposure.verb} a piece"
    )


EXPLAINERS: dict[str, Explainer] = {
    "shax": _shax,
    "tchela": _tchela,
    "jikaida": _jikaida,
    "chebache": _chebache,
    "sachidjun": _sachidjun,
}
