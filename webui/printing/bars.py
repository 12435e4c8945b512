"""Bar charts as SVG drawn on the server (a page's figures where people would rather look than
read: a member's placement distribution, the yaku they win with): the geometry here, the
drawing in templates/_bars.html, with no script, as the strict content policy wants."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str                  # under the bar (1st, 2nd, ...)
    value: str                  # above it (12 · 30%)
    tone: int                   # which colour of the four


@dataclass(frozen=True)
class Bars:
    width: float
    height: float
    bars: list[Bar]
    baseline: float


def bar_chart(values: list[float], labels: list[str], shown: list[str], width: float = 320,
              height: float = 150, tones: list[int] | None = None) -> Bars:
    """Upright bars of `values` (none below zero), the tallest filling the box; `shown` is
    written above each bar and `labels` under it."""
    top, bottom = 16, 18            # room for the value above and the label below
    plot = height - top - bottom
    most = max(values, default=0) or 1
    gap = width / max(len(values), 1)
    bar_width = gap * 0.62
    bars = []
    for i, (value, label, text) in enumerate(zip(values, labels, shown)):
        tall = plot * max(value, 0) / most
        bars.append(Bar(round(gap * i + (gap - bar_width) / 2, 1), round(top + plot - tall, 1), round(bar_width, 1),
                        round(tall, 1), label, text, (tones or list(range(len(values))))[i] % 4))
    return Bars(width, height, bars, top + plot)


@dataclass(frozen=True)
class Segment:
    x: float
    width: float
    tone: int


def stacked(counts: list[int], width: float = 120) -> list[Segment]:
    """One bar split by `counts` (a member's firsts, seconds, ...), each part as wide as its
    share: a placement distribution that fits in a table's cell."""
    total = sum(counts) or 1
    found, x = [], 0.0
    for tone, count in enumerate(counts):
        part = width * count / total
        if part:
            found.append(Segment(round(x, 1), round(part, 1), tone % 4))
        x += part
    return found
