"""What a click on each persistent button does: its flow, wired here.

The buttons live in ``cogs/common`` and the flows above it; the flows post boards and
challenges that carry the buttons, so a button that imported its flow would close a cycle.
This module sits above both and is imported only by the composition root (``bot/app.py``).
"""

from __future__ import annotations

from . import analysis, challenge_flow, play, rematch
from .common.buttons import PersistentButton
from .common.game_buttons import (
    DYNAMIC_ITEMS,
    AnalysisButton,
    AnswerButton,
    BoardButton,
    ChallengeButton,
    ClaimButton,
    DrawAnswerButton,
    RematchButton,
    RollButton,
)


def wired_buttons() -> tuple[type[PersistentButton], ...]:
    """The buttons of boards, challenges and notices, each with its flow, to register with
    ``add_dynamic_items`` (their custom ids outlive restarts)."""
    ChallengeButton.handled_by(challenge_flow.challenge_button)
    BoardButton.handled_by(play.board_button)
    RollButton.handled_by(play.roll_on_board)
    AnswerButton.handled_by(play.move_on_board)
    DrawAnswerButton.handled_by(play.draw_answer_button)
    ClaimButton.handled_by(play.claim)
    RematchButton.handled_by(rematch.rematch)
    AnalysisButton.handled_by(analysis.show)
    return DYNAMIC_ITEMS
