"""The evaluation weights fitted by self-play, kept as data: ``search/weights/<game>.json``,
made by ``python -m bench.fit_weights`` (see there), one weight per feature of the game's
weighted evaluation (``evaluate.WEIGHTED``) with how they were fitted."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

WEIGHTS_DIR = Path(__file__).with_name("weights")


def path_for(key: str) -> Path:
    return WEIGHTS_DIR / f"{key}.json"


@cache
def load(key: str) -> dict | None:
    """A game's weights file as saved, or None where there is none."""
    try:
        return json.loads(path_for(key).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def weights(key: str, names: tuple[str, ...]) -> tuple[float, ...] | None:
    """The fitted weights of ``names`` in that order, or None where the game has no file.
    A file whose features are not exactly ``names`` (the evaluation changed since it was
    fitted) is an error: fit again."""
    data = load(key)
    if data is None:
        return None
    found = data["weights"]
    if tuple(found) != names:
        raise ValueError(
            f"{path_for(key)} weighs {sorted(found)}, the evaluation has {sorted(names)}: "
            "fit again (python -m bench.fit_weights)"
        )
    return tuple(float(found[name]) for name in names)
