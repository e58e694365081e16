"""compose.yaml, read without Docker: every service is there, every command names a real
entry point, the start order is healthy-first, .env.example documents every variable, the
proxy is the one public door and renders the repository's template, and Prometheus
scrapes every web process."""

from __future__ import annotations

import importlib
import importlib.util
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from celery import Celery
from django.core.management import get_commands
from django.urls import resolve

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "compose.yaml"
ENV_EXAMPLE = ROOT / ".env.example"
SETTINGS = ROOT / "ftsite" / "settings.py"
DEPLOY = ROOT / "ftsite" / "deploy"

APP_SERVICES = (
    "migrate",
    "web1",
    "web2",
    "pages",
    "worker",
    "worker-solver",
    "worker-fairplay",
    "worker-analysis",
    "beat",
)
WEB_SERVICES = ("web1", "web2")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return compose["services"]


def shell_commands(command: str | list[str]) -> list[list[str]]:
    """A service's command as the argument lists it runs (``sh -c "a && b"`` is two)."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if argv[:2] == ["sh", "-c"]:
        return [shlex.split(part) for part in argv[2].split("&&")]
    return [argv]


def env_example_names() -> set[str]:
    names = set()
    for line in ENV_EXAMPLE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.add(line.split("=", 1)[0].strip())
    return names


def test_every_service_exists(services: dict[str, Any]) -> None:
    assert set(services) == {"postgres", "redis", "proxy", "prometheus", *APP_SERVICES}


def test_images_and_builds_are_set(services: dict[str, Any]) -> None:
    assert services["postgres"]["image"] == "postgres:16-alpine"
    assert services["redis"]["image"] == "redis:7-alpine"
    for name in APP_SERVICES:
        assert services[name]["build"] == ".", name
    assert (ROOT / "Dockerfile").is_file()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11-slim" in dockerfile and "\nUSER " in dockerfile
    # The solver's compiled core is built in the image, as make venv builds it here.
    assert "setup.py build_ext --inplace" in dockerfile and "setup.py" in dockerfile


def check_entry_point(argv: list[str]) -> None:
    """The program exists in this project: an importable ASGI app, a Celery app with a
    ``celery.py``, or a real management command."""
    program = argv[0]
    if program == "daphne":
        module, _, attribute = argv[-1].partition(":")
        assert argv[-1] == "ftsite.asgi:application"
        assert hasattr(importlib.import_module(module), attribute)
    elif program == "gunicorn":
        assert argv[argv.index("-c") + 1] == "python:ftsite.gunicorn"
        assert importlib.util.find_spec("ftsite.gunicorn") is not None  # read at its start
        module, _, attribute = argv[-1].partition(":")
        assert argv[-1] == "ftsite.wsgi:application"
        assert hasattr(importlib.import_module(module), attribute)
    elif program == "celery":
        package = argv[argv.index("-A") + 1]
        assert (ROOT / package / "celery.py").is_file()
        assert isinstance(importlib.import_module(f"{package}.celery").app, Celery)
        assert argv[argv.index("-A") + 2] in ("worker", "beat")
    elif program == "python":
        assert argv[1] == "manage.py" and (ROOT / "manage.py").is_file()
        assert argv[2] in get_commands(), f"no management command {argv[2]!r}"
    else:
        raise AssertionError(f"unknown program {program!r} in {argv}")


@pytest.mark.parametrize("name", APP_SERVICES)
def test_every_command_references_a_real_entry_point(services: dict[str, Any], name: str) -> None:
    commands = shell_commands(services[name]["command"])
    for argv in commands:
        check_entry_point(argv)


def test_the_commands_are_the_documented_ones(services: dict[str, Any]) -> None:
    assert shell_commands(services["migrate"]["command"]) == [
        ["python", "manage.py", "migrate", "--noinput"],
        ["python", "manage.py", "collectstatic", "--noinput"],
    ]
    for name in WEB_SERVICES:
        assert shell_commands(services[name]["command"]) == [
            ["daphne", "-b", "0.0.0.0", "-p", "8000", "ftsite.asgi:application"]
        ]
    assert shell_commands(services["pages"]["command"]) == [
        ["gunicorn", "-c", "python:ftsite.gunicorn", "ftsite.wsgi:application"]
    ]
    worker = shell_commands(services["worker"]["command"])[0]
    assert worker[:4] == ["celery", "-A", "ftsite", "worker"] and "--concurrency=2" in worker
    assert worker[worker.index("-Q") + 1] == "celery"
    fairplay = shell_commands(services["worker-fairplay"]["command"])[0]
    assert fairplay[:4] == ["celery", "-A", "ftsite", "worker"]
    assert fairplay[fairplay.index("-Q") + 1] == "fairplay"
    analysis = shell_commands(services["worker-analysis"]["command"])[0]
    assert analysis[:4] == ["celery", "-A", "ftsite", "worker"]
    assert analysis[analysis.index("-Q") + 1] == "analysis"
    assert shell_commands(services["beat"]["command"])[0][:4] == ["celery", "-A", "ftsite", "beat"]


def test_the_socket_processes_run_on_the_allocator_the_harness_gives_them(
    services: dict[str, Any],
) -> None:
    # the test tiers' daphne is compose's web service: the same allocator, set the same way
    from tests.support.servers import WEB_ALLOCATOR_ENV

    for name in WEB_SERVICES:
        environment = services[name]["environment"]
        assert {k: environment.get(k) for k in WEB_ALLOCATOR_ENV} == WEB_ALLOCATOR_ENV
    for name in set(APP_SERVICES) - set(WEB_SERVICES):
        assert "LD_PRELOAD" not in services[name].get("environment", {})
    dockerfile = (ROOT / "Dockerfile").read_text()
    installs = [line for line in dockerfile.splitlines() if "apt-get install" in line]
    purges = [line for line in dockerfile.splitlines() if "apt-get purge" in line]
    assert any("libjemalloc2" in line for line in installs)
    assert not any("libjemalloc2" in line for line in purges)


def test_the_proxy_is_the_only_public_door(services: dict[str, Any]) -> None:
    published = {name: s["ports"] for name, s in services.items() if s.get("ports")}
    assert published.pop("proxy") == ["443:443", "80:80"]
    # Prometheus only on the host's loopback; nothing else at all (no web process).
    assert published == {"prometheus": ["127.0.0.1:9090:9090"]}


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """A service's volumes as {target: source}."""
    return {v.split(":")[1]: v.split(":")[0] for v in service.get("volumes", [])}


