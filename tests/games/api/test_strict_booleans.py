"""The API's booleans take JSON ``true`` and ``false`` only (issue 37: pydantic's default
read ``"yes"``, ``"on"``, ``"1"``, ``1`` as true, ``{"auto_home": "yes"}`` saved true and
``"winnable": "yes"`` started from the pool), where the API promises 422 ``bad_field``."""

from __future__ import annotations

import json
import typing

import pytest
from pydantic import StrictBool

from games.api import schemas
from games.models import User

from ..conftest import Api, assert_refused

NOT_BOOLEANS = ["yes", "true", "on", "1", 1, 0, 1.0, [], {}]


def test_every_boolean_field_of_every_input_schema_is_strict() -> None:
    """Each field a client sends that is a boolean (found by walking the schemas, so a new
    one is checked too) refuses a string or a number."""
    found = []
    for schema in vars(schemas).values():
        if not (isinstance(schema, type) and issubclass(schema, schemas.StrictIn)):
            continue
        for name, field in schema.model_fields.items():
            kinds = typing.get_args(field.annotation) or (field.annotation,)
            if bool in kinds or StrictBool in kinds:
                found.append(f"{schema.__name__}.{name}")
                for value in NOT_BOOLEANS:
                    with pytest.raises(ValueError):
                        schema.model_validate({**_required(schema), name: value})
    assert {"PracticeStartIn.winnable", "TableSettingsIn.auto_home"} <= set(found)


def _required(schema: type[schemas.StrictIn]) -> dict[str, object]:
    """The fields a schema needs (its discriminator), so only the boolean is at fault."""
    tags = {"mode": "practice", "type": "move", "move": "s"}
    return {n: tags[n] for n, f in schema.model_fields.items() if f.is_required() and n in tags}


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_a_start_refuses_winnable_that_is_not_true_or_false(ada: Api, value: object) -> None:
    refusal = assert_refused(
        ada.post("/games", {"mode": "practice", "winnable": value}), 422, "bad_field"
    )
    assert refusal["reason"].startswith("body.winnable")


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_the_settings_refuse_auto_home_that_is_not_true_or_false(
    ada: Api, user: User, value: object
) -> None:
    response = ada.client.put(
        "/api/v1/settings",
        json.dumps({"auto_home": value}),
        content_type="application/json",
        headers=ada.headers,
    )
    refusal = assert_refused(response, 422, "bad_field")
    assert refusal["reason"].startswith("body.auto_home")
    user.refresh_from_db()
    assert user.table_settings == {}


@pytest.mark.parametrize("value", [True, False])
def test_the_settings_take_true_and_false(ada: Api, value: bool) -> None:
    response = ada.client.put(
        "/api/v1/settings",
        json.dumps({"auto_home": value}),
        content_type="application/json",
        headers=ada.headers,
    )
    assert response.status_code == 200 and response.json()["auto_home"] is value
