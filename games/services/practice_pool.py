"""The pool of proven-winnable practice deals behind "winnable deals only".

A deal joins the pool only when the solver found a winning line for it and that line,
replayed move by move through the engine from the deal, wins: a proof, not an estimate.
The solver runs on a node budget (``FT_POOL_NODES``), never a clock, so whether a seed
joins and its stars are the same on any machine and under any load. The stars are
:func:`games.services.deals.difficulty_for` of the nodes the solver needed (the measure the
daily deal's stars use): the solver's effort to find a win, 1 star up to 1,000 nodes, 5
over 100,000 (docs/deals.md, "Difficulty"; the practice page's help says so).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction

from games.engine import EngineError, GameState, RuleSet, format_code, parse_variant
from games.engine.deal import SHORT_SEED_LIMIT
from games.errors import BadRequest, NotFound
from games.models import Deal, Game, PracticePoolDeal, User
from games.services.deals import deal_for_code, difficulty_for
from games.solver import solve

#: A wall-clock guard only against a runaway search; the node budget decides, and at the
#: solver's pace (about 50,000 nodes a second) it is reached long before this.
CLOCK_GUARD_SECONDS = 600.0


class PoolEmpty(NotFound):
    """No proven-winnable deal of the variant (and stars) asked for is ready."""

    code = "pool_empty"


@dataclass(frozen=True)
class PoolFill:
    """What one fill did: seeds tried, deals added, and the pool's size after."""

    variant: str
    tried: int
    added: int
    size: int


def _rules(variant: str) -> RuleSet:
    try:
        return parse_variant(variant)
    except EngineError as err:
        raise BadRequest(err.reason) from None


def proven_win(*, seed: int, variant: str, max_nodes: int) -> tuple[int, str] | None:
    """The solver nodes to a win of ``seed`` in ``variant`` and the winning line (moves
    space-separated), when the line found within ``max_nodes`` replays to a win through
    the engine; ``None`` otherwise."""
    result = solve(
        GameState.from_seed(seed, variant, undo_limit=0),
        max_seconds=CLOCK_GUARD_SECONDS,
        max_nodes=max_nodes,
    )
    if result.verdict != "win":
        return None
    replay = GameState.from_seed(seed, variant, undo_limit=0)
    try:
        for move in result.line:
            replay.play(move)
    except EngineError:
        return None
    return (result.nodes, " ".join(result.line)) if replay.is_won() else None


def practice_pool_fill(
    *,
    variant: str,
    count: int,
    max_nodes: int | None = None,
    tries: int | None = None,
    seeds: Iterable[int] | None = None,
) -> PoolFill:
    """Add up to ``count`` proven-winnable deals of ``variant`` to the pool, trying at most
    ``tries`` seeds (default ``10 * count``: about 1 classic seed in 10 is proven within the
    default budget, docs/deals.md). ``seeds`` replaces the random short seeds (tests,
    reproducible fills)."""
    rules = _rules(variant)
    budget = settings.FT_POOL_NODES if max_nodes is None else max_nodes
    limit = 10 * count if tries is None else tries
    source = iter(seeds) if seeds is not None else None
    tried = added = 0
    while added < count and tried < limit:
        seed = next(source, None) if source is not None else secrets.randbelow(SHORT_SEED_LIMIT)
        if seed is None:
            break
        tried += 1
        if _pool_add(rules=rules, seed=seed, max_nodes=budget):
            added += 1
    size = PracticePoolDeal.objects.filter(variant=rules.spec).count()
    return PoolFill(variant=rules.spec, tried=tried, added=added, size=size)


def _pool_add(*, rules: RuleSet, seed: int, max_nodes: int) -> bool:
    code = format_code(rules, seed)
    if PracticePoolDeal.objects.filter(deal__code=code).exists():
        return False
    proof = proven_win(seed=seed, variant=rules.spec, max_nodes=max_nodes)
    if proof is None:
        return False  # no deal row is made for a seed that does not join
    nodes, line = proof
    return _pool_record(rules=rules, seed=seed, nodes=nodes, line=line)


