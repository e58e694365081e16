"""Server-side SVG charts: well-formed XML, accessible, with every text escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date, timedelta

import pytest

from leaderboards.charts import (
    Labels,
    Point,
    histogram_bins,
    nice_ticks,
    results_chart,
    score_histogram,
)

SVG = "{http://www.w3.org/2000/svg}"
LABELS = Labels(title="Daily results", description="Scores", x_axis="Day", y_axis="Score")
NASTY = Labels(
    title='<script>alert("x")</script> & co',
    description="a < b > c & 'd'",
    x_axis="Tag <b>",
    y_axis='"Score"',
    empty="<none>",
    won="w&n",
    lost="l<st",
)


def points(n: int) -> list[Point]:
    first = date(2026, 10, 1)
    return [Point(first + timedelta(days=2 * i), 100 * i % 1300, i % 3 != 0) for i in range(n)]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on anything that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox")
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter() if t.tag in (f"{SVG}text", f"{SVG}title")]


@pytest.mark.parametrize("n", [0, 1, 2, 40])
def test_the_results_chart_is_well_formed_svg_with_a_title_and_axis_labels(n: int) -> None:
    root = parse(results_chart(points(n), labels=LABELS, chart_id="r"))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Daily results"
    assert root.get("aria-labelledby") == "r-title r-desc"
    if n:
        assert "Day" in texts(root) and "Score" in texts(root)


def test_the_results_chart_marks_won_and_lost_games_differently() -> None:
    pts = points(9)
    root = parse(results_chart(pts, labels=LABELS))
    won = [e for e in root.iter(f"{SVG}circle") if e.get("class") == "chart__won"]
    lost = [e for e in root.iter(f"{SVG}path") if e.get("class") == "chart__lost"]
    # One mark per game, plus one of each in the legend.
    assert len(won) == sum(p.won for p in pts) + 1
    assert len(lost) == sum(not p.won for p in pts) + 1
    tips = ["".join(t.itertext()) for e in won for t in e.iter(f"{SVG}title")]
    assert f"{pts[1].day.isoformat()}: won, {pts[1].score}" in tips


def test_every_text_in_a_chart_is_escaped() -> None:
    for svg in (
        results_chart(points(5), labels=NASTY, chart_id='x"><script>'),
        results_chart([], labels=NASTY),
        score_histogram([10, 20, 900], labels=NASTY),
        score_histogram([], labels=NASTY),
    ):
        root = parse(svg)
        assert "<script" not in svg and "<b>" not in svg and "<none>" not in svg
        # No element but the chart's own: nothing injected became markup.
        tags = {e.tag.removeprefix(SVG) for e in root.iter()}
        assert tags <= {
            "svg",
            "title",
            "desc",
            "g",
            "line",
            "text",
            "polyline",
            "circle",
            "path",
            "rect",
        }
        assert root.find(f"{SVG}title").text == NASTY.title  # type: ignore[union-attr]


def test_an_empty_chart_says_so() -> None:
    root = parse(score_histogram([], labels=NASTY))
    assert "<none>" in texts(root)


def test_the_histogram_has_a_bar_per_band_of_100_points() -> None:
    scores = [0, 50, 99, 100, 1185, 1190]
    root = parse(score_histogram(scores, labels=LABELS))
    bars = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "chart__bar"]
    assert len(bars) == 12
    tips = ["".join(b.itertext()) for b in bars]
    assert tips[0] == "0–99: 3" and tips[1] == "100–199: 1" and tips[11] == "1100–1199: 2"
    assert all(float(b.get("height", "-1")) >= 0 for b in bars)


def test_histogram_bins_keep_empty_bands_and_count_every_score() -> None:
    bins = histogram_bins([5, 310, 399])
    assert bins == [(0, 100, 1), (100, 200, 0), (200, 300, 0), (300, 400, 2)]
    assert histogram_bins([]) == []


def test_points_stay_inside_the_drawing() -> None:
    root = parse(results_chart(points(30), labels=LABELS))
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    for circle in root.iter(f"{SVG}circle"):
        assert 0 <= float(circle.get("cx", "-1")) <= width
        assert 0 <= float(circle.get("cy", "-1")) <= height


# Even axes --------------------------------------------------------------------------


def tick_labels(root: ET.Element, *, axis: str) -> list[int]:
    """The numbers along an axis: ``"y"`` those left of the plot, ``"x"`` those under it."""
    found = []
    for text in root.iter(f"{SVG}text"):
        if text.get("class") != "chart__tick" or not (text.text or "").isdigit():
            continue
        on_y = text.get("text-anchor") == "end" and float(text.get("x", "0")) < 50
        if on_y == (axis == "y"):
            found.append(int(text.text or "0"))
    return found


@pytest.mark.parametrize(
    ("top", "most", "ticks"),
    [
        (1359, 5, [0, 500, 1000, 1500]),
        (1040, 5, [0, 500, 1000, 1500]),
        (300, 5, [0, 100, 200, 300]),
        (301, 5, [0, 100, 200, 300, 400]),
        (4, 5, [0, 1, 2, 3, 4]),
        (7, 5, [0, 2, 4, 6, 8]),
        (23, 5, [0, 5, 10, 15, 20, 25]),
        (12, 6, [0, 2, 4, 6, 8, 10, 12]),
        (14, 6, [0, 5, 10, 15]),
        (1, 5, [0, 1]),
        (0, 5, [0, 1]),
        (0.4, 5, [0, 1]),
    ],
)
def test_nice_ticks_are_round_even_steps_from_zero(top: float, most: int, ticks: list[int]) -> None:
    assert nice_ticks(top, most=most) == ticks


@pytest.mark.parametrize("most", [4, 5, 6])
def test_nice_ticks_cover_every_top_with_the_smallest_round_step(most: int) -> None:
    for top in range(1, 20_001, 7):
        ticks = nice_ticks(top, most=most)
        step = ticks[1]
        assert ticks[0] == 0 and ticks[-1] >= top, (top, ticks)
        assert all(b - a == step for a, b in zip(ticks, ticks[1:], strict=False)), (top, ticks)
        assert len(ticks) - 1 <= most, (top, ticks)
        digits = str(step).rstrip("0")
        assert digits in ("1", "2", "5"), (top, step)
        # The next smaller round step would need more intervals than allowed.
        smaller = {"1": step // 2, "2": step // 2, "5": step * 2 // 5}[digits]
        if smaller:
            assert -(-top // smaller) > most, (top, ticks)


def test_the_score_histogram_reads_its_axis_in_even_steps() -> None:
    # Scores up to 350 once read 0, 200, 300 (the first, middle and last band).
    root = parse(score_histogram([50, 120, 210, 350, 355], labels=LABELS))
    assert tick_labels(root, axis="x") == [0, 100, 200, 300, 400]
    assert tick_labels(root, axis="y") == [0, 1, 2]
    wide = parse(score_histogram([40, 700, 1359, 1290], labels=LABELS))
    assert tick_labels(wide, axis="x") == [0, 500, 1000, 1500]
    bars = [e for e in wide.iter(f"{SVG}rect") if e.get("class") == "chart__bar"]
    assert len(bars) == 15  # the axis's whole width in bands, the empty ones kept


def test_the_results_chart_reads_its_score_axis_in_even_steps() -> None:
    root = parse(results_chart(points(14), labels=LABELS))
    assert tick_labels(root, axis="y") == [0, 500, 1000, 1500]


def test_every_tick_stays_inside_the_drawing() -> None:
    for svg in (
        score_histogram([40, 700, 1359, 1290], labels=LABELS),
        results_chart(points(14), labels=LABELS),
    ):
        root = parse(svg)
        width = float(root.get("viewBox", "").split()[2])
        for text in root.iter(f"{SVG}text"):
            if text.get("class") == "chart__tick" and text.get("text-anchor") == "middle":
                half = len(text.text or "") * 4  # about half a label's width at 13 units
                assert half <= float(text.get("x", "0")) <= width - half, text.text
