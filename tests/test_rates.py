"""The one grammar of the rate limits (``ftsite.rates``): what it reads, what it refuses
(naming the variable and the form expected), and that the settings hold parsed rates,
read once as they load. That no request parses a rate is tested with the throttles
(tests/games/test_throttles.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ftsite.rates import RATE_DEFAULTS, Rate, env_rate
from tests.support.fresh_settings import setting_in_new_process


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("100/20s", Rate(100, 20)),
        ("1/s", Rate(1, 1)),
        ("3/sec", Rate(3, 1)),
        ("30/min", Rate(30, 60)),
        ("30/m", Rate(30, 60)),
        ("5/15min", Rate(5, 900)),
        ("5/h", Rate(5, 3600)),
        ("2/hour", Rate(2, 3600)),
        ("1000000/2d", Rate(1_000_000, 172_800)),
    ],
)
def test_it_reads_a_count_over_a_period(text: str, rate: Rate) -> None:
    assert Rate.parse(text) == rate


@pytest.mark.parametrize(
    "text",
    [
        "",
        "100",
        "lots",
        "0/min",
        "05/min",
        "5/0min",
        "5/",
        "5/20",
        "/min",
        "x/min",
        "-5/min",
        "5/fortnight",
        "5/MIN",
        "5 / min",
        " 5/min",
        "5/min\n",
        "5/min/h",
        "1.5/s",
    ],
)
def test_it_refuses_what_is_not_a_rate_saying_the_form_expected(text: str) -> None:
    with pytest.raises(ValueError, match="is not a rate: write count/period, e.g. 100/20s"):
        Rate.parse(text)


def test_a_rate_made_directly_needs_a_count_and_a_period() -> None:
    with pytest.raises(ValueError, match="1 or more"):
        Rate(0, 60)
    assert str(Rate(30, 60)) == "30/60s" and Rate.parse(str(Rate(30, 60))) == Rate(30, 60)


def test_a_variable_that_is_not_a_rate_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_RATE_HINTS", "20 a minute")
    with pytest.raises(ImproperlyConfigured) as refused:
        env_rate("FT_RATE_HINTS", "20/min")
    assert str(refused.value) == (
        "FT_RATE_HINTS='20 a minute' is not a rate: write count/period, e.g. 100/20s or"
        " 30/min (periods s, min, h, d)"
    )


def test_a_blank_variable_is_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_RATE_HINTS", "  ")
    assert env_rate("FT_RATE_HINTS", "20/min") == Rate(20, 60)
    monkeypatch.setenv("FT_RATE_HINTS", " 7/h ")  # as every variable: its spaces trimmed
    assert env_rate("FT_RATE_HINTS", "20/min") == Rate(7, 3600)


def test_every_default_is_a_rate() -> None:
    for name, default in RATE_DEFAULTS.items():
        assert isinstance(Rate.parse(default), Rate), name


def test_the_settings_hold_every_limit_parsed() -> None:
    for name in RATE_DEFAULTS:
        assert isinstance(getattr(settings, name), Rate), name


def test_a_fresh_process_parses_its_limits_as_its_settings_load() -> None:
    assert setting_in_new_process("FT_RATE_HINTS", FT_RATE_HINTS="7/2min") == "7/120s"


def test_the_modules_examples_hold() -> None:
    # ftsite is outside the doctest paths (its asgi module starts a server's set-up).
    import doctest

    from ftsite import rates

    assert doctest.testmod(rates).failed == 0
