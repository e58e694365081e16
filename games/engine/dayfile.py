"""A published day file, checked by anyone: ``python -m games.engine verify-day FILE``.

After a daily deal (or a weekly challenge) closes, the site publishes its ranked games as
one JSON file (``/boards/daily/<date>/games.json``, ``/boards/weekly/<yyyy-Www>/games.json``;
the schema is in ``docs/protocol.md``, "Day files"). :func:`verify_day` re-checks it with
nothing but the engine, through the same functions the site's own verification uses
(:mod:`games.engine.audit`, :mod:`games.engine.ranking`):

- the commitment published when the deal opened is SHA-256 of ``<code>:<salt>``;
- every game replays from the deal through its logged moves and ends as it claims
  (status, score, move count; won or not);
- its time is its own stamps' (first action to finish), and so is its finish;
- no player action is stamped outside the deal's opening hours, and the only server
  action is the resign at the close, stamped with the close;
- the ranks follow the board's order of those recomputed results (equal results share a
  rank, "1, 1, 3"), disqualified games unranked.

Each disagreement is reported where it is (which game, which action, what the file says and
what the replay gives); a file that cannot be read as a day file raises :class:`DayFileError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from .audit import (
    Claim,
    Logged,
    Rejected,
    Stamped,
    close_violation,
    duration_ms,
    replay_claim,
)
from .deal import commitment, parse_code
from .errors import EngineError
from .ranking import board_order, competition_ranks, sort_key, tie_floor

FORMAT = "forty-thieves-day"
VERSION = 1
#: How a server action is marked in a game's ``actions`` (the third element).
SERVER = "server"
DISQUALIFIED = "disqualified"
STATUSES = ("won", "lost", "resigned")


class DayFileError(ValueError):
    """The input is not a day file this checker reads (shape, types, version)."""


@dataclass(frozen=True)
class Checked:
    """One game as the file claims it, with what the replay and the stamps recompute."""

    index: int
    label: str
    rank: int | None
    result: int
    disqualified: bool
    won: bool
    score: int
    moves: int
    time_ms: int
    finished_ms: int


@dataclass(frozen=True)
class Report:
    """What :func:`verify_day` found: ``problems`` is empty when the file checks clean."""

    kind: str
    day: str
    variant: str
    games: int
    problems: list[str]

    @property
    def clean(self) -> bool:
        return not self.problems


def verify_day(data: Any) -> Report:
    """Check a parsed day file; see the module's docstring for what is checked."""
    head = _head(data)
    problems: list[str] = []
    expected = _commitment_of(head["code"], head["salt"], problems)
    if expected is not None and expected != head["commitment"]:
        problems.append(
            f"the commitment does not match: SHA-256 of code:salt is {expected},"
            f" the file says {head['commitment']}"
        )
    try:
        rules, seed = parse_code(head["code"])
    except EngineError as err:
        raise DayFileError(f"code {head['code']!r}: {err}") from None
    if rules.spec != head["variant"]:
        problems.append(f"the code is a {rules.spec} deal, the file says {head['variant']}")
    opens_at, closes_at = _time(head, "opens_at"), _time(head, "closes_at")
    checked = [
        _check_game(index, game, seed, rules.spec, opens_at, closes_at, problems)
        for index, game in enumerate(head["games"], start=1)
    ]
    problems.extend(_order_problems(checked))
    return Report(head["kind"], head["day"], head["variant"], len(checked), problems)


