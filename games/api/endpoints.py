"""The HTTP JSON API (django-ninja), mounted at ``/api/v1/``.

The websocket's twin (``docs/protocol.md``): the same services and selectors, the same
refusal codes, the same JSON for a game. Views only parse, call one service or selector and
answer; every rule lives in the services, every permission in ``games.access``.

Authentication, either of:

* ``Authorization: Bearer ft_…`` — a per-user API token (scripts, bots). Not ambient, so no
  CSRF token is needed.
* the site's session cookie — with Django's CSRF check on unsafe methods (``X-CSRFToken``).

Refusals all have the shape ``{"code": …, "reason": …}`` (plus e.g. ``version``); a client
mistake is never a 500.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from ninja import NinjaAPI, Path, Query
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.responses import Status

from games import selectors, services
from games.api import table_settings
from games.api.auth import AUTH, OPTIONAL_AUTH, api_caller, api_user, session_auth
from games.api.schemas import (
    ERRORS,
    MAX_ID,
    PLAY_ERRORS,
    AcceptedOut,
    ActionIn,
    BadText,
    DailyOut,
    DailyStartIn,
    ErrorOut,
    GameOut,
    GamePageOut,
    GuardedParser,
    HintOut,
    ResignOnlyIn,
    StartIn,
    TokenCreatedOut,
    TokenCreateIn,
    TokenOut,
)
from games.api.throttles import ApiThrottle
from games.errors import ServiceError
from games.messages import AcceptedMessage, HintMessage
from games.payloads import accepted_message
from games.refusal_words import refusal_sentence
from games.responses import retry_after_of, with_retry_after

DESCRIPTION = """\
Play the patience **Forty Thieves** over HTTP: the daily ranked deal and practice deals.

**Authentication.** Either an API token, `Authorization: Bearer ft_…` (create one with
`POST /tokens` while signed in to the site; it is shown once), or the site's session cookie
plus its CSRF token in `X-CSRFToken` on POST/DELETE.

**Errors.** Every refusal is `{"code": "…", "reason": "…"}` with a stable `code` and a
readable `reason`, sometimes with more fields (`version` with `stale_version`, `errors` with
`bad_field`). The codes are those of the websocket protocol.

