"""Dependencies point one way, as the import contracts in pyproject.toml say
(``[tool.importlinter]``): games never imports leaderboards; the engine and the solver
import no Django; the realtime path is layered, socket > services > runtime > solver >
engine, and the socket's machinery calls no service; leaderboards reaches games' runtime
only through its services; fair play never imports the verdict's services. ``make
typecheck`` runs the contracts in CI; this test runs them in the unit tier too, so a
violation fails there first.

Games announces (``games.signals``); leaderboards listens.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def test_the_import_contracts_hold() -> None:
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "BROKEN" not in result.stdout


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