def _pool_record(*, rules: RuleSet, seed: int, nodes: int, line: str) -> bool:
    """Put the proven deal of ``seed`` in the pool with its stars and line; False when it is
    there already (or its code is an open competition's)."""
    code = format_code(rules, seed)
    if PracticePoolDeal.objects.filter(deal__code=code).exists():
        return False
    deal = deal_for_code(code=code)
    if deal.is_competition:
        return False  # an open competition's seed under a practice code: never
    stars = difficulty_for("win", nodes)
    try:
        with transaction.atomic():
            PracticePoolDeal.objects.create(deal=deal, variant=rules.spec, stars=stars, nodes=nodes)
    except IntegrityError:  # another fill added it at the same moment
        return False
    # The board shows the stars the pool filtered by, and the proof stays with the deal (a
    # practice deal's line is never shown: Deal.solution_revealed).
    Deal.objects.filter(pk=deal.pk).update(
        solver_verdict="win", solver_nodes=nodes, difficulty=stars, solution=line
    )
    return True


#: Proven deals shipped with the code, so a fresh install's "winnable deals only" has a few of
#: every difficulty before the hourly fill has run (``make run`` loads them). The file says
#: how its deals were found; each entry's line is replayed through the engine on load, and
#: tests/games/test_starter_pool.py solves the cheap ones again to check their nodes.
STARTER_POOL = Path(__file__).resolve().parent.parent / "data" / "starter_pool.json"


def practice_pool_load_starter(*, path: Path = STARTER_POOL) -> PoolFill:
    """Add the shipped proven deals to the pool (idempotent: a deal already in it is kept).

    Each entry is ``{variant, seed, nodes, line}``: the solver's nodes to the win (the stars,
    as a fill would give them) and its winning line, which must replay to a win through the
    engine here, or the entry is refused (``ValueError``: a shipped file that does not
    prove what it says is a bug, not something to skip)."""
    entries = json.loads(path.read_text(encoding="utf-8"))["deals"]
    variants = {_rules(entry["variant"]).spec for entry in entries}
    # Every line is checked before any deal is added: a file that fails adds nothing.
    for entry in entries:
        replay = GameState.from_seed(entry["seed"], entry["variant"], undo_limit=0)
        for move in entry["line"].split():
            replay.play(move)
        if not replay.is_won():
            raise ValueError(
                f"starter deal {entry['seed']} of {entry['variant']}: its line does not win"
            )
    added = 0
    with transaction.atomic():
        for entry in entries:
            rules = _rules(entry["variant"])
            if _pool_record(
                rules=rules, seed=entry["seed"], nodes=entry["nodes"], line=entry["line"]
            ):
                added += 1
    size = PracticePoolDeal.objects.filter(variant__in=variants).count()
    return PoolFill(variant=",".join(sorted(variants)), tried=len(entries), added=added, size=size)


def practice_pool_draw(*, user: User, variant: str, stars: int | None = None) -> Deal:
    """A random proven-winnable deal of ``variant`` (of ``stars`` stars when given) that
    ``user`` has not played; :class:`PoolEmpty` when there is none."""
    rules = _rules(variant)
    if stars is not None and not 1 <= stars <= 5:
        raise BadRequest(f"{stars} is not a difficulty: 1 to 5 stars")
    entries = PracticePoolDeal.objects.filter(variant=rules.spec)
    if stars is not None:
        entries = entries.filter(stars=stars)
    played = Game.objects.filter(player=user).values("deal_id")
    entry = entries.exclude(deal_id__in=played).select_related("deal").order_by("?").first()
    if entry is None:
        if stars:
            which = f"{rules.title} deal of {stars} star{'' if stars == 1 else 's'}"
        else:
            which = f"{rules.title} deal"
        raise PoolEmpty(
            f"No proven-winnable {which} is ready for you yet: play a random deal"
            " (it may or may not be winnable), or try again later."
        )
    return entry.deal


def practice_pool_top_up(
    *, variants: Iterable[str] | None = None, target: int | None = None, tries: int = 8
) -> list[PoolFill]:
    """Fill each variant's pool towards ``target`` (``FT_POOL_TARGET``) deals, trying at
    most ``tries`` seeds per variant (the hourly task's bound: a seed costs up to about
    ``FT_POOL_NODES / 50,000`` seconds, so 8 tries of 11 variants stay well inside the
    solver tasks' time limit)."""
    from games.engine import VARIANTS

    goal = settings.FT_POOL_TARGET if target is None else target
    fills = []
    for name in variants if variants is not None else VARIANTS:
        spec = _rules(name).spec
        missing = goal - PracticePoolDeal.objects.filter(variant=spec).count()
        if missing > 0:
            fills.append(practice_pool_fill(variant=spec, count=missing, tries=tries))
    return fills
