"""The one min / median / max spread the benchmark scripts print (benchmarks/stats.py)."""

from __future__ import annotations

from benchmarks.stats import spread


def test_it_writes_min_median_and_max_in_order_whatever_the_order_of_the_runs() -> None:
    assert spread([3.0, 1.0, 2.0, 10.0]) == "1.000 / 2.500 / 10.000"


def test_it_writes_each_figure_with_the_format_given() -> None:
    assert spread([1234.4, 98765.6, 5000.0], "{:,.0f}") == "1,234 / 5,000 / 98,766"
    assert spread([1.25, 2.5], "{:7.1f}") == "    1.2 /     1.9 /     2.5"


def test_it_scales_before_it_formats() -> None:
    assert spread([0.0012, 0.0031, 0.002], "{:.1f}", scale=1000) == "1.2 / 2.0 / 3.1"


def test_it_fills_the_template_given() -> None:
    written = spread([0.5, 0.25, 2.0], template="min {} s, median {} s, max {} s")
    assert written == "min 0.250 s, median 0.500 s, max 2.000 s"
    assert spread([1.0, 2.0, 4.0], "{:.1f}", template="{}/{}/{}") == "1.0/2.0/4.0"


def test_it_answers_a_dash_for_no_runs_rather_than_failing() -> None:
    assert spread([]) == "-"
    assert spread([], empty="none") == "none"
