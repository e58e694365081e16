"""The privacy models live in ``games/privacy/models.py`` yet stay the games app's own: the
same tables, no migration, and every ``from games.models import ...`` still answered."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

import games.models
import games.privacy.models

PRIVACY_MODELS = ["Sighting", "DeletedAccount", "DeletedSighting", "DeletedPlay"]


@pytest.mark.parametrize("name", PRIVACY_MODELS)
def test_games_models_still_answers_for_a_privacy_model(name: str) -> None:
    model = getattr(games.models, name)
    assert model is getattr(games.privacy.models, name)
    assert model._meta.app_label == "games"
    assert model._meta.db_table == f"games_{name.lower()}"


@pytest.mark.django_db
def test_the_models_need_no_migration_that_is_not_written() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:
        pytest.fail(f"the models differ from the migrations:\n{out.getvalue()}")
