"""Dependencies point one way: ``leaderboards`` builds on ``games``, never the reverse.

Games announces (``games.signals``); leaderboards listens. A single import of
``leaderboards`` anywhere in ``games/`` (even inside a function) fails this test.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_games_never_imports_leaderboards() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            m for m in imported_modules(path) if m.split(".")[0] == "leaderboards"
        )
        for path in (ROOT / "games").rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from leaderboards.tasks import verify_game\n")
    assert "leaderboards.tasks" in imported_modules(module)


def test_leaderboards_queues_a_verification_when_games_announces_a_finish() -> None:
    from unittest import mock

    from games.signals import announce_game_finished
    from leaderboards.tasks import verify_game

    with mock.patch.object(verify_game, "delay") as delay:
        announce_game_finished("a-game")
    delay.assert_called_once_with("a-game")


def test_a_failing_listener_is_logged_and_does_not_stop_the_others(caplog) -> None:
    from unittest import mock

    from games.signals import announce_game_finished, game_finished
    from leaderboards.tasks import verify_game

    def broken(**_: object) -> None:
        raise RuntimeError("listener down")

    game_finished.connect(broken, dispatch_uid="test.broken")
    try:
        with mock.patch.object(verify_game, "delay") as delay:
            announce_game_finished("g2")
    finally:
        game_finished.disconnect(dispatch_uid="test.broken")
    delay.assert_called_once_with("g2")
    assert "listener down" in caplog.text or "failed for g2" in caplog.text
