"""django-csp's middleware with the site's policy built once a process.

django-csp builds the header from the settings for every response, the enforced policy and
the report-only one alike (two ``build_policy`` calls, each over ``dataclasses.asdict`` of
its parts): a fifth of what the whole middleware stack cost a trivial page (cProfile of
``/livez`` through the WSGI handler, docs/benchmarks.md "Pages at the proxy's pace"). The
site's policy has no nonce and no view changes it, so the two strings are the same on
every response: built once, kept until a test changes the settings. A response or request
that does bring its own parts (a ``csp_update``/``csp_replace``/``csp_exempt`` decorator,
a nonce asked for) goes through django-csp's own path, unchanged.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest
from django.http.response import HttpResponseBase

#: What a decorator puts on a response for a policy of its own.
_OWN_PARTS = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)


@cache
def _site_policies() -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
    """The enforced and the report-only headers, and each one's excluded path prefixes."""
    enforced = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
    report_only = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None) or {}
    return (
        build_policy(),
        build_policy(report_only=True),
        tuple(enforced.get("EXCLUDE_URL_PREFIXES", None) or ()),
        tuple(report_only.get("EXCLUDE_URL_PREFIXES", None) or ()),
    )


def _forget(*, setting: str, **_kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _site_policies.cache_clear()


setting_changed.connect(_forget)


class CSPMiddleware(DjangoCSPMiddleware):
    """django-csp's, with the site's own headers built once (see the module)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _OWN_PARTS
        ):
            return super().process_response(request, response)
        if settings.DEBUG and response.status_code in (500, 404):
            return response  # Django's debug pages, as django-csp leaves them
        policy, policy_ro, excluded, excluded_ro = _site_policies()
        path = request.path_info
        exempt = getattr(response, "_csp_exempt", False)
        if policy and HEADER not in response and not exempt and not path.startswith(excluded):
            response[HEADER] = policy
        exempt_ro = getattr(response, "_csp_exempt_ro", False)
        wanted_ro = HEADER_REPORT_ONLY not in response and not exempt_ro
        if policy_ro and wanted_ro and not path.startswith(excluded_ro):
            response[HEADER_REPORT_ONLY] = policy_ro
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
