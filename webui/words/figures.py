"""A statistic written with its sample, as the statistics and player pages show it: a rate as
"30.0% (12 of 40)", an average as "1.23 (40)", "–" with nothing to count. Plain functions (not
template macros): a page of forty members writes some seven hundred of them."""
from __future__ import annotations

from markupsafe import Markup, escape

from webui.words.i18n import t

NOTHING = Markup('<span class="muted">–</span>')


def shown_rate(rate: dict) -> Markup:
    """`rate`: {"count", "of"} (scorer.club_stats.Rate.to_json)."""
    count, of = rate["count"], rate["of"]
    if not of:
        return NOTHING
    sample = escape(t("stats.of", count=count, of=of))
    return Markup(f'{100 * count / of:.1f}% <span class="muted sample">({sample})</span>')


def shown_mean(mean: dict, pattern: str = "%.2f") -> Markup:
    """`mean`: {"total", "of"} (scorer.club_stats.Mean.to_json), written with `pattern`."""
    total, of = mean["total"], mean["of"]
    if not of:
        return NOTHING
    return Markup(f'{escape(pattern % (total / of))} <span class="muted sample">({of})</span>')
