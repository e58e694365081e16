"""The leaderboards' operations of the JSON API: a player's skill rating
(``GET /api/v1/players/{username}``). Mounted on ``games.api``'s one NinjaAPI by
``ftsite.api`` (games never imports leaderboards), so it shares the API's authentication,
its throttle (``ApiThrottle``: ``FT_RATE_API_USER`` / ``FT_RATE_API_ANONYMOUS``, 429
``rate_limited``) and its refusals (404 ``not_found``)."""

from __future__ import annotations

from typing import Annotated, Any

from django.http import Http404, HttpRequest
from ninja import Field, Path, Router, Schema

from games.api.auth import OPTIONAL_AUTH, api_caller
from games.api.schemas import ErrorOut
from games.models import User
from leaderboards.rating.selectors import rating_of

router = Router(tags=["players"])

#: Django's usernames are at most 150 characters: a longer one names nobody.
USERNAME_MAX = 150


class RatingOut(Schema):
    value: int = Field(description="The shown rating: 40 x (mu - 3 sigma) + 1000.")
    uncertainty: int = Field(description="One sigma on the same scale (the page's ±).")
    provisional: bool = Field(description="Until 10 rated deals and sigma below 5.")
    matches: int = Field(description="Rated deals played.")
    mu: float
    sigma: float


class PlayerOut(Schema):
    username: str
    name: str = Field(description="The name the boards show.")
    rating: RatingOut | None = Field(description="null before the first rated deal.")


@router.get(
    "/players/{username}",
    auth=None,
    response={200: PlayerOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    summary="A player's skill rating",
    description=(
        "Public, as the scorecard is: the player's shown name and skill rating "
        "(docs/ratings.md), or `rating: null` before their first rated deal. An unknown, "
        "inactive or guest username answers 404 `not_found`."
    ),
    openapi_extra=OPTIONAL_AUTH,
)
def player_detail(
    request: HttpRequest, username: Annotated[str, Path(max_length=USERNAME_MAX)]
) -> dict[str, Any]:
    api_caller(request)  # a token, when sent, must be good (401), as on every public read
    player = (
        User.objects.filter(username=username, is_active=True, is_guest=False)
        .only(*User.PUBLIC_NAME_FIELDS)
        .first()
    )
    if player is None:
        raise Http404("there is no such player")
    shown = rating_of(user_id=player.pk)
    rating = None if shown is None else shown.__dict__
    return {"username": player.get_username(), "name": player.public_name, "rating": rating}
