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
from typing import Any, Generic, TypeVar

from PIL import Image

V = TypeVar("V")

MIB = 1 << 20
SEEN_KEYS = 4096  # how many first-time keys a cache remembers (keys only: small)
_MISSING = object()  # no entry (a cached value may be None)


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
        *,
        listed: bool = True,
    ):
        """``listed``: counted in ``CACHES`` (the renderers' caches, one each a process);
        a cache made per owner (a service's) is not, so that it goes with its owner."""
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
        if listed:
            CACHES.append(self)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def values(self) -> list[V]:
        """The cached values, least recently used first."""
        with self._lock:
            return [value for value, _size in self._entries.values()]

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The cached value for ``key``, or ``make()`` (cached if it is worth keeping)."""
        value = self.recall(key, _MISSING)
        if value is _MISSING:
            value = make()  # outside the lock: drawing may take a while
            self.keep(key, value)
        return value  # type: ignore[return-value]

    def recall(self, key: Hashable, default: Any = None) -> Any:
        """The cached value for ``key`` (now the most recently used), or ``default``."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return entry[0]
            self.misses += 1
        return default

    def keep(self, key: Hashable, value: V) -> None:
        """Cache ``value``, made for ``key``, if it is worth keeping."""
        size = self.size_of(value)
        with self._lock:
            if self.admit_on_second_use and key not in self._seen:
                self._seen[key] = None
                if len(self._seen) > SEEN_KEYS:
                    self._seen.popitem(last=False)
                return
            self._seen.pop(key, None)
            if size > self.max_bytes or key in self._entries:
                return
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._seen.clear()
            self.bytes = 0


CACHES: list[ByteCache] = []  # every ByteCache made, for tests and the bench

# What the renderers' caches may hold together in one process (their bounds: empty boards
# 16 MiB, text masks 8, shrunk pastes 6, sprites 4). Measured (bench/memory.py, 1,000
# active games acting twice): 14 MiB held (29 while the empty boards were also kept in RGB).
RENDER_CACHES_BYTES = 34 * MIB


def cache_bytes() -> int:
    """What all the renderers' byte caches hold together."""
    return sum(cache.bytes for cache in CACHES)


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


_LIBC = _libc()
_MALLOC_TRIM = getattr(_LIBC, "malloc_trim", None)  # glibc only


def trim_heap() -> bool:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing
    elsewhere). For after a rare large drawing (an empty board at twice the size, 12 MiB):
    freed, it would stay in the heap, where a small allocation made since pins it. About
    1.5 ms with a 100 MiB heap, and the pages the next pictures use are faulted in again;
    True when something was given back."""
    return bool(_MALLOC_TRIM(0)) if _MALLOC_TRIM is not None else False


# ---- how a drawing's memory is allocated (issue 33) ---------------------------------
#
# A picture is drawn on a supersampled canvas of 9-12 MiB, shrunk to 2-3 MiB, then freed.
# Pillow asks for an image's pixels in blocks of up to 16 MiB, so a canvas is one large
# malloc: glibc maps the first on its own, and once it is freed raises its threshold to that
# size, so every later canvas comes from a heap of the drawing thread, between the caches'
# entries and small objects, whose holes a canvas of another size does not fit. Blocks of
# 1 MiB fill each other's holes (a canvas is a dozen of them), at the same drawing time once
# glibc's thresholds are fixed (left to move, they kept mapping and unmapping 1 MiB blocks:
# +1-3 ms a picture). Measured 29 November (bench/memory.py, threads, 1,000 games, load 4.4,
# runs interleaved): 173.3 and 173.2 MiB RSS without these settings, 167.5 and 167.8 with
# them (163.9 and 163.1 earlier); what is left free in the drawing threads' heaps (35-45
# MiB) is their canvases' working set. Mapping every canvas on its own instead (threshold
# 1 MiB, blocks of 16 MiB) doubles the drawing time: each canvas is faulted in anew, 5-8 ms,
# as is a heap given back after every picture (``malloc_trim``).
PILLOW_BLOCK_BYTES = 1 * MIB
MMAP_THRESHOLD_BYTES = 4 * MIB  # above Pillow's blocks: only a rare larger buffer is mapped
# A heap's free top kept up to this: once the mmap threshold is set glibc no longer raises
# it with the canvases (it stays at 128 KiB), and a thread's heap given back above 8 MiB was
# faulted in again by its next canvases (bench/load.py, threads: 10.3-10.9 ms of CPU an
# action in three runs of five, against 7.5-8.6 without these settings and with 32 MiB).
TRIM_THRESHOLD_BYTES = 32 * MIB
_M_TRIM_THRESHOLD = -1  # mallopt's parameters (malloc.h)
_M_MMAP_THRESHOLD = -3


def settle_allocation() -> None:
    """Pillow's block size and glibc's thresholds, as above (glibc's part on glibc only).
    Run once when the renderers are imported, so in the fork server of the worker pools too,
    whose workers inherit both."""
    Image.core.set_block_size(PILLOW_BLOCK_BYTES)
    mallopt = getattr(_LIBC, "mallopt", None)
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES)


settle_allocation()
