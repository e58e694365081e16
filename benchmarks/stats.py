"""The spread every benchmark prints of its repeats: min / median / max, in one place
(docs/benchmarks.md asks each figure for all three: the machines are shared and noisy)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def spread(
    values: Sequence[float],
    fmt: str = "{:.3f}",
    *,
    scale: float = 1,
    template: str = "{} / {} / {}",
    empty: str = "-",
) -> str:
    """The min, median and max of ``values`` (each times ``scale``), each written with
    ``fmt`` into ``template``; ``empty`` when there are none.

    >>> spread([0.5, 0.25, 2])
    '0.250 / 0.500 / 2.000'
    >>> spread([0.0012, 0.002, 0.0031], "{:.1f}", scale=1000, template="{} / {} / {} ms")
    '1.2 / 2.0 / 3.1 ms'
    >>> spread([], "{:.0f}")
    '-'
    """
    if not values:
        return empty
    figures = (min(values), statistics.median(values), max(values))
    if scale != 1:
        figures = tuple(figure * scale for figure in figures)
    return template.format(*(fmt.format(figure) for figure in figures))
