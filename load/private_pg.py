"""A throw-away PostgreSQL cluster on a free port, for a run that may exhaust its
connections (``load.pool``'s "before" run fills ``max_connections`` on purpose): the
machine's own PostgreSQL, which other people's tests share, is never the one filled.

Built with the machine's ``initdb`` and ``pg_ctl`` (Debian's, under
``/usr/lib/postgresql/*/bin``), as the ``postgres`` user when run as root (initdb refuses
root), with ``max_connections`` as asked (100, PostgreSQL's default, by default) and trust
authentication on 127.0.0.1 only; deleted on :meth:`PrivatePostgres.stop`.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.servers import free_port


def _bin(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))), None
    )
    if not found:
        raise RuntimeError(f"{name} not found: install PostgreSQL's server package")
    return found


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@dataclass
class PrivatePostgres:
    max_connections: int = 100
    port: int = field(default_factory=free_port)
    directory: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ft-pg-")))

    @property
    def data(self) -> Path:
        return self.directory / "data"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
        subprocess.run(
            _as_postgres([_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust"]),
            check=True,
            capture_output=True,
        )
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1"
            f" -c unix_socket_directories={self.directory}"
            f" -c max_connections={self.max_connections} -c fsync=off -c synchronous_commit=off"
        )
        subprocess.run(
            _as_postgres(
                [
                    _bin("pg_ctl"),
                    "-D",
                    str(self.data),
                    "-o",
                    options,
                    "-l",
                    str(self.directory / "log"),
                    "-w",
                    "start",
                ]
            ),  # fmt: skip
            check=True,
            capture_output=True,
        )
        deadline = time.monotonic() + 30
        while subprocess.run(
            [_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)], capture_output=True
        ).returncode:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL on {self.port} never answered")
            time.sleep(0.2)

    def stop(self) -> None:
        subprocess.run(
            _as_postgres([_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(self.directory, ignore_errors=True)
