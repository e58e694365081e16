"""The typed environment helpers ``ftsite.settings`` is written with (``ftsite.env``), the
blocks it builds (``ftsite.blocks``) and the defaults that depend on the configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ftsite.blocks import check_redelivery
from ftsite.env import env_bool, env_int, env_list, env_networks, env_seconds, env_secret, env_str
from tests.support.fresh_settings import ROOT, setting_in_new_process


@pytest.mark.parametrize("raw", ["true", "TRUE", "1", "yes", "on", " True "])
def test_it_reads_true_booleans(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("FT_TEST_FLAG", raw)
    assert env_bool("FT_TEST_FLAG", default=False) is True


@pytest.mark.parametrize("raw", ["false", "False", "0", "no", "off"])
def test_it_reads_false_booleans(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("FT_TEST_FLAG", raw)
    assert env_bool("FT_TEST_FLAG", default=True) is False


def test_it_uses_the_default_for_an_unset_or_blank_boolean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FT_TEST_FLAG", raising=False)
    assert env_bool("FT_TEST_FLAG", default=True) is True
    monkeypatch.setenv("FT_TEST_FLAG", "")
    assert env_bool("FT_TEST_FLAG", default=False) is False


def test_it_refuses_a_boolean_it_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_bool("DJANGO_DEBUG", default=False)
    message = str(excinfo.value)
    assert "DJANGO_DEBUG" in message
    assert "'maybe'" in message
    assert "true/false" in message


def test_it_reads_an_integer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_TEST_NUMBER", "42")
    assert env_int("FT_TEST_NUMBER", default=0) == 42


def test_it_uses_the_default_for_an_unset_integer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FT_TEST_NUMBER", raising=False)
    assert env_int("FT_TEST_NUMBER", default=7) == 7


def test_it_refuses_an_integer_it_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_CONN_MAX_AGE", "sixty")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_int("DJANGO_CONN_MAX_AGE", default=60)
    message = str(excinfo.value)
    assert "DJANGO_CONN_MAX_AGE" in message
    assert "'sixty'" in message
    assert "integer" in message


def test_it_refuses_an_integer_below_the_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_CONN_MAX_AGE", "-1")
    with pytest.raises(ImproperlyConfigured, match="DJANGO_CONN_MAX_AGE"):
        env_int("DJANGO_CONN_MAX_AGE", default=60, minimum=0)


def test_it_splits_a_list_and_drops_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", " example.org, ,www.example.org ,")
    assert env_list("DJANGO_ALLOWED_HOSTS") == ["example.org", "www.example.org"]


def test_it_reads_networks_and_refuses_one_it_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_TRUSTED_PROXY_NETWORKS", "10.0.0.0/8, 192.0.2.7,::1")
    networks = env_networks("FT_TRUSTED_PROXY_NETWORKS", "127.0.0.0/8")
    assert [str(n) for n in networks] == ["10.0.0.0/8", "192.0.2.7/32", "::1/128"]
    monkeypatch.delenv("FT_TRUSTED_PROXY_NETWORKS")
    assert [str(n) for n in env_networks("FT_TRUSTED_PROXY_NETWORKS", "127.0.0.0/8")] == [
        "127.0.0.0/8"
    ]
    monkeypatch.setenv("FT_TRUSTED_PROXY_NETWORKS", "10.0.0.0/8,the proxy")
    with pytest.raises(ImproperlyConfigured, match="FT_TRUSTED_PROXY_NETWORKS: 'the proxy'"):
        env_networks("FT_TRUSTED_PROXY_NETWORKS", "127.0.0.0/8")


def test_it_refuses_an_integer_above_the_maximum(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_TRUSTED_PROXIES", "11")
    with pytest.raises(ImproperlyConfigured, match=r"FT_TRUSTED_PROXIES='11' is too large.*<= 10"):
        env_int("FT_TRUSTED_PROXIES", 0, minimum=0, maximum=10)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("ten", "is not a number of seconds"), ("-1", "is out of range; use 0 to 30"),
     ("31", "is out of range; use 0 to 30")],
)  # fmt: skip
def test_it_refuses_seconds_it_cannot_read_or_out_of_range(
    monkeypatch: pytest.MonkeyPatch, raw: str, expected: str
) -> None:
    monkeypatch.setenv("FT_HINT_SECONDS", raw)
    with pytest.raises(ImproperlyConfigured, match=f"FT_HINT_SECONDS='{raw}' {expected}"):
        env_seconds("FT_HINT_SECONDS", 1.0, maximum=30.0)


def test_it_reads_decimal_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_HINT_SECONDS", "0.5")
    assert env_seconds("FT_HINT_SECONDS", 1.0, maximum=30.0) == 0.5


def test_it_demands_a_secret_unless_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FT_DAILY_SECRET", raising=False)
    with pytest.raises(ImproperlyConfigured, match="FT_DAILY_SECRET is not set.*when DEBUG is off"):
        env_secret("FT_DAILY_SECRET", dev_default="dev", debug=False, why="when DEBUG is off")
    assert env_secret("FT_DAILY_SECRET", dev_default="dev", debug=True, why="-") == "dev"
    monkeypatch.setenv("FT_DAILY_SECRET", "real")
    assert env_secret("FT_DAILY_SECRET", dev_default="dev", debug=False, why="-") == "real"


def test_it_refuses_a_visibility_timeout_below_twice_a_time_limit() -> None:
    limits = {"CELERY_TASK_TIME_LIMIT": 60, "FT_SOLVER_TASK_TIME_LIMIT": 1500}
    check_redelivery(visibility_timeout=3000, limits=limits)
    expected = (
        "CELERY_VISIBILITY_TIMEOUT=2999 must be at least twice FT_SOLVER_TASK_TIME_LIMIT=1500"
    )
    with pytest.raises(ImproperlyConfigured, match=expected):
        check_redelivery(visibility_timeout=2999, limits=limits)


def test_the_certification_budget_follows_the_database_engine(tmp_path: Path) -> None:
    """SQLite gets make run's 2 s per candidate whether DATABASE_URL names the file or not
    (nobody certifies ahead there); PostgreSQL the production 10 s; the variable wins."""

    def budget(**env: str) -> str:
        return setting_in_new_process("FT_DAILY_CERTIFY_SECONDS", **env)

    sqlite_url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    postgres_url = "postgres://postgres@127.0.0.1:5432/unused"
    assert budget() == "2.0"
    assert budget(DATABASE_URL=sqlite_url) == "2.0"
    assert budget(DATABASE_URL=postgres_url) == "10.0"
    assert budget(DATABASE_URL=postgres_url, DJANGO_DB_POOL="false") == "10.0"
    assert budget(DATABASE_URL=sqlite_url, FT_DAILY_CERTIFY_SECONDS="5") == "5.0"
    assert budget(DATABASE_URL=postgres_url, FT_DAILY_CERTIFY_SECONDS="0") == "0.0"


def test_it_uses_the_default_for_an_unset_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DJANGO_ALLOWED_HOSTS", raising=False)
    assert env_list("DJANGO_ALLOWED_HOSTS", ["localhost"]) == ["localhost"]


def test_it_demands_a_required_string_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
        env_str("DJANGO_SECRET_KEY", required=True, why="when DEBUG is off")


def test_it_explains_why_a_missing_string_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FT_DAILY_SECRET", raising=False)
    with pytest.raises(ImproperlyConfigured, match="FT_DAILY_SECRET is not set.*when DEBUG is off"):
        env_str("FT_DAILY_SECRET", required=True, why="when DEBUG is off")


def test_it_reads_a_string_or_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FT_TEST_TEXT", "hello")
    assert env_str("FT_TEST_TEXT", "fallback") == "hello"
    monkeypatch.delenv("FT_TEST_TEXT")
    assert env_str("FT_TEST_TEXT", "fallback") == "fallback"


def test_it_uses_the_custom_user_model() -> None:
    assert settings.AUTH_USER_MODEL == "games.User"


def test_it_serves_static_files_without_collectstatic() -> None:
    backend = settings.STORAGES["staticfiles"]["BACKEND"]
    assert backend == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_it_reads_every_rate_limit_or_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from ftsite.rates import RATE_DEFAULTS, Rate, rate_limits

    for name in RATE_DEFAULTS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FT_RATE_HINTS", "5/min")
    limits = rate_limits()
    assert limits["FT_RATE_HINTS"] == Rate(count=5, seconds=60)
    assert limits["FT_RATE_SOCKET_PACE"] == Rate(count=40, seconds=5)
    assert set(limits) == set(RATE_DEFAULTS)


def test_it_refuses_a_rate_limit_it_cannot_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from ftsite.rates import rate_limits

    monkeypatch.setenv("FT_RATE_DAY_FILES", "lots")
    with pytest.raises(ImproperlyConfigured) as excinfo:
        rate_limits()
    message = str(excinfo.value)
    assert "FT_RATE_DAY_FILES" in message
    assert "'lots'" in message


def test_the_sequential_test_is_on_where_its_null_and_a_worker_exist() -> None:
    """FT_EVIDENCE defaults on only with the deterministic certification (its calibrated
    null) and a broker (a fairplay worker: inline, a step would hold up the socket), and the
    production template turns both on."""

    def evidence(**env: str) -> str:
        return setting_in_new_process("FT_EVIDENCE", **env)

    broker = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert evidence(**broker, FT_DAILY_CERTIFY_NODES="2000") == "True"
    assert evidence(**broker) == "False"  # the clock's certification: no calibrated null
    assert evidence(FT_DAILY_CERTIFY_NODES="2000") == "False"  # tasks run inline
    assert evidence(**broker, FT_DAILY_CERTIFY_NODES="2000", FT_EVIDENCE="false") == "False"
    template = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert template["FT_EVIDENCE"] == "true" and int(template["FT_DAILY_CERTIFY_NODES"]) > 0
