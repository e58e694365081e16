"""Household simulation (issue 19, part B): false holds on a shared network, and the three
evasions of one person's one attempt, played through the platform's own services.

    .venv/bin/python benchmarks/households.py --players 50 --days 3
    .venv/bin/python benchmarks/households.py --players 12 --days 1 --evasions 3

**The household.** ``--players`` honest accounts (made days before) share one network (one
/24, each visit from any address in it) and three browser builds; each plays in its own
browser (its own device cookie). Every day, in a random order, each plays the day's daily
(a certified deal of ``benchmarks/data/certified_deals.json``) at a person's pace (1.5-5 s
a move, log-normal), as one of four honest personas:

* ``greedy``: the benchmark's honest climber (``benchmarks.players.greedy``, jittered),
  plays until it wins or is stuck, then resigns;
* ``quitter``: the same player giving up after a few moves (a quick loss);
* ``foundations``: a weak player who only turns the stock and sends cards home, then
  resigns (the closest an honest player comes to a scout's "turn the stock, resign");
* ``strong``: the benchmark's strongest honest player (``determinized``: the solver on
  random completions of the unseen cards, 0.1 s a plan), who wins most of these deals;
* ``new``: (``--new`` of them a day) an account made that morning, playing like ``greedy``.

It reports how many of their results are held (all reasons) and why, with a 95 %
Clopper-Pearson interval. Target: <= 1 %.

**The evasions** (``--evasions N`` rounds each), a scout and a winner who plays the deal's
certified line at a person's pace:

1. the scout plays today's ranked deal (turns the 64 stock cards, resigns), deletes the
   account and signs up again under the same name in the same browser;
2. a scout on the winner's browser deletes itself before the winner plays (``2a``: the
   winner opens the game after the deletion; ``2b``: before it, and plays after);
3. the scout plays in a fresh cookie jar with another browser string on the same address.

Target: every one held or refused. Not a timed test; each day costs a few seconds of CPU
per player (the scratch SQLite database and the services' bookkeeping, not the checks).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import players  # noqa: E402
from benchmarks.certified_deals import OUT as DEALS  # noqa: E402  (the file it writes)
from games.engine import GameState  # noqa: E402
from games.engine import moves as engine_moves  # noqa: E402
from games.engine.notation import TO_FOUNDATION, format_move  # noqa: E402

VARIANT = "forty-thieves"
BROWSERS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/141.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
)
NETWORK = "198.51.100.{}"
PERSONAS = ("greedy", "quitter", "foundations", "strong")
#: A person's pace in this household: log-normal around 2.5 s, kept within 1.5-5 s.
PACE_MEDIAN_S, PACE_SIGMA, PACE_MIN_S, PACE_MAX_S = 2.5, 0.35, 1.5, 5.0


class Clock:
    """``timezone.now`` for the services. A player's think time passes once per move
    (:meth:`think`, log-normal around 2.5 s, kept within 1.5-5 s); the services' own calls
    within one action are a millisecond apart, so each action's stamp is one think time
    after the last, as a person's would be whatever the services do inside."""

    def __init__(self, start: datetime, rng: random.Random) -> None:
        self.now, self.rng = start, rng

    def think(self) -> None:
        gap = self.rng.lognormvariate(0, PACE_SIGMA) * PACE_MEDIAN_S
        self.now += timedelta(seconds=min(PACE_MAX_S, max(PACE_MIN_S, gap)))

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


# Honest moves (pure) ---------------------------------------------------------------------


def foundations_only(seen: players.Seen) -> str | None:
    """Send a card home when one can go; else turn the stock; stop when neither."""
    game = seen.sample(None)
    for move in engine_moves.legal(game):
        if move.kind == TO_FOUNDATION:
            return format_move(move)
    return "s" if game.stock else None


def honest_moves(persona: str, seed: int, rng: random.Random) -> list[str]:
    """The moves one honest player makes on the deal (the services add the resign)."""
    if persona == "foundations":
        return players.play_honest(seed, VARIANT, foundations_only).moves
    if persona == "strong":
        return players.determinized(seed, VARIANT, rng.randrange(1, 10**6), seconds=0.1).moves
    played = players.play_greedy(seed, VARIANT, rng_seed=rng.randrange(1, 10**6))
    if persona == "quitter":
        return played.moves[: rng.randint(3, 40)]
    return played.moves


# Through the services --------------------------------------------------------------------


def _seen(user: Any, token: str, ua: str, rng: random.Random) -> None:
    from games import services

    address = NETWORK.format(rng.randint(1, 254))
    services.sighting_record(user_id=user.pk, device_token=token, address=address, user_agent=ua)


