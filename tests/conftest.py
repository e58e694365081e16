"""Shared fixtures for the Django test suite."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import User


@pytest.fixture
def user(db: None) -> User:
    """An ordinary registered player."""
    model: type[User] = get_user_model()  # type: ignore[assignment]
    return model.objects.create_user(
        username="ada", email="ada@example.org", password="correct horse battery staple"
    )
