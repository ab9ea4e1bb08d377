"""A lesson step's picture: the game's own renderer, the step's marks highlighted. A job for
the worker processes (``Workers.run``): rendering is CPU work."""

from __future__ import annotations

from .model import Step


def step_picture(step: Step) -> bytes:
    """The step's position as PNG bytes, its marks ringed."""
    from render import render_png  # lazy, as the service's renderer: Pillow loads on use

    return render_png(step.position(), step.marks)
