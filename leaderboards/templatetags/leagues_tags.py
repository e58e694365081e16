"""Template tags of leagues: the home page's summary, read where it is shown so the home
view (in ``games``, which must not import ``leaderboards``) needs no change."""

from __future__ import annotations

from typing import Any

from django import template

from leaderboards.leagues.selectors import HomeLeague, leagues_for_home

register = template.Library()


@register.simple_tag(takes_context=True)
def home_leagues(context: dict[str, Any]) -> list[HomeLeague]:
    """The signed-in player's leagues with their place on each league's board today."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return leagues_for_home(user=user if user is not None and user.is_authenticated else None)
