"""The scorecard's rating chart: the shown value after each rated deal, an inline SVG drawn
with the scorecard charts' frame (:mod:`leaderboards.charts`), no JavaScript."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from leaderboards.charts import HEIGHT, LEFT, RIGHT, TOP, WIDTH, Labels, _empty, _open, _text

BOTTOM = 30


def rating_chart(
    points: Sequence[tuple[datetime, int]], *, labels: Labels, chart_id: str = "rating"
) -> str:
    """A line through the values in deal order, the lowest and highest value marked."""
    if not points:
        return _empty(chart_id, labels)
    values = [v for _, v in points]
    low, high = min(values), max(values)
    if high - low < 20:  # a flat line still sits in the middle
        low, high = low - 10, high + 10
    x0, x1, y0, y1 = LEFT + 8, WIDTH - RIGHT - 8, HEIGHT - BOTTOM, TOP

    def x_of(i: int) -> float:
        return (x0 + x1) / 2 if len(points) == 1 else x0 + (x1 - x0) * i / (len(points) - 1)

    def y_of(v: int) -> float:
        return y0 - (y0 - y1) * (v - low) / (high - low)

    parts = [*_open(chart_id, labels)]
    for tick in (low, high):
        parts.append(
            f'<text class="chart__tick" x="{LEFT - 6}" y="{y_of(tick) + 4:.1f}" '
            f'text-anchor="end" fill="currentColor">{tick}</text>'
            f'<line x1="{LEFT}" y1="{y_of(tick):.1f}" x2="{WIDTH - RIGHT}" y2="{y_of(tick):.1f}" '
            f'stroke="currentColor" stroke-opacity="0.15"/>'
        )
    path = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(values))
    parts.append(
        f'<polyline class="chart__line" points="{path}" fill="none" stroke="currentColor" '
        f'stroke-width="2"/>'
    )
    for anchor, (at, _) in (("start", points[0]), ("end", points[-1])):
        x = x0 if anchor == "start" else x1
        parts.append(
            f'<text class="chart__tick" x="{x:.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" '
            f'fill="currentColor">{_text(at.date().isoformat())}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