**Hidden information.** No answer ever contains the stock's order, a face-down card, or —
before its day closes — a daily deal's code, seed or salt.
"""

api = NinjaAPI(
    title="Forty Thieves API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    auth=AUTH,
    throttle=[ApiThrottle()],
    parser=GuardedParser(),
)

# Errors -----------------------------------------------------------------------------------


def _error(request: HttpRequest, status: int, code: str, reason: str, **extra: Any) -> HttpResponse:
    response = api.create_response(
        request, {"code": code, "reason": reason, **extra}, status=status
    )
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="api"'  # RFC 9110: a 401 names a scheme
    return response


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    retry = max(1, int(exc.wait or 1))
    response = _error(
        request,
        429,
        "rate_limited",
        f"too many API calls; try again in {retry} s",
        retry_after=retry,
    )
    return with_retry_after(response, retry)


@api.exception_handler(ServiceError)
def _service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    # `message`: the refusal as the site says it, in the request's language (Accept-Language
    # or the account's); `reason` stays the English sentence scripts and logs read.
    message = refusal_sentence(err=exc)
    response = _error(request, exc.status, exc.code, exc.reason, message=message, **exc.extra)
    # A rate limit of the services (hints, practice starts) names its wait.
    return with_retry_after(response, retry_after_of(exc))


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """Pydantic's errors, told the protocol's way: ``missing_field``/``bad_field``, with a
    reason that names the field."""
    errors = [{"field": _field(e), "reason": _problem(e)} for e in exc.errors]
    missing = all(e.get("type") in _MISSING for e in exc.errors)
    code = "missing_field" if missing else "bad_field"
    reason = "; ".join(f"{e['field']}: {e['reason']}" for e in errors) or "invalid request"
    return _error(request, 422, code, reason, errors=errors)


def _field(error: dict[str, Any]) -> str:
    # ninja's locations are (source, parameter name, *pydantic's path), e.g.
    # ("body", "payload", "practice", "code"). The parameter name is ours, not the client's,
    # and pydantic puts the discriminator's value (the chosen union member) in the path.
    loc = [str(part) for part in error.get("loc", ())]
    source, rest = (loc[0], loc[1:]) if loc else ("body", [])
    if source == "body" and rest:
        rest = rest[1:]
        if rest and rest[0] in _UNION_TAGS:
            rest = rest[1:]
    if error.get("type") in ("union_tag_invalid", "union_tag_not_found"):
        rest = [*rest, str(error.get("ctx", {}).get("discriminator", "")).strip("'")]
    return ".".join([source, *rest]) if rest else source


def _problem(error: dict[str, Any]) -> str:
    if error.get("type") in _MISSING:
        return "this field is required"
    if error.get("type") == "extra_forbidden":
        return "no such field"
    message = str(error.get("msg", "invalid value"))
    # A validator's ValueError reads "Value error, <our text>": the prefix is noise.
    return message.removeprefix("Value error, ")


# A union's discriminator ("mode", "type") absent: pydantic's own kind of "missing".
_MISSING = {"missing", "union_tag_not_found"}
# The discriminator values pydantic inserts in error locations (see _field).
_UNION_TAGS = {"daily", "practice", "move", "undo", "resign"}

_HTTP_CODES = {400: "bad_request", 401: "not_authenticated", 403: "forbidden", 404: "not_found"}


@api.exception_handler(AuthenticationError)
def _not_authenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return _error(
        request,
        401,
        "not_authenticated",
        "sign in, or send an API token as 'Authorization: Bearer <token>'",
    )


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    # ninja's own refusals: an unreadable body (400) and a failed CSRF check (403).
    message = str(exc)
    if isinstance(exc.__cause__, BadText):  # a NUL or a lone surrogate in a JSON string
        return _error(request, 400, "bad_field", str(exc.__cause__))
    if exc.status_code == 400 and message.startswith("Cannot parse request body"):
        return _error(request, 400, "bad_json", "the request body is not valid JSON")
    if exc.status_code == 403 and "CSRF" in message:
        return _error(
            request,
            403,
            "csrf_failed",
            "CSRF check failed: with the session cookie, send the CSRF token in the "
            "X-CSRFToken header (or use an API token instead)",
        )
    return _error(request, exc.status_code, _HTTP_CODES.get(exc.status_code, "error"), message)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, 404, "not_found", str(exc) or "not found")


# Daily ------------------------------------------------------------------------------------


@api.get(
    "/daily",
    auth=None,
    response={200: DailyOut, 401: ErrorOut, 429: ErrorOut},
    tags=["daily"],
    summary="Today's daily deal",
    description=(
        "Today's (UTC) ranked deal: its commitment and when it opens and closes — never its "
        "code before the day closes. Public; signed in, `game` is your ranked game of it, "
        "if you have started one. `deal` is null until the day's deal has been opened."
    ),
    openapi_extra=OPTIONAL_AUTH,
)
def daily(request: HttpRequest) -> dict[str, Any]:
    return selectors.daily_summary(user=api_caller(request))


# Games ------------------------------------------------------------------------------------


@api.post(
    "/games",
    response={200: GameOut, 201: GameOut, 409: ErrorOut, **ERRORS},
    tags=["games"],
    summary="Start a game",
    description=(
        '`{"mode": "daily"}` starts your ranked game of today\'s deal — **201** when it '
        "is new, **200** with the same game when you had already started it (a ranked deal "
        'is played once). `{"mode": "practice"}` always starts a new practice game '
        "(**201**): of a deal `code`, of a daily `deal_id` (once you finished your ranked "
        "attempt or the day closed), or of a random deal of `variant` (default "
        "`forty-thieves`); with `winnable` (and `stars`, 1-5) a random deal the solver "
        "proved winnable, **404** `pool_empty` when none is ready. The answer is the "
        "game's full state."
    ),
)
def game_start(request: HttpRequest, payload: StartIn) -> Status:
    user = api_user(request)
    if isinstance(payload, DailyStartIn):
        asked_at = timezone.now()
        game = services.game_start_daily(user=user)
        # The service resumes an existing game; one created during this call is new.
        new = game.created_at >= asked_at
    else:
        game = services.game_start_practice(
            user=user,
            code=payload.code,
            variant=payload.variant,
            deal_id=payload.deal_id,
            winnable=payload.winnable,
            stars=payload.stars,
        )
        new = True
    return Status(201 if new else 200, selectors.game_state(user=user, game_id=game.pk))


@api.get(
    "/games",
    response={200: GamePageOut, **ERRORS},
    tags=["games"],
    summary="Your games",
    description=(
        "Your games, newest first, 20 a page. A page past the end answers the last page. "
        "A daily deal's `code` is null until its day closes."
    ),
)
def game_list(
    request: HttpRequest,
    page: Annotated[int, Query(ge=1, le=1_000_000, description="1-based")] = 1,
) -> dict[str, Any]:
    return selectors.game_list_for_player(user=api_user(request), page=page)


@api.get(
    "/games/{game_id}",
    auth=None,
    response={200: GameOut, **ERRORS},
    tags=["games"],
    summary="A game's state",
    description=(
        "The full visible state of a game (the websocket's `state`). Its player may always "
        "read it; so may anyone with the link of a practice game (no sign-in needed), and — "
        "for a daily deal whose day has not closed — only players who finished their own "
        "ranked attempt at it."
    ),
    openapi_extra=OPTIONAL_AUTH,
)
def game_detail(request: HttpRequest, game_id: UUID) -> dict[str, Any]:
    return selectors.game_state(user=api_caller(request), game_id=game_id)


@api.post(
    "/games/{game_id}/actions",
    response={200: AcceptedOut, **PLAY_ERRORS},
    tags=["games"],
    summary="Play a move, undo or resign",
    description=(
        'One action, as on the websocket: `{"type": "move", "move": "t3-f1", '
        '"id": "c17", "version": 16}`, `{"type": "undo"}` (practice only) or '
        '`{"type": "resign"}`. Answers the `accepted` message. Refusals: 422 '
        "`invalid_move` (not notation) / `illegal_move` (against the rules; the reason names "
        "the rule), 409 `stale_version` (with the server's `version`) / `game_over` / "
        "`day_closed` (a ranked game whose daily deal has closed), 403 "
        "`forbidden` (not your game, or undo in a ranked game)."
    ),
)
def game_act(request: HttpRequest, game_id: UUID, payload: ActionIn) -> AcceptedMessage:
    result = services.game_act(
        user=api_user(request),
        game_id=game_id,
        kind=payload.type,
        move=getattr(payload, "move", None),
        client_id=payload.id or "",
        version=payload.version,
    )
    return accepted_message(result, payload.id)


@api.post(
    "/games/{game_id}/resign",
    response={200: AcceptedOut, **PLAY_ERRORS},
    tags=["games"],
    summary="Resign a game",
    description=(
        "Shortcut for the `resign` action; the body (`id`, `version`) is optional. "
        "The game ends and counts as a loss."
    ),
)
def game_resign(
    request: HttpRequest, game_id: UUID, payload: ResignOnlyIn | None = None
) -> AcceptedMessage:
    client_id = payload.id if payload else ""
    result = services.game_act(
        user=api_user(request),
        game_id=game_id,
        kind="resign",
        client_id=client_id,
        version=payload.version if payload else None,
    )
    return accepted_message(result, client_id)


@api.post(
    "/games/{game_id}/hint",
    response={200: HintOut, **PLAY_ERRORS},
    tags=["games"],
    summary="Ask for a hint (practice games)",
    description=(
        "The next move of a winning line if the solver finds one in about a second, else its "
        "best guess; always a legal move, or null when there is none. Nothing is played. Each "
        "hint is counted on the game (`hints`). Refusals: 403 `forbidden` (not your game, or "
        "a ranked game: ranked games have no hints), 403 `day_open` (practice of a daily "
        "deal whose day has not closed), 409 `game_over`."
    ),
)
def game_hint(request: HttpRequest, game_id: UUID) -> HintMessage:
    result = services.game_hint(user=api_user(request), game_id=game_id)
    return HintMessage(
        type="hint", id=None, move=result.move, hints=result.hints, version=result.version
    )


# Tokens -----------------------------------------------------------------------------------


@api.post(
    "/tokens",
    # A token must not mint tokens: a leaked one could otherwise outlive its revocation.
    auth=session_auth,
    response={201: TokenCreatedOut, 409: ErrorOut, **ERRORS},
    tags=["tokens"],
    summary="Create an API token",
    description=(
        "Session sign-in only (with the CSRF token). The answer holds the token itself, "
        "shown this once: only its SHA-256 is stored. At most 20 tokens per user."
    ),
)
def token_create(request: HttpRequest, payload: TokenCreateIn) -> Status:
    token, raw = services.api_token_create(user=api_user(request), name=payload.name)
    return Status(201, {"id": token.pk, "name": token.name, "prefix": token.prefix, "token": raw})


@api.get(
    "/tokens",
    response={200: list[TokenOut], **ERRORS},
    tags=["tokens"],
    summary="Your API tokens",
    description="Your tokens, newest first, without their secrets (only their first characters).",
)
def token_list(request: HttpRequest) -> list[dict[str, Any]]:
    return selectors.api_token_list(user=api_user(request))


@api.delete(
    "/tokens/{token_id}",
    response={204: None, **ERRORS},
    tags=["tokens"],
    summary="Revoke an API token",
    description="The token stops working at once. Someone else's token id answers 404.",
)
def token_revoke(request: HttpRequest, token_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> Status:
    services.api_token_revoke(user=api_user(request), token_id=token_id)
    return Status(204, None)


# GET/PUT /settings: the table settings (games/api/table_settings.py).
api.add_router("", table_settings.router)

# The URLs are built by ftsite.api, once the other apps' routers are added (ninja takes
# no router after that).