def _play(user: Any, moves: list[str], clock: Clock, *, resign: bool = True) -> Any:
    """Today's ranked game of ``user``, played move by move (the services' clock is the
    person's pace); resigned at the end unless won or over."""
    from games import services
    from games.models import Game

    game = services.game_start_daily(user=user)
    for move in moves:
        clock.think()
        services.game_act(kind="move", user=user, game_id=game.pk, move=move)
    game.refresh_from_db()
    if resign and game.status == Game.Status.ACTIVE:
        clock.think()
        services.game_act(kind="resign", user=user, game_id=game.pk)
    return game


def _day_deal(day: date, deal: dict) -> Any:
    from games import services
    from games.models import Deal

    opened = services.deal_open_daily(day=day)
    Deal.objects.filter(pk=opened.pk).update(seed_hex=deal["seed"])
    opened.refresh_from_db()
    return opened


def _token(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    return "".join(rng.choice(alphabet) for _ in range(32))


def household_day(
    *, day: date, deal: dict, members: list[dict], new: int, rng: random.Random
) -> list[dict]:
    """One day of the household: every member (and ``new`` accounts made that morning)
    plays the day's deal once, in a random order. A row per result."""
    from django.utils import timezone

    from games.models import User
    from leaderboards.models import FairPlayCheck, Result

    # From 01:00, a player every few minutes: the last one finishes well before the close.
    morning = datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=1)
    clock = Clock(morning, rng)
    rows = []
    with mock.patch.object(timezone, "now", clock):
        deal_row = _day_deal(day, deal)
        today = list(members)
        for n in range(new):
            user = User.objects.create_user(username=f"new-{day}-{n}-{rng.random():.8f}")
            today.append({"user": user, "token": _token(rng), "ua": rng.choice(BROWSERS)})
        rng.shuffle(today)
        for member in today:
            clock.now += timedelta(minutes=rng.uniform(0.5, 8))
            persona = member.get("persona") or rng.choice(PERSONAS)
            _seen(member["user"], member["token"], member["ua"], rng)
            moves = honest_moves(persona, deal_row.seed, rng)
            game = _play(member["user"], moves, clock)
            result = Result.objects.get(game=game)
            check = FairPlayCheck.objects.filter(result=result).first()
            rows.append(
                {
                    "persona": persona if member in members else "new",
                    "turned": moves.count("s"),
                    "card_moves": len(moves) - moves.count("s"),
                    "won": result.won,
                    "held": result.review == Result.Review.HELD,
                    "reasons": check.reasons if check else [],
                    "signs": sorted(
                        {s for link in (check.linked if check else []) for s in link["signs"]}
                    ),
                }
            )
    return rows


def household(
    *, players_count: int, days: int, new: int = 0, seed: int = 1, first_day: int = 0
) -> list[dict]:
    """``days`` days of a household of ``players_count`` honest accounts (see the module)."""
    from django.utils import timezone

    from games.models import User

    rng = random.Random(seed)
    deals = json.loads(DEALS.read_text())["deals"][first_day : first_day + days]
    start = date.fromisoformat(deals[0]["day"])
    joined = datetime.combine(start, datetime.min.time(), tzinfo=UTC) - timedelta(days=30)
    members = []
    with mock.patch.object(timezone, "now", lambda: joined):
        for n in range(players_count):
            user = User.objects.create_user(username=f"home-{seed}-{n}")
            members.append({"user": user, "token": _token(rng), "ua": BROWSERS[n % 3]})
    rows = []
    for offset, deal in enumerate(deals):
        day = start + timedelta(days=offset)
        today = household_day(day=day, deal=deal, members=members, new=new, rng=rng)
        held = sum(r["held"] for r in today)
        print(
            f"  day {day}: {held}/{len(today)} held, {sum(r['won'] for r in today)} won",
            file=sys.stderr,
            flush=True,
        )
        rows += today
    return rows


# The evasions ------------------------------------------------------------------------------


