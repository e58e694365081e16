"""The period boards read from the standings table (issue 37): the same boards as the
aggregate over the results they replace, kept right as results land, are held, released
and disqualified, and rebuilt from the results by ``manage.py rebuild_standings``."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.db.models import Count, Q

from games.engine.ranking import competition_ranks
from games.models import Game, User
from games.services import DAILY_VARIANT
from leaderboards.fairplay.services import _set_review, result_review_decide
from leaderboards.models import PeriodStanding, Result
from leaderboards.periods import (
    PERIOD_KINDS,
    SORT_KEYS,
    SORTS,
    PeriodKind,
    PlayerStats,
    SortBy,
    best_streak,
    period_of,
)
from leaderboards.placement import result_rank
from leaderboards.rating.selectors import rating_of_loaded
from leaderboards.selectors import period_board, period_board_size

pytestmark = pytest.mark.django_db

FIRST = date(2026, 10, 24)  # a Saturday: the days run over two month and three week ends
DAYS = [FIRST + timedelta(days=n) for n in range(16)]


def direct_board(
    *,
    kind: PeriodKind,
    start: date | None,
    by: SortBy,
    limit: int,
    players: list[int] | None = None,
) -> tuple[list[tuple], int]:
    """The board as it was computed before the standings: every result of the period
    aggregated, every player named, sorted by the key, then the name, then the id."""
    period = period_of(kind=kind, day=start or date.min)
    results = Result.objects.filter(
        ranked=True, status=Result.Status.VERIFIED, variant=DAILY_VARIANT, weekly=False
    ).exclude(review__in=(Result.Review.HELD, Result.Review.DISQUALIFIED))
    if period.start is not None and period.end is not None:
        results = results.filter(day__gte=period.start, day__lt=period.end)
    if players is not None:
        results = results.filter(player_id__in=players)
    counts = results.values("player_id").annotate(
        games=Count("id"), wins=Count("id", filter=Q(won=True))
    )
    won_days: dict[int, list[date]] = defaultdict(list)
    for player_id, day in results.filter(won=True).values_list("player_id", "day"):
        won_days[player_id].append(day)
    users = {u.pk: u for u in User.objects.select_related("skill_rating")}
    stats = [
        PlayerStats(
            player_id=c["player_id"],
            player_name=users[c["player_id"]].public_name,
            games=c["games"],
            wins=c["wins"],
            best_streak=best_streak(won_days[c["player_id"]]),
            rating=rating_of_loaded(users[c["player_id"]]),
        )
        for c in counts
    ]
    key = SORT_KEYS[by]
    stats.sort(key=lambda s: (key(s), s.player_name.casefold(), s.player_id))
    shown = stats[:limit]
    ranks = competition_ranks([key(s) for s in shown])
    rows = [
        (rank, s.player_id, s.player_name, s.games, s.wins, s.best_streak, s.rate)
        for s, rank in zip(shown, ranks, strict=True)
    ]
    return rows, len(stats)


def read_board(**options: object) -> tuple[list[tuple], int]:
    board = period_board(**options)  # type: ignore[arg-type]
    rows = [
        (r.rank, r.player_id, r.player_name, r.games, r.wins, r.best_streak, r.rate)
        for r in board.rows
    ]
    size = {k: v for k, v in options.items() if k not in ("by", "limit")}
    return rows, period_board_size(**size)  # type: ignore[arg-type]


def assert_boards_agree(*, league: list[int]) -> int:
    """Every board of the days (each kind, order and page size, the site's and a league's)
    read from the standings equals the direct computation; returns how many were compared."""
    compared = 0
    starts: dict[PeriodKind, set[date | None]] = {
        "week": {period_of(kind="week", day=d).start for d in DAYS},
        "month": {period_of(kind="month", day=d).start for d in DAYS},
        "all": {None},
    }
    for kind in PERIOD_KINDS:
        for start in starts[kind]:
            for by in SORTS:
                for limit in (1, 3, 100):
                    for players in (None, league):
                        options = {"kind": kind, "start": start, "by": by, "limit": limit}
                        want = direct_board(**options, players=players)  # type: ignore[arg-type]
                        got = read_board(**options, players=players)
                        assert got == want, (options, players)
                        compared += 1
    return compared


def standings_table() -> list[tuple]:
    return sorted(
        PeriodStanding.objects.values_list(
            "player_id", "variant", "kind", "start", "games", "wins", "best_streak", "rate"
        )
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_standings_boards_equal_the_direct_count_on_a_random_site(
    seed: int,
    make_result: Callable[..., Result],
    make_weekly_deal: Callable[..., object],
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    rng = random.Random(seed)
    # Names that tie when casefolded, and guests (all shown as "Guest"): the name and then
    # the id order the tied rows.
    names = ["ann", "Ann", "bob", "Cleo", "cleo", "dee", "eve", "Finn", "gus", "hal"]
    people = [
        User.objects.create_user(username=f"u{n}", display_name=name)
        for n, name in enumerate(names)
    ]
    people += [User.objects.create_user(username=f"guest-{n}", is_guest=True) for n in range(3)]
    weekly = make_weekly_deal(date(2026, 10, 26), DAILY_VARIANT, 7)
    on_board: list[Result] = []
    held: list[Result] = []
    for person in people:
        for day in DAYS:
            if rng.random() < 0.35:
                continue
            won = rng.random() < 0.55
            roll = rng.random()
            if roll < 0.05:
                make_result(person, day, won=won, status=Result.Status.PENDING)
            elif roll < 0.08:
                make_result(person, day, won=won, status=Result.Status.REJECTED, reason="forged")
            elif roll < 0.12:
                held.append(make_result(person, day, won=won, review=Result.Review.HELD))
            elif roll < 0.15:
                make_result(person, day, won=won, review=Result.Review.DISQUALIFIED)
            else:
                on_board.append(make_result(person, day, won=won))
        if rng.random() < 0.5:  # never on a period board: archive, practice, weekly games
            make_result(person, rng.choice(DAYS), won=True, mode=Game.Mode.ARCHIVE, ranked=False)
            make_result(person, None, won=True)
            make_result(person, deal=weekly, won=True)
    league = [p.pk for p in people if rng.random() < 0.5]
    assert assert_boards_agree(league=league) > 0

    # Then the boards move: holds, releases and disqualifications, as fair play makes them.
    staff = User.objects.create_user(username="referee", is_staff=True)
    for result in rng.sample(on_board, 6):
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            _set_review(result, Result.Review.HELD, by=None, why="automatic hold: test")
        held.append(result)
    for result in rng.sample(held, 5):
        decision = rng.choice(["cleared", "disqualified"])
        with django_capture_on_commit_callbacks(execute=True):
            result_review_decide(result_id=result.pk, decision=decision, by=staff, why="test")
    assert_boards_agree(league=league)

    # The rebuild writes the very table the refreshes kept.
    kept = standings_table()
    call_command("rebuild_standings", stdout=StringIO())
    assert standings_table() == kept


def test_a_result_counts_on_the_period_boards_once_it_is_placed(
    user: User, board_day: date
) -> None:
    from games.services import deal_open_daily

    deal = deal_open_daily(day=board_day)
    game = Game.objects.create(player=user, deal=deal, mode=Game.Mode.RANKED, status="won")
    result = Result.objects.create(
        game=game, player=user, deal=deal, day=board_day, variant=deal.variant, ranked=True,
        status=Result.Status.VERIFIED, outcome="won", won=True, score=1200, moves=200,
        duration_ms=60_000, finished_at=deal.opens_at + timedelta(hours=1),
    )  # fmt: skip
    assert period_board(kind="week", start=board_day).rows == []  # verified, not yet placed
    assert result_rank(result_id=result.pk)
    for kind in PERIOD_KINDS:
        (row,) = period_board(kind=kind, start=board_day).rows
        assert (row.player_id, row.games, row.wins, row.best_streak) == (user.pk, 1, 1, 1)
    assert not result_rank(result_id=result.pk)  # placed again (the sweep): still once
    assert period_board(kind="all", start=None).rows[0].games == 1


def test_a_hold_takes_a_result_off_the_period_boards_and_a_clearance_returns_it(
    user: User,
    board_day: date,
    make_result: Callable[..., Result],
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    make_result(user, board_day - timedelta(days=1), won=True)
    result = make_result(user, board_day, won=True)
    assert period_board(kind="all", start=None).rows[0].best_streak == 2
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        _set_review(result, Result.Review.HELD, by=None, why="automatic hold: machine pace")
    (row,) = period_board(kind="all", start=None).rows
    assert (row.games, row.wins, row.best_streak) == (1, 1, 1)
    staff = User.objects.create_user(username="referee", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        result_review_decide(result_id=result.pk, decision="cleared", by=staff, why="a person")
    (row,) = period_board(kind="all", start=None).rows
    assert (row.games, row.wins, row.best_streak) == (2, 2, 2)


def test_a_disqualified_result_never_counts_and_its_empty_period_goes(
    user: User,
    board_day: date,
    make_result: Callable[..., Result],
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    result = make_result(user, board_day, won=True)
    staff = User.objects.create_user(username="referee", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        result_review_decide(result_id=result.pk, decision="disqualified", by=staff, why="solver")
    for kind in PERIOD_KINDS:
        board = period_board(kind=kind, start=board_day)
        assert (board.rows, period_board_size(kind=kind, start=board_day)) == ([], 0)
    assert not PeriodStanding.objects.exists()
    call_command("rebuild_standings", stdout=StringIO())
    assert not PeriodStanding.objects.exists()


def test_the_rebuild_repairs_a_table_changed_behind_the_services_back(
    user: User, bob: User, board_day: date, make_result: Callable[..., Result]
) -> None:
    for offset in range(6):
        make_result(user, board_day - timedelta(days=offset), won=offset != 2)
        make_result(bob, board_day - timedelta(days=offset), won=offset % 2 == 0)
    kept = standings_table()
    PeriodStanding.objects.filter(player=bob).delete()
    PeriodStanding.objects.filter(player=user, kind="all").update(wins=99, rate=0.5)
    out = StringIO()
    call_command("rebuild_standings", stdout=out)
    assert standings_table() == kept
    assert f"Rebuilt the standings: {len(kept)} rows" in out.getvalue()


def test_a_deleted_player_leaves_the_standings(
    user: User, bob: User, board_day: date, make_result: Callable[..., Result]
) -> None:
    make_result(user, board_day, won=True)
    make_result(bob, board_day, won=False)
    bob.delete()
    board = period_board(kind="all", start=None)
    assert [r.player_id for r in board.rows] == [user.pk]
    assert period_board_size(kind="all", start=None) == 1


def test_a_ranked_game_played_to_its_end_lands_on_the_period_boards(
    user: User, now: object, django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    """The whole path: a finish announced, verified by the engine, placed on its board."""
    from games import services as game_services
    from tests.support.games import game_resign, play_all

    game = game_services.game_start_daily(user=user, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, game, ["s", "s"])
        game_resign(user=user, game_id=game.pk)
    assert Result.objects.get(game=game).ranked_at is not None
    for kind in PERIOD_KINDS:
        (row,) = period_board(kind=kind, start=now.date()).rows  # type: ignore[attr-defined]
        assert (row.player_id, row.games, row.wins, row.best_streak) == (user.pk, 1, 0, 0)
