"""The score chart's geometry, once, for the page's inline SVG and the PDF alike."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

SEAT_COLOURS = ("#c8102e", "#1f4e9c", "#1c7c3c", "#b8860b")


@dataclass(frozen=True)
class Chart:
    width: float
    height: float
    lines: list[tuple[str, list[tuple[float, float]]]]   # (colour, points) per seat
    y_ticks: list[tuple[float, str]]                      # (y, label)
    x_ticks: list[tuple[float, str]]                      # (x, hand label)
    baseline: float | None                                # y of the starting points


# At most this many gaps between y ticks: the chart draws the same few lines whatever the scores.
MOST_Y_GAPS = 6


# The least step of the y axis: riichi scores move by hundreds and thousands, so its axis steps
# by 1000 at least; the Fundamentals (scores near 20) and classical Chinese count single points.
RIICHI_LEAST_STEP = 1000


def nice_step(span: int, gaps: int = MOST_Y_GAPS, least: int = RIICHI_LEAST_STEP) -> int:
    """The tick step for a score axis spanning `span` points: the smallest 1, 2, 2.5 or 5 times a
    power of ten (`least` at least) that covers the span in `gaps` steps (2.5 only where it
    is a whole number)."""
    wanted = max(-(-int(span) // gaps), least, 1)
    power = 10 ** (len(str(wanted)) - 1)       # exact for an int of any size, unlike log10
    halves = (power * 5 // 2,) if power >= 10 else ()
    return next(step for step in (power, 2 * power, *halves, 5 * power, 10 * power) if step >= wanted)


# The x labels' type (9 px, app.css .chart .tick; the PDF draws its own alike): about 5 px a
# Latin letter or digit, a CJK character as wide as it is tall; and the least space between two.
LABEL_PX, WIDE_PX, LABEL_SPACE = 5.0, 9.0, 8.0


def _label_width(label: str) -> float:
    return sum(WIDE_PX if ord(ch) > 0x2E80 else LABEL_PX for ch in label)


def score_chart(start: list[int], hands: list[dict], width: float = 520, height: float = 200,
                left: float = 44, bottom: float = 18, least_step: int = RIICHI_LEAST_STEP,
                tick_label: Callable[[int], str] = "{:,}".format) -> Chart:
    """Each seat's score after every hand, from the starting points, scaled into the box: the
    axis runs from the lowest score rounded down to a step to the highest rounded up, so small
    scores (pass `least_step=1`) fill the box as large ones do. `tick_label` writes a y tick
    (a club's results in thousands, as its standings write them)."""
    series = [list(start)] + [list(h["scores"]) for h in hands]
    values = [v for row in series for v in row]
    low, high = math.floor(min(values)), math.ceil(max(values))
    step = nice_step(max(high - low, 1), least=least_step)
    low, high = (low // step) * step, -((-high) // step) * step
    if high == low:                 # nobody has moved yet: the lines run through the middle
        low, high = low - step, high + step
    plot_w, plot_h = width - left - 6, height - bottom - 6

    def x(i: int) -> float:
        return left + (plot_w * i / max(len(series) - 1, 1))

    def y(v: float) -> float:
        return 6 + plot_h * (high - v) / (high - low)

    lines = []
    for seat in range(len(start)):
        lines.append((SEAT_COLOURS[seat % 4], [(round(x(i), 1), round(y(row[seat]), 1)) for i, row in enumerate(series)]))
    y_ticks = [(round(y(v), 1), tick_label(v)) for v in range(low, high + 1, step)]     # MOST_Y_GAPS + 2 at most
    labels = [str(h.get("label", i + 1)) for i, h in enumerate(hands)]
    # one label in so many hands, so that the longest ("East 4, 2 honba") never runs into the next
    widest = max((_label_width(label) for label in labels), default=0.0)
    gap = plot_w / max(len(series) - 1, 1)
    every = max(1, len(hands) // 12, math.ceil((widest + LABEL_SPACE) / gap))
    x_ticks = [(round(x(i + 1), 1), label) for i, label in enumerate(labels) if i % every == 0]
    base = start[0] if len(set(start)) == 1 else None
    return Chart(width, height, lines, y_ticks, x_ticks, round(y(base), 1) if base is not None else None)
