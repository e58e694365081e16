"""The engine is pure Python: no Django, so anyone can run it to verify a game."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = [ROOT / "games" / "engine", ROOT / "games" / "solver"]


@pytest.mark.parametrize("package", PURE, ids=lambda p: p.name)
def test_no_engine_or_solver_module_imports_django(package: Path) -> None:
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            assert not any(n.split(".")[0] == "django" for n in names), path


def test_importing_and_playing_with_the_engine_loads_no_django() -> None:
    code = (
        "import sys; from games.engine import GameState; g = GameState.from_seed(1); g.play('s');"
        "assert not any(m.split('.')[0] == 'django' for m in sys.modules), 'django loaded'"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
