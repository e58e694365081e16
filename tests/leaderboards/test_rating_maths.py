"""The rating's maths: a Gaussian filter on each day's place as a normal score."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboards.rating.maths import (
    MODEL,
    Rating,
    display_value,
    is_provisional,
    rate_match,
)

_ratings = st.builds(
    Rating,
    st.floats(min_value=-20, max_value=70, allow_nan=False),
    st.floats(min_value=0.05, max_value=MODEL.sigma),
)


@st.composite
def _matches(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    ratings = draw(st.lists(_ratings, min_size=2, max_size=40))
    places: list[int] = []
    for i in range(len(ratings)):
        tie = i > 0 and draw(st.booleans())
        places.append(places[-1] if tie else i + 1)
    return ratings, places


@given(_matches())
def test_players_sharing_a_place_with_equal_priors_get_the_same_update(
    match: tuple[list[Rating], list[int]],
) -> None:
    _, places = match
    prior = Rating(31.0, 4.0)
    after = rate_match([prior] * len(places), places)
    for place in set(places):
        assert len({after[i] for i, p in enumerate(places) if p == place}) == 1


@given(_matches())
def test_players_sharing_a_place_are_moved_toward_the_same_score(
    match: tuple[list[Rating], list[int]],
) -> None:
    ratings, places = match
    targets: dict[int, list[float]] = {}
    for place, before, after in zip(places, ratings, rate_match(ratings, places), strict=True):
        variance = before.sigma**2 + MODEL.tau**2
        gain = variance / (variance + MODEL.beta**2)
        targets.setdefault(place, []).append(before.mu + (after.mu - before.mu) / gain)
    for scores in targets.values():  # whatever their priors, the same score for a place
        assert max(scores) - min(scores) < 1e-6


@given(st.integers(min_value=2, max_value=60), st.data())
def test_a_better_place_never_gains_less_than_a_worse_one_from_equal_priors(
    size: int, data: st.DataObject
) -> None:
    prior = data.draw(_ratings)
    places: list[int] = []
    for i in range(size):
        places.append(places[-1] if i and data.draw(st.booleans()) else i + 1)
    after = rate_match([prior] * size, places)
    assert all(a.mu >= b.mu for a, b in zip(after, after[1:], strict=False))
    assert after[0].mu > after[-1].mu or places[0] == places[-1]


@given(_matches())
def test_sigma_never_grows_past_the_prior_widened_by_the_drift(
    match: tuple[list[Rating], list[int]],
) -> None:
    ratings, places = match
    for before, after in zip(ratings, rate_match(ratings, places), strict=True):
        assert after.sigma <= math.hypot(before.sigma, MODEL.tau)
        # It shrinks unless already near where the drift balances a day (about 1.18).
        assert after.sigma < before.sigma or before.sigma < 1.2


@given(_matches())
def test_it_is_deterministic(match: tuple[list[Rating], list[int]]) -> None:
    ratings, places = match
    assert rate_match(ratings, places) == rate_match(list(ratings), list(places))


def test_the_update_is_the_kalman_step_toward_the_places_normal_score() -> None:
    # Five players, the middle two tied: positions [1, 3) of 5 cover quantiles (0.4, 0.8).
    prior = Rating(20.0, 6.0)
    after = rate_match([prior] * 5, [1, 2, 2, 4, 5])
    variance = prior.sigma**2 + MODEL.tau**2
    gain = variance / (variance + MODEL.beta**2)
    score = MODEL.mu + MODEL.scale * NormalDist().inv_cdf(0.6)
    assert after[1].mu == pytest.approx(prior.mu + gain * (score - prior.mu), abs=1e-12)
    assert after[1].sigma == pytest.approx(math.sqrt(variance * (1 - gain)), abs=1e-12)
    assert after[3].mu < prior.mu < after[1].mu  # below the middle loses, above gains


def test_the_better_place_gains_and_the_worse_loses() -> None:
    first, second, third = rate_match([Rating(), Rating(), Rating()], [1, 2, 3])
    assert first.mu > Rating().mu == second.mu > third.mu  # the middle of three scores z 0
    assert all(r.sigma < Rating().sigma for r in (first, second, third))


def test_a_place_among_many_moves_a_rating_as_much_as_among_few() -> None:
    # Plackett-Luce's updates shrank with the field; this one's do not.
    small = rate_match([Rating()] * 10, list(range(1, 11)))
    large = rate_match([Rating()] * 10_000, list(range(1, 10_001)))
    # Second of 10 and 1,500th of 10,000: both at the 85th percentile of their field.
    assert large[1499].mu == pytest.approx(small[1].mu, abs=0.01)
    assert large[1499].mu - Rating().mu > 0.5 * MODEL.sigma
    assert large[1499].sigma == small[1].sigma


def test_equal_players_sharing_a_place_move_alike() -> None:
    a, b, c = rate_match([Rating(), Rating(), Rating()], [1, 1, 3])
    assert a == b and a.mu > c.mu


def test_a_match_of_one_changes_nothing() -> None:
    assert rate_match([Rating(30, 2)], [1]) == [Rating(30, 2)]


def test_it_refuses_places_out_of_the_boards_order() -> None:
    with pytest.raises(ValueError, match="order"):
        rate_match([Rating(), Rating()], [2, 1])


def test_it_refuses_a_place_count_unlike_the_ratings() -> None:
    with pytest.raises(ValueError, match="one place per rating"):
        rate_match([Rating(), Rating()], [1])


def test_a_new_player_shows_1000_and_is_provisional() -> None:
    assert display_value(Rating()) == 1000
    assert is_provisional(sigma=Rating().sigma, matches=50)
    assert not is_provisional(sigma=4.9, matches=10)


def test_a_day_of_a_hundred_thousand_results_rates_in_one_pass() -> None:
    ratings = [Rating(25 + (i % 7), 8) for i in range(100_000)]
    after = rate_match(ratings, list(range(1, 100_001)))
    assert after[0].mu > ratings[0].mu and after[-1].mu < ratings[-1].mu
