"""Regenerate ``render/palettes.py``: one fixed 256-colour palette per game.

``python -m bench.render_palettes`` renders a few hundred positions of seeded random games
per game (every variant and seat count, plus each renderer's extra pictures), keeps the
pictures at their final size before any palette reduction, and chooses:

1. every colour that covers a patch of at least ``FLAT_PIXELS`` pixels in some picture
   (the flat colours the renderers draw, and the long straight edges between them),
   kept exactly, most widespread first, up to ``RESERVED`` of them;
2. the rest from an octree palette of all the pictures together, most used first,
   skipping colours within ``CLEARANCE`` of a kept one (so a flat colour always maps to
   itself, not to an octree neighbour).

Run it again after changing any renderer's colours: ``tests/test_render_palettes.py``
checks that the palettes still hold every flat colour the test positions draw.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image

from games import GAMES, Game, new_game
from render.common import SCALE, Painter

OUT = Path(__file__).resolve().parent.parent / "render" / "palettes.py"
FLAT_PIXELS = 40
RESERVED = 160
# Pillow maps a pixel through a cache of 4x4x4 cells, each holding the palette colour
# nearest to the cell's lowest corner, up to 3 * sqrt(3) away from any colour in the cell:
# no other palette colour within twice that of a kept one keeps the kept one exact.
CLEARANCE = 11
SAMPLES = 150  # pictures per game
GAMES_PER_SETUP = 6


def setups(key: str) -> list[tuple[tuple[str, ...], int | None]]:
    """(variants, seats) to sample: no variant and each variant alone, at every seat count
    the variant allows."""
    cls = GAMES[key]
    out: list[tuple[tuple[str, ...], int | None]] = []
    for variants in [(), *((name,) for name in cls.variants)]:
        for seats in cls.seat_counts:
            try:
                new_game(key, variants, seats)
            except ValueError:
                continue
            out.append((variants, seats))
    return out


def positions(key: str, seed: int = 7) -> Iterator[Game]:
    rng = random.Random(seed)
    for variants, seats in setups(key):
        for _ in range(GAMES_PER_SETUP):
            game = new_game(key, variants, seats)
            while True:
                yield game.copy()
                if game.is_over or game.ply >= 300:
                    break
                spec = game.dice_needed()
                if spec is not None:
                    game.roll(tuple(rng.randint(1, spec.sides) for _ in range(spec.count)))
                    continue
                game.push(rng.choice(game.legal_moves()))


def capture(key: str, draws: list[Callable[[], object]]) -> list[Image.Image]:
    """The final-size RGB pictures the renderer would have encoded: every picture goes
    through ``Painter.png`` (a renderer calling ``encode_png`` itself is caught too)."""
    module = importlib.import_module(f"render.{key}")
    shown: list[Image.Image] = []
    original_png, original_encode = Painter.png, getattr(module, "encode_png", None)

    def png(paint: Painter, palette: str) -> bytes:
        shown.append(paint.whole().reduce(SCALE))
        return b""

    Painter.png = png  # type: ignore[method-assign]
    if original_encode is not None:
        module.encode_png = lambda image, *args, **kwargs: shown.append(image.reduce(SCALE)) or b""
    try:
        for draw in draws:
            draw()
    finally:
        Painter.png = original_png  # type: ignore[method-assign]
        if original_encode is not None:
            module.encode_png = original_encode
    return shown


def draws_for(key: str) -> list[Callable[[], object]]:
    from render import RENDERERS

    pool = list(positions(key))
    step = max(1, len(pool) // SAMPLES)
    sampled = pool[::step]
    # the start and the end of every game are always in
    sampled += [g for g in pool if g.ply == 0 or g.is_over]
    draws: list[Callable[[], object]] = [lambda g=g: RENDERERS[key](g) for g in sampled]
    if key == "chebache":
        from render.chebache import render_chebache, render_paths

        draws.append(render_paths)
        draws += [lambda g=g: render_chebache(g, show_path=False) for g in sampled[::5]]
    if key == "jikaida":
        from render.jikaida import destinations, render_jikaida

        for game in sampled[::3]:
            if game.is_over:
                continue
            squares = sorted(game.piece_codes())
            for square in squares[:: max(1, len(squares) // 3)]:
                dots = destinations(game, square)
                if dots:
                    draws.append(lambda g=game, d=dots: render_jikaida(g, d))
    return draws


def clear_of(colour: tuple[int, int, int], kept: list[tuple[int, int, int]]) -> bool:
    return all(
        sum((a - b) ** 2 for a, b in zip(colour, k, strict=True)) > CLEARANCE**2 for k in kept
    )


def choose_palette(images: list[Image.Image]) -> list[tuple[int, int, int]]:
    widest: Counter[tuple[int, int, int]] = Counter()
    total: Counter[tuple[int, int, int]] = Counter()
    for image in images:
        for count, colour in image.getcolors(1 << 24) or []:
            total[colour] += count
            if count >= FLAT_PIXELS:
                widest[colour] = max(widest[colour], count)
    kept: list[tuple[int, int, int]] = []
    for colour, _ in widest.most_common():
        if len(kept) >= RESERVED:
            break
        if clear_of(colour, kept):
            kept.append(colour)
    reserved = list(kept)
    # The octree sees only the pixels the kept colours do not already match exactly
    # (mostly edge blends), each colour as often as it occurs.
    rest = b"".join(
        bytes(colour) * count for colour, count in total.items() if colour not in widest
    )
    pixels = len(rest) // 3
    row = 4096
    rest += bytes(3 * (-pixels % row))  # a few black pixels to fill the last row
    sheet = Image.frombytes("RGB", (row, len(rest) // (3 * row)), rest)
    octree = sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = octree.getpalette() or []
    used = sorted(
        ((count, index) for index, count in enumerate(octree.histogram()) if count),
        reverse=True,
    )
    for _, index in used:
        if len(kept) >= 256:
            break
        colour = (flat[3 * index], flat[3 * index + 1], flat[3 * index + 2])
        if clear_of(colour, reserved):
            kept.append(colour)
    return kept


def main() -> None:
    lines = [
        '"""Fixed palettes, one per game: generated by ``python -m bench.render_palettes``',
        '(see there); do not edit by hand. Each is up to 256 colours as hex RRGGBB."""',
        "",
        "PALETTES: dict[str, str] = {",
    ]
    for key in GAMES:
        images = capture(key, draws_for(key))
        palette = choose_palette(images)
        text = "".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in palette)
        print(f"{key}: {len(images)} pictures, {len(palette)} colours")
        lines.append(f'    "{key}": (')
        for start in range(0, len(text), 84):
            lines.append(f'        "{text[start : start + 84]}"')
        lines.append("    ),")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
