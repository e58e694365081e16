"""Linked accounts and scouting: who else, on the same device, the same network (with or
without the same browser) or under the same name (a deleted account), had seen a deal's
stock before a ranked game of it was played, and whether that is enough to hold it.

The links themselves come from ``games.selectors`` (keyed hashes of a device cookie, of the
network with and without the user agent, and of a deleted account's name; see the privacy
page); this module asks what those accounts did with the deal and weighs it
(:func:`link_verdict`, pure):

* a **device** or **name** link that turned any card of the deal holds the result: one
  browser is one person's, or a family's sharing it (a reviewer tells them apart);
* a **network** link alone (same /24 or /64, with or without the same browser string)
  never holds by itself: households, offices and carriers' NATs share one network and a
  handful of browser builds, and every player turns the stock. It holds only with a sign
  that only a scout gives (:data:`SIGNS`), or with the player's own evidence (an e-value
  from the per-player sequential test) of at least ``FT_LINK_OWN_EVIDENCE``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Count, Min, Q

from games.logs import compact_logs
from games.models import Action, Deal, DeletedAccount, DeletedPlay, Game, User
from games.selectors import accounts_linked_to, deleted_accounts_linked_to, sightings_of
from leaderboards.models import ScoutingPattern

#: Links that hold on their own (with any card of the deal turned).
STRONG = frozenset({"device", "name"})
#: What only a scout does, any one of which makes a network link hold:
#: ``stock_only``: an attempt (ranked or practice) that turned most of the stock
#: (``FT_SCOUT_PERCENT``) with almost no other move (``FT_SCOUT_CARD_MOVES``);
#: ``deleted_while_open``: the account was deleted while the deal was open.
#: An account *created* while the deal was open is shown (``joined_at``) but is no sign:
#: every household gains newcomers, whose ordinary quick losses look like scouting.
SIGNS = ("stock_only", "deleted_while_open")


@dataclass(frozen=True)
class LinkVerdict:
    """Whether the links hold a result, and the links that do (for the reason)."""

    hold: bool
    holding: list[dict[str, Any]]
    weak: list[dict[str, Any]]  # network links that turned cards, with no scout sign


def link_verdict(
    links: Iterable[dict[str, Any]], *, own_evidence: float | None = None
) -> LinkVerdict:
    """Weigh linked accounts (as :func:`linked_evidence` gives them). ``own_evidence`` is
    the player's own evidence against them as an e-value (``None``: none yet); it lets a
    network link without a scout sign hold once it reaches ``FT_LINK_OWN_EVIDENCE``.

    >>> link_verdict([{"via": ["network"], "turned": 64, "signs": []}]).hold
    False
    >>> link_verdict([{"via": ["address"], "turned": 64, "signs": ["stock_only"]}]).hold
    True
    >>> link_verdict([{"via": ["device"], "turned": 3, "signs": []}]).hold
    True
    """
    holding, weak = [], []
    for link in links:
        if not link.get("turned"):
            continue
        if STRONG & set(link["via"]) or link.get("signs"):
            holding.append(link)
        else:
            weak.append(link)
    enough = own_evidence is not None and own_evidence >= settings.FT_LINK_OWN_EVIDENCE
    return LinkVerdict(hold=bool(holding) or (bool(weak) and enough), holding=holding, weak=weak)


def linked_evidence(
    *, player_id: int, deal: Deal, before: datetime, stock: int
) -> list[dict[str, Any]]:
    """Every account linked to ``player_id`` that turned cards of ``deal`` before
    ``before``, or is linked by device or name, live or deleted: what it turned (per game),
    its card moves, its scouting patterns and the scout signs it shows (``signs``).

    Network links without a card turned are left out: on a shared network they are every
    neighbour, and they say nothing about this deal.
    """
    user = User.objects.filter(pk=player_id).first()
    if user is None:
        return []
    mine = sightings_of(user_id=player_id)  # read once for both kinds of link
    live = _live_links(
        links=accounts_linked_to(user_id=player_id, mine=mine), deal=deal, before=before
    )
    gone = _deleted_links(
        links=deleted_accounts_linked_to(user=user, mine=mine), deal=deal, before=before
    )
    rows = []
    for link in [*live, *gone]:
        link["turned"] = sum(g["turned"] for g in link["games"])
        link["signs"] = _signs(link, deal=deal, stock=stock)
        if link["turned"] or STRONG & set(link["via"]):
            rows.append(link)
    return rows


def _live_links(
    *, links: dict[int, set[str]], deal: Deal, before: datetime
) -> list[dict[str, Any]]:
    if not links:
        return []
    games = (
        Action.objects.filter(
            game__deal_id=deal.pk,
            game__player_id__in=links,
            by_system=False,
            created_at__lt=before,
        )
        .values(
            "game_id",
            "game__player_id",
            "game__mode",
            "game__status",
            "game__created_at",
            "game__finished_at",
        )
        .annotate(
            turned=Count("id", filter=Q(move="s")),
            card_moves=Count("id", filter=~Q(move__in=("s", "undo", "resign"))),
            first=Min("created_at", filter=Q(move="s")),
        )
        .order_by("first")
    )
    per_player: dict[int, list[dict[str, Any]]] = {}
    for row in games:
        per_player.setdefault(row["game__player_id"], []).append(
            _game(
                game_id=str(row["game_id"]),
                mode=row["game__mode"],
                status=row["game__status"],
                turned=row["turned"],
                card_moves=row["card_moves"],
                first=row["first"],
                started=row["game__created_at"],
                finished=row["game__finished_at"],
            )
        )
    _add_packed(per_player, links=links, deal=deal, before=before)
    # Only the accounts worth showing: a carrier's network may link thousands that never
    # touched this deal, and reading them all on every verification would cost for nothing.
    shown = {uid for uid in links if uid in per_player or STRONG & links[uid]}
    scouting = dict(
        ScoutingPattern.objects.filter(player_id__in=shown)
        .values_list("player_id")
        .annotate(n=Count("id"))
    )
    people = User.objects.filter(pk__in=shown).values_list("pk", "username", "date_joined")
    return [
        {
            "user_id": uid,
            "username": name,
            "via": sorted(links[uid]),
            "games": [g for g in per_player.get(uid, []) if g["turned"]],
            "scouting": scouting.get(uid, 0),
            "joined_at": joined.isoformat(),
            "deleted_at": None,
        }
        for uid, name, joined in people
    ]


def _add_packed(
    per_player: dict[int, list[dict[str, Any]]],
    *,
    links: dict[int, set[str]],
    deal: Deal,
    before: datetime,
) -> None:
    """The linked games of the deal whose logs compact_logs packed (they have no rows for
    the count above), counted as it counts rows, each player's games kept in the order of
    their first card turned (a game that turned none last, as PostgreSQL orders nulls)."""
    games = Game.objects.filter(
        deal_id=deal.pk, player_id__in=links, compact_log__isnull=False
    ).values_list("pk", "player_id", "mode", "status", "created_at", "finished_at")
    rows = {row[0]: row for row in games}
    if not rows:
        return
    for game_id, entries in compact_logs(game_ids=list(rows)).items():
        own = [e for e in entries if not e.by_system and e.created_at < before]
        if not own:
            continue
        turns = [e.created_at for e in own if e.move == "s"]
        _, player_id, mode, status, started, finished = rows[game_id]
        per_player.setdefault(player_id, []).append(
            _game(
                game_id=str(game_id),
                mode=mode,
                status=status,
                turned=len(turns),
                card_moves=sum(e.move not in ("s", "undo", "resign") for e in own),
                first=min(turns, default=None),
                started=started,
                finished=finished,
            )
        )
    for played in per_player.values():
        played.sort(key=lambda g: (g["first_turn_at"] is None, g["first_turn_at"] or ""))


def _deleted_links(
    *, links: dict[int, set[str]], deal: Deal, before: datetime
) -> list[dict[str, Any]]:
    if not links:
        return []
    plays = DeletedPlay.objects.filter(account_id__in=links, deal_id=deal.pk).order_by("pk")
    per_account: dict[int, list[dict[str, Any]]] = {}
    for play in plays:
        if play.first_turn_at is not None and play.first_turn_at >= before:
            continue
        per_account.setdefault(play.account_id, []).append(
            _game(
                game_id=None,
                mode=play.mode,
                status=play.status,
                turned=play.turned,
                card_moves=play.card_moves,
                first=play.first_turn_at,
                started=play.started_at,
                finished=play.finished_at,
            )
        )
    accounts = DeletedAccount.objects.filter(pk__in=links)
    return [
        {
            "user_id": None,
            "deleted_id": account.pk,
            "username": f"deleted account #{account.pk}",
            "via": sorted(links[account.pk]),
            "games": [g for g in per_account.get(account.pk, []) if g["turned"]],
            "scouting": 0,
            "joined_at": account.joined_at.isoformat(),
            "deleted_at": account.deleted_at.isoformat(),
        }
        for account in accounts
    ]


def _game(
    *,
    game_id: str | None,
    mode: str,
    status: str,
    turned: int,
    card_moves: int,
    first: datetime | None,
    started: datetime,
    finished: datetime | None,
) -> dict[str, Any]:
    seconds = (finished - started).total_seconds() if finished else None
    return {
        "game_id": game_id,
        "mode": mode,
        "status": status,
        "turned": turned,
        "card_moves": card_moves,
        "first_turn_at": first.isoformat() if first else None,
        "seconds": seconds,
    }


def _signs(link: dict[str, Any], *, deal: Deal, stock: int) -> list[str]:
    """The scout signs (:data:`SIGNS`) a linked account shows on ``deal``."""
    most = settings.FT_SCOUT_SHARE * stock if stock > 0 else float("inf")
    games = link["games"]
    signs = []
    if any(g["turned"] >= most and g["card_moves"] <= settings.FT_SCOUT_CARD_MOVES for g in games):
        signs.append("stock_only")
    opened = deal.opens_at
    if opened is None or not games:
        return signs
    deleted = link["deleted_at"]
    # Only a deleted account that had seen most of the stock: a neighbour who turned a card
    # or two and then left the site the same day told nobody anything, and holding every
    # later player of a shared network for it would be a false hold.
    saw_most = any(g["turned"] >= most for g in games)
    if deleted is not None and saw_most and datetime.fromisoformat(deleted) >= opened:
        signs.append("deleted_while_open")
    return signs


def scouting_record(*, game: Game, turned: int, stock: int, seconds: float) -> bool:
    """Record a scouting pattern for a finished ranked game when it is one: most of the
    stock turned (``FT_SCOUT_SHARE``), then given up (resigned or lost) within
    ``FT_SCOUT_SECONDS``. Idempotent (one per game). True when recorded now."""
    if game.status == Game.Status.WON or stock <= 0:
        return False
    if turned < settings.FT_SCOUT_SHARE * stock or seconds > settings.FT_SCOUT_SECONDS:
        return False
    _, created = ScoutingPattern.objects.get_or_create(
        game_id=game.pk,
        defaults={
            "player_id": game.player_id,
            "deal_id": game.deal_id,
            "turned": turned,
            "stock": stock,
            "seconds": seconds,
        },
    )
    return created
