"""Text sizes and boxes: what label placement needs to know before any browser draws a glyph.

The pictures ask for DejaVu Sans first (the widest common sans-serif face, so an estimate from
its advance widths is rarely too small) and give every placed label a ``textLength``: whatever
font a browser substitutes, the label is drawn exactly as wide as placement assumed, so labels
placed apart stay apart.

>>> round(text_width("sofa", 10), 1)
22.6
>>> text_width("Sofa", 10, bold=True) > text_width("Sofa", 10)
True
>>> intersects((0, 0, 10, 10), (10, 0, 20, 10)), intersects((0, 0, 10, 10), (9, 9, 20, 20))
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable

#: The font family every picture asks for (see the module docstring).
FONT = "DejaVu Sans, Verdana, sans-serif"
#: ``(min_x, min_y, max_x, max_y)`` in picture pixels (y grows downwards).
Box = tuple[float, float, float, float]
#: A point in picture pixels.
Pixel = tuple[float, float]

# DejaVu Sans advance widths in em (rounded up to the hundredth), by character group.
_WIDTHS: dict[str, float] = {
    **dict.fromkeys("ilj", 0.28),
    **dict.fromkeys("IJ", 0.3),
    **dict.fromkeys(" .,:;'|/", 0.34),
    **dict.fromkeys("ft()[]-", 0.4),
    **dict.fromkeys("r!", 0.42),
    **dict.fromkeys('"*_', 0.5),
    **dict.fromkeys("szck?", 0.58),
    **dict.fromkeys("vxyL", 0.6),
    **dict.fromkeys("abdegnopqhuFPTY", 0.64),
    **dict.fromkeys("0123456789ESAKRVXZ", 0.7),
    **dict.fromkeys("BCDGHNOQU&", 0.79),
    **dict.fromkeys("w=+<>~#", 0.86),
    **dict.fromkeys("%mMW", 1.0),
}
#: Characters not in the table (other scripts, symbols) count as a full em.
_DEFAULT_WIDTH = 1.0
#: DejaVu Sans Bold is about a tenth wider (narrow letters more).
_BOLD = 1.13


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """The width in pixels of ``text`` at font size ``size`` in DejaVu Sans."""
    ems = sum(_WIDTHS.get(char, _DEFAULT_WIDTH) for char in text)
    return ems * size * (_BOLD if bold else 1.0)


def text_height(size: float) -> float:
    """The height of a line of text: ascent to descent."""
    return size * 1.2


def intersects(first: Box, second: Box) -> bool:
    """Whether two boxes overlap in more than an edge."""
    return (
        first[0] < second[2]
        and second[0] < first[2]
        and first[1] < second[3]
        and second[1] < first[3]
    )


def inflate(box: Box, by: float) -> Box:
    """``box`` grown by ``by`` pixels on every side."""
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def union(boxes: Iterable[Box]) -> Box | None:
    """The smallest box around ``boxes`` (``None`` for none)."""
    listed = list(boxes)
    if not listed:
        return None
    return (
        min(b[0] for b in listed),
        min(b[1] for b in listed),
        max(b[2] for b in listed),
        max(b[3] for b in listed),
    )


def centre(box: Box) -> Pixel:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def nearest(box: Box, point: Pixel) -> Pixel:
    """The point of ``box`` (edge or inside) nearest to ``point``."""
    return min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3])


def wrap(text: str, size: float, width: float, *, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a single word that is
    wider stays whole on its line).

    >>> wrap("pick up the toy and put it away", 10, 90)
    ['pick up the toy', 'and put it away']
    """
    lines: list[str] = []
    for word in text.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, size, bold=bold) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines
