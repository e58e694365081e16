"""The sequential test of fair play: a per-player e-process over ranked games (pure).

The server bets draw by draw (``DrawWealth``, below): each ranked game brings, per horizon,
its weighed draws' factors (``games.solver.horizon``), each with mean at most one given
everything before it for every player who cannot see the stock, and each (horizon,
fraction) pair's wealth is multiplied by ``1 - lam + lam * f`` at every factor. ``Wealth``,
the game-by-game form, bets a fraction ``lam`` of itself on one e-value ``E`` a game::

    W <- W * (1 - lam + lam * E)

For an honest player every factor has mean at most one given the past, so ``W`` is a test
supermartingale and, by Ville's inequality, ``P(W ever reaches T) <= 1 / T``: with
``T = 100`` at most 1 % of honest players are ever held, however long they play and however
good they are. A loss costs the fraction bet (``1 - lam``), never everything: the wealth is
never reset, so evidence builds over days. Which fraction is best depends on how much a
cheat's games give, so the wealth is the mean over several fractions (``BETS``): a mixture
of test supermartingales is one, and it loses at most a factor ``len(BETS)`` against the
best fraction in hindsight.

The factors commute, but the *path* does not: the test is applied in the order the games
were played (the service waits for earlier games), so the path is the one Ville's
inequality speaks of.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The betting fractions mixed (uniform weights).
BETS = (0.05, 0.1, 0.2, 0.35, 0.5, 0.7)
#: The wealth at which a player's results go to review (at most 1 / THRESHOLD of honest
#: players ever get there).
THRESHOLD = 100.0


@dataclass(frozen=True)
class Wealth:
    """The log-wealth of each betting fraction (all zero at the start)."""

    logs: tuple[float, ...] = tuple(0.0 for _ in BETS)

    @classmethod
    def of(cls, logs: list[float] | tuple[float, ...] | None) -> Wealth:
        """From stored log-wealths (a new player, or a change of ``BETS``: the start)."""
        if not logs or len(logs) != len(BETS):
            return cls()
        return cls(tuple(float(x) for x in logs))

    def bet(self, value: float) -> Wealth:
        """The wealth after a game with e-value ``value`` (>= 0)."""
        if value < 0 or math.isnan(value):
            raise ValueError(f"an e-value is a number >= 0, not {value!r}")
        return Wealth(
            tuple(
                log + math.log(1 - lam + lam * value)
                for log, lam in zip(self.logs, BETS, strict=True)
            )
        )

    @property
    def value(self) -> float:
        """The mixture: the mean wealth over the fractions."""
        top = max(self.logs)
        return math.exp(top) * sum(math.exp(x - top) for x in self.logs) / len(self.logs)

    def crossed(self, threshold: float = THRESHOLD) -> bool:
        return self.value >= threshold


def run(values: list[float], threshold: float = THRESHOLD) -> int | None:
    """The index of the game at which a sequence of e-values first crosses ``threshold``
    (``None``: never). For the benchmark and the tests."""
    wealth = Wealth()
    for i, value in enumerate(values):
        wealth = wealth.bet(value)
        if wealth.crossed(threshold):
            return i
    return None


#: Draw-by-draw betting on the horizon statistic (``games.solver.horizon``): the fractions
#: mixed for every horizon (a draw's factor is rarely 0 for a foresight player, so a larger
#: fraction pays too).
DRAW_BETS = (0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.85)


@dataclass(frozen=True)
class DrawWealth:
    """The log-wealth of each (horizon, fraction) pair, betting on every weighed draw.

    For one pair the wealth is multiplied by ``1 - lam + lam * f`` at each of the horizon's
    draw factors ``f``, across games: a test supermartingale for a blind player, since each
    factor has mean <= 1 given everything before it (``games.solver.horizon``). Their mean
    over the pairs is one too when read at game ends, where the service reads it: there
    every pair's ratio over a game has mean <= 1 given the earlier games."""

    horizons: tuple[int, ...]
    logs: tuple[float, ...]

    @classmethod
    def start(cls, horizons: tuple[int, ...]) -> DrawWealth:
        return cls(horizons, tuple(0.0 for _ in horizons for _ in DRAW_BETS))

    @classmethod
    def of(cls, logs: list[float] | tuple[float, ...] | None, horizons: tuple[int, ...]):
        """From stored log-wealths (a new player, or another layout: the start)."""
        if not logs or len(logs) != len(horizons) * len(DRAW_BETS):
            return cls.start(horizons)
        return cls(horizons, tuple(float(x) for x in logs))

    def bet(self, factors: dict[int, list[float]]) -> DrawWealth:
        """The wealth after a game whose draws gave ``factors`` per horizon (each >= 0; a
        horizon missing from the dict had no draw)."""
        out = []
        at = 0
        for s in self.horizons:
            draws = factors.get(s, [])
            if any(f < 0 or math.isnan(f) for f in draws):
                raise ValueError(f"a draw factor is a number >= 0, not {draws!r}")
            for lam in DRAW_BETS:
                log = self.logs[at]
                for f in draws:
                    term = 1 - lam + lam * f
                    log += math.log(term) if term > 0 else -math.inf
                out.append(log)
                at += 1
        return DrawWealth(self.horizons, tuple(out))

    @property
    def value(self) -> float:
        """The mixture: the mean wealth over the pairs."""
        top = max(self.logs)
        if top == -math.inf:
            return 0.0
        return math.exp(top) * sum(math.exp(x - top) for x in self.logs) / len(self.logs)

    def crossed(self, threshold: float = THRESHOLD) -> bool:
        return self.value >= threshold
