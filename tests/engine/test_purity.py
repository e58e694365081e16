"""The engine is pure Python: no Django, so anyone can run it to verify a game. (No
module of the engine or the solver imports Django: the import contracts in pyproject.toml,
run by tests/test_dependencies.py; this checks what a running interpreter loads.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_and_playing_with_the_engine_loads_no_django() -> None:
    code = (
        "import sys; from games.engine import GameState; g = GameState.from_seed(1); g.play('s');"
        "assert not any(m.split('.')[0] == 'django' for m in sys.modules), 'django loaded'"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
