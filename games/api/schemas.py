"""Request and response schemas of the JSON API (``games.api.endpoints``).

Response schemas mirror what the selectors and services already build (``games.payloads``,
``games.selectors``): the API validates and documents those dicts, it does not reshape them,
so the JSON here is the same as the websocket's. Timestamps stay the ISO strings the
payloads produce (``+00:00``), rather than pydantic's re-rendering (``Z``), for the same reason.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Field, Schema
from ninja.parser import Parser
from pydantic import ConfigDict, StrictBool, model_validator

from games.input_guard import json_problem

# Upper bounds keep absurd numbers away from the database (SQLite overflows past 2**63).
MAX_ID = 2**63 - 1
MAX_VERSION = 2**31 - 1

DateTimeText = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
DateText = Annotated[str, Field(json_schema_extra={"format": "date"})]


class StrictIn(Schema):
    """Inputs refuse unknown fields: a typo ("cod") should not be silently ignored. Their
    booleans are ``StrictBool``: only JSON ``true`` and ``false`` (pydantic's default took
    ``"yes"``, ``"on"``, ``1`` for true), else 422 ``bad_field``."""

    model_config = ConfigDict(extra="forbid")


# Errors ----------------------------------------------------------------------------------


class FieldErrorOut(Schema):
    field: str = Field(description="Where the problem is, e.g. `body.move` or `path.game_id`.")
    reason: str


class ErrorOut(Schema):
    """Every refusal: a stable `code`, a readable `reason`, sometimes more fields."""

    model_config = ConfigDict(extra="allow")

    code: str = Field(
        description=(
            "Stable: not_authenticated, csrf_failed, forbidden, not_found, bad_request, "
            "bad_json, missing_field, bad_field, invalid_move, illegal_move, stale_version, "
            "game_over, day_closed, conflict."
        ),
        examples=["illegal_move"],
    )
    reason: str = Field(description="For people, in English; may change.")
    message: str | None = Field(
        None,
        description="With a refusal of the game's services: the same refusal as the site "
        "words it, in the request's language (Accept-Language, or the signed-in account's); "
        "the English `reason` where the site has no sentence of its own for it.",
        examples=[
            "De klaverenheer kan niet op de ruiten 5: een kolom bouwt aflopend in dezelfde kleur."
        ],
    )
    version: int | None = Field(None, description="With `stale_version`: the server's version.")
    rule: str | None = Field(
        None,
        description="With `illegal_move` (and some `invalid_move`): the rule that refused it, "
        "stable (e.g. `foundation_suit`, `build`, `space_kings`); see docs/protocol.md.",
        examples=["foundation_suit"],
    )
    params: dict[str, Any] | None = Field(
        None,
        description='With `rule`: its parameters, e.g. `{"card": "7H", "foundation": '
        '{"kind": "foundation", "n": 1, "suit": "S"}}`.',
    )
    errors: list[FieldErrorOut] | None = Field(
        None, description="With `missing_field`/`bad_field`: every field at fault."
    )


# Deals and games -------------------------------------------------------------------------


class DealOut(Schema):
    id: int
    kind: Literal["daily", "practice", "weekly", "duel"]
    variant: str
    day: DateText | None = Field(description="UTC day of a daily deal.")
    code: str | None = Field(description="Null for a daily deal until the day closes.")
    commitment: str | None = Field(description="SHA-256 commitment to a daily deal's code.")
    salt: str | None = Field(description="The commitment's salt, once a daily deal closed.")
    opens_at: DateTimeText | None
    closes_at: DateTimeText | None
    closed: bool
    difficulty: int | None = Field(
        None,
        description="The solver's rating: 1 (easy) to 5 stars, 0 when it found no win within "
        "its budget, null when not rated yet.",
    )
    difficulty_stars: str | None = Field(None, description="The rating as stars, e.g. `★★★☆☆`.")
    has_solution: bool = Field(
        False,
        description="A daily deal's winning line may be replayed (only once its day closed).",
    )


class ColumnOut(Schema):
    down: int = Field(description="How many cards lie face down (never which).")
    cards: list[str] = Field(description="Face-up cards, bottom first, e.g. `KS`, `TH`.")


class FoundationOut(Schema):
    suit: str
    count: int
    top: str | None


class BoardOut(Schema):
    """The engine's player view: the stock's order and face-down cards are never sent."""

    model_config = ConfigDict(extra="allow")

    variant: str
    columns: list[ColumnOut]
    foundations: list[FoundationOut]
    waste: list[str] = Field(description="The whole waste, bottom first.")
    stock: int = Field(description="Cards left in the stock (a count only).")
    redeals_left: int
    score: int
    moves: int
    won: bool
    stuck: bool
    can_undo: bool


GameStatus = Literal["active", "won", "lost", "resigned"]


class GameOut(Schema):
    """A game's full visible state (the websocket's `state.game`)."""

    id: str = Field(json_schema_extra={"format": "uuid"})
    player: str
    mode: Literal["ranked", "practice", "archive", "duel", "arena"]
    status: GameStatus
    version: int = Field(description="Accepted actions so far; send it back to detect staleness.")
    score: int
    moves: int
    auto_home: bool = Field(
        False,
        description="Started with safe cards sent home: after each move the server plays the "
        "safe home moves itself (see `automatic` on `accepted`).",
    )
    deal: DealOut
    board: BoardOut
    legal_moves: list[str]
    can_undo: bool
    can_finish: bool = Field(
        False,
        description="True when every card left can go home by foundation moves alone, with "
        "no choice to make (the stock empty, nothing face down): the board offers to finish.",
    )
    hints: int = Field(0, description="Hints taken (practice games only).")
    dead_end: bool = Field(
        False,
        description="True once the solver proved that no win is possible any more (the stock "
        "is spent and no redeal is left); the game may then be resigned.",
    )
    started_at: DateTimeText | None
    first_action_at: DateTimeText | None
    finished_at: DateTimeText | None


class GameSummaryOut(Schema):
    id: str = Field(json_schema_extra={"format": "uuid"})
    mode: Literal["ranked", "practice", "archive", "duel", "arena"]
    status: GameStatus
    score: int
    moves: int
    variant: str
    day: DateText | None
    code: str | None = Field(description="Null while the deal is a secret daily deal.")
    started_at: DateTimeText
    finished_at: DateTimeText | None


class GamePageOut(Schema):
    page: int
    pages: int
    count: int
    games: list[GameSummaryOut]


class DailyGameOut(Schema):
    id: str = Field(json_schema_extra={"format": "uuid"})
    status: GameStatus
    score: int
    moves: int


class DailyOut(Schema):
    date: DateText = Field(description="Today (UTC).")
    deal: DealOut | None = Field(description="Null until today's deal has been opened.")
    game: DailyGameOut | None = Field(
        description="Your ranked game of today's deal; null if you have not started it "
        "(or are not signed in)."
    )


# Starting a game -------------------------------------------------------------------------


class DailyStartIn(StrictIn):
    mode: Literal["daily"]


class PracticeStartIn(StrictIn):
    mode: Literal["practice"]
    code: str | None = Field(None, max_length=64, examples=["FT1-N-0000007"])
    variant: str | None = Field(None, max_length=60, examples=["josephine"])
    deal_id: int | None = Field(
        None, ge=1, le=MAX_ID, description="A daily deal you finished, or one that closed."
    )
    winnable: StrictBool = Field(
        False, description="A random deal the solver proved winnable (practice pool)."
    )
    stars: int | None = Field(
        None, ge=1, le=5, description="A proven deal of this difficulty (1-5 stars)."
    )

    @model_validator(mode="after")
    def _one_source(self) -> PracticeStartIn:
        # The service only guards code+deal_id; say so here for every pair.
        given = [n for n in ("code", "variant", "deal_id") if getattr(self, n) is not None]
        if len(given) > 1:
            raise ValueError(f"give at most one of code, variant and deal_id, not {given}")
        if (self.winnable or self.stars is not None) and (self.code or self.deal_id):
            raise ValueError("winnable and stars choose a random deal: give no code or deal_id")
        return self


StartIn = Annotated[DailyStartIn | PracticeStartIn, Field(discriminator="mode")]


# Actions ---------------------------------------------------------------------------------


class _ActionFields(StrictIn):
    id: str = Field(
        "",
        max_length=64,
        description="Client message id, unique per game: a retried request with the same id "
        "is answered again (`duplicate: true`) but never applied twice.",
        examples=["c17"],
    )
    version: int | None = Field(
        None,
        ge=0,
        le=MAX_VERSION,
        description="The version you believe the game is at; a mismatch is refused (409).",
    )


class MoveIn(_ActionFields):
    type: Literal["move"]
    move: str = Field(max_length=16, description="Engine notation: s, r, w-t10, t3-f1, t3-t5x3.")


class UndoIn(_ActionFields):
    type: Literal["undo"]


class ResignIn(_ActionFields):
    type: Literal["resign"]


ActionIn = Annotated[MoveIn | UndoIn | ResignIn, Field(discriminator="type")]


class ResignOnlyIn(_ActionFields):
    """Body of the resign shortcut; every field is optional."""


class AcceptedOut(Schema):
    """The websocket's `accepted` message, field for field."""

    type: Literal["accepted"] = "accepted"
    id: str | None = Field(description="Your message id, echoed; null if you sent none.")
    version: int
    action: str = Field(description="The action in canonical notation, `undo` or `resign`.")
    automatic: list[str] = Field(
        default_factory=list,
        description="In a game started with safe cards sent home: the server's own safe home "
        "moves played after this move (on an undo, the take-backs of them before it), in "
        "order; `version` counts each. Empty otherwise.",
    )
    changes: dict[str, Any] = Field(
        description="The parts of the board that changed, each whole; `columns` and "
        "`foundations` keyed by 0-based index; plus `legal_moves` and `can_finish`. Empty "
        "when `duplicate`."
    )
    score: int
    moves: int
    status: GameStatus
    duplicate: bool


