"""Server-side SVG charts for leaderboards: pure functions returning an SVG string.

No JavaScript and no Django: the page embeds the string as it is. Every piece
of text that reaches the SVG goes through :func:`_text`, so a label can never
become markup. Each chart is an ``role="img"`` with a ``<title>`` and a
``<desc>`` for screen readers, and scales with its container (``viewBox``).
Won and lost points differ in shape as well as colour, for colour-blind readers.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

# Small user units: at 360 px wide the text still reads at about 12 px.
WIDTH, HEIGHT = 400, 240
FONT_SIZE = 13
# Room for the axis labels and tick labels around the plot area.
LEFT, RIGHT, TOP, BOTTOM = 50, 20, 24, 46


@dataclass(frozen=True)
class Point:
    """One daily game on the results chart."""

    day: date
    score: int
    won: bool


@dataclass(frozen=True)
class Labels:
    """Every word a chart shows; the caller passes translated strings."""

    title: str
    description: str
    x_axis: str
    y_axis: str
    empty: str = "No games yet"
    won: str = "won"
    lost: str = "lost"


def _text(value: object) -> str:
    """Escape for XML text and attribute values alike (quotes included)."""
    return html.escape(str(value), quote=True)


def nice_ticks(top: float, *, most: int = 5) -> list[int]:
    """Round, evenly spaced axis ticks from 0 to at least ``top``: the step is 1, 2 or 5
    times a power of ten, the smallest that needs at most ``most`` intervals.

    >>> nice_ticks(1359), nice_ticks(300), nice_ticks(7), nice_ticks(0)
    ([0, 500, 1000, 1500], [0, 100, 200, 300], [0, 2, 4, 6, 8], [0, 1])
    """
    if top <= 0:
        return [0, 1]
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            intervals = -(-int(math.ceil(top)) // step)
            if intervals <= most:
                return [i * step for i in range(intervals + 1)]
        magnitude *= 10


def _open(chart_id: str, labels: Labels) -> list[str]:
    cid = _text(chart_id)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="chart" font-size="{FONT_SIZE}" role="img" '
        f'aria-labelledby="{cid}-title {cid}-desc">',
        f'<title id="{cid}-title">{_text(labels.title)}</title>',
        f'<desc id="{cid}-desc">{_text(labels.description)}</desc>',
    ]


def _axes(labels: Labels, ticks: list[int]) -> list[str]:
    """The two axes, their labels, and the y axis's ticks (``nice_ticks``) with a faint
    line across the plot at each."""
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP
    y_max = ticks[-1]
    parts = [
        f'<g class="chart__axes" stroke="currentColor" stroke-width="1">'
        f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}"/>'
        f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}"/></g>',
        f'<text class="chart__label" x="{(x0 + x1) / 2:.1f}" y="{HEIGHT - 6}" '
        f'text-anchor="middle" fill="currentColor">{_text(labels.x_axis)}</text>',
        f'<text class="chart__label" x="11" y="{(y0 + y1) / 2:.1f}" text-anchor="middle" '
        f'fill="currentColor" transform="rotate(-90 11 {(y0 + y1) / 2:.1f})">'
        f"{_text(labels.y_axis)}</text>",
    ]
    for tick in ticks:
        y = _y(tick, y_max)
        parts.append(
            f'<text class="chart__tick" x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" '
            f'fill="currentColor">{tick}</text>'
            f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" stroke="currentColor" '
            f'stroke-opacity="0.15"/>'
        )
    return parts


def _y(value: float, y_max: int) -> float:
    plot = HEIGHT - BOTTOM - TOP
    return HEIGHT - BOTTOM - plot * value / y_max


def _empty(chart_id: str, labels: Labels) -> str:
    return "".join(
        [
            *_open(chart_id, labels),
            f'<text x="{WIDTH / 2:.1f}" y="{HEIGHT / 2:.1f}" text-anchor="middle" '
            f'fill="currentColor">{_text(labels.empty)}</text>',
            "</svg>",
        ]
    )


def results_chart(points: Sequence[Point], *, labels: Labels, chart_id: str = "results") -> str:
    """Score per daily game over time; x is the date (gaps show missed days),
    a won game is a filled circle and a lost one a cross."""
    if not points:
        return _empty(chart_id, labels)
    ordered = sorted(points, key=lambda p: p.day)
    first, last = ordered[0].day, ordered[-1].day
    span = max((last - first).days, 1)
    ticks = nice_ticks(max(p.score for p in ordered))
    y_max = ticks[-1]
    x0, x1 = LEFT + 8, WIDTH - RIGHT - 8

    def x_of(day: date) -> float:
        if first == last:
            return (x0 + x1) / 2
        return x0 + (x1 - x0) * (day - first).days / span

    parts = [*_open(chart_id, labels), *_axes(labels, ticks)]
    # The line joins the games in order: the trend matters more than the gaps.
    path = " ".join(f"{x_of(p.day):.1f},{_y(p.score, y_max):.1f}" for p in ordered)
    parts.append(
        f'<polyline class="chart__line" points="{path}" fill="none" stroke="currentColor" '
        f'stroke-opacity="0.4" stroke-width="1.5"/>'
    )
    for p in ordered:
        x, y = x_of(p.day), _y(p.score, y_max)
        tip = f"<title>{_text(p.day.isoformat())}: {_text(labels.won if p.won else labels.lost)}"
        tip += f", {p.score}</title>"
        if p.won:
            parts.append(
                f'<circle class="chart__won" cx="{x:.1f}" cy="{y:.1f}" r="5">{tip}</circle>'
            )
        else:
            parts.append(
                f'<path class="chart__lost" d="M{x - 4:.1f},{y - 4:.1f}l8,8m0,-8l-8,8" '
                f'stroke-width="2.5" fill="none">{tip}</path>'
            )
    for day, anchor, x in (
        (first, "start", x_of(first)),
        (last, "end", x_of(last)),
    ):
        if day == last and first == last:
            anchor = "middle"
        parts.append(
            f'<text class="chart__tick" x="{x:.1f}" y="{HEIGHT - BOTTOM + 18}" '
            f'text-anchor="{anchor}" fill="currentColor">{_text(day.isoformat())}</text>'
        )
        if first == last:
            break
    parts.append(_legend(labels))
    parts.append("</svg>")
    return "".join(parts)


def _legend(labels: Labels) -> str:
    # Above the plot area, so it never hides a point.
    x, y = LEFT + 8, TOP - 12
    return (
        f'<g class="chart__legend" fill="currentColor">'
        f'<circle class="chart__won" cx="{x}" cy="{y}" r="5"/>'
        f'<text x="{x + 10}" y="{y + 4}">{_text(labels.won)}</text>'
        f'<path class="chart__lost" d="M{x + 76},{y - 4}l8,8m0,-8l-8,8" stroke-width="2.5" '
        f'fill="none"/>'
        f'<text x="{x + 90}" y="{y + 4}">{_text(labels.lost)}</text></g>'
    )


def histogram_bins(
    scores: Sequence[int], *, width: int = 100, upto: int = 0
) -> list[tuple[int, int, int]]:
    """``(low, high, count)`` per bin of ``width`` from 0 to the top score (or to ``upto``
    if that is higher), inclusive of ``low`` and exclusive of ``high``; empty bins are
    kept (they are information).

    >>> histogram_bins([0, 99, 100, 250])
    [(0, 100, 2), (100, 200, 1), (200, 300, 1)]
    """
    if not scores:
        return []
    count = max(max(scores) // width + 1, -(-upto // width))
    bins = [0] * count
    for score in scores:
        bins[score // width] += 1
    return [(i * width, (i + 1) * width, n) for i, n in enumerate(bins)]


def score_histogram(
    scores: Sequence[int], *, labels: Labels, chart_id: str = "scores", width: int = 100
) -> str:
    """How many games scored in each band of ``width`` points. The score axis runs to a
    round number of bands and is labelled in even steps of them (``nice_ticks``), at the
    bands' edges: 0, 200, 400 ... rather than the first, middle and last band."""
    if not scores:
        return _empty(chart_id, labels)
    x_ticks = nice_ticks(max(scores) // width + 1, most=6)
    bins = histogram_bins(scores, width=width, upto=x_ticks[-1] * width)
    ticks = nice_ticks(max(n for _, _, n in bins))
    y_max = ticks[-1]
    plot_w = WIDTH - LEFT - RIGHT
    bar_w = plot_w / len(bins)
    parts = [*_open(chart_id, labels), *_axes(labels, ticks)]
    for i, (low, high, n) in enumerate(bins):
        x = LEFT + i * bar_w
        y = _y(n, y_max)
        parts.append(
            f'<rect class="chart__bar" x="{x + 1:.1f}" y="{y:.1f}" width="{max(bar_w - 2, 1):.1f}" '
            f'height="{HEIGHT - BOTTOM - y:.1f}"><title>{low}–{high - 1}: {n}</title></rect>'
        )
    base = HEIGHT - BOTTOM
    for edge in x_ticks:
        x = LEFT + edge * bar_w
        parts.append(
            f'<line class="chart__mark" x1="{x:.1f}" y1="{base}" x2="{x:.1f}" y2="{base + 4}" '
            f'stroke="currentColor"/>'
            f'<text class="chart__tick" x="{x:.1f}" y="{base + 18}" '
            f'text-anchor="middle" fill="currentColor">{edge * width}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
