"""How a player sees a face at Discord's size: measures for the face tests.

A face is taken as Discord shows it (``emoji.as_shown``: the 128×128 upload scaled down to
22 pixels on the dark theme), then seen in grey (no colour at all) or through a
deuteranopia simulation (the commonest colour blindness, red and green confused), and
measured: which pixels are ink, how far two faces are apart.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

Pixel = tuple[int, int, int]

# Machado, Oliveira and Fernandes (2009), deuteranopia at severity 1.0, on linear RGB.
_DEUTERANOPIA = ((0.367322, 0.860646, -0.227968),
                 (0.280085, 0.672501, 0.047413),
                 (-0.011820, 0.042940, 0.968881))


def _linear(v: int) -> float:
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> int:
    c = min(1.0, max(0.0, c))
    v = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(v * 255)


def pixels(image: Image.Image) -> list[Pixel]:
    """Every pixel of an RGB ``image``, row by row."""
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def deuteranopia(image: Image.Image) -> Image.Image:
    """``image`` (RGB) as a deuteranope sees it."""
    out = Image.new("RGB", image.size)
    cache: dict[Pixel, Pixel] = {}
    seen_pixels = []
    for pixel in pixels(image):
        seen = cache.get(pixel)
        if seen is None:
            lin = [_linear(v) for v in pixel]
            seen = cache[pixel] = tuple(  # type: ignore[assignment]
                _gamma(sum(m * c for m, c in zip(row, lin, strict=True)))
                for row in _DEUTERANOPIA
            )
        seen_pixels.append(seen)
    out.putdata(seen_pixels)
    return out


def grey(image: Image.Image) -> Image.Image:
    """``image`` with no colour, only lightness (as RGB, to compare like the rest)."""
    return image.convert("L").convert("RGB")


#: The ways of seeing the tests check: with colour, without, and as a deuteranope.
VISIONS: dict[str, Callable[[Image.Image], Image.Image]] = {
    "colour": lambda image: image, "grey": grey, "deuteranopia": deuteranopia,
}


def distance(a: Image.Image, b: Image.Image) -> float:
    """How far apart two pictures of one size look: the mean over pixels of the largest
    channel difference (0 the same, 255 black against white)."""
    return sum(max(abs(x - y) for x, y in zip(p, q, strict=True))
               for p, q in zip(pixels(a), pixels(b), strict=True)) / (a.width * a.height)


def ink_box(image: Image.Image, paper: Pixel, box: tuple[int, int, int, int],
            threshold: int = 90) -> tuple[int, int, int, int] | None:
    """The bounds (left, top, right, bottom, exclusive) of the pixels in ``box`` that
    differ from ``paper`` by at least ``threshold`` in some channel: the ink there."""
    found = [(x, y) for y in range(box[1], box[3]) for x in range(box[0], box[2])
             if max(abs(a - b) for a, b in zip(image.getpixel((x, y)), paper, strict=True))
             >= threshold]
    if not found:
        return None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def ink_share(image: Image.Image, paper: Pixel, box: tuple[int, int, int, int],
              threshold: int = 90) -> float:
    """The share of the pixels in ``box`` that are ink (see :func:`ink_box`)."""
    inked = sum(
        1 for y in range(box[1], box[3]) for x in range(box[0], box[2])
        if max(abs(a - b) for a, b in zip(image.getpixel((x, y)), paper, strict=True))
        >= threshold
    )
    return inked / ((box[2] - box[0]) * (box[3] - box[1]))


def ink_runs(image: Image.Image, paper: Pixel, box: tuple[int, int, int, int],
             threshold: int = 90) -> int:
    """How many separate groups of columns in ``box`` hold ink: glyphs side by side."""
    columns = [
        any(max(abs(a - b) for a, b in zip(image.getpixel((x, y)), paper, strict=True))
            >= threshold for y in range(box[1], box[3]))
        for x in range(box[0], box[2])
    ]
    return sum(1 for before, now in zip([False, *columns], columns, strict=False)
               if now and not before)


def contrast(a: Pixel, b: Pixel) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    def luminance(pixel: Pixel) -> float:
        r, g, b = (_linear(v) for v in pixel)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
