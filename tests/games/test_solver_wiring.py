"""The solver wired into the platform: certified daily deals, hints, the dead-end notice,
difficulty ratings and the batches. Budgets stay tiny: the "indian" variant is won by the
solver in a few thousand nodes, and the endgames are built by hand."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ftsite.asgi import application
from games import selectors, services, tasks
from games.daily import daily_seed, utc_today
from games.engine import GameState
from games.errors import Forbidden, GameOver
from games.models import Deal, Game, User
from games.runtime.live import engine_for
from games.runtime.solver_pool import dead_end_for_state
from games.services import deals as deals_service
from games.solver import SolveResult, evidence, horizon
from tests.support.games import game_play, game_resign, game_undo

pytestmark = pytest.mark.django_db

FAST = "indian"  # a variant the solver wins in well under a second
PRACTICE_CODE = "FT1-N-0000007"

# Endgames reached by play (the log is the game: no position is built by hand). A random
# player's game of deal 4 with the stock spent: no win is left, moves remain, and the
# solver needs more than one node to prove it.
DEAD_CODE = "FT1-N-0000004"
DEAD_LOG = (Path(__file__).parent.parent / "data" / "dead_end_log.txt").read_text().split()
DEAD_LAST = "t4-t7"  # a move that stays in the dead end
# The classic win (tests/data/classic_win.json) near its end: winnable.
CLASSIC = json.loads((Path(__file__).parent.parent / "data" / "classic_win.json").read_text())
LIVE_CODE = "FT1-N-045DRXRH12V7ARRD8RT69WAGC4"
LIVE_LOG = CLASSIC["moves"].split()[:-8]  # a few moves from the win, the stock spent


def endgame(user: User, code: str, log: list[str]) -> Game:
    """A practice game of ``code`` played through ``log`` by the services."""
    game = services.game_start_practice(user=user, code=code)
    for move in log:
        game_play(user=user, game_id=game.pk, move=move)
    return Game.objects.get(pk=game.pk)


def decide_dead_end(result: services.ActOutcome) -> bool:
    """What the solver pool would do after the answer: decide and record the verdict."""
    check = result.dead_end_check
    assert check is not None
    verdict = dead_end_for_state(
        check.state, settings.FT_DEAD_END_MS / 1000, settings.FT_DEAD_END_NODES
    )
    return services.game_dead_end_record(check=check, dead=verdict)


@pytest.fixture
def certify(settings) -> None:
    """The deterministic certification (FT_DAILY_CERTIFY_NODES) on the classic daily: a
    fixed-budget decision from the deal's start, a fraction of a second a candidate."""
    settings.FT_DAILY_CERTIFY_SECONDS = 5
    settings.FT_DAILY_CERTIFY_NODES = evidence.NODES
    settings.FT_DAILY_MAX_CANDIDATES = 20


def verdicts(day: date, count: int) -> list[str]:
    """What the certification says of the day's first ``count`` classic candidates."""
    found = []
    for candidate in range(count):
        seed = daily_seed(settings.FT_DAILY_SECRET, day, "forty-thieves", candidate)
        engine = GameState.from_seed(seed, "forty-thieves", undo_limit=0)
        found.append(evidence.certification(engine, max_nodes=evidence.NODES).verdict)
    return found


# Certified daily deals ---------------------------------------------------------------------


def test_certification_skips_candidates_the_solver_does_not_win(certify) -> None:
    # Find a day whose candidate 0 is not won within the budget but a later one is.
    for offset in range(30):
        day = date(2026, 12, 1) + timedelta(days=offset)
        found = verdicts(day, 6)
        if found[0] != "win" and "win" in found:
            break
    else:
        pytest.skip("no day with a losing candidate 0 and a winning later one")
    deal = services.deal_open_daily(day=day)
    expected = found.index("win")
    assert deal.candidate == expected > 0
    assert deal.seed == daily_seed(settings.FT_DAILY_SECRET, day, "forty-thieves", expected)
    assert deal.solver_verdict == "win" and deal.solver_nodes > 0
    assert deal.certify_nodes == evidence.NODES  # the sequential test draws as it did
    assert deal.solver_seconds is not None and 1 <= deal.difficulty <= 5
    # The stored line is the engine's win.
    engine = GameState.from_seed(deal.seed, "forty-thieves", undo_limit=0)
    engine.replay(deal.solution.split())
    assert engine.is_won()
    assert services.deal_open_daily(day=day).pk == deal.pk  # idempotent


