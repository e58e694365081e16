"""Reads for the replay viewer: a finished, verified game, step by step.

The frames are built from ``GameState.view()`` only, which leaves out the stock's
order and face-down cards, so a replay can never show a card before the step
that turns it. Only a verified log is replayed: a pending or rejected claim is
not something to show as a game. The post-game analysis (``games.services.analysis``) is
shown with the replay, once asked for: :func:`analysis_frames`.

Who may replay (the issue leaves the owner's case open; decided here):
``access_game(purpose="watch")`` first, then a game of a daily deal that has
not closed yet only by its own player. The owner has seen every card of their
finished game already, while anyone else could learn the deal from it, even a
player who finished their own attempt (they could practise the deal, then
replay someone's better line before the day ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games.access import access_replay, is_self
from games.display import variant_title
from games.engine import RESIGN, UNDO, EngineError, GameState
from games.engine.cards import SUITS
from games.errors import NotFound
from games.logs import game_log
from games.models import Deal, Game, GameAnalysis, User
from games.payloads import board_changes
from leaderboards.models import Result
from leaderboards.share import VerificationPending

_SUIT_SYMBOLS = dict(zip(SUITS, "♠♥♦♣", strict=True))
# The words of the ranks and suits, marked so makemessages extracts them: the engine's own
# names are plain text (it knows no Django), and ``_(name)`` of an unextracted name stays
# English in every language.
_RANK_WORDS = {
    "A": gettext_noop("ace"),
    "T": "10",
    "J": gettext_noop("jack"),
    "Q": gettext_noop("queen"),
    "K": gettext_noop("king"),
}
_SUIT_WORDS = {
    "S": gettext_noop("spades"),
    "H": gettext_noop("hearts"),
    "D": gettext_noop("diamonds"),
    "C": gettext_noop("clubs"),
}


def card_label(code: str) -> str:
    """``KS`` as ``K♠`` and ``TH`` as ``10♥``, as the board shows them.

    >>> card_label("KS"), card_label("TH")
    ('K♠', '10♥')
    """
    rank, suit = code[0], code[1]
    text = "10" if rank == "T" else rank
    return f"{text}{_SUIT_SYMBOLS.get(suit, suit)}"


def card_words(code: str) -> str:
    """``QD`` as "queen of diamonds", for the action's words."""
    rank = _RANK_WORDS.get(code[0], code[0])
    return _("%(rank)s of %(suit)s") % {"rank": _(rank), "suit": _(_SUIT_WORDS[code[1]])}


def _pile(name: str) -> str:
    if name == "w":
        return _("the waste")
    if name.startswith("t"):
        return _("column %(n)s") % {"n": name[1:]}
    return _("foundation %(n)s") % {"n": name[1:]}


def _moved_cards(before: dict[str, Any], source: str, count: int) -> list[str]:
    """The cards a move takes, read from the view before it (so they were visible)."""
    if source == "w":
        return before["waste"][-1:]
    if source.startswith("t"):
        return before["columns"][int(source[1:]) - 1]["cards"][-count:]
    top = before["foundations"][int(source[1:]) - 1]["top"]
    return [top] if top else []


def action_words(action: str, before: dict[str, Any]) -> str:
    """An action in words, e.g. "queen of diamonds from column 3 to foundation 2".

    ``before`` is the player's view before the action: the moved card is named
    from it, so the words never tell more than the board shows.
    """
    if action == "s":
        return _("Turned the stock")
    if action == "r":
        return _("Turned the waste over as the stock")
    if action == UNDO:
        return _("Took back the last action")
    if action == RESIGN:
        return _("Resigned")
    source, _dash, rest = action.partition("-")
    target, _x, count_text = rest.partition("x")
    count = int(count_text) if count_text else 1
    cards = _moved_cards(before, source, count)
    where = {"source": _pile(source), "target": _pile(target)}
    if count > 1 and cards:
        return ngettext(
            "%(count)s card from %(first)s up, from %(source)s to %(target)s",
            "%(count)s cards from %(first)s up, from %(source)s to %(target)s",
            count,
        ) % {"count": count, "first": card_words(cards[0]), **where}
    if cards:
        return _("%(card)s from %(source)s to %(target)s") % {"card": card_words(cards[0]), **where}
    return _("From %(source)s to %(target)s") % where


def build_steps(
    engine: GameState,
    log: Sequence[tuple[int, str, int | None]],
    *,
    broken: str,
    automatic: frozenset[int] = frozenset(),
) -> list[dict[str, Any]]:
    """Play ``log`` (``(seq, move, score)``; a ``None`` score is the engine's own after the
    move) on ``engine`` from its current position: the replay viewer's steps. The seqs in
    ``automatic`` are the server's safe home moves (and their take-backs), said as such. A
    log the engine refuses is :class:`NotFound` with the reason ``broken``."""
    before = engine.view()
    steps: list[dict[str, Any]] = []
    for seq, move, score in log:
        words = action_words(move, before)
        if seq in automatic and move != RESIGN:
            words = (
                _("A safe card taken back with the move that sent it home")
                if move == UNDO
                else _("Sent home safely by the table: %(move)s") % {"move": words}
            )
        if move == RESIGN:
            after = before  # not an engine move: the board stays as it was
        else:
            try:
                engine.replay([move])  # an "undo" entry is the engine's own undo
            except EngineError:
                # A verified log always replays; if the engine changed since, refuse
                # rather than fail.
                raise NotFound(broken) from None
            after = engine.view()
        steps.append(
            {
                "seq": seq,
                "action": move,
                "words": words,
                "score": engine.score if score is None else score,
                "changes": board_changes(before, after),
                "automatic": seq in automatic,
            }
        )
        before = after
    return steps


