"""The proxy's failover, read from the template compose.yaml renders
(``ftsite/deploy/nginx.conf.template``): tests/integration/test_proxy.py runs the same file
in Debian's nginx; these read the directives that decide when a request may reach a second
web process, so a change to them is a decision a test names."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = (ROOT / "ftsite" / "deploy" / "nginx.conf.template").read_text()


def app_location(prefix: str = "/") -> dict[str, str]:
    """The directives of ``location /`` (the app's pages and API) or another location."""
    block = TEMPLATE[TEMPLATE.index(f"location {prefix} {{") :]
    block = block[: block.index("\n        }")]
    directives: dict[str, str] = {}
    for line in block.splitlines()[1:]:
        line = line.split("#", 1)[0].strip()
        if line.endswith(";"):
            name, _, value = line[:-1].partition(" ")
            if name == "proxy_set_header":  # one per header: keyed by the header's name
                header, _, value = value.partition(" ")
                name = f"{name} {header}"
            directives[name] = value.strip()
    return directives


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(ms|s|m)?", value)
    assert match, value
    number, unit = int(match.group(1)), match.group(2) or "s"
    return number / 1000 if unit == "ms" else number * (60 if unit == "m" else 1)


def test_sockets_go_to_daphne_and_everything_else_to_the_pages() -> None:
    assert app_location("/ws/")["proxy_pass"] == "http://sockets"
    assert app_location("/ws/")["proxy_set_header Upgrade"] == "$http_upgrade"
    assert app_location()["proxy_pass"] == "http://pages"
    # Kept-alive connections to the pages: no "close" sent upstream.
    assert app_location()["proxy_set_header Connection"] == '""'


def test_a_request_already_sent_by_post_is_never_sent_again() -> None:
    for prefix in ("/", "/ws/"):
        assert "non_idempotent" not in app_location(prefix)["proxy_next_upstream"]


def test_a_timed_out_read_is_not_retried_on_the_other_process() -> None:
    # nginx's "timeout" covers a connect timeout (safe to retry: nothing was sent) and a
    # read timeout (the page ran on the first process for proxy_read_timeout). Only a retry
    # window shorter than the read timeout, and long enough for a connect timeout, keeps
    # the first and refuses the second.
    for prefix in ("/", "/ws/"):
        location = app_location(prefix)
        window = seconds(location["proxy_next_upstream_timeout"])
        assert seconds(location["proxy_connect_timeout"]) < window
        assert window < seconds(location["proxy_read_timeout"])
        assert int(location["proxy_next_upstream_tries"]) <= 2
