"""The home page's picture of today's board (leaderboards.home), read where it is shown."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from games.daily import utc_today
from leaderboards.home import HomeToday, home_today

register = template.Library()


@register.simple_tag(takes_context=True)
def today_board(context: dict[str, Any]) -> HomeToday:
    request = context.get("request")
    return home_today(user=getattr(request, "user", None), today=utc_today(timezone.now()))