def evasion(kind: str, *, day: date, deal: dict, n: int) -> dict:
    """One round of evasion ``kind`` ("1", "2a", "2b", "3", or "3-moves": a scout who also
    makes six card moves, which no network check sees): "refused", "held" or "ranked"."""
    from django.utils import timezone

    from games import services
    from games.models import Game, User
    from leaderboards.models import Result

    rng = random.Random(f"{kind}-{n}")
    clock = Clock(datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=9), rng)
    password = "a long and honest passphrase"
    scout_jar, winner_jar = _token(rng), _token(rng)
    with mock.patch.object(timezone, "now", clock):
        deal_row = _day_deal(day, deal)
        tag = f"{kind}-{n}-{rng.random():.8f}"
        scout = User.objects.create_user(username=f"scout-{tag}", password=password)
        winner = User.objects.create_user(username=f"winner-{tag}", password=password)
        ua = BROWSERS[0]
        if kind.startswith("3"):
            _seen(scout, scout_jar, BROWSERS[1], rng)
        else:
            _seen(scout, winner_jar, ua, rng)
        scouting = ["s"] * 64
        if kind == "3-moves":
            scouting = _with_card_moves(deal_row.seed, 6)
        _play(scout, scouting, clock)
        started = None
        if kind == "2b":
            _seen(winner, winner_jar, ua, rng)
            started = services.game_start_daily(user=winner)
        if kind in ("1", "2a", "2b"):
            services.account_delete(user=scout, password=password)
        player = winner
        if kind == "1":  # the same person, the same name, the same browser
            player = User.objects.create_user(username=f"scout-{tag}", password=password)
        _seen(player, winner_jar, ua, rng)
        try:
            game = started or services.game_start_daily(user=player)
        except services.AttemptUsed:
            return {"kind": kind, "verdict": "refused"}
        for move in deal["line"].split():
            clock.think()
            services.game_act(kind="move", user=player, game_id=game.pk, move=move)
    result = Result.objects.get(game=game)
    assert Game.objects.get(pk=game.pk).status == Game.Status.WON
    verdict = "held" if result.review == Result.Review.HELD else "ranked"
    return {"kind": kind, "verdict": verdict}


def _with_card_moves(seed: int, count: int) -> list[str]:
    """Turn the whole stock, sending the first ``count`` cards that can go home."""
    game, log, made = GameState.from_seed(seed, VARIANT, undo_limit=0), [], 0
    while game.stock_count:
        home = [m for m in engine_moves.legal(game) if m.kind == TO_FOUNDATION]
        move = format_move(home[0]) if home and made < count else "s"
        made += move != "s"
        game.play(move)
        log.append(move)
    return log


def evasions(rounds: int, kinds: tuple[str, ...] = ("1", "2a", "2b", "3")) -> list[dict]:
    deals = json.loads(DEALS.read_text())["deals"]
    rows = []
    for kind in kinds:
        for n in range(rounds):
            deal = deals[(n * 7 + len(kind)) % len(deals)]
            day = date(2031, 1, 1) + timedelta(days=len(rows))
            rows.append(evasion(kind, day=day, deal={**deal, "day": day.isoformat()}, n=n))
            print(f"  evasion {kind} #{n}: {rows[-1]['verdict']}", file=sys.stderr, flush=True)
    return rows


# Reporting -----------------------------------------------------------------------------------


def report(rows: list[dict], caught: list[dict]) -> None:
    from fairplay import clopper_pearson

    held = sum(r["held"] for r in rows)
    low, high = clopper_pearson(held, len(rows))
    print(
        f"honest results held: {held}/{len(rows)} = {held / max(1, len(rows)):.2%}"
        f" (95 % CI {low:.2%}-{high:.2%}); target <= 1 %"
    )
    by = Counter((r["persona"], r["won"]) for r in rows)
    print("  results by persona (won/lost):", dict(sorted(by.items())))
    print("  reasons of the held:", Counter(x for r in rows if r["held"] for x in r["reasons"]))
    linked = sum(r["held"] and "linked" in r["reasons"] for r in rows)
    print(f"  held by the linked-account check: {linked}/{len(rows)}")
    print("  scout signs seen on links:", Counter(s for r in rows for s in r["signs"]))
    full = [r["card_moves"] for r in rows if r["turned"] >= 48]
    if full:
        print(
            f"  honest games that turned >= 75 % of the stock: {len(full)}; fewest other"
            f" moves {min(full)} (a scout sign needs <= 5); under 10: {sum(c < 10 for c in full)}"
        )
    for kind in sorted({c["kind"] for c in caught}):
        verdicts = Counter(c["verdict"] for c in caught if c["kind"] == kind)
        print(f"evasion {kind:8s} {dict(verdicts)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--new", type=int, default=1, help="accounts made each morning")
    parser.add_argument("--evasions", type=int, default=3, help="rounds of each evasion")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-day", type=int, default=0, help="index of the first deal")
    args = parser.parse_args(argv)
    from benchmarks.fairplay_stack import _django

    _django()
    began = time.process_time()
    caught = evasions(args.evasions, ("1", "2a", "2b", "3", "3-moves"))
    rows = household(
        players_count=args.players,
        days=args.days,
        new=args.new,
        seed=args.seed,
        first_day=args.first_day,
    )
    print(f"CPU {time.process_time() - began:.0f} s")
    report(rows, caught)


if __name__ == "__main__":
    main()
