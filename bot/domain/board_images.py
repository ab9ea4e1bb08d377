"""Each version of a game's board drawn once (issue 33).

A version's picture is wanted several times within minutes: the move's answer posts it,
then the turn's notices, ``/game board``, a click on the board's buttons, a game ended on
time. The picture depends on the saved state alone, and a version's state never changes
(every change writes a new version), so the PNG drawn for ``(game, version)`` is kept here
and served again instead of drawing it anew.

Kept in this process, bounded by bytes, the least recently used going first, rather than
stored with the game: a stored picture would add its 25-55 KB to every version of every
game on disk, for a reuse that happens within minutes of the move. Another process of the
same bot (several on one PostgreSQL) that is asked for a board it did not draw draws it
once itself.
"""

from __future__ import annotations

from render.cache import MIB, ByteCache

# Boards are 25-55 KB (bench/render.py: means 27-49 KB): 8 MiB keeps the last 150-300
# versions drawn, minutes of play on a busy server (a second or so in a burst of 200
# actions a second), and is the main process's only copy. A version asked for after it
# has gone is drawn again (about 5 ms). 16 MiB took 8.5 MiB more of a one-process bot
# (bench/memory.py, threads: 160.1 and 160.8 MiB RSS at 16, 151.6 and 151.9 at 8; issue 33).
BOARD_IMAGES_BYTES = 8 * MIB


class BoardImages:
    """The PNG of each recent (game, version) drawn, up to ``max_bytes`` together."""

    def __init__(self, max_bytes: int = BOARD_IMAGES_BYTES):
        self._cache: ByteCache[bytes] = ByteCache("board images", max_bytes, len, listed=False)

    def recall(self, game_id: int, version: int) -> bytes | None:
        return self._cache.recall((game_id, version))

    def keep(self, game_id: int, version: int, image: bytes) -> None:
        """Keep a version's board (an empty one, a drawing that failed, is not kept).

        Kept as a copy made here, in the caller's thread: the picture was made by a drawing
        thread (``Workers(0)``), in that thread's heap, where hundreds of kept pictures of
        25-55 KB would stay between the canvases' blocks and leave holes too small for them
        (bench/memory.py, threads: 160.3 and 160.8 MiB RSS against 163-168; issue 33)."""
        if image:
            self._cache.keep((game_id, version), bytes(memoryview(image)))

    @property
    def bytes(self) -> int:
        return self._cache.bytes

    @property
    def max_bytes(self) -> int:
        return self._cache.max_bytes