def _head(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise DayFileError("a day file is a JSON object")
    if data.get("format") != FORMAT:
        raise DayFileError(f"not a day file: 'format' is {data.get('format')!r}, not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise DayFileError(
            f"day file version {data.get('version')!r}; this checker reads version {VERSION}"
        )
    for name in ("kind", "day", "variant", "code", "salt", "commitment"):
        if not isinstance(data.get(name), str):
            raise DayFileError(f"'{name}' is missing or not text")
    if not isinstance(data.get("games"), list):
        raise DayFileError("'games' is missing or not a list")
    return data


def _commitment_of(code: str, salt: str, problems: list[str]) -> str | None:
    try:
        return commitment(code, salt)
    except EngineError as err:
        problems.append(f"the commitment cannot be recomputed: {err}")
        return None


def _time(fields: Mapping[str, Any], name: str, where: str = "") -> datetime:
    text = fields.get(name)
    try:
        at = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise DayFileError(
            f"{where}'{name}' is {text!r}; expected an ISO 8601 time in UTC such as"
            " 2026-12-01T13:04:05.120Z"
        )
    return at.astimezone(UTC)


def _field(game: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    value = game.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DayFileError(f"{where}'{name}' is {value!r}; expected {kind.__name__}")
    return value


def _stamped(game: Mapping[str, Any], where: str) -> list[Stamped]:
    """The game's actions as the log had them: ``[move, ms after started_at]``, and a
    third element ``"server"`` for the server's own action."""
    started = _time(game, "started_at", where)
    actions = game.get("actions")
    if not isinstance(actions, list) or not actions:
        raise DayFileError(f"{where}'actions' is missing or empty")
    out = []
    for seq, action in enumerate(actions, start=1):
        ok = (
            isinstance(action, list)
            and len(action) in (2, 3)
            and isinstance(action[0], str)
            and isinstance(action[1], int)
            and not isinstance(action[1], bool)
            and (len(action) == 2 or action[2] == SERVER)
        )
        if not ok:
            raise DayFileError(
                f"{where}action {seq} is {action!r}; expected [move, milliseconds] or"
                f' [move, milliseconds, "{SERVER}"]'
            )
        at = started + timedelta(milliseconds=action[1])
        out.append(Stamped(seq, action[0], at, len(action) == 3))
    return out


def _check_game(
    index: int,
    game: Any,
    seed: int,
    variant: str,
    opens_at: datetime,
    closes_at: datetime,
    problems: list[str],
) -> Checked:
    if not isinstance(game, Mapping):
        raise DayFileError(f"game {index} is not an object")
    result = _field(game, "result", int, f"game {index}: ")
    label = f"game {index} (result {result}, {game.get('player')!s})"
    where = f"{label}: "
    status = _field(game, "status", str, where)
    score, moves = _field(game, "score", int, where), _field(game, "moves", int, where)
    time_ms, won = _field(game, "time_ms", int, where), _field(game, "won", bool, where)
    rank = game.get("rank")
    if rank is not None and (not isinstance(rank, int) or isinstance(rank, bool)):
        raise DayFileError(f"{where}'rank' is {rank!r}; expected a whole number or null")
    finished = _time(game, "finished_at", where)
    stamped = _stamped(game, where)
    mine: list[str] = []
    if status not in STATUSES:
        mine.append(f"status {status!r} is none of {', '.join(STATUSES)}")
    if stamped[0].at != _time(game, "started_at", where):
        mine.append("the first action is not at 0 ms (started_at is the first action's stamp)")
    auto_home = game.get("auto_home", False)  # absent in files written before the option
    if not isinstance(auto_home, bool):
        raise DayFileError(f"{where}'auto_home' is {auto_home!r}; expected true or false")
    claim = Claim(
        seed=seed,
        variant=variant,
        undo_limit=0,
        status=status,
        score=score,
        moves=moves,
        auto_home=auto_home,
    )
    log = [Logged(a.seq, a.move, None, a.by_system) for a in stamped]
    try:
        engine = replay_claim(claim, log)
        true_score, true_moves, true_won = engine.score, engine.moves, engine.is_won()
    except Rejected as rejected:
        mine.append(rejected.reason)
        true_score, true_moves, true_won = score, moves, won
    if won != (status == "won"):
        mine.append(f"'won' is {won} for status {status!r}")
    true_time = duration_ms(stamped[0].at, stamped[-1].at)
    if time_ms != true_time:
        mine.append(f"the time is {time_ms} ms; the stamps give {true_time} ms (first to last)")
    if finished != stamped[-1].at:
        mine.append(f"finished_at is {iso(finished)}; the last action is at {iso(stamped[-1].at)}")
    late = close_violation(stamped, closes_at=closes_at, auto_home=auto_home)
    if late is not None:
        mine.append(late)
    early = next((a for a in stamped if a.at < opens_at), None)
    if early is not None:
        mine.append(f"action {early.seq} ({early.move!r}) is stamped before the deal opened")
    problems.extend(where + text for text in mine)
    return Checked(
        index=index,
        label=label,
        rank=rank,
        result=result,
        disqualified=game.get("review") == DISQUALIFIED,
        won=true_won,
        score=true_score,
        moves=true_moves,
        time_ms=true_time,
        finished_ms=int(stamped[-1].at.timestamp() * 1000),
    )


def _order_problems(games: Sequence[Checked]) -> list[str]:
    """The ranks the file gives against the board's order of the recomputed results."""
    problems = [
        f"{g.label} is disqualified but ranked {g.rank}"
        for g in games
        if g.disqualified and g.rank is not None
    ]
    problems += [
        f"{g.label} has no rank but is not marked disqualified"
        for g in games
        if not g.disqualified and g.rank is None
    ]
    ranked = [g for g in games if not g.disqualified]
    order = sorted(
        ranked,
        key=lambda g: board_order(
            won=g.won,
            score=g.score,
            moves=g.moves,
            duration_ms=g.time_ms,
            finished_ms=g.finished_ms,
            result_id=g.result,
        ),
    )
    ties = [
        tie_floor(sort_key(won=g.won, score=g.score, moves=g.moves, duration_ms=g.time_ms))
        for g in order
    ]
    for game, rank in zip(order, competition_ranks(ties), strict=True):
        if game.rank is not None and game.rank != rank:
            problems.append(
                f"{game.label} is ranked {game.rank}; by the board's order (won, score, fewer"
                f" moves, less time in whole seconds; equal results share a rank) it is {rank}"
            )
    return problems


def iso(at: datetime) -> str:
    """A stamp as day files write it: UTC, milliseconds, ``Z``.

    >>> iso(datetime(2026, 12, 1, 13, 4, 5, 120000, tzinfo=UTC))
    '2026-12-01T13:04:05.120Z'
    """
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