def test_a_deterministic_certification_repeats_whatever_the_clock_budget(settings) -> None:
    engine = GameState.from_seed(
        daily_seed(settings.FT_DAILY_SECRET, date(2026, 12, 1), "forty-thieves", 0),
        "forty-thieves",
        undo_limit=0,
    )
    first = evidence.certification(engine, max_seconds=0.001, max_nodes=500)
    again = evidence.certification(engine, max_seconds=100, max_nodes=500)
    assert (first.verdict, first.line, first.nodes) == (again.verdict, again.line, again.nodes)


def test_a_clock_certified_deal_records_no_node_cap(settings) -> None:
    settings.FT_DAILY_CERTIFY_SECONDS = 5
    settings.FT_DAILY_MAX_CANDIDATES = 20
    deal = services.deal_open_daily(day=date(2026, 12, 1), variant=FAST)
    assert deal.solver_verdict == "win" and deal.certify_nodes is None


def test_certification_takes_the_first_candidate_the_solver_wins() -> None:
    calls: list[int] = []

    def fake(engine: GameState, *, max_seconds: float, max_nodes: int | None) -> SolveResult:
        calls.append(len(calls))
        if len(calls) < 3:
            return SolveResult("lost" if len(calls) == 1 else "unknown", [], 10, 0.1)
        return SolveResult("win", ["s"], 1234, 0.2)

    cert = services.certify_daily_seed(
        day=date(2026, 12, 1), variant="forty-thieves", seconds=1, solver=fake
    )
    assert cert.candidate == 2 and calls == [0, 1, 2]
    assert cert.line == ("s",) and cert.nodes == 1234
    assert cert.seed == daily_seed(settings.FT_DAILY_SECRET, date(2026, 12, 1), "forty-thieves", 2)


def test_no_winning_candidate_leaves_the_day_unopened_and_the_task_logs_it(
    settings, caplog, monkeypatch
) -> None:
    settings.FT_DAILY_CERTIFY_SECONDS = 5
    settings.FT_DAILY_CERTIFY_NODES = 1
    settings.FT_DAILY_MAX_CANDIDATES = 2
    monkeypatch.setattr(  # a certification that wins nothing
        deals_service, "certification", lambda engine, **budget: SolveResult("unknown")
    )
    with pytest.raises(services.DealNotCertified, match="no candidate"):
        services.deal_open_daily(day=date(2026, 12, 1), variant=FAST)
    assert not Deal.objects.exists()
    assert tasks.open_upcoming_deals() == []
    assert "could not open the deal" in caplog.text
    assert not Deal.objects.exists()


def test_without_certification_candidate_zero_is_the_deal_unrated() -> None:
    deal = services.deal_open_daily(day=date(2026, 12, 1))
    assert deal.candidate == 0 and deal.difficulty is None and deal.solution == ""
    assert deal.seed == daily_seed(settings.FT_DAILY_SECRET, date(2026, 12, 1), "forty-thieves")


