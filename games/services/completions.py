"""Writes: a certified deal's completions for the sequential fair-play test.

A deal certified deterministically (``Deal.certify_nodes``) is not a uniformly random deal
given its table: the certification chose it. The test's per-game statistic
(``games.solver.evidence``) is calibrated only if the completions it compares the true
stock with are drawn as the certification drew the deal. They depend on the deal alone
(the table as dealt, the cards drawn so far), never on a player, so they are drawn once per
deal on the ``solver`` queue right after it is certified, and kept (docs/fairplay.md §6).
"""

from __future__ import annotations

import random
import secrets
import time

from django.db import IntegrityError, transaction

from games.engine.game import GameState
from games.models import Deal, DealCompletions
from games.solver.evidence import certification, certified_pool


def deal_completions_build(*, deal_id: int) -> DealCompletions | None:
    """Draw and store the completions of a deterministically certified deal (idempotent:
    an existing draw stands); ``None`` for any other deal (certified by the clock, not
    certified, or gone)."""
    deal = Deal.objects.filter(pk=deal_id, certify_nodes__isnull=False).first()
    if deal is None:
        return None
    existing = DealCompletions.objects.filter(deal=deal).first()
    if existing is not None:
        return existing
    nodes = deal.certify_nodes
    assert nodes is not None  # filtered above

    def accept(game: GameState) -> bool:
        return certification(game, max_nodes=nodes).verdict == "win"

    seed = secrets.token_hex(16)
    began = time.process_time()
    pool = certified_pool(deal.seed, deal.variant, accept=accept, rng=random.Random(seed))
    try:
        with transaction.atomic():
            return DealCompletions.objects.create(
                deal=deal,
                nodes=nodes,
                rng=seed,
                pool={str(count): orders for count, orders in pool.items()},
                seconds=round(time.process_time() - began, 3),
            )
    except IntegrityError:  # drawn concurrently (the task and a step): the first stands
        return DealCompletions.objects.get(deal=deal)
