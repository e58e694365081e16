"""The replay viewer: frames of real verified games, who may see them, and no hidden card."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import GameState, format_code, parse_code, parse_variant
from games.engine.cards import RANKS, SUITS
from games.errors import Forbidden, NotAuthenticated, NotFound
from games.models import Deal, Game, User
from games.runtime.live import engine_for
from leaderboards.models import Result
from leaderboards.replays.frames import action_words, card_label, replay_frames
from leaderboards.share import VerificationPending
from tests.support.games import apply_changes, game_play, game_resign, game_undo

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
WON = json.loads((Path(__file__).parent.parent / "data" / "won_games.json").read_text())["games"]
WON_BY_VARIANT = {g["variant"]: g for g in WON}


def play(user: User, game: Game, moves: list[str], capture: Capture) -> Game:
    """Play through the services; verification runs eagerly on commit."""
    with capture(execute=True):
        for move in moves:
            if move == "resign":
                game_resign(user=user, game_id=game.pk)
            elif move == "undo":
                game_undo(user=user, game_id=game.pk)
            else:
                game_play(user=user, game_id=game.pk, move=move)
    game.refresh_from_db()
    return game


def won_practice(user: User, variant: str, capture: Capture) -> tuple[Game, list[str]]:
    won = WON_BY_VARIANT[variant]
    game = services.game_start_practice(user=user, code=won["code"])
    moves = won["moves"].split()
    return play(user, game, moves, capture), moves


def ranked_daily(user: User, now: datetime, capture: Capture, draws: int = 3) -> Game:
    """A ranked game of the day's deal: a few draws, then resigned (verified on commit)."""
    game = services.game_start_daily(user=user, now=now)
    return play(user, game, ["s"] * draws + ["resign"], capture)


def close_day(game: Game) -> None:
    Deal.objects.filter(pk=game.deal_id).update(revealed_at=game.deal.closes_at)


def engine_views(game: Game, moves: list[str]) -> list[dict[str, Any]]:
    """The player's view after each prefix of ``moves``, each from a fresh engine."""
    undo = 0 if game.mode == "ranked" else 100
    views = []
    for k in range(len(moves) + 1):
        engine = GameState.from_seed(game.deal.seed, game.deal.variant, undo_limit=undo)
        engine.replay([m for m in moves[:k] if m != "resign"])
        views.append(engine.view())
    return views


def composed(frames: dict[str, Any]) -> list[dict[str, Any]]:
    """Every frame, as the browser builds them: the initial view, then each step's changes."""
    views = [frames["initial"]]
    for step in frames["steps"]:
        views.append(apply_changes(views[-1], step["changes"]))
    return views


# Real games ---------------------------------------------------------------------------------


