"""What a process imports, and so holds in memory for its whole life (issue 33).

Each check runs in a fresh interpreter: this one has imported everything the suite needs.
"""

from __future__ import annotations

import json
import subprocess
import sys


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_service_leaves_networkx_until_a_swiss_round_is_paired():
    # networkx is 22 MiB of every process that imports it; only Swiss pairing uses it.
    loaded = modules_after("import bot.domain.service")
    assert "bot.domain.tournaments.swiss" in loaded
    assert "networkx" not in loaded
    paired = modules_after(
        "from bot.domain.tournaments.model import Entrant, Record\n"
        "from bot.domain.tournaments.swiss import pair_swiss\n"
        "entrants = [Entrant(player, 1500.0) for player in (1, 2)]\n"
        "pair_swiss(entrants, {1: Record(), 2: Record()})"
    )
    assert "networkx" in paired
