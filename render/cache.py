"""Caches bounded by the bytes they hold, not by their number of entries.

A renderer caches what it draws again and again (an empty board, a label's text mask).
Entries differ a thousandfold in size, so a count bound says nothing about memory: each
``ByteCache`` keeps its values' total size under ``max_bytes``, evicting the least
recently used. ``admit_on_second_use`` keeps one-off values (a status line that names
this game's players and move) out of the cache: a key is remembered when first asked for
and cached only when asked for again, so the cache holds what is actually reused.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from PIL import Image

V = TypeVar("V")

MIB = 1 << 20
SEEN_KEYS = 4096  # how many first-time keys a cache remembers (keys only: small)


def image_bytes(image: Image.Image) -> int:
    """What an image's pixels take in memory (Pillow keeps RGB in four bytes a pixel)."""
    per_pixel = 1 if image.mode in ("1", "L", "P") else 4
    return image.width * image.height * per_pixel


class ByteCache(Generic[V]):
    """A least-recently-used cache whose values total at most ``max_bytes`` (thread-safe)."""

    def __init__(
        self,
        name: str,
        max_bytes: int,
        size_of: Callable[[V], int],
        admit_on_second_use: bool = False,
    ):
        self.name = name
        self.max_bytes = max_bytes
        self.size_of = size_of
        self.admit_on_second_use = admit_on_second_use
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._seen: OrderedDict[Hashable, None] = OrderedDict()
        self._lock = threading.Lock()
        CACHES.append(self)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The cached value for ``key``, or ``make()`` (cached if it is worth keeping)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return entry[0]
            self.misses += 1
        value = make()  # outside the lock: drawing may take a while
        size = self.size_of(value)
        with self._lock:
            if self.admit_on_second_use and key not in self._seen:
                self._seen[key] = None
                if len(self._seen) > SEEN_KEYS:
                    self._seen.popitem(last=False)
                return value
            self._seen.pop(key, None)
            if size > self.max_bytes or key in self._entries:
                return value
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._seen.clear()
            self.bytes = 0


CACHES: list[ByteCache] = []  # every ByteCache made, for tests and the bench


def cache_bytes() -> int:
    """What all the renderers' byte caches hold together."""
    return sum(cache.bytes for cache in CACHES)


def _libc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _libc_trim()


def trim_heap() -> bool:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing
    elsewhere). For after a rare large drawing (an empty board at twice the size, 12 MiB):
    freed, it would stay in the heap, where a small allocation made since pins it. About
    1.5 ms with a 100 MiB heap, and the pages the next pictures use are faulted in again;
    True when something was given back."""
    return bool(_MALLOC_TRIM(0)) if _MALLOC_TRIM is not None else False
