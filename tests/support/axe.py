"""axe-core for the browser tier, fetched from the npm registry, never committed.

``axe_source()`` returns the text of axe-core's single ``axe.min.js`` at the pinned
version. The first run packs it with ``npm pack`` (the npm registry's own client),
checks the tarball against the pinned sha512 (the registry's ``integrity``), and keeps
the file in a cache directory (``FT_AXE_CACHE``, else ``.cache/axe-core/`` in the
checkout, ignored by git); later runs read the cache. Why not commit the file: it is
560 kB of minified third-party code that no diff can review and every upgrade would
add again to the history, while a pinned version with its hash gives the same bytes on
every clone. The cost is npm and the network on a clean machine's first run (the tier
already needs a network to install Playwright and the Python packages).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

AXE_VERSION = "4.14.1"
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2"
    "S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
ROOT = Path(__file__).resolve().parents[2]


class AxeUnavailable(RuntimeError):
    """npm is missing or the registry could not be reached: the caller skips or fails."""


def cache_dir() -> Path:
    return Path(os.environ.get("FT_AXE_CACHE", ROOT / ".cache" / "axe-core")) / AXE_VERSION


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _pack(into: Path) -> None:
    """``npm pack axe-core@AXE_VERSION``, checked, and its axe.min.js kept in ``into``."""
    npm = shutil.which("npm")
    if npm is None:
        raise AxeUnavailable("npm is missing (apt-get install npm): it fetches axe-core")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [npm, "pack", f"axe-core@{AXE_VERSION}", "--json", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            timeout=180,
        )
        if done.returncode != 0:
            raise AxeUnavailable(f"npm pack axe-core@{AXE_VERSION} failed: {done.stderr[-500:]}")
        tarball = Path(tmp) / json.loads(done.stdout)[0]["filename"]
        data = tarball.read_bytes()
        if _integrity(data) != AXE_INTEGRITY:
            raise AxeUnavailable(f"axe-core@{AXE_VERSION} does not match its pinned sha512")
        with tarfile.open(tarball) as archive:
            member = archive.extractfile("package/axe.min.js")
            assert member is not None
            source = member.read()
    into.mkdir(parents=True, exist_ok=True)
    # Two test workers may pack at once: each writes its own partial file.
    partial = into / f"axe.min.js.{os.getpid()}.partial"
    partial.write_bytes(source)
    partial.replace(into / "axe.min.js")  # whole or not at all


def axe_source() -> str:
    """The pinned axe-core's ``axe.min.js``, from the cache or packed on first use."""
    path = cache_dir() / "axe.min.js"
    if not path.exists():
        _pack(path.parent)
    return path.read_text(encoding="utf-8")
