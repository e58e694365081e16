"""Operations: the daily-deal commands and tasks, the admin, the health check."""

from __future__ import annotations

from datetime import date, timedelta
from io import StringIO
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.daily import utc_today
from games.models import Action, ApiToken, Deal, Game, User
from tests.support.games import game_play

pytestmark = pytest.mark.django_db

# A day that is over whenever the suite runs.
PAST_DAY = date(2020, 2, 29)


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# Management commands ---------------------------------------------------------


def test_open_daily_opens_today_by_default() -> None:
    output = run("open_daily")
    today = utc_today(timezone.now())
    deal = Deal.objects.get(kind="daily")
    assert deal.day == today
    assert f"{today.isoformat()} forty-thieves: opened" in output
    assert deal.commitment in output and deal.code not in output


def test_open_daily_is_idempotent() -> None:
    first = run("open_daily", "--date", "2030-01-01", "--days", "3")
    assert first.count(": opened") == 3
    codes = set(Deal.objects.values_list("code", flat=True))
    again = run("open_daily", "--date", "2030-01-02", "--days", "3")
    assert again.count("already open") == 2 and again.count(": opened") == 1
    assert Deal.objects.count() == 4
    assert codes <= set(Deal.objects.values_list("code", flat=True))


def test_open_weekly_opens_this_weeks_challenge_once() -> None:
    from games.weekly import week_label, week_monday

    monday = week_monday(utc_today(timezone.now()))
    output = run("open_weekly", "--weeks", "2")
    deals = Deal.objects.filter(kind="weekly").order_by("day")
    assert [d.day for d in deals] == [monday, monday + timedelta(days=7)]
    assert f"{week_label(monday)} {deals[0].variant}: opened" in output
    assert deals[0].commitment in output and deals[0].code not in output
    assert run("open_weekly").count("already open") == 1
    with pytest.raises(CommandError, match="1 to 53"):
        run("open_weekly", "--weeks", "0")


@pytest.mark.parametrize("bad", ["29/11/2026", "2026-13-01", "tomorrow"])
def test_a_bad_date_names_the_expected_format(bad: str) -> None:
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        run("open_daily", "--date", bad)
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        run("close_daily", "--date", bad)
    assert Deal.objects.count() == 0


def test_open_daily_refuses_an_absurd_number_of_days() -> None:
    with pytest.raises(CommandError, match="--days"):
        run("open_daily", "--days", "0")


def test_close_daily_refuses_before_the_days_end() -> None:
    today = utc_today(timezone.now())
    services.deal_open_daily(day=today)
    with pytest.raises(CommandError, match=f"the daily deal of {today} closes at"):
        run("close_daily", "--date", today.isoformat())
    assert Deal.objects.get().revealed_at is None


def test_close_daily_after_the_day_reveals_and_ends_its_games(user: User) -> None:
    deal = services.deal_open_daily(day=PAST_DAY)
    game = Game.objects.create(
        player=user,
        deal=deal,
        mode=Game.Mode.RANKED,
    )
    output = run("close_daily", "--date", PAST_DAY.isoformat())
    assert output.startswith(f"{PAST_DAY}: closed 1 deal")
    deal.refresh_from_db()
    game.refresh_from_db()
    assert deal.revealed_at is not None and game.status == "resigned"
    assert "nothing to close" in run("close_daily", "--date", PAST_DAY.isoformat())


def test_close_daily_closes_yesterday_by_default() -> None:
    yesterday = utc_today(timezone.now()) - timedelta(days=1)
    services.deal_open_daily(day=yesterday)
    assert run("close_daily").startswith(f"{yesterday}: closed 1 deal")


# Tasks (eager Celery in the default settings) -----------------------------------


def test_tasks_run_eagerly_in_the_default_settings() -> None:
    assert settings.CELERY_TASK_ALWAYS_EAGER


def test_open_upcoming_deals_opens_today_and_tomorrow() -> None:
    today = utc_today(timezone.now())
    result = tasks.open_upcoming_deals.delay().get()
    assert result == [today.isoformat(), (today + timedelta(days=1)).isoformat()]
    assert sorted(Deal.objects.values_list("day", flat=True)) == [
        today,
        today + timedelta(days=1),
    ]
    tasks.open_upcoming_deals.delay()
    assert Deal.objects.count() == 2


def test_open_upcoming_deals_calls_the_service() -> None:
    with mock.patch.object(services, "deal_open_daily", wraps=services.deal_open_daily) as spy:
        tasks.open_upcoming_deals.delay()
    today = utc_today(timezone.now())
    assert [c.kwargs["day"] for c in spy.call_args_list] == [today, today + timedelta(days=1)]


