"""Regenerate docs/images/shax-thread.png: a game thread as players see it on Discord.

The real bot runs against SimCord's offline Discord; SimCord's preview draws the thread
and a headless Chromium takes the picture. Not part of the tests. Needs extras that the
project does not install by default:

    .venv/bin/pip install "simcord[screenshot]"
    apt-get install chromium            # Debian's browser; no browser download needed
    .venv/bin/python -m bench.thread_screenshot
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import simcord
from PIL import Image
from simcord.preview import _capture

from bot.app import create_bot
from bot.config import Settings

OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "shax-thread.png"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
OPENING = ["d2", "d6", "b4", "f4", "d3", "d5"]
MAX_WIDTH = 900


def use_system_chromium() -> None:
    """SimCord launches Playwright's own browser; point it at Debian's instead."""

    async def ensure_browser(self):  # noqa: ANN001, ANN202
        if self._browser is None:
            from playwright.async_api import async_playwright

            self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_FLAGS
            )
        return self._browser

    _capture.ManagedCapture._ensure_browser = ensure_browser


async def capture(db_path: str) -> bytes:
    settings = Settings(db_path=db_path)
    async with simcord.run(create_bot(settings)) as env:
        guild = env.create_guild(name="Board games")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        await alice.slash(channel, "shax challenge", opponent=bob, first="me")
        await bob.click(channel.last_message, label="Accept")
        thread = channel.threads[0]
        players = [alice, bob]
        for ply, move in enumerate(OPENING):
            await players[ply % 2].slash(thread, "shax move", move=move)
        async with env.preview(thread, viewers=[alice], layout="channel", height=1400) as view:
            report = await view.screenshot(mode="viewport", allow_incomplete=True)
            return report.png


def shrink(png: bytes) -> Image.Image:
    import io

    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > MAX_WIDTH:
        height = round(image.height * MAX_WIDTH / image.width)
        image = image.resize((MAX_WIDTH, height), Image.Resampling.LANCZOS)
    return image.quantize(colors=128, method=Image.Quantize.MEDIANCUT)


def main() -> None:
    use_system_chromium()
    with tempfile.TemporaryDirectory() as folder:
        png = asyncio.run(capture(str(Path(folder) / "shot.db")))
    shrink(png).save(OUT, optimize=True)
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