def test_the_proxy_renders_the_repository_s_template(services: dict[str, Any]) -> None:
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    mounted = mounts(proxy)
    template = mounted["/etc/nginx/templates/nginx.conf.template"]
    assert (ROOT / template).resolve() == DEPLOY / "nginx.conf.template"
    env = proxy["environment"]
    assert env["NGINX_ENVSUBST_OUTPUT_DIR"] == "/etc/nginx"  # the whole nginx.conf
    # Every name the template uses is given, so nothing is left as "${FT_...}".
    needed = set(re.findall(r"\$\{(FT_[A-Z0-9_]+)\}", (DEPLOY / "nginx.conf.template").read_text()))
    assert needed and needed <= set(env), needed - set(env)
    # The upstream list, the certificate folder and the static files are mounted where
    # the environment says; the static files are the volume collectstatic filled.
    assert (ROOT / mounted[env["FT_UPSTREAMS"]]).resolve() == DEPLOY / "upstreams.conf"
    pages = DEPLOY / "page_upstreams.conf"
    assert (ROOT / mounted[env["FT_PAGE_UPSTREAMS"]]).resolve() == pages
    assert env["FT_TLS_CERT"].startswith(next(t for t in mounted if t.endswith("/tls")))
    assert mounted[env["FT_STATIC_ROOT"]] == "staticfiles"
    assert mounts(services["migrate"])["/app/staticfiles"] == "staticfiles"
    assert {name: "service_healthy" for name in (*WEB_SERVICES, "pages")} == {
        name: dep["condition"] for name, dep in proxy["depends_on"].items()
    }


