"""Settings read from the environment, with a minimal ``.env`` loader (real env vars win)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

HOUR = 3600.0
DAY = 24 * HOUR


def parse_dotenv(text: str) -> dict[str, str]:
    """Parse ``KEY=VALUE`` lines: blank lines and ``#`` comments skipped, quotes stripped."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        if key:
            values[key] = _parse_value(value.strip())
    return values


def _parse_value(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        if value[0] == '"':
            inner = inner.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
        return inner
    # Unquoted: an inline comment starts at " #".
    for marker in (" #", "\t#"):
        if marker in value:
            value = value.split(marker, 1)[0]
    return value.strip()


def load_dotenv(path: str | Path = ".env") -> dict[str, str]:
    """The values in ``path``, or nothing when the file does not exist."""
    try:
        return parse_dotenv(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment. Durations are in seconds.

    The token is left out of ``repr()`` and ``str()``: settings may be logged or shown in a
    traceback, and whoever holds the token controls the bot."""

    token: str = field(default="", repr=False)
    db_path: str = "./idzeva.db"
    dev_guild: int | None = None
    challenge_ttl: float = 24 * HOUR
    # The time per move of a game whose challenge and server chose none (IDZEVA_CLAIM_DAYS).
    claim_after: float = 3 * DAY
    # Where the full rules pages are published (IDZEVA_DOCS_URL); "": none, no link.
    docs_url: str = ""
    # Worker processes for engine work and rendering: None, one per core; 0, a thread.
    workers: int | None = None
    # Post the animated GIF of each game when it ends (IDZEVA_GAME_GIFS=0 turns it off).
    game_gifs: bool = True
    # Mine each server's finished games for puzzles of its own, in the background at low
    # priority (IDZEVA_SERVER_PUZZLES=0 turns it off; bot/domain/puzzles/server.py).
    server_puzzles: bool = True
    # Sharding (several processes): IDZEVA_SHARD_COUNT shards in all, this process runs
    # IDZEVA_SHARD_IDS of them (all when unset). None: one plain, unsharded bot.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # The bot opponent's search: a fixed number of iterations per move instead of its level's
    # clock (IDZEVA_BOT_ITERATIONS; for tests and demos, where a move must be quick and the
    # same on every machine). None: each level's own time budget.
    bot_iterations: int | None = None

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env"
    ) -> Settings:
        """Read settings from ``env_file`` overlaid with ``environ`` (default ``os.environ``)."""
        env = dict(load_dotenv(env_file)) if env_file is not None else {}
        env.update(os.environ if environ is None else environ)
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip(),
            db_path=env.get("IDZEVA_DB", "").strip() or cls.db_path,
            dev_guild=_optional_int(env, "IDZEVA_DEV_GUILD"),
            challenge_ttl=_duration(env, "IDZEVA_CHALLENGE_HOURS", HOUR, cls.challenge_ttl),
            claim_after=_duration(env, "IDZEVA_CLAIM_DAYS", DAY, cls.claim_after),
            docs_url=env.get("IDZEVA_DOCS_URL", "").strip(),
            workers=_workers(env),
            game_gifs=_switch(env, "IDZEVA_GAME_GIFS"),
            server_puzzles=_switch(env, "IDZEVA_SERVER_PUZZLES"),
            **_shards(env),
            bot_iterations=_bot_iterations(env),
        )

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the command tree: the one holding shard 0 (or the only
        process, when unsharded), so that N processes do not sync N times."""
        return self.shard_ids is None or 0 in self.shard_ids


def _optional_int(env: Mapping[str, str], name: str) -> int | None:
    text = env.get(name, "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None


def _shards(env: Mapping[str, str]) -> dict[str, object]:
    """``shard_count`` and ``shard_ids`` from IDZEVA_SHARD_COUNT and IDZEVA_SHARD_IDS
    (``0,1``: comma-separated, each below the count, none twice); a clear ``ValueError``
    for anything else."""
    count = _optional_int(env, "IDZEVA_SHARD_COUNT")
    text = env.get("IDZEVA_SHARD_IDS", "").strip()
    if count is None:
        if text:
            raise ValueError("IDZEVA_SHARD_IDS needs IDZEVA_SHARD_COUNT (how many shards in all)")
        return {}
    if count < 1:
        raise ValueError(f"IDZEVA_SHARD_COUNT must be 1 or more, not {count}")
    if not text:
        return {"shard_count": count, "shard_ids": None}
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            shard = int(part)
        except ValueError:
            raise ValueError(
                f"IDZEVA_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1),"
                f" not {text!r}"
            ) from None
        if not 0 <= shard < count:
            raise ValueError(
                f"IDZEVA_SHARD_IDS: shard {shard} does not exist with IDZEVA_SHARD_COUNT={count}"
                f" (shards are numbered 0 to {count - 1})"
            )
        if shard in ids:
            raise ValueError(f"IDZEVA_SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return {"shard_count": count, "shard_ids": tuple(ids)}


def _switch(env: Mapping[str, str], name: str) -> bool:
    """A setting on unless set to ``0``, ``no`` or ``off``."""
    return env.get(name, "1").strip().lower() not in ("0", "no", "off")


def _workers(env: Mapping[str, str]) -> int | None:
    workers = _optional_int(env, "IDZEVA_WORKERS")
    if workers is not None and workers < 0:
        raise ValueError(f"IDZEVA_WORKERS must be 0 (threads) or more, not {workers}")
    return workers


def _bot_iterations(env: Mapping[str, str]) -> int | None:
    iterations = _optional_int(env, "IDZEVA_BOT_ITERATIONS")
    if iterations is not None and iterations < 1:
        raise ValueError(f"IDZEVA_BOT_ITERATIONS must be 1 or more, not {iterations}")
    return iterations


def _duration(env: Mapping[str, str], name: str, unit: float, default: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        amount = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {text!r}") from None
    if not amount > 0:
        raise ValueError(f"{name} must be positive, not {text!r}")
    return amount * unit
