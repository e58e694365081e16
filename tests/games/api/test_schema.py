"""The HTTP JSON API's description: the OpenAPI schema lists every operation with a summary
and the shared error shape, the interactive docs are served, and Schemathesis fuzzing of
every read operation, signed in and anonymous, never causes a server error.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ..conftest import API, token_for

pytestmark = pytest.mark.django_db


def test_the_openapi_schema_lists_every_operation_with_summaries_and_error_shapes() -> None:
    schema = Client().get(f"{API}/openapi.json").json()
    assert schema["info"]["title"] == "Forty Thieves API" and schema["info"]["version"] == "1"
    assert set(schema["paths"]) == {
        f"{API}/daily",
        f"{API}/games",
        f"{API}/games/{{game_id}}",
        f"{API}/games/{{game_id}}/actions",
        f"{API}/games/{{game_id}}/hint",
        f"{API}/games/{{game_id}}/resign",
        f"{API}/players/{{username}}",
        f"{API}/settings",
        f"{API}/tokens",
        f"{API}/tokens/{{token_id}}",
    }
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            assert operation["summary"] and operation["description"] and operation["tags"], where
            assert any(s.startswith("2") for s in operation["responses"]), where
            errors = [r for s, r in operation["responses"].items() if s.startswith("4")]
            assert errors, where
            for response in errors:
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorOut"), where
    assert set(schema["components"]["securitySchemes"]) == {"TokenAuth", "SessionAuth"}
    assert {} in schema["paths"][f"{API}/daily"]["get"]["security"]


def test_the_interactive_docs_are_served() -> None:
    response = Client().get(f"{API}/docs")
    assert response.status_code == 200 and b"openapi.json" in response.content


def test_fuzzing_the_read_operations_never_causes_a_server_error(user, practice) -> None:
    """Schemathesis, in-process over WSGI: valid and invalid inputs to every GET, signed in
    and anonymous, answer anything but a 5xx."""
    schemathesis = pytest.importorskip("schemathesis")
    from django.core.wsgi import get_wsgi_application
    from hypothesis.errors import Unsatisfiable
    from schemathesis.checks import not_a_server_error

    schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", get_wsgi_application())
    callers = [{"Authorization": f"Bearer {token_for(user, 'fuzz')}"}, {}]
    runs = []
    for result in schema.include(method="GET").get_all_operations():
        operation = result.ok()
        for mode in schemathesis.GenerationMode:
            runs += [(operation.as_strategy(mode), mode, headers) for headers in callers]
        if "{game_id}" in operation.path:  # also the real game, not only unknown ids
            fixed = operation.as_strategy(path_parameters={"game_id": practice["id"]})
            runs += [(fixed, schemathesis.GenerationMode.POSITIVE, h) for h in callers]
    assert len(runs) == 6 * 4 + 2  # six GET operations (players/{username} the sixth)

    for strategy, mode, headers in runs:
        try:
            _no_server_error(strategy, headers, not_a_server_error)()
        except Unsatisfiable:
            # An operation without parameters (GET /daily) has no invalid input to make.
            assert mode == schemathesis.GenerationMode.NEGATIVE


def _no_server_error(strategy: Any, headers: dict[str, str], check: Any) -> Any:
    """A Hypothesis test calling the app with each case of ``strategy``."""
    from hypothesis import HealthCheck, given, settings

    @settings(
        max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        case.call_and_validate(checks=[check], headers=headers)

    return run