def test_close_due_deals_closes_only_the_days_that_are_over() -> None:
    today = utc_today(timezone.now())
    services.deal_open_daily(day=PAST_DAY)
    services.deal_open_daily(day=today)
    with mock.patch.object(services, "deal_close_daily", wraps=services.deal_close_daily) as spy:
        result = tasks.close_due_deals.delay().get()
    assert result == {PAST_DAY.isoformat(): 1}
    assert [c.kwargs["day"] for c in spy.call_args_list] == [PAST_DAY]
    assert Deal.objects.get(day=today).revealed_at is None
    assert Deal.objects.get(day=PAST_DAY).revealed_at is not None
    assert tasks.close_due_deals.delay().get() == {}


def test_the_beat_schedule_names_registered_tasks() -> None:
    from ftsite.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks


# Admin -----------------------------------------------------------------------


@pytest.fixture
def admin_client(client: Client, db: None) -> Client:
    admin = User.objects.create_superuser("root", "root@example.org", "an admin passphrase 1")
    client.force_login(admin)
    return client


@pytest.fixture
def some_of_everything(user: User) -> Game:
    game = services.game_start_daily(user=user)
    game_play(user=user, game_id=game.pk, move="s")
    services.deal_open_daily(day=PAST_DAY)
    services.deal_close_daily(day=PAST_DAY)
    ApiToken.objects.create(user=user, name="bot", prefix="ft_abcde", digest="0" * 64)
    return game


@pytest.mark.parametrize("model", [User, Deal, Game, Action, ApiToken])
def test_each_admin_changelist_renders(
    admin_client: Client, some_of_everything: Game, model: type
) -> None:
    meta = model._meta
    response = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    assert response.status_code == 200


def test_the_admin_keeps_an_open_daily_deal_secret(
    admin_client: Client, some_of_everything: Game
) -> None:
    today = some_of_everything.deal
    closed = Deal.objects.get(day=PAST_DAY)
    listing = admin_client.get(reverse("admin:games_deal_changelist")).content.decode()
    assert "(secret)" in listing and today.code not in listing and closed.code in listing
    page = admin_client.get(reverse("admin:games_deal_change", args=[today.pk])).content.decode()
    assert today.code not in page and today.seed_hex not in page and today.salt not in page
    assert today.commitment in page


def test_the_admin_game_page_shows_the_move_log(
    admin_client: Client, some_of_everything: Game
) -> None:
    game = some_of_everything
    response = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="status"' not in html and 'name="score"' not in html  # read-only
    search = admin_client.get(reverse("admin:games_action_changelist"), {"q": str(game.pk)})
    assert search.status_code == 200 and search.context["cl"].result_count == 1
    nonsense = admin_client.get(reverse("admin:games_action_changelist"), {"q": "nonsense"})
    assert nonsense.status_code == 200


def test_the_admin_never_shows_a_token_digest(
    admin_client: Client, some_of_everything: Game
) -> None:
    token = ApiToken.objects.get()
    response = admin_client.get(reverse("admin:games_apitoken_change", args=[token.pk]))
    assert response.status_code == 200
    assert token.digest not in response.content.decode()
    assert 'name="name"' in response.content.decode()


# Health ----------------------------------------------------------------------


def test_healthz_is_200_when_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"


def test_healthz_is_503_when_the_database_is_down(client: Client) -> None:
    with mock.patch("games.views.connection.cursor", side_effect=DatabaseError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503


def test_livez_is_200_even_when_the_database_is_down(client: Client) -> None:
    with mock.patch("games.views.connection.cursor", side_effect=DatabaseError("down")) as cursor:
        response = client.get("/livez")
    assert response.status_code == 200 and response.content == b"ok"
    assert not cursor.called
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize("probe", ["/livez", "/healthz"])
def test_a_probe_is_given_no_device_cookie_but_a_page_is(client: Client, probe: str) -> None:
    assert "ft_device" not in client.get(probe).cookies
    assert "ft_device" in client.get("/rules/").cookies


def test_the_probes_are_resolved_before_every_other_pattern() -> None:
    from ftsite.urls import urlpatterns

    assert [p.name for p in urlpatterns[:2]] == ["livez", "healthz"]  # type: ignore[union-attr]


@pytest.mark.parametrize("probe", ["/livez", "/healthz"])
def test_a_probe_says_never_cache_me_as_never_cache_would(client: Client, probe: str) -> None:
    from django.http import HttpResponse
    from django.utils.cache import add_never_cache_headers

    expected = HttpResponse("ok")
    add_never_cache_headers(expected)
    with mock.patch("games.views.connection.cursor"):
        response = client.get(probe)
    assert response["Cache-Control"] == expected["Cache-Control"]
    assert response["Expires"]  # an HTTP date of now, as never_cache's
