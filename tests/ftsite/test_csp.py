"""The Content-Security-Policy header built once (ftsite/csp.py): the same header
django-csp's own middleware writes, on every path it would, and its own path kept for a
response that brings parts of its own."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.decorators import csp_update
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings

from ftsite.csp import CSPMiddleware


def through(
    middleware_class: type, path: str, response: HttpResponse | None = None
) -> HttpResponse:
    request = RequestFactory().get(path)
    middleware = middleware_class(lambda _request: response or HttpResponse("ok"))
    return middleware(request)


@pytest.mark.parametrize("path", ["/livez", "/", "/rules/", "/api/v1/docs"])
def test_it_writes_what_django_csp_writes(path: str) -> None:
    ours, theirs = through(CSPMiddleware, path), through(DjangoCSPMiddleware, path)
    assert ours.get(HEADER) == theirs.get(HEADER)
    assert ours.get(HEADER_REPORT_ONLY) == theirs.get(HEADER_REPORT_ONLY)


def test_the_api_docs_go_without_the_policy_as_the_settings_exclude_them() -> None:
    assert HEADER in through(CSPMiddleware, "/livez")
    assert HEADER not in through(CSPMiddleware, "/api/v1/docs")


def test_a_response_with_parts_of_its_own_gets_them() -> None:
    @csp_update({"img-src": ["https://example.org"]})
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")

    response = CSPMiddleware(view)(RequestFactory().get("/x"))
    assert "https://example.org" in response[HEADER]


def test_a_change_of_the_settings_is_not_hidden_by_the_kept_header() -> None:
    before = through(CSPMiddleware, "/livez")[HEADER]
    with override_settings(CONTENT_SECURITY_POLICY={"DIRECTIVES": {"default-src": ["'none'"]}}):
        assert through(CSPMiddleware, "/livez")[HEADER] == "default-src 'none'"
    assert through(CSPMiddleware, "/livez")[HEADER] == before


def test_a_nonce_asked_for_after_the_header_is_written_is_refused() -> None:
    from csp.exceptions import CSPNonceError

    request = RequestFactory().get("/livez")
    CSPMiddleware(lambda _r: HttpResponse("ok"))(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)  # type: ignore[attr-defined]