def test_the_proxy_sends_to_every_web_process(services: dict[str, Any]) -> None:
    upstreams = re.findall(r"^server (\S+)", (DEPLOY / "upstreams.conf").read_text(), re.M)
    assert sorted(upstreams) == sorted(f"{name}:8000" for name in WEB_SERVICES)
    pages = re.findall(r"^server (\S+)", (DEPLOY / "page_upstreams.conf").read_text(), re.M)
    assert pages == ["pages:8000"]
    assert services["pages"]["environment"]["FT_PAGES_BIND"] == "0.0.0.0:8000"
    for name in (*WEB_SERVICES, "pages"):
        env = services[name]["environment"]
        assert env["FT_TRUSTED_PROXIES"] == "1"  # the proxy appends the client's address


def test_prometheus_scrapes_every_web_process(services: dict[str, Any]) -> None:
    prometheus = services["prometheus"]
    config_file = mounts(prometheus)["/etc/prometheus/prometheus.yml"]
    assert (ROOT / config_file).resolve() == DEPLOY / "prometheus.yml"
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    targets = {
        target
        for job in config["scrape_configs"]
        for static in job["static_configs"]
        for target in static["targets"]
    }
    ports = {services[name]["environment"]["FT_METRICS_PORT"] for name in WEB_SERVICES}
    assert targets == {f"{name}:{port}" for name in WEB_SERVICES for port in ports}
    for name in WEB_SERVICES:
        assert services[name]["environment"]["FT_METRICS_ADDRESS"] == "0.0.0.0"


def test_postgres_redis_and_web_have_healthchecks(services: dict[str, Any]) -> None:
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert "redis-cli ping" in " ".join(services["redis"]["healthcheck"]["test"])
    for name in (*WEB_SERVICES, "pages"):
        test = services[name]["healthcheck"]["test"]
        assert test[:3] == ["CMD", "python", "-c"]
        compile(test[3], f"{name} healthcheck", "exec")  # the snippet is valid Python
        url = re.search(r"http://localhost:8000(/\S*?)'", test[3])
        assert url is not None and url.group(1) == "/healthz"
        assert resolve(url.group(1)).url_name == "healthz"


def test_the_start_order_waits_for_health_and_migrations(services: dict[str, Any]) -> None:
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in APP_SERVICES[1:]:
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully", name
        assert depends["redis"]["condition"] == "service_healthy", name
    assert services["migrate"]["restart"] == "no"


def test_app_services_share_the_configuration(services: dict[str, Any]) -> None:
    for name in APP_SERVICES:
        service = services[name]
        assert service["env_file"] == ".env"
        env = service["environment"]
        assert env["DATABASE_URL"] == "postgres://postgres:postgres@postgres:5432/fortythieves"
        assert env["REDIS_URL"] == "redis://redis:6379/0"


def test_named_volumes_are_declared(compose: dict[str, Any]) -> None:
    declared = set(compose.get("volumes") or {})
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if not source.startswith((".", "/")):
                assert source in declared, f"{name} mounts undeclared volume {source!r}"


def test_env_example_lists_every_interpolated_variable() -> None:
    text = COMPOSE.read_text().replace("$$", "")  # $$ is a literal dollar
    used = set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", text))
    assert used, "compose.yaml interpolates nothing?"
    assert used <= env_example_names(), used - env_example_names()


def test_env_example_lists_every_variable_settings_read() -> None:
    read = set(re.findall(r"env_[a-z]+\(\s*\"([A-Z0-9_]+)\"", SETTINGS.read_text()))
    production = {
        "DJANGO_SECRET_KEY",
        "FT_DAILY_SECRET",
        "DJANGO_ALLOWED_HOSTS",
        "DJANGO_CSRF_TRUSTED_ORIGINS",
        "DATABASE_URL",
        "REDIS_URL",
        "DJANGO_DEBUG",
    }
    assert production <= read
    names = env_example_names()
    assert read <= names, read - names
    assert "DJANGO_DEBUG=false" in ENV_EXAMPLE.read_text().splitlines()


def test_every_routed_queue_has_a_worker(services: dict[str, Any], settings) -> None:
    """A task routed to a queue nobody consumes would wait forever."""
    consumed = set()
    for service in services.values():
        for argv in shell_commands(service.get("command") or []):
            if argv[:4] == ["celery", "-A", "ftsite", "worker"] and "-Q" in argv:
                consumed.update(argv[argv.index("-Q") + 1].split(","))
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed | {"celery"} <= consumed, (routed | {"celery"}) - consumed