def test_a_won_game_replays_step_by_step_to_the_won_position(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game, moves = won_practice(user, "josephine", django_capture_on_commit_callbacks)
    assert game.status == "won"
    assert Result.objects.get(game=game).status == Result.Status.VERIFIED
    frames = replay_frames(user=user, game_id=game.pk)
    steps = frames["steps"]
    assert [s["seq"] for s in steps] == list(range(1, len(moves) + 1))
    assert [s["action"] for s in steps] == moves
    assert steps[-1]["score"] == game.score
    final = composed(frames)[-1]
    assert final["won"] is True
    assert all(f["count"] == 13 for f in final["foundations"])
    assert final["columns"] and all(not c["cards"] for c in final["columns"])
    assert final == engine_for(game).view()


def test_frames_compose_and_stepping_back_restores_the_previous_view(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game, moves = won_practice(user, "streets", django_capture_on_commit_callbacks)
    frames = replay_frames(user=user, game_id=game.pk)
    views = composed(frames)
    # Only every 25th prefix from a fresh engine: each one replays the log from the start.
    expected = engine_views(game, moves)
    for k in range(0, len(views), 25):
        assert views[k] == expected[k], f"frame {k}"
    assert views[-1] == expected[-1]
    # Back from any step is exactly the frame before it.
    for k in (1, len(views) // 2, len(views) - 1):
        assert apply_changes(views[k - 1], frames["steps"][k - 1]["changes"]) == views[k]
        assert views[k - 1] == expected[k - 1]


def test_undo_and_resign_steps_replay_as_the_engine_did(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    moves = ["s", "s", "undo", "t3-t4", "resign"]
    game = play(user, game, moves, django_capture_on_commit_callbacks)
    assert Result.objects.get(game=game).status == Result.Status.VERIFIED
    frames = replay_frames(user=user, game_id=game.pk)
    views = composed(frames)
    assert views == engine_views(game, moves)
    board = ("columns", "waste", "stock", "foundations")
    # The undo takes the board back to before the second draw; resign changes nothing.
    assert {k: views[3][k] for k in board} == {k: views[1][k] for k in board}
    assert frames["steps"][-1]["changes"] == {} and views[-1] == views[-2]
    assert [s["words"] for s in frames["steps"]] == [
        "Turned the stock",
        "Turned the stock",
        "Took back the last action",
        "5 of hearts from column 3 to column 4",
        "Resigned",
    ]


def test_safe_cards_sent_home_are_steps_of_their_own_said_as_the_tables(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    user.table_settings = {"auto_home": True}
    user.save(update_fields=["table_settings"])
    game = services.game_start_practice(user=user, code="FT1-N-0000063")  # AH over AH
    game = play(user, game, ["s", "undo", "s", "resign"], django_capture_on_commit_callbacks)
    assert Result.objects.get(game=game).status == Result.Status.VERIFIED
    steps = replay_frames(user=user, game_id=game.pk)["steps"]
    assert [(s["action"], s["automatic"]) for s in steps] == [
        ("s", False),
        ("t7-f2", True),
        ("t7-f6", True),
        ("undo", True),
        ("undo", True),
        ("undo", False),
        ("s", False),
        ("t7-f2", True),
        ("t7-f6", True),
        ("resign", False),
    ]
    assert steps[1]["words"] == (
        "Sent home safely by the table: ace of hearts from column 7 to foundation 2"
    )
    assert steps[3]["words"] == "A safe card taken back with the move that sent it home"


# No hidden card -----------------------------------------------------------------------------


def _code(rank: int, suit: int) -> str:
    return RANKS[rank - 1] + SUITS[suit]


def face_up_in_engine(engine: GameState) -> Counter[str]:
    """Face-up cards as the full dump has them (foundations by their top card)."""
    dump = engine.dump()
    seen: Counter[str] = Counter()
    for column, down in zip(dump["columns"], dump["down"], strict=True):
        seen.update(column[down:])
    seen.update(dump["waste"])
    for k, rank in enumerate(dump["foundations"]):
        if rank:
            seen[_code(rank, engine.rules.foundation_suit(k))] += 1
    return seen


def cards_in_frame(view: dict[str, Any]) -> Counter[str]:
    seen: Counter[str] = Counter()
    for column in view["columns"]:
        seen.update(column["cards"])
    seen.update(view["waste"])
    seen.update(f["top"] for f in view["foundations"] if f["top"])
    return seen


def test_no_card_appears_in_a_frame_before_the_step_that_turns_it(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    # Indian deals a face-down card under each column: hidden cards in columns and stock.
    game, moves = won_practice(user, "indian", django_capture_on_commit_callbacks)
    assert parse_variant(game.deal.variant).face_down == 1
    frames = replay_frames(user=user, game_id=game.pk)
    views = composed(frames)
    engine = GameState.from_seed(game.deal.seed, game.deal.variant, undo_limit=100)
    first_in_engine: dict[str, int] = {}
    first_in_frames: dict[str, int] = {}
    for k, view in enumerate(views):
        if k:
            engine.replay([moves[k - 1]])
        visible = face_up_in_engine(engine)
        # Exactly the face-up cards, never one more: each frame is what the player saw.
        assert cards_in_frame(view) == visible, f"frame {k}"
        for card in visible:
            first_in_engine.setdefault(card, k)
        for card in cards_in_frame(view):
            first_in_frames.setdefault(card, k)
    assert first_in_frames == first_in_engine
    # Some cards really were hidden at first (the test would prove nothing otherwise).
    assert any(k > 0 for k in first_in_frames.values())
    initial = frames["initial"]
    assert isinstance(initial["stock"], int) and all(c["down"] == 1 for c in initial["columns"])
    text = json.dumps(frames)
    assert "??" not in text and '"history"' not in text and '"seed"' not in text


def test_the_replay_page_embeds_only_the_frames(
    user: User, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    game, _ = won_practice(user, "indian", django_capture_on_commit_callbacks)
    response = client.get(reverse("leaderboards:replay", args=[game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="replay-data"' in html and "js/replay.js" in html
    for label in ("First", "Back", "Forward", "Last"):
        assert f">{label}<" in html
    match = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html)
    assert match is not None
    embedded = json.loads(match.group(1))
    assert embedded == json.loads(json.dumps(replay_frames(user=AnonymousUser(), game_id=game.pk)))
    # Nothing of the stored state (hidden cards, undo history) is on the page.
    assert '"undo_limit"' not in html and '"history"' not in html and '"down": [' not in html


# Who may replay -----------------------------------------------------------------------------


def test_an_unfinished_game_has_no_replay(user: User, client: Client) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    with pytest.raises(NotFound):
        replay_frames(user=user, game_id=game.pk)
    client.force_login(user)
    assert client.get(reverse("leaderboards:replay", args=[game.pk])).status_code == 404


def test_a_game_awaiting_verification_says_so(user: User, client: Client) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    game_play(user=user, game_id=game.pk, move="s")
    game_resign(user=user, game_id=game.pk)  # no on-commit: never verified
    with pytest.raises(VerificationPending):
        replay_frames(user=user, game_id=game.pk)
    response = client.get(reverse("leaderboards:replay", args=[game.pk]))
    assert response.status_code == 409
    assert "Verification pending" in response.content.decode()
    assert 'id="replay-data"' not in response.content.decode()
    # The page asks again by itself, so a duel's "both replays" link opened a moment
    # before the worker finished still ends on the boards.
    assert '<meta http-equiv="refresh" content="5">' in response.content.decode()


def test_a_rejected_game_is_refused_clearly(
    user: User, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    game = play(user, game, ["s", "resign"], django_capture_on_commit_callbacks)
    Result.objects.filter(game=game).update(status=Result.Status.REJECTED, reason="forged")
    with pytest.raises(NotFound):
        replay_frames(user=user, game_id=game.pk)
    response = client.get(reverse("leaderboards:replay", args=[game.pk]))
    assert response.status_code == 404
    assert "rejected" in response.content.decode()


def test_an_unknown_game_is_not_found(client: Client) -> None:
    missing = "00000000-0000-0000-0000-000000000000"
    assert client.get(reverse("leaderboards:replay", args=[missing])).status_code == 404


def test_a_daily_game_before_close_is_for_its_owner_only(
    user: User,
    bob: User,
    now: datetime,
    client: Client,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game = ranked_daily(user, now, django_capture_on_commit_callbacks)
    assert Result.objects.get(game=game).status == Result.Status.VERIFIED
    assert not Deal.objects.get(pk=game.deal_id).is_revealed
    url = reverse("leaderboards:replay", args=[game.pk])
    # The owner, after finishing: their own game, said so.
    assert replay_frames(user=user, game_id=game.pk)["steps"]
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    assert "<h1>Replay of your game</h1>" in response.content.decode()
    # Anyone else: refused, even a player who finished their own attempt (and so may watch).
    with pytest.raises(NotAuthenticated):
        replay_frames(user=AnonymousUser(), game_id=game.pk)
    with pytest.raises(Forbidden):
        replay_frames(user=bob, game_id=game.pk)
    ranked_daily(bob, now, django_capture_on_commit_callbacks)
    with pytest.raises(Forbidden):
        replay_frames(user=bob, game_id=game.pk)
    client.force_login(bob)
    response = client.get(url)
    assert response.status_code == 403 and 'id="replay-data"' not in response.content.decode()
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


def test_a_daily_game_after_close_is_for_everyone(
    user: User,
    bob: User,
    now: datetime,
    client: Client,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game = ranked_daily(user, now, django_capture_on_commit_callbacks)
    close_day(game)
    assert replay_frames(user=bob, game_id=game.pk)["game"]["code"] == game.deal.code
    assert replay_frames(user=AnonymousUser(), game_id=game.pk)["steps"]
    response = client.get(reverse("leaderboards:replay", args=[game.pk]))
    assert response.status_code == 200
    # Anyone else reads whose game it is.
    assert "<h1>Replay of ada's game</h1>" in response.content.decode()
    assert not replay_frames(user=bob, game_id=game.pk)["game"]["mine"]
    assert replay_frames(user=user, game_id=game.pk)["game"]["mine"]


def test_a_won_daily_game_replays_after_close(
    user: User, now: datetime, client: Client, django_capture_on_commit_callbacks: Capture
) -> None:
    won = WON_BY_VARIANT["josephine"]
    rules, seed = parse_code(won["code"])
    day = now.date() - timedelta(days=1)
    deal = Deal.objects.create(
        kind=Deal.Kind.DAILY,
        variant=rules.spec,
        day=day,
        seed_hex=f"{seed:032x}",
        code=format_code(rules, seed) + "-daily",
    )
    game = Game.objects.create(player=user, deal=deal, mode="ranked")
    game = play(user, game, won["moves"].split(), django_capture_on_commit_callbacks)
    Deal.objects.filter(pk=deal.pk).update(revealed_at=now)  # played before the close
    result = Result.objects.get(game=game)
    assert result.ranked and result.status == Result.Status.VERIFIED and result.won
    frames = replay_frames(user=AnonymousUser(), game_id=game.pk)
    assert composed(frames)[-1]["won"] is True


# Words --------------------------------------------------------------------------------------


def test_actions_are_put_in_words_from_the_visible_board() -> None:
    before = {
        "waste": ["QH"],
        "columns": [{"down": 0, "cards": ["KS", "QD", "JC"]}],
        "foundations": [{"suit": "S", "count": 1, "top": "AS"}],
    }
    assert action_words("s", before) == "Turned the stock"
    assert action_words("w-t1", before) == "queen of hearts from the waste to column 1"
    assert action_words("t1-f1", before) == "jack of clubs from column 1 to foundation 1"
    assert (
        action_words("t1-t2x2", before)
        == "2 cards from queen of diamonds up, from column 1 to column 2"
    )
    assert action_words("f1-t1", before) == "ace of spades from foundation 1 to column 1"
    assert card_label("TH") == "10♥" and card_label("KS") == "K♠"


@pytest.mark.parametrize(
    ("language", "code", "words"),
    [
        ("en", "QD", "queen of diamonds"),
        ("en", "TS", "10 of spades"),
        ("it", "QD", "regina di quadri"),
        ("it", "AH", "asso di cuori"),
    ],
)
def test_a_replay_names_the_card_in_the_reader_s_language(
    language: str, code: str, words: str
) -> None:
    # The ranks' words were never extracted, so a court card stayed English everywhere.
    from django.utils import translation

    from leaderboards.replays.frames import card_words

    with translation.override(language):
        assert card_words(code) == words
