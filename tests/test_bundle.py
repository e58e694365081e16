"""The play table's bundle (static/dist) is what `make bundle` makes from the sources now:
a change to static/js or static/css that was not bundled fails here, not on a player's page."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "static" / "dist"
IN_CI = os.environ.get("CI", "").lower() == "true"


def test_the_committed_bundle_is_what_make_bundle_makes(tmp_path: Path) -> None:
    if shutil.which("npm") is None:
        if IN_CI:
            pytest.fail("npm is missing; .ci/run installs it")
        pytest.skip("npm is missing: the bundle cannot be rebuilt here")
    built = subprocess.run(
        ["make", "-s", "--no-print-directory", "bundle", f"BUNDLE_DIR={tmp_path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    names = sorted(p.name for p in tmp_path.iterdir())
    assert (
        names
        == sorted(p.name for p in DIST.iterdir())
        == [
            "duel.js",
            "site.css",
            "table.css",
            "table.js",
        ]
    )
    for name in names:
        assert (tmp_path / name).read_bytes() == (DIST / name).read_bytes(), (
            f"static/dist/{name} is stale: run `make bundle` and commit it"
        )


def test_the_table_page_loads_the_bundle_and_not_the_modules() -> None:
    page = (ROOT / "templates" / "games" / "game.html").read_text(encoding="utf-8")
    assert "dist/table.js" in page and "dist/table.css" in page
    assert "js/board/main.js'" not in page and "css/board.css'" not in page