def test_the_home_page_no_longer_opens_the_deal(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert "opens shortly" in html
    assert not Deal.objects.exists()


# Hints --------------------------------------------------------------------------------------


@pytest.fixture
def quick_hints(settings) -> None:
    settings.FT_HINT_SECONDS = 0.2


def test_a_hint_is_a_legal_move_and_is_counted(user: User, quick_hints) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    legal = engine_for(game).legal_moves()
    first = services.game_hint(user=user, game_id=game.pk)
    assert first.move in legal and first.hints == 1 and first.version == 0
    game_play(user=user, game_id=game.pk, move=first.move)
    game.refresh_from_db()
    second = services.game_hint(user=user, game_id=game.pk)
    assert second.move in engine_for(game).legal_moves() and second.hints == 2
    assert Game.objects.get(pk=game.pk).hints == 2


def test_a_hint_in_a_winnable_endgame_is_the_next_move_of_a_win(user: User, quick_hints) -> None:
    game = endgame(user, LIVE_CODE, LIVE_LOG)
    hinted = services.game_hint(user=user, game_id=game.pk)
    game_play(user=user, game_id=game.pk, move=hinted.move)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        hinted = services.game_hint(user=user, game_id=game.pk)
        game_play(user=user, game_id=game.pk, move=hinted.move)
        game.refresh_from_db()
    assert game.status == Game.Status.WON and game.hints >= 2


def test_hints_are_refused_in_ranked_finished_and_other_players_games(
    user: User, bob: User, quick_hints
) -> None:
    ranked = services.game_start_daily(user=user)
    with pytest.raises(Forbidden, match="ranked games have no hints"):
        services.game_hint(user=user, game_id=ranked.pk)
    practice = services.game_start_practice(user=user, code=PRACTICE_CODE)
    with pytest.raises(Forbidden):
        services.game_hint(user=bob, game_id=practice.pk)
    game_resign(user=user, game_id=practice.pk)
    with pytest.raises(GameOver):
        services.game_hint(user=user, game_id=practice.pk)
    assert Game.objects.get(pk=practice.pk).hints == 0
    assert Game.objects.get(pk=ranked.pk).hints == 0


def test_the_api_gives_hints(user: User, quick_hints) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    ranked = services.game_start_daily(user=user)
    client = Client(enforce_csrf_checks=False)
    client.force_login(user)
    answer = client.post(f"/api/v1/games/{game.pk}/hint")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["type"] == "hint" and body["hints"] == 1
    assert body["move"] in engine_for(game).legal_moves()
    refused = client.post(f"/api/v1/games/{ranked.pk}/hint")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    state = client.get(f"/api/v1/games/{game.pk}").json()
    assert state["hints"] == 1 and state["dead_end"] is False


@pytest.mark.django_db(transaction=True)
def test_the_socket_gives_hints_to_the_player_only(user: User, bob: User, settings) -> None:
    settings.FT_HINT_SECONDS = 0.2
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    legal = engine_for(game).legal_moves()

    async def talk() -> tuple[dict[str, Any], dict[str, Any]]:
        async def socket(who: User) -> WebsocketCommunicator:
            client = Client()
            await database_sync_to_async(client.force_login)(who)
            name = settings.SESSION_COOKIE_NAME
            cookie = f"{name}={client.cookies[name].value}"
            ws = WebsocketCommunicator(
                application,
                f"/ws/games/{game.pk}/",
                headers=[
                    (b"origin", b"http://127.0.0.1"),
                    (b"host", b"127.0.0.1"),
                    (b"cookie", cookie.encode()),
                ],
            )
            assert (await ws.connect())[0]
            assert json.loads(await ws.receive_from())["type"] == "hello"
            return ws

        mine, theirs = await socket(user), await socket(bob)
        await mine.send_to(text_data=json.dumps({"type": "hint", "id": "h1"}))
        hinted = json.loads(await mine.receive_from(timeout=10))
        await theirs.send_to(text_data=json.dumps({"type": "hint", "id": "h2"}))
        refused = json.loads(await theirs.receive_from(timeout=10))
        assert await mine.receive_nothing(timeout=0.05)  # nothing broadcast
        await mine.disconnect()
        await theirs.disconnect()
        return hinted, refused

    hinted, refused = async_to_sync(talk)()
    assert hinted["type"] == "hint" and hinted["id"] == "h1" and hinted["hints"] == 1
    assert hinted["move"] in legal and hinted["version"] == 0
    assert refused["type"] == "refused" and refused["code"] == "forbidden"


# The dead-end notice --------------------------------------------------------------------------


def test_the_dead_end_flag_is_raised_when_no_win_is_possible(user: User) -> None:
    game = endgame(user, DEAD_CODE, DEAD_LOG)
    result = game_play(user=user, game_id=game.pk, move=DEAD_LAST)
    # The answer does not wait for the solver: the verdict comes after it.
    assert result.status == "active" and "dead_end" not in result.changes
    assert result.dead_end_check is not None and result.dead_end_check.version == result.version
    assert decide_dead_end(result) is True
    state = selectors.game_state(user=user, game_id=game.pk)
    assert state["dead_end"] is True and state["legal_moves"]
    # The player may end it; a finished game has no dead-end notice.
    game_resign(user=user, game_id=game.pk)
    assert selectors.game_state(user=user, game_id=game.pk)["dead_end"] is False


def test_a_verdict_for_an_older_position_marks_nothing(user: User) -> None:
    game = endgame(user, DEAD_CODE, DEAD_LOG)
    result = game_play(user=user, game_id=game.pk, move=DEAD_LAST)
    game_undo(user=user, game_id=game.pk)  # the position the check was for is gone
    assert decide_dead_end(result) is False
    assert selectors.game_state(user=user, game_id=game.pk)["dead_end"] is False


def test_the_dead_end_flag_never_shows_while_a_win_is_possible(user: User) -> None:
    game = endgame(user, LIVE_CODE, LIVE_LOG)
    result = game_play(user=user, game_id=game.pk, move=CLASSIC["moves"].split()[-8])
    assert decide_dead_end(result) is False
    assert selectors.game_state(user=user, game_id=game.pk)["dead_end"] is False
    # Nor before the stock is spent (not an endgame: never asked there).
    fresh = services.game_start_practice(user=user, code=PRACTICE_CODE)
    assert game_play(user=user, game_id=fresh.pk, move="s").dead_end_check is None


def test_an_undecided_dead_end_says_nothing(user: User, settings) -> None:
    settings.FT_DEAD_END_NODES = 1
    game = endgame(user, DEAD_CODE, DEAD_LOG)
    result = game_play(user=user, game_id=game.pk, move=DEAD_LAST)
    assert decide_dead_end(result) is False


def test_the_game_page_carries_the_dead_end_banner_and_the_hint_button(
    client: Client, user: User
) -> None:
    game = endgame(user, DEAD_CODE, DEAD_LOG)
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    banner = re.search(r'<div class="ft-dead-end" data-testid="dead-end"[^>]*>', html)
    assert banner and "hidden" in banner.group(0)
    assert 'data-action="hint"' in html
    decide_dead_end(game_play(user=user, game_id=game.pk, move=DEAD_LAST))
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    banner = re.search(r'<div class="ft-dead-end" data-testid="dead-end"[^>]*>', html)
    assert banner and "hidden" not in banner.group(0)
    assert "No win is possible any more from here." in html
    ranked = services.game_start_daily(user=user)
    assert (
        'data-action="hint"' not in client.get(reverse("game", args=[ranked.pk])).content.decode()
    )


# Difficulty -----------------------------------------------------------------------------------


def test_difficulty_buckets() -> None:
    assert [services.difficulty_for("win", n) for n in (1, 1_000, 1_001, 20_000, 10**6)] == [
        1,
        1,
        2,
        3,
        5,
    ]
    assert services.difficulty_for("unknown", 5) == 0 == services.difficulty_for("lost", 5)


def test_a_practice_game_of_an_unrated_deal_enqueues_its_rating(
    user: User, settings, django_capture_on_commit_callbacks
) -> None:
    settings.FT_RATE_SECONDS = 5
    settings.FT_RATE_PRACTICE_ON_START = True
    code = "FT1-I-0000003"
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_start_practice(user=user, code=code)
    deal = Deal.objects.get(pk=game.deal_id)
    assert deal.solver_verdict in {"win", "unknown", "lost"} and deal.difficulty is not None
    if deal.solver_verdict == "win":
        assert 1 <= deal.difficulty <= 5
    # Rated once: a second game enqueues nothing.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_start_practice(user=user, code=code)
    assert callbacks == []


def test_difficulty_is_shown_on_the_practice_game_and_home_pages(
    client: Client, user: User
) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    Deal.objects.filter(pk=game.deal_id).update(difficulty=3, solver_verdict="win")
    today = services.deal_open_daily(day=utc_today(timezone.now()))
    Deal.objects.filter(pk=today.pk).update(difficulty=0, solver_verdict="unknown")
    client.force_login(user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "★★★☆☆" in page
    practice = client.get(reverse("practice") + f"?code={PRACTICE_CODE}").content.decode()
    assert "★★★☆☆" in practice
    home = client.get(reverse("home")).content.decode()
    assert "unsolved" in home
    Deal.objects.filter(pk=today.pk).update(difficulty=5, solver_verdict="win")
    assert "★★★★★" in client.get(reverse("home")).content.decode()
    assert "★★★★★" in client.get(reverse("leaderboards:daily_today")).content.decode()
    assert client.get(f"/api/v1/games/{game.pk}").json()["deal"]["difficulty"] == 3


# Batches ----------------------------------------------------------------------------------------


def test_certify_upcoming_reports_progress(monkeypatch) -> None:
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(
        tasks.certify_upcoming, "update_state", lambda **kw: seen.append(kw), raising=False
    )
    result = tasks.certify_upcoming.apply(kwargs={"days": 3}).get()
    assert [item["candidate"] for item in result["opened"]] == [0, 0, 0]
    assert Deal.objects.filter(kind=Deal.Kind.DAILY).count() == 3
    assert [s["meta"] for s in seen] == [{"done": i, "total": 3} for i in range(4)]
    assert {s["state"] for s in seen} == {"PROGRESS"}


def test_rate_practice_deals_reports_progress(monkeypatch, user: User) -> None:
    for code in ("FT1-I-0000003", "FT1-I-0000004"):
        services.deal_for_code(code=code)
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(
        tasks.rate_practice_deals, "update_state", lambda **kw: seen.append(kw), raising=False
    )
    result = tasks.rate_practice_deals.apply(kwargs={"seconds": 2}).get()
    assert len(result["rated"]) == 2
    assert not Deal.objects.filter(kind=Deal.Kind.PRACTICE, difficulty__isnull=True).exists()
    assert [s["meta"]["done"] for s in seen] == [0, 1, 2]


def test_the_solve_deals_command_shows_a_progress_bar() -> None:
    services.deal_for_code(code="FT1-I-0000003")
    out = StringIO()
    call_command("solve_deals", "--days", "2", stdout=out)  # certification is off here
    call_command("solve_deals", "--rate-practice", "--seconds", "2", stdout=out)
    text = out.getvalue()
    assert "\r[-----" in text and "\r[#####-----] 1/2" in text and "\r[##########] 2/2" in text
    assert "\r[##########] 1/1" in text and "rated 1 practice deals" in text
    assert Deal.objects.filter(kind=Deal.Kind.DAILY).count() == 2


def test_the_solve_deals_command_needs_something_to_do() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="nothing to do"):
        call_command("solve_deals", stdout=StringIO())


def test_the_dead_end_check_never_speaks_while_a_card_is_face_down() -> None:
    from games.engine import GameState
    from games.services.play import _dead_end_check

    # Indian deals one face-down card per column; spend the stock with draws only.
    engine = GameState.from_seed(5, "indian")
    engine.replay(["s"] * engine.stock_count)
    assert engine.face_down == 10 and engine.stock_count == 0
    practice = Game(deal=Deal(kind=Deal.Kind.PRACTICE), mode=Game.Mode.PRACTICE)
    assert _dead_end_check(practice, engine) is None


def test_a_deterministically_certified_deal_gets_its_completions_drawn_once(
    certify, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    from games.models import DealCompletions
    from games.services import completions

    drawn: list[int] = []

    def small_pool(seed, variant, *, accept, rng, **kwargs):
        drawn.append(seed)
        return evidence.certified_pool(
            seed, variant, accept=accept, rng=rng, completions=1, max_stock=4, **kwargs
        )

    def small_tails(seed, variant, *, accept, rng, **kwargs):
        return horizon.certified_tails(seed, variant, accept=accept, rng=rng, max_stock=8)

    monkeypatch.setattr(completions, "certified_pool", small_pool)
    monkeypatch.setattr(completions, "certified_tails", small_tails)
    queued: list[int] = []
    monkeypatch.setattr(deals_service, "_enqueue_completions", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        deal = services.deal_open_daily(day=date(2026, 12, 1))
    assert queued == [deal.pk]  # on the solver queue, after the commit
    stored = tasks.build_completions(deal.pk)
    pool = DealCompletions.objects.get(deal=deal)
    assert stored == len(pool.pool) and pool.nodes == evidence.NODES
    for count, orders in pool.orders().items():
        assert count == 4 and len(orders) == 1 and sorted(orders[0]) == sorted(deal_stock(deal)[:4])
    # The horizon statistic's tail: one certified order of the cards left at 4.
    assert list(pool.tail_orders()) == [4]
    assert sorted(pool.tail_orders()[4]) == sorted(deal_stock(deal)[:4])
    tasks.build_completions(deal.pk)  # idempotent: drawn once
    assert drawn == [deal.seed] and DealCompletions.objects.count() == 1


def test_a_clock_certified_or_uncertified_deal_gets_no_completions() -> None:
    deal = services.deal_open_daily(day=date(2026, 12, 1))  # certification off here
    assert tasks.build_completions(deal.pk) is None


def deal_stock(deal: Deal) -> list[int]:
    return list(GameState.from_seed(deal.seed, deal.variant, undo_limit=0).stock)