def solution_frames(*, deal_id: object) -> dict[str, Any]:
    """ "One way to win this deal": the solver's winning line of a daily deal, as replay
    frames (a synthetic log played from the deal). Only once the day has closed; before,
    the line is as secret as the deal's code, so the deal is simply "not found"."""
    try:
        pk = int(str(deal_id))
    except ValueError:
        raise NotFound(f"{deal_id!r} is not a deal id") from None
    deal = Deal.objects.filter(pk=pk, kind__in=(Deal.Kind.DAILY, Deal.Kind.WEEKLY)).first()
    if deal is None or not deal.solution_revealed:
        raise NotFound("there is no winning line to show for this deal (yet)")
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=0)
    initial = engine.view()
    log: list[tuple[int, str, int | None]] = [
        (seq, move, None) for seq, move in enumerate(deal.solution.split(), start=1)
    ]
    steps = build_steps(engine, log, broken="this deal's winning line no longer replays")
    return {
        "deal": {
            "id": deal.pk,
            "variant": deal.variant,
            "variant_title": variant_title(deal.variant),
            "day": deal.day.isoformat() if deal.day else None,
            "code": deal.code,
            "difficulty": deal.difficulty,
            "difficulty_stars": deal.difficulty_stars,
            "won": engine.is_won(),
        },
        "initial": initial,
        "steps": steps,
    }


def replay_frames(*, user: User | AnonymousUser, game_id: object) -> dict[str, Any]:
    """The game's initial view and its steps ``{seq, action, words, score, changes}``.

    Refusals: the funnel's (not found, sign in, not allowed); an unfinished or
    rejected game is not found; a game still being verified is
    :class:`~leaderboards.share.VerificationPending`.
    """
    game = access_replay(user=user, game_id=game_id)
    deal = game.deal
    result = Result.objects.filter(game=game).first()
    if result is None or result.status == Result.Status.PENDING:
        raise VerificationPending("this game is being verified; its replay will follow shortly")
    if result.status != Result.Status.VERIFIED:
        raise NotFound("this game's log was rejected, so it has no replay")
    rows = game_log(game_id=game.pk)
    log = [(entry.seq, entry.move, entry.score) for entry in rows]
    automatic = frozenset(entry.seq for entry in rows if entry.by_system)
    undo_limit = game.undo_limit
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=undo_limit)
    initial = engine.view()
    steps = build_steps(
        engine, log, broken="this game's log no longer replays", automatic=automatic
    )
    return {
        "game": {
            "id": str(game.pk),
            "player": game.player.public_name,
            "username": game.player.get_username(),
            # The viewer's own game: the page says "your game", not their name.
            "mine": is_self(viewer=user, user_id=game.player_id),
            "mode": game.mode,
            "status": game.status,
            "score": game.score,
            "moves": game.moves,
            "variant": deal.variant,
            "variant_title": variant_title(deal.variant),
            "day": deal.day.isoformat() if deal.day else None,
            "code": deal.code if deal.is_revealed else None,
        },
        "initial": initial,
        "steps": steps,
    }


def analysis_frames(*, user: User | AnonymousUser, game_id: object) -> dict[str, Any]:
    """What the replay page shows of a game's post-game analysis: ``status`` (``none``
    when not asked for; ``won`` and ``locked`` when it cannot be: a won game, a daily deal
    before its close), the progress, and once done the result (``Postmortem.to_dict``)
    with the losing move in words and the winning line as replay steps from the last
    winnable position (``line_steps``). Refusals: the replay's."""
    game = access_replay(user=user, game_id=game_id)
    if game.status == Game.Status.WON:
        return {"status": "won"}
    if not game.deal.solver_help_open:
        return {"status": "locked"}
    row = GameAnalysis.objects.filter(game=game).first()
    if row is None:
        return {"status": "none"}
    data: dict[str, Any] = {
        "status": row.status,
        "done": row.done,
        "total": row.total,
        "reason": row.reason,
    }
    if row.status == GameAnalysis.Status.DONE and row.result:
        data["result"] = _result_with_frames(game, row.result)
    return data


def _result_with_frames(game: Game, stored: dict[str, Any]) -> dict[str, Any]:
    """The stored result, with the losing move's words and the winning line's steps (built
    here from the log: the row keeps only moves)."""
    result = dict(stored)
    win_step = result.get("win_step")
    if win_step is None:
        return result
    deal = game.deal
    log = [entry.move for entry in game_log(game_id=game.pk)]
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=game.undo_limit)
    try:
        engine.replay([move for move in log[:win_step] if move != RESIGN])
    except EngineError:
        raise NotFound("this game's log no longer replays") from None
    losing = result.get("losing")
    if losing:
        result["losing"] = {**losing, "words": action_words(losing["move"], engine.view())}
    line = [(seq, move, None) for seq, move in enumerate(result.get("line", []), start=1)]
    result["line_steps"] = build_steps(engine, line, broken="the winning line no longer replays")
    return result
