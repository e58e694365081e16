"""Writes: a certified deal's completions and tails for the sequential fair-play test.

A deal certified deterministically (``Deal.certify_nodes``) is not a uniformly random deal
given its table: the certification chose it. The test's per-draw statistic
(``games.solver.horizon``) is calibrated only if the completions it compares the true
stock with, and the tails that follow the true position's next cards, are drawn as the
certification drew the deal. They depend on the deal alone (the table as dealt, the cards
drawn so far), never on a player, so they are drawn once per deal on the ``solver`` queue
right after it is certified, and kept (docs/fairplay.md §6).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable

from django.db import IntegrityError, transaction

from games.engine.game import GameState
from games.models import Deal, DealCompletions
from games.solver.evidence import certification, certified_pool
from games.solver.horizon import certified_tails


def _accept(nodes: int) -> Callable[[GameState], bool]:
    def accept(game: GameState) -> bool:
        return certification(game, max_nodes=nodes).verdict == "win"

    return accept


def deal_completions_build(*, deal_id: int) -> DealCompletions | None:
    """Draw and store the completions and tails of a deterministically certified deal
    (idempotent: an existing draw stands; one from before tails gets its tails now);
    ``None`` for any other deal (certified by the clock, not certified, or gone)."""
    deal = Deal.objects.filter(pk=deal_id, certify_nodes__isnull=False).first()
    if deal is None:
        return None
    existing = DealCompletions.objects.filter(deal=deal).first()
    if existing is not None:
        return _with_tails(existing)
    nodes = deal.certify_nodes
    assert nodes is not None  # filtered above
    seed = secrets.token_hex(16)
    began = time.process_time()
    pool = certified_pool(deal.seed, deal.variant, accept=_accept(nodes), rng=random.Random(seed))
    tails = _tails(deal, nodes=nodes, rng=seed)
    try:
        with transaction.atomic():
            return DealCompletions.objects.create(
                deal=deal,
                nodes=nodes,
                rng=seed,
                pool={str(count): orders for count, orders in pool.items()},
                tails=tails,
                seconds=round(time.process_time() - began, 3),
            )
    except IntegrityError:  # drawn concurrently (the task and a step): the first stands
        return _with_tails(DealCompletions.objects.get(deal=deal))


def _with_tails(drawn: DealCompletions) -> DealCompletions:
    """Tails for a draw kept from before them, with the draw's own seed (so a reviewer can
    redo it); a concurrent fill writes the same tails."""
    if drawn.tails or not drawn.pool:
        return drawn
    began = time.process_time()
    drawn.tails = _tails(drawn.deal, nodes=drawn.nodes, rng=drawn.rng)
    drawn.seconds = round(drawn.seconds + time.process_time() - began, 3)
    drawn.save(update_fields=["tails", "seconds"])
    return drawn


def _tails(deal: Deal, *, nodes: int, rng: str) -> dict[str, list]:
    """The deal's tails as stored, drawn with the draw's seed ``rng`` (its pool's own)."""
    tails = certified_tails(
        deal.seed, deal.variant, accept=_accept(nodes), rng=random.Random(f"{rng}-tails")
    )
    return {str(count): order for count, order in tails.items()}
