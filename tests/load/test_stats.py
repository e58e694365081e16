"""The load suite's figures: min / median / max of repeated runs."""

from __future__ import annotations

from load.stats import min_med_max


def test_it_reports_the_spread_of_repeated_runs_in_order_whatever_their_order() -> None:
    assert min_med_max([3.0, 1.0, 2.0]) == "1.0 / 2.0 / 3.0"


def test_it_formats_each_figure_alike_and_takes_the_middle_of_an_even_count() -> None:
    assert min_med_max([2.0, 0.5, 1.0, 4.0], "{:.2f}") == "0.50 / 1.50 / 4.00"
