"""One row per player, variant and period (week, month, all time) with a result on a daily
board: the numbers the period boards rank by, kept by
:func:`leaderboards.standings.services.standings_refresh` whenever a result goes on or off
its board, and recomputable from the results (``manage.py rebuild_standings``).

Issue 37: the boards had aggregated every result of the period on each request (66 s for
the all-time board at a million results). Each ordering has an index in the board's order,
so a page reads its hundred rows and the rows tied with the last, whatever the period holds.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

# The key columns of each ordering, best first (leaderboards.periods.SORT_KEYS in SQL; the
# name, which only orders ties, is the reader's language's and stays in Python).
ORDERS: dict[str, tuple[str, str, str]] = {
    "wins": ("wins", "rate", "best_streak"),
    "rate": ("rate", "wins", "best_streak"),
    "streak": ("best_streak", "wins", "rate"),
}


def _order_index(by: str) -> models.Index:
    columns = [models.F(column).desc() for column in ORDERS[by]]
    return models.Index("variant", "kind", "start", *columns, name=f"standing_by_{by}")


class PeriodStanding(models.Model):
    # No index of its own: "standing_once" leads with the player (a refresh, a deletion).
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="period_standings",
        db_index=False,
    )
    variant = models.CharField(max_length=60)
    kind = models.CharField(max_length=5)  # "week", "month", "all": periods.PERIOD_KINDS
    # The period's first day (a Monday, the 1st); leaderboards.periods.ALL_TIME_START for all.
    start = models.DateField()
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    best_streak = models.PositiveIntegerField()
    # wins / games, or -1 below MIN_GAMES_FOR_RATE (leaderboards.periods.rate_key).
    rate = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "variant", "kind", "start"], name="standing_once"
            )
        ]
        indexes = [_order_index(by) for by in ORDERS]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.start}: {self.wins}/{self.games}"