class TableSettingsIn(StrictIn):
    """Any of the four; the others keep their stored values."""

    size: Literal["small", "medium", "large"] | None = Field(None, description="Card size.")
    back: Literal["blue", "red", "green", "lattice"] | None = Field(None, description="Card back.")
    auto_home: StrictBool | None = Field(
        None,
        description="Send safe cards home after each move, in games started from now on.",
    )
    tap: Literal["best", "home"] | None = Field(
        None,
        description="What a tap on a card does on the site's table: `best`, home if it can go "
        "home, else the best column that takes it; `home`, home only (a double-tap places it).",
    )


class TableSettingsOut(Schema):
    size: Literal["small", "medium", "large"]
    back: Literal["blue", "red", "green", "lattice"]
    auto_home: bool
    tap: Literal["best", "home"]


class HintOut(Schema):
    """The websocket's `hint` message."""

    type: Literal["hint"] = "hint"
    id: str | None = Field(None, description="Your message id, echoed; null if you sent none.")
    move: str | None = Field(
        description="A legal move in the notation (the next move of a winning line when the "
        "solver found one in time, else its best guess); null when there is no move."
    )
    hints: int = Field(description="Hints taken in this game so far, this one included.")
    version: int = Field(description="The game version the hint is for.")


# API tokens ------------------------------------------------------------------------------


class TokenCreateIn(StrictIn):
    name: str = Field("", max_length=60, description="A label to tell your tokens apart.")


class TokenOut(Schema):
    id: int
    name: str
    prefix: str = Field(description="The token's first characters (the rest is not stored).")
    created_at: DateTimeText
    last_used_at: DateTimeText | None = Field(description="Updated at most once a minute.")


class TokenCreatedOut(Schema):
    id: int
    name: str
    prefix: str
    token: str = Field(description="The token itself. Shown only this once: store it now.")


class BadText(ValueError):
    """A JSON body holding a string no field may store (the API answers ``bad_field``)."""


class GuardedParser(Parser):
    """The JSON API's parser: ninja's, refusing a body with a string no field may store.
    ninja wraps whatever this raises as "Cannot parse request body"; the API's handler
    finds the :class:`BadText` behind it and names the field."""

    def parse_body(self, request: HttpRequest) -> Any:
        data = json.loads(request.body)
        problem = json_problem(data)
        if problem:
            raise BadText(problem)
        return data


# 429 rate_limited (with retry_after and a Retry-After header) may answer any operation.
ERRORS = {
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    422: ErrorOut,
    429: ErrorOut,
}
PLAY_ERRORS = {**ERRORS, 409: ErrorOut}
