"""The rating's maths, pure Python (no Django): one closed deal is one match among everyone
ranked on it, and each player's place in it is one noisy measurement of their skill.

The model (``docs/ratings.md``): a player's skill is a normal belief (mu, sigma). On a deal,
a player's place among the n ranked becomes a performance score: the inverse normal CDF of
their share of the field placed below them, ties at the midrank (a place shared by a group
counts as the middle of the group's span), on the rating's scale
(``MODEL.mu + MODEL.scale * z``). That score is the skill plus the day's noise, of standard
deviation ``MODEL.beta``, so the update is a one-dimensional Kalman filter: sigma first
widened by the drift ``MODEL.tau``, then mu moves toward the score by the gain
sigma^2 / (sigma^2 + beta^2) and sigma shrinks by it. One pass over the places, one inverse
CDF a place group: O(n) a deal. Unlike Plackett-Luce (what the rating used first), the
information of a place does not shrink as the field grows: a place among 100,000 is as
precise a measurement as a place among 100 (more so, in fact, and this model's noise does
not use that).

Places come from the board (:func:`games.engine.ranking.competition_ranks`): equal results
share a place, and players sharing a place get the same score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


@dataclass(frozen=True)
class Model:
    """The rating's constants. mu and sigma are a new player's belief (openskill's and
    TrueSkill's usual 25 and 25/3, so the shown scale keeps its meaning); beta is the
    day's noise, as large as the spread of skill (the season benchmark's assumption, its
    tuning seeds 101-103 preferring no other value); tau the drift a match, 25/150: of
    those tried on the tuning seeds, the one that did best with skills that move (the
    benchmark's ``--drift 0.05``) at no loss with skills that do not. With it a settled
    sigma stays near 1.17, about the last fifty deals' worth of evidence."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 3.0
    tau: float = 25.0 / 150.0

    @property
    def scale(self) -> float:
        """A z of 1 in the field on the rating's scale: the field's spread of
        performance is the spread of skill and the day's noise together."""
        return math.sqrt(self.sigma**2 + self.beta**2)


MODEL = Model()
_NORMAL = NormalDist()

#: The board's order and the shown value: mu - ORDINAL_SIGMAS x sigma (about an 84 %
#: lower bound for 1), scaled so a new player shows 1000 (``docs/ratings.md``, "What is
#: shown", for why one sigma and not openskill's three).
ORDINAL_SIGMAS = 1.0
DISPLAY_ALPHA = 40.0
DISPLAY_TARGET = 1000.0 - DISPLAY_ALPHA * (MODEL.mu - ORDINAL_SIGMAS * MODEL.sigma)
#: Provisional until both: this many rated deals, and sigma below this (of 25/3 at first).
PROVISIONAL_MATCHES = 10
PROVISIONAL_SIGMA = 5.0


@dataclass(frozen=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The board's key: mu - ORDINAL_SIGMAS x sigma."""
        return self.mu - ORDINAL_SIGMAS * self.sigma


def display_value(rating: Rating) -> int:
    """The number a page shows: the ordinal scaled, a new player at 1000.

    >>> display_value(Rating())
    1000
    """
    return round(DISPLAY_ALPHA * rating.ordinal + DISPLAY_TARGET)


def display_uncertainty(rating: Rating) -> int:
    """The "±" beside it: one sigma on the shown scale.

    >>> display_uncertainty(Rating())
    333
    """
    return round(DISPLAY_ALPHA * rating.sigma)


def is_provisional(*, sigma: float, matches: int) -> bool:
    """Until the rating has settled: too few matches, or still too uncertain.

    >>> is_provisional(sigma=4.0, matches=9), is_provisional(sigma=4.0, matches=10)
    (True, False)
    """
    return matches < PROVISIONAL_MATCHES or sigma >= PROVISIONAL_SIGMA


def rate_match(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one match: ``ratings`` in the board's order, ``places``
    their shown ranks (1, 1, 3: equal results share one). Returns the new ratings in the
    same order. A match of fewer than two players changes nothing (there is no one to
    be compared with).

    A place group spanning positions [lo, hi) of n (0 the top) covers the quantiles
    ((n - hi) / n, (n - lo) / n) of the field from the bottom; its score is
    ``mu0 + scale * inv_cdf(midpoint)``, the same for everyone in it.
    """
    n = len(ratings)
    if n != len(places):
        raise ValueError("one place per rating")
    if any(b < a for a, b in zip(places, places[1:], strict=False)):
        raise ValueError("places must be in the board's order")
    if n < 2:
        return list(ratings)
    tau2, beta2 = MODEL.tau**2, MODEL.beta**2
    new: list[Rating] = []
    lo = 0
    while lo < n:
        hi = lo + 1
        while hi < n and places[hi] == places[lo]:
            hi += 1
        score = MODEL.mu + MODEL.scale * _NORMAL.inv_cdf(1.0 - (lo + hi) / (2.0 * n))
        for rating in ratings[lo:hi]:
            variance = rating.sigma * rating.sigma + tau2
            gain = variance / (variance + beta2)
            new.append(
                Rating(
                    rating.mu + gain * (score - rating.mu),
                    math.sqrt(variance * (1.0 - gain)),
                )
            )
        lo = hi
    return new
